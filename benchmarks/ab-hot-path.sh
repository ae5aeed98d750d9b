#!/usr/bin/env bash
# A/B of a hot-path change: runs benchmarks/ab.sh against BASE on every workload a change to send, route, mailbox,
# worker loop, interconnect send/receive or counters can touch, one after the other, and prints their AB lines.
#
# usage: benchmarks/ab-hot-path.sh BASE
#   The workloads: local.pingpong --pairs 1, local.pingpong --pairs 4, local.fanin, remote.throughput, remote.rtt,
#   each with --warmup 3 --seconds 5. AB_ROUNDS (default 5) and JAVA_OPTS (default -Xms2g -Xmx2g
#   -XX:+AlwaysPreTouch) pass through to ab.sh. About 15 minutes with 5 rounds.
# Exit code: 0, or the first non-zero exit code of ab.sh.
set -euo pipefail
[[ $# -eq 1 ]] || { sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2; exit 2; }
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export AB_ROUNDS=${AB_ROUNDS:-5}
export JAVA_OPTS=${JAVA_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch}
workloads=(
    "local.pingpong --pairs 1"
    "local.pingpong --pairs 4"
    "local.fanin"
    "remote.throughput"
    "remote.rtt"
)
for workload in "${workloads[@]}"; do
    # shellcheck disable=SC2086 # each workload is a name and its options
    "$script_dir/ab.sh" "$1" $workload --warmup 3 --seconds 5
done
