#!/usr/bin/env bash
# Troupe next to Apache Pekko: the same workloads, run alternately on both, in one JVM at a time.
#
# usage: benchmarks/compare-pekko.sh [--rounds R] [--warmup S] [--seconds S] [--samples N] [workload...]
#   workload    one quoted argument per workload, its options included, e.g. 'local.pingpong --pairs 4';
#               default: 'local.pingpong --pairs 1' 'local.pingpong --pairs 4' 'local.fanin --producers 4'
#               remote.throughput remote.rtt. Pekko runs each remote.* workload twice, with --transport tcp and
#               with --transport aeron; Troupe runs it once.
#   --rounds R  rounds per workload (default 5, or $COMPARE_ROUNDS): Troupe goes first in odd rounds, Pekko in
#               even ones, so a drift of the machine favours neither.
#   --warmup S, --seconds S   passed to both sides (default 5 and 10, or $COMPARE_WARMUP and $COMPARE_SECONDS);
#               remote.rtt gets only --warmup (its window is a sample count).
#   --samples N passed to remote.rtt on both sides (default: the workload's, 100000, or $COMPARE_SAMPLES).
# Builds benchmarks/target/troupe-benchmarks.jar and benchmarks-pekko/target/pekko-benchmarks.jar first if
# either is missing or older than a source or pom (./mvnw -B -q -P pekko -DskipTests package
# -pl benchmarks,benchmarks-pekko -am), and runs copies of them. Every JVM gets -XX:+UseG1GC
# --add-exports java.base/jdk.internal.misc=ALL-UNNAMED and $JAVA_OPTS; JAVA picks the java binary;
# COMPARE_KEEP_LOGS=1 keeps every run's stdout/stderr under the printed log directory.
# Output (stdout), one line per figure (and transport, for Pekko's remote figures):
#   COMPARE name=<name>[.<transport>] troupe=<median> pekko=<median> ratio=<troupe/pekko> unit=<unit> troupe-runs=v,... pekko-runs=v,...
# The ratio is always troupe/pekko: above 1 Troupe is faster for a throughput (msgs/s); for a latency (us) lower
# is better, so below 1 Troupe is faster. Progress and each run's RESULT lines go to stderr.
# Exit code: 0, or 1 if the build or a run failed (its log is printed), 2 on bad usage.
set -euo pipefail

usage()
{
    sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit "${1:-2}"
}

whole_number()
{
    [[ "$2" =~ ^[0-9]+$ && "$2" -ge 1 ]] || { echo "compare-pekko: $1 must be a whole number >= 1, got '$2'" >&2; exit 2; }
}

seconds_value()
{
    [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "compare-pekko: $1 expects seconds, got '$2'" >&2; exit 2; }
}

rounds=${COMPARE_ROUNDS:-5}
warmup=${COMPARE_WARMUP:-5}
seconds=${COMPARE_SECONDS:-10}
samples=${COMPARE_SAMPLES:-}
workloads=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds|--warmup|--seconds|--samples)
            [[ $# -ge 2 ]] || usage
            case "$1" in
                --rounds) rounds=$2 ;;
                --warmup) warmup=$2 ;;
                --seconds) seconds=$2 ;;
                --samples) samples=$2 ;;
            esac
            shift 2
            ;;
        -h|--help)
            usage 0
            ;;
        -*)
            echo "compare-pekko: unknown option $1" >&2
            usage
            ;;
        *)
            workloads+=("$1")
            shift
            ;;
    esac
done
whole_number --rounds "$rounds"
seconds_value --warmup "$warmup"
seconds_value --seconds "$seconds"
[[ -z "$samples" ]] || whole_number --samples "$samples"
if [[ ${#workloads[@]} -eq 0 ]]; then
    workloads=('local.pingpong --pairs 1' 'local.pingpong --pairs 4' 'local.fanin --producers 4' remote.throughput remote.rtt)
fi
for spec in "${workloads[@]}"; do
    case "${spec%% *}" in
        local.pingpong|local.fanin|remote.throughput|remote.rtt) ;;
        *) echo "compare-pekko: '${spec%% *}' is not a workload both sides have (local.pingpong, local.fanin, remote.throughput, remote.rtt)" >&2; exit 2 ;;
    esac
done
java_bin=${JAVA:-java}

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(dirname "$script_dir")
troupe_jar="$repo_root/benchmarks/target/troupe-benchmarks.jar"
pekko_jar="$repo_root/benchmarks-pekko/target/pekko-benchmarks.jar"
logs=$(mktemp -d /tmp/troupe-compare-pekko.XXXXXX)

stale()
{
    local jar=$1
    [[ -s "$jar" ]] || return 0
    # any source, resource or pom of the reactor newer than the jar
    [[ -n $(find "$repo_root" -path "$repo_root/.git" -prune -o -path '*/target' -prune -o \
        \( -path '*/src/main/*' -o -name pom.xml \) -type f -newer "$jar" -print -quit) ]]
}

if stale "$troupe_jar" || stale "$pekko_jar"; then
    echo "compare-pekko: building both jars" >&2
    if ! (cd "$repo_root" && ./mvnw -B -q -P pekko -DskipTests package -pl benchmarks,benchmarks-pekko -am) \
        >"$logs/build.log" 2>&1; then
        cat "$logs/build.log" >&2
        echo "compare-pekko: the build failed" >&2
        exit 1
    fi
else
    echo "compare-pekko: both jars are up to date" >&2
fi
# copies, so that a rebuild while the comparison runs does not change what is measured
cp "$troupe_jar" "$logs/troupe.jar"
cp "$pekko_jar" "$logs/pekko.jar"

# shellcheck disable=SC2206
jvm_flags=(-XX:+UseG1GC --add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${JAVA_OPTS:-})

run_side()
{
    local side=$1 jar=$2 tag=$3 round=$4
    shift 4
    local run="$logs/w$workload_index-r$round-$side"
    [[ "$tag" == - ]] || run+="-$tag"
    local out="$run.out" err="$run.err"
    echo "compare-pekko: round $round, $side: $*" >&2
    if ! "$java_bin" "${jvm_flags[@]}" -jar "$jar" "$@" >"$out" 2>"$err"; then
        echo "compare-pekko: the $side run of round $round failed (logs in $logs); its stderr:" >&2
        tail -40 "$err" >&2
        exit 1
    fi
    grep '^RESULT ' "$out" | sed "s/^/$side $tag /" >>"$logs/results"
    grep '^RESULT ' "$out" | sed 's/^RESULT /  /' >&2
}

: >"$logs/results"
workload_index=0
for spec in "${workloads[@]}"; do
    workload_index=$((workload_index + 1))
    # shellcheck disable=SC2206
    args=($spec)
    if [[ "${args[0]}" == remote.rtt ]]; then
        args+=(--warmup "$warmup")
        [[ -z "$samples" ]] || args+=(--samples "$samples")
    else
        args+=(--warmup "$warmup" --seconds "$seconds")
    fi
    if [[ "${args[0]}" == remote.* ]]; then
        transports=(tcp aeron)
    else
        transports=(-)
    fi
    for ((round = 1; round <= rounds; round++)); do
        if ((round % 2 == 1)); then
            run_side troupe "$logs/troupe.jar" - "$round" "${args[@]}"
        fi
        for transport in "${transports[@]}"; do
            if [[ "$transport" == - ]]; then
                run_side pekko "$logs/pekko.jar" - "$round" "${args[@]}"
            else
                run_side pekko "$logs/pekko.jar" "$transport" "$round" "${args[@]}" --transport "$transport"
            fi
        done
        if ((round % 2 == 0)); then
            run_side troupe "$logs/troupe.jar" - "$round" "${args[@]}"
        fi
    done
done

# lines: "<side> <transport or -> RESULT name=<n> value=<v> unit=<u>" -> per Pekko figure (and transport): the
# medians of both sides and their ratio
awk '
function median(list,    n, a, i, j, t) {
    n = split(list, a, ",")
    for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    side = $1; tag = $2; name = $4; value = $5; u = $6
    sub(/^name=/, "", name); sub(/^value=/, "", value); sub(/^unit=/, "", u)
    unit[name] = u
    if (side == "troupe") {
        troupe[name] = (troupe[name] == "" ? "" : troupe[name] ",") value
        next
    }
    key = tag == "-" ? name : name "." tag
    if (!(key in seen)) { seen[key] = 1; order[++keys] = key; base[key] = name }
    pekko[key] = (pekko[key] == "" ? "" : pekko[key] ",") value
}
END {
    for (k = 1; k <= keys; k++) {
        key = order[k]; n = base[key]
        if (troupe[n] == "") { printf "COMPARE name=%s missing on the troupe side\n", key; continue }
        t = median(troupe[n]); p = median(pekko[key])
        printf "COMPARE name=%s troupe=%.1f pekko=%.1f ratio=%.3f unit=%s troupe-runs=%s pekko-runs=%s\n", \
            key, t, p, (p == 0 ? 0 : t / p), unit[n], troupe[n], pekko[key]
    }
}' "$logs/results"

if [[ "${COMPARE_KEEP_LOGS:-0}" == 1 ]]; then
    echo "compare-pekko: logs kept in $logs" >&2
else
    rm -rf "$logs"
fi
