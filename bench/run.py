#!/usr/bin/env python3
"""rvpmu benchmark runner: builds bench/workloads/*.c for riscv64 Linux,
runs each under rvpmu and qemu-riscv64 (interleaved), and reports CPU time,
MIPS, the speed ratio and peak RSS. See bench/README.md.

Environment:
  BENCH_FILTER   comma-separated workload names to run (default: all)
  BENCH_RUNS     runs per emulator per workload (default 3)
  BENCH_SCALE    workload size in percent, passed as argv[1] (default 100)
  BENCH_OUT      Markdown report path (default bench/results.md)
  BENCH_TIMEOUT  wall-clock limit per run, seconds (default 900)
  BENCH_CPU      the CPU every run is pinned to, or "none" (default: for
                 each workload, the allowed CPU a short spin runs fastest on)
  RVPMU, QEMU, CC  override the emulator / cross-compiler commands
  RVPMU_NOPMU    the build with PMU counting compiled out (default
                 build-nopmu/rvpmu, made by `make nopmu`); absent: no column
"""
import datetime
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SRC = os.path.join(ROOT, "bench", "workloads")
OUTDIR = os.path.join(ROOT, "build", "bench")
WORKLOADS = ["compute", "memory", "branchy"]
# measured apart from the table: the speed of code that rewrites itself
# (qemu-riscv64, which takes 70 us or so per rewrite, is left out)
SMC = "smc"
CFLAGS = ["-static", "-O2", "-fno-omit-frame-pointer", "-g"]


def die(msg):
	print("bench: " + msg, file=sys.stderr)
	sys.exit(1)


def env_int(name, default, lo, hi):
	v = os.environ.get(name, "")
	if v == "":
		return default
	try:
		n = int(v)
	except ValueError:
		die(f"{name}={v!r} is not an integer")
	if not lo <= n <= hi:
		die(f"{name}={n} out of range {lo}..{hi}")
	return n


def build(cc, name):
	"""Compile one workload unless its binary is newer than its sources."""
	src = os.path.join(SRC, name + ".c")
	deps = [src, os.path.join(SRC, "common.h")]
	out = os.path.join(OUTDIR, name)
	if os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(d) for d in deps):
		return out
	cmd = [cc] + CFLAGS + ["-o", out, src]
	print("bench: " + " ".join(cmd), file=sys.stderr)
	if subprocess.call(cmd) != 0:
		die(f"building {name} failed")
	return out


class Timeout(Exception):
	pass


PIN = None  # the CPU the runs are pinned to (None: wherever the kernel puts them)


def pinned():
	if PIN is not None:
		os.sched_setaffinity(0, {PIN})


def spin(cpu):
	"""CPU seconds a fixed Python loop takes in a child pinned to cpu."""
	pid = os.fork()
	if pid == 0:
		try:
			os.sched_setaffinity(0, {cpu})
			x = 0
			for i in range(2000000):
				x += i & 7
		finally:
			os._exit(0)
	_, _, ru = os.wait4(pid, 0)
	return ru.ru_utime + ru.ru_stime


def quiet_cpu():
	"""The allowed CPU the spin runs fastest on (best of three), and each
	CPU's time. On a shared host one vCPU can run everything 30-50% slower
	than the other for minutes at a time; a workload's runs all go to one
	CPU so that its ratios compare runs that met the same host."""
	t = {c: min(spin(c) for _ in range(3)) for c in sorted(os.sched_getaffinity(0))}
	return min(t, key=t.get), t


def _alarm(signum, frame):
	raise Timeout()


def measure(argv, timeout):
	"""Run argv to completion. Returns dict: status (exit code, or 128+sig),
	cpu (user+sys seconds of the child), rss (peak KiB), out, err, timeout."""
	with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
		try:
			p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=fo, stderr=fe,
					     preexec_fn=pinned)
		except OSError as e:
			return {"status": 127, "cpu": 0.0, "rss": 0, "out": b"",
				"err": str(e).encode(), "timeout": False}
		timed_out = False
		old = signal.signal(signal.SIGALRM, _alarm)
		signal.setitimer(signal.ITIMER_REAL, timeout)
		try:
			_, st, ru = os.wait4(p.pid, 0)
		except Timeout:
			timed_out = True
			p.kill()
			_, st, ru = os.wait4(p.pid, 0)
		finally:
			signal.setitimer(signal.ITIMER_REAL, 0)
			signal.signal(signal.SIGALRM, old)
		if os.WIFSIGNALED(st):
			code = 128 + os.WTERMSIG(st)
		else:
			code = os.WEXITSTATUS(st)
		p.returncode = code  # already reaped; keep Popen from waiting again
		fo.seek(0)
		fe.seek(0)
		return {"status": code, "cpu": ru.ru_utime + ru.ru_stime,
			"rss": ru.ru_maxrss, "out": fo.read(), "err": fe.read(),
			"timeout": timed_out}


class Rvpmu:
	"""Runs rvpmu; learns on first use whether `run --insn-count FILE` works."""

	def __init__(self, cmd, timeout):
		self.cmd = cmd
		self.timeout = timeout
		self.has_count = None  # unknown until a run tells us

	def run(self, prog, args):
		if self.has_count is not False:
			fd, path = tempfile.mkstemp(prefix="rvpmu-count-")
			os.close(fd)
			os.unlink(path)  # rvpmu must create it; a stale file proves nothing
			r = measure(self.cmd + ["run", "--insn-count", path, "--", prog] + args, self.timeout)
			r["insns"] = read_count(path)
			if os.path.exists(path):
				os.unlink(path)
			if r["insns"] is not None:
				self.has_count = True
				return r
			if self.has_count:
				return r  # the option works; this run just did not report
			# No count: either the option is missing or rvpmu failed. Retry
			# without it once to tell the two apart.
			plain = measure(self.cmd + ["run", "--", prog] + args, self.timeout)
			if plain["status"] == 0 and r["status"] != 0:
				print("bench: rvpmu has no working --insn-count; instructions: unknown",
				      file=sys.stderr)
				self.has_count = False
			plain["insns"] = None
			return plain
		r = measure(self.cmd + ["run", "--", prog] + args, self.timeout)
		r["insns"] = None
		return r


# Further rvpmu modes measured beside the functional run, each as the
# argv before the program: the step loop alone (no block translation), the
# PMU-less build's step loop (idle-PMU cost, issue 3), counting perf's
# default events without models, every model of the u74 profile on (issue
# 4), and sampling with the default profile's models.
def modes(rvpmu, nopmu):
	m = [("step", [rvpmu, "run", "--no-jit", "--"])]
	if nopmu:
		m.append(("nopmu", [nopmu, "run", "--no-jit", "--"]))
	m.append(("count", [rvpmu, "stat", "--no-uarch", "-o", os.devnull, "--"]))
	m.append(("models", [rvpmu, "stat", "--profile", "u74", "-e", "cycles",
			     "-o", os.devnull, "--"]))
	m.append(("record", [rvpmu, "record", "-q", "-o", os.devnull, "--"]))
	return m


MODEL_COST_DOC = (
	"`build/model-cost` (bench/model_cost.c) sets up the u74 models as "
	"`rvpmu stat --profile u74` does and times `uarch_retire()` on synthetic "
	"retire streams of one instruction kind each (64 Ki records x 400, best "
	"of 3, host monotonic clock). *extra ns* is that kind's time minus the ALU "
	"stream's, i.e. what a memory access or a branch costs on top of an "
	"instruction's fetch and timing. The hart's own cost of building each "
	"record is not in these numbers; it is in the models column above.")


def model_cost():
	exe = os.path.join(ROOT, "build", "model-cost")
	if not os.access(exe, os.X_OK):
		print(f"bench: {exe} not found (`make build/model-cost`); no model cost", file=sys.stderr)
		return None
	r = subprocess.run([exe], capture_output=True, text=True)
	if r.returncode != 0:
		print("bench: model-cost failed: " + r.stderr.strip(), file=sys.stderr)
		return None
	return r.stdout.rstrip()


LINUX_DIR = os.environ.get("RVPMU_LINUX_DIR") or os.path.join(ROOT, "..", "shared", "linux", "prebuilt")
OPENSBI = "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin"
INIT_MARK = b"==== rvpmu perf test init ===="


def proc_cpu(pid):
	"""user+sys CPU seconds of a running process, from /proc/PID/stat."""
	with open(f"/proc/{pid}/stat") as f:
		fields = f.read().rsplit(")", 1)[1].split()
	return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def boot_once(argv, timeout, mark=INIT_MARK):
	"""Boot to the init's first line (mark) and on to power-off. Returns
	(CPU s at the init line, CPU s at exit, guest SUMMARY line, exit
	status) or None."""
	p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
			     stderr=subprocess.STDOUT, preexec_fn=pinned)
	t_init, summary = None, ""
	old = signal.signal(signal.SIGALRM, _alarm)
	signal.setitimer(signal.ITIMER_REAL, timeout)
	try:
		for line in p.stdout:
			if t_init is None and mark in line:
				t_init = proc_cpu(p.pid)
			if line.startswith(b"SUMMARY:"):
				summary = line.decode(errors="replace").strip()
		_, st, ru = os.wait4(p.pid, 0)
	except Timeout:
		p.kill()
		_, st, ru = os.wait4(p.pid, 0)
		return None
	finally:
		signal.setitimer(signal.ITIMER_REAL, 0)
		signal.signal(signal.SIGALRM, old)
	p.returncode = 0
	if t_init is None:
		return None
	code = 128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)
	return t_init, ru.ru_utime + ru.ru_stime, summary, code


def linux_boot(rvpmu, runs, timeout):
	"""Linux boot time: the shared Linux 6.12 image with Debian's OpenSBI
	on rvpmu and on qemu-system-riscv64, interleaved. Markdown lines."""
	img = os.path.join(LINUX_DIR, "Image")
	rd = os.path.join(LINUX_DIR, "initramfs.cpio.gz")
	qemu = shutil.which("qemu-system-riscv64")
	if not (os.path.exists(img) and os.path.exists(OPENSBI) and qemu):
		print("bench: no Linux image, OpenSBI or qemu-system-riscv64: no boot row", file=sys.stderr)
		return None
	app = "earlycon=sbi"
	sides = [
		("rvpmu --no-uarch, OpenSBI fw_jump", [rvpmu, "system", "--profile", "virt", "--no-uarch",
			"--bios", OPENSBI, "--kernel", img, "--initrd", rd, "--append", "console=hvc0 " + app]),
		("rvpmu --no-uarch, built-in SBI", [rvpmu, "system", "--profile", "virt", "--no-uarch",
			"--no-sbi-snapshot", "--kernel", img, "--initrd", rd, "--append", "console=hvc0 " + app]),
		("rvpmu with the virt models, built-in SBI", [rvpmu, "system", "--profile", "virt",
			"--no-sbi-snapshot", "--kernel", img, "--initrd", rd, "--append", "console=hvc0 " + app]),
		("rvpmu --no-uarch, built-in SBI, --smp 4", [rvpmu, "system", "--profile", "virt", "--no-uarch",
			"--smp", "4", "--no-sbi-snapshot", "--kernel", img, "--initrd", rd,
			"--append", "console=hvc0 " + app]),
		("rvpmu --no-uarch, OpenSBI fw_jump, --smp 4", [rvpmu, "system", "--profile", "virt",
			"--no-uarch", "--smp", "4", "--bios", OPENSBI, "--kernel", img, "--initrd", rd,
			"--append", "console=hvc0 " + app]),
		("qemu-system-riscv64 7.2, OpenSBI fw_jump", [qemu, "-M", "virt", "-cpu", "rv64,sscofpmf=true",
			"-smp", "1", "-m", "256M", "-nographic", "-monitor", "none", "-serial", "stdio",
			"-bios", OPENSBI, "-kernel", img, "-initrd", rd, "-append", "console=ttyS0 " + app]),
	]
	res = {name: [] for name, _ in sides}
	for _ in range(runs):
		for name, argv in sides:
			res[name].append(boot_once(argv, timeout))
			sys.stderr.write(".")
			sys.stderr.flush()
	rows, init = [], {}
	for name, _ in sides:
		ok = [r for r in res[name] if r]
		if len(ok) != len(res[name]):
			rows.append(f"| {name} | - | - | failed ({len(res[name]) - len(ok)} of {runs} runs) |")
			continue
		init[name] = statistics.median(r[0] for r in ok)
		rows.append(f"| {name} | {init[name]:.2f} | "
			    f"{statistics.median(r[1] for r in ok):.2f} | {ok[0][2]} |")
	smp = []
	for fw in ("built-in SBI", "OpenSBI fw_jump"):
		one, four = f"rvpmu --no-uarch, {fw}", f"rvpmu --no-uarch, {fw}, --smp 4"
		if one in init and four in init:
			r = init[four] / init[one]
			smp.append(f"- {fw}: 4 harts take {r:.2f}x one hart's CPU time to init "
				   f"(target: under 2x, {'met' if r < 2 else 'NOT met'})")
	return [
		"## Linux boot",
		"",
		f"The shared Linux 6.12 image (`../shared/linux/prebuilt`), {runs} runs each, "
		"interleaved. *to init* is the emulator's user+sys CPU time (from "
		"`/proc/PID/stat`) when the test init prints its first line; *to power-off* "
		"includes the init's perf tests and is from `wait4()`. QEMU runs with its "
		"defaults (no icount), one hart, `-cpu rv64,sscofpmf=true`.",
		"",
		"| machine | CPU s to init | CPU s to power-off | guest result |",
		"|---|---:|---:|---|",
	] + rows + [""] + (smp + [""] if smp else [])


def smc_section(rvpmu, prog, args, runs, timeout):
	"""The self-modifying workload translated and in the step loop,
	interleaved: Markdown lines, or None when a run failed."""
	sides = [("translated", [rvpmu, "run", "--"]), ("step", [rvpmu, "run", "--no-jit", "--"])]
	res = {name: [] for name, _ in sides}
	for _ in range(runs):
		for name, argv in sides:
			res[name].append(measure(argv + [prog] + args, timeout))
		sys.stderr.write(".")
		sys.stderr.flush()
	out0 = res["translated"][0]["out"]
	for name, _ in sides:
		bad = [r for r in res[name] if r["status"] != 0 or r["out"] != out0]
		if bad:
			print(f"bench: smc: {describe_failure(name, bad[0])} or its output differs",
			      file=sys.stderr)
			return None
	t = {name: statistics.median(r["cpu"] for r in res[name]) for name, _ in sides}
	lines = out0.decode(errors="replace").strip().splitlines()
	return [
		"## Self-modifying code",
		"",
		f"`{SMC}` (bench/workloads/{SMC}.c) rewrites a function on an RWX page "
		f"before each call, then runs FENCE.I; {runs} runs each, interleaved, "
		"median user+sys CPU s. A page the guest writes while it holds translated "
		"code goes to the step loop, so translated must not be slower than "
		"`--no-jit`; its C self-check runs translated either way.",
		"",
		"| rvpmu run CPU s | rvpmu run --no-jit CPU s | translated/step | checksum |",
		"|---:|---:|---:|---|",
		f"| {t['translated']:.3f} | {t['step']:.3f} | {t['translated'] / t['step']:.3f} | "
		f"`{lines[-1] if lines else ''}` |",
		"",
	]


SMP_BUSY = "smp-busy"
SMP_INSNS = 400_000_000


def smp_section(rvpmu, cc, runs, timeout):
	"""The same instruction budget on one busy hart and on four (the
	bare-metal smp-busy loop, ended by --max-insns), without and with the
	virt models, interleaved: Markdown lines, or None when a run failed."""
	src = os.path.join(SRC, SMP_BUSY + ".S")
	prog = os.path.join(OUTDIR, SMP_BUSY)
	if not os.path.exists(prog) or os.path.getmtime(prog) < os.path.getmtime(src):
		cmd = [cc, "-nostdlib", "-nostartfiles", "-static",
		       "-Wl,-N,-Ttext=0x80000000,--no-relax,--build-id=none,--no-warn-rwx-segments",
		       "-o", prog, src]
		print("bench: " + " ".join(cmd), file=sys.stderr)
		if subprocess.call(cmd) != 0:
			die(f"building {SMP_BUSY} failed")
	kinds = [("functional", [], SMP_INSNS), ("virt models", ["--profile", "virt"], SMP_INSNS // 4)]
	sides = [(k, n, [rvpmu, "system", "--bios", "none", "--smp", str(n), "--max-insns", str(budget)]
		  + extra + ["--kernel", prog]) for k, extra, budget in kinds for n in (1, 4)]
	res = {(k, n): [] for k, n, _ in sides}
	for _ in range(runs):
		for k, n, argv in sides:
			res[(k, n)].append(measure(argv, timeout))
			sys.stderr.write(".")
			sys.stderr.flush()
	rows = []
	for k, extra, budget in kinds:
		mips = {}
		for n in (1, 4):
			bad = [r for r in res[(k, n)] if r["status"] != 124 or b"instruction limit" not in r["err"]]
			if bad:
				print(f"bench: {SMP_BUSY} --smp {n} ({k}): exit {bad[0]['status']}: "
				      f"{bad[0]['err'].decode(errors='replace').strip()}", file=sys.stderr)
				return None
			mips[n] = budget / statistics.median(r["cpu"] for r in res[(k, n)]) / 1e6
		ratio = mips[4] / mips[1]
		rows.append(f"| {k} | {budget // 1_000_000} M | {mips[1]:.1f} | {mips[4]:.1f} | {ratio:.3f} | "
			    f"{'met' if ratio >= 0.85 else 'NOT met'} |")
	return [
		"## Many harts",
		"",
		f"`{SMP_BUSY}` (bench/workloads/{SMP_BUSY}.S): every hart runs the same loop over "
		"its own page, bare metal (`rvpmu system --bios none`), until `--max-insns` "
		f"(all harts together) ends the run; {runs} runs each, interleaved, MIPS = "
		"instructions / median user+sys CPU s. Target: four busy harts keep at least "
		"85% of one hart's MIPS (the round-robin of harts costs little).",
		"",
		"| mode | instructions | 1 hart MIPS | 4 harts MIPS | 4/1 | target |",
		"|---|---:|---:|---:|---:|---|",
	] + rows + [""]


THREADS_SRC = os.path.join(ROOT, "tests", "threads", "kernel.c")
THREADS_ITERS = 10_000_000     # checksum rounds of each of the four threads


def threads_section(rvpmu, runs, timeout):
	"""The threaded kernel of tests/threads (kernel.c): one thread on one
	hart against four threads on --cpus 4 with the same total work,
	functional and with the u74 models, interleaved: Markdown lines, or
	None when a run failed."""
	cc = os.environ.get("CC", "riscv64-linux-gnu-gcc")
	prog = os.path.join(OUTDIR, "threads-kernel")
	if not os.path.exists(prog) or os.path.getmtime(prog) < os.path.getmtime(THREADS_SRC):
		cmd = [cc, "-static", "-O2", "-pthread", "-o", prog, THREADS_SRC]
		print("bench: " + " ".join(cmd), file=sys.stderr)
		if subprocess.call(cmd) != 0:
			die("building the threads kernel failed")
	count = os.path.join(OUTDIR, "threads-kernel.count")
	kinds = [("functional", [rvpmu, "run", "--insn-count", count]),
		 ("u74 models", [rvpmu, "stat", "-q", "-x,", "-e", "instructions", "--profile", "u74", "-o", count])]
	shapes = [(1, ["1", str(4 * THREADS_ITERS)]), (4, ["4", str(THREADS_ITERS)])]
	res = {(k, n): [] for k, _ in kinds for n, _ in shapes}
	for _ in range(runs):
		for k, cmd in kinds:
			for n, args in shapes:
				r = measure(cmd + ["--cpus", str(n), prog] + args, timeout)
				with open(count) as f:   # run: the number; stat -x,: "# started on" then COUNT,,instructions,...
					lines = [l for l in f.read().splitlines() if l.strip() and not l.startswith("#")]
				first = lines[0].split(",")[0].strip() if lines else ""
				r["insns"] = int(first) if first.isdigit() else None
				res[(k, n)].append(r)
				sys.stderr.write(".")
				sys.stderr.flush()
	rows = []
	for k, _ in kinds:
		mips = {}
		for n, _ in shapes:
			bad = [r for r in res[(k, n)] if r["status"] != 0 or not r["insns"]]
			if bad:
				print(f"bench: threads kernel --cpus {n} ({k}): exit {bad[0]['status']}: "
				      f"{bad[0]['err'].decode(errors='replace').strip()}", file=sys.stderr)
				return None
			mips[n] = res[(k, n)][0]["insns"] / statistics.median(r["cpu"] for r in res[(k, n)]) / 1e6
		ratio = mips[4] / mips[1]
		rows.append(f"| {k} | {mips[1]:.1f} | {mips[4]:.1f} | {ratio:.3f} | "
			    f"{'met' if ratio >= 0.8 else 'NOT met'} |")
	return [
		"## Threads in user mode",
		"",
		"tests/threads/kernel.c: one thread doing all the work on one hart, and four "
		"threads each doing a quarter on `--cpus 4`; "
		f"{runs} runs each, interleaved, MIPS = retired instructions / median user+sys CPU s. "
		"Target: the four threads keep at least 80% of one thread's MIPS.",
		"",
		"| mode | 1 thread MIPS | 4 threads MIPS | 4/1 | target |",
		"|---|---:|---:|---:|---|",
	] + rows + [""]


def read_count(path):
	try:
		with open(path) as f:
			s = f.read().strip()
	except OSError:
		return None
	return int(s) if s.isdigit() else None


def describe_failure(tag, r):
	if r["timeout"]:
		return f"{tag} TIMEOUT"
	last = r["err"].decode(errors="replace").strip().splitlines()
	why = f": {last[-1][:80]}" if last else ""
	return f"{tag} exit {r['status']}{why}"


def bench_one(name, prog, args, runs, rv, qemu, timeout, extra):
	rvr, qr = [], []
	xr = {tag: [] for tag, _ in extra}
	for _ in range(runs):
		if rv:
			rvr.append(rv.run(prog, args))
			for tag, argv in extra:
				xr[tag].append(measure(argv + [prog] + args, timeout))
		qr.append(measure(qemu + [prog] + args, timeout))
		sys.stderr.write(".")
		sys.stderr.flush()
	row = {"name": name, "status": "ok", "notes": []}
	q0 = qr[0]
	row["qemu_cpu"] = statistics.median(r["cpu"] for r in qr)
	row["qemu_rss"] = max(r["rss"] for r in qr)
	lines = q0["out"].decode(errors="replace").strip().splitlines()
	row["checksum"] = lines[-1] if lines else ""
	if any(r["status"] != 0 or r["timeout"] for r in qr):
		bad = next(r for r in qr if r["status"] != 0 or r["timeout"])
		row["status"] = describe_failure("qemu", bad)
	if any(r["out"] != q0["out"] for r in qr):
		row["status"] = "qemu output unstable"
	if not rv:
		row.update(insns=None, rv_cpu=None, rv_rss=None)
		if row["status"] == "ok":
			row["status"] = "no rvpmu"
		return row
	row["modes"] = {}
	for tag, rs in xr.items():
		ok = all(r["status"] == 0 and r["out"] == q0["out"] for r in rs)
		row["modes"][tag] = statistics.median(r["cpu"] for r in rs) if ok else None
		if not ok:
			row["notes"].append(f"{tag} mode failed or its output differs: " +
					    describe_failure(tag, next(r for r in rs if r["status"] != 0 or r["out"] != q0["out"])))
	row["rv_cpu"] = statistics.median(r["cpu"] for r in rvr)
	row["rv_rss"] = max(r["rss"] for r in rvr)
	counts = sorted({r["insns"] for r in rvr if r["insns"] is not None})
	row["insns"] = counts[0] if len(counts) == 1 else None
	if len(counts) > 1:
		row["notes"].append("instruction count differs between runs: " +
				    ", ".join(str(c) for c in counts))
	bad = [r for r in rvr if r["status"] != 0 or r["timeout"]]
	if bad:
		fail = describe_failure("rvpmu", bad[0])
		row["status"] = fail if row["status"] == "ok" else fail + "; " + row["status"]
	elif row["status"] != "ok":
		pass  # qemu failed: no reference output to compare with
	elif any(r["out"] != q0["out"] for r in rvr):
		row["status"] = "MISMATCH"
		got = next(r for r in rvr if r["out"] != q0["out"])
		row["notes"].append("rvpmu stdout: " +
				    got["out"].decode(errors="replace").strip().replace("\n", " | ")[:200])
	return row


def fmt_rows(rows):
	"""Table cells as strings; the geomean row covers rows with status ok."""
	head = ["workload", "instructions", "rvpmu CPU s", "rvpmu MIPS", "qemu CPU s",
		"qemu MIPS", "rvpmu/qemu", "rvpmu RSS MiB", "qemu RSS MiB", "status"]
	out = []
	ratios = []

	def num(v, f):
		return "-" if v is None else f.format(v)

	for r in rows:
		ins = r["insns"]
		rvm = ins / r["rv_cpu"] / 1e6 if ins and r["rv_cpu"] else None
		qm = ins / r["qemu_cpu"] / 1e6 if ins and r["qemu_cpu"] else None
		# Same instruction count on both sides, so MIPS ratio = time ratio;
		# it is known even when the count is not.
		ratio = r["qemu_cpu"] / r["rv_cpu"] if r["rv_cpu"] else None
		if r["status"] != "ok":
			rvm = qm = ratio = None  # a failed run's speed means nothing
		if ratio:
			ratios.append(ratio)
		out.append([r["name"], "unknown" if ins is None and r["rv_cpu"] is not None else num(ins, "{:,}"),
			    num(r["rv_cpu"], "{:.3f}"), num(rvm, "{:.0f}"),
			    num(r["qemu_cpu"], "{:.3f}"), num(qm, "{:.0f}"),
			    num(ratio, "{:.3f}"),
			    num(r["rv_rss"] and r["rv_rss"] / 1024, "{:.1f}"),
			    num(r["qemu_rss"] / 1024, "{:.1f}"), r["status"]])
	if ratios:
		g = statistics.geometric_mean(ratios)
		out.append(["geomean", "", "", "", "", "", f"{g:.3f}", "", "",
			    f"{len(ratios)} of {len(rows)} rows"])
	return head, out


def fmt_modes(rows, tags):
	"""The modes table: idle-PMU cost against the PMU-less build, and the
	u74 models' throughput against functional mode and qemu."""
	head = ["workload", "step loop CPU s", "step MIPS", "step/qemu"]
	if "nopmu" in tags:
		head += ["no-PMU build CPU s", "idle PMU cost"]
	head += ["counting CPU s", "counting/functional"]
	head += ["u74 models CPU s", "models MIPS", "models/functional", "models/qemu"]
	if "record" in tags:
		head += ["record CPU s", "record MIPS", "record/qemu"]
	out, cost, rel, vq, sq, rq, cf = [], [], [], [], [], [], []

	def num(v, f):
		return "-" if v is None else f.format(v)

	for r in rows:
		if r["status"] != "ok":
			continue
		m = r["modes"]
		st = m.get("step")
		smips = r["insns"] / st / 1e6 if st and r["insns"] else None
		sr = r["qemu_cpu"] / st if st else None
		if sr:
			sq.append(sr)
		cells = [r["name"], num(st, "{:.3f}"), num(smips, "{:.0f}"), num(sr, "{:.3f}")]
		if "nopmu" in tags:
			c = st / m["nopmu"] - 1 if m.get("nopmu") and st else None
			if c is not None:
				cost.append(1 + c)
			cells += [num(m.get("nopmu"), "{:.3f}"), num(c and 100 * c, "{:+.1f}%")]
		ct = m.get("count")
		c = r["rv_cpu"] / ct if ct else None
		if c:
			cf.append(c)
		cells += [num(ct, "{:.3f}"), num(c, "{:.3f}")]
		t = m.get("models")
		fr = r["rv_cpu"] / t if t else None
		qr = r["qemu_cpu"] / t if t else None
		if t:
			rel.append(fr)
			vq.append(qr)
		mips = r["insns"] / t / 1e6 if t and r["insns"] else None
		cells += [num(t, "{:.3f}"), num(mips, "{:.0f}"), num(fr, "{:.3f}"), num(qr, "{:.3f}")]
		if "record" in tags:
			rc = m.get("record")
			q = r["qemu_cpu"] / rc if rc else None
			if q:
				rq.append(q)
			rm = r["insns"] / rc / 1e6 if rc and r["insns"] else None
			cells += [num(rc, "{:.3f}"), num(rm, "{:.0f}"), num(q, "{:.3f}")]
		out.append(cells)
	if out:
		g = ["geomean", "", "", num(sq and statistics.geometric_mean(sq), "{:.3f}")]
		if "nopmu" in tags:
			g += ["", num(cost and 100 * (statistics.geometric_mean(cost) - 1), "{:+.1f}%")]
		g += ["", num(cf and statistics.geometric_mean(cf), "{:.3f}")]
		g += ["", "", num(rel and statistics.geometric_mean(rel), "{:.3f}"),
		      num(vq and statistics.geometric_mean(vq), "{:.3f}")]
		if "record" in tags:
			g += ["", "", num(rq and statistics.geometric_mean(rq), "{:.3f}")]
		out.append(g)
	return head, out


def text_table(head, rows):
	w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
	lines = ["  ".join(str(c).rjust(w[i]) if i else str(c).ljust(w[i])
			   for i, c in enumerate(r)) for r in [head] + rows]
	lines.insert(1, "  ".join("-" * x for x in w))
	return "\n".join(lines)


def md_table(head, rows):
	lines = ["| " + " | ".join(head) + " |",
		 "|" + "|".join(["---"] + ["---:"] * (len(head) - 2) + ["---"]) + "|"]
	for r in rows:
		lines.append("| " + " | ".join(str(c) for c in r) + " |")
	return "\n".join(lines)


def cmd_line(argv):
	try:
		return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT,
				      timeout=30).stdout.strip().splitlines()[0]
	except (OSError, IndexError, subprocess.SubprocessError):
		return "unknown"


def machine():
	model = "unknown"
	try:
		with open("/proc/cpuinfo") as f:
			for line in f:
				if line.startswith("model name"):
					model = line.split(":", 1)[1].strip()
					break
	except OSError:
		pass
	return f"{os.cpu_count()} CPUs (nproc), {model}, Linux {platform.release()} {platform.machine()}"


def main():
	global PIN
	runs = env_int("BENCH_RUNS", 3, 1, 1000)
	scale = env_int("BENCH_SCALE", 100, 1, 100000)
	timeout = env_int("BENCH_TIMEOUT", 900, 1, 86400)
	out_md = os.environ.get("BENCH_OUT") or os.path.join(ROOT, "bench", "results.md")
	filt = [x for x in os.environ.get("BENCH_FILTER", "").replace(" ", ",").split(",") if x]
	for f in filt:
		if f not in WORKLOADS + [SMC]:
			die(f"BENCH_FILTER: no workload {f!r} (have: {', '.join(WORKLOADS + [SMC])})")
	names = [w for w in WORKLOADS if not filt or w in filt]
	cc = os.environ.get("CC_RISCV") or "riscv64-linux-gnu-gcc"
	qemu = (os.environ.get("QEMU") or "qemu-riscv64").split()
	rvpmu = os.environ.get("RVPMU") or os.path.join(ROOT, "build", "rvpmu")
	if not shutil.which(cc):
		die(f"{cc} not found (run `make setup`)")
	if not shutil.which(qemu[0]):
		die(f"{qemu[0]} not found (run `make setup`)")
	nopmu = os.environ.get("RVPMU_NOPMU") or os.path.join(ROOT, "build-nopmu", "rvpmu")
	if not os.access(nopmu, os.X_OK):
		print(f"bench: {nopmu} not found (`make nopmu`); no idle-PMU column", file=sys.stderr)
		nopmu = None
	rv = None
	extra = []
	if os.access(rvpmu, os.X_OK):
		rv = Rvpmu([rvpmu], timeout)
		extra = modes(rvpmu, nopmu)
	else:
		print(f"bench: {rvpmu} not found; measuring qemu only", file=sys.stderr)

	os.makedirs(OUTDIR, exist_ok=True)
	progs = {n: build(cc, n) for n in names}
	args = [str(scale)]
	pin_env = os.environ.get("BENCH_CPU", "")
	allowed = sorted(os.sched_getaffinity(0))
	if pin_env not in ("", "none") and (not pin_env.isdigit() or int(pin_env) not in allowed):
		die(f"BENCH_CPU={pin_env!r} is not one of the allowed CPUs {allowed} or 'none'")
	rows, pins = [], []
	for n in names:
		if pin_env == "none":
			pins.append(f"{n}: not pinned")
		elif pin_env:
			PIN = int(pin_env)
			pins.append(f"{n}: CPU {PIN} (BENCH_CPU)")
		else:
			PIN, t = quiet_cpu()
			pins.append(f"{n}: CPU {PIN} (spin " +
				    ", ".join(f"CPU {c} {s:.3f} s" for c, s in t.items()) + ")")
		sys.stderr.write(f"bench: {pins[-1]}\nbench: {n} ")
		rows.append(bench_one(n, progs[n], args, runs, rv, qemu, timeout, extra))
		sys.stderr.write(" " + rows[-1]["status"] + "\n")

	head, cells = fmt_rows(rows)
	print(text_table(head, cells))
	tags = [t for t, _ in extra]
	mhead, mcells = fmt_modes(rows, tags) if rv else ([], [])
	if mcells:
		print()
		print(text_table(mhead, mcells))
	cost = model_cost() if rv else None
	if cost:
		print()
		print(cost)
	for r in rows:
		for note in r["notes"]:
			print(f"note: {r['name']}: {note}")

	now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
	gcc_v = cmd_line([cc, "--version"])
	qemu_v = cmd_line(qemu + ["--version"])
	rev = cmd_line(["git", "rev-parse", "--short", "HEAD"])
	dirty = cmd_line(["git", "status", "--porcelain", "--untracked-files=no"])
	rev_s = (rev if rev != "unknown" else "no commit") + (" (work tree modified)" if dirty != "unknown" else "")
	md = [
		"# rvpmu benchmark results",
		"",
		f"- Date: {now}",
		f"- Machine: {machine()}",
		f"- rvpmu: `{os.path.relpath(rvpmu, ROOT) if rv else 'not built'}` at git {rev_s}",
		f"- qemu: {qemu_v}",
		f"- Workloads: built with `{cc} {' '.join(CFLAGS)}` ({gcc_v}), "
		f"run with argument `{scale}` (size in percent; 100 = full size)",
		f"- Runs: {runs} per emulator per workload, interleaved rvpmu, qemu, rvpmu, qemu, ...",
		"- Pinning: each workload's runs all on one CPU, chosen just before them as the "
		"allowed CPU a fixed Python loop (2M iterations, best of three) runs fastest on "
		"(`BENCH_CPU` sets one, `none` turns it off); the Linux boots on the last one: " +
		"; ".join(pins),
		"",
		"How it was measured: `bench/run.sh` (`make bench`). Each run is one child "
		"process; its CPU time is user+sys from `wait4()` resource usage (not wall "
		"time) and its peak RSS is `ru_maxrss`. The table shows the median CPU time "
		"and the largest peak RSS over the runs. The instruction count is the exact "
		"retired-instruction count rvpmu writes with `rvpmu run --insn-count FILE`; "
		"both MIPS columns divide that same count by each emulator's median CPU "
		"time, so rvpmu/qemu = qemu CPU s / rvpmu CPU s (above 1 means rvpmu is "
		"faster). Every run's stdout (which ends with the workload's checksum) must "
		"equal the first qemu run's, and every exit status must be 0, otherwise the "
		"row is marked MISMATCH or with the failure and left out of the geomean.",
		"",
		md_table(head, cells),
		"",
	]
	if mcells:
		md += [
			"## Modes",
			"",
			"The same runs, interleaved with the table above. *step loop*: "
			"`rvpmu run --no-jit`, every instruction in the interpreter (what "
			"system mode, CTR and `--trace` run), *step/qemu* = qemu CPU s / "
			"step-loop CPU s. *no-PMU "
			"build*: `rvpmu run --no-jit` of `build-nopmu/rvpmu` (`make nopmu`: "
			"the same sources with `-DRVPMU_NO_PMU`, which compiles out all "
			"counting: no counter updates, no overflow horizon, no event-class "
			"dispatch); *idle PMU cost* = step-loop CPU s / no-PMU CPU s - 1, "
			"the price of a PMU with nothing programmed (mcycle and minstret "
			"still count), measured on the step loop because translated blocks "
			"hold no PMU code at all. *counting*: `rvpmu stat --no-uarch` "
			"(perf's default events without models: cycles = instructions, "
			"branches; translated counting blocks), *counting/functional* = "
			"functional CPU s / counting CPU s. *u74 models*: `rvpmu stat --profile u74 -e "
			"cycles` (caches, TLBs, branch predictor and pipeline timing all on, "
			"the counter driven through the SBI; translated counting blocks, "
			"their timing memoised); *models/functional* = "
			"functional CPU s / models CPU s (the share of functional "
			"throughput kept), *models/qemu* = qemu CPU s / models CPU s. "
			"*record*: `rvpmu record -q -o /dev/null` (the virt profile's models, "
			"cycles sampled about 4000 times per modelled second, each sample "
			"written), *record/qemu* = qemu CPU s / record CPU s.",
			"",
			md_table(mhead, mcells),
			"",
		]
	if cost:
		md += ["## Model cost per event", "", MODEL_COST_DOC, "", "```", cost, "```", ""]
	smc = smc_section(rvpmu, build(cc, SMC), args, runs, timeout) if rv and (not filt or SMC in filt) else None
	if smc:
		print("\n".join(smc))
		md += smc
	many = smp_section(rvpmu, cc, runs, timeout) if rv and not filt else None
	if many:
		print("\n".join(many))
		md += many
	threads = threads_section(rvpmu, runs, timeout) if rv and not filt else None
	if threads:
		print("\n".join(threads))
		md += threads
	boot = linux_boot(rvpmu, runs, timeout) if rv and not filt else None
	if boot:
		print("\n".join(boot))
		md += boot
	notes = [f"- {r['name']}: {note}" for r in rows for note in r["notes"]]
	if notes:
		md += ["Notes:", ""] + notes + [""]
	md += ["Checksums (qemu stdout, last line):", ""]
	md += [f"- {r['name']}: `{r['checksum']}`" for r in rows] + [""]
	with open(out_md, "w") as f:
		f.write("\n".join(md))
	print(f"bench: wrote {out_md}", file=sys.stderr)
	return 0 if all(r["status"] in ("ok", "no rvpmu") for r in rows) else 1


if __name__ == "__main__":
	sys.exit(main())
