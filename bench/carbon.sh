#!/usr/bin/env bash
# The carbon benchmark: whether a carbon profile costs more memory than a price profile. The same
# daemon runs twice, each time alone (but for the broker and the loopback APIs), with 40 profiles
# at hourly resolution on 28 feeds: first prices from a loopback ENTSO-E in the 28 zones of
# bench/prices.sh, then the grid's carbon intensity (`signal` co2) from a loopback GB Carbon
# Intensity API in 28 areas (the nation, the 17 regions and ten postcodes), then a grid signal
# (`signal` grid) from a loopback StromGedacht in 28 postcodes. Adds its section to
# bench/results.md.
#
#   bench/carbon.sh      about a minute
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build_release
daemon="$(release_bin_path)/energyclock"
results="bench/results.md"

source bench/prices.sh
many_profiles_setup
carbon=$((port + 2))
python3 bench/carbon-server.py "$carbon" &
pids+=($!)
sleep 0.5

areas=(GB 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 RG41 SW1 E1 M1 B1 LS1 G1 EH1 CF10 BS7)
postcodes=($(seq 70173 70200))
profiles() { # SIGNAL: the settings of the 40 profiles: price, co2 or grid
    local views=() i place first
    for i in $(seq 0 39); do
        case "$1" in
            price) place="\"source\":\"entsoe\",\"zone\":\"${zones[$((i % 28))]}\"" ;;
            co2) place="\"signal\":\"co2\",\"carbon_source\":\"gb-carbon-intensity\",\"carbon_area\":\"${areas[$((i % 28))]}\"" ;;
            grid) place="\"signal\":\"grid\",\"carbon_source\":\"stromgedacht\",\"carbon_area\":\"${postcodes[$((i % 28))]}\"" ;;
        esac
        if [ "$i" = 0 ]; then first="$place"; else views+=("\"p$(printf '%02d' "$i")\":{$place}"); fi
    done
    echo "{$first,\"profiles\":{$(IFS=,; echo "${views[*]}")}}"
}

measure() { # SIGNAL: runs the daemon alone, lets it settle, prints "rss pss private" in kB
    local name="$1"
    ENERGYCLOCK_ENTSOE_TOKEN=bench "$daemon" run --mqtt-host 127.0.0.1 --mqtt-port "$port" --state-dir "$work/$name" \
        --topic-prefix "$name" --timezone Europe/London --entsoe-url "http://127.0.0.1:$api" \
        --gb-carbon-intensity-url "http://127.0.0.1:$carbon" --stromgedacht-url "http://127.0.0.1:$carbon" --ha-discovery false --clock-image=false --log-level info \
        --settings "$(profiles "$name")" 2>"$work/$name.log" &
    pids+=($!)
    settled_memory $! "$name" "$work/$name.log"
}

read -r rss0 pss0 private0 <<<"$(measure price)"
read -r rss1 pss1 private1 <<<"$(measure co2)"
read -r rss2 pss2 private2 <<<"$(measure grid)"
feeds0=$(grep -c "^.*fetched [0-9]* slots from entsoe" "$work/price.log" || true)
feeds1=$(grep -c "^.*fetched [0-9]* slots from gb-carbon-intensity" "$work/co2.log" || true)
feeds2=$(grep -c "^.*fetched [0-9]* slots from stromgedacht" "$work/grid.log" || true)

{
    echo
    echo "## A carbon profile against a price profile"
    echo
    echo "$(date -u +%Y-%m-%d): one daemon with 40 profiles at hourly resolution on 28 feeds, measured alone three times: prices from a loopback ENTSO-E (${feeds0} fetches), and the carbon intensity (\`signal\` co2) from a loopback GB Carbon Intensity API in 28 areas, three days of half hours per answer (${feeds1} fetches), and a grid signal (\`signal\` grid) from a loopback StromGedacht in 28 postcodes, three days of periods of one to three hours per answer (${feeds2} fetches). Memory from smaps_rollup after ${SETTLE_SECONDS:-20} s, in kB."
    echo
    echo "| | resident (RSS) | proportional (PSS) | private dirty |"
    echo "|---|---|---|---|"
    echo "| 40 price profiles | $rss0 | $pss0 | $private0 |"
    echo "| 40 carbon profiles | $rss1 | $pss1 | $private1 |"
    echo "| 40 grid profiles | $rss2 | $pss2 | $private2 |"
    echo "| carbon against price | $((rss1 - rss0)) | $((pss1 - pss0)) | $((private1 - private0)) |"
    echo "| grid against price | $((rss2 - rss0)) | $((pss2 - pss0)) | $((private2 - private0)) |"
} | python3 bench/results.py add "$results"
echo "appended to $results"
