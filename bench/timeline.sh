#!/usr/bin/env bash
# Where a settings round trip's wall time goes: the release daemon against a real mosquitto, 200
# round trips back to back, traced system-wide with perf (the read, write, pwrite64 and fdatasync
# system calls and the scheduler's switches), cut into stages by bench/timeline.py. The trace
# costs every system call a few microseconds, so the stages add up to more than an untraced round
# trip; what they show is where the time goes, not how long it is. Needs root and linux-perf.
#
#   bench/timeline.sh             200 round trips; appends its section to bench/results.md
#   ROUNDS=500 bench/timeline.sh  more
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment linux-perf
build_release
build_bench
bench="bench/.build/release/energyclock-bench"
daemon="$(release_bin_path)/energyclock"

work="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
source bench/prices.sh
start_broker "$work"
broker_pid="${pids[-1]}"
write_prices "$work"
"$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/state" --topic-prefix energyclock \
    --custom-url "file://$work/hourly.json" --energyzero-url http://127.0.0.1:9 --ha-discovery false --log-level warning \
    2>"$work/daemon.log" &
daemon_pid=$!
pids+=("$daemon_pid")
for _ in $(seq 30); do mosquitto_sub -p "$port" -t energyclock/price -C 1 -W 1 >/dev/null 2>&1 && break; done
mosquitto_pub -p "$port" -t energyclock/settings/source/set -m custom
sleep 2
"$bench" color "$port" 50 0.05 0.07 >/dev/null

"$bench" color "$port" "${ROUNDS:-200}" 0.05 0.07 >"$work/round-trips" &
bench_pid=$!
# System-wide, so that every switch shows, but without perf's own system calls: traced, its writes
# of the trace kept one processor busy. The shell's pid is perf's once it execs.
sh -c 'events=""
    for call in read write pwrite64 fdatasync; do
        for side in enter exit; do events="$events -e syscalls:sys_${side}_$call --filter common_pid!=$$"; done
    done
    exec perf record -q -a -m 16M -o "$1/perf.data" $events -e sched:sched_switch \
        -- sh -c "while kill -0 $2 2>/dev/null; do sleep 0.05; done"' sh "$work" "$bench_pid"
perf script -i "$work/perf.data" -F comm,pid,tid,cpu,time,event,trace 2>/dev/null >"$work/trace"
[ -z "${KEEP:-}" ] || echo "trace kept in $work/trace"
{
    echo
    echo "## Where a round trip's time goes (perf, system-wide)"
    echo
    echo "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(perf --version). The traced run's own round trips:"
    echo
    echo "| what | min | median | p99 | max | n |"
    echo "|---|---|---|---|---|---|"
    grep '^|' "$work/round-trips"
    echo
    python3 bench/timeline.py "$work/trace" "$daemon_pid" "$bench_pid" "$broker_pid"
} | python3 bench/results.py add bench/results.md
echo "appended to bench/results.md"
