#!/usr/bin/env bash
# Checks a distribution archive (run by the build at verify, samples module): it unpacks, has every file where
# docs/deployment.md says, and its launcher runs the CLI and refuses a node that is not there with exit code 3.
#   deploy/check-dist.sh samples/target/troupe-<version>-dist.tar.gz
set -euo pipefail
ARCHIVE=${1:?usage: check-dist.sh <troupe-*-dist.tar.gz>}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tar -xzf "$ARCHIVE" -C "$WORK"
ROOT=$(find "$WORK" -mindepth 1 -maxdepth 1 -type d -name 'troupe-*')
[ -n "$ROOT" ] || { echo "check-dist: no troupe-<version> directory in $ARCHIVE" >&2; exit 1; }
for f in bin/troupe bin/class-cache.sh lib/troupe.jar conf/node.conf deploy/troupe-node.service docs/deployment.md docs/counters.md \
         docs/ops.md docs/node.md docs/configuration.md LICENSE; do
  [ -f "$ROOT/$f" ] || { echo "check-dist: $f is missing from $ARCHIVE" >&2; exit 1; }
done
[ -x "$ROOT/bin/troupe" ] || { echo "check-dist: bin/troupe is not executable" >&2; exit 1; }
"$ROOT/bin/troupe" help | grep -q "status | nodes | sessions" || { echo "check-dist: bin/troupe help lacks the CLI" >&2; exit 1; }
set +e
"$ROOT/bin/troupe" status --data-dir "$WORK/no-node" >"$WORK/out" 2>&1
code=$?
set -e
[ "$code" -eq 3 ] || { echo "check-dist: status of no node exited $code, not 3:" >&2; cat "$WORK/out" >&2; exit 1; }
grep -q "no counters file at" "$WORK/out" || { echo "check-dist: unexpected output:" >&2; cat "$WORK/out" >&2; exit 1; }
echo "check-dist: $(basename "$ARCHIVE") is complete and its launcher runs"
