#!/usr/bin/env bash
# Instructions per settings change, counted by callgrind: the daemon's own work, all its threads,
# in a figure that the host's noise does not move (the timings of bench/run.sh move with it by
# half and more from one hour to the next), and those of its critical path, from the settings
# message to the write that carries `color`. Appends its section to bench/results.md.
#
#   bench/instructions.sh             200 changes, one every 100 ms; about four minutes
#   CHANGES=50 bench/instructions.sh  fewer (PATH_CHANGES for the critical path's run, 50)
#   bench/instructions.sh --check     the budget: fewer changes, each figure held to
#                                     bench/budget.txt (at most 10 % over), nothing written
#   PROGRAMS=dir BENCH=driver bench/instructions.sh --check
#                                     the same for programs built elsewhere (a variant)
#
# A slot boundary is counted the same way: the daemon's work, all threads, per one-second
# boundary at native resolution, over BOUNDARIES boundaries (30).
#
# The changes are spaced so that each one runs to its end (the colour, the day's payloads, the
# answer, the store) before the next arrives: back to back, how much of a day a newer change
# skips depends on timing, which under callgrind is not the machine's. The helpers (the clock
# picture, HTTP transfers) run in processes of their own and are not counted.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment valgrind binutils
# PROGRAMS (a directory holding the three programs) and BENCH (the driver) measure builds made
# elsewhere, such as a variant without one tuning, with the same driver: nothing is built then.
if [ -n "${PROGRAMS:-}" ] && [ -n "${BENCH:-}" ]; then
    bench="$BENCH"
    bin="$PROGRAMS"
else
    build_release
    build_bench
    bench="bench/.build/release/energyclock-bench"
    bin="$(release_bin_path)"
fi
results="bench/results.md"
check=false
if [ "${1:-}" = --check ]; then
    check=true
    : "${CHANGES:=40}" "${PATH_CHANGES:=20}"
fi
changes="${CHANGES:-200}"
boundaries="${BOUNDARIES:-30}"

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
# prefix of its own (NAME), on the custom prices (PRICES, hourly.json unless set) with the flags in
# `daemon_flags`, after a few changes (so that what runs once, the first use of each path, is not
# counted). Sets `daemon` and `name`.
daemon_flags=()
run_daemon() {
    name="$1"
    shift
    valgrind --tool=callgrind "$@" "$work/energyclock" run \
        --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name.state" --topic-prefix "$name" \
        --custom-url "file://$work/${PRICES:-hourly.json}" --energyzero-url http://127.0.0.1:9 --ha-discovery false \
        --log-level warning "${daemon_flags[@]}" 2>"$work/$name.log" &
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

# The slot boundary: one-second slots at native resolution, nothing else asked of the daemon. The
# count runs from one `price` to the one `boundaries` later, so it holds whole boundaries. What
# depends on timing is left out, so that the count repeats: the clock picture (drawn at most once
# a second, never near a boundary, which under callgrind's pace varies) and the history days
# (fetched one at a time after the start).
write_prices "$work"
daemon_flags=(--clock-image=false --settings '{"resolution":"native","history_days":1}')
PRICES=seconds.json run_daemon boundary --callgrind-out-file="$work/boundary.out"
mosquitto_sub -p "$port" -t boundary/price -R -C 1 -W 30 >/dev/null
callgrind_control -z "$daemon" >/dev/null
mosquitto_sub -p "$port" -t boundary/price -R -C "$boundaries" -W $((boundaries * 3)) >/dev/null
callgrind_control -d "$daemon" >/dev/null
stop_daemon
boundary_total=$(callgrind_annotate "$work/boundary.out.1" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
per_boundary=$(awk -v c="$boundary_total" -v n="$boundaries" 'BEGIN {printf "%.0f", c / n}')

# Inclusive counts of named stages, per change; a stage reached through several callers counts
# once for each, so the rows overlap and do not add up to the total.
callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out.1" 2>/dev/null | swift demangle --simplified >"$work/annotated"
total=$(sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$work/annotated" | tr -d ,)
stage() { # LABEL PATTERN: the largest inclusive count of a function whose name matches
    local count
    count=$(grep -E "\?\?\?:$2 \[" "$work/annotated" | head -1 | sed 's/^ *\([0-9,]*\) .*/\1/' | tr -d ,)
    # A stage the compiler inlined has no count of its own: its row says so.
    if [ -z "$count" ]; then
        printf '| %s | (inlined) |\n' "$1"
    else
        printf '| %s | %s |\n' "$1" "$(awk -v c="$count" -v n="$changes" 'BEGIN {printf "%.0f", c / n}')"
    fi
}
per_change=$(awk -v c="$total" -v n="$changes" 'BEGIN {printf "%.0f", c / n}')
critical=$(sed -n 1p "$work/critical" | awk -F'|' '{gsub(/[ ,]/, "", $3); print $3}')

if $check; then
    # Each figure against its budget: more than 10 % over fails, and a figure well under its budget
    # asks for the budget to be lowered, so that the net stays tight.
    python3 - bench/budget.txt "critical_path=$critical" "change=$per_change" "boundary=$per_boundary" <<'CHECK'
import sys
budget = {}
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.split("#", 1)[0].split()
    if len(line) == 2:
        budget[line[0]] = int(line[1])
failed = False
print("| figure | instructions | budget | |")
print("|---|---|---|---|")
for item in sys.argv[2:]:
    name, value = item.split("=")
    value = int(value)
    limit = budget[name]
    ratio = value / limit
    verdict = "ok"
    if ratio > 1.10:
        verdict, failed = f"FAILED: {ratio - 1:+.1%} over the budget", True
    elif ratio < 0.90:
        verdict = f"{ratio - 1:+.1%}: lower the budget in bench/budget.txt"
    print(f"| {name} | {value:,} | {limit:,} | {verdict} |")
sys.exit(1 if failed else 0)
CHECK
    exit $?
fi

{
    echo
    echo "## Instructions per settings change (callgrind)"
    echo
    echo "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), valgrind $(valgrind --version | sed 's/valgrind-//'), mosquitto $(mosquitto -h 2>/dev/null | sed -n 's/^mosquitto version \([^ ]*\).*/\1/p'). ${changes} changes of \`green_max\`, one every 100 ms, each run to its end; hourly prices, default settings otherwise."
    echo
    echo "| what | instructions per change |"
    echo "|---|---|"
    printf '| the daemon, all threads | %s |\n' "$per_change"
    stage "the store's save (settings as JSON, SQLite, the log's fdatasync call)" 'PriceStore.save\(_:over:\)'
    stage "the snapshot (the basis of the day, priced and banded)" 'PriceManager.snapshot\(of:at:\)'
    stage "what describes now, to the colour (show)" 'MQTTPublisher.show\(_:owingTheRest:\)'
    stage "the catch-up after the colour (the day's payloads and the rest)" 'MQTTPublisher.catchUp\(\)'
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
    echo "A one-second slot boundary at native resolution, all threads, over ${boundaries} boundaries: ${per_boundary} instructions each."
    echo
    grep '^|' "$work/spaced" | sed -n 1p | awk -F'|' '{gsub(/ /, "", $4); printf "Round trip under callgrind, median %s ms (a timing of the instrumented program; not comparable).\n", $4}'
} | python3 bench/results.py add "$results"
echo "appended to $results"
