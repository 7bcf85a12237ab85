#!/usr/bin/env bash
# Installs what energyclock needs, builds it, starts a local mosquitto on loopback when no
# broker answers, and runs the daemon. Extra arguments go to `energyclock run`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment
build_release
binary="$(release_bin_path)/energyclock"

host="${ENERGYCLOCK_MQTT_HOST:-localhost}"
port="${ENERGYCLOCK_MQTT_PORT:-1883}"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[$i]}" in
        --mqtt-host) host="${args[$((i + 1))]:-$host}" ;;
        --mqtt-host=*) host="${args[$i]#*=}" ;;
        --mqtt-port) port="${args[$((i + 1))]:-$port}" ;;
        --mqtt-port=*) port="${args[$i]#*=}" ;;
    esac
done

broker_pid=""
# A list of brokers (`a,b:1884`) is energyclock's to try in turn; a local one is only started for one host.
if [[ "$host" != *,* ]] && ! timeout 2 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null; then
    case "$host" in
        localhost | 127.0.0.1 | ::1)
            conf="$(mktemp -d)/mosquitto.conf"
            printf 'listener %s 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n' "$port" >"$conf"
            mosquitto -c "$conf" >"${conf%.conf}.log" 2>&1 &
            broker_pid=$!
            trap '[ -n "$broker_pid" ] && kill "$broker_pid" 2>/dev/null' EXIT
            for _ in $(seq 50); do timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null && break; sleep 0.1; done
            echo "energyclock: no broker answered on $host:$port, started mosquitto on 127.0.0.1:$port (log: ${conf%.conf}.log)" >&2
            ;;
        *)
            echo "energyclock: no broker answers on $host:$port; energyclock will keep retrying" >&2
            ;;
    esac
fi

"$binary" run --mqtt-host "$host" --mqtt-port "$port" "$@" &
daemon=$!
trap 'kill -TERM "$daemon" 2>/dev/null; wait "$daemon"; [ -n "$broker_pid" ] && kill "$broker_pid" 2>/dev/null' INT TERM
wait "$daemon"
