# Sourced by the troupe launchers: the class cache of the JVM they start (io.troupe.node.local.ClassCache says
# what it is). Needs JAVA, JAR and FLAGS (the JVM flags, an array); sets CACHE_FLAGS. The archive sits beside the
# jar (troupe.jar: troupe.jsa) when that directory is writable, else in ~/.cache/troupe (an installed distribution
# is root's; the troupe user's home is its data directory), or in TROUPE_CLASS_CACHE_DIR; it is made, once, by a
# training run when it is missing or older than the jar. Where it cannot be made (no writable directory, a training
# run that fails) the JVM starts without one, a little slower. TROUPE_CLASS_CACHE=off starts without it.
class_cache() {
  CACHE_FLAGS=()
  [ "${TROUPE_CLASS_CACHE:-on}" = off ] && return 0
  local dir
  if [ -n "${TROUPE_CLASS_CACHE_DIR:-}" ]; then dir=$TROUPE_CLASS_CACHE_DIR
  elif [ -w "$(dirname "$JAR")" ]; then dir=$(dirname "$JAR")
  else dir="${HOME:-/tmp}/.cache/troupe"
  fi
  mkdir -p "$dir" 2>/dev/null || true
  local name
  name=$(basename "$JAR" .jar)
  local archive="$dir/$name.jsa"
  if [ ! "$archive" -nt "$JAR" ]; then
    local partial="$archive.tmp-$$"
    echo "troupe: making the class cache $archive (once per jar, a few seconds) ..." >&2
    if "$JAVA" "${FLAGS[@]}" "-XX:ArchiveClassesAtExit=$partial" -Xlog:cds=off -Xlog:cds+dynamic=off \
         -cp "$JAR" io.troupe.node.local.ClassCacheTraining >/dev/null 2>&1 && [ -f "$partial" ] \
       && mv -f "$partial" "$archive" 2>/dev/null; then
      :
    else
      rm -f "$partial" 2>/dev/null || true
      echo "troupe: no class cache at $archive (the training run or the move failed): starting without one" >&2
      return 0
    fi
  fi
  CACHE_FLAGS=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off -Xlog:cds+dynamic=off)
}
