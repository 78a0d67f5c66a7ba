#!/bin/sh
# Bare-metal conformance tests of Control Transfer Records (Smctr/Ssctr)
# on rvpmu's system mode with the virt profile (which has Smctr). Each
# tests/ctr-guest/<test>.c (and <test>.S if present) is linked with ../bare/crt0.S + ../bare/rt.c
# and ctr-lib.S + ctr-lib.c into an M-mode image at 0x80000000 that prints
# one line per numbered check and exits through the sifive_test finisher:
# 0 when every check passed, else the number of the first failing check.
#
# One line per test and platform on stdout:
#   PASS ctr-guest rvpmu T          all checks passed
#   FAIL ctr-guest rvpmu T: why
#   SKIP ctr-guest rvpmu T: what    a check the hart cannot run (printed by T)
#   SKIP ctr-guest qemu T: why      QEMU has no CTR; never counted as a pass
# docs/ctr-coverage.md "Bare-metal checks" lists every check.
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/ctr-guest
mkdir -p "$out" || exit 1
CC=${BARE_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_SYSTEM:-qemu-system-riscv64}
T=${BARE_TIMEOUT:-30}
TESTS="ctr-csr ctr-record ctr-freeze ctr-virt"
bare=$here/../bare

build() {	# build TEST: $out/TEST.elf (TEST.S too, if there is one)
	s=; [ -f "$here/$1.S" ] && s=$here/$1.S
	$CC -march=rv64gc_zicsr_zifencei -mabi=lp64d -mcmodel=medany -nostdlib -nostartfiles \
		-ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror -I"$bare" \
		-T "$bare/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
		-o "$out/$1.elf" "$bare/crt0.S" "$bare/rt.c" "$here/ctr-lib.S" "$here/ctr-lib.c" \
		"$here/$1.c" $s >&2
}

# The virt core without its models (--no-uarch): MISP stays 0 and a cycle
# is an instruction, so every field of every record is derivable from the
# programs' code alone.
run_rvpmu() {	# run_rvpmu TEST: output in $out/TEST.rvpmu.out, status in $rc
	timeout "$T" "$RVPMU" system --bios none --profile virt --no-uarch --kernel "$out/$1.elf" \
		--max-insns 50000000 </dev/null >"$out/$1.rvpmu.out" 2>"$out/$1.rvpmu.err"
	rc=$?
}

# QEMU 7.2 implements no CTR: mctrctl (0x34e) raises illegal instruction.
# Probe with the first program and report SKIP, never PASS.
run_qemu() {	# run_qemu TEST: output in $out/TEST.qemu.out, status in $rc
	timeout "$T" "$QEMU" -machine virt -cpu rv64,sscofpmf=true -bios none -nographic \
		-monitor none -icount shift=0 -kernel "$out/$1.elf" \
		</dev/null >"$out/$1.qemu.out" 2>"$out/$1.qemu.err"
	rc=$?
}

why() {	# why OUT RC: reason for a FAIL line
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

passed() {	# passed OUT RC
	[ "$2" = 0 ] && grep -q '^checks [0-9]*, all passed$' "$1"
}

have_qemu=1
command -v "$QEMU" >/dev/null 2>&1 || have_qemu=0
for t in $TESTS; do
	if ! build "$t"; then
		echo "FAIL ctr-guest rvpmu $t: build failed"
		continue
	fi
	if [ ! -x "$RVPMU" ]; then
		echo "FAIL ctr-guest rvpmu $t: $RVPMU not built"
	else
		run_rvpmu "$t"
		o=$out/$t.rvpmu.out
		if passed "$o" "$rc"; then
			echo "PASS ctr-guest rvpmu $t"
		else
			echo "FAIL ctr-guest rvpmu $t: $(why "$o" "$rc")"
			grep '^FAIL ' "$o" | sed "s/^/[ctr-guest rvpmu $t] /" >&2
		fi
		grep '^SKIP ' "$o" | sed "s/^SKIP /SKIP ctr-guest rvpmu $t: /"
	fi
	if [ "$have_qemu" = 0 ]; then
		echo "SKIP ctr-guest qemu $t: $QEMU not installed"
		continue
	fi
	run_qemu "$t"
	o=$out/$t.qemu.out
	if passed "$o" "$rc"; then
		# would mean QEMU gained CTR: report it so the table gets updated
		echo "FAIL ctr-guest qemu $t: QEMU passed; it was not known to have CTR (update suite.sh)"
	elif grep -q '^FAIL [0-9]* device tree lists smctr' "$o"; then
		echo "SKIP ctr-guest qemu $t: $("$QEMU" --version | head -n 1) has no Smctr (not in its device tree; $(grep -c '^FAIL ' "$o") checks fail)"
	else
		echo "FAIL ctr-guest qemu $t: $(why "$o" "$rc")"
	fi
done
exit 0
