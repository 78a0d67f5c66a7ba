#!/bin/sh
# rvpmu-specific PMU checks on the bare-metal machine: instruction-class
# events counted exactly, and an Sscofpmf overflow interrupt within the
# skid. (The selectors are rvpmu's, so these run on rvpmu only; the
# portable suite is tests/bare.)
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/bare-events"
mkdir -p "$out"
for src in *.S; do
	name=${src%.S}
	elf="$out/$name.elf"
	if [ ! -f "$elf" ] || [ "$src" -nt "$elf" ]; then
		riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles \
			-Wl,--no-warn-rwx-segments -T link.ld -o "$elf" "$src" >&2 ||
			{ echo "FAIL bare-events $name: does not build"; continue; }
	fi
	"$RVPMU" system --bios none --kernel "$elf" --max-insns 100000 >"$out/$name.out" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		echo "PASS bare-events $name"
	else
		echo "FAIL bare-events $name: exit $rc (check $rc)"
	fi
done
