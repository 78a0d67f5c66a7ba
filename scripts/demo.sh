#!/bin/sh
# make demo: run a bundled workload under rvpmu and show what it counted.
set -e
cd "$(dirname "$0")/.."
out=build/demo
mkdir -p "$out"
src=bench/workloads/branchy.c
if [ ! -x "$out/branchy" ] || [ "$src" -nt "$out/branchy" ]; then
	riscv64-linux-gnu-gcc -static -O2 -fno-omit-frame-pointer -o "$out/branchy" "$src"
fi
echo "\$ rvpmu run --insn-count $out/count.txt -- $out/branchy 25"
start=$(date +%s.%N)
build/rvpmu run --insn-count "$out/count.txt" -- "$out/branchy" 25
end=$(date +%s.%N)
n=$(cat "$out/count.txt")
python3 - "$n" "$start" "$end" <<'PY'
import sys
n, t0, t1 = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print(f"\nretired instructions: {n:,}")
print(f"host wall time:       {t1 - t0:.2f} s ({n / (t1 - t0) / 1e6:.0f} MIPS)")
PY
