#!/usr/bin/env python3
"""make bench-real: real programs from Debian source packages, side by side
with qemu-riscv64.

Fetches sqlite3, lua5.4, zlib, bzip2 and xz-utils with `apt-get source`
(bench/debsrc.py; a cache outside the repository, $RVPMU_DEBSRC_CACHE,
default ~/.cache/rvpmu-debsrc), cross-compiles each static for riscv64 with
-O2 into build/bench-real/, and runs every job under qemu-riscv64, `rvpmu
run`, `rvpmu stat --profile u74` and `rvpmu stat --profile virt`. Every
run's output must equal qemu's (SQLite's per-test timings are taken out
first: they are host times); a job whose outputs differ is marked and left
out of the geomeans. Writes bench/results-real.md (BENCH_REAL_OUT).

Settings: BENCH_RUNS (default 3; the median CPU time is used),
BENCH_REAL_FILTER (job names, comma-separated), BENCH_TIMEOUT (seconds per
run, default 900), RVPMU_JIT_STATS=1 passes through to rvpmu (its jit line
goes to stderr, not compared)."""
import datetime
import os
import random
import re
import shutil
import statistics
import subprocess
import sys

import debsrc
import run as bench   # measure(), the machine line, Markdown tables

ROOT = bench.ROOT
OUT = os.path.join(ROOT, "build", "bench-real")
CACHE = os.environ.get("RVPMU_DEBSRC_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache", "rvpmu-debsrc"))
CC = os.environ.get("CC_RISCV", "riscv64-linux-gnu-gcc")
CFLAGS = ["-O2", "-static"]
RVPMU = os.path.join(ROOT, "build", "rvpmu")
QEMU = "qemu-riscv64"
REPORT = os.environ.get("BENCH_REAL_OUT", os.path.join(ROOT, "bench", "results-real.md"))


def log(*a):
    print("bench-real:", *a, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def cc(exe, srcs, extra=()):
    """compile srcs into exe, unless exe is newer than all of them"""
    if os.path.exists(exe) and all(os.path.getmtime(exe) >= os.path.getmtime(s) for s in srcs):
        return exe
    log("building", os.path.basename(exe))
    sh([CC] + CFLAGS + list(extra) + ["-o", exe] + list(srcs) + ["-lm"])
    return exe


# ---- building each program from its Debian source

def build_minigzip():
    t = debsrc.fetch_source("zlib", CACHE)
    lib = ["adler32", "crc32", "deflate", "infback", "inffast", "inflate", "inftrees",
           "trees", "zutil", "compress", "uncompr", "gzclose", "gzlib", "gzread", "gzwrite"]
    return cc(os.path.join(OUT, "minigzip"),
              [os.path.join(t, f + ".c") for f in lib] + [os.path.join(t, "test", "minigzip.c")],
              ["-I" + t, "-D_LARGEFILE64_SOURCE=1"])


def build_bzip2():
    t = debsrc.fetch_source("bzip2", CACHE)
    lib = ["blocksort", "huffman", "crctable", "randtable", "compress", "decompress", "bzlib",
           "bzip2"]
    return cc(os.path.join(OUT, "bzip2"), [os.path.join(t, f + ".c") for f in lib],
              ["-D_FILE_OFFSET_BITS=64", "-w"])


def build_lua():
    t = os.path.join(debsrc.fetch_source("lua5.4", CACHE), "src")
    srcs = [os.path.join(t, f) for f in sorted(os.listdir(t))
            if f.endswith(".c") and f not in ("luac.c",)]
    # Debian's luaconf.h includes a header its rules generate
    with open(os.path.join(OUT, "lua5.4-deb-multiarch.h"), "w") as f:
        f.write('#define DEB_HOST_MULTIARCH "riscv64-linux-gnu"\n')
    return cc(os.path.join(OUT, "lua"), srcs, ["-I" + OUT, "-DLUA_USE_POSIX", "-w"])


def build_xz():
    exe = os.path.join(OUT, "xz")
    if os.path.exists(exe):
        return exe
    t = debsrc.fetch_source("xz-utils", CACHE)
    b = os.path.join(OUT, "xz-build")
    shutil.rmtree(b, ignore_errors=True)
    os.makedirs(b)
    log("configuring xz-utils (a minute)")
    sh([os.path.join(t, "configure"), "--host=riscv64-linux-gnu", "--disable-shared",
        "--disable-nls", "--disable-doc", "--disable-scripts", "--disable-xzdec",
        "--disable-lzmadec", "--disable-lzmainfo", "--disable-lzma-links",
        "CC=" + CC, "CFLAGS=-O2", "LDFLAGS=-static"], cwd=b, stdout=subprocess.DEVNULL)
    # libtool drops a plain -static when it links a program
    sh(["make", "-j2", "LDFLAGS=-all-static"], cwd=b, stdout=subprocess.DEVNULL)
    shutil.copy(os.path.join(b, "src", "xz", "xz"), exe)
    return exe


def build_speedtest1():
    exe = os.path.join(OUT, "speedtest1")
    if os.path.exists(exe):
        return exe
    t = debsrc.fetch_source("sqlite3", CACHE)
    b = os.path.join(OUT, "sqlite-build")
    if not os.path.exists(os.path.join(b, "sqlite3.c")):
        if not shutil.which("tclsh"):
            raise RuntimeError("SQLite's amalgamation needs tclsh (apt-get install tcl)")
        shutil.rmtree(b, ignore_errors=True)
        os.makedirs(b)
        log("making SQLite's amalgamation (host configure, tclsh)")
        sh([os.path.join(t, "configure"), "--disable-tcl"], cwd=b, stdout=subprocess.DEVNULL)
        sh(["make", "sqlite3.c"], cwd=b, stdout=subprocess.DEVNULL)
    return cc(exe, [os.path.join(t, "test", "speedtest1.c"), os.path.join(b, "sqlite3.c")],
              ["-I" + b, "-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_THREADSAFE=0"])


def make_input():
    """8 MiB of text-like data, the same every time: words of a skewed
    vocabulary with numbers, so that compressors have work to do"""
    path = os.path.join(OUT, "input.txt")
    if os.path.exists(path):
        return path
    r = random.Random(2026)
    vocab = ["".join(r.choice("etaoinshrdlucmfwypvbgkjqxz") for _ in range(r.randint(2, 9)))
             for _ in range(3000)]
    out, size = [], 0
    while size < 8 << 20:
        w = vocab[int(r.paretovariate(1.2)) % len(vocab)]
        if r.random() < 0.1:
            w += str(r.randint(0, 99999))
        out.append(w)
        size += len(w) + 1
    with open(path, "w") as f:
        f.write(" ".join(out)[: 8 << 20])
    return path


def compressed(exe, args, inp, suffix):
    """inp compressed once by the riscv64 build under qemu (decompression's input)"""
    path = inp + suffix
    if not os.path.exists(path):
        with open(path + ".part", "wb") as f:
            sh([QEMU, exe] + args + [inp], stdout=f)
        os.rename(path + ".part", path)
    return path


SPEEDTEST_TIME = re.compile(rb"\s+[0-9]+\.[0-9]+s$", re.M)


def jobs():
    """(name, argv after the emulator, output filter) for each job"""
    inp = make_input()
    mg, bz, xz, lua, st = (build_minigzip(), build_bzip2(), build_xz(), build_lua(),
                           build_speedtest1())
    script = os.path.join(ROOT, "bench", "real", "lua-bench.lua")
    same = lambda out: out
    return [
        ("zlib-compress", [mg, "-c", "-6", inp], same),
        ("zlib-decompress", [mg, "-d", "-c", compressed(mg, ["-c", "-6"], inp, ".gz")], same),
        ("bzip2-compress", [bz, "-c", "-9", inp], same),
        ("bzip2-decompress", [bz, "-d", "-c", compressed(bz, ["-c", "-9"], inp, ".bz2")], same),
        ("xz-compress", [xz, "-c", "-3", "-T1", inp], same),
        ("xz-decompress", [xz, "-d", "-c", compressed(xz, ["-c", "-3", "-T1"], inp, ".xz")], same),
        ("lua", [lua, script, "3"], same),
        ("sqlite-speedtest1", [st, "--size", "10", "--memdb"],
         lambda out: SPEEDTEST_TIME.sub(b"", out)),
    ]


MODES = [("qemu", lambda argv, cnt: [QEMU] + argv),
         ("run", lambda argv, cnt: [RVPMU, "run", "--insn-count", cnt, "--"] + argv),
         ("u74", lambda argv, cnt: [RVPMU, "stat", "-x,", "-o", cnt + ".stat", "--profile", "u74",
                                    "--"] + argv),
         ("virt", lambda argv, cnt: [RVPMU, "stat", "-x,", "-o", cnt + ".stat", "--profile", "virt",
                                     "--"] + argv)]


JIT_SHARE = re.compile(r"rvpmu: jit: (\d+) of (\d+) instructions \(([0-9.]+)%\) in translated code, "
                       r"(\d+) block runs; the step loop's: (\d+) block starts with too little budget, "
                       r"(\d+) side exits, (\d+) blocks given back, (\d+) decodes untranslatable, "
                       r"(\d+) on written code pages")
JIT_KINDS = re.compile(r"rvpmu: jit: step loop by kind: (.*)")


def jit_profile(argv, cnt, timeout):
    """where a u74 run of argv leaves translated code (RVPMU_JIT_STATS):
    the cells of its row in the second table"""
    env = dict(os.environ, RVPMU_JIT_STATS="1")
    try:
        r = subprocess.run([RVPMU, "stat", "-x,", "-o", cnt + ".jit", "--profile", "u74", "--"] + argv,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return ["timeout"] + [""] * 6
    m = JIT_SHARE.search(r.stderr)
    if not m:
        return ["no jit line"] + [""] * 6
    k = JIT_KINDS.search(r.stderr)
    kinds = ", ".join(k.group(1).split(", ")[:6]) if k else "none"
    return [f"{float(m.group(3)):.1f}%", f"{int(m.group(4)):,}", m.group(5), m.group(6), m.group(7),
            m.group(8), kinds]


def geomean(xs):
    xs = [x for x in xs if x]
    if not xs:
        return None
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1 / len(xs))


def main():
    runs = bench.env_int("BENCH_RUNS", 3, 1, 100)
    timeout = bench.env_int("BENCH_TIMEOUT", 900, 1, 86400)
    filt = [x for x in os.environ.get("BENCH_REAL_FILTER", "").split(",") if x]
    os.makedirs(OUT, exist_ok=True)
    if not os.path.exists(RVPMU):
        bench.die("build/rvpmu is missing: make all first")
    try:
        todo = [j for j in jobs() if not filt or j[0] in filt]
    except (subprocess.CalledProcessError, RuntimeError, OSError) as e:
        bench.die(f"building the real programs failed: {e}")
    rows, ratios, jrows = [], {m: [] for m, _ in MODES[1:]}, []
    for name, argv, keep in todo:
        cnt = os.path.join(OUT, name + ".count")
        res = {m: [] for m, _ in MODES}
        for _ in range(runs):
            for m, make in MODES:
                r = bench.measure(make(argv, cnt), timeout)
                r["kept"] = keep(r["out"])
                res[m].append(r)
                sys.stderr.write(".")
                sys.stderr.flush()
        want = res["qemu"][0]["kept"]
        bad = [(m, r) for m, _ in MODES for r in res[m]
               if r["status"] != 0 or r["timeout"] or r["kept"] != want]
        insns = bench.read_count(cnt)
        cpu = {m: statistics.median(r["cpu"] for r in res[m]) for m, _ in MODES}
        if bad:
            m, r = bad[0]
            why = ("timeout" if r["timeout"] else f"exit {r['status']}" if r["status"]
                   else "output differs from qemu's")
            log(f"{name}: {m}: {why}: {r['err'].decode(errors='replace').strip()[-300:]}")
            status = f"{m}: {why}"
        else:
            status = "ok"
            for m, _ in MODES[1:]:
                ratios[m].append(cpu["qemu"] / cpu[m] if cpu[m] else None)
        row = [name, f"{insns:,}" if insns else "?", f"{cpu['qemu']:.2f}"]
        for m, _ in MODES[1:]:
            row += [f"{cpu[m]:.2f}", f"{cpu['qemu'] / cpu[m]:.3f}" if cpu[m] else "-"]
        row += [f"{insns / cpu['u74'] / 1e6:.0f}" if insns and cpu["u74"] else "?", status]
        rows.append(row)
        log(" | ".join(row))
        jrows.append([name] + jit_profile(argv, cnt, timeout))
    geo = ["geomean", "", ""]
    for m, _ in MODES[1:]:
        g = geomean(ratios[m])
        geo += ["", f"{g:.3f}" if g else "-"]
    geo += ["", f"{len(ratios['run'])} of {len(rows)} rows"]
    head = ["job", "instructions", "qemu CPU s", "run CPU s", "run/qemu", "u74 CPU s", "u74/qemu",
            "virt CPU s", "virt/qemu", "u74 MIPS", "status"]
    table = bench.md_table(head, rows + [geo])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    git = bench.cmd_line(["git", "rev-parse", "--short", "HEAD"])
    qv = bench.cmd_line([QEMU, "--version"])
    text = f"""# rvpmu on real programs

- Date: {now}
- Machine: {bench.machine()}
- rvpmu: `build/rvpmu` at git {git}; qemu: {qv}
- Programs: Debian 12's source packages (sqlite3, lua5.4, zlib, bzip2,
  xz-utils) fetched by `apt-get source`, built with `{CC} {' '.join(CFLAGS)}`
  (bench/real.py); the input is 8 MiB of generated text; Lua runs
  bench/real/lua-bench.lua; SQLite runs speedtest1 `--size 10 --memdb`.
- Runs: {runs} per mode, interleaved; the median CPU time (user+sys of the
  child) is shown. *X/qemu* = qemu CPU s / X CPU s (above 1: faster than
  qemu). *run*: `rvpmu run` (functional); *u74*, *virt*: `rvpmu stat
  --profile P` with perf's default events (all models on). Every run's
  output equals qemu's (SQLite's printed timings taken out), or the row
  says which differed and is left out of the geomeans.

{table}

## Where the u74 runs leave translated code

One more `rvpmu stat --profile u74` run of each job with
`RVPMU_JIT_STATS=1`: the share of the retired instructions run in
translated blocks, block entries from the dispatcher, and why the step
loop ran the rest: block starts with too little budget or cycles left
before a stop (run stepped), side exits (an access a block leaves to the
step loop: a page's first touch, a page-crossing access), blocks given back
(their exits kept landing in stepped code), decodes no block could start
at, and the instruction kinds the step loop ran most (count, share of all
instructions).

{bench.md_table(["job", "translated", "block runs", "short budget", "side exits", "given back",
                 "untranslatable", "step loop's kinds"], jrows)}
"""
    with open(REPORT, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
