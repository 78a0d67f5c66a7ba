#!/usr/bin/env python3
"""make bench-system: system mode against qemu-system-riscv64.

1. The bench workloads (bench/workloads/{compute,memory,branchy}.c) built
   bare-metal with riscv64-unknown-elf-gcc and picolibc (bench/system/rt.c:
   M mode, MMU off, the checksum to the ns16550a UART at 0x10000000, exit
   through the sifive_test device at 0x100000), run under
   `qemu-system-riscv64 -M virt -bios none`, `rvpmu system --bios none`
   (functional) and `rvpmu stat -a --profile u74 -- system --bios none`
   (every u74 model on), interleaved. Every run's UART output must equal
   the first qemu run's.
2. The shared Linux 6.12 image (tests/linux/lib.sh's places) booted with an
   initramfs whose /init (bench/system/poweroff-init.c) prints one line and
   powers off at once: qemu-system-riscv64 with Debian's OpenSBI fw_jump,
   rvpmu with the built-in SBI and with OpenSBI fw_jump, each without and
   with the virt profile's models. No image or no OpenSBI: no boot rows.

CPU time is user+sys of the child (bench/run.py's measure() and
boot_once()). Writes bench/results-system.md (BENCH_SYSTEM_OUT).

Settings: BENCH_RUNS (default 3; medians), BENCH_SCALE (workload size in
percent, default 100; baked into the image), BENCH_FILTER (workload names,
comma-separated; "linux" for the boot rows), BENCH_TIMEOUT (seconds per
run, default 900), BENCH_CPU (as bench/run.py), RVPMU_LINUX_DIR, RVPMU,
QEMU_SYSTEM."""
import datetime
import gzip
import os
import shutil
import statistics
import subprocess
import sys

import run as bench  # measure(), boot_once(), pinning, the machine line, tables

ROOT = bench.ROOT
HERE = os.path.join(ROOT, "bench", "system")
OUT = os.path.join(ROOT, "build", "bench-system")
CC = os.environ.get("CC_RISCV_ELF", "riscv64-unknown-elf-gcc")
LINUX_CC = os.environ.get("CC_RISCV") or "riscv64-linux-gnu-gcc"
CFLAGS = ["--specs=picolibc.specs", "--picolibc-buildtype=release", "-O2", "-g", "-march=rv64gc", "-mabi=lp64d",
	  "-mcmodel=medany", "-Wall", "-Wextra"]
# picolibc.ld's regions: code and the .data image in the first 2 MiB of
# RAM, then .data, .bss and the stack up to 64 MiB (memory's 32 MiB ring
# and its matrices fit; both machines get 128 MiB)
LDFLAGS = ["-Wl,--defsym=__flash=0x80000000,--defsym=__flash_size=0x200000,"
	   "--defsym=__ram=0x80200000,--defsym=__ram_size=0x3e00000"]
RAM_MB = 128
RVPMU = os.environ.get("RVPMU") or os.path.join(ROOT, "build", "rvpmu")
QEMU = os.environ.get("QEMU_SYSTEM") or "qemu-system-riscv64"
OPENSBI = bench.OPENSBI
REPORT = os.environ.get("BENCH_SYSTEM_OUT") or os.path.join(ROOT, "bench", "results-system.md")
BOOT_MARK = b"==== rvpmu bench init ===="
APPEND = "console=ttyS0 earlycon=sbi"


def log(*a):
	print("bench-system:", *a, file=sys.stderr, flush=True)


def newer(out, deps):
	return os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(d) for d in deps)


def compile_(cmd):
	log(" ".join(cmd))
	if subprocess.call(cmd) != 0:
		bench.die(f"building {cmd[-1]} failed")


def build_image(name, scale):
	"""The workload linked with rt.c for this scale, unless up to date."""
	src = os.path.join(bench.SRC, name + ".c")
	rt = os.path.join(HERE, "rt.c")
	out = os.path.join(OUT, f"{name}-{scale}")
	if newer(out, [src, rt, os.path.join(bench.SRC, "common.h")]):
		return out
	obj, rto = out + ".o", out + "-rt.o"
	# the workload's main() becomes bench_main(), which rt.c's main calls
	compile_([CC] + CFLAGS + ["-Dmain=bench_main", "-c", "-o", obj, src])
	compile_([CC] + CFLAGS + [f'-DBENCH_SCALE="{scale}"', "-c", "-o", rto, rt])
	compile_([CC] + CFLAGS + LDFLAGS + ["-o", out, obj, rto])
	return out


def cpio_newc(entries):
	"""An uncompressed newc archive of (name, mode, data, (rdev major,
	minor)): what gen_init_cpio makes, without root for /dev/console."""
	out = bytearray()
	for ino, (name, mode, data, rdev) in enumerate(entries + [("TRAILER!!!", 0, b"", (0, 0))], 1):
		nm = name.encode() + b"\0"
		fields = (0 if name == "TRAILER!!!" else ino, mode, 0, 0, 1, 0, len(data),
			  0, 0, rdev[0], rdev[1], len(nm), 0)
		out += b"070701" + "".join(f"{v:08x}" for v in fields).encode() + nm
		out += b"\0" * (-len(out) % 4)
		out += data
		out += b"\0" * (-len(out) % 4)
	return bytes(out)


def build_initramfs():
	src = os.path.join(HERE, "poweroff-init.c")
	exe = os.path.join(OUT, "poweroff-init")
	rd = os.path.join(OUT, "initramfs-poweroff.cpio.gz")
	if newer(rd, [src]):
		return rd
	compile_([LINUX_CC, "-O2", "-static", "-nostdlib", "-nostartfiles", "-fno-stack-protector",
		  "-Wall", "-Wextra", "-o", exe, src])
	with open(exe, "rb") as f:
		init = f.read()
	arc = cpio_newc([("dev", 0o40755, b"", (0, 0)), ("dev/console", 0o20600, b"", (5, 1)),
			 ("init", 0o100755, init, (0, 0))])
	with open(rd, "wb") as f:
		f.write(gzip.compress(arc, mtime=0))
	return rd


def linux_image():
	"""The shared prebuilt image's directory, looked for where
	tests/linux/lib.sh's linux_image looks; None without one."""
	for d in [os.environ.get("RVPMU_LINUX_DIR") or "/nonexistent", "/work/shared/linux/prebuilt",
		  os.path.join(ROOT, "shared", "linux", "prebuilt"),
		  os.path.join(ROOT, "..", "shared", "linux", "prebuilt")]:
		if os.path.isfile(os.path.join(d, "Image")):
			return os.path.normpath(d)
	return None


def read_insns(path):
	"""The instructions count of `rvpmu stat -x,` output, or None."""
	try:
		with open(path) as f:
			for line in f:
				v = line.split(",")
				if len(v) > 2 and v[2] == "instructions" and v[0].isdigit():
					return int(v[0])
	except OSError:
		pass
	return None


def bare_modes(img, cnt):
	system = ["system", "-q", "--bios", "none", "-m", str(RAM_MB), "--kernel", img]
	return [
		("qemu", [QEMU, "-M", "virt", "-bios", "none", "-m", f"{RAM_MB}M", "-display", "none",
			  "-monitor", "none", "-serial", "stdio", "-kernel", img]),
		("functional", [RVPMU] + system),
		("u74", [RVPMU, "stat", "-a", "--profile", "u74", "-e", "instructions", "-x,",
			 "-o", cnt, "--"] + system),
	]


def bench_workload(name, img, runs, timeout):
	cnt = os.path.join(OUT, name + ".stat")
	modes = bare_modes(img, cnt)
	res = {m: [] for m, _ in modes}
	insns = set()
	for _ in range(runs):
		for m, argv in modes:
			res[m].append(bench.measure(argv, timeout))
			if m == "u74":
				insns.add(read_insns(cnt))
			sys.stderr.write(".")
			sys.stderr.flush()
	want = res["qemu"][0]["out"]
	status = "ok"
	for m, _ in modes:
		bad = [r for r in res[m] if r["status"] != 0 or r["timeout"] or r["out"] != want]
		if bad:
			r = bad[0]
			status = (bench.describe_failure(m, r) if r["status"] or r["timeout"]
				  else f"{m}: output differs from qemu's")
			log(f"{name}: {status}: {r['err'].decode(errors='replace').strip()[-300:]}")
			break
	cpu = {m: statistics.median(r["cpu"] for r in res[m]) for m, _ in modes}
	lines = want.decode(errors="replace").strip().splitlines()
	n = insns.pop() if len(insns) == 1 else None
	return {"name": name, "cpu": cpu, "insns": n, "status": status,
		"checksum": lines[-1] if lines else ""}


def bare_table(rows):
	head = ["workload", "instructions", "qemu-system CPU s", "qemu MIPS", "functional CPU s",
		"functional MIPS", "functional/qemu", "u74 CPU s", "u74 MIPS", "u74/qemu",
		"u74/functional", "status"]
	out, geo = [], {"f": [], "u": [], "uf": []}

	def mips(n, t):
		return f"{n / t / 1e6:.0f}" if n and t else "-"

	for r in rows:
		c = r["cpu"]
		f, u = c["qemu"] / c["functional"], c["qemu"] / c["u74"]
		uf = c["functional"] / c["u74"]
		if r["status"] == "ok":
			geo["f"].append(f)
			geo["u"].append(u)
			geo["uf"].append(uf)
		ok = r["status"] == "ok"
		out.append([r["name"], f"{r['insns']:,}" if r["insns"] else "?",
			    f"{c['qemu']:.3f}", mips(r["insns"], c["qemu"]),
			    f"{c['functional']:.3f}", mips(r["insns"], c["functional"]),
			    f"{f:.3f}" if ok else "-", f"{c['u74']:.3f}", mips(r["insns"], c["u74"]),
			    f"{u:.3f}" if ok else "-", f"{uf:.3f}" if ok else "-", r["status"]])
	g = {k: statistics.geometric_mean(v) if v else None for k, v in geo.items()}
	out.append(["geomean", "", "", "", "", "", f"{g['f']:.3f}" if g["f"] else "-", "", "",
		    f"{g['u']:.3f}" if g["u"] else "-", f"{g['uf']:.3f}" if g["uf"] else "-",
		    f"{len(geo['f'])} of {len(rows)} rows"])
	return head, out, g


def boot_sides(img, rd):
	kernel = ["--kernel", os.path.join(img, "Image"), "--initrd", rd, "--append", APPEND]

	def rv(*opts):
		return [RVPMU, "system", "-q", "-m", "256"] + list(opts) + kernel

	builtin, opensbi = ["--no-sbi-snapshot"], ["--bios", OPENSBI]
	virt = ["--profile", "virt"]
	return [
		("qemu-system-riscv64, OpenSBI fw_jump", "qemu", "OpenSBI", [
			QEMU, "-M", "virt", "-cpu", "rv64,sscofpmf=true", "-smp", "1", "-m", "256M",
			"-display", "none", "-monitor", "none", "-serial", "stdio", "-bios", OPENSBI,
			"-kernel", os.path.join(img, "Image"), "-initrd", rd, "-append", APPEND]),
		("rvpmu, built-in SBI", "functional", "built-in SBI", rv(*builtin)),
		("rvpmu --profile virt (models), built-in SBI", "virt", "built-in SBI", rv(*builtin, *virt)),
		("rvpmu, OpenSBI fw_jump", "functional", "OpenSBI", rv(*opensbi)),
		("rvpmu --profile virt (models), OpenSBI fw_jump", "virt", "OpenSBI", rv(*opensbi, *virt)),
	]


def linux_boots(runs, timeout):
	"""Markdown lines of the boot section, or a line saying why there is none."""
	img = linux_image()
	if not img:
		log("no shared Linux image (RVPMU_LINUX_DIR, ../shared/linux/prebuilt): no boot rows")
		return ["## Linux boot", "", "Skipped: no shared Linux image found "
			"(`RVPMU_LINUX_DIR`, `../shared/linux/prebuilt`).", ""], []
	if not os.path.exists(OPENSBI) or not shutil.which(QEMU):
		log(f"no {OPENSBI} or no {QEMU}: no boot rows")
		return ["## Linux boot", "", f"Skipped: no `{OPENSBI}` or no `{QEMU}`.", ""], []
	rd = build_initramfs()
	sides = boot_sides(img, rd)
	res = {s[0]: [] for s in sides}
	for _ in range(runs):
		for name, _, _, argv in sides:
			res[name].append(bench.boot_once(argv, timeout, BOOT_MARK))
			sys.stderr.write(".")
			sys.stderr.flush()
	sys.stderr.write("\n")
	t, rows = {}, []
	for name, kind, fw, _ in sides:
		ok = [r for r in res[name] if r and r[3] == 0]
		if len(ok) != runs:
			rows.append([name, "-", "-", "-", f"failed ({runs - len(ok)} of {runs} runs)"])
			continue
		t[(kind, fw)] = statistics.median(r[0] for r in ok)
		rows.append([name, f"{t[(kind, fw)]:.2f}", f"{statistics.median(r[1] for r in ok):.2f}",
			     "", "ok"])
	q = t.get(("qemu", "OpenSBI"))
	for row, (name, kind, fw, _) in zip(rows, sides):
		if q and (kind, fw) in t and kind != "qemu":
			row[3] = f"{q / t[(kind, fw)]:.3f}"
	targets = []
	for fw in ("built-in SBI", "OpenSBI"):
		if ("virt", fw) in t and ("functional", fw) in t:
			r = t[("virt", fw)] / t[("functional", fw)]
			targets.append(f"- {fw}: the virt models take {r:.2f}x the CPU time to init "
				       f"of the run without them (target: at most 2x, "
				       f"{'met' if r <= 2 else 'NOT met'})")
		if q and ("functional", fw) in t:
			r = q / t[("functional", fw)]
			targets.append(f"- {fw}: without models, qemu-system CPU s / rvpmu CPU s to init = "
				       f"{r:.3f} (target: at least 1, i.e. no slower than qemu-system; "
				       f"{'met' if r >= 1 else 'NOT met'})")
	md = [
		"## Linux boot to init",
		"",
		f"The shared Linux 6.12 image (`{img}/Image`) with an initramfs whose "
		"`/init` (bench/system/poweroff-init.c, no libc) prints one line and "
		"powers off at once; kernel command line `" + APPEND + "` on every "
		f"machine, one hart, 256 MiB. {runs} runs each, interleaved. *to init* is the "
		"emulator's user+sys CPU s (`/proc/PID/stat`, 10 ms ticks) when the "
		"init's line reaches the console; *to power-off* adds the kernel's "
		"power-off path and is from `wait4()`. *qemu/X* = qemu-system CPU s to "
		"init / X's (above 1: faster than qemu-system). QEMU runs with its "
		"defaults (no icount), `-cpu rv64,sscofpmf=true`, Debian's OpenSBI "
		"fw_jump; rvpmu's built-in SBI runs with `--no-sbi-snapshot` as in "
		"tests/linux.",
		"",
		bench.md_table(["machine", "CPU s to init", "CPU s to power-off", "qemu/X", "status"], rows),
		"",
	] + targets + [""]
	return md, targets


def main():
	runs = bench.env_int("BENCH_RUNS", 3, 1, 100)
	scale = bench.env_int("BENCH_SCALE", 100, 1, 100000)
	timeout = bench.env_int("BENCH_TIMEOUT", 900, 1, 86400)
	filt = [x for x in os.environ.get("BENCH_FILTER", "").replace(" ", ",").split(",") if x]
	for f in filt:
		if f not in bench.WORKLOADS + ["linux"]:
			bench.die(f"BENCH_FILTER: no workload {f!r} (have: "
				  f"{', '.join(bench.WORKLOADS + ['linux'])})")
	names = [w for w in bench.WORKLOADS if not filt or w in filt]
	for tool in (CC, QEMU):
		if not shutil.which(tool):
			bench.die(f"{tool} not found (run `make setup`)")
	if not os.access(RVPMU, os.X_OK):
		bench.die(f"{RVPMU} is missing: make all first")
	os.makedirs(OUT, exist_ok=True)
	pin_env = os.environ.get("BENCH_CPU", "")
	pins = []

	def pin(what):
		if pin_env == "none":
			pins.append(f"{what}: not pinned")
		elif pin_env:
			bench.PIN = int(pin_env)
			pins.append(f"{what}: CPU {bench.PIN} (BENCH_CPU)")
		else:
			bench.PIN, _ = bench.quiet_cpu()
			pins.append(f"{what}: CPU {bench.PIN}")
		log(pins[-1])

	rows = []
	for n in names:
		img = build_image(n, scale)
		pin(n)
		sys.stderr.write(f"bench-system: {n} ")
		rows.append(bench_workload(n, img, runs, timeout))
		sys.stderr.write(" " + rows[-1]["status"] + "\n")
	boot, boot_targets = [], []
	if not filt or "linux" in filt:
		pin("Linux boots")
		boot, boot_targets = linux_boots(runs, timeout)

	md_bare = []
	targets = []
	if rows:
		head, cells, g = bare_table(rows)
		print(bench.text_table(head, cells))
		if g["f"]:
			targets.append(f"- Bare metal, functional: geomean qemu-system CPU s / rvpmu CPU s = "
				       f"{g['f']:.3f} (target: at least 1.0, {'met' if g['f'] >= 1 else 'NOT met'})")
		if g["u"]:
			targets.append(f"- Bare metal, u74 models: geomean qemu-system CPU s / rvpmu CPU s = "
				       f"{g['u']:.3f} (target: at least 0.3, {'met' if g['u'] >= 0.3 else 'NOT met'})")
		md_bare = [
			"## Bare-metal workloads",
			"",
			"bench/workloads/{compute,memory,branchy}.c built with "
			f"`{CC} {' '.join(CFLAGS)}` and picolibc against bench/system/rt.c "
			"(picolibc's crt0: stack, .data, .bss, TLS, mstatus.FS; M mode, MMU off; "
			"the workload's output to the ns16550a UART at 0x10000000, its exit "
			"status to the sifive_test device at 0x100000), scale "
			f"`{scale}` (the Linux build's argv[1]), {RAM_MB} MiB. "
			f"{runs} runs per mode, interleaved, median user+sys CPU s from `wait4()`. "
			"*qemu-system*: `qemu-system-riscv64 -M virt -bios none -kernel IMAGE` "
			"(no icount); *functional*: `rvpmu system --bios none --kernel IMAGE`; "
			"*u74*: `rvpmu stat -a --profile u74 -e instructions -x, -o FILE -- "
			"system --bios none --kernel IMAGE` (caches, TLBs, branch predictor and "
			"pipeline timing all on, counted from outside). *instructions* is the "
			"u74 runs' count of retired instructions (the same in every run); every "
			"MIPS column divides it by that mode's median CPU s. *X/qemu* = "
			"qemu-system CPU s / X CPU s (above 1: faster than qemu-system); "
			"*u74/functional* = functional CPU s / u74 CPU s. Every run's UART "
			"output must equal the first qemu-system run's and every exit status "
			"must be 0, or the row says which failed and is left out of the geomeans.",
			"",
			bench.md_table(head, cells),
			"",
		]
	now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
	rev = bench.cmd_line(["git", "rev-parse", "--short", "HEAD"])
	dirty = bench.cmd_line(["git", "status", "--porcelain", "--untracked-files=no"])
	rev_s = rev + (" (work tree modified)" if dirty != "unknown" else "")
	md = [
		"# rvpmu system mode against qemu-system-riscv64",
		"",
		f"- Date: {now}",
		f"- Machine: {bench.machine()}",
		f"- rvpmu: `{os.path.relpath(RVPMU, ROOT)}` at git {rev_s}",
		f"- qemu: {bench.cmd_line([QEMU, '--version'])}",
		f"- Compilers: {bench.cmd_line([CC, '--version'])}; "
		f"{bench.cmd_line([LINUX_CC, '--version'])} (the Linux /init)",
		"- Method: `bench/system.py` (`make bench-system`); each run is one child "
		"process, its CPU time user+sys (not wall time); "
		f"{runs} runs per mode, interleaved, medians.",
		"- Pinning: each group's runs on one CPU, the allowed CPU a fixed Python loop "
		"runs fastest on just before them (as `make bench`; `BENCH_CPU`): " + "; ".join(pins),
		"",
		"## Targets (issue 39, reported, not asserted)",
		"",
	] + (targets + boot_targets or ["- none measured"]) + [""] + md_bare + boot
	if rows:
		md += ["Checksums (qemu-system UART output, last line):", ""]
		md += [f"- {r['name']}: `{r['checksum']}`" for r in rows] + [""]
	print("\n".join(boot + [""] + targets))
	with open(REPORT, "w") as f:
		f.write("\n".join(md))
	log(f"wrote {REPORT}")
	return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
	sys.exit(main())
