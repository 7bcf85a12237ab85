#!/usr/bin/env python3
"""A loopback ENTSO-E for the many-zones benchmark: the recorded BE_60M.xml answer, re-dated to the
day asked for and re-addressed to the zone asked for, so every zone gets a whole day of prices.

    bench/entsoe-server.py PORT FIXTURE.xml
"""
import datetime
import sys
import urllib.parse

from loopback import serve

port, fixture = int(sys.argv[1]), open(sys.argv[2]).read()
recorded_start, recorded_end, recorded_zone = "2024-10-07T22:00Z", "2024-10-08T22:00Z", "10YBE----------2"


def answer(path):
    query = urllib.parse.parse_qs(urllib.parse.urlparse(path).query)
    start = datetime.datetime.strptime(query["periodStart"][0], "%Y%m%d%H%M")
    end = start + datetime.timedelta(days=1)
    body = (fixture.replace(recorded_start, start.strftime("%Y-%m-%dT%H:%MZ"))
            .replace(recorded_end, end.strftime("%Y-%m-%dT%H:%MZ"))
            .replace(recorded_zone, query["in_Domain"][0])).encode()
    return 200, "application/xml", body


serve(port, answer)
