#!/bin/sh
# Sv39 translation checks on the bare-metal machine, run on rvpmu (without
# a profile and with each of profiles/) and on qemu-system-riscv64 (which
# validates the test itself). A test whose checks from some number on
# are known to fail on qemu says so in a line
#   # qemu-skip-from: N why
# qemu must then pass every check before N; the rest is a SKIP there.
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/bare-mmu"
mkdir -p "$out"
profiles=$(cd ../../profiles && ls *.json | sed 's/\.json$//')
for src in *.S; do
	name=${src%.S}
	elf="$out/$name.elf"
	if [ ! -f "$elf" ] || [ "$src" -nt "$elf" ] || [ mmu.h -nt "$elf" ]; then
		riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles \
			-Wl,--no-warn-rwx-segments -T link.ld -o "$elf" "$src" >&2 ||
			{ echo "FAIL bare-mmu $name: does not build"; continue; }
	fi
	for prof in none $profiles; do
		flag=; [ $prof != none ] && flag="--profile $prof"
		"$RVPMU" system --bios none $flag --kernel "$elf" --max-insns 1000000 \
			>"$out/$name.$prof.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && echo "PASS bare-mmu rvpmu $name $prof" ||
			echo "FAIL bare-mmu rvpmu $name $prof: check $rc failed"
	done
	if command -v qemu-system-riscv64 >/dev/null 2>&1; then
		timeout 20 qemu-system-riscv64 -machine virt -bios none -nographic -kernel "$elf" \
			>"$out/$name.qemu" 2>&1
		rc=$?
		set -- $(sed -n 's/^# qemu-skip-from: //p' "$src")
		if [ "$rc" = 0 ]; then
			echo "PASS bare-mmu qemu $name"
		elif [ $# -gt 1 ] && [ "$rc" -ge "$1" ] && [ "$rc" -lt 124 ]; then
			echo "PASS bare-mmu qemu $name: checks before $1"
			skip=$1; shift
			echo "SKIP bare-mmu qemu $name: checks from $skip on: $* (check $rc failed)"
		else
			echo "FAIL bare-mmu qemu $name: check $rc failed (a bad test if rvpmu passes)"
		fi
	fi
done
