# Shared set-up for scripts/run.sh and scripts/test.sh: Debian packages and the Swift toolchain.
# Sourced, not run.

ENERGYCLOCK_PACKAGES=(pkg-config libmosquitto-dev libsqlite3-dev libcurl4-openssl-dev libxml2 libcairo2-dev fonts-dejavu-core mosquitto mosquitto-clients ca-certificates)
# Only the tests need a real InfluxDB 1.x, openssl (test certificates) and setpriv (util-linux).
ENERGYCLOCK_TEST_PACKAGES=(influxdb openssl util-linux faketime)

# Installs whichever of the packages (and the extra ones named as arguments) are missing.
ensure_packages() {
    local missing=()
    local package
    for package in "${ENERGYCLOCK_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "energyclock: installing ${missing[*]}" >&2
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "energyclock: need root or sudo to install ${missing[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # SwiftPM keeps its build plan, with each system library's pkg-config flags as they were when
    # it was made: a build tried before the packages were here would otherwise link without them.
    local root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    rm -f "$root"/.build/*/*/description.json "$root"/bench/.build/*/*/description.json
}

# Puts a Swift 6 toolchain on PATH, or explains where to get one.
ensure_swift() {
    if ! command -v swift >/dev/null; then
        local dir
        for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin "$HOME/.local/share/swiftly/bin"; do
            [ -x "$dir/swift" ] && export PATH="$dir:$PATH" && break
        done
    fi
    if ! command -v swift >/dev/null; then
        echo "energyclock: no Swift toolchain found; install Swift 6 from https://www.swift.org/install/linux/ and put it on PATH" >&2
        exit 1
    fi
}

# Everything a build needs: the packages (plus any named), then the toolchain.
ensure_build_environment() {
    ensure_packages "$@"
    ensure_swift
}

# The release build's flags. The Swift runtime is linked into the programs, as in the container
# image (scripts/build-release.sh): the daemon is then the only user of that code on the machine
# anyway, and the linker keeps only what it calls, which at rest is 3–4 MB less resident memory
# than the toolchain's shared libraries (docs/performance.md).
ENERGYCLOCK_RELEASE_FLAGS=(-c release --static-swift-stdlib)

# The daemon and its helpers (the clock picture, HTTP transfers), built for release.
build_release() {
    local product
    for product in energyclock energyclock-render energyclock-fetch; do
        swift build "${ENERGYCLOCK_RELEASE_FLAGS[@]}" --product "$product"
    done
}

# Where build_release puts the programs.
release_bin_path() {
    swift build "${ENERGYCLOCK_RELEASE_FLAGS[@]}" --show-bin-path
}

# The benchmarks, built clean: an incremental build of bench/ can keep an old list of the main
# package's sources and fail, or link an old copy of them.
build_bench() {
    (cd bench && swift package clean && swift build -c release)
}
