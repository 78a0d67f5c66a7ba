#!/bin/sh
# Build the system-mode fuzzer and run it for N seconds (default 60).
#   tests/fuzz/run_system.sh [SECONDS]
# Needs clang with libFuzzer. The hart, PMU, models, firmware and devices
# (src/hart, src/pmu, src/uarch, src/sbi, src/platform) are built with
# libFuzzer coverage, ASan and UBSan, the rest plainly. Seeds: the programs
# in system-seeds/ (assembled here, each with every machine byte; see
# fuzz_system.c) and the bare-metal test programs when the riscv64
# toolchain is installed. A crash, a sanitizer report or a run past the
# instruction budget (-timeout) is written to $BUILD/fuzz-system/. Exits
# non-zero when the fuzzer finds one.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz-system
. "$here/objs.sh"
fuzz_build system "*/src/hart/*" "*/src/pmu/*" "*/src/uarch/*" "*/src/sbi/*" "*/src/platform/*"
if command -v riscv64-unknown-elf-gcc >/dev/null; then
	cc="riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments"
	# machine bytes: profile in bits 0-1, the built-in SBI in bit 2, no models in bit 3
	$cc -Wl,-Ttext=0x80000000 -o "$out/m-devices.elf" "$here/system-seeds/m-devices.S"
	$cc -Wl,-Ttext=0x80200000 -o "$out/s-sbi.elf" "$here/system-seeds/s-sbi.S"
	for s in m-devices s-sbi; do
		riscv64-unknown-elf-objcopy -O binary -j .text "$out/$s.elf" "$out/$s.bin"
		fw=0; [ "$s" = s-sbi ] && fw=4
		for p in 0 1 2 9; do
			b=$((p + fw))
			{ printf "\\$(printf %o "$b")"; cat "$out/$s.bin"; } > "$out/corpus/seed-$s-$b"
		done
	done
	$cc -T "$root/tests/bare-mmu/link.ld" -o "$out/sv39.elf" "$root/tests/bare-mmu/sv39.S"
	{ printf '\001'; cat "$out/sv39.elf"; } > "$out/corpus/seed-sv39"
fi
cd "$out"
RVPMU_PROFILE_DIR=$root/profiles ./fuzz_system -max_total_time="$secs" -max_len=8192 \
	-timeout=20 -rss_limit_mb=4096 -artifact_prefix="$out/" corpus
