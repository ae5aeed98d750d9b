#!/usr/bin/env bash
# Runs the standard Troupe benchmark set, each workload in a JVM of its own, one after another:
#   local.pingpong --pairs 1, local.pingpong --pairs 4, local.fanin --producers 4, local.spawn --actors 1000000,
#   memquota.flood --queues 1000 --max-mb 64, broker.match, flow.overhead, remote.throughput, remote.rtt (these
#   two start a child JVM each). broker.overload (70 s at its defaults) and flow.flood (about 3 minutes) are
#   left to be run by hand.
# Builds benchmarks/target/troupe-benchmarks.jar first if it is missing.
#
# usage: benchmarks/run-benchmarks.sh [--warmup <s>] [--seconds <s>] [--threads <n>] [--idle backoff|spin]
#   --warmup/--seconds go to the timed workloads (local.spawn has no time window, remote.rtt a sample count);
#   --threads goes to all (remote.* default to 1 per node without it); --idle goes to remote.* (default backoff).
#   Extra JVM flags may be given in JAVA_OPTS, e.g. JAVA_OPTS="-Xmx2g".
# Every RESULT line goes to stdout once, as it comes; a summary of them is repeated on stderr at the end.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(dirname "$script_dir")
jar="$script_dir/target/troupe-benchmarks.jar"

usage()
{
    sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
}

timed=()
warmup=()
common=()
remote=()
idle=backoff
while [[ $# -gt 0 ]]; do
    case "$1" in
        --warmup)
            [[ $# -ge 2 ]] || usage
            timed+=("$1" "$2")
            warmup+=("$1" "$2")
            shift 2
            ;;
        --seconds)
            [[ $# -ge 2 ]] || usage
            timed+=("$1" "$2")
            shift 2
            ;;
        --idle)
            [[ $# -ge 2 ]] || usage
            remote+=("$1" "$2")
            idle="$2"
            shift 2
            ;;
        --threads)
            [[ $# -ge 2 ]] || usage
            common+=("$1" "$2")
            shift 2
            ;;
        *)
            echo "unknown option: $1" >&2
            usage
            ;;
    esac
done

if [[ ! -f "$jar" ]]; then
    echo "building $jar" >&2
    if [[ -x "$repo_root/mvnw" ]]; then
        (cd "$repo_root" && ./mvnw -q -DskipTests package -pl benchmarks -am)
    else
        (cd "$repo_root" && mvn -q -DskipTests package -pl benchmarks -am)
    fi
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT

# JAVA_OPTS is split on spaces on purpose: it holds several flags.
# shellcheck disable=SC2086
run()
{
    echo "== $*" >&2
    java -XX:+UseG1GC --add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${JAVA_OPTS:-} -jar "$jar" "$@" \
        | tee -a "$results"
}

run local.pingpong --pairs 1 ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"}
run local.pingpong --pairs 4 ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"}
run local.fanin --producers 4 ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"}
run local.spawn --actors 1000000 ${common[@]+"${common[@]}"}
run memquota.flood --queues 1000 --max-mb 64 ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"}
run broker.match ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"}
run flow.overhead ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"}
run remote.throughput ${timed[@]+"${timed[@]}"} ${common[@]+"${common[@]}"} ${remote[@]+"${remote[@]}"}
run remote.rtt ${warmup[@]+"${warmup[@]}"} ${common[@]+"${common[@]}"} ${remote[@]+"${remote[@]}"}

echo "== summary" >&2
grep '^RESULT ' "$results" >&2
# a remote figure means nothing without the idle mode it was measured with
echo "(remote.throughput and remote.rtt ran with --idle $idle)" >&2
