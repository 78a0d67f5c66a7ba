#!/bin/sh
# Host unit tests of the Smctr/Ssctr model (src/pmu/ctr.c,
# tests/unit/ctr_*.c): built once plain and once under ASan/UBSan; one
# PASS/FAIL line per check group ("ctr <group>", "ctr/san <group>").
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=$PWD/build}"
out=$BUILD/tests/ctr-unit
mkdir -p "$out" || exit 1
CC=${CC:-gcc}
FLAGS="-std=gnu11 -Wall -Wextra -Werror -Iinclude"
SRC="src/pmu/ctr.c tests/unit/ctr_*.c"

run() {	# run LABEL BINARY SUFFIX
	if "$2" > "$out/$1.out"; then :; else
		rc=$?
		grep -q '^FAIL ' "$out/$1.out" ||
			echo "FAIL ctr-unit $1 run: exited $rc without a FAIL line (see log)"
	fi
	sed "s#^\(PASS\|FAIL\) ctr #\1 ctr$3 #" "$out/$1.out"
}

# shellcheck disable=SC2086
if $CC $FLAGS -O2 -o "$out/ctr_test" $SRC >&2; then
	run plain "$out/ctr_test" ""
else
	echo "FAIL ctr-unit build: see stderr"
fi
# shellcheck disable=SC2086
if $CC $FLAGS -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$out/ctr_test_san" $SRC >&2; then
	run san "$out/ctr_test_san" "/san"
else
	echo "FAIL ctr-unit build/san: see stderr"
fi
exit 0
