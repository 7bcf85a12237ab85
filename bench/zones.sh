#!/usr/bin/env bash
# The many-zones benchmark: one daemon with 40 profiles (the first on the user's own prices, one
# per ENTSO-E bidding zone, and export views of five of them) beside 40 one-profile daemons with
# the same 40 price views, all against a real mosquitto and a loopback ENTSO-E that serves the
# recorded answer re-dated. Each side's memory is read while it runs alone (but for the broker).
# Adds its section to bench/results.md.
#
#   bench/zones.sh            about three minutes
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment tcpdump
build_release
build_bench
bench="bench/.build/release/energyclock-bench"
daemon="$(release_bin_path)/energyclock"
results="bench/results.md"
idle_seconds="${IDLE_SECONDS:-60}"

source bench/prices.sh
many_profiles_setup
sleep 0.5

zones=(NL BE DE-LU FR AT CH CZ PL DK1 DK2 NO1 NO2 NO3 NO4 NO5 SE1 SE2 SE3 SE4 FI EE LV LT ES PT IT-NORD IT-CNOR IT-CSUD IT-SUD IT-SICI IT-SARD HU RO SI)
zones=($(for z in "${zones[@]}"; do grep -q "(\"$z\"," Sources/EnergyClockDomain/Prices/BiddingZone.swift && echo "$z"; done))
write_prices "$work"

# The 39 views after the first: p01… one per zone, then exports of the first five zones.
views=()
for z in "${zones[@]}"; do views+=("{\"source\":\"entsoe\",\"zone\":\"$z\"}"); done
for z in "${zones[@]:0:$((39 - ${#zones[@]}))}"; do views+=("{\"source\":\"entsoe\",\"zone\":\"$z\",\"kind\":\"export\"}"); done
profiles="{\"source\":\"custom\",\"profiles\":{"
for i in "${!views[@]}"; do profiles+="$([ "$i" = 0 ] || echo ,)$(printf '"p%02d"' $((i + 1))):${views[$i]}"; done
profiles+="}}"

run() { # NAME PREFIX PRICES SETTINGS [FLAGS…]: a daemon in the background; its pid in $pid
    local name="$1" prefix="$2" prices="$3" settings="$4"
    shift 4
    ENERGYCLOCK_ENTSOE_TOKEN=bench "$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name" \
        --topic-prefix "$prefix" --custom-url "file://$work/$prices" --entsoe-url "http://127.0.0.1:$api" --ha-discovery false \
        --log-level warning --settings "$settings" "$@" 2>"$work/$name.log" &
    pid=$!
    pids+=("$pid")
}
pss() { awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup"; }
rss() { awk '/^Rss:/ {print $2}' "/proc/$1/smaps_rollup"; }

{
    echo
    echo "## Many zones: one daemon with 40 profiles beside 40 one-profile daemons"
    echo
    echo "$(date -u +%Y-%m-%d): the first profile on the user's own prices, ${#zones[@]} ENTSO-E zones and $((39 - ${#zones[@]})) export views, from a loopback ENTSO-E serving the recorded BE_60M.xml re-dated. Times in ms, memory in kB."
    echo
    # Each side of a comparison is measured alone: a daemon beside others shares its libraries'
    # pages with them, and its proportional set size counts only its share of those.
    # 40 daemons, one view each, each under its own prefix, from empty stores.
    "$bench" allprices "$port" 40 "+/price" >"$work/all" &
    waiter=$!
    sleep 0.4
    run single0 s00 hourly.json '{"source":"custom"}'
    singles=("$pid")
    for i in "${!views[@]}"; do
        run "single$((i + 1))" "$(printf 's%02d' $((i + 1)))" hourly.json "${views[$i]}"
        singles+=("$pid")
    done
    wait "$waiter"
    startup_singles=$(cat "$work/all")
    sleep 5
    pss_sum=0
    rss_sum=0
    for p in "${singles[@]}"; do
        pss_sum=$((pss_sum + $(pss "$p")))
        rss_sum=$((rss_sum + $(rss "$p")))
    done
    kill -TERM "${singles[@]}"
    wait "${singles[@]}" 2>/dev/null || true
    sleep 10

    # One one-profile daemon alone, from an empty store like the others.
    "$bench" allprices "$port" 1 a00/price >"$work/all" &
    waiter=$!
    sleep 0.4
    run alone a00 hourly.json '{"source":"custom"}'
    wait "$waiter"
    sleep 5
    pss_one=$(pss "$pid")
    rss_one=$(rss "$pid")
    kill -TERM "$pid"
    wait "$pid" || true

    # One daemon, 40 profiles, from an empty store: until every profile's first retained price.
    "$bench" allprices "$port" 40 energyclock/price "energyclock/+/price" >"$work/all" &
    waiter=$!
    sleep 0.4
    run many energyclock hourly.json "$profiles"
    many=$pid
    wait "$waiter"
    startup_many=$(cat "$work/all")
    sleep 5
    pss_many=$(pss "$many")
    rss_many=$(rss "$many")
    # Settle before the round trips, as the one-profile daemon's below does.
    sleep 5

    echo "| what | min | median | p99 | max | n |"
    echo "|---|---|---|---|---|---|"
    # The round trip on the first of the 40 profiles and on a one-profile daemon beside it, taking
    # turns, so that both meet the same moments of the machine.
    run one one hourly.json '{"source":"custom"}'
    sleep 2
    "$bench" color "$port" 300 0.05 0.07 energyclock one |
        sed 's/^| settings round trip: publish → new retained color, energyclock/| settings round trip: publish → new retained color (40 profiles)/;
             s/^| settings round trip: publish → new retained color, one/| one-profile daemon beside it, in turns: settings round trip/'
    kill -TERM "$pid"
    wait "$pid" || true
    "$bench" profilestorm "$port" 2000 40 | grep '^|'
    # The storm leaves work behind (clock redraws at most once a second, the store): let it settle
    # before the idle count starts, so that it counts rest and not the storm's tail.
    sleep 15
    # Threads come and go (a drawing's reader): count the switches of the ones alive at both ends.
    switches() { for t in /proc/"$many"/task/*; do echo "${t##*/} $(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status" 2>/dev/null || true)"; done; }
    switches >"$work/s0"
    sleep "$idle_seconds"
    switches >"$work/s1"
    woken=$(awk 'NR == FNR {before[$1] = $2; next} ($1 in before) && $2 != "" {s += $2 - before[$1]} END {print s + 0}' "$work/s0" "$work/s1")
    stop_start=$(date +%s%N)
    kill -TERM "$many"
    # A SIGTERM that goes unanswered for 20 s is noted, and a second one sent. An exited daemon
    # stays a zombie until it is waited for, and a zombie still answers `kill -0`: look at its state.
    running() { [ -e "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
    for _ in $(seq 2000); do running "$many" || break; sleep 0.01; done
    stop_note=""
    if running "$many"; then stop_note=" (no exit within 20 s; a second SIGTERM was needed)"; kill -TERM "$many"; fi
    wait "$many" || true
    stop_ms=$((($(date +%s%N) - stop_start) / 1000000))

    # Slot boundaries: 40 profiles on one-second slots.
    seconds="{\"source\":\"custom\",\"resolution\":\"native\",\"profiles\":{"
    for i in $(seq 1 39); do seconds+="$([ "$i" = 1 ] || echo ,)$(printf '"p%02d"' "$i"):{}"; done
    seconds+="}}"
    # Without the clock pictures: 40 pictures a second is a helper process every 25 ms, no real load.
    run boundaries energyclock seconds.json "$seconds" --clock-image=false
    sleep 3
    # The same boundaries on the wire: when each price left the daemon, before the broker read it.
    # A buffer of 256 MiB: with the default, the kernel dropped a fifth of the segments of the
    # day payloads, and a second whose stream lost a segment has no complete count of prices.
    tcpdump -i lo -s 0 -U -B 262144 -w "$work/boundaries.pcap" "tcp dst port $port" 2>/dev/null &
    capture=$!
    pids+=("$capture")
    sleep 1
    "$bench" lastlag "$port" 120 40
    kill -TERM "$capture"
    wait "$capture" || true
    kill -TERM "$pid"
    wait "$pid" || true
    python3 bench/wirelag.py "$work/boundaries.pcap" "$port" 40 "slot boundary → the last of 40 prices leaves the daemon (on the wire, 1 s slots)"
    "$bench" burst "$port" 120 40

    echo
    echo "| 40 profiles | one daemon | 40 daemons |"
    echo "|---|---|---|"
    echo "| start from an empty store to every profile's first retained price | ${startup_many} ms | ${startup_singles} ms |"
    echo "| resident (RSS), each side alone | ${rss_many} kB: $((rss_many - rss_one)) kB over one profile (one alone: ${rss_one} kB) | ${rss_sum} kB summed |"
    echo "| proportional set size (PSS, smaps_rollup), each side alone | ${pss_many} kB (one alone: ${pss_one} kB) | ${pss_sum} kB summed |"
    echo "| idle wake-ups, all threads, over ${idle_seconds} s | $(awk -v n="$woken" -v s="$idle_seconds" 'BEGIN {printf "%.1f per minute", n * 60 / s}') | |"
    echo "| SIGTERM to exit, after the storm and the idle minute | ${stop_ms} ms${stop_note} | |"
} | python3 bench/results.py add "$results"
echo "appended to $results"
