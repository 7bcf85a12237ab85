#!/usr/bin/env python3
"""A loopback GB Carbon Intensity API for the carbon benchmark: for any area (the nation, a region
or a postcode), the half hours of the range asked for, each with a forecast varying through the day
and the index it falls in. It also answers StromGedacht's `/v1/states` for any postcode: periods of
whole hours over the range asked for, their states cycling through the four.

    bench/carbon-server.py PORT
"""
import datetime
import json
import re
import sys
import urllib.parse

from loopback import serve

port = int(sys.argv[1])
words = ["very low", "low", "moderate", "high", "very high"]


def states(path):
    query = urllib.parse.parse_qs(urllib.parse.urlparse(path).query)
    parse = lambda text: datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    t, end = parse(query["from"][0]), parse(query["to"][0])
    periods = []
    while t < end:
        after = min(end, t + datetime.timedelta(hours=1 + t.hour % 3))
        periods.append({"from": t.strftime("%Y-%m-%dT%H:%M:%S+00:00"), "to": after.strftime("%Y-%m-%dT%H:%M:%S+00:00"),
                        "state": [-1, 1, 3, 4][(t.hour // 5) % 4]})
        t = after
    return 200, "application/json", json.dumps({"states": periods}).encode()


def answer(path):
    if path.startswith("/v1/states"):
        return states(path)
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
