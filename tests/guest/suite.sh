#!/bin/sh
# Self-checking ISA tests: each tests/guest/*.S is a static, libc-free
# riscv64 program that exits 0 when every check passes, else with the
# number of its first failing check. Each runs under "$RVPMU run" and under
# qemu-riscv64; qemu must pass too, or the test itself is wrong.
#
# Directives in a source's comments ("suite: ..."):
#   march M           -march for the build (default rv64gc)
#   expect-exit N     the status that counts as a pass (default 0)
#   variants A B ...  build one program per variant with -DV_<variant>
#   rvpmu-only        qemu cannot run it faithfully (say why there)
# One line per program on stdout: "PASS guest NAME" / "FAIL guest NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/guest
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-riscv64}
NM=riscv64-linux-gnu-nm
A2L=riscv64-linux-gnu-addr2line
T=${GUEST_TIMEOUT:-20}
ulimit -c 0 2>/dev/null

directive() {	# directive KEY FILE: the rest of the "suite: KEY ..." line
	sed -n "s/^.*suite: $1 *\([^*]*\).*$/\1/p" "$2" | head -n 1 | sed 's/ *$//'
}

# where NAME N: source line of check N (via the check_<N> symbol)
where() {
	addr=$($NM "$out/$1" 2>/dev/null | awk -v s="check_$2" '$3 == s { print $1 }')
	[ -n "$addr" ] || return
	loc=$($A2L -e "$out/$1" "$addr" 2>/dev/null)
	printf ' at %s' "${loc##*/}"
}

# describe NAME STATUS EXPECT: how a run ended, for a FAIL line
describe() {
	case $2 in
	124) printf 'timed out after %ss' "$T" ;;
	*)	printf 'exit %s' "$2"
		if [ "$3" = 0 ] && [ "$2" -ge 1 ] && [ "$2" -le 127 ]; then
			printf ' (check %s%s)' "$2" "$(where "$1" "$2")"
		fi ;;
	esac
}

# build SRC NAME MARCH [DEFINE]
build() {
	bin=$out/$2
	if [ -f "$bin" ] && [ "$bin" -nt "$1" ] && [ "$bin" -nt "$here/test.h" ]; then
		return 0
	fi
	$CC -g -march="$3" -mabi=lp64d ${4:+-D"$4"} -I"$here" -static -nostdlib \
		-Wl,--no-relax -o "$bin" "$1" >&2
}

# run SRC NAME EXPECT RVPMU_ONLY
run() {
	name=$2 expect=$3
	timeout "$T" "$QEMU" "$out/$name" </dev/null >/dev/null 2>"$out/$name.qemu.err"
	q=$?
	if [ -x "$RVPMU" ]; then
		timeout "$T" "$RVPMU" run "$out/$name" </dev/null >/dev/null 2>"$out/$name.rvpmu.err"
		r=$?
	else
		r=none
	fi
	if [ -z "$4" ] && [ "$q" != "$expect" ]; then
		echo "FAIL guest $name: bad test: qemu $(describe "$name" "$q" "$expect"), expected $expect"
	elif [ "$r" = none ]; then
		echo "FAIL guest $name: $RVPMU not built"
	elif [ "$r" != "$expect" ]; then
		msg="rvpmu $(describe "$name" "$r" "$expect")"
		if [ -n "$4" ]; then
			msg="$msg, expected $expect (rvpmu-only)"
		else
			msg="$msg, qemu exit $q"
		fi
		echo "FAIL guest $name: $msg"
		sed "s/^/[guest $name] /" "$out/$name.rvpmu.err" | head -n 20 >&2
	else
		echo "PASS guest $name"
	fi
}

for src in "$here"/*.S; do
	base=$(basename "$src" .S)
	march=$(directive march "$src"); march=${march:-rv64gc}
	expect=$(directive expect-exit "$src"); expect=${expect:-0}
	only=; grep -q 'suite: rvpmu-only' "$src" && only=1
	variants=$(directive variants "$src")
	if [ -z "$variants" ]; then
		if build "$src" "$base" "$march"; then
			run "$src" "$base" "$expect" "$only"
		else
			echo "FAIL guest $base: does not build"
		fi
		continue
	fi
	for v in $variants; do
		if build "$src" "$base-$v" "$march" "V_$(echo "$v" | tr - _)"; then
			run "$src" "$base-$v" "$expect" "$only"
		else
			echo "FAIL guest $base-$v: does not build"
		fi
	done
done
exit 0
