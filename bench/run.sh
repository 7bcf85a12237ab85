#!/usr/bin/env bash
# Benchmarks: the hot paths in process, then the release daemon against a real mosquitto (with
# set_tcp_nodelay) as its users see it. Writes bench/results.md; the README's Performance table
# comes from it.
#
#   bench/run.sh                      everything (about eight minutes: idle is measured for five)
#   IDLE_SECONDS=60 bench/run.sh      a shorter idle measurement
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment
build_release
build_bench
bench="bench/.build/release/energyclock-bench"
daemon="$(swift build -c release --show-bin-path)/energyclock"
idle_seconds="${IDLE_SECONDS:-300}"
results="bench/results.md"

work="$(mktemp -d)"
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

echo "== in process"
"$bench" core Sources/EnergyClockTesting/Fixtures/electricity_quarter_response.json | tee "$work/core"

port=$((10000 + RANDOM % 20000))
printf 'listener %s 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n' "$port" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
sleep 0.3

# Prices of the user's own: hourly 0.05 EUR/kWh around now, and one-second slots of alternating price.
source bench/prices.sh
write_prices "$work"

# start NAME PRICES [FLAGS…]: a daemon with its own state directory, choosing the custom source.
start() {
    local name="$1" prices="$2"
    shift 2
    "$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name" --topic-prefix energyclock \
        --custom-url "file://$work/$prices" --energyzero-url http://127.0.0.1:9 --ha-discovery false --log-level warning "$@" \
        2>"$work/$name.log" &
    pid=$!
    pids+=("$pid")
    sleep 0.5
}
choose() { # FIELD VALUE: a setting over MQTT, waiting for its answer
    mosquitto_sub -p "$port" -t energyclock/settings/result -C 1 -W 10 >/dev/null &
    local sub=$!
    sleep 0.1
    mosquitto_pub -p "$port" -t "energyclock/settings/$1/set" -m "$2"
    wait "$sub"
}
stop() {
    kill -TERM "$pid"
    wait "$pid" || true
}
memory() { # the daemon's peak resident set, and its private dirty and private clean memory, kB
    echo "$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status") $(awk '/^Private_Dirty/ {print $2}' "/proc/$pid/smaps_rollup")" \
        "$(awk '/^Private_Clean/ {print $2}' "/proc/$pid/smaps_rollup")"
}
stats() { # one table row from one number per line on standard input
    sort -n | awk -v name="$1" '{v[NR] = $1} END {
        p = int(NR * 0.99 + 0.5); if (p < 1) p = 1
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %d |\n", name, v[1], v[int((NR + 1) / 2)], v[p], v[NR], NR }'
}

{
    echo "# energyclock benchmark results"
    echo
    echo "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
        "$(mosquitto -h 2>/dev/null | head -1 | sed 's/ is an MQTT.*//'), loopback with set_tcp_nodelay true. Times in ms."
    echo
    echo "| what | min | median | p99 | max | n |"
    echo "|---|---|---|---|---|---|"
    "$bench" echo "$port" 500
    "$bench" fsync "$work" 200

    # The settings round trip and a storm, on hourly prices: 0.05 × 1.21 = 0.0605, between 0.05 and 0.07.
    start roundtrip hourly.json
    choose source custom
    "$bench" color "$port" 300 0.05 0.07
    read -r hwm dirty clean < <(memory)
    "$bench" storm "$port" 10000 | grep '^|'
    read -r hwm_after dirty_after clean_after < <(memory)
    stop

    # Slot boundaries: one-second slots at their own resolution.
    start boundaries seconds.json
    choose source custom
    choose resolution native
    "$bench" boundaries "$port" 120
    stop

    # A job's switch beside the price: one minute, split at will, in a window of the next three
    # minutes of alternating one-second prices, so that it flips at every boundary of two minutes.
    write_prices "$work"
    start flips seconds.json
    choose source custom
    choose resolution native
    # The window in the daemon's zone (--timezone, Europe/Amsterdam by default).
    minute=$((($(date +%s) / 60 + 1) * 60))
    local_time() { TZ=Europe/Amsterdam date -d "@$1" +%H:%M; }
    choose jobs "{\"flip\":{\"duration\":1,\"contiguous\":false,\"earliest\":\"$(local_time "$minute")\",\"deadline\":\"$(local_time $((minute + 180)))\"}}"
    "$bench" fliplag "$port" 100
    stop

    # Cold start from a warm store (the round trip's) to the first retained price at a subscriber.
    for _ in $(seq 10); do
        mosquitto_pub -p "$port" -r -n -t energyclock/price
        "$bench" first "$port" >"$work/first" &
        first=$!
        sleep 0.4
        began=$(date +%s%3N)
        start roundtrip hourly.json
        wait "$first"
        echo $(($(cat "$work/first") - began))
        stop
    done | stats "cold start from a warm store to the first retained price"

    # Idle: a settled daemon, its CPU time and the wake-ups of all its threads.
    start roundtrip hourly.json
    sleep 10
    ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
    switches() { cat /proc/"$pid"/task/*/status | awk '/^voluntary_ctxt_switches/ {s += $2} END {print s}'; }
    t0=$(ticks)
    s0=$(switches)
    sleep "$idle_seconds"
    t1=$(ticks)
    s1=$(switches)
    stop
    hz=$(getconf CLK_TCK)
    echo
    echo "| at rest | value |"
    echo "|---|---|"
    echo "| idle CPU over ${idle_seconds} s | $(awk -v t=$((t1 - t0)) -v hz="$hz" -v s="$idle_seconds" 'BEGIN {printf "%.4f CPU-s per minute", t / hz * 60 / s}') |"
    echo "| idle wake-ups, all threads | $(awk -v n=$((s1 - s0)) -v s="$idle_seconds" 'BEGIN {printf "%.1f per minute", n * 60 / s}') |"
    echo "| peak resident memory (VmHWM) after start and 300 round trips | ${hwm} kB |"
    echo "| private dirty / private clean memory then | ${dirty} kB / ${clean} kB |"
    echo "| VmHWM, private dirty / clean after a storm of 10,000 updates | ${hwm_after} kB, ${dirty_after} kB / ${clean_after} kB |"
    echo
    echo "In process, one core, microseconds unless marked:"
    echo
    echo '```'
    cat "$work/core"
    echo '```'
} | tee "$results"
echo "wrote $results"
