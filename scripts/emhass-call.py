#!/usr/bin/env python3
"""Calls EMHASS's naive-MPC optimisation with a forecast energyclock published, and checks that
EMHASS optimised on exactly those prices. Used by scripts/test-emhass.sh; standard library only.

    emhass-call.py URL DATA_DIR FORECAST_FILE NAME

FORECAST_FILE holds the retained payload of a `forecast/emhass` or `forecast/emhass/timed` topic.
The call is that payload with a flat `load_power_forecast` added (EMHASS without Home Assistant
needs one). It passes when EMHASS answers 200, its last run is "ok", every row of
opt_res_latest.csv is "Optimal", and the prices in it are the published ones: for the timed form
each on the step it is keyed by, for the lists in their order from EMHASS's first step.
"""

import csv
import datetime as dt
import json
import sys
import urllib.error
import urllib.request

url, data, forecast_file, name = sys.argv[1:5]
forecast = json.load(open(forecast_file))
problems = []


def fail(message):
    problems.append(message)


if forecast.get("usable") is not True:
    fail(f"the forecast is not usable: {forecast.get('reason')!r}")
horizon = forecast["prediction_horizon"]
call = {k: v for k, v in forecast.items() if k not in ("usable", "reason")}
call["load_power_forecast"] = [500] * horizon
request = urllib.request.Request(
    url + "/action/naive-mpc-optim", json.dumps(call).encode(), {"Content-Type": "application/json"}
)
try:
    with urllib.request.urlopen(request, timeout=120) as answer:
        status, text = answer.status, answer.read(2000).decode(errors="replace")
except urllib.error.HTTPError as error:
    status, text = error.code, error.read(2000).decode(errors="replace")
if status != 200:
    fail(f"HTTP {status}: {text}")
with urllib.request.urlopen(url + "/api/v1/last-run", timeout=30) as answer:
    run = json.load(answer)
if run.get("status") != "ok":
    fail(f"last run: {run}")

rows = list(csv.DictReader(open(f"{data}/opt_res_latest.csv")))
states = {row["optim_status"] for row in rows}
if states != {"Optimal"}:
    fail(f"optim_status {sorted(states)}")
if len(rows) != horizon:
    fail(f"{len(rows)} rows for a horizon of {horizon}")
steps = [dt.datetime.fromisoformat(row["timestamp"]) for row in rows]
columns = [("load_cost_forecast", "unit_load_cost"), ("prod_price_forecast", "unit_prod_price")]
checked = 0
for field, column in columns:
    if field not in forecast:
        continue
    used = [float(row[column]) for row in rows]
    published = forecast[field]
    if isinstance(published, dict):
        keyed = {dt.datetime.fromisoformat(key): value for key, value in published.items()}
        wrong = [(str(t), u, keyed.get(t)) for t, u in zip(steps, used) if keyed.get(t) is None or abs(keyed[t] - u) > 1e-9]
    else:
        wrong = [(str(t), u, p) for t, u, p in zip(steps, used, published) if abs(p - u) > 1e-9]
    if wrong:
        fail(f"{field}: {len(wrong)} of {len(used)} steps not at the published price, e.g. (step, used, published) {wrong[:3]}")
    checked += 1
if checked == 0:
    fail("no prices in the forecast")

first = steps[0].isoformat() if steps else "none"
if problems:
    print(f"   {name}: FAILED: " + "; ".join(problems))
    sys.exit(1)
print(f"   {name}: Optimal on {horizon} steps from {first}, {checked} price series as published")
