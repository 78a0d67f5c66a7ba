#!/bin/sh
# Differential tests: each tests/diff/*.c is built with
# riscv64-linux-gnu-gcc -static -O2 and run under "$RVPMU run" and under
# qemu-riscv64 with the same arguments, environment (env -i) and a fresh
# empty directory at the same path as argv[1]. stdout must be
# byte-identical and the exit statuses equal. A source may say
# "diff: expect-exit N" (default 0); qemu must meet it, or the test is bad.
# One line per program: "PASS diff NAME" / "FAIL diff NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/diff
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-riscv64}
T=${DIFF_TIMEOUT:-30}
ulimit -c 0 2>/dev/null

# run WHO NAME CMD...: run a guest in the clean environment, in a fresh dir
run() {
	who=$1 name=$2
	shift 2
	work=$out/$name.dir
	rm -rf "$work" && mkdir -p "$work/tmp" || return 99
	(cd "$work" && exec timeout "$T" env -i FOO=bar BAZ='a b' LC_ALL=C "$@" \
		"$work/tmp" alpha "beta gamma" "") \
		</dev/null >"$out/$name.$who.out" 2>"$out/$name.$who.err"
}

# first difference between two outputs, as a FAIL reason
difference() {
	c=$(cmp "$1" "$2" 2>&1)
	case $c in
	*"EOF on $1"*) echo "rvpmu stdout ends early, after line $(echo "$c" | sed -n 's/.*line \([0-9]*\).*/\1/p')" ;;
	*"EOF on $2"*) echo "rvpmu stdout has extra output after line $(echo "$c" | sed -n 's/.*line \([0-9]*\).*/\1/p')" ;;
	*) echo "stdout differs at line $(echo "$c" | sed -n 's/.*line \([0-9]*\).*/\1/p')" ;;
	esac
}

for src in "$here"/*.c; do
	name=$(basename "$src" .c)
	bin=$out/$name
	if ! { [ -f "$bin" ] && [ "$bin" -nt "$src" ]; } &&
	   ! $CC -static -O2 -o "$bin" "$src" -lm >&2; then
		echo "FAIL diff $name: does not build"
		continue
	fi
	expect=$(sed -n 's/^.*diff: expect-exit *\([0-9]*\).*$/\1/p' "$src" | head -n 1)
	expect=${expect:-0}
	run qemu "$name" "$QEMU" "$bin"; q=$?
	if [ "$q" != "$expect" ]; then
		echo "FAIL diff $name: bad test: qemu exit $q, expected $expect"
		continue
	fi
	if [ ! -x "$RVPMU" ]; then
		echo "FAIL diff $name: $RVPMU not built"
		continue
	fi
	run rvpmu "$name" "$RVPMU" run "$bin"; r=$?
	a=$out/$name.rvpmu.out b=$out/$name.qemu.out
	if [ "$r" = 124 ]; then
		echo "FAIL diff $name: rvpmu timed out after ${T}s"
	elif ! cmp -s "$a" "$b"; then
		why=$(difference "$a" "$b")
		[ "$r" != "$q" ] && why="$why; rvpmu exit $r, qemu exit $q"
		echo "FAIL diff $name: $why"
		diff "$a" "$b" | head -n 10 | sed "s/^/[diff $name] /" >&2
		sed "s/^/[diff $name rvpmu stderr] /" "$out/$name.rvpmu.err" | head -n 10 >&2
	elif [ "$r" != "$q" ]; then
		echo "FAIL diff $name: rvpmu exit $r, qemu exit $q"
		sed "s/^/[diff $name rvpmu stderr] /" "$out/$name.rvpmu.err" | head -n 10 >&2
	else
		echo "PASS diff $name"
	fi
done
exit 0
