#!/bin/sh
# `make bench`: build the workloads into build/bench/ and compare rvpmu with
# qemu-riscv64. Settings come from the environment (BENCH_FILTER, BENCH_RUNS,
# BENCH_SCALE, BENCH_OUT); see bench/README.md.
cd "$(dirname "$0")/.." || exit 1
command -v python3 >/dev/null || { echo "bench: python3 not found" >&2; exit 1; }
exec python3 bench/run.py "$@"
