"""Instructions on a settings change's critical path, from callgrind's dumps.

Usage: critical_path.py DIR, where DIR holds the numbered dumps (callgrind.out.N) of a run with
`--dump-before` at the MQTT message callback, at `fdatasync` and at `mosquitto_loop_write`. Each
dump holds what ran since the one before, on every thread; the path of a change is what ran from
its message callback to the first write to the broker after the store's `fdatasync`, the write
that carries `color`. Prints one Markdown row per figure: the median over the changes, and how
many changes were counted.
"""

import glob
import re
import statistics
import sys


def dumps(directory):
    """(trigger, instructions) of each dump, in the order they were written."""
    found = []
    for path in glob.glob(directory + "/callgrind.out.*"):
        number = path.rsplit(".", 1)[1]
        if not number.isdigit():
            continue
        text = open(path, encoding="utf-8", errors="replace").read()
        trigger = re.search(r"^desc: Trigger: (.*)$", text, re.M)
        total = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
        found.append((int(number), trigger.group(1) if trigger else "", int(total.group(1)) if total else 0))
    return [(trigger, count) for _, trigger, count in sorted(found)]


def paths(events):
    """(to the fdatasync call, from it to the write of color) for each change whose path is whole."""
    found, i = [], 0
    while i < len(events):
        if "message" not in events[i][0]:
            i += 1
            continue
        before = after = 0
        synced = False
        j = i + 1
        while j < len(events):
            trigger, count = events[j]
            if synced:
                after += count
            else:
                before += count
            if "message" in trigger:
                break
            if "fdatasync" in trigger:
                synced = True
            elif synced and "loop_write" in trigger:
                found.append((before, after))
                break
            j += 1
        i = j
    return found


def main():
    counted = paths(dumps(sys.argv[1]))
    if not counted:
        sys.exit("no change's path found: the message callback, fdatasync or mosquitto_loop_write was not dumped")
    n = len(counted)
    for label, values in (
        ("from the message callback to the write that carries `color`", [b + a for b, a in counted]),
        ("of it, up to the store's `fdatasync` call", [b for b, _ in counted]),
        ("of it, from the `fdatasync` call to that write", [a for _, a in counted]),
    ):
        print(f"| {label} | {statistics.median(values):,.0f} | {n} |")


if __name__ == "__main__":
    main()
