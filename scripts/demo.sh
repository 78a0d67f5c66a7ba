#!/bin/sh
# make demo: count a bundled workload's events with rvpmu stat.
set -e
cd "$(dirname "$0")/.."
out=build/demo
mkdir -p "$out"
src=bench/workloads/branchy.c
if [ ! -x "$out/branchy" ] || [ "$src" -nt "$out/branchy" ]; then
	riscv64-linux-gnu-gcc -static -O2 -fno-omit-frame-pointer -o "$out/branchy" "$src"
fi
events=cycles,instructions,branches,branches-taken,branch-misses,loads,stores,calls,returns,int-mul,int-div
echo "\$ rvpmu stat -e $events -- $out/branchy 25"
build/rvpmu stat -e "$events" -- "$out/branchy" 25 2>&1
