#!/usr/bin/env bash
# Benchmarks: hot paths in process, then the release daemon against a real mosquitto:
# settings round trip and memory at rest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment
swift build -c release --product energyclock
# A clean build of the bench package, so it never links an old copy of the sources it depends on.
(cd bench && swift package clean && swift build -c release)
bench="bench/.build/release/energyclock-bench"
daemon="$(swift build -c release --show-bin-path)/energyclock"

echo "== in process"
"$bench" core Tests/EnergyClockCoreTests/Fixtures/electricity_quarter_response.json

work="$(mktemp -d)"
trap 'kill ${broker:-} ${pid:-} 2>/dev/null || true; rm -rf "$work"' EXIT

memory() {
    local rss dirty
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
    dirty=$(awk '/^Private_Dirty/ {print $2}' "/proc/$pid/smaps_rollup")
    echo "$1: RSS ${rss} kB, private dirty ${dirty} kB, threads $(awk '/^Threads/ {print $2}' "/proc/$pid/status")"
}

# The broker's own Nagle setting decides whether a small answer waits for a delayed ACK,
# so the round trip is measured against both a default and a tuned mosquitto.
for tuning in "" "set_tcp_nodelay true"; do
    port=$((10000 + RANDOM % 20000))
    printf 'listener %s 127.0.0.1\nallow_anonymous true\n%s\n' "$port" "$tuning" >"$work/mosquitto.conf"
    mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
    broker=$!
    sleep 0.3
    rm -rf "$work/state"
    # No price API is reachable here: the daemon runs from an empty cache and retries in the background.
    "$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/state" \
        --energyzero-url http://127.0.0.1:9 --log-level error 2>"$work/daemon.log" &
    pid=$!
    sleep 1
    echo "== daemon, mosquitto ${tuning:-with default settings}"
    memory "at rest after start"
    "$bench" roundtrip "$port" 500
    memory "after 500 settings changes"
    kill -TERM "$pid"
    wait "$pid"
    pid=""
    kill "$broker"
    wait "$broker" 2>/dev/null || true
    broker=""
done
