#!/usr/bin/env python3
"""make calibrate: the U74 profiles against published silicon figures.

Builds, cross-compiled static for riscv64:
  - bench/calibrate/ubench.c, this project's microbenchmarks;
  - mbw and 7-Zip from their Debian source packages, fetched with
    `apt-get source` into a cache outside the repository ($RVPMU_CALIBRATE_CACHE,
    default ~/.cache/rvpmu-calibrate) through a deb-src list of its own,
    made from the machine's deb lines (/etc/apt/sources.list.d);
  - CoreMark, only when COREMARK_SRC names a checkout (never fetched here),
    with the silicon figure's flags (GCC, -O2 -march=rv64gc, the posix
    port, PERFORMANCE_RUN).
Runs each under `rvpmu stat` on every U74 profile (CALIBRATE_PROFILES;
CALIBRATE_SKIP=mbw,7zz leaves those out) and writes
docs/calibration.md: metric | silicon figure (source, conditions) | rvpmu |
ratio, with the targets of issue 41.

Every figure is a difference of two runs of different sizes (iterations,
passes), cycles over work, so that a program's setup cancels out. rvpmu's
user-mode clock counts instructions (one per cycle), so a program's own
timings are not its modelled speed: ratings it prints are scaled by its
measured IPC instead (7-Zip)."""
import json
import os
import re
import shutil
import subprocess
import sys
import time

import debsrc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
RVPMU = os.environ.get("RVPMU", os.path.join(BUILD, "rvpmu"))
OUT = os.path.join(BUILD, "calibrate")
CACHE = os.environ.get("RVPMU_CALIBRATE_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "rvpmu-calibrate"))
CC = os.environ.get("CC_RISCV", "riscv64-linux-gnu-gcc")
CXX = os.environ.get("CXX_RISCV", "riscv64-linux-gnu-g++")
REPORT = os.environ.get("CALIBRATE_OUT", os.path.join(ROOT, "docs", "calibration.md"))
PROFILES = os.environ.get("CALIBRATE_PROFILES", "u74 jh7110").split()
MIB32 = 32 << 20


def log(*a):
    print("calibrate:", *a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def newer(target, *sources):
    return os.path.exists(target) and all(os.path.getmtime(target) >= os.path.getmtime(s)
                                          for s in sources)


# ---- building

def build_ubench():
    src = os.path.join(ROOT, "bench", "calibrate", "ubench.c")
    exe = os.path.join(OUT, "ubench")
    if not newer(exe, src):
        run([CC, "-O2", "-static", "-march=rv64gc", "-mabi=lp64d", "-o", exe, src])
    return exe


def fetch_source(pkg):
    """the unpacked Debian source of pkg (bench/debsrc.py, cached in CACHE)"""
    return debsrc.fetch_source(pkg, CACHE)


def build_mbw():
    exe = os.path.join(OUT, "mbw")
    src = os.path.join(fetch_source("mbw"), "mbw.c")
    if not newer(exe, src):
        run([CC, "-O2", "-static", "-march=rv64gc", "-o", exe, src])
    return exe


def build_7zip():
    exe = os.path.join(OUT, "7zz")
    if os.path.exists(exe):
        return exe
    tree = os.path.join(fetch_source("7zip"), "CPP", "7zip", "Bundles", "Alone2")
    # as debian/rules builds it (DISABLE_RAR: the dfsg source has no RAR code)
    run(["make", "-j2", "-f", "../../cmpl_gcc.mak", "CROSS_COMPILE=riscv64-linux-gnu-",
         "CC=" + CC, "CXX=" + CXX, "O=b/rvpmu", "DISABLE_RAR=1",
         "MY_ARCH=-march=rv64gc -mabi=lp64d", "DEB_7Z_LDFLAGS=-static"], cwd=tree,
        stdout=subprocess.DEVNULL)
    shutil.copy(os.path.join(tree, "b", "rvpmu", "7zz"), exe)
    return exe


def build_coremark(src):
    exe = os.path.join(OUT, "coremark")
    files = ["core_list_join.c", "core_main.c", "core_matrix.c", "core_state.c", "core_util.c",
             "posix/core_portme.c"]
    paths = [os.path.join(src, f) for f in files]
    if not newer(exe, *paths):
        flags = ["-O2", "-march=rv64gc"]
        run([CC] + flags + ["-static", "-I" + os.path.join(src, "posix"), "-I" + src,
                            '-DFLAGS_STR="%s"' % " ".join(flags), "-DPERFORMANCE_RUN=1",
                            "-DITERATIONS=0", "-o", exe] + paths + ["-lrt"])
    return exe


# ---- measuring

def profile_key(name, key):
    """a top-level key of profiles/NAME.json, or of its base's"""
    d = json.load(open(os.path.join(ROOT, "profiles", name + ".json")))
    return d[key] if key in d else profile_key(d["base"], key)


def stat(profile, argv, events=()):
    """rvpmu stat's counts of one run: {event: count}"""
    evs = ",".join(("cycles", "instructions") + tuple(events))
    p = subprocess.run([RVPMU, "stat", "--profile", profile, "-x,", "-e", evs, "--"] + argv,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise RuntimeError("%s on %s: exit %d: %s" % (" ".join(argv), profile, p.returncode,
                                                      p.stderr.strip()[-300:]))
    out = {}
    for line in p.stderr.splitlines():
        f = line.split(",")
        if len(f) > 2 and f[0].isdigit():
            out[f[2]] = int(f[0])
    return out, p.stdout


def per(profile, argv_of, n1, n2, events=()):
    """counts per unit of work: (run(n2) - run(n1)) / (n2 - n1)"""
    a, _ = stat(profile, argv_of(n1), events)
    b, out = stat(profile, argv_of(n2), events)
    return {k: (b[k] - a[k]) / (n2 - n1) for k in b}, out


UNROLL = 64   # ubench's operations per iteration


def measure(profile, tools):
    """the figures of profile: {key: value}"""
    ub, clock = tools["ubench"], tools["clock"][profile]
    m = {}

    def ops(kernel, n1=200, n2=600, **kw):
        return per(profile, lambda n: [ub, kernel, str(n)], n1, n2, **kw)[0]

    def op(kernel, n1=200, n2=600):
        """one operation: the body twice over less the body once"""
        return (ops(kernel + ":2", n1, n2)["cycles"] - ops(kernel, n1, n2)["cycles"]) / UNROLL

    for k in ("load-load", "load-alu", "alu-pairs", "fadd.d", "fmul.d", "fmadd.d", "fadd.s",
              "fmul.s", "mul"):
        m[k] = op(k)
    for k in ("fdiv.d", "fdiv.s", "div"):
        m[k] = op(k, 20, 60)
    dm = ("BRANCH_DIR_MISPREDICTS",)   # the U74's direction mispredicts
    same, rnd = ops("branch-same", 100, 300, events=dm), ops("branch-random", 100, 300, events=dm)
    m["mispredict"] = (rnd["cycles"] - same["cycles"]) / (rnd[dm[0]] - same[dm[0]])
    ns = 1e9 / clock

    def chase(size, two=False, n1=20, n2=60):
        r = per(profile, lambda n: [ub, "chase2" if two else "chase", str(n), str(size)], n1, n2)[0]
        return r["cycles"] / UNROLL

    m["l2-latency"] = chase(128 << 10)
    m["mem-latency"] = (chase(MIB32) - m["load-load"]) * ns      # beyond an L1 hit, as tinymembench
    m["dual-read"] = (chase(MIB32, True) - m["load-load"]) * ns
    for k in ("memset", "fill", "copy", "memchr"):
        r = per(profile, lambda n: [ub, k, str(n), str(MIB32)], 1, 2)[0]
        m[k] = MIB32 / r["cycles"]
    r = per(profile, lambda n: [tools["mbw"], "-q", "-n", str(n), "-t1", "32"], 1, 2)[0]
    m["memcpy"] = MIB32 / r["cycles"]   # mbw's -t1 runs memcpy (mbw.c: worker type 1)
    if tools.get("coremark"):
        r = per(profile, lambda n: [tools["coremark"], "0x0", "0x0", "0x66", str(n)], 100, 300)[0]
        m["coremark"] = 1e6 / r["cycles"]
    # slow (tens of billions of instructions): only where there is a figure
    if tools.get("7zz") and any(k.startswith("7z") and profile in sil for k, _, _, sil, _, _ in SILICON):
        m.update(sevenzip(profile, tools["7zz"]))
    return m


def sevenzip(profile, exe):
    """7-Zip's single-thread benchmark at dictionary 22 (one pass): its
    ratings assume one instruction per cycle (rvpmu's clock), so they are
    scaled by the run's IPC; the whole run's, which takes in its setup too
    (two runs would isolate the passes, at twice the time of a slow run)"""
    # kept for the same rvpmu, 7zz and profile: a run takes long
    key = [os.path.getmtime(f) for f in (RVPMU, exe, os.path.join(ROOT, "profiles", "u74.json"),
                                        os.path.join(ROOT, "profiles", profile + ".json"))]
    kept = os.path.join(OUT, "7z-%s.json" % profile)
    if os.path.exists(kept):
        k = json.load(open(kept))
        if k["key"] == key:
            return k["result"]
    r, out = stat(profile, [exe, "b", "1", "-mmt1", "-md22"])
    ipc = r["instructions"] / r["cycles"]
    row = [l for l in out.splitlines() if l.startswith("Avr:")][-1]
    f = row.replace("|", " ").split()
    # Avr: speed usage r/u rating | speed usage r/u rating
    res = {"7z-compress": float(f[4]) * ipc, "7z-decompress": float(f[8]) * ipc, "7z-ipc": ipc}
    json.dump({"key": key, "result": res}, open(kept, "w"))
    return res


# ---- the silicon figures. SBC = ThomasKaiser/sbc-bench results/*.txt (sbc-bench
# runs on JH7110 boards at 1.5 GHz, cpufreq measured 1496-1498 MHz):
# 4K7E Milk-V Mars CM, 4pBf VisionFive 2, 4tjq Star64, 4xOY VisionFive 2 v1.3B.
SBC = "sbc-bench results 4K7E, 4pBf, 4tjq, 4xOY (JH7110 boards, 1.5 GHz)"
LLVM = "LLVM RISCVSchedSiFive7.td (SiFive's 7-series scheduling model)"
SILICON = [
    # key, metric, unit, {profile: (low, high)} or None, source and conditions, target
    ("coremark", "CoreMark/MHz", "", {"*": (3.363, 3.363)},
     "5044 iterations/s at 1.5 GHz, VisionFive 2 v1.3B, Debian, GCC 12.2.0 -O2 -march=rv64gc, "
     "posix port, PERFORMANCE_RUN: the VisionFive 2 extension-performance report quoted in issue "
     "41 (the report itself was not found in the searchable sources); CoreMark fits the caches, "
     "so the FU740 is held to it too", ("pct", 5)),
    ("load-load", "L1D load-to-load latency", "cycles", {"*": (3, 3)},
     "ramlat 4k-32k 1xPTR: 2.002 ns at 1498 MHz (SBC 4xOY); " + LLVM + " LoadLatency 3", ("pct", 15)),
    ("load-alu", "a load and an add of its value, per pair", "cycles", {"*": (1, 1)},
     "0-cycle load-to-use: a dependent ALU op issues the cycle after its load (WikiChip, SiFive "
     "7 series; Segger in elektroniknet.de 2021, \"late ALUs\"), so the next load pairs with it; "
     "a model charging the load's latency to the add takes 3", ("pct", 15)),
    ("l2-latency", "L2 hit latency (random, 128 KiB)", "cycles", {"jh7110": (20.0, 20.1)},
     "ramlat 128k 1x64 / 1xPTR 13.39 / 13.35 ns at 1498 MHz (SBC 4xOY)", ("pct", 15)),
    ("mem-latency", "random read latency, 32 MiB, beyond an L1 hit", "ns", {"jh7110": (157.4, 163.1)},
     "tinymembench single random read, 32 MiB block (SBC; ramlat 32768k 1xPTR: 171.6 ns in all)",
     ("pct", 15)),
    ("dual-read", "dual random read, 32 MiB (two chains, per step)", "ns", {"jh7110": (313.8, 324.9)},
     "tinymembench dual random read, 32 MiB block (SBC): twice a single read, no overlap",
     ("pct", 15)),
    ("memcpy", "libc memcpy, 32 MiB (mbw)", "bytes/cycle", {"jh7110": (0.549, 0.619)},
     "tinymembench libc memcpy copy 822.3-927.7 MB/s (SBC); mbw on rvpmu", ("range", 25)),
    ("copy", "C copy loop, 32 MiB", "bytes/cycle", {"jh7110": (0.536, 0.623)},
     "tinymembench C copy 803.4-934.1 MB/s (SBC)", ("range", 25)),
    ("memset", "libc memset, 32 MiB", "bytes/cycle", {"jh7110": (0.510, 0.553)},
     "tinymembench libc memset fill 763.7-827.8 MB/s (SBC)", ("range", 25)),
    ("fill", "C fill loop, 32 MiB", "bytes/cycle", {"jh7110": (0.510, 0.553)},
     "tinymembench C fill 764.5-828.0 MB/s (SBC)", ("range", 25)),
    ("memchr", "libc memchr scan, 32 MiB", "bytes/cycle", {"jh7110": (0.911, 0.911)},
     "tinymembench libc memchr scan 1364.4 MB/s (SBC 4xOY, Ubuntu's glibc; rvpmu runs Debian "
     "bookworm's static glibc)", ("pct", 15)),
    ("fadd.d", "FP64 add, dependent", "cycles", {"*": (7, 7)}, LLVM + " WriteFAdd64", ("pct", 1)),
    ("fmul.d", "FP64 multiply, dependent", "cycles", {"*": (7, 7)}, LLVM + " WriteFMul64", ("pct", 1)),
    ("fmadd.d", "FP64 fused multiply-add, dependent", "cycles", {"*": (7, 7)}, LLVM + " WriteFMA64",
     ("pct", 1)),
    ("fadd.s", "FP32 add, dependent", "cycles", {"*": (5, 5)}, LLVM + " WriteFAdd32", ("pct", 1)),
    ("fmul.s", "FP32 multiply, dependent", "cycles", {"*": (5, 5)}, LLVM + " WriteFMul32", ("pct", 1)),
    ("fdiv.d", "FP64 divide, dependent", "cycles", {"*": (56, 56)}, LLVM + " WriteFDiv64", ("pct", 15)),
    ("fdiv.s", "FP32 divide, dependent", "cycles", {"*": (27, 27)}, LLVM + " WriteFDiv32", ("pct", 15)),
    ("mul", "integer multiply, dependent", "cycles", {"*": (3, 3)}, LLVM + " WriteIMul", ("pct", 15)),
    ("div", "64-bit divide, dependent", "cycles", {"*": (66, 66)},
     LLVM + " WriteIDiv (worst case; silicon's divider finishes early on small quotients)", ("pct", 15)),
    ("alu-pairs", "independent ALU ops", "cycles/op", {"*": (0.5, 0.5)},
     "dual issue: " + LLVM + " IssueWidth 2, pipes A and B both with ALUs", ("pct", 15)),
    ("mispredict", "branch mispredict", "cycles", {"*": (3, 3)}, LLVM + " MispredictPenalty 3",
     ("pct", 15)),
    ("7z-compress", "7-Zip compress rating, dictionary 22, 1 thread", "MIPS",
     {"jh7110": (874, 953)},
     "p7zip 16.02 `7z b -mmt1`, row 22 (SBC); rvpmu runs 7-Zip 26.02 (Debian 7zip) `7zz b -mmt1 -md22`",
     ("pct", 15)),
    ("7z-decompress", "7-Zip decompress rating, dictionary 22, 1 thread", "MIPS",
     {"jh7110": (1475, 1492)}, "as above", ("pct", 15)),
]


def verdict(v, lo, hi, target):
    kind, tol = target
    if kind == "range":
        ok = lo * (1 - tol / 100) <= v <= hi * (1 + tol / 100)
    else:
        ok = lo * (1 - tol / 100) - 1e-9 <= v <= hi * (1 + tol / 100) + 1e-9
        if tol == 0:
            ok = abs(v - lo) < 0.005
    return ("within %s%d%%" % ("the range " if kind == "range" else "", tol) if tol
            else "exact") if ok else "outside the target"


def fmt(x):
    return "%.3g" % x if abs(x) < 100 else "%.0f" % x


def report(results, tools, host):
    out = ["# Calibration: the U74 profiles against silicon", "",
           "Written by `make calibrate` (bench/calibrate.py) on %s. Each rvpmu figure is a "
           "difference of two runs of different sizes under `rvpmu stat --profile P` (cycles "
           "over the work between them); the silicon figures are published measurements, "
           "with their sources and conditions. Ratio: rvpmu over silicon (over the middle of a "
           "range); error: the ratio less 1, in percent. Targets (issue 41): CoreMark/MHz within 5%%; 32 MiB memcpy and memset "
           "within 25%% of the silicon range; FP64 and FP32 dependent latencies 7 and 5; every "
           "other figure within 15%%, or the gap explained below." % host, ""]
    out.append("Profiles: " + ", ".join("`%s` (%.1f GHz)" % (p, tools["clock"][p] / 1e9)
                                        for p in results) + ". Built here: " +
               ", ".join(sorted(k for k in tools if k not in ("clock",) and tools[k])) +
               ("" if tools.get("coremark") else "; CoreMark not run (no COREMARK_SRC)") + ".")
    out.append("")
    for p, m in results.items():
        out += ["## `%s`" % p, "",
                "| metric | silicon figure (source, conditions) | rvpmu | ratio | error | target |",
                "|---|---|---|---|---|---|"]
        for key, name, unit, sil, src, target in SILICON:
            if key not in m:
                continue
            rng = sil.get(p) or sil.get("*")
            v = m[key]
            u = " " + unit if unit else ""
            if not rng:
                out.append("| %s | not found for this chip | %s%s | | | |" % (name, fmt(v), u))
                continue
            lo, hi = rng
            s = fmt(lo) if lo == hi else "%s-%s" % (fmt(lo), fmt(hi))
            r = v / ((lo + hi) / 2)
            out.append("| %s | %s%s (%s) | %s%s | %.2f | %+.1f%% | %s |" % (
                name, s, u, src, fmt(v), u, r, 100 * (r - 1), verdict(v, lo, hi, target)))
        if "7z-ipc" in m:
            out.append("")
            out.append("7-Zip's ratings are scaled by its run's IPC on rvpmu (%.2f): rvpmu's "
                       "user-mode clock runs at one instruction per cycle." % m["7z-ipc"])
        out.append("")
    out += gaps(results, tools)
    return "\n".join(out) + "\n"


def gaps(results, tools):
    """the figures off target, those without a silicon figure, what did not run,
    and what the comparison cannot tell"""
    off, none = [], []
    for p, m in results.items():
        for key, name, unit, sil, src, target in SILICON:
            rng = sil.get(p) or sil.get("*")
            if key not in m:
                continue
            if not rng:
                none.append("%s on `%s`" % (name, p))
            elif verdict(m[key], rng[0], rng[1], target) == "outside the target":
                off.append("%s on `%s` (%s)" % (name, p, fmt(m[key])))
    out = ["## Off target, not compared, not run", ""]
    out.append("- Outside its target: " + ("; ".join(off) if off else "none of the figures compared") + ".")
    if none:
        out.append("- No silicon figure found, rvpmu's shown alone: " + "; ".join(none) + ". No "
                   "FU740 (HiFive Unmatched) memory latency, bandwidth or L2 figure was found, so "
                   "`u74`'s memory (100 ns, no bandwidth limit) is the earlier guess, not a "
                   "calibration (docs/profiles.md).")
    if tools.get("7zz"):
        out.append("- 7-Zip: the silicon ratings are p7zip 16.02's and rvpmu runs Debian's 7-Zip "
                   "26.02, whose LZMA code is another version, so the two are not the same "
                   "program; the ratings are compared for their size, not calibrated against.")
    else:
        out.append("- 7-Zip was not built here (it needs Debian's 7zip source package through "
                   "`apt-get source`), so its ratings are not compared.")
    if not tools.get("coremark"):
        out.append("- CoreMark was not run (no COREMARK_SRC).")
    out += ["",
            "What the comparison cannot tell:", "",
            "- The CoreMark figure is quoted from issue 41 (a VisionFive 2 extension-performance "
            "report); the report itself was not found to check its conditions.",
            "- The latencies (FP, divide, multiply, mispredict) are LLVM's SiFive 7 scheduling "
            "model, SiFive's own figures but not measurements on a board; the load-and-add pair "
            "(1 cycle) follows from the documented 0-cycle load-to-use, not a measurement.",
            "- The model's divides take their worst case always; silicon's divider finishes early "
            "on small quotients, so divide-heavy code runs faster on a board than under rvpmu.",
            "- The memory figures are tinymembench and ramlat on JH7110 boards with other "
            "software (Ubuntu's glibc for memchr); rvpmu runs Debian bookworm's static glibc "
            "(mbw) and this project's loops.", ""]
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    if not os.access(RVPMU, os.X_OK):
        sys.exit("calibrate: no %s (make all first)" % RVPMU)
    tools = {"ubench": build_ubench(), "clock": {}}
    skip = os.environ.get("CALIBRATE_SKIP", "").split(",")
    for name, build in (("mbw", build_mbw), ("7zz", build_7zip)):
        if name in skip:
            tools[name] = None
            continue
        try:
            tools[name] = build()
        except (subprocess.CalledProcessError, OSError) as e:
            log("cannot build %s: %s" % (name, e))
            tools[name] = None
    cm = os.environ.get("COREMARK_SRC")
    tools["coremark"] = build_coremark(cm) if cm else None
    for p in PROFILES:
        tools["clock"][p] = int(profile_key(p, "clock_hz"))
    kept = os.path.join(OUT, "results.json")
    if "--report-only" in sys.argv[1:]:   # again from the last run's figures
        k = json.load(open(kept))
        text = report(k["results"], k["tools"], k["host"])
        open(REPORT, "w").write(text)
        print(text)
        return
    results = {}
    for p in PROFILES:
        log("measuring", p)
        t = time.time()
        results[p] = measure(p, tools)
        log("%s done in %.0f s" % (p, time.time() - t))
    host = "an %s host with %d CPUs, %s" % (os.uname().machine, os.cpu_count() or 0,
                                           time.strftime("%Y-%m-%d"))
    json.dump({"results": results, "tools": tools, "host": host}, open(kept, "w"))
    text = report(results, tools, host)
    open(REPORT, "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
