#!/usr/bin/env python3
"""Keeps bench/results.md: this release's figures first, then the history of earlier releases.

    ... | python3 bench/results.py write bench/results.md   # new current results (bench/run.sh)
    ... | python3 bench/results.py add bench/results.md     # one more section of this release

Both echo what they read, as `tee` would. Everything from the line `# History` on is kept as it
is: a run replaces or extends this release's figures, never the record of the ones before.
"""
import sys

MARK = "# History"


def split(path):
    try:
        text = open(path, encoding="utf-8").read()
    except FileNotFoundError:
        return "", ""
    at = text.find("\n" + MARK + "\n")
    if at < 0:
        return text, ""
    return text[: at + 1], text[at + 1 :]


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "add"):
        sys.exit("usage: results.py write|add FILE")
    mode, path = sys.argv[1], sys.argv[2]
    section = sys.stdin.read()
    sys.stdout.write(section)
    current, history = split(path)
    if mode == "write":
        current = section
    else:
        current = current + section
    if not current.endswith("\n"):
        current += "\n"
    with open(path, "w", encoding="utf-8") as out:
        out.write(current + ("\n" + history if history else ""))


if __name__ == "__main__":
    main()
