#!/usr/bin/env bash
# Instructions per settings change, counted by callgrind: the daemon's own work, all its threads,
# in a figure that the host's noise does not move (the timings of bench/run.sh move with it by
# half and more from one hour to the next). Appends its section to bench/results.md.
#
#   bench/instructions.sh             200 changes, one every 100 ms; about two minutes
#   CHANGES=50 bench/instructions.sh  fewer
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

valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/energyclock" run \
    --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/state" --topic-prefix energyclock \
    --custom-url "file://$work/hourly.json" --energyzero-url http://127.0.0.1:9 --ha-discovery false \
    --log-level warning 2>"$work/daemon.log" &
daemon=$!
pids+=("$daemon")
# Under callgrind the start takes seconds: wait for the first retained price.
for _ in $(seq 60); do mosquitto_sub -p "$port" -t energyclock/price -C 1 -W 1 >/dev/null 2>&1 && break; done
mosquitto_sub -p "$port" -t energyclock/settings/result -C 1 -W 60 >/dev/null &
sub=$!
sleep 0.3
mosquitto_pub -p "$port" -t energyclock/settings/source/set -m custom
wait "$sub"
# A few changes first, so that what runs once (first use of each path) is not counted.
"$bench" spaced "$port" 20 0.05 0.07 100 >/dev/null
sleep 1
callgrind_control -z "$daemon" >/dev/null
"$bench" spaced "$port" "$changes" 0.05 0.07 100 >"$work/spaced"
sleep 1
callgrind_control -d "$daemon" >/dev/null
sleep 1
kill -TERM "$daemon"
wait "$daemon" || true

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
    grep '^|' "$work/spaced" | sed -n 1p | awk -F'|' '{gsub(/ /, "", $4); printf "Round trip under callgrind, median %s ms (a timing of the instrumented program; not comparable).\n", $4}'
} | tee -a "$results"
echo "appended to $results"
