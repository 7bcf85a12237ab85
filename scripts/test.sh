#!/usr/bin/env bash
# Installs what the tests need, then runs the whole suite: unit tests and integration tests
# against a real mosquitto and a loopback price API.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment "${ENERGYCLOCK_TEST_PACKAGES[@]}"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
