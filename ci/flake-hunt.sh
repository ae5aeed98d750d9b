#!/usr/bin/env bash
# Runs the unit and integration tests N times (default 10) and reports every test that failed at least once, with
# how often: a test that fails once in twenty runs is a broken test (or a real race). Not part of .ci/run.
#
#   ci/flake-hunt.sh                      # the whole build, 10 rounds (chaos suites included)
#   ci/flake-hunt.sh 20                   # the whole build, 20 rounds
#   ci/flake-hunt.sh 20 cluster-client interconnect   # only these modules' tests (the rest built once, not tested)
#
# Extra Maven arguments go in FLAKE_MVN_ARGS (e.g. FLAKE_MVN_ARGS='-Dchaos.skip=true', or -Dtest=... to narrow).
# FLAKE_CONTINUE=1 keeps the rounds already in target/flake-hunt and adds N more after them (a 20-round hunt of the
# whole build takes four hours here: it can be run a few rounds at a time); the table covers every round kept.
# Each round's test reports are kept under target/flake-hunt/round-<n>/<module>/; the table is printed at the end and
# written to target/flake-hunt/summary.txt, with each round's time per module in target/flake-hunt/times.txt.
# Exit code: 0 if no test failed in any round, 1 otherwise (2 if a round's build broke before its tests ran).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ROUNDS=${1:-10}
shift || true
case "$ROUNDS" in ''|*[!0-9]*) echo "usage: $0 [N] [module...]  (N a positive number, got '$ROUNDS')" >&2; exit 2 ;; esac
[ "$ROUNDS" -ge 1 ] || { echo "usage: $0 [N] [module...]  (N must be at least 1)" >&2; exit 2; }
MODULES=("$@")
for m in "${MODULES[@]}"; do
  [ -f "$m/pom.xml" ] || { echo "$0: no module '$m' (a directory with a pom.xml at the repository root)" >&2; exit 2; }
done
# shellcheck disable=SC2206
EXTRA=(${FLAKE_MVN_ARGS:-})
OUT=target/flake-hunt
FIRST=1
if [ "${FLAKE_CONTINUE:-0}" = 1 ] && [ -d "$OUT" ]; then
  last=$(find "$OUT" -maxdepth 1 -name 'round-*.log' | sed 's/.*round-\([0-9]*\)\.log/\1/' | sort -n | tail -1)
  FIRST=$(( ${last:-0} + 1 ))
else
  rm -rf "$OUT"
fi
mkdir -p "$OUT"
LAST=$(( FIRST + ROUNDS - 1 ))

if [ ${#MODULES[@]} -gt 0 ]; then
  PL=$(IFS=,; echo "${MODULES[*]}")
  echo "[flake-hunt] building and installing what the modules need, once, without tests"
  ./mvnw -B -q install -DskipTests -Dchaos.skip=true -pl "$PL" -am "${EXTRA[@]}" >"$OUT/install.log" 2>&1 \
    || { echo "[flake-hunt] the build failed: $OUT/install.log" >&2; tail -20 "$OUT/install.log" >&2; exit 2; }
  SELECT=(-pl "$PL")
else
  SELECT=()
fi

broken=0
for round in $(seq "$FIRST" "$LAST"); do
  log="$OUT/round-$round.log"
  rm -rf ./*/target/surefire-reports ./*/target/failsafe-reports # a module not run this round leaves nothing stale
  start=$(date +%s)
  # -fae and failure.ignore: every module's tests run whatever failed before, so one round counts every failure
  set +e
  ./mvnw -B verify -fae -Dmaven.test.failure.ignore=true "${SELECT[@]}" "${EXTRA[@]}" >"$log" 2>&1
  rc=$?
  set -e
  took=$(( $(date +%s) - start ))
  for reports in */target/surefire-reports */target/failsafe-reports; do
    [ -d "$reports" ] || continue
    module=${reports%%/*}
    mkdir -p "$OUT/round-$round/$module"
    cp "$reports"/TEST-*.xml "$OUT/round-$round/$module/" 2>/dev/null || true
  done
  { echo "round $round: ${took}s (maven exit $rc)"; grep -E '^\[INFO\] .* (SUCCESS|FAILURE) \[' "$log" || true; } \
    >>"$OUT/times.txt"
  failed=$(grep -hE '<<< (FAILURE|ERROR)!' "$log" | grep -cE '^\[ERROR\] [A-Za-z]' || true)
  echo "[flake-hunt] round $round of $FIRST..$LAST: ${took}s, maven exit $rc, $failed failing test entries ($log)"
  if [ "$rc" -ne 0 ] && ! ls "$OUT/round-$round" >/dev/null 2>&1; then
    broken=1
    echo "[flake-hunt] round $round broke before any test ran:" >&2
    tail -20 "$log" >&2
  fi
done

python3 - "$OUT" "$LAST" <<'PY' | tee "$OUT/summary.txt"
import glob, os, sys, xml.etree.ElementTree as ET
out, rounds = sys.argv[1], int(sys.argv[2])
failures, runs, first = {}, {}, {}
for path in glob.glob(os.path.join(out, "round-*", "*", "TEST-*.xml")):
    rnd = int(path.split(os.sep)[-3].split("-")[1])
    module = path.split(os.sep)[-2]
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as ex:
        key = (module, os.path.basename(path), "(unreadable report)")
        failures.setdefault(key, set()).add(rnd)
        continue
    for case in root.iter("testcase"):
        key = (module, case.get("classname", "?"), case.get("name", "?"))
        runs.setdefault(key, set()).add(rnd)
        bad = [c for c in case if c.tag in ("failure", "error")]
        if bad:
            failures.setdefault(key, set()).add(rnd)
            message = " ".join((bad[0].get("message") or bad[0].get("type") or "").split())
            first.setdefault(key, message[:140])
total = len(runs)
print(f"flake hunt: {rounds} rounds, {total} distinct tests run, {len(failures)} failed at least once")
if failures:
    print(f"{'failed':>6} {'ran':>4}  test  (first failure)")
    for key in sorted(failures, key=lambda k: (-len(failures[k]), k)):
        module, cls, name = key
        print(f"{len(failures[key]):>6} {len(runs.get(key, ())):>4}  {module}: {cls.rsplit('.', 1)[-1]}.{name}"
              f"  ({first.get(key, '')})")
PY
if grep -q 'failed at least once' "$OUT/summary.txt" && ! grep -q ', 0 failed at least once' "$OUT/summary.txt"; then
  exit 1
fi
exit "$broken"
