#!/bin/sh
# Runs an EMHASS optimisation on energyclock's prices: the retained forecast is the call's body.
#
#   EMHASS_URL=http://localhost:5000 ./emhass.sh
#   EMHASS_LOAD_W=500 EMHASS_URL=http://localhost:5000 ./emhass.sh     # EMHASS without Home Assistant
#
# It reads energyclock/forecast/emhass/timed, whose values are keyed by the start of their step:
# EMHASS puts each on its own step however it rounds now (`method_ts_round`). With an export profile
# called `export`, read energyclock/export/forecast/emhass/timed instead: it holds
# `prod_price_forecast` and the first profile's `load_cost_forecast`, the whole call. Set EMHASS's
# `optimization_time_step` to energyclock's `forecast_step` (30 minutes by default).
#
# A forecast EMHASS would refuse (fewer than 5 steps known, late in the evening before tomorrow's
# prices) says `"usable":false` and why; the call is skipped then.
#
# EMHASS run without Home Assistant also needs `load_power_forecast`, one expected load in watts per
# step: EMHASS_LOAD_W adds a flat one, as long as the horizon. With Home Assistant, EMHASS reads the
# load's history from its sensors instead.
#
# In Home Assistant the same works without this script: an MQTT sensor `energyclock_emhass` on the
# topic with `value_template: "{{ value_json.prediction_horizon }}"` and the topic as its
# `json_attributes_topic`, and a rest_command with the payload
#   {"load_cost_forecast": {{ state_attr('sensor.energyclock_emhass', 'load_cost_forecast') | tojson }},
#    "prediction_horizon": {{ states('sensor.energyclock_emhass') }}}
# called only while `state_attr('sensor.energyclock_emhass', 'usable')` is true.
set -eu
broker="${MQTT_HOST:-localhost}"
topic="${EMHASS_FORECAST_TOPIC:-energyclock/forecast/emhass/timed}"
body="$(mosquitto_sub -h "$broker" -t "$topic" -C 1 -W 5)"
case "$body" in
*'"usable":false'*)
    echo "emhass.sh: not calling EMHASS: $(printf '%s' "$body" | sed -n 's/.*"reason":"\([^"]*\)".*/\1/p')" >&2
    exit 0
    ;;
esac
if [ -n "${EMHASS_LOAD_W:-}" ]; then
    horizon="$(printf '%s' "$body" | sed -n 's/.*"prediction_horizon":\([0-9]*\).*/\1/p')"
    load="$(awk -v n="$horizon" -v w="$EMHASS_LOAD_W" 'BEGIN { for (i = 0; i < n; i++) printf "%s%s", (i ? "," : ""), w }')"
    body="$(printf '%s' "$body" | sed "s/}\$/,\"load_power_forecast\":[$load]}/")"
fi
curl -fsS -X POST -H 'Content-Type: application/json' -d "$body" "${EMHASS_URL:-http://localhost:5000}/action/naive-mpc-optim"
