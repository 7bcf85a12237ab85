#!/usr/bin/env python3
"""A loopback GB Carbon Intensity API for the carbon benchmark: for any area (the nation, a region
or a postcode), the half hours of the range asked for, each with a forecast varying through the day
and the index it falls in.

    bench/carbon-server.py PORT
"""
import datetime
import json
import re
import sys

from loopback import serve

port = int(sys.argv[1])
words = ["very low", "low", "moderate", "high", "very high"]


def answer(path):
    match = re.search(r"intensity/(\d{4}-\d\d-\d\dT\d\d:\d\dZ)/(\d{4}-\d\d-\d\dT\d\d:\d\dZ)", path)
    if not match:
        return 400, "application/json", b"{}"
    parse = lambda text: datetime.datetime.strptime(text, "%Y-%m-%dT%H:%MZ").replace(tzinfo=datetime.timezone.utc)
    t, end = parse(match.group(1)), parse(match.group(2))
    t -= datetime.timedelta(minutes=t.minute % 30)
    rows = []
    while t < end:
        value = 80 + (t.hour * 2 + t.minute // 30) * 6 + len(path) % 7
        after = t + datetime.timedelta(minutes=30)
        rows.append({"from": t.strftime("%Y-%m-%dT%H:%MZ"), "to": after.strftime("%Y-%m-%dT%H:%MZ"),
                     "intensity": {"forecast": value, "index": words[min(4, value // 80)]}})
        t = after
    data = rows if path.startswith("/intensity/") else {"regionid": 13, "shortname": "London", "data": rows}
    return 200, "application/json", json.dumps({"data": data}).encode()


serve(port, answer)
