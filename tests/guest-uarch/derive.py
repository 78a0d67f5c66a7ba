#!/usr/bin/env python3
"""Expected counts for the guest-uarch suite, derived from a core profile's
geometry (profiles/<name>.json) and, where code placement matters, from the
built guest's own disassembly. Prints shell assignments (NAME=value).
The derivations are stated in docs/uarch-tests.md; the short comments here
name the rule each number follows.

usage: derive.py PROFILE.json params
       derive.py PROFILE.json fetch ELF
       derive.py PROFILE.json ras ELF
       derive.py PROFILE.json codepages ELF
       derive.py PROFILE.json rules
       derive.py lcg REPS UNROLL SEED
"""
import json
import math
import subprocess
import sys

OBJDUMP = "riscv64-linux-gnu-objdump"


def out(**kv):
    for k, v in kv.items():
        print(f"{k}={v}")


def insns(elf):
    """[(address, mnemonic, operands)] of the .text section"""
    txt = subprocess.run([OBJDUMP, "-d", "-M", "no-aliases", elf], check=True,
                         capture_output=True, text=True).stdout
    res = []
    for line in txt.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip().endswith(":"):
            try:
                addr = int(parts[0].strip()[:-1], 16)
            except ValueError:
                continue
            res.append((addr, parts[2].strip(), parts[3].strip() if len(parts) > 3 else ""))
    return res


def retired_code(elf):
    """byte range [lo, hi) of the instructions that retire: everything from
    _start up to the exit ecall (which traps and does not retire)"""
    ins = insns(elf)
    ecall = next(a for a, m, _ in ins if m == "ecall")
    return ins[0][0], ecall


def span(lo, hi, shift):
    """number of 2^shift blocks holding bytes [lo, hi)"""
    return ((hi - 1) >> shift) - (lo >> shift) + 1


def lru_cyclic_misses(ways, seq, reps):
    """misses of `reps` repetitions of seq in one LRU set of `ways` ways"""
    held, miss = [], 0
    for _ in range(reps):
        for x in seq:
            if x in held:
                held.remove(x)
            else:
                miss += 1
                if len(held) == ways:
                    held.pop(0)
            held.append(x)
    return miss


def plru_misses(ways, seq):
    """misses of seq in one tree-PLRU set (invalid ways filled first, in
    order; each touch points the tree away from the way touched)"""
    levels = int(math.log2(ways))
    tags, bits, miss = [None] * ways, 0, 0
    for x in seq:
        if x in tags:
            w = tags.index(x)
        else:
            miss += 1
            if None in tags:
                w = tags.index(None)
            else:
                node, w = 1, 0
                for _ in range(levels):
                    b = (bits >> node) & 1
                    w, node = w * 2 + b, node * 2 + b
            tags[w] = x
        node = 1
        for lv in range(levels - 1, -1, -1):
            b = (w >> lv) & 1
            bits = bits & ~(1 << node) if b else bits | (1 << node)
            node = node * 2 + b
    return miss


def memory_cycles(p):
    """memory.latency in cycles, or latency_ns at clock_hz, rounded as the
    loader rounds it (src/uarch/profile_model.c)"""
    m = p["memory"]
    if "latency" in m:
        return m["latency"]
    return (m["latency_ns"] * p["clock_hz"] + 500000000) // 1000000000


def main():
    if sys.argv[1] == "lcg":
        reps, unroll, x = (int(a, 0) for a in sys.argv[2:5])
        m = (1 << 64) - 1
        taken = 0
        for _ in range(reps * unroll):
            x = (x * 6364136223846793005 + 1442695040888963407) & m
            taken += x >> 63          # bltz: sign bit set
        out(LCG_TAKEN=taken)
        return
    p = json.load(open(sys.argv[1]))
    what = sys.argv[2]
    c, t, bp, pipe = p["caches"], p["tlbs"], p["branch_predictor"], p["pipeline"]
    l1i, l1d, l2 = c["l1i"], c["l1d"], c.get("l2")
    page = t["page_size"]
    pshift = page.bit_length() - 1
    if what == "params":
        line = l1d["line"]
        lines_total = l1d["sets"] * l1d["ways"]
        # load walk over 4x L1D, one access per line: every line is new
        walk = 4 * l1d["size"] // line
        out(L1D_SIZE=l1d["size"], L1D_LINE=line, PAGE=page,
            WALK_COUNT=walk, WALK_BYTES=4 * l1d["size"],
            WALK_PAGES=4 * l1d["size"] // page,
            HALF_COUNT=l1d["size"] // 2 // line)
        # L2: all walk lines fit (per set) iff walk lines per L2 set <= ways
        if l2:
            fits = walk <= l2["sets"] * l2["ways"] and -(-walk // l2["sets"]) <= l2["ways"]
            out(L2_HOLDS_WALK=int(fits), HAVE_L2=1)
        else:
            out(L2_HOLDS_WALK=0, HAVE_L2=0)
        # tree PLRU keeps at least the log2(ways)+1 most recent lines of a set
        # (LRU keeps `ways`): the last half of the walk is resident iff the
        # half-cache's lines per set (ways/2) are within that
        keep = l1d["ways"] if l1d["replacement"] == "lru" else int(math.log2(l1d["ways"])) + 1
        out(TAIL_RESIDENT=int(l1d["ways"] // 2 <= keep))
        # second pass of the 4x walk: per set, 4*ways lines cyclically
        per_set = walk // l1d["sets"]
        seq = list(range(per_set))
        if l1d["replacement"] == "lru":
            second = lru_cyclic_misses(l1d["ways"], seq, 2) - per_set
        else:
            second = plru_misses(l1d["ways"], seq * 2) - per_set
        out(L1D_REWALK_MISSES=second * l1d["sets"])
        # replacement probe: ways+1 lines per set, two passes (LRU misses
        # all 2*(ways+1); tree PLRU keeps some)
        pseq = list(range(l1d["ways"] + 1))
        if l1d["replacement"] == "lru":
            pm = lru_cyclic_misses(l1d["ways"], pseq, 2)
        else:
            pm = plru_misses(l1d["ways"], pseq * 2)
        out(L1D_PROBE_LINES=len(pseq) * l1d["sets"], L1D_PROBE_MISSES=pm * l1d["sets"])
        # stores: write-allocate fills a line per store miss; a write-back
        # cache writes back one dirty victim per miss once the set is full
        wa = l1d.get("write_allocate", True)
        wb = l1d.get("write_policy", "write-back") == "write-back"
        out(WRITE_ALLOCATE=int(wa),
            WRITEBACKS=(walk - lines_total) if (wa and wb) else 0)
        # DTLB: one load per page, 4x the DTLB's entries; fully associative
        # sets of `ways` entries each
        d = t["dtlb"]
        dpages = 4 * d["entries"]
        dsets = d["entries"] // d["ways"]
        dseq = list(range(dpages // dsets))
        if d["replacement"] == "lru":
            dsecond = lru_cyclic_misses(d["ways"], dseq, 2) - len(dseq)
        else:
            dsecond = plru_misses(d["ways"], dseq * 2) - len(dseq)
        out(DTLB_PAGES=dpages, DTLB_REWALK_MISSES=dsecond * dsets)
        # DTLB replacement probe: entries+1 pages, twice (LRU: all miss;
        # tree PLRU: fewer)
        probe = d["entries"] + 1
        if dsets == 1:
            pseq = list(range(probe))
            if d["replacement"] == "lru":
                pm = lru_cyclic_misses(d["ways"], pseq, 2)
            else:
                pm = plru_misses(d["ways"], pseq * 2)
            out(DTLB_PROBE_PAGES=probe, DTLB_PROBE_MISSES=pm)
        else:
            out(DTLB_PROBE_PAGES=0, DTLB_PROBE_MISSES=0)
        l2t = t.get("l2tlb")
        if l2t:
            sets = l2t["entries"] // l2t["ways"]
            # the DTLB walk's pages are consecutive: one per L2 TLB set
            # round-robin; they all stay iff pages per set <= ways (the code
            # pages' entries go in first and are never looked up again, as the
            # ITLB keeps them, so under LRU they are the first victims)
            out(HAVE_L2TLB=1, L2TLB_HOLDS=int(-(-dpages // sets) <= l2t["ways"]),
                BIG_PAGES=4 * l2t["entries"],
                # 4x the L2 TLB: 4*ways pages per set cyclically: LRU misses all
                BIG_REWALK_MISSES=(4 * l2t["entries"]) if l2t["replacement"] == "lru"
                else sets * (plru_misses(l2t["ways"], list(range(4 * l2t["ways"])) * 2)
                             - 4 * l2t["ways"]))
        else:
            out(HAVE_L2TLB=0)
        # gshare: the loop branch is looked up under histories 0, 1, 11, ...
        # (h+1 distinct counters, each starting weakly not-taken: h+1 misses)
        # then the saturated-history counter predicts taken; +1 at exit.
        # bimodal: one counter: 1 warm-up miss, +1 at exit.
        if bp["kind"] == "gshare":
            out(LOOP_MISSES=bp["history_bits"] + 2)
        else:
            out(LOOP_MISSES=2)
        # the event names the suite uses: canonical (SBI-encoded profiles)
        # or the u74's; FULL also means enough counters for one run of all
        out(FULL=int(p["pmu"].get("selector_encoding") == "sbi" and p["pmu"]["hpm_counters"] >= 9))
        out(HIST=bp.get("history_bits", 0), RAS_DEPTH=bp["ras_depth"],
            MUL_LAT=pipe["mul_latency"], WIDTH=pipe["issue_width"],
            L1I_BYTES=l1i["size"], L1I_LINE=l1i["line"])
    elif what == "rules":
        # rules.S: cycles per unit of each KIND under the SiFive 7-series
        # rules (pipeline.pairing "pipes", late_alu: docs/profiles.md)
        if pipe.get("pairing") != "pipes" or pipe["issue_width"] != 2:
            out(RULES_SKIP="'not a 2-wide profile with pipes A and B'")
            return
        fp, lu = pipe["fp_latency"], pipe["load_use_latency"]
        fp32 = pipe.get("fp32_latency", fp)
        lat = {1: fp, 2: fp, 3: fp, 4: fp32, 5: fp32,
               6: pipe["fp_div_latency"], 7: pipe.get("fp32_div_latency", pipe["fp_div_latency"]),
               8: pipe["div_latency"], 9: pipe.get("div32_latency", pipe["div_latency"]),
               # a load's value reaches address generation (the next load) after load_use
               10: lu, 11: pipe.get("fp_move_latency", fp),
               # a load's value reaches an ALU op late_alu cycles sooner; the
               # next load (pipe A) pairs with that add
               20: max(1, lu - pipe.get("late_alu", 0)),
               21: 1,      # two ALU ops: one in each pipe
               22: 2,      # two loads: pipe A only
               23: 2,      # two multiplies: pipe B only
               24: 1}      # a load (A) and a multiply (B)
        # chains: the loop's addi and bnez issue in the latency's shadow
        assert all(lat[k] >= 3 for k in range(1, 12)), "a chain too short to hide the loop"
        # a line's cycles on the memory channel, rounded up (src/uarch/core.c)
        bw = p["memory"].get("read_bandwidth", 0)
        out(RULES_SKIP="", MEM_CYCLES=memory_cycles(p), L1D_HIT=l1d["hit_latency"],
            L1D_MSHRS=l1d.get("mshrs", 0),
            READ_LINE_CYCLES=-(-l1d["line"] * p["clock_hz"] // (bw * 1000000)) if bw else 0,
            **{f"RULE_{k}": v for k, v in lat.items()})
    elif what in ("fetch", "codepages"):
        lo, hi = retired_code(sys.argv[3])
        pages = span(lo, hi, pshift)
        lines = span(lo, hi, l1i["line"].bit_length() - 1)
        n = (hi - lo) // 4
        # width 1: each instruction issues one cycle after the previous, plus
        # the frontend stalls of its fetch (docs/profiles.md: an L1 miss costs
        # l2.hit - l1d.hit, an L2 miss memory - l2.hit more; an ITLB miss costs
        # l2tlb.hit_latency, plus walk_latency on an L2 TLB miss)
        l2lat = (l2["hit_latency"] - l1d["hit_latency"]) if l2 else 0
        memlat = memory_cycles(p) - (l2["hit_latency"] if l2 else l1d["hit_latency"])
        l2t = t.get("l2tlb")
        tlbcost = (l2t.get("hit_latency", 0) if l2t else 0) + t["walk_latency"]
        out(CODE_PAGES=pages, CODE_LINES=lines, CODE_INSNS=n,
            FETCH_CYCLES=n + lines * (l2lat + memlat) + pages * tlbcost)
    elif what == "ras":
        ins = insns(sys.argv[3])
        # per rep: the jal sites and the taken loop-back bne (the only
        # conditional branch) go through the BTB, LRU per set, indexed by
        # pc >> 1; returns go to the RAS
        sites = [a for a, m, _ in ins if m == "jal"]
        sites += [a for a, m, _ in ins if m == "bne"]
        n = bp["btb_entries"]
        btb = 0
        if n:
            ways = bp.get("btb_ways", n)
            sets = n // ways
            by = {}
            for a in sites:
                by.setdefault((a >> 1) & (sets - 1), []).append(a)
            # steady state: misses of the 3rd rep minus the 2nd
            btb = sum(lru_cyclic_misses(ways, s, 3) - lru_cyclic_misses(ways, s, 2)
                      for s in by.values())
        else:
            btb = len(sites)
        out(BTB_PER_REP=btb, CALL_SITES=len(sites) - 1)
    else:
        sys.exit("unknown: " + what)


main()
