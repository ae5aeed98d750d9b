# Sourced by the troupe launchers: the class cache of the JVM they start (io.troupe.node.local.ClassCache says
# what it is). Needs JAVA, JAR and FLAGS (the JVM flags, an array); sets CACHE_FLAGS. The archive sits beside the
# jar (troupe.jar: troupe.jsa) and is made, once, by a training run when it is missing or older than the jar; where
# it cannot be made (a read-only directory, a training run that fails) the JVM starts without one, a little slower.
# TROUPE_CLASS_CACHE=off starts without it.
class_cache() {
  CACHE_FLAGS=()
  [ "${TROUPE_CLASS_CACHE:-on}" = off ] && return 0
  local archive="${JAR%.jar}.jsa"
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
