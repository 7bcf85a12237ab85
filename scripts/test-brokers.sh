#!/usr/bin/env bash
# Two broker topologies against the real daemon and real mosquittos on loopback:
#   failover: energyclock on A,B; A dies, everything appears on B and settings round-trip there;
#             A comes back and B dies, and it is back on A;
#   bridge:   energyclock on a central broker; a home broker bridges energyclock/# in from it, and
#             a client at home sees every retained topic and changes a setting through the bridge.
#
#   scripts/test-brokers.sh        about a minute
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment mosquitto mosquitto-clients python3
swift build --product energyclock >/dev/null
swift build --product energyclock-render >/dev/null
swift build --product energyclock-fetch >/dev/null
bin="$(swift build --show-bin-path)/energyclock"

work="$(mktemp -d)"
declare -A brokers=()
daemon_pid=""
cleanup() {
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
    for pid in "${brokers[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "test-brokers: FAILED: $*" >&2
    [ -f "$work/daemon.log" ] && tail -20 "$work/daemon.log" >&2
    exit 1
}
step() { echo "== $*"; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# broker NAME PORT [CONFIG LINES…]: a mosquitto on loopback, without persistence.
broker() {
    local name="$1" port="$2"
    shift 2
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$work/$name.conf"
    for line in "$@"; do printf '%s\n' "$line" >>"$work/$name.conf"; done
    mosquitto -c "$work/$name.conf" >"$work/$name.log" 2>&1 &
    brokers[$name]=$!
    for _ in $(seq 50); do timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null && return; sleep 0.1; done
    fail "mosquitto $name did not listen on $port"
}
stop_broker() {
    kill "${brokers[$1]}" 2>/dev/null || true
    wait "${brokers[$1]}" 2>/dev/null || true
    unset "brokers[$1]"
}

# The retained energyclock topics a broker holds, one per line, sorted.
retained() {
    { mosquitto_sub -p "$1" -t 'energyclock/#' -v --retained-only -W 2 2>/dev/null || true; } | cut -d' ' -f1 | sort -u
}
# settled PORT: the retained topics once they stop changing (at least 10 of them), for up to 30 s.
settled() {
    local last="" now
    for _ in $(seq 30); do
        now="$(retained "$1")"
        if [ "$now" = "$last" ] && [ "$(wc -l <<<"$now")" -ge 10 ]; then
            echo "$now"
            return 0
        fi
        last="$now"
    done
    echo "$last"
}
# waits_for PORT TOPIC PAYLOAD: until the broker holds PAYLOAD on TOPIC, for up to 30 s.
waits_for() {
    for _ in $(seq 30); do
        [ "$(mosquitto_sub -p "$1" -t "$2" -C 1 -W 1 2>/dev/null || true)" = "$3" ] && return 0
    done
    return 1
}
# A settings change sent to PORT is answered there with ok:true.
round_trip() {
    mosquitto_sub -p "$1" -t energyclock/settings/result -C 1 -W 20 >"$work/result" 2>/dev/null &
    local listener=$!
    sleep 0.5
    mosquitto_pub -p "$1" -q 1 -t energyclock/settings/green_max/set -m "$2"
    wait "$listener" || fail "no answer on settings/result through port $1"
    grep -q '"ok":true' "$work/result" || fail "the change was refused: $(cat "$work/result")"
    grep -q "\"green_max\":$2" "$work/result" || fail "the answer does not hold green_max $2: $(cat "$work/result")"
}

# Hourly prices from two hours ago for two days, so that now always has a price.
python3 - "$work/prices.json" <<'END'
import json, sys, time
start = (int(time.time()) // 3600 - 2) * 3600
json.dump([{"start": start + h * 3600, "price": 0.05 + (h % 24) / 100} for h in range(50)], open(sys.argv[1], "w"))
END

start_daemon() {
    "$bin" run --mqtt-host "$1" --state-dir "$work/state-$2" --settings '{"source":"custom"}' \
        --custom-url "file://$work/prices.json" --ha-discovery false --clock-image=false --timezone Europe/Amsterdam \
        >"$work/daemon.log" 2>&1 &
    daemon_pid=$!
}
stop_daemon() {
    kill -TERM "$daemon_pid"
    wait "$daemon_pid" || fail "the daemon did not stop cleanly"
    daemon_pid=""
}

step "failover: energyclock on A,B"
a="$(free_port)"
b="$(free_port)"
broker A "$a"
broker B "$b"
start_daemon "127.0.0.1:$a,127.0.0.1:$b" failover
waits_for "$a" energyclock/status online || fail "not online on A"
on_a="$(settled "$a")"
for topic in energyclock/price energyclock/current energyclock/prices/today energyclock/settings; do
    grep -qx "$topic" <<<"$on_a" || fail "A does not hold $topic: $on_a"
done
step "A dies: everything appears on B, and a settings change round-trips there"
stop_broker A
waits_for "$b" energyclock/status online || fail "not online on B after A died"
on_b="$(settled "$b")"
[ "$on_a" = "$on_b" ] || fail "B holds other topics than A had: $(diff <(echo "$on_a") <(echo "$on_b") | head -5)"
round_trip "$b" 0.07
step "A comes back and B dies: it is back on A"
broker A "$a"
stop_broker B
waits_for "$a" energyclock/status online || fail "not back on A"
[ "$(settled "$a")" = "$on_a" ] || fail "A does not hold every topic again"
grep -q "connected to 127.0.0.1:$a" "$work/daemon.log" || fail "the log does not name A"
stop_daemon
waits_for "$a" energyclock/status offline || fail "no offline on A at shutdown"
stop_broker A

step "bridge: energyclock on a central broker, a home broker bridging energyclock/# in"
central="$(free_port)"
home="$(free_port)"
broker central "$central"
broker home "$home" "connection central" "address 127.0.0.1:$central" "topic energyclock/# in 1" \
    "topic energyclock/settings/set out 1" "topic energyclock/settings/+/set out 1"
start_daemon "127.0.0.1:$central" bridge
waits_for "$home" energyclock/status online || fail "status did not cross the bridge"
on_central="$(settled "$central")"
on_home="$(settled "$home")"
grep -qx energyclock/prices/today <<<"$on_central" || fail "the central broker does not hold prices/today: $on_central"
[ "$on_central" = "$on_home" ] || fail "home holds other topics: $(diff <(echo "$on_central") <(echo "$on_home") | head -5)"
step "a settings change from home goes through the bridge and is answered there"
round_trip "$home" 0.08
stop_daemon

echo "test-brokers: all passed"
