#!/usr/bin/env bash
# Installs what the tests need, then runs the whole suite: unit tests and integration tests
# against a real mosquitto and a loopback price API. Arguments go to the test runner, e.g.
# `--filter LoopGuardTests`.
#
# The suite runs at most ENERGYCLOCK_TEST_WIDTH tests at once (8 by default). Many of them time
# the daemon (a boundary's lateness, a shutdown within 5 s): with every test started at once on
# a small machine they would time the machine instead. Eight keeps a two-core machine busy.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_build_environment "${ENERGYCLOCK_TEST_PACKAGES[@]}"
swift build --build-tests -Xswiftc -warnings-as-errors
tests="$(swift build --show-bin-path)/energyclockPackageTests.xctest"
exec "$tests" --testing-library swift-testing \
    --experimental-maximum-parallelization-width "${ENERGYCLOCK_TEST_WIDTH:-8}" "$@"
