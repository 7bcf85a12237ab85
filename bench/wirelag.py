#!/usr/bin/env python3
"""When each retained `price` left the daemon, read from a capture of its connection to the broker.

    wirelag.py CAPTURE PORT SIZE NAME

CAPTURE is a pcap file that `tcpdump -i lo -w CAPTURE 'tcp dst port PORT'` wrote while the daemon
published one-second slots. Every MQTT PUBLISH to a topic ending in `/price` (or called `price`)
is timed by the capture, that is when the daemon's write reached the loopback device, before the
broker read it. For each whole second in which SIZE prices left, the lag is the time from that
second's start to the last of them; the script prints one table row of those lags in ms, as
energyclock-bench does. Seconds with fewer than SIZE prices (the first and last, cut by the
capture) are left out.
"""

import struct
import sys
from collections import defaultdict


def packets(path):
    """(time, TCP payload, flow) for every IPv4 TCP segment with a payload."""
    with open(path, "rb") as f:
        header = f.read(24)
        magic = struct.unpack("<I", header[:4])[0]
        endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        nanos = struct.unpack(endian + "I", header[:4])[0] == 0xA1B23C4D
        link = struct.unpack(endian + "I", header[20:24])[0]
        while True:
            record = f.read(16)
            if len(record) < 16:
                return
            seconds, fraction, captured, _ = struct.unpack(endian + "IIII", record)
            frame = f.read(captured)
            time = seconds + fraction / (1e9 if nanos else 1e6)
            if link == 1:  # Ethernet: loopback's frames carry a zero header
                if frame[12:14] != b"\x08\x00":
                    continue
                ip = frame[14:]
            elif link == 113:  # Linux cooked capture
                ip = frame[16:]
            else:
                ip = frame
            if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
                continue
            ihl = (ip[0] & 15) * 4
            total = struct.unpack("!H", ip[2:4])[0]
            tcp = ip[ihl:total]
            source, destination = struct.unpack("!HH", tcp[:4])
            offset = (tcp[12] >> 4) * 4
            payload = tcp[offset:]
            if payload:
                yield time, payload, (source, destination)


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 127) << shift
        if byte < 128:
            return value, at
        shift += 7


def publishes(path):
    """(time, topic) of every PUBLISH in each client's stream, timed by the segment ending it."""
    streams = defaultdict(bytearray)
    for time, payload, flow in packets(path):
        stream = streams[flow]
        stream += payload
        while len(stream) >= 2:
            try:
                length, start = varint(stream, 1)
            except IndexError:
                break
            end = start + length
            if len(stream) < end:
                break
            if stream[0] >> 4 == 3 and length >= 2:
                size = struct.unpack("!H", stream[start:start + 2])[0]
                yield time, stream[start + 2:start + 2 + size].decode("utf-8", "replace")
            del stream[:end]


def main():
    path, _port, size, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    seconds = defaultdict(list)
    for time, topic in publishes(path):
        if topic == "price" or topic.endswith("/price"):
            seconds[int(time)].append(time)
    lags = sorted((max(times) - second) * 1000 for second, times in seconds.items() if len(times) >= size)
    if not lags:
        print(f"| {name} | no second with {size} prices | | | | 0 |")
        return
    def at(q):  # as energyclock-bench's rows: the nearest rank
        return lags[min(len(lags) - 1, int((len(lags) - 1) * q + 0.5))]

    print(f"| {name} | {at(0):.2f} | {at(0.5):.2f} | {at(0.99):.2f} | {at(1):.2f} | {len(lags)} |")


if __name__ == "__main__":
    main()
