#!/bin/sh
# Run every test suite (tests/*/suite.sh). A suite prints one line per
# check, "PASS name" or "FAIL name: why"; this script counts them and ends
# with "N passed, N failed". A suite that exits non-zero without printing
# is counted as one failure.
cd "$(dirname "$0")/.." || exit 1
: "${RVPMU:=$PWD/build/rvpmu}" "${BUILD:=$PWD/build}"
export RVPMU BUILD
pass=0 fail=0
log=$BUILD/test-log.txt
mkdir -p "$BUILD"; : > "$log"
for s in tests/*/suite.sh; do
	name=$(basename "$(dirname "$s")")
	out=$(sh "$s" 2>>"$log" </dev/null); rc=$?
	p=$(printf '%s\n' "$out" | grep -c '^PASS ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL ')
	printf '%s\n' "$out" | grep '^FAIL ' | sed "s/^/[$name] /"
	printf '%s\n' "$out" >> "$log"
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "[$name] FAIL suite exited $rc"; f=1
	fi
	echo "suite $name: $p passed, $f failed"
	pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
