#!/bin/sh
# Build the system-mode differential fuzzer (translated code against the
# step loop, tests/fuzz/fuzz_sysjit.c) and run it for N seconds (default 60).
#   tests/fuzz/run_sysjit.sh [SECONDS]
# Needs clang with libFuzzer. The hart, PMU, models, firmware and devices
# are built with libFuzzer coverage, ASan and UBSan, the rest plainly
# (objs.sh). Seeds: sysjit-seeds/loops.S under every machine byte, and
# the random programs of tests/jit/gen_random.py, when the riscv64
# toolchains are installed. A divergence between the translated and the
# step-loop run is a crash, written to $BUILD/fuzz-sysjit/. Exits
# non-zero when the fuzzer finds one.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz-sysjit
. "$here/objs.sh"
fuzz_build sysjit "*/src/hart/*" "*/src/pmu/*" "*/src/uarch/*" "*/src/sbi/*" "*/src/platform/*"
# machine bytes (fuzz_sysjit.c): profile bit 0, S bit 1, no models bit 2,
# timer bit 3, counter overflow bit 4, two harts bit 5, Sv39 paging bit 6
if command -v riscv64-unknown-elf-gcc >/dev/null; then
	riscv64-unknown-elf-gcc -march=rv64gc_zba_zbb -mabi=lp64d -nostdlib -nostartfiles \
		-Wl,-e,0x80001000 -Wl,-Ttext=0x80001000 -Wl,--no-warn-rwx-segments \
		-o "$out/loops.elf" "$here/sysjit-seeds/loops.S"
	riscv64-unknown-elf-objcopy -O binary -j .text "$out/loops.elf" "$out/loops.bin"
	for b in 0 1 2 3 5 10 11 24 26 27 29 56 58 59 66 67 74 75 82 98 99; do
		{ printf "\\$(printf %o "$b")"; cat "$out/loops.bin"; } > "$out/corpus/seed-loops-$b"
	done
fi
if command -v riscv64-linux-gnu-gcc >/dev/null; then
	for seed in 1 2; do
		python3 "$root/tests/jit/gen_random.py" --fuzz-seed "$seed" > "$out/r$seed.S"
		riscv64-linux-gnu-gcc -static -nostdlib -Wl,--no-relax -o "$out/r$seed" "$out/r$seed.S"
		riscv64-linux-gnu-objcopy -O binary -j .text "$out/r$seed" "$out/r$seed.bin"
		for b in 2 27; do
			{ printf "\\$(printf %o "$b")"; head -c 4096 "$out/r$seed.bin"; } > "$out/corpus/seed-random-$seed-$b"
		done
	done
fi
cd "$out"
RVPMU_PROFILE_DIR=$root/profiles ./fuzz_sysjit -max_total_time="$secs" -max_len=4097 \
	-timeout=20 -rss_limit_mb=4096 -artifact_prefix="$out/" corpus
