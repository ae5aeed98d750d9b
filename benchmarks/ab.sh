#!/usr/bin/env bash
# A/B comparison of one benchmark between commit BASE and the working tree.
#
# usage: benchmarks/ab.sh BASE <workload> [--option value]...
#   BASE        any commit-ish (a sha, main, HEAD~1); it is built once in a temporary git worktree and its
#               jar kept under $AB_CACHE (default /tmp/troupe-ab/<sha>.jar), so the next comparison against
#               the same commit does not build it again.
#   The working tree (with uncommitted changes) is built with ./mvnw -DskipTests package -pl benchmarks -am.
#   Then the benchmark runs alternately on BASE and on the working tree, AB_ROUNDS rounds each (default 5,
#   at least 5), one JVM at a time, never two at once; BASE runs first in odd rounds, the working tree in even
#   ones, so a drift of the machine over time does not favour one side.
# Environment: AB_ROUNDS (>= 5), JAVA (default: java on the PATH), JAVA_OPTS (extra JVM flags for both sides),
#   AB_KEEP_LOGS=1 keeps every run's stdout/stderr under the printed log directory.
#   AB_HEAD_ARGS: extra workload options for the working tree's runs only (split on spaces), e.g.
#   AB_HEAD_ARGS="--api typed" benchmarks/ab.sh HEAD local.pingpong compares the typed layer with the untyped
#   core of one build; the figure names must be the same on both sides.
# Output (stdout), one line per RESULT name the benchmark printed:
#   AB name=<name> base=<median> head=<median> ratio=<head/base> unit=<unit> base-runs=v,v,... head-runs=v,v,...
# A ratio above 1 means the working tree is faster for throughput figures (msgs/s), slower for latencies (us).
# Exit code: 0, or 1 if a build or a run failed (its log is printed), 2 on bad usage.
set -euo pipefail

usage()
{
    sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
base_ref=$1
shift
rounds=${AB_ROUNDS:-5}
[[ "$rounds" =~ ^[0-9]+$ && "$rounds" -ge 5 ]] || { echo "AB_ROUNDS must be a whole number >= 5, got '$rounds'" >&2; exit 2; }
java_bin=${JAVA:-java}

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(dirname "$script_dir")
base_sha=$(git -C "$repo_root" rev-parse --verify "$base_ref^{commit}") || { echo "unknown commit: $base_ref" >&2; exit 2; }
cache=${AB_CACHE:-/tmp/troupe-ab}
mkdir -p "$cache"
logs=$(mktemp -d /tmp/troupe-ab-logs.XXXXXX)

build_base()
{
    local jar="$cache/$base_sha.jar"
    if [[ -s "$jar" ]]; then
        echo "ab: base $base_sha already built ($jar)" >&2
        return
    fi
    local tree
    tree=$(mktemp -d /tmp/troupe-ab-tree.XXXXXX)
    echo "ab: building base $base_sha in $tree" >&2
    git -C "$repo_root" worktree add --detach -q "$tree" "$base_sha"
    if (cd "$tree" && ./mvnw -q -B -DskipTests package -pl benchmarks -am) >"$logs/build-base.log" 2>&1; then
        cp "$tree/benchmarks/target/troupe-benchmarks.jar" "$jar.tmp" && mv "$jar.tmp" "$jar"
    else
        cat "$logs/build-base.log" >&2
        git -C "$repo_root" worktree remove --force "$tree"
        echo "ab: the base build failed" >&2
        exit 1
    fi
    git -C "$repo_root" worktree remove --force "$tree"
}

build_head()
{
    echo "ab: building the working tree" >&2
    if ! (cd "$repo_root" && ./mvnw -q -B -DskipTests package -pl benchmarks -am) >"$logs/build-head.log" 2>&1; then
        cat "$logs/build-head.log" >&2
        echo "ab: the working tree's build failed" >&2
        exit 1
    fi
    # a copy, so that a rebuild while the comparison runs does not change what is measured
    cp "$repo_root/benchmarks/target/troupe-benchmarks.jar" "$logs/head.jar"
}

build_base
build_head

# shellcheck disable=SC2206
head_args=(${AB_HEAD_ARGS:-})
# shellcheck disable=SC2206
jvm_flags=(-XX:+UseG1GC --add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${JAVA_OPTS:-})

run_side()
{
    local side=$1 jar=$2 round=$3
    local out="$logs/$side-$round.out" err="$logs/$side-$round.err"
    echo "ab: round $round, $side: ${*:4}" >&2
    if ! "$java_bin" "${jvm_flags[@]}" -jar "$jar" "${@:4}" >"$out" 2>"$err"; then
        echo "ab: the $side run of round $round failed; its stderr:" >&2
        tail -40 "$err" >&2
        exit 1
    fi
    grep '^RESULT ' "$out" | sed "s/^/$side /" >>"$logs/results"
    grep '^RESULT ' "$out" | sed 's/^RESULT /  /' >&2
}

: >"$logs/results"
for ((round = 1; round <= rounds; round++)); do
    if ((round % 2 == 1)); then
        run_side base "$cache/$base_sha.jar" "$round" "$@"
        run_side head "$logs/head.jar" "$round" "$@" "${head_args[@]}"
    else
        run_side head "$logs/head.jar" "$round" "$@" "${head_args[@]}"
        run_side base "$cache/$base_sha.jar" "$round" "$@"
    fi
done

# lines: "<side> RESULT name=<n> value=<v> unit=<u>" -> per name: medians of each side and their ratio
awk '
function median(list,    n, a, i, j, t) {
    n = split(list, a, ",")
    for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    side = $1; sub(/^name=/, "", $3); sub(/^value=/, "", $4); sub(/^unit=/, "", $5)
    if (!($3 in seen)) { seen[$3] = 1; order[++names] = $3 }
    unit[$3] = $5
    runs[side, $3] = (runs[side, $3] == "" ? "" : runs[side, $3] ",") $4
}
END {
    for (k = 1; k <= names; k++) {
        n = order[k]
        if (runs["base", n] == "" || runs["head", n] == "") { printf "AB name=%s missing on one side\n", n; continue }
        b = median(runs["base", n]); h = median(runs["head", n])
        printf "AB name=%s base=%.1f head=%.1f ratio=%.3f unit=%s base-runs=%s head-runs=%s\n", \
            n, b, h, (b == 0 ? 0 : h / b), unit[n], runs["base", n], runs["head", n]
    }
}' "$logs/results"

if [[ "${AB_KEEP_LOGS:-0}" == 1 ]]; then
    echo "ab: logs kept in $logs" >&2
else
    rm -rf "$logs"
fi
