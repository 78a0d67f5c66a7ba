#!/bin/sh
# Build the ELF loader fuzzer and run it for N seconds (default 60).
#   tests/fuzz/run.sh [SECONDS]
# Needs clang with libFuzzer (Debian: apt-get install clang). The loader
# (src/linux) and guest memory (src/hart/gmem.c) are built with libFuzzer
# coverage, ASan and UBSan; the rest of rvpmu, which the loader only calls
# into, is built plainly (the interpreter takes minutes under ASan). The
# seed corpus is a valid static program, a static-pie and the malformed
# variants tests/elf/mkbad.py makes; crashes are written to $BUILD/fuzz/.
# Exits non-zero when the fuzzer finds a crash.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz
. "$here/objs.sh"
fuzz_build elf "*/src/linux/*" "*/src/hart/gmem.c"
if command -v riscv64-linux-gnu-gcc >/dev/null; then
	printf 'int main(void){return 0;}\n' > "$out/seed.c"
	riscv64-linux-gnu-gcc -static -O2 -o "$out/corpus/seed-static" "$out/seed.c"
	riscv64-linux-gnu-gcc -O2 -fPIE -static-pie -nostdlib -Wl,--no-dynamic-linker \
		-o "$out/corpus/seed-pie" "$root/tests/elf/progs/pie.c"
	python3 "$root/tests/elf/mkbad.py" "$out/corpus/seed-static" "$out/corpus"
fi
cd "$out"
./fuzz_elf -max_total_time="$secs" -max_len=1048576 -rss_limit_mb=4096 \
	-artifact_prefix="$out/" corpus
