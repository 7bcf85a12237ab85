#!/bin/sh
# Runs an EMHASS optimisation on energyclock's prices: the retained forecast is the call's body.
#
#   EMHASS_URL=http://localhost:5000 ./emhass.sh
#
# With an export profile called `export`, read energyclock/export/forecast/emhass instead: it holds
# `prod_price_forecast` and the first profile's `load_cost_forecast`, the whole call. Set EMHASS's
# `optimization_time_step` to energyclock's `forecast_step` (30 minutes by default).
#
# In Home Assistant the same works without this script: an MQTT sensor `energyclock_emhass` on the
# topic with `value_template: "{{ value_json.prediction_horizon }}"` and the topic as its
# `json_attributes_topic`, and a rest_command with the payload
#   {"load_cost_forecast": {{ state_attr('sensor.energyclock_emhass', 'load_cost_forecast') | tojson }},
#    "prediction_horizon": {{ states('sensor.energyclock_emhass') }}}
set -eu
broker="${MQTT_HOST:-localhost}"
topic="${EMHASS_FORECAST_TOPIC:-energyclock/forecast/emhass}"
body="$(mosquitto_sub -h "$broker" -t "$topic" -C 1 -W 5)"
curl -fsS -X POST -H 'Content-Type: application/json' -d "$body" "${EMHASS_URL:-http://localhost:5000}/action/naive-mpc-optim"
