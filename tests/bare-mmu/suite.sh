#!/bin/sh
# Sv39 translation checks on the bare-metal machine, run on rvpmu and on
# qemu-system-riscv64 (which validates the test itself).
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/bare-mmu"
mkdir -p "$out"
for src in *.S; do
	name=${src%.S}
	elf="$out/$name.elf"
	if [ ! -f "$elf" ] || [ "$src" -nt "$elf" ]; then
		riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles \
			-Wl,--no-warn-rwx-segments -T link.ld -o "$elf" "$src" >&2 ||
			{ echo "FAIL bare-mmu $name: does not build"; continue; }
	fi
	"$RVPMU" system --bios none --kernel "$elf" --max-insns 1000000 >"$out/$name.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] && echo "PASS bare-mmu rvpmu $name" || echo "FAIL bare-mmu rvpmu $name: check $rc failed"
	if command -v qemu-system-riscv64 >/dev/null 2>&1; then
		timeout 20 qemu-system-riscv64 -machine virt -bios none -nographic -kernel "$elf" \
			>"$out/$name.qemu" 2>&1
		rc=$?
		[ "$rc" = 0 ] && echo "PASS bare-mmu qemu $name" ||
			echo "FAIL bare-mmu qemu $name: check $rc failed (a bad test if rvpmu passes)"
	fi
done
