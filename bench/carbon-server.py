#!/usr/bin/env python3
"""A loopback GB Carbon Intensity API for the carbon benchmark: for any area (the nation, a region
or a postcode), the half hours of the range asked for, each with a forecast varying through the day
and the index it falls in.

    bench/carbon-server.py PORT
"""
import datetime
import http.server
import json
import re
import sys

port = int(sys.argv[1])
words = ["very low", "low", "moderate", "high", "very high"]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        match = re.search(r"intensity/(\d{4}-\d\d-\d\dT\d\d:\d\dZ)/(\d{4}-\d\d-\d\dT\d\d:\d\dZ)", self.path)
        if not match:
            self.send_response(400)
            self.end_headers()
            return
        parse = lambda text: datetime.datetime.strptime(text, "%Y-%m-%dT%H:%MZ").replace(tzinfo=datetime.timezone.utc)
        t, end = parse(match.group(1)), parse(match.group(2))
        t -= datetime.timedelta(minutes=t.minute % 30)
        rows = []
        while t < end:
            value = 80 + (t.hour * 2 + t.minute // 30) * 6 + len(self.path) % 7
            after = t + datetime.timedelta(minutes=30)
            rows.append({"from": t.strftime("%Y-%m-%dT%H:%MZ"), "to": after.strftime("%Y-%m-%dT%H:%MZ"),
                         "intensity": {"forecast": value, "index": words[min(4, value // 80)]}})
            t = after
        data = rows if self.path.startswith("/intensity/") else {"regionid": 13, "shortname": "London", "data": rows}
        body = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
