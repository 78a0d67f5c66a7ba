#!/bin/sh
# PMP (Physical Memory Protection) conformance, differential against QEMU.
# Each M-mode program tests/pmp/<prog>.c is linked with tests/bare's
# crt0.S + rt.c + link.ld (image at 0x80000000) and pmp-asm.S + pmp-lib.c,
# and runs on "$RVPMU system --bios none" and on qemu-system-riscv64
# -bios none. The S-mode payload pmp-opensbi.c is linked with tests/sbi's
# runtime at 0x80200000 and runs under Debian's OpenSBI 1.1 fw_jump on
# both. Every program prints "ok N what" / "FAIL N what: got G want W" and
# a summary line "checks K, all passed" / "checks K, first failing F".
#
# One line per program and platform on stdout:
#   PASS pmp rvpmu P | PASS pmp qemu P      all checks passed
#   PASS pmp qemu-deviation P: check N: ...  QEMU 7.2 failed exactly the
#       checks listed for P below, each with the recorded value (never
#       reported as "PASS pmp qemu P")
#   PASS pmp diff P                          rvpmu's and QEMU's check lines
#       are identical once the recorded deviations are left out
#   PASS pmp entries-<platform> pmp-csr: N   the detected entry count is
#       the one recorded for that platform
#   FAIL pmp <platform> P: why
# docs/pmp-tests.md describes every program and every deviation.
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/pmp
mkdir -p "$out" || exit 1
CC=${PMP_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_SYSTEM:-qemu-system-riscv64}
FW=${OPENSBI_FW:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
T=${PMP_TIMEOUT:-30}
PROGS="pmp-csr pmp-match pmp-fetch pmp-walk pmp-lock"
PAYLOADS="pmp-opensbi"
bare=$here/../bare
sbi=$here/../sbi

# QEMU 7.2 deviations from the ratified privileged spec (20211203), seen
# with the commands in run():
# program|check|value printed after "got" ('*' = any)|what QEMU does
DEVIATIONS='pmp-csr|3|0x30|pmpaddr16..63 (entries QEMU lacks) raise illegal instruction; unimplemented entries must be read-only zero
pmp-csr|5|0x6|pmpcfg4..14 raise illegal instruction instead of reading 0
pmp-csr|16|0xffffffffffffffff|pmpaddr bits 63:54 are writable (RV64: they read 0)
pmp-csr|18|0x2|pmpcfg R=0 W=1 (reserved) is stored as written
pmp-csr|19|0x6|same with X: W|X reads back W|X
pmp-csr|20|0x61|pmpcfg bits 6:5 (reserved) are writable
pmp-csr|21|0x7f|same: 0x7f reads back 0x7f
pmp-csr|25|0x1a|NAPOT with R=0 W=1 reads back as written
pmp-match|17|0x1a|R=0 W=1 is stored (S run)
pmp-match|19|0x0|R=0 W=1 grants the S store (no fault)
pmp-match|30|0x1a|R=0 W=1 is stored (U run)
pmp-match|32|0x0|R=0 W=1 grants the U store (no fault)
pmp-match|132|0x5|AMO to an X-only region raises load access fault 5, not store/AMO 7
pmp-fetch|4|0x0|PMP is checked per translation block, not per instruction: falling through into a non-executable hole executes it
pmp-fetch|5|0x0|same, second run
pmp-fetch|6|0x0|same from U
pmp-fetch|8|0x0|same after re-closing the hole
pmp-fetch|9|0x0|running off the end of an X region in mid-page executes past it
pmp-fetch|10|0x0|same from U
pmp-fetch|11|0x0|same, entered at the last instruction of the region
pmp-walk|4|0x5|AMO whose page-table walk PMP refuses raises load access fault 5, not 7
pmp-walk|11|0x0|the walk'"'"'s A/D write is not checked by PMP: a load succeeds with the table read-only to S
pmp-walk|12|0x0|same for a store
pmp-walk|13|0x200000cf|so the PTE in the read-only table gets A and D set
pmp-walk|15|0xc0|follows from 12: D is already set'

# entries the hart implements, as pmp-csr detects them ("info pmp_entries")
ENTRIES_rvpmu=64
ENTRIES_qemu=16

build() {	# build PROG: $out/PROG.elf
	case $1 in
	pmp-opensbi)
		$CC -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -nostdlib \
			-nostartfiles -ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror \
			-I"$sbi" -T "$sbi/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
			-o "$out/$1.elf" "$sbi/crt0.S" "$sbi/rt.c" "$sbi/pmu-asm.S" \
			"$here/opensbi-asm.S" "$here/$1.c" >&2 ;;
	*)
		$CC -march=rv64gc_zicsr_zifencei -mabi=lp64d -mcmodel=medany -nostdlib \
			-nostartfiles -ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror \
			-I"$bare" -I"$here" -T "$bare/link.ld" -Wl,--no-relax \
			-Wl,--no-warn-rwx-segments -o "$out/$1.elf" "$bare/crt0.S" "$bare/rt.c" \
			"$here/pmp-asm.S" "$here/pmp-lib.c" "$here/$1.c" >&2 ;;
	esac
}

run() {	# run PLATFORM PROG: output in $out/PROG.PLATFORM.out, status in $rc
	o=$out/$2.$1.out
	case $1 in
	qemu) timeout "$T" "$QEMU" -machine virt -bios none -nographic -monitor none \
		-kernel "$out/$2.elf" </dev/null >"$o" 2>"${o%.out}.err" ;;
	rvpmu) timeout "$T" "$RVPMU" system --bios none --kernel "$out/$2.elf" \
		--max-insns 50000000 </dev/null >"$o" 2>"${o%.out}.err" ;;
	qemu-opensbi) timeout "$T" "$QEMU" -machine virt -bios "$FW" -nographic -monitor none \
		-kernel "$out/$2.elf" </dev/null >"$o" 2>"${o%.out}.err" ;;
	rvpmu-opensbi) timeout "$T" "$RVPMU" system --bios "$FW" --kernel "$out/$2.elf" \
		--max-insns 50000000 </dev/null >"$o" 2>"${o%.out}.err" ;;
	esac
	rc=$?
	# OpenSBI's console turns \n into \r\n
	tr -d '\r' <"$o" >"$o.tmp" && mv "$o.tmp" "$o"
}

why() {	# why OUT RC: reason for a FAIL line
	if [ "$2" = 124 ]; then
		printf 'timed out after %ss' "$T"; return
	fi
	f=$(grep -m1 -E '^(FAIL|FATAL) ' "$1")
	if [ -n "$f" ]; then
		printf 'exit %s, %s' "$2" "$f"
	elif grep -q '^checks ' "$1"; then
		printf 'exit %s' "$2"
	else
		f=$(cat "${1%.out}.err" "$1" 2>/dev/null | grep -v '^ok ' | grep . | head -n 1)
		printf 'exit %s before finishing: %s' "$2" "${f:-no output}"
	fi
}

passed() {	# passed OUT RC: exit 0 and every check passed
	[ "$2" = 0 ] && grep -q '^checks [0-9]*, all passed$' "$1" && ! grep -q '^FATAL' "$1"
}

expected() {	# the deviation lines of PROG
	printf '%s\n' "$DEVIATIONS" | awk -F'|' -v t="$1" '$1 == t'
}

# deviation PROG: succeed iff the QEMU run failed exactly the listed checks
# with the listed values; then print the deviation lines
deviation() {
	o=$out/$1.qemu.out
	exp=$(expected "$1")
	[ -n "$exp" ] || return 1
	[ "$rc" != 124 ] && ! grep -q '^FATAL' "$o" || return 1
	grep -q '^checks [0-9]*, first failing [0-9]*$' "$o" || return 1
	got=$(grep '^FAIL ' "$o" | sed -n 's/^FAIL \([0-9]*\) .*: got \([^ ]*\) want [^ ]*$/\1|\2/p')
	[ "$(printf '%s\n' "$got" | wc -l)" = "$(grep -c '^FAIL ' "$o")" ] || return 1
	[ "$(printf '%s\n' "$got" | wc -l)" = "$(printf '%s\n' "$exp" | wc -l)" ] || return 1
	printf '%s\n' "$exp" | while IFS='|' read -r t n v d; do
		g=$(printf '%s\n' "$got" | awk -F'|' -v n="$n" '$1 == n { print $2 }')
		[ -n "$g" ] || exit 1
		[ "$v" = '*' ] || [ "$v" = "$g" ] || exit 1
	done || return 1
	printf '%s\n' "$exp" | while IFS='|' read -r t n v d; do
		echo "PASS pmp qemu-deviation $t: check $n: $d"
	done
}

# report PLATFORM PROG: PASS/FAIL line(s) for one run
report() {
	o=$out/$2.$1.out
	if passed "$o" "$rc"; then
		echo "PASS pmp $1 $2"
		case $1 in qemu*) if [ -n "$(expected "$2")" ]; then
			echo "FAIL pmp qemu-deviation $2: recorded deviation no longer seen (update suite.sh and docs/pmp-tests.md)"
		fi ;; esac
	elif [ "$1" = qemu ] && deviation "$2"; then
		:
	else
		echo "FAIL pmp $1 $2: $(why "$o" "$rc")"
		grep -E '^(FAIL|FATAL) ' "$o" | sed "s/^/[pmp $1 $2] /" >&2
	fi
	if [ "$2" = pmp-csr ]; then
		eval want=\$ENTRIES_$1
		g=$(sed -n 's/^info pmp_entries \([0-9]*\)$/\1/p' "$o" | head -n 1)
		if [ "$g" = "$want" ]; then
			echo "PASS pmp entries-$1 pmp-csr: $g"
		else
			echo "FAIL pmp entries-$1 pmp-csr: detected ${g:-nothing}, recorded $want"
		fi
	fi
}

# checklines OUT PROG: the check lines, without the recorded deviations
checklines() {
	skip=$(expected "$2" | cut -d'|' -f2 | tr '\n' ' ')
	grep -E '^(ok|FAIL) [0-9]+ ' "$1" | awk -v s=" $skip" '{ if (index(s, " " $2 " ") == 0) print }'
}

# diffcheck PROG RVPMU_PLATFORM QEMU_PLATFORM: the differential line
diffcheck() {
	a=$out/$1.$2.out b=$out/$1.$3.out
	if [ ! -s "$a" ] || [ ! -s "$b" ]; then
		echo "FAIL pmp diff $1: a run produced no output"
		return
	fi
	checklines "$a" "$1" >"$out/$1.$2.lines"
	checklines "$b" "$1" >"$out/$1.$3.lines"
	if [ ! -s "$out/$1.$2.lines" ]; then
		echo "FAIL pmp diff $1: no check lines"
	elif cmp -s "$out/$1.$2.lines" "$out/$1.$3.lines"; then
		echo "PASS pmp diff $1"
	else
		echo "FAIL pmp diff $1: $(diff "$out/$1.$2.lines" "$out/$1.$3.lines" | grep '^[<>]' | head -n 1)"
	fi
}

have_qemu=1
command -v "$QEMU" >/dev/null 2>&1 || have_qemu=0
[ "$have_qemu" = 1 ] && "$QEMU" --version | head -n 1 >&2
for p in $PROGS $PAYLOADS; do
	case $p in pmp-opensbi) plats="rvpmu-opensbi qemu-opensbi" ;; *) plats="rvpmu qemu" ;; esac
	if ! build "$p"; then
		for pl in $plats; do echo "FAIL pmp $pl $p: build failed"; done
		continue
	fi
	ran=0
	for pl in $plats; do
		case $pl in
		qemu*) if [ "$have_qemu" = 0 ]; then
				echo "FAIL pmp $pl $p: $QEMU not installed"; continue
			fi ;;
		rvpmu*) if [ ! -x "$RVPMU" ]; then
				echo "FAIL pmp $pl $p: $RVPMU not built"; continue
			fi ;;
		esac
		case $pl in *opensbi) if [ ! -r "$FW" ]; then
				echo "FAIL pmp $pl $p: $FW missing"; continue
			fi ;;
		esac
		run "$pl" "$p"
		report "$pl" "$p"
		ran=$((ran + 1))
	done
	[ "$ran" = 2 ] && diffcheck "$p" $plats
done
exit 0
