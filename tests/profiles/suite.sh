#!/bin/sh
# Core profiles (src/uarch/profile*.c, profiles/*.json): host unit tests in
# tests/unit/profile_*.c, built once plain and once under ASan/UBSan, and
# Linux perf's jevents.py over the event tables they write; one PASS/FAIL
# line per check group.
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=$PWD/build}"
out=$BUILD/tests/profiles
mkdir -p "$out/tmp" || exit 1
CC=${CC:-gcc}
FLAGS="-std=gnu11 -Wall -Wextra -Werror -Iinclude -Itests/unit"
SRCS="src/uarch/profile*.c src/pmu/*.c tests/unit/profile_*.c"
export PROFILE_SRC="$PWD/profiles" PROFILE_TMP="$out/tmp"

run() {	# run LABEL BINARY SUFFIX
	if "$2" > "$out/$1.out"; then :; else
		rc=$?
		grep -q '^FAIL ' "$out/$1.out" ||
			echo "FAIL profiles $1 run: exited $rc without a FAIL line (see log)"
	fi
	sed "s#^\(PASS\|FAIL\) profiles #\1 profiles$3 #" "$out/$1.out"
}

# shellcheck disable=SC2086
if $CC $FLAGS -O2 -o "$out/profile_test" $SRCS -ljansson >&2; then
	run plain "$out/profile_test" ""
else
	echo "FAIL profiles build: see stderr"
fi
# shellcheck disable=SC2086
if $CC $FLAGS -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$out/profile_test_san" $SRCS -ljansson >&2; then
	run san "$out/profile_test_san" "/san"
else
	echo "FAIL profiles build/san: see stderr"
fi
# perf's own reader of the tables the plain run wrote (PROFILE_TMP)
python3 tests/profiles/perf_jevents.py /usr/src/linux-source-6.1.tar.xz "$out/jevents" \
	"$out/tmp" "$PWD/profiles"
exit 0
