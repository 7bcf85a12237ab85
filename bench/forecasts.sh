#!/usr/bin/env bash
# The forecast benchmark: the memory a week of quarter-hour forecasts costs one daemon with 40
# profiles. The same daemon runs twice, each time alone (but for the broker and the loopback APIs):
# 40 profiles at native resolution on a loopback ENTSO-E, first without a forecast, then with
# energypriceforecast.eu's (a loopback one serving a week of quarter hours) on every profile whose
# zone it forecasts, with forecast_tail on. Adds its section to bench/results.md.
#
#   bench/forecasts.sh      about a minute
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build_release
daemon="$(release_bin_path)/energyclock"
results="bench/results.md"

source bench/prices.sh
many_profiles_setup
forecasts=$((port + 2))
python3 bench/forecast-server.py "$forecasts" &
pids+=($!)
sleep 0.5
write_prices "$work"

# The profiles on the 28 `zones` (bench/prices.sh): the first on the user's own prices.
covered=" NL BE DE-LU FR AT CZ PL DK1 DK2 NO1 NO2 NO3 NO4 NO5 SE1 SE2 SE3 SE4 FI "
profiles() { # FORECAST: the settings of the 40 profiles, with a forecast where one is to be had when FORECAST is 1
    local extra views=() i z
    for i in $(seq 0 38); do
        z="${zones[$((i % ${#zones[@]}))]}"
        extra=""
        # A profile starts from the first one's settings: one whose zone has no forecast says so.
        if [ "$1" = 1 ]; then
            extra=',"forecast_provider":""'
            [[ "$covered" == *" $z "* ]] && extra=',"forecast_provider":"energypriceforecast","forecast_tail":true'
        fi
        views+=("\"p$(printf '%02d' $((i + 1)))\":{\"source\":\"entsoe\",\"zone\":\"$z\"$( [ "$i" -ge ${#zones[@]} ] && echo ',"kind":"export"')$extra}")
    done
    local first=""
    [ "$1" = 1 ] && first=',"forecast_provider":"energypriceforecast","forecast_tail":true'
    echo "{\"source\":\"custom\",\"resolution\":\"native\"$first,\"profiles\":{$(IFS=,; echo "${views[*]}")}}"
}

measure() { # NAME FORECAST: runs the daemon alone, lets it settle, prints "rss pss private" in kB
    local name="$1"
    ENERGYCLOCK_ENTSOE_TOKEN=bench "$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name" \
        --topic-prefix "$name" --custom-url "file://$work/hourly.json" --entsoe-url "http://127.0.0.1:$api" \
        --energypriceforecast-url "http://127.0.0.1:$forecasts" --ha-discovery false --clock-image=false --log-level info \
        --settings "$(profiles "$2")" 2>"$work/$name.log" &
    pids+=($!)
    settled_memory $! "$name" "$work/$name.log"
}

read -r rss0 pss0 private0 <<<"$(measure plain 0)"
read -r rss1 pss1 private1 <<<"$(measure forecast 1)"
fetched=$(grep -c "fetched a forecast of 672 slots" "$work/forecast.log" || true)
with=$(grep -o '"forecast_provider":"energypriceforecast"' <<<"$(profiles 1)" | wc -l)

{
    echo
    echo "## A week of quarter-hour forecasts in 40 profiles"
    echo
    echo "$(date -u +%Y-%m-%d): one daemon with 40 profiles at native resolution (the first on the user's own prices, the rest on a loopback ENTSO-E), measured alone twice: without a forecast, and with a week of quarter-hour forecasts (672 slots, from a loopback energypriceforecast.eu) on the $with profiles whose zones it forecasts, \`forecast_tail\` on. ${fetched} forecasts of 672 slots were fetched (one per zone). Memory from smaps_rollup after ${SETTLE_SECONDS:-20} s, in kB."
    echo
    echo "| | resident (RSS) | proportional (PSS) | private dirty |"
    echo "|---|---|---|---|"
    echo "| without a forecast | $rss0 | $pss0 | $private0 |"
    echo "| with a week of forecasts | $rss1 | $pss1 | $private1 |"
    echo "| the forecasts' cost | $((rss1 - rss0)) | $((pss1 - pss0)) | $((private1 - private0)) |"
} | python3 bench/results.py add "$results"
echo "appended to $results"
