#!/usr/bin/env python3
"""Expected target mispredicts of switch.S per iteration after warm-up, from
the profile's predictor and the built binary (docs/profiles.md,
branch_predictor). usage: switch.py PROFILE.json ELF
Prints SW_PER_REP=n (0 or 1), SW_BOUND=m (most target mispredicts a whole
run can have: warm-up only), SW_SITES=s, or SW_SKIP=reason."""
import json
import subprocess
import sys

p = json.load(open(sys.argv[1]))["branch_predictor"]
txt = subprocess.run(["riscv64-linux-gnu-objdump", "-d", "-M", "no-aliases", sys.argv[2]],
                     check=True, capture_output=True, text=True).stdout
ins = []
for line in txt.splitlines():
    f = line.split("\t")
    if len(f) >= 3 and f[0].strip().endswith(":"):
        try:
            ins.append((int(f[0].strip()[:-1], 16), f[2].strip()))
        except ValueError:
            pass
# the BTB holds the targets of the taken sites: jal, beq (always taken
# here) and the loop's bne; blt is never taken; the jalr is the dispatch
sites = [a for a, m in ins if m in ("jal", "beq", "bne")]
print(f"SW_SITES={len(sites)}")
n, ways = p["btb_entries"], p.get("btb_ways", p["btb_entries"])
sets = n // ways if n else 0
fits = bool(n) and all(sum(1 for a in sites if (a >> 1) % sets == s) <= ways for s in range(sets))
ind = p.get("indirect_entries", 0)
if not fits:
    print("SW_SKIP='the BTB does not hold the loop'")
elif ind == 0:
    # the BTB predicts the last target, and every dispatch changes it
    print("SW_PER_REP=1")
elif p["kind"] != "gshare":
    # pc alone: one entry, whose last target is never the next
    print("SW_PER_REP=1")
elif ind & (ind - 1) == 0 and ind >= 8 and p["history_bits"] >= 3:
    # index ((pc >> 1) ^ history) mod entries keeps the low log2(entries)
    # >= 3 bits, the last three outcomes differ for the four previous cases:
    # four entries, each with the one target that follows. Warm-up: those
    # four cold misses, one more for the first dispatch (history 0 from
    # _start), and each taken site's cold BTB miss.
    print(f"SW_PER_REP=0\nSW_BOUND={4 + 1 + len(sites)}")
else:
    print("SW_SKIP='indirect_entries not a power of two >= 8, or history_bits < 3'")
