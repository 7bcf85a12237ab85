#!/usr/bin/env bash
# Builds energyclock's fuzz targets with libFuzzer and AddressSanitizer and runs each for a
# bounded time, then prints the executions and findings per target.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET …]     default: 60 seconds, every target
#
# Targets: settings, profiles, plans, plannote, energyzero, entsoe, awattar, energycharts, custom, nordpool, octopus, tibber,
# ecb, options, supervisor, health, helper, fetch, redaction, nordpoolpredict, energyforecast, epexpredictor,
# energypriceforecast, gbcarbon, energinetco2, stromgedacht, stromampel. A crash, a sanitizer
# report or a time-out is saved in fuzz/findings/<target>/ and makes the script exit 1; replay
# one with ENERGYCLOCK_FUZZ_TARGET=<target> <binary> <file>.
set -euo pipefail
cd "$(dirname "$0")"
source ../scripts/setup.sh
ensure_build_environment

seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(settings profiles plans plannote energyzero entsoe awattar energycharts custom nordpool octopus tibber ecb options supervisor health helper fetch redaction
    nordpoolpredict energyforecast epexpredictor energypriceforecast gbcarbon energinetco2 stromgedacht stromampel)

flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
swift build "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/energyclock-fuzz"
fixtures=../Sources/EnergyClockTesting/Fixtures

status=0
printf '%-14s %12s %10s %s\n' target executions seconds findings
for target in "${targets[@]}"; do
    work=".work/$target"
    mkdir -p "$work/corpus" "findings/$target"
    seeds=()
    case "$target" in
        energyzero) seeds=("$fixtures/electricity_hour_response.json" "$fixtures/gas_day_response.json") ;;
        entsoe) seeds=("$fixtures"/*.xml "$fixtures"/hostile/entsoe-*.xml) ;;
        nordpool) seeds=("$fixtures"/nordpool/*.json "$fixtures"/hostile/nordpool-*.json) ;;
        octopus) seeds=("$fixtures"/octopus/*.json) ;;
        tibber) seeds=("$fixtures"/tibber/PriceInfoToday_2024-08-22.json "seeds/tibber") ;;
        ecb) seeds=("$fixtures"/ecb/*.xml "$fixtures"/hostile/ecb-*.xml) ;;
        nordpoolpredict) seeds=("$fixtures"/forecasts/nordpool-predict-fi_prediction-*.json) ;;
        energyforecast) seeds=("$fixtures"/forecasts/energyforecast_*.json) ;;
        epexpredictor) seeds=("$fixtures"/forecasts/epex-predictor_*.json) ;;
        energypriceforecast) seeds=("$fixtures"/forecasts/energypriceforecast_*.json) ;;
        gbcarbon) seeds=("$fixtures"/carbon/gb_*.json) ;;
        energinetco2) seeds=("$fixtures"/carbon/energinet_*.json) ;;
        stromgedacht) seeds=("$fixtures"/signal/stromgedacht_*.json) ;;
        stromampel) seeds=("$fixtures"/signal/energy-charts_*.json) ;;
        *) seeds=("seeds/$target") ;;
    esac
    seed_dir="$work/seeds"
    mkdir -p "$seed_dir"
    cp -r "${seeds[@]}" "$seed_dir/" 2>/dev/null || true
    log="$work/last.log"
    LSAN_OPTIONS="suppressions=$PWD/../sanitizers/lsan.supp" ENERGYCLOCK_FUZZ_TARGET="$target" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="findings/$target/" "$work/corpus" "$seed_dir" >"$log" 2>&1 || status=1
    executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    found="$(find "findings/$target" -type f | wc -l)"
    printf '%-14s %12s %10s %s\n' "$target" "${executions:-?}" "$seconds" "$found"
    [ "$found" -eq 0 ] || status=1
done
exit $status
