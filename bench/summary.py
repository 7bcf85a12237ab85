"""The summary of several benchmark runs: for each figure, the lowest and highest of its medians.

Usage: summary.py RUN.md…, each a run's tables as bench/run.sh writes them. Prints Markdown.
"""

import re
import sys


def rows(path):
    """The timed rows (name → median, p99, n) and the at-rest rows (name → value) of one run."""
    timed, rest = {}, {}
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"-?[\d.]+", cells[2]):
            timed[cells[0]] = (float(cells[2]), float(cells[3]), cells[5])
        elif len(cells) == 2 and cells[0] not in ("at rest", "---"):
            rest[cells[0]] = cells[1]
    return timed, rest


def span(values, digits=2):
    """`low–high`, or the one value when they are the same."""
    low, high = min(values), max(values)
    text = f"{low:.{digits}f}" if low == high else f"{low:.{digits}f}–{high:.{digits}f}"
    return text


def rest_span(values):
    """The same for at-rest values such as `2.0 per minute` or `9500 kB / 18000 kB`."""
    numbers = [[float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", v)] for v in values]
    words = re.sub(r"-?\d+(?:\.\d+)?", "{}", values[0])
    if any(len(n) != len(numbers[0]) for n in numbers):
        return " / ".join(values)
    digits = [len(n.split(".")[1]) if "." in n else 0 for n in re.findall(r"-?\d+(?:\.\d+)?", values[0])]
    return words.format(*(span([n[i] for n in numbers], digits[i]) for i in range(len(numbers[0]))))


ECHO = "broker echo (QoS 1, loopback)"
FSYNC = "one fsync on the store's file system"
ROUND_TRIP = "settings round trip: publish → new retained color"


def against_the_floor(runs):
    """Each round trip's median over its own run's floor, the echo's median plus the fsync's."""
    names = [n for n in runs[0][0] if n.startswith(ROUND_TRIP)]
    if not names or ECHO not in runs[0][0] or FSYNC not in runs[0][0]:
        return
    print()
    print("| round trip, back to back, over its run's echo + fsync | lowest–highest |")
    print("|---|---|")
    for name in names:
        ratios = [r[0][name][0] / (r[0][ECHO][0] + r[0][FSYNC][0]) for r in runs if name in r[0]]
        who = name[len(ROUND_TRIP) :].lstrip(", ") or "energyclock"
        print(f"| {who} | {span(ratios, 1)} × |")
    # The daemon over the yardstick that keeps the change as its store does, both in turns.
    ours, least = ROUND_TRIP + ", energyclock in turns", ROUND_TRIP + ", reference/sqlite in turns"
    ratios = [r[0][ours][0] / r[0][least][0] for r in runs if ours in r[0] and least in r[0]]
    if ratios:
        print(f"| energyclock over reference/sqlite, in turns | {span(ratios, 1)} × |")


def main(paths):
    runs = [rows(p) for p in paths]
    count = len(runs)
    print(f"Lowest and highest of {count} runs' medians and 99th percentiles; each run's own table follows.")
    print()
    print("| what | median | p99 | n per run |")
    print("|---|---|---|---|")
    for name in runs[0][0]:
        got = [r[0][name] for r in runs if name in r[0]]
        print(f"| {name} | {span([g[0] for g in got])} | {span([g[1] for g in got])} | {got[0][2]} |")
    against_the_floor(runs)
    print()
    print(f"| at rest | lowest–highest of {count} runs |")
    print("|---|---|")
    names = list(runs[0][1])
    for r in runs[1:]:
        names += [n for n in r[1] if n not in names]
    for name in names:
        got = [r[1][name] for r in runs if name in r[1]]
        print(f"| {name} | {rest_span(got)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
