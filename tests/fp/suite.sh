#!/bin/sh
# FP differential test: every F and D instruction, in every static rounding
# mode and the dynamic one, on generated operands (tests/fp/gen.c), run by a
# riscv64 guest (tests/fp/guest.c) under qemu-riscv64 (the reference) and
# under "$RVPMU run"; plus the same cases through src/hart/fpu.c on the host
# (tests/unit/fpu_test.c), once with the SSE engine and once software-only.
# One PASS/FAIL line per instruction and engine, diagnostics to stderr.
cd "$(dirname "$0")/../.." || exit 1
: "${RVPMU:=$PWD/build/rvpmu}" "${BUILD:=$PWD/build}"
out=$BUILD/tests/fp
mkdir -p "$out" || exit 1
CC=${CC:-gcc}
HOSTFLAGS="-std=gnu11 -O2 -Wall -Wextra -Werror -Iinclude -Isrc/hart -Itests/fp"

build_fail() { echo "FAIL fp build $1: see stderr"; exit 0; }

$CC $HOSTFLAGS -o "$out/gen" tests/fp/gen.c -lm >&2 || build_fail gen
"$out/gen" "$out/cases.bin" "$out/cases.txt" >&2 || build_fail cases
$CC $HOSTFLAGS -o "$out/fpu_test" tests/unit/fpu_test.c src/hart/fpu.c >&2 ||
	build_fail fpu_test
$CC $HOSTFLAGS -DFPU_SOFTONLY=1 -o "$out/fpu_test_soft" tests/unit/fpu_test.c \
	src/hart/fpu.c >&2 || build_fail fpu_test_soft
riscv64-linux-gnu-gcc -static -O2 -nostdlib -ffreestanding -fno-builtin \
	-march=rv64gc -mabi=lp64d -Itests/fp -o "$out/guest" tests/fp/guest.c >&2 ||
	build_fail guest

# reference results
rm -f "$out/qemu.out"
if ! timeout 60 qemu-riscv64 "$out/guest" < "$out/cases.bin" > "$out/qemu.out"; then
	echo "fp: qemu-riscv64 failed" >&2
	: > "$out/qemu.out"
fi

# compare LABEL OUTPUT NOTE: one line per group of cases.txt
compare() {
	awk -v ref="$out/qemu.out" -v got="$2" -v label="$1" -v note="$3" '
	{
		g = $1
		if (!(g in tot))
			order[n++] = g
		tot[g]++
		r = (getline l1 < ref) > 0 ? l1 : "(none)"
		o = (getline l2 < got) > 0 ? l2 : "(none)"
		if (r != o || r == "(none)") {
			bad[g]++
			if (!(g in first))
				first[g] = sprintf("%s rm=%s frm=%s a=%s b=%s c=%s: qemu %s, got %s",
					$2, $3, $4, $5, $6, $7, r, o)
		}
	}
	END {
		extra = (getline l2 < got) > 0
		for (i = 0; i < n; i++) {
			g = order[i]
			if (g in bad)
				printf "FAIL %s %s: %d of %d cases differ%s; first %s\n",
					label, g, bad[g], tot[g], note, first[g]
			else if (extra)
				printf "FAIL %s %s: more output lines than cases%s\n", label, g, note
			else
				printf "PASS %s %s\n", label, g
		}
	}' "$out/cases.txt"
}

# fpu.c on the host: spec-table spot checks, then both engines vs QEMU
"$out/fpu_test" || echo "fp: fpu_test spot checks failed" >&2
"$out/fpu_test" "$out/cases.bin" > "$out/host.out"
compare "fp fpu.c" "$out/host.out" ""
"$out/fpu_test_soft" "$out/cases.bin" > "$out/soft.out"
compare "fp fpu.c/soft" "$out/soft.out" ""

# the emulator
if [ -x "$RVPMU" ]; then
	timeout 60 "$RVPMU" run "$out/guest" < "$out/cases.bin" > "$out/rvpmu.out"
	rc=$?
	note=""
	[ "$rc" = 0 ] || note=" (rvpmu exited $rc)"
	compare "fp" "$out/rvpmu.out" "$note"
	if [ "$rc" = 0 ]; then
		echo "PASS fp guest exit status"
	else
		echo "FAIL fp guest exit status: rvpmu exited $rc, qemu 0"
	fi
else
	awk -v why="no rvpmu binary at $RVPMU" '!($1 in seen) { seen[$1] = 1
		print "FAIL fp " $1 ": " why }' "$out/cases.txt"
	echo "FAIL fp guest exit status: no rvpmu binary at $RVPMU"
fi
exit 0
