#!/bin/sh
# perf_event_open(2) inside user-mode guests (src/linux/perf_event.c):
# pe_test.c's exact counts, group reads, ioctls, user page and errno
# checks under rvpmu run and rvpmu stat in each --user-counters mode;
# region.S's own count against `rvpmu stat -e instructions:u`; SIGILL for
# counter reads that --user-counters forbids. qemu-riscv64 runs the same
# binaries for the record only (NOTE lines, never counted as passes).
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/perf-event"
mkdir -p "$out"
pass() { echo "PASS perf-event $1"; }
fail() { echo "FAIL perf-event $1: $2"; }

build() {  # output source flags...
	o=$1 src=$2
	shift 2
	if [ ! -f "$out/$o" ] || [ "$src" -nt "$out/$o" ]; then
		riscv64-linux-gnu-gcc -static "$@" -o "$out/$o" "$src" >&2 ||
			{ fail build "$src does not build"; exit 0; }
	fi
}
build pe_test pe_test.c -O2 -Wall
build region region.S -nostdlib
build rdctr rdctr.c -O2

# pe_test under one configuration: its "ok"/"not ok" lines become checks;
# it must end with its summary line and exit 0.
guest() {  # label expected-mode models-word rvpmu-args...
	label=$1 mode=$2 models=$3
	shift 3
	"$RVPMU" "$@" "$out/pe_test" "$mode" "$models" >"$out/$label.out" 2>"$out/$label.err"
	rc=$?
	sed -n -e "s/^ok \(.*\)/PASS perf-event $label: \1/p" \
	       -e "s/^not ok \([^:]*\): \(.*\)/FAIL perf-event $label: \1: \2/p" "$out/$label.out"
	if grep -q '^info 0 failed$' "$out/$label.out" && [ "$rc" = 0 ]; then
		pass "$label: completes"
	else
		fail "$label: completes" "exit $rc, $(tail -1 "$out/$label.err")"
	fi
}
guest run-all all nomodels run
guest run-off off nomodels run --user-counters=off
guest run-mmap mmap nomodels run --user-counters mmap
guest stat-all all models stat -q -e instructions:u -o /dev/null
guest stat-nouarch-mmap mmap nomodels stat -q --no-uarch --user-counters=mmap -e cycles,instructions -o /dev/null

# region.S: the guest's own count of its region (derived in region.S: 2N+4
# = 2004) and stat's count of the whole program (2026); the 22 retired
# outside the region are the instructions region.S lists.
"$RVPMU" stat -q -x, -e instructions:u "$out/region" >"$out/region.bin" 2>"$out/region.csv"
rc=$?
own=$(od -An -tu8 "$out/region.bin" | tr -d ' ')
total=$(awk -F, '$3 == "instructions:u" { print $1 }' "$out/region.csv")
[ "$rc" = 0 ] && [ "$own" = 2004 ] && pass "region.S: guest count = 2004" ||
	fail "region.S: guest count" "exit $rc, got '$own', want 2004"
[ "$total" = 2026 ] && pass "region.S: stat instructions:u = 2026" ||
	fail "region.S: stat instructions:u" "got '$total', want 2026"
[ -n "$own" ] && [ -n "$total" ] && [ $((total - own)) = 22 ] &&
	pass "region.S: stat - guest = 22 (instructions outside the region)" ||
	fail "region.S: stat - guest" "stat '$total', guest '$own', want a difference of 22"
own2=$("$RVPMU" run "$out/region" | od -An -tu8 | tr -d ' ')
[ "$own2" = 2004 ] && pass "region.S under run: guest count = 2004" ||
	fail "region.S under run" "got '$own2'"

# counter CSR reads from U: exit 0 when allowed, SIGILL (132) when not.
# Linux's riscv_pmu_sbi keeps TIME readable in every mode (the vDSO).
csr() {  # want-status what rvpmu-args...
	want=$1 what=$2
	shift 2
	"$RVPMU" "$@" "$out/rdctr" "$what" >/dev/null 2>"$out/rdctr.err"
	rc=$?
	[ "$rc" = "$want" ] && pass "$* $what: exit $want" ||
		fail "$* $what" "exit $rc, want $want ($(head -1 "$out/rdctr.err"))"
}
for w in cycle time instret hpm3; do csr 0 $w run; done
csr 0 cycle run --user-counters=all
csr 132 cycle run --user-counters=off
csr 132 instret run --user-counters=off
csr 132 hpm3 run --user-counters=off
csr 0 time run --user-counters=off
csr 132 cycle run --user-counters=mmap
csr 0 time run --user-counters=mmap
csr 132 cycle stat -q -o /dev/null --user-counters=off
csr 132 instret stat -q -o /dev/null --user-counters mmap
csr 0 cycle stat -q -o /dev/null
"$RVPMU" run --user-counters=off "$out/rdctr" cycle >/dev/null 2>"$out/rdctr.err"
grep -q 'fatal signal SIGILL' "$out/rdctr.err" && pass "off: the SIGILL is reported" ||
	fail "off: the SIGILL is reported" "$(head -1 "$out/rdctr.err")"

# bad option values: a clear message and exit 2
for bad in --user-counters=bogus --user-counters= --user-countersx; do
	"$RVPMU" run "$bad" "$out/rdctr" time >/dev/null 2>"$out/bad.err"
	rc=$?
	[ "$rc" = 2 ] && grep -q '^rvpmu run: ' "$out/bad.err" && pass "run $bad: exit 2 with a message" ||
		fail "run $bad" "exit $rc: $(head -1 "$out/bad.err")"
done
"$RVPMU" stat --user-counters >/dev/null 2>"$out/bad.err"
rc=$?
[ "$rc" = 2 ] && grep -q 'needs a value' "$out/bad.err" && pass "stat --user-counters without a value: exit 2" ||
	fail "stat --user-counters without a value" "exit $rc: $(head -1 "$out/bad.err")"

# qemu-riscv64, for the record: what QEMU user mode does with the same
# programs (never a pass or a fail)
if command -v qemu-riscv64 >/dev/null; then
	timeout 60 qemu-riscv64 "$out/pe_test" all nomodels >"$out/qemu.out" 2>&1
	echo "NOTE perf-event qemu-riscv64 pe_test: exit $?, $(grep -c '^ok' "$out/qemu.out") ok," \
		"$(grep -c '^not ok' "$out/qemu.out") not ok; $(grep -m1 '^info open' "$out/qemu.out")"
	timeout 60 qemu-riscv64 "$out/region" >"$out/qemu.bin" 2>&1
	echo "NOTE perf-event qemu-riscv64 region.S: exit $? (perf_event_open failed: exit 1)"
	timeout 60 qemu-riscv64 "$out/rdctr" cycle >"$out/qemu.txt" 2>&1
	echo "NOTE perf-event qemu-riscv64 rdcycle: exit $?, $(head -1 "$out/qemu.txt")"
else
	echo "NOTE perf-event qemu-riscv64 not installed: no comparison"
fi
exit 0
