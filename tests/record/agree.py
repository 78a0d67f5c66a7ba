#!/usr/bin/env python3
"""rvpmu report and Debian perf report on the same perf.data: the same
samples per symbol. Usage: agree.py RVPMU_REPORT.txt PERF_REPORT.txt
Both files are `--stdio` reports sorted by symbol with a Samples column.
perf 6.1 does not skip RISC-V mapping symbols ("$x..."), so a function
whose samples it files under one appears there under that name instead;
such a match is allowed only if the counts are equal and named in the
output. Prints one line; exit 0 when they agree."""
import re
import sys


def parse(path):
    rows = {}
    for line in open(path, errors="replace"):
        m = re.match(r"\s*([\d.]+)%\s+(\d+)\s+\[\.\]\s+(\S+)", line)
        if m:
            name = m.group(3)
            if name.startswith("$x"):  # one per function it stands for
                name += f"#{len(rows)}"
            rows[name] = rows.get(name, 0) + int(m.group(2))
    return rows


rv, pf = parse(sys.argv[1]), parse(sys.argv[2])
total = sum(rv.values())
if not rv or not pf:
    print(f"no samples parsed (rvpmu {len(rv)} symbols, perf {len(pf)})")
    sys.exit(1)
mapping = {n: c for n, c in pf.items() if n.startswith("$x")}
notes, bad = [], []
for name, n in sorted(rv.items(), key=lambda x: -x[1]):
    if n * 100 < total:
        continue  # under 1%: perf and rvpmu may split tiny symbols differently
    if pf.get(name) == n:
        continue
    alias = [m for m, c in mapping.items() if c == n]
    if alias and name not in pf:
        notes.append(f"{name} ({n}) is perf's {alias[0][:12]}...")
        mapping.pop(alias[0])
        continue
    bad.append(f"{name}: rvpmu {n}, perf {pf.get(name)}")
if bad:
    print("differ: " + "; ".join(bad))
    sys.exit(1)
top = max(rv, key=rv.get)
print(f"{len([1 for n in rv.values() if n * 100 >= total])} symbols of >= 1% agree, "
      f"hottest {top} {rv[top]}/{total}" + (" (" + "; ".join(notes) + ")" if notes else ""))
