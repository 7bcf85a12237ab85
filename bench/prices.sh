# Sourced by the benchmark scripts.
#
# start_broker DIR [LINE…]: a mosquitto on a free loopback port, with Nagle's algorithm off as a
# round trip needs it, its configuration and log in DIR and any LINEs added to its configuration.
# Sets `port` and adds the broker's pid to `pids`.
start_broker() {
    local dir="$1"
    shift
    port=$((10000 + RANDOM % 20000))
    {
        printf 'listener %s 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n' "$port"
        [ $# -eq 0 ] || printf '%s\n' "$@"
    } >"$dir/mosquitto.conf"
    mosquitto -c "$dir/mosquitto.conf" >"$dir/mosquitto.log" 2>&1 &
    pids+=($!)
    sleep 0.3
}

# write_prices DIR writes the user's own prices into DIR:
# hourly.json, hourly 0.05 EUR/kWh from two days ago to two days ahead, and seconds.json,
# one-second slots of alternating price for a quarter of an hour. Today and tomorrow are whole in
# any zone: a day with hours missing is polled for every five minutes, which an idle daemon
# measured at rest must not be doing.
write_prices() {
    local now hour
    now=$(date +%s)
    hour=$((now / 3600 * 3600))
    {
        printf '['
        for i in $(seq -48 47); do printf '%s{"start":%d,"price":0.05}' "$([ "$i" = -48 ] || echo ,)" $((hour + i * 3600)); done
        printf ']'
    } >"$1/hourly.json"
    {
        printf '['
        for i in $(seq 0 900); do printf '%s{"start":%d,"price":0.0%d}' "$([ "$i" = 0 ] || echo ,)" $((now - 5 + i)) $((4 + i % 2)); done
        printf ']'
    } >"$1/seconds.json"
}

# settled_memory PID NAME LOG: waits SETTLE_SECONDS (20) for the daemon PID to settle (its fetches
# done, the heap trimmed at rest), then prints its "rss pss private-dirty" in kB and stops it; exits
# with LOG's tail when it stopped by itself.
settled_memory() {
    local pid="$1" name="$2" log="$3"
    sleep "${SETTLE_SECONDS:-20}"
    if ! [ -e "/proc/$pid/smaps_rollup" ]; then
        echo "the daemon ($name) stopped: $(tail -3 "$log")" >&2
        exit 1
    fi
    awk '/^Rss:/ {r=$2} /^Pss:/ {p=$2} /^Private_Dirty:/ {d=$2} END {print r, p, d}' "/proc/$pid/smaps_rollup"
    kill -TERM "$pid"
    wait "$pid" || true
}

# many_profiles_setup: what the benchmarks of many profiles share. A work directory removed on exit
# with every process in `pids` stopped, a broker that queues generously, and a loopback ENTSO-E at
# `api` (the broker's port + 1) serving the recorded BE_60M.xml answer re-dated.
many_profiles_setup() {
    # The 28 ENTSO-E zones the profiles of bench/forecasts.sh and bench/carbon.sh are spread over.
    zones=(NL BE DE-LU FR AT CH CZ PL DK1 DK2 NO1 NO2 NO3 NO4 NO5 SE1 SE2 SE3 SE4 FI EE LV LT ES PT HU RO SI)
    work="$(mktemp -d)"
    chmod 755 "$work"
    pids=()
    trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
    start_broker "$work" "max_queued_messages 100000"
    api=$((port + 1))
    python3 bench/entsoe-server.py "$api" Sources/EnergyClockTesting/Fixtures/BE_60M.xml &
    pids+=($!)
}
