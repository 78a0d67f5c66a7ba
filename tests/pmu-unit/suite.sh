#!/bin/sh
# Host unit tests of the PMU model (src/pmu, tests/unit/pmu_*.c): built once
# plain and once under ASan/UBSan; one PASS/FAIL line per check group.
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=$PWD/build}"
out=$BUILD/tests/pmu-unit
mkdir -p "$out" || exit 1
CC=${CC:-gcc}
FLAGS="-std=gnu11 -Wall -Wextra -Werror -Iinclude -Itests/unit"

run() {	# run LABEL BINARY
	if "$2" > "$out/$1.out"; then :; else
		rc=$?
		grep -q '^FAIL ' "$out/$1.out" ||
			echo "FAIL pmu-unit $1 run: exited $rc without a FAIL line (see log)"
	fi
	sed "s#^\(PASS\|FAIL\) pmu #\1 pmu$3 #" "$out/$1.out"
}

if $CC $FLAGS -O2 -o "$out/pmu_test" src/pmu/*.c tests/unit/pmu_*.c >&2; then
	run plain "$out/pmu_test" ""
else
	echo "FAIL pmu-unit build: see stderr"
fi
if $CC $FLAGS -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$out/pmu_test_san" src/pmu/*.c tests/unit/pmu_*.c >&2; then
	run san "$out/pmu_test_san" "/san"
else
	echo "FAIL pmu-unit build/san: see stderr"
fi
exit 0
