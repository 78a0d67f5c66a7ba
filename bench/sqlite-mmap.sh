#!/bin/sh
# SQLite's speedtest1 with its database memory-mapped (--mmap), under rvpmu
# and qemu-riscv64: a check that MAP_SHARED file mappings are coherent
# (src/linux/fmap.c) on a real program, too heavy for make test.
#   bench/sqlite-mmap.sh DIR [SIZE]
# DIR holds the SQLite amalgamation (sqlite3.c, sqlite3.h) and speedtest1.c
# (test/speedtest1.c of the SQLite sources); SIZE is speedtest1's --size
# (default 100). Prints each run's result and host seconds; exits 0 when
# both ran every test without an SQL error and listed the same tests.
dir=${1:?usage: bench/sqlite-mmap.sh DIR [SIZE]}
size=${2:-100}
root=$(cd "$(dirname "$0")/.." && pwd)
RVPMU=${RVPMU:-$root/build/rvpmu} QEMU=${QEMU:-qemu-riscv64} CC=${CC_RISCV:-riscv64-linux-gnu-gcc}
out=$root/build/bench/sqlite
mkdir -p "$out" || exit 1
bin=$out/speedtest1
if [ ! -x "$bin" ] || [ "$dir/sqlite3.c" -nt "$bin" ] || [ "$dir/speedtest1.c" -nt "$bin" ]; then
	echo "building speedtest1 (takes a minute)"
	$CC -static -O2 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I"$dir" -o "$bin" \
		"$dir/speedtest1.c" "$dir/sqlite3.c" -lm || exit 1
fi
status=0
for who in rvpmu qemu; do
	rm -f "$out/$who.db"*
	if [ $who = rvpmu ]; then set -- "$RVPMU" run; else set -- "$QEMU"; fi
	s=$(date +%s.%N)
	"$@" "$bin" --mmap 100000000 --size "$size" "$out/$who.db" > "$out/$who.out" 2>&1
	rc=$?
	t=$(echo "$(date +%s.%N) - $s" | bc)
	# the test names, without their timings
	sed -n 's/^ *\([0-9]* - [^.]*\)\..*/\1/p' "$out/$who.out" > "$out/$who.tests"
	errs=$(grep -c 'SQL error\|malformed' "$out/$who.out")
	echo "$who: exit $rc, $(wc -l < "$out/$who.tests") tests, $errs SQL errors, ${t}s"
	[ "$rc" = 0 ] && [ "$errs" = 0 ] || status=1
done
cmp -s "$out/rvpmu.tests" "$out/qemu.tests" || { echo "the test lists differ"; status=1; }
exit $status
