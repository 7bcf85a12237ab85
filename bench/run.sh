#!/usr/bin/env bash
# Benchmarks: the hot paths in process, then the release daemon against a real mosquitto (with
# set_tcp_nodelay) as its users see it, three times. Writes this release's part of
# bench/results.md (the history of earlier releases after it stays): each figure's median as the
# lowest and highest of the three runs, then every run's own table; docs/performance.md's tables
# come from it.
#
#   bench/run.sh                              everything, three runs (about 40 minutes: idle is
#                                             measured for five minutes in each, between two
#                                             hours, so up to six minutes more)
#   IDLE_SECONDS=60 RUNS=1 bench/run.sh       one shorter run
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment
build_release
build_bench
bench="bench/.build/release/energyclock-bench"
reference="bench/.build/release/energyclock-reference"
daemon="$(release_bin_path)/energyclock"
idle_seconds="${IDLE_SECONDS:-300}"
runs="${RUNS:-3}"
results="bench/results.md"

work="$(mktemp -d)"
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

echo "== in process"
"$bench" core Sources/EnergyClockTesting/Fixtures/electricity_quarter_response.json | tee "$work/core"

source bench/prices.sh
start_broker "$work"

# Prices of the user's own: hourly 0.05 EUR/kWh around now, and one-second slots of alternating price.

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
resident() { # the daemon's resident set, proportional set and private dirty memory now, kB
    echo "$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status") $(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup")" \
        "$(awk '/^Private_Dirty/ {print $2}' "/proc/$pid/smaps_rollup")"
}
threads() { # "name switches" for each of the daemon's threads: voluntary context switches, each a wake-up
    for task in /proc/"$pid"/task/*; do
        echo "$(tr ' ' _ <"$task/comm") $(awk '/^voluntary_ctxt_switches/ {print $2}' "$task/status" 2>/dev/null || echo 0)"
    done
}
stats() { # one table row from one number per line on standard input
    sort -n | awk -v name="$1" '{v[NR] = $1} END {
        p = int(NR * 0.99 + 0.5); if (p < 1) p = 1
        printf "| %s | %.2f | %.2f | %.2f | %.2f | %d |\n", name, v[1], v[int((NR + 1) / 2)], v[p], v[NR], NR }'
}

# measure N: one run of everything measured live; its table to $work/run-N.md.
measure() {
    local n="$1"
    write_prices "$work"
    {
        echo "| what | min | median | p99 | max | n |"
        echo "|---|---|---|---|---|---|"
        "$bench" echo "$port" 500
        "$bench" fsync "$work" 200
        "$bench" fsync "$work" 100 20

        # The settings round trip and a storm, on hourly prices: 0.05 × 1.21 = 0.0605, between 0.05 and 0.07.
        start "roundtrip-$n" hourly.json
        choose source custom
        "$bench" color "$port" 300 0.05 0.07
        "$bench" spaced "$port" 200 0.05 0.07 20
        read -r hwm dirty clean < <(memory)
        # The yardstick (bench/Sources/energyclock-reference): the least a daemon must do for a
        # round trip, keeping the change with the floor's own fsync, or in SQLite as the store
        # does. Alone, as the daemon above; then in turns with the daemon, change by change, so
        # that all three meet the same moments of the machine. Each count is even, so every
        # colour ends green, where it began.
        for store in file sqlite; do
            mkdir -p "$work/reference-$store"
            "$reference" "$port" "$work/reference-$store" "$store" "reference/$store" &
            pids+=($!)
        done
        sleep 0.3
        for store in file sqlite; do
            "$bench" color "$port" 300 0.05 0.07 "reference/$store"
            "$bench" spaced "$port" 200 0.05 0.07 20 "reference/$store"
        done
        "$bench" color "$port" 300 0.05 0.07 reference/file reference/sqlite energyclock
        "$bench" spaced "$port" 100 0.05 0.07 20 reference/file reference/sqlite energyclock
        kill "${pids[-1]}" "${pids[-2]}"
        wait "${pids[-1]}" "${pids[-2]}" || true
        "$bench" storm "$port" 10000 | grep '^|'
        read -r hwm_after dirty_after clean_after < <(memory)
        stop

        # Slot boundaries: one-second slots at their own resolution.
        start "boundaries-$n" seconds.json
        choose source custom
        choose resolution native
        "$bench" boundaries "$port" 120
        stop
        # The yardstick's boundaries: one thread that spins to each second and writes the price.
        "$reference" "$port" "$work" boundaries reference/boundaries &
        pids+=($!)
        sleep 0.3
        "$bench" boundaries "$port" 120 reference/boundaries
        kill "${pids[-1]}"
        wait "${pids[-1]}" || true

        # A job's switch beside the price: one minute, split at will, in a window of the next three
        # minutes of alternating one-second prices, so that it flips at every boundary of two minutes.
        write_prices "$work"
        start "flips-$n" seconds.json
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
            start "roundtrip-$n" hourly.json
            wait "$first"
            echo $(($(cat "$work/first") - began))
            stop
        done | stats "cold start from a warm store to the first retained price"

        # At rest: a settled daemon, alone but for the broker; its CPU time, memory and the
        # wake-ups of each of its threads. Between two slot boundaries of the hourly prices: a
        # boundary is work (a publish, a drawing, health.json), not rest, so an hour that would
        # end within the window is waited out first.
        left=$((3600 - $(date +%s) % 3600))
        if [ "$left" -lt $((idle_seconds + 30)) ]; then sleep $((left + 5)); fi
        start "roundtrip-$n" hourly.json
        sleep 10
        ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
        t0=$(ticks)
        threads >"$work/threads-before"
        sleep "$idle_seconds"
        t1=$(ticks)
        threads >"$work/threads-after"
        read -r rss pss private_dirty < <(resident)
        stop
        hz=$(getconf CLK_TCK)
        echo
        echo "| at rest | value |"
        echo "|---|---|"
        echo "| idle CPU over ${idle_seconds} s | $(awk -v t=$((t1 - t0)) -v hz="$hz" -v s="$idle_seconds" 'BEGIN {printf "%.4f CPU-s per minute", t / hz * 60 / s}') |"
        # Threads that started and ended within the minute (none at rest) are not counted.
        awk -v s="$idle_seconds" 'NR == FNR {before[$1] += $2; next} {after[$1] += $2}
            END {
                for (name in after) { total += after[name] - before[name] }
                printf "| idle wake-ups, all threads | %.1f per minute |\n", total * 60 / s
                for (name in after) printf "| idle wake-ups, thread %s | %.1f per minute |\n", name, (after[name] - before[name]) * 60 / s
            }' "$work/threads-before" "$work/threads-after"
        echo "| resident memory at rest (VmRSS) | ${rss} kB |"
        echo "| proportional memory at rest (PSS) | ${pss} kB |"
        echo "| private dirty memory at rest | ${private_dirty} kB |"
        echo "| peak resident memory (VmHWM) after start and 300 round trips | ${hwm} kB |"
        echo "| private dirty / private clean memory then | ${dirty} kB / ${clean} kB |"
        echo "| VmHWM, private dirty / clean after a storm of 10,000 updates | ${hwm_after} kB, ${dirty_after} kB / ${clean_after} kB |"
    } | tee "$work/run-$n.md"
}

for n in $(seq "$runs"); do
    echo "== run $n of $runs"
    measure "$n"
done

{
    echo "# energyclock benchmark results"
    echo
    echo "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
        "$(mosquitto -h 2>/dev/null | head -1 | sed 's/ is an MQTT.*//'), loopback with set_tcp_nodelay true. Times in ms."
    echo
    python3 bench/summary.py "$work"/run-*.md
    echo
    echo "In process, one core, microseconds unless marked:"
    echo
    echo '```'
    cat "$work/core"
    echo '```'
    for n in $(seq "$runs"); do
        echo
        echo "## Run $n"
        echo
        cat "$work/run-$n.md"
    done
} | python3 bench/results.py write "$results"
echo "wrote $results"
