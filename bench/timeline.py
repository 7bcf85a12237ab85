"""Where a settings round trip's wall time goes, from a system-wide trace of system calls.

Usage: timeline.py SCRIPT DAEMON_PID BENCH_PID BROKER_PID, where SCRIPT is
`perf script -F comm,pid,tid,cpu,time,event,trace`
of a run of `energyclock-bench color` against the daemon, recorded with the `read`, `write`,
`pwrite64` and `fdatasync` system calls and the scheduler's switches (bench/timeline.sh).

Each round trip is cut at system calls every round makes:
- the benchmark writes the change to the broker (a write of 16 bytes or more: acknowledgements are
  4 bytes, wake-ups of a thread 1 or 8);
- the daemon reads it (a read of 16 bytes or more);
- the daemon's store writes its log (the first `pwrite64`), then syncs it (`fdatasync`);
- the daemon writes the colour to the broker (its first write of 16 bytes or more after the sync);
- the benchmark reads it.
A round whose colour is not read before the next change is written is left out. Prints the median
and the 10th and 90th percentiles of each stage, in microseconds, as Markdown, and then who ran
on the processors in each stage (from the scheduler's switches): the daemon's event loop, its MQTT
thread, the broker, the benchmark, anything else, and how long a processor was idle, on average.
"""

import bisect
import re
import statistics
import sys
from collections import Counter

LINE = re.compile(r"^\s*(.+?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)$")
SWITCH = re.compile(r"prev_pid=(\d+) .*==> next_comm=(.+) next_pid=(\d+)")


def events(path):
    """(pid, tid, cpu, microseconds, event, arguments) of each line that parses, and each thread's
    process and name."""
    found, threads = [], {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(line)
        if m:
            found.append((m[2], m[3], int(m[4]), float(m[5]) * 1e6, m[6], m[7]))
            threads[m[3]] = (m[2], m[1])
    return found, threads


def runs(trace):
    """(start, end, tid) of every stretch a thread ran on a processor; tid 0 is the idle task.

    A stretch is named by the switch that ends it (its `prev_pid`): perf loses some switches from
    the idle task, and a thread switched to without a record would otherwise be taken for the one
    switched to before."""
    last, stretches = {}, []
    for _, _, cpu, at, event, arguments in trace:
        m = SWITCH.search(arguments) if event == "sched:sched_switch" else None
        if not m:
            continue
        if cpu in last:
            stretches.append((last[cpu], at, m[1]))
        last[cpu] = at
    stretches.sort()
    return stretches


def count_of(arguments):
    m = re.search(r"count: (0x[0-9a-f]+)", arguments)
    return int(m[1], 16) if m else 0


def returned(arguments):
    try:
        return int(arguments.strip(), 16)
    except ValueError:
        return -1


def rounds(trace, daemon, bench):
    is_publish = lambda e: e[0] == bench and e[4] == "syscalls:sys_enter_write" and count_of(e[5]) >= 16
    steps = [
        ("the broker passes the change on", lambda e: e[0] == daemon and e[4] == "syscalls:sys_exit_read" and returned(e[5]) >= 16),
        ("the daemon, from the change read to its log's write", lambda e: e[0] == daemon and e[4] == "syscalls:sys_enter_pwrite64"),
        ("the log's write to the sync", lambda e: e[0] == daemon and e[4] == "syscalls:sys_enter_fdatasync"),
        ("the sync (fdatasync)", lambda e: e[0] == daemon and e[4] == "syscalls:sys_exit_fdatasync"),
        (
            "the sync's return to the colour's write",
            lambda e: e[0] == daemon and e[4] == "syscalls:sys_enter_write" and count_of(e[5]) >= 16,
        ),
        ("the broker passes the colour on", lambda e: e[0] == bench and e[4] == "syscalls:sys_exit_read" and returned(e[5]) >= 16),
    ]
    starts = [i for i, e in enumerate(trace) if is_publish(e)]
    found = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(trace)
        marks, i = [start], start
        for _, matches in steps:
            i = next((k for k in range(i + 1, end) if matches(trace[k])), None)
            if i is None:
                break
            marks.append(i)
        if len(marks) == len(steps) + 1:
            found.append(marks)
    return [name for name, _ in steps], found


def who(tid, threads, daemon, bench, broker):
    """Whom a thread is counted as."""
    if tid == "0":
        return "idle"
    pid, name = threads.get(tid, ("", ""))
    if pid == daemon:
        # Its other threads (signals, files) are counted with everything else.
        return "the daemon's MQTT thread" if name == "mqtt" else "the daemon's event loop" if name == "energyclock" else "others"
    return {bench: "the benchmark", broker: "the broker"}.get(pid, "others")


def main(path, daemon, bench, broker):
    trace, threads = events(path)
    names, found = rounds(trace, daemon, bench)
    if not found:
        sys.exit("no whole round trip in the trace")
    print(f"{len(found)} round trips, microseconds:")
    print()
    print("| stage | p10 | median | p90 |")
    print("|---|---|---|---|")
    columns = [[trace[m[k + 1]][3] - trace[m[k]][3] for m in found] for k in range(len(names))]
    columns.append([trace[m[-1]][3] - trace[m[0]][3] for m in found])
    for name, values in zip(names + ["the round trip, write to read"], columns):
        values.sort()
        p10, p90 = values[len(values) // 10], values[9 * len(values) // 10]
        print(f"| {name} | {p10:.0f} | {statistics.median(values):.0f} | {p90:.0f} |")
    stretches = runs(trace)
    starts = [s[0] for s in stretches]
    longest = max((s[1] - s[0] for s in stretches), default=0)
    kinds = ["the daemon's event loop", "the daemon's MQTT thread", "the broker", "the benchmark", "others", "idle"]
    print()
    print("Who ran, microseconds on average in each stage, on both processors: a row adds up to twice the stage's mean.")
    print()
    print("| stage | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for k, name in enumerate(names):
        spent = {kind: [] for kind in kinds}
        for m in found:
            t0, t1 = trace[m[k]][3], trace[m[k + 1]][3]
            got = Counter()
            first = bisect.bisect_left(starts, t0 - longest - 1)
            for since, until, tid in stretches[first : bisect.bisect_left(starts, t1)]:
                overlap = min(until, t1) - max(since, t0)
                if overlap > 0:
                    got[who(tid, threads, daemon, bench, broker)] += overlap
            for kind in kinds:
                spent[kind].append(got[kind])
        print(f"| {name} | " + " | ".join(f"{statistics.mean(spent[kind]):.0f}" for kind in kinds) + " |")
    busy = Counter(e[2] for e in trace if e[4] == "sched:sched_switch" and "swapper" not in e[5].split("==>")[1])
    total = sum(busy.values())
    if total:
        cpu, switches = busy.most_common(1)[0]
        print()
        print(f"Of the switches to a task, {100 * switches / total:.0f} % were on CPU {cpu}.")


if __name__ == "__main__":
    main(*sys.argv[1:5])
