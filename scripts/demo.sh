#!/bin/sh
# make demo: count and sample a bundled workload on a modelled core.
set -e
cd "$(dirname "$0")/.."
out=build/demo
mkdir -p "$out"
src=bench/workloads/branchy.c
if [ ! -x "$out/branchy" ] || [ "$src" -nt "$out/branchy" ]; then
	riscv64-linux-gnu-gcc -static -O2 -g -fno-omit-frame-pointer -o "$out/branchy" "$src"
fi
# The program gets rvpmu's environment, as one under perf gets perf's, and
# its counts follow it (glibc's start-up reads it; the stack moves with
# its size): an empty one keeps them from following the user's shell.
# RVPMU (the test suite's, e.g. make asan's build) runs in place of
# build/rvpmu; the lines show build/rvpmu either way.
R=${RVPMU:-build/rvpmu}
run() { echo "\$ build/$*"; shift; env -i "$R" "$@"; }
run rvpmu stat --profile u74 -e cycles,instructions,branches,branch-misses -- "$out/branchy" 5 2>&1
run rvpmu stat -e cycles,instructions,L1-dcache-loads,L1-dcache-load-misses,branch-misses,dTLB-load-misses \
	-- "$out/branchy" 5 2>&1
run rvpmu record -g -o "$out/perf.data" -- "$out/branchy" 5 2>&1
run rvpmu report -i "$out/perf.data" 2>&1 | head -30
