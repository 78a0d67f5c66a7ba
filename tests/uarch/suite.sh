#!/bin/sh
# Host unit tests of the microarchitecture models (src/uarch cache, tlb,
# bpred, timing and the facade; tests/unit/uarch_*.c), built plain and
# under ASan/UBSan; one PASS/FAIL line per check group. The throughput
# microbenchmark is `$BUILD/tests/uarch/uarch_test --bench`, not run here.
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=$PWD/build}"
out=$BUILD/tests/uarch
mkdir -p "$out" || exit 1
CC=${CC:-gcc}
FLAGS="-std=gnu11 -Wall -Wextra -Werror -Iinclude -Itests/unit"
SRC="src/uarch/cache.c src/uarch/tlb.c src/uarch/bpred.c src/uarch/timing.c src/uarch/uarch.c src/uarch/block.c src/uarch/tstate.c src/uarch/mstate.c src/uarch/timing_mem.c src/uarch/prefetch.c src/uarch/coherence.c"

run() {	# run LABEL BINARY SUFFIX
	if "$2" > "$out/$1.out"; then :; else
		rc=$?
		grep -q '^FAIL ' "$out/$1.out" ||
			echo "FAIL uarch$3 run: exited $rc without a FAIL line (see log)"
	fi
	sed "s#^\(PASS\|FAIL\) uarch #\1 uarch$3 #" "$out/$1.out"
}

# shellcheck disable=SC2086
if $CC $FLAGS -O2 -o "$out/uarch_test" $SRC tests/unit/uarch_*.c >&2; then
	run plain "$out/uarch_test" ""
else
	echo "FAIL uarch build: see stderr"
fi
# shellcheck disable=SC2086
if $CC $FLAGS -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$out/uarch_test_san" $SRC tests/unit/uarch_*.c >&2; then
	run san "$out/uarch_test_san" "/san"
else
	echo "FAIL uarch/san build: see stderr"
fi
exit 0
