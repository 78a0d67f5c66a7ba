#!/bin/sh
# Bare-metal conformance tests of the privileged architecture and the PMU.
# Each tests/bare/<test>.c is linked with crt0.S + rt.c into an M-mode image
# at 0x80000000 (QEMU virt map) that prints one line per numbered check on
# the UART and exits through the sifive_test finisher: 0 when every check
# passed, else the number of the first failing check.
#
# Every test runs on qemu-system-riscv64 (deterministic with -icount) and on
# "$RVPMU system". One line per test and platform on stdout:
#   PASS bare qemu T | PASS bare rvpmu T      all checks passed
#   PASS bare qemu-deviation T: check N: ...  QEMU failed exactly the checks
#       listed for T in the table below, each with the recorded value; a
#       deviation is never reported as "PASS bare qemu T"
#   FAIL bare <platform> T: why
# docs/bare-tests.md describes every check and every deviation.
#
# Another suite of such tests (tests/bare-h) runs them through this script,
# setting BARE_SUITE (its name in the lines above), BARE_DIR (where its
# tests are), BARE_TESTS, BARE_DEVIATIONS, BARE_QEMU_CPU and BARE_PROFILE
# (rvpmu's core profile options).
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
S=${BARE_SUITE:-bare}
src=${BARE_DIR:-$here}
out=$BUILD/tests/$S
mkdir -p "$out" || exit 1
CC=${BARE_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_SYSTEM:-qemu-system-riscv64}
T=${BARE_TIMEOUT:-30}
TESTS=${BARE_TESTS:-"priv-csr priv-modes pmu-counters pmu-counteren pmu-sscofpmf pmu-smcntrpmf sstc"}

# QEMU 7.2 deviations from the spec, observed with the command in run_qemu:
# test|check|value the test prints after "got" ('*' = any)|what QEMU does
DEVIATIONS='priv-csr|8|0x2|mstatus.MPP keeps the reserved value 2 (no WARL legalization)
priv-csr|27|0x0|csrrs with rs1!=x0 holding 0 does not trap on read-only cycle (the write is decided from the register value)
priv-csr|39|0x200|csrs/csrc of mip write back the SEIP line of the PLIC, which then stays set
priv-modes|26|0x20000|mret to S leaves mstatus.MPRV set (priv 1.12 requires MPRV=0)
pmu-counters|2|0xb13|mhpmcounter19..31 raise illegal instruction in M (with pmu-num=16 they do not exist instead of reading 0)
pmu-counters|6|0x3e9|csrw minstret, X is followed by the writing instruction'"'"'s own increment (next read X+1)
pmu-counters|7|0x7d6|same: X+1+5 after csrw minstret, X and 5 instructions
pmu-counters|8|*|mcountinhibit.IR=1 does not stop minstret
pmu-counters|11|0x2|mcountinhibit bit 1 is writable (must read 0)
pmu-counters|12|*|mcountinhibit.CY=1 does not stop mcycle
pmu-counters|16|0x1f5|csrw mhpmcounter3, X (event 2) is followed by the writing instruction'"'"'s increment (X+1)
pmu-counters|18|0x0|a second counter programmed with event 2 does not count (one counter per event)
pmu-counters|19|*|mcountinhibit.HPM3=1 does not stop mhpmcounter3
pmu-counters|22|*|minstret moves on after the csrw that sets mcountinhibit.IR (by an unrelated amount)
pmu-counters|23|*|the csrw that clears mcountinhibit.IR is followed by an unrelated jump of minstret
pmu-counters|26|*|mcycle moves on after the csrw that sets mcountinhibit.CY
pmu-counters|27|*|the csrw that clears mcountinhibit.CY is followed by an unrelated jump of mcycle
pmu-counters|30|*|mhpmcounter3 moves on after the csrw that sets mcountinhibit.HPM3
pmu-counters|31|*|the csrw that clears mcountinhibit.HPM3 is followed by an unrelated jump of mhpmcounter3
pmu-counters|33|*|the csrw that sets mhpmevent3 to 0 moves mhpmcounter3 by an unrelated amount
pmu-counters|35|*|the csrw that sets mhpmevent3 to 2 moves mhpmcounter3 by an unrelated amount
pmu-sscofpmf|4|0x15|counter preset by csrw also counts the csrw itself (wraps one event early)
pmu-sscofpmf|8|0x15|same on the second wrap
sstc|14|0x20|with menvcfg.STCE = 0 the stimecmp compare still drives STIP (the spec: STIP reverts to its behaviour without Sstc)
pmu-sscofpmf|24|0x8|scountovf read in M is masked by mcounteren (M must see every OF bit)
pmu-sscofpmf|26|0xb|mhpmevent.MINH ignored: counts in M
pmu-sscofpmf|28|0xb|mhpmevent.SINH ignored: counts in S
pmu-sscofpmf|30|0xb|mhpmevent.UINH ignored: counts in U
pmu-sscofpmf|34|0x1|MINH ignored: the read after the csrw that sets it counts
pmu-sscofpmf|35|0x2|MINH ignored: the csrw that clears it counts, as does the read before
pmu-sscofpmf|37|0xd|xINH ignored, and the ecall that traps counts as retired: 13 = read + mret + 10 nops + ecall
pmu-sscofpmf|38|0xd|same, to U
pmu-sscofpmf|39|0xd|same, S only
pmu-sscofpmf|40|0xd|same, U only
pmu-sscofpmf|41|0xd|no filter: the ecall that traps counts as retired (13, not 12)'
[ -n "${BARE_SUITE+set}" ] && DEVIATIONS=$BARE_DEVIATIONS

build() {	# build TEST: $out/TEST.elf
	$CC -march=rv64gc_zicsr_zifencei -mabi=lp64d -mcmodel=medany -nostdlib -nostartfiles \
		-ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror -I"$here" \
		-T "$here/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
		-o "$out/$1.elf" "$here/crt0.S" "$here/rt.c" "$src/$1.c" >&2
}

run_qemu() {	# run_qemu TEST: output in $out/TEST.qemu.out, status in $rc
	timeout "$T" "$QEMU" -machine virt -cpu "${BARE_QEMU_CPU:-rv64,sscofpmf=true}" -bios none -nographic \
		-monitor none -icount shift=0 -kernel "$out/$1.elf" \
		</dev/null >"$out/$1.qemu.out" 2>"$out/$1.qemu.err"
	rc=$?
}

run_rvpmu() {	# run_rvpmu TEST: output in $out/TEST.rvpmu.out, status in $rc
	prof=${BARE_PROFILE:-}
	[ "$1" = sstc ] && prof="--profile virt --no-uarch"   # a core with Sstc
	timeout "$T" "$RVPMU" system $prof --bios none --kernel "$out/$1.elf" --max-insns 50000000 \
		</dev/null >"$out/$1.rvpmu.out" 2>"$out/$1.rvpmu.err"
	rc=$?
}

# why OUT RC: reason for a FAIL line from a test's output and status
why() {
	if [ "$2" = 124 ]; then
		printf 'timed out after %ss' "$T"; return
	fi
	f=$(grep -m1 '^FAIL ' "$1")
	if [ -n "$f" ]; then
		printf 'exit %s, %s' "$2" "$f"
	elif grep -q '^checks ' "$1"; then
		printf 'exit %s' "$2"
	else
		printf 'exit %s before finishing: %s' "$2" \
			"$(cat "${1%.out}.err" "$1" 2>/dev/null | grep -v '^ok ' | head -n 1)"
	fi
}

passed() {	# passed OUT RC: exit 0 and the test said all checks passed
	[ "$2" = 0 ] && grep -q '^checks [0-9]*, all passed$' "$1"
}

# qemu_deviation TEST: print the deviation lines and succeed iff the run
# failed exactly the documented checks with the documented values
qemu_deviation() {
	o=$out/$1.qemu.out
	exp=$(printf '%s\n' "$DEVIATIONS" | awk -F'|' -v t="$1" '$1 == t')
	[ -n "$exp" ] || return 1
	grep -q '^checks [0-9]*, first failing [0-9]*$' "$o" || return 1
	got=$(grep '^FAIL ' "$o" | sed -n 's/^FAIL \([0-9]*\) .*: got \([^ ]*\) want [^ ]*$/\1|\2/p')
	[ "$(printf '%s\n' "$got" | wc -l)" = "$(grep -c '^FAIL ' "$o")" ] || return 1
	[ "$(printf '%s\n' "$got" | wc -l)" = "$(printf '%s\n' "$exp" | wc -l)" ] || return 1
	first=$(printf '%s\n' "$got" | head -n 1 | cut -d'|' -f1)
	[ "$rc" = "$first" ] || return 1
	printf '%s\n' "$exp" | while IFS='|' read -r t n v d; do
		g=$(printf '%s\n' "$got" | awk -F'|' -v n="$n" '$1 == n { print $2 }')
		[ -n "$g" ] || exit 1
		[ "$v" = '*' ] || [ "$v" = "$g" ] || exit 1
	done || return 1
	printf '%s\n' "$exp" | while IFS='|' read -r t n v d; do
		echo "PASS $S qemu-deviation $t: check $n: $d"
	done
}

have_qemu=1
command -v "$QEMU" >/dev/null 2>&1 || have_qemu=0
[ "$have_qemu" = 1 ] && "$QEMU" --version | head -n 1 >&2
for t in $TESTS; do
	if ! build "$t"; then
		echo "FAIL $S qemu $t: build failed"
		echo "FAIL $S rvpmu $t: build failed"
		continue
	fi
	if [ "$have_qemu" = 0 ]; then
		echo "FAIL $S qemu $t: $QEMU not installed"
	else
		run_qemu "$t"
		o=$out/$t.qemu.out
		if passed "$o" "$rc"; then
			echo "PASS $S qemu $t"
			if printf '%s\n' "$DEVIATIONS" | grep -q "^$t|"; then
				echo "FAIL $S qemu-deviation $t: documented deviation no longer seen (update the table and docs/bare-tests.md)"
			fi
		elif ! qemu_deviation "$t"; then
			echo "FAIL $S qemu $t: $(why "$o" "$rc")"
			grep '^FAIL ' "$o" | sed "s/^/[$S qemu $t] /" >&2
		fi
	fi
	if [ ! -x "$RVPMU" ]; then
		echo "FAIL $S rvpmu $t: $RVPMU not built"
		continue
	fi
	run_rvpmu "$t"
	o=$out/$t.rvpmu.out
	if passed "$o" "$rc"; then
		echo "PASS $S rvpmu $t"
	else
		echo "FAIL $S rvpmu $t: $(why "$o" "$rc")"
		grep '^FAIL ' "$o" | sed "s/^/[$S rvpmu $t] /" >&2
	fi
done
exit 0
