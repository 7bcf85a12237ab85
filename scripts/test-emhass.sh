#!/usr/bin/env bash
# The real EMHASS optimises on what energyclock publishes. EMHASS 0.18.7 from PyPI runs in a
# virtual environment, its web server on loopback, without Home Assistant; the real daemon
# publishes quarter-hour prices to a real mosquitto. Each retained forecast, import
# (`forecast/emhass/timed` and `forecast/emhass`) and export (`export/forecast/emhass/timed`), is
# posted as a naive-MPC call (scripts/emhass-call.py), once in the first half of a 30-minute step
# and once in the second: EMHASS must answer Optimal, with the published prices on their steps.
#
# The halves are reached without waiting: the daemon and EMHASS both run under libfaketime, moved
# by the same offset to the middle of each half (the broker keeps real time; nothing it holds is
# dated).
#
#   scripts/test-emhass.sh       about a minute, and 2 more the first time (1.1 GB into the venv)
#
# ENERGYCLOCK_KEEP_WORK=1 keeps the logs and payloads in the temporary directory it names.
#
# ENERGYCLOCK_EMHASS_VENV names the virtual environment (kept between runs), PYTHON the
# interpreter that makes it (3.11 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment mosquitto mosquitto-clients python3 python3-venv faketime curl procps
swift build --product energyclock >/dev/null
bin="$(swift build --show-bin-path)/energyclock"

version=0.18.7
venv="${ENERGYCLOCK_EMHASS_VENV:-$HOME/.cache/energyclock/emhass-$version}"
python="${PYTHON:-python3}"
step_minutes=30

work="$(mktemp -d)"
# stop PID: ends a program started by faked() (below), whose pid is faketime's; mosquitto too.
stop() { pkill -TERM -P "$1" || kill -TERM "$1"; }
pids=()
cleanup() {
    for pid in "${pids[@]}"; do stop "$pid" 2>/dev/null || true; done
    [ -n "${ENERGYCLOCK_KEEP_WORK:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "test-emhass: FAILED: $*" >&2
    for log in "$work"/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -15 "$log" >&2; }; done
    exit 1
}
step() { echo "== $*"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
listening() { for _ in $(seq 100); do timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('emhass') != '$version')" 2>/dev/null; then
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        fail "EMHASS $version needs Python 3.11 or newer; $python is $("$python" --version 2>&1)"
    step "installing EMHASS $version into $venv"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install -q "emhass==$version"
fi

# Quarter-hour prices from four hours ago for a day and a half, each a different price, so that
# a value on the wrong step shows.
python3 - "$work/prices.json" <<'END'
import json, sys, time
start = (int(time.time()) // 900 - 16) * 900
json.dump([{"start": start + i * 900, "price": round(0.1 + 0.001 * i, 3)} for i in range(150)], open(sys.argv[1], "w"))
END

port="$(free_port)"
# The configuration as a file: with a process substitution `$!` would be its pid, not mosquitto's,
# and the broker would outlive the test.
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
listening "$port" || fail "mosquitto did not listen on $port"

# faked OFFSET COMMAND...: COMMAND with the wall clock OFFSET seconds ahead (monotonic time is
# left alone). `faketime` forks the command and exits with its status; stop() signals the command
# itself, its only child.
faked() {
    local offset="$1"
    shift
    FAKETIME_DONT_FAKE_MONOTONIC=1 exec faketime -f "+$offset" "$@"
}
# round NAME QUARTER: the daemon and EMHASS moved ahead to the middle of the first (QUARTER 1) or
# the second half (3) of a step; every forecast topic called.
# A loopback energypriceforecast.eu with a week of quarter hours, for the round with the forecast.
forecasts="$(free_port)"
python3 bench/forecast-server.py "$forecasts" &
pids+=($!)
listening "$forecasts" || fail "the forecast server did not listen on $forecasts"

round() { # NAME QUARTER [EXTRA SETTINGS]: the daemon and EMHASS moved to QUARTER quarters into a step
    local name="$1" step_seconds=$((step_minutes * 60)) extra="${3:-}"
    local into=$(($(date +%s) % step_seconds + 5))
    local offset=$(((($2 * step_seconds / 4 - into) % step_seconds + step_seconds) % step_seconds))
    local dir="$work/$name"
    mkdir -p "$dir/data"
    step "$name: now is $(faked "$offset" date '+%H:%M:%S %Z')"
    faked "$offset" "$bin" run --mqtt-host "127.0.0.1:$port" --state-dir "$dir/state" \
        --settings '{"source":"custom","resolution":"native","forecast_step":'$step_minutes$extra',"profiles":{"export":{"kind":"export"}}}' \
        --custom-url "file://$work/prices.json" --energypriceforecast-url "http://127.0.0.1:$forecasts" \
        --ha-discovery false --clock-image=false --timezone Europe/Amsterdam \
        >"$work/daemon-$name.log" 2>&1 &
    local daemon=$!
    pids+=("$daemon")

    cat >"$dir/config.json" <<END
{"optimization_time_step": $step_minutes, "set_use_pv": false, "set_use_battery": false,
 "number_of_deferrable_loads": 0, "load_forecast_method": "list", "load_cost_forecast_method": "list",
 "production_price_forecast_method": "constant", "continual_publish": false}
END
    printf 'hass_url: http://127.0.0.1:9/\nlong_lived_token: ""\ntime_zone: Europe/Amsterdam\nLatitude: 52.37\nLongitude: 4.9\nAltitude: 0\nserver_ip: 127.0.0.1\n' \
        >"$dir/secrets.yaml"
    local emhass_port
    emhass_port="$(free_port)"
    faked "$offset" env -u SUPERVISOR_TOKEN CONFIG_PATH="$dir/config.json" DATA_PATH="$dir/data/" \
        SECRETS_PATH="$dir/secrets.yaml" OPTIONS_PATH="$dir/none.json" LEGACY_CONFIG_PATH="$dir/none.yaml" \
        PORT="$emhass_port" "$venv/bin/python" -m emhass.web_server >"$work/emhass-$name.log" 2>&1 &
    local emhass=$!
    pids+=("$emhass")
    local url="http://127.0.0.1:$emhass_port"
    for _ in $(seq 600); do curl -sf -o /dev/null "$url/api/v1/last-run" && break; sleep 0.1; done
    curl -sf -o /dev/null "$url/api/v1/last-run" || fail "EMHASS did not answer on $url"

    local topic file
    for topic in energyclock/forecast/emhass/timed energyclock/forecast/emhass energyclock/export/forecast/emhass/timed; do
        file="$dir/$(tr / - <<<"$topic").json"
        for _ in $(seq 60); do
            mosquitto_sub -p "$port" -t "$topic" -C 1 -W 1 >"$file" 2>/dev/null || true
            [ -s "$file" ] && break
        done
        [ -s "$file" ] || fail "$name: nothing retained on $topic"
        python3 scripts/emhass-call.py "$url" "$dir/data" "$file" "$topic" || fail "$name: EMHASS on $topic"
    done
    stop "$daemon"
    stop "$emhass"
    wait "$daemon" || fail "$name: the daemon did not stop cleanly"
    wait "$emhass" 2>/dev/null || true
}

round first-half 1
round second-half 3
# With the forecast beyond the official prices: a week of steps in every call.
round forecast-tail 1 ',"forecast_provider":"energypriceforecast","forecast_tail":true'
echo "test-emhass: all passed"
