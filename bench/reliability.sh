#!/usr/bin/env bash
# Reliability figures from the outside: the release daemon against a real mosquitto, driven by
# mosquitto_pub and mosquitto_sub as other clients on the broker would drive it.
#
#   bench/reliability.sh            every figure (about two minutes)
#
# Prints one line per figure; docs/reliability.md collects them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment
build_release >/dev/null
daemon="$(release_bin_path)/energyclock"
work="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

port=$((10000 + RANDOM % 20000))
mosquitto_passwd -c -b "$work/passwd" clock right >/dev/null
chmod 755 "$work"
chmod 644 "$work/passwd"
# Anonymous clients may do anything; the user clock needs its password.
printf 'listener %s 127.0.0.1\nallow_anonymous true\npassword_file %s\nset_tcp_nodelay true\n' \
    "$port" "$work/passwd" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
sleep 0.3

# start NAME ARGS…: a daemon with its own state directory and log.
start() {
    local name="$1"
    shift
    "$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name" --energyzero-url http://127.0.0.1:9 "$@" \
        2>"$work/$name.log" &
    pids+=($!)
    eval "${name}_pid=$!"
}

wait_for() { # FILE TEXT
    for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
    echo "timed out waiting for '$2' in $1" >&2
    return 1
}

# 1. A flood of refused 60 KiB payloads.
start flood --topic-prefix flood
wait_for "$work/flood.log" "connected to"
head -c 61440 /dev/zero | tr '\0' A | sed 's/^/{"zone":"/; s/$/"}/' >"$work/big.json"
mosquitto_sub -p "$port" -t flood/settings/result -C 1000 -W 120 >/dev/null &
sub=$!
sleep 0.2
start_time=$(date +%s.%N)
for _ in $(seq 1000); do echo; done | sed "s|.*|$(cat "$work/big.json")|" |
    mosquitto_pub -p "$port" -t flood/settings/set -l
wait "$sub"
elapsed=$(printf '%.2f' "$(echo "$(date +%s.%N) - $start_time" | bc)")
echo "log flood: 1000 refused 60 KiB payloads in ${elapsed} s wrote $(wc -c <"$work/flood.log") bytes, $(wc -l <"$work/flood.log") lines of log"

# 2. Home Assistant announcing itself 200 times at once.
start ha --topic-prefix ha-test
wait_for "$work/ha.log" "connected to"
mosquitto_sub -p "$port" -t 'homeassistant/+/ha-test/#' -W 6 -R >"$work/ha.out" 2>/dev/null &
sub=$!
sleep 0.3
for _ in $(seq 200); do echo online; done | mosquitto_pub -p "$port" -t homeassistant/status -l
wait "$sub" || true
entities=$(mosquitto_sub -p "$port" -t 'homeassistant/+/ha-test/#' -W 1 2>/dev/null | wc -l || true)
echo "Home Assistant restarts: 200 'online' messages led to $(wc -l <"$work/ha.out") discovery publishes in 6 s, for ${entities} entities"

# 3. Two daemons on one host with the default client ids, then with one id forced on both.
start one --topic-prefix one
start two --topic-prefix two
sleep 10
echo "default client ids: $(grep -c 'connected to' "$work/one.log") and $(grep -c 'connected to' "$work/two.log") connects in 10 s"
start clash_a --topic-prefix clash --mqtt-client-id clash
start clash_b --topic-prefix clash --mqtt-client-id clash
sleep 20
connects=$(($(grep -c 'connected to' "$work/clash_a.log") + $(grep -c 'connected to' "$work/clash_b.log")))
named=$(cat "$work/clash_a.log" "$work/clash_b.log" | grep -c 'another client' || true)
echo "one client id on two daemons: ${connects} connects in 20 s, ${named} error line(s) naming the clash"

# 4. A wrong password, for 30 s.
ENERGYCLOCK_MQTT_PASSWORD=wrong start login --topic-prefix login --mqtt-username clock
sleep 30
attempts=$(grep -c "disconnected, not authorised" "$work/mosquitto.log" || true)
echo "a wrong password: ${attempts} login attempts and $(grep -c 'refused the connection' "$work/login.log") log line(s) about it in 30 s"
