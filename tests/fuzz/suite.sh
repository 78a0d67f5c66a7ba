#!/bin/sh
# The fuzzers' seeds in make test, without libFuzzer or clang: the event
# list and profile target (fuzz_spec.c) built with the plain compiler and
# replay.c, run on each of its seeds (spec_seeds.sh): every profile in
# profiles/ and the edits of them that found bugs run their core
# translated and in the step loop with every model event equal (each
# must get that far but seed-edit-u74, whose L1I has no sets, and the
# event lists). One PASS/FAIL line per seed. The fuzzers themselves: make
# fuzz.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
out=$BUILD/tests/fuzz
mkdir -p "$out/seeds" || exit 1
CC=${CC:-gcc}
ulimit -c 0 2>/dev/null
. "$here/spec_seeds.sh"

objs=   # make all's, but the CLI's
for o in "$BUILD"/obj/src/*/*.o; do
	case $o in */src/cli/*) ;; *) objs="$objs $o" ;; esac
done
# TEST_LDFLAGS: make asan's sanitizers, which its objects need
# shellcheck disable=SC2086
if ! $CC -std=gnu11 -O1 -g -Wall -Wextra -Werror -I"$root/include" $TEST_LDFLAGS -o "$out/spec_replay" \
	"$here/fuzz_spec.c" "$here/replay.c" $objs -lelf -ldw -lfdt -ljansson -liberty -lm >&2; then
	echo "FAIL fuzz spec-build: see stderr (run make all first)"
	exit 0
fi
rm -f "$out"/seeds/*
spec_seeds "$root" "$out/seeds"
for s in "$out"/seeds/*; do
	name=spec-$(basename "$s")
	RVPMU_PROFILE_DIR=$root/profiles "$out/spec_replay" "$s" >"$out/$name.out" 2>&1; rc=$?
	case $name in
	*-events-*|*-edit-u74) want=0 ;;
	*) want=1 ;;
	esac
	if [ $rc != 0 ]; then
		echo "FAIL fuzz $name: exit $rc (a trap: translated and step-loop runs differ, or a bad event-list result)"
	elif ! grep -qx "compared $want" "$out/$name.out"; then
		echo "FAIL fuzz $name: expected $want runs compared, got '$(tail -n 1 "$out/$name.out")'"
	else
		echo "PASS fuzz $name"
	fi
done
exit 0
