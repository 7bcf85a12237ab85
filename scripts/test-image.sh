#!/usr/bin/env bash
# Builds the container image from Containerfile with podman and tests it against a mosquitto on
# loopback, then builds the Home Assistant add-on from the release's sources, as the Supervisor
# would, and runs it. No registry is needed:
# the Debian base image is made with debootstrap, and the Swift builder image from this machine's
# toolchain; the Containerfile's Swift stage then builds energyclock from source as it would
# anywhere.
#
#   scripts/test-image.sh        about 3 minutes with the base image cached, 4-5 without
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment
ensure_packages podman runc debootstrap python3 git

work="$(mktemp -d)"
chmod 755 "$work"
pids=()
containers=()
cleanup() {
    for c in "${containers[@]}"; do podman rm -f "$c" >/dev/null 2>&1 || true; done
    kill "${pids[@]}" 2>/dev/null || true
    podman volume rm -f energyclock-test-data >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "test-image: FAILED: $*" >&2; exit 1; }
step() { echo "== $*"; }

# Podman in this kind of sandbox: runc, and explicit limits.
printf '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=8192:8192"]\n[engine]\nruntime = "runc"\n' >"$work/containers.conf"
export CONTAINERS_CONF="$work/containers.conf"

base=localhost/debian:bookworm-slim
if ! podman image exists "$base"; then
    step "making $base with debootstrap"
    # The mirror apt already uses: deb822 sources first, then the one-line format.
    mirror="$({ grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
        grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'; } | grep -v security | grep debian | head -1 || true)"
    rootfs="$work/rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
    # Like Debian's own slim image: no downloaded packages, no package lists, no documentation.
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
    tar -C "$rootfs" -c . | podman import - "$base" >/dev/null
    rm -rf "$rootfs"
fi

# The Containerfile's own Swift stage runs in full: its builder is this machine's toolchain on the
# Debian base with the packages of the official swift:6.3-bookworm image, since no registry can be
# reached here. A broken apt-get line, package or path in that stage fails this script.
builder=localhost/swift:6.3-bookworm
if ! podman image exists "$builder"; then
    swift_root="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")"
    [ -d "$swift_root/usr/bin" ] || fail "no Swift toolchain found next to $(command -v swift)"
    step "making $builder from the toolchain in $swift_root"
    cat >"$work/builder.Containerfile" <<END
FROM $base
RUN apt-get update && apt-get install -y --no-install-recommends binutils git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 \\
    libgcc-12-dev libpython3-dev libsqlite3-0 libstdc++-12-dev libxml2-dev libncurses-dev libz3-dev pkg-config tzdata zip \\
    zlib1g-dev ca-certificates && rm -rf /var/lib/apt/lists/*
COPY usr /usr
END
    podman build -q -t "$builder" -f "$work/builder.Containerfile" "$swift_root" >/dev/null
fi

step "building the image from Containerfile"
podman build -q --format docker --build-arg BUILDER_IMAGE="$builder" --build-arg BASE_IMAGE="$base" \
    -t localhost/energyclock:test -f Containerfile . >/dev/null
sizes="$(podman run --rm --entrypoint /bin/sh localhost/energyclock:test -c \
    'stat -c %s /usr/local/bin/energyclock /usr/local/bin/energyclock-render /usr/local/bin/energyclock-fetch' 2>/dev/null | paste -sd ' ')"
echo "image: $(podman image inspect localhost/energyclock:test --format '{{.Size}}') bytes, of which the base" \
    "$(podman image inspect "$base" --format '{{.Size}}') bytes; the binaries ${sizes// /, } bytes"

port=$((20000 + RANDOM % 20000))
broker() { # starts mosquitto on loopback
    printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$port" >"$work/mosquitto.conf"
    mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
    broker_pid=$!
    pids+=("$broker_pid")
    sleep 0.3
}
broker

# Hourly prices around now, read from a file the container mounts.
now=$(date +%s)
hour=$((now / 3600 * 3600))
{
    printf '['
    for i in $(seq -2 47); do printf '%s{"start":%d,"price":0.%02d}' "$([ "$i" = -2 ] || echo ,)" $((hour + i * 3600)) $((5 + i % 30)); done
    printf ']'
} >"$work/prices.json"
chmod 644 "$work/prices.json"

run_daemon() { # NAME: the image's daemon on the host network, store in a volume
    podman run -d --name "$1" --network host -v energyclock-test-data:/data -v "$work/prices.json:/prices.json:ro" \
        -e ENERGYCLOCK_MQTT_HOST=127.0.0.1 -e ENERGYCLOCK_MQTT_PORT="$port" -e ENERGYCLOCK_CUSTOM_URL=file:///prices.json \
        -e ENERGYCLOCK_SETTINGS='{"source":"custom"}' -e ENERGYCLOCK_ENERGYZERO_URL=http://127.0.0.1:9 -e ENERGYCLOCK_MAX_OFFLINE=10 \
        localhost/energyclock:test >/dev/null 2>>"$work/podman.log"
    containers+=("$1")
}
sub() { mosquitto_sub -p "$port" -t "$1" -C 1 -W "${2:-20}"; }

step "running the image"
run_daemon energyclock-test
# Until the prices file is read the price topic is empty (cleared, never made up): wait for a price.
price=""
for _ in $(seq 20); do
    price="$(sub energyclock/price 2)" || true
    [ -n "$price" ] && break
    sleep 0.5
done
[ -n "$price" ] || { podman logs energyclock-test; fail "no retained price"; }
echo "price: $price; color: $(sub energyclock/color)"
sub energyclock/clock/png >/dev/null || fail "no clock picture"

step "a settings change round-trips"
mosquitto_sub -p "$port" -t energyclock/settings/result -C 1 -W 20 >"$work/result" &
sleep 0.3
mosquitto_pub -p "$port" -t energyclock/settings/green_max/set -m 0.123
wait $!
grep -q '"ok":true' "$work/result" || fail "settings result: $(cat "$work/result")"

step "the health check"
sleep 2
podman healthcheck run energyclock-test >/dev/null || { podman exec energyclock-test energyclock health; fail "not healthy"; }
podman exec energyclock-test energyclock health

step "SIGTERM publishes offline"
podman stop -t 10 energyclock-test >/dev/null
[ "$(sub energyclock/status)" = offline ] || fail "status is not offline after SIGTERM"
podman rm energyclock-test >/dev/null

step "the settings survive a new container on the same volume"
run_daemon energyclock-test2
sleep 1
settings="$(sub energyclock/settings)" || true
grep -q '"green_max":0.123' <<<"$settings" || fail "the setting was lost"

step "unhealthy when the broker is gone for long"
kill "$broker_pid"
sleep 13
if podman healthcheck run energyclock-test2 >/dev/null 2>&1; then fail "still healthy without a broker"; fi
podman exec energyclock-test2 energyclock health || true
podman rm -f energyclock-test2 >/dev/null
broker

step "the Home Assistant add-on, built from the release's sources as the Supervisor builds it"
# The Supervisor's build: the add-on's folder as the whole context, its version as BUILD_VERSION.
# The repository is served on loopback with git's own protocol, this commit tagged as the release.
version="$(sed -n 's/^version: "\(.*\)"$/\1/p' homeassistant/energyclock/config.yaml)"
[ -n "$version" ] || fail "no version in the add-on's config.yaml"
git clone -q --bare . "$work/repo/energyclock.git"
git -C "$work/repo/energyclock.git" tag -f "v$version" HEAD >/dev/null
git_port=$((40000 + RANDOM % 20000))
git daemon --base-path="$work/repo" --export-all --reuseaddr --listen=127.0.0.1 --port="$git_port" "$work/repo" \
    >"$work/git-daemon.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$git_port" 2>/dev/null && break; sleep 0.1; done
podman build -q --network host --build-arg BUILD_FROM="$base" --build-arg BUILD_VERSION="$version" \
    --build-arg BUILD_ARCH=amd64 --build-arg SWIFT_IMAGE="$builder" --build-arg ENERGYCLOCK_REPOSITORY="git://127.0.0.1:$git_port/energyclock.git" \
    -t localhost/energyclock-addon:test homeassistant/energyclock >/dev/null || fail "the add-on did not build from its sources"
supervisor_port=$((port + 1))
mkdir -p "$work/supervisor/services" "$work/addon-data"
printf '{"result":"ok","data":{"host":"127.0.0.1","port":%s,"ssl":false,"protocol":"3.1.1","username":"","password":""}}' "$port" \
    >"$work/supervisor/services/mqtt"
(cd "$work/supervisor" && exec python3 -m http.server "$supervisor_port" --bind 127.0.0.1 >/dev/null 2>&1) &
pids+=($!)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$supervisor_port") 2>/dev/null && break; sleep 0.1; done
printf '{"source":"custom","zone":"NL","entsoe_token":"","leds":["json:addon/led"],"ha_discovery":true,"log_level":"info","mqtt_host":"","mqtt_port":1883,"mqtt_username":"","mqtt_password":""}' \
    >"$work/addon-data/options.json"
chmod -R a+rwX "$work/addon-data"
# Light commands are not retained: listen before the add-on starts.
mosquitto_sub -p "$port" -t addon/led -C 1 -W 30 >"$work/led" &
led_pid=$!
podman run -d --name energyclock-addon --network host -v "$work/addon-data:/data" -v "$work/prices.json:/prices.json:ro" \
    -e SUPERVISOR_TOKEN=test-token -e ENERGYCLOCK_SUPERVISOR_URL="http://127.0.0.1:$supervisor_port" \
    -e ENERGYCLOCK_CUSTOM_URL=file:///prices.json -e TZ=Europe/Brussels localhost/energyclock-addon:test >/dev/null 2>>"$work/podman.log"
containers+=(energyclock-addon)
settings="$(sub energyclock/settings)" || true
grep -q '"source":"custom"' <<<"$settings" || { podman logs energyclock-addon; fail "the add-on did not start"; }
sub homeassistant/image/energyclock/clock/config >/dev/null || fail "no discovery from the add-on"
wait "$led_pid" || true
grep -q '"band"' "$work/led" || fail "the add-on's light was not set"
# Read the log whole first: `grep -q` stops reading early, which pipefail would count as a failure.
addon_log="$(podman logs energyclock-addon 2>&1)"
grep -q "zone Europe/Brussels" <<<"$addon_log" || fail "the add-on did not take Home Assistant's time zone"
[ -s "$work/addon-data/energyclock.sqlite" ] || fail "no store in /data"
echo "test-image: all passed"
