#!/bin/sh
# perf/agent-stall.sh GC [RUNS] [SIZE]: how long the network agent stalls under big messages. Runs
# `divvy run --nodes 2 --workers 1 mergesort --size SIZE` (default 50,000,000 ints: a 200 MB root and result,
# halves of 100 MB) RUNS times (default 3) with GC = serial | g1 | parallel on both nodes (node 0 -Xmx3g,
# the child -Xmx2g, heaps as perf/README.md says), each JVM logging GC pauses and safepoints. Prints per run
# and node the agent's line (longest cycle, its own CPU, most own CPU in one cycle, longest gap) next to the
# JVM's longest stop-the-world pause and longest time to reach a safepoint. Extra JVM options for both nodes:
# DIVVY_STALL_JVM_OPTS. DIVVY_STALL_PRETOUCH=1 starts each heap at its maximum, pre-touched (-Xms = -Xmx,
# -XX:+AlwaysPreTouch: the kernel faults in every page at start, not while a thread zeroes a new 200 MB array).
# Build first: mvn -B -q -pl examples -am package -DskipTests
set -eu
gc=${1:?GC: serial, g1 or parallel}
runs=${2:-3}
size=${3:-50000000}
case $gc in
    serial) gcopt=-XX:+UseSerialGC ;;
    g1) gcopt=-XX:+UseG1GC ;;
    parallel) gcopt=-XX:+UseParallelGC ;;
    *) echo "GC: serial, g1 or parallel" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
extra=${DIVVY_STALL_JVM_OPTS:-}
out=$(mktemp -d "${TMPDIR:-/tmp}/divvy-stall.XXXXXX")
run=1
while [ "$run" -le "$runs" ]; do
    dir=$out/run$run
    mkdir -p "$dir"
    log="-Xlog:gc,safepoint:file=$dir/gc-%p.log:uptime"
    childopts="--jvm-opt=$gcopt --jvm-opt=-Xmx2g --jvm-opt=$log"
    nodezero="$gcopt -Xmx3g"
    if [ "${DIVVY_STALL_PRETOUCH:-0}" = 1 ]; then
        childopts="$childopts --jvm-opt=-Xms2g --jvm-opt=-XX:+AlwaysPreTouch"
        nodezero="$nodezero -Xms3g -XX:+AlwaysPreTouch"
    fi
    for o in $extra; do childopts="$childopts --jvm-opt=$o"; done
    # shellcheck disable=SC2086
    DIVVY_JAVA_OPTS="$nodezero $log $extra" "$root/bin/divvy" run --nodes 2 --workers 1 $childopts \
        mergesort --size "$size" --progress-seconds 0 > "$dir/output.txt" 2>&1 || true
    echo "run $run ($gc): $(grep -E '^(PASS|FAIL)' "$dir/output.txt" | head -1 | cut -c1-60); $(grep '^wall time' "$dir/output.txt")"
    grep 'network agent since start' "$dir/output.txt" | sed 's/^/  /'
    for f in "$dir"/gc-*.log; do
        awk -v name="$(basename "$f")" '
            / Pause / { ms = $NF; sub("ms", "", ms); if (ms + 0 > pause) pause = ms + 0 }
            /Reaching safepoint:/ { for (i = 2; i <= NF; i++) if ($i == "safepoint:" && $(i - 1) == "Reaching") { t = $(i + 1) / 1e6; if (t > ttsp) ttsp = t } }
            END { printf "  %s: longest GC pause %.1f ms, longest time to safepoint %.1f ms\n", name, pause, ttsp }' "$f"
    done
    run=$((run + 1))
done
echo "logs: $out"
