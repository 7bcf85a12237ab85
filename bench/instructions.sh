#!/usr/bin/env bash
# Instructions per settings change, counted by callgrind: the daemon's own work, all its threads,
# in a figure that the host's noise does not move (the timings of bench/run.sh move with it by
# half and more from one hour to the next), and those of its critical path, from the settings
# message to the write that carries `color`. Appends its section to bench/results.md.
#
#   bench/instructions.sh             200 changes, one every 100 ms; about four minutes
#   CHANGES=50 bench/instructions.sh  fewer (PATH_CHANGES for the critical path's run, 50)
#
# The changes are spaced so that each one runs to its end (the colour, the day's payloads, the
# answer, the store) before the next arrives: back to back, how much of a day a newer change
# skips depends on timing, which under callgrind is not the machine's. The helpers (the clock
# picture, HTTP transfers) run in processes of their own and are not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment valgrind binutils
build_release
build_bench
bench="bench/.build/release/energyclock-bench"
bin="$(release_bin_path)"
results="bench/results.md"
changes="${CHANGES:-200}"

work="$(mktemp -d)"
chmod 755 "$work"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# This valgrind cannot read the toolchain's DWARF 5 debug information and gives up on the whole
# program; without it, the symbols are still there to name each function.
for program in energyclock energyclock-render energyclock-fetch; do
    strip --strip-debug -o "$work/$program" "$bin/$program"
done

source bench/prices.sh
start_broker "$work"
write_prices "$work"

# run_daemon NAME VALGRIND_OPTION…: the daemon under callgrind with a state directory and a topic
# prefix of its own (NAME), on the custom prices, after a few changes (so that what runs once,
# the first use of each path, is not counted). Sets `daemon` and `name`.
run_daemon() {
    name="$1"
    shift
    valgrind --tool=callgrind "$@" "$work/energyclock" run \
        --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name.state" --topic-prefix "$name" \
        --custom-url "file://$work/hourly.json" --energyzero-url http://127.0.0.1:9 --ha-discovery false \
        --log-level warning 2>"$work/$name.log" &
    daemon=$!
    pids+=("$daemon")
    # Under callgrind the start takes seconds: wait for the first retained price.
    for _ in $(seq 60); do mosquitto_sub -p "$port" -t "$name/price" -C 1 -W 1 >/dev/null 2>&1 && break; done
    mosquitto_sub -p "$port" -t "$name/settings/result" -C 1 -W 60 >/dev/null &
    local sub=$!
    sleep 0.3
    mosquitto_pub -p "$port" -t "$name/settings/source/set" -m custom
    wait "$sub"
    "$bench" spaced "$port" 20 0.05 0.07 100 "$name" >/dev/null
    sleep 1
}

stop_daemon() {
    sleep 1
    kill -TERM "$daemon"
    wait "$daemon" || true
}

# The whole change, every thread.
run_daemon energyclock --callgrind-out-file="$work/callgrind.out"
callgrind_control -z "$daemon" >/dev/null
"$bench" spaced "$port" "$changes" 0.05 0.07 100 "$name" >"$work/spaced"
sleep 1
callgrind_control -d "$daemon" >/dev/null
stop_daemon

# The critical path: what runs from the settings message to the write that carries `color`. The
# counters are dumped at the message callback, at `fdatasync` and at every write to the broker,
# and bench/critical_path.py adds up each change's dumps.
mkdir "$work/path"
run_daemon critical --instr-atstart=no --callgrind-out-file="$work/path/callgrind.out" \
    --dump-before='*CallbackContext*install*mosquitto_messageV*To' --dump-before=fdatasync --dump-before=mosquitto_loop_write
callgrind_control -i on "$daemon" >/dev/null
"$bench" spaced "$port" "${PATH_CHANGES:-50}" 0.05 0.07 100 "$name" >/dev/null
callgrind_control -i off "$daemon" >/dev/null
stop_daemon
python3 bench/critical_path.py "$work/path" >"$work/critical"

# Inclusive counts of named stages, per change; a stage reached through several callers counts
# once for each, so the rows overlap and do not add up to the total.
callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out.1" 2>/dev/null | swift demangle --simplified >"$work/annotated"
total=$(sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$work/annotated" | tr -d ,)
stage() { # LABEL PATTERN: the largest inclusive count of a function whose name matches
    local count
    count=$(grep -E "\?\?\?:$2 \[" "$work/annotated" | head -1 | sed 's/^ *\([0-9,]*\) .*/\1/' | tr -d ,)
    [ -n "$count" ] && printf '| %s | %s |\n' "$1" "$(awk -v c="$count" -v n="$changes" 'BEGIN {printf "%.0f", c / n}')"
}
{
    echo
    echo "## Instructions per settings change (callgrind)"
    echo
    echo "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), valgrind $(valgrind --version | sed 's/valgrind-//'), mosquitto $(mosquitto -h 2>/dev/null | sed -n 's/^mosquitto version \([^ ]*\).*/\1/p'). ${changes} changes of \`green_max\`, one every 100 ms, each run to its end; hourly prices, default settings otherwise."
    echo
    echo "| what | instructions per change |"
    echo "|---|---|"
    printf '| the daemon, all threads | %s |\n' "$(awk -v c="$total" -v n="$changes" 'BEGIN {printf "%.0f", c / n}')"
    stage "the store's save (settings as JSON, SQLite, the log's fdatasync call)" 'PriceStore.save\(_:over:\)'
    stage "the snapshot (the basis of the day, priced and banded)" 'PriceManager.snapshot\(of:at:\)'
    stage "what describes now, to the colour (publishCurrent)" 'MQTTPublisher.publishCurrent\(all:\)'
    stage "the catch-up after the colour (the day's payloads and the rest)" 'MQTTPublisher.catchUp\(unless:\)'
    stage "of it, the day's payloads (renderDay)" 'specialized static Payloads.renderDay\(.*\)'
    stage "settings as JSON (both writes: the store and the settings topic)" 'Settings.write\(to:shown:\)'
    stage "instants as ISO 8601 text in JSON" 'JSONWriter.time\(_:in:\)'
    stage "libmosquitto: queueing publishes" 'mosquitto_publish_v5'
    echo
    echo "The critical path, from a second run of ${PATH_CHANGES:-50} such changes (the median over the changes counted):"
    echo
    echo "| instructions on the way to \`color\` | median | changes counted |"
    echo "|---|---|---|"
    cat "$work/critical"
    echo
    grep '^|' "$work/spaced" | sed -n 1p | awk -F'|' '{gsub(/ /, "", $4); printf "Round trip under callgrind, median %s ms (a timing of the instrumented program; not comparable).\n", $4}'
} | tee -a "$results"
echo "appended to $results"
