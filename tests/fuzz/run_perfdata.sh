#!/bin/sh
# Build the perf.data reader fuzzer and run it for N seconds (default 60).
#   tests/fuzz/run_perfdata.sh [SECONDS]
# Needs clang with libFuzzer. The seed corpus is what tests/perfdata's
# pdtool writes (one event with call chains; two events with branch
# stacks) for a riscv64 program when riscv64-linux-gnu-gcc is installed,
# else an empty-ish header. Crashes are written to $BUILD/fuzz-perfdata/.
# Exits non-zero when the fuzzer finds a crash.
# shellcheck disable=SC2046,SC2086 # word splitting is meant
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz-perfdata
mkdir -p "$out/corpus"
command -v clang >/dev/null || { echo "run_perfdata.sh: clang not found (apt-get install clang)" >&2; exit 2; }
src="$root/src/perf/perfdata.c $root/src/perf/perfdata_read.c $root/src/perf/symbols.c $root/src/perf/report.c $root/src/perf/outfile.c"
# shellcheck disable=SC2086
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$root/include" -o "$out/fuzz_perfdata" "$here/fuzz_perfdata.c" $src -lelf -ldw -liberty
# shellcheck disable=SC2086
clang -g -O1 -I"$root/include" -o "$out/pdtool" "$root/tests/perfdata/pdtool.c" $src -lelf -ldw -liberty
if command -v riscv64-linux-gnu-gcc >/dev/null; then
	riscv64-linux-gnu-gcc -static -O2 -g -o "$out/hot" "$root/tests/perfdata/hot.c"
	set -- $(riscv64-linux-gnu-nm "$out/hot" | awk '$3 == "hot" || $3 == "cold" || $3 == "caller" { print $1 }')
	# nm lists caller, cold, hot (by name); hot < cold < caller in the binary
	a="$3 $2 $2 $1 $1 $1 $1"
	"$out/pdtool" gen "$out/corpus/seed-chain" "$out/hot" 20 $a
	"$out/pdtool" gen "$out/corpus/seed-branch" "$out/hot" 8 $a --multi
fi
cd "$out"
./fuzz_perfdata -max_total_time="$secs" -max_len=65536 -rss_limit_mb=4096 \
	-artifact_prefix="$out/" corpus
