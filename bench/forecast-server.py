#!/usr/bin/env python3
"""A loopback energypriceforecast.eu for the forecast benchmark: for any country, a week of
quarter-hour forecast entries from the current quarter hour on, prices varying through the day.

    bench/forecast-server.py PORT
"""
import datetime
import json
import sys

from loopback import serve

port = int(sys.argv[1])


def answer(path):
    now = datetime.datetime.now(datetime.timezone.utc).replace(second=0, microsecond=0)
    start = now - datetime.timedelta(minutes=now.minute % 15)
    entries = []
    for i in range(7 * 96):
        t = start + datetime.timedelta(minutes=15 * i)
        value = round(0.06 + 0.05 * ((t.hour * 4 + t.minute // 15) % 96) / 96 + 0.001 * (i % 7), 5)
        entries.append({"start": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "end": (t + datetime.timedelta(minutes=15)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "value": value, "source": "forecast"})
    body = json.dumps({"currency": "EUR", "unit": "EUR/kWh", "entries": entries, "meta": {"api_key_state": "missing"}}).encode()
    return 200, "application/json", body


serve(port, answer)
