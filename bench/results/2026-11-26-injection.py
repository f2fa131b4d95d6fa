"""Summarises the injection sweep's table (SCALEBENCH_INJECTION_REPORT=FILE build/release/tests/scalebench_injection_tests)
into what bench/results/2026-11-26-injection.md shows: outcomes per field, and a payload x field matrix of one-letter
outcomes. Usage: python3 bench/results/2026-11-26-injection.py FILE"""
import collections
import re
import sys

CODES = {"refused": "R", "quoted": "Q", "shell code": "S", "libssh path": "P", "default": "d", "accepted": "a",
         "altered": "U", "unreachable": "-", "BROKEN": "X", "ALTERED": "X", "ACCEPTED": "X"}

rows = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")[2:-1]:
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]  # cells between unescaped pipes
    payload, size, field, outcome = cells[0], cells[1], cells[2], cells[3]
    rows.append((payload.split(": `")[0], payload, field, outcome, " | ".join(cells[4:])))

fields = list(dict.fromkeys(r[2] for r in rows))
labels = list(dict.fromkeys(r[0] for r in rows))
print(f"{len(labels)} payloads x {len(fields)} fields: {len(rows)} outcomes\n")
print("| outcome | count |\n| --- | --- |")
for outcome, count in collections.Counter(r[3] for r in rows).most_common():
    print(f"| {outcome} | {count} |")
print("\n| field | " + " | ".join(o for o in CODES if o.upper() != o) + " |")
print("| --- |" + " --- |" * len([o for o in CODES if o.upper() != o]))
for f in fields:
    c = collections.Counter(r[3] for r in rows if r[2] == f)
    bad = sum(v for k, v in c.items() if k.upper() == k)
    print(f"| {f} | " + " | ".join(str(c.get(o, "")) for o in CODES if o.upper() != o) + (f" | **{bad} broken**" if bad else "") + " |")
short = {f: f"F{i + 1}" for i, f in enumerate(fields)}
print("\nColumns: " + "; ".join(f"{v} {k}" for k, v in short.items()))
print("\n| payload | " + " ".join(short.values()) + " |\n| --- | --- |")
cell = {(r[0], r[2]): CODES.get(r[3], "?") for r in rows}
for label in labels:
    print(f"| {label} | `" + " ".join(f"{cell.get((label, f), '.'):>3}" for f in fields) + "` |")
