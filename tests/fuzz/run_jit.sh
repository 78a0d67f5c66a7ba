#!/bin/sh
# Build the block translator's differential fuzzer and run it for N
# seconds (default 60).
#   tests/fuzz/run_jit.sh [SECONDS]
# Needs clang with libFuzzer. The hart and the models (src/hart, src/uarch)
# are built with libFuzzer coverage, ASan and UBSan, the rest plainly (an
# object is rebuilt when its source or a header changed, not when only
# these flags did: delete $BUILD/fuzz-jit/obj then). Seeds: the code of the random
# programs tests/jit/gen_random.py makes and of tests/jit/blocks.S, when
# the riscv64 cross toolchain is installed. A divergence between the
# translated and the step-loop run is a crash, written to
# $BUILD/fuzz-jit/. Exits non-zero when the fuzzer finds one.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz-jit
. "$here/objs.sh"
fuzz_build jit "*/src/hart/*" "*/src/uarch/*"
if command -v riscv64-linux-gnu-gcc >/dev/null; then
	for seed in 1 2 3 4; do
		python3 "$root/tests/jit/gen_random.py" --fuzz-seed "$seed" > "$out/r$seed.S"
		riscv64-linux-gnu-gcc -static -nostdlib -Wl,--no-relax -o "$out/r$seed" "$out/r$seed.S"
		riscv64-linux-gnu-objcopy -O binary -j .text "$out/r$seed" "$out/r$seed.bin"
		head -c 4096 "$out/r$seed.bin" > "$out/corpus/seed-random-$seed"
	done
	riscv64-linux-gnu-gcc -march=rv64gc -mabi=lp64d -I"$root/tests/guest" -static -nostdlib \
		-Wl,--no-relax -o "$out/blocks" "$root/tests/jit/blocks.S"
	riscv64-linux-gnu-objcopy -O binary -j .text "$out/blocks" "$out/blocks.bin"
	head -c 4096 "$out/blocks.bin" > "$out/corpus/seed-blocks"
fi
cd "$out"
./fuzz_jit -max_total_time="$secs" -max_len=4096 -rss_limit_mb=4096 \
	-artifact_prefix="$out/" corpus
