#!/bin/sh
# Build the ELF loader fuzzer and run it for N seconds (default 60).
#   tests/fuzz/run.sh [SECONDS]
# Needs clang with libFuzzer (Debian: apt-get install clang). The seed
# corpus is a valid static program plus the malformed variants that
# tests/elf/mkbad.py makes; crashes are written to $BUILD/fuzz/.
# Exits non-zero when the fuzzer finds a crash.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz
mkdir -p "$out/corpus"
command -v clang >/dev/null || { echo "run.sh: clang not found (apt-get install clang)" >&2; exit 2; }
src=$(ls "$root"/src/*/*.c | grep -v '/src/cli/')
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$root/include" -o "$out/fuzz_elf" "$here/fuzz_elf.c" $src -lelf -lm
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
