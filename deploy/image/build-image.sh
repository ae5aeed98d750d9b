#!/usr/bin/env bash
# Builds the node's container image with no registry: a jlink runtime, the C libraries it links, and the node jar,
# imported FROM scratch (no shell, no package manager; about 60 MB). Run by `./troupe image` and by the chaos-tests
# build; docs/deployment.md ("A node in a container") says how to run it.
#   deploy/image/build-image.sh <troupe.jar> [tag]        default tag troupe/node:latest
# JDK selects the JDK whose jlink and modules make the runtime (default: JAVA_HOME, else the java on PATH).
# Starts a Docker engine first when none answers (ci/docker-up.sh).
set -euo pipefail
JAR=${1:?usage: build-image.sh <troupe.jar> [tag]}
TAG=${2:-troupe/node:latest}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT_DIR=$(cd "$HERE/../.." && pwd)
[ -f "$JAR" ] || { echo "build-image: no jar at $JAR" >&2; exit 1; }
if [ -z "${JDK:-}" ]; then
  if [ -n "${JAVA_HOME:-}" ]; then JDK=$JAVA_HOME; else JDK=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")"); fi
fi
[ -x "$JDK/bin/jlink" ] || { echo "build-image: no jlink in $JDK (set JDK to a full JDK)" >&2; exit 1; }
# What jdeps finds in the jar, plus what is reached only at run time: jdk.compiler (the directory replica's Chronicle
# Map compiles classes when it starts), java.management/jdk.management (JVM metrics), jdk.zipfs and jdk.crypto.ec.
MODULES=${MODULES:-java.base,java.compiler,jdk.compiler,java.desktop,java.naming,java.sql,java.management,jdk.management,jdk.httpserver,jdk.unsupported,jdk.zipfs,jdk.crypto.ec}

bash "$ROOT_DIR/ci/docker-up.sh" >&2

t0=$(date +%s)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FS=$WORK/rootfs
mkdir -p "$FS"/{app,tmp,etc/troupe,var/lib/troupe,dev/shm}
chmod 1777 "$FS/tmp"
# --generate-cds-archive: the runtime's own class-data-sharing archive, which the node's class cache builds on
"$JDK/bin/jlink" --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages --compress=2 \
  --generate-cds-archive --output "$FS/opt/java" >/dev/null 2>&1
# Every shared library the runtime links (ldd on the launcher and on each .so), copied under the same path, and the
# program interpreter.
libs=$( { ldd "$FS/opt/java/bin/java"; find "$FS/opt/java/lib" -name '*.so' -exec ldd {} \; ; } 2>/dev/null \
        | awk '/=> \//{print $3} /^[[:space:]]*\/.*ld-linux/{print $1}' | sort -u )
for lib in $libs; do mkdir -p "$FS$(dirname "$lib")"; cp -L "$lib" "$FS$lib"; done
interp=$(readelf -l "$FS/opt/java/bin/java" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
mkdir -p "$FS$(dirname "$interp")"; cp -L "$interp" "$FS$interp"
printf 'root:x:0:0:root:/root:/sbin/nologin\n' > "$FS/etc/passwd"
printf 'root:x:0:\n' > "$FS/etc/group"
printf 'hosts: files dns\n' > "$FS/etc/nsswitch.conf"
cp "$JAR" "$FS/app/troupe.jar"
cp "$HERE/node.conf" "$FS/etc/troupe/node.conf"
tar -C "$FS" -cf "$WORK/rootfs.tar" .

# The jar's manifest carries the JVM's --add-exports/--add-opens, so `java -jar` needs no flags: inside a container,
# `java -jar /app/troupe.jar status` runs the CLI against the node's files. TROUPE_JAVA_OPTS is not read here:
# pass JVM options with JDK_JAVA_OPTIONS (e.g. -Xmx256m).
old=$(docker image inspect -f '{{.Id}}' "$TAG" 2>/dev/null || true)
JVM='"/opt/java/bin/java","-XX:+UseSerialGC","-XX:MaxRAMPercentage=50"'
CACHE='"-XX:SharedArchiveFile=/app/troupe.jsa","-Xlog:cds=off","-Xlog:cds+dynamic=off"'
changes=(--change 'ENV JAVA_HOME=/opt/java PATH=/opt/java/bin' --change 'WORKDIR /var/lib/troupe'
  --change 'CMD ["node","--config","/etc/troupe/node.conf"]' --change 'EXPOSE 40100/udp')
base="troupe-image-build-$$"
docker import "${changes[@]}" --change "ENTRYPOINT [$JVM,\"-jar\",\"/app/troupe.jar\"]" \
  "$WORK/rootfs.tar" "$base" >/dev/null
# The node's class cache (io.troupe.node.local.ClassCache): a training run in a container of the image itself, so
# the archive names the jar where nodes will run it, then committed with an entrypoint that maps it. Without it (the
# run failed) the image still works; its nodes start about a second slower.
training=$(docker create --shm-size=256m --entrypoint /opt/java/bin/java "$base" -XX:+UseSerialGC \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  -XX:ArchiveClassesAtExit=/app/troupe.jsa -Xlog:cds=off -Xlog:cds+dynamic=off \
  -cp /app/troupe.jar io.troupe.node.local.ClassCacheTraining)
if docker start -a "$training" >"$WORK/training.log" 2>&1 && [ "$(docker inspect -f '{{.State.ExitCode}}' "$training")" = 0 ]; then
  docker commit "${changes[@]}" --change "ENTRYPOINT [$JVM,$CACHE,\"-jar\",\"/app/troupe.jar\"]" \
    "$training" "$TAG" >/dev/null
  cache="with its class cache"
else
  echo "build-image: the class cache's training run failed (the image goes without it):" >&2
  tail -5 "$WORK/training.log" >&2
  docker tag "$base" "$TAG"
  cache="without a class cache"
fi
docker rm "$training" >/dev/null
docker rmi "$base" >/dev/null 2>&1 || true
new=$(docker image inspect -f '{{.Id}}' "$TAG")
if [ -n "$old" ] && [ "$old" != "$new" ]; then docker rmi "$old" >/dev/null 2>&1 || true; fi  # leave no dangling image
size=$(docker image inspect -f '{{.Size}}' "$TAG")
echo "build-image: $TAG ($(( size / 1024 / 1024 )) MB, $cache) in $(( $(date +%s) - t0 )) s"
