#!/bin/sh
# Trap storms (README "Trap storms"): a guest that takes the same trap at
# the same pc again and again with nothing retired in between but its
# handler stops after 10000 of them with one "rvpmu: ... trap storm: ..."
# line on stderr and exit status 123; traps taken with nothing retired
# since the trap before count toward --max-insns, so a storm below that
# number stops at the limit (124). System mode: images of 4 zero bytes,
# 4 KiB of random bytes (a fixed LCG seed) and text, with --bios none, the
# built-in SBI and OpenSBI; a bare-metal handler that returns to the
# faulting load. User mode: a SIGSEGV handler that returns to the faulting
# load, and rt_sigreturn sent back to itself.
# One line per check: "PASS storm NAME" / "FAIL storm NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/storm
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
BARE_CC=${BARE_CC:-riscv64-unknown-elf-gcc}
FW=${OPENSBI_FW:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
E=$out/stderr

if [ ! -x "$RVPMU" ]; then
	echo "FAIL storm rvpmu: $RVPMU not built"
	exit 0
fi

pass() { echo "PASS storm $1"; }
fail() { echo "FAIL storm $1: $2"; head -n 3 "$E" | sed "s/^/[storm $1] /" >&2; }

# rv ARGS...: run rvpmu; sets rc (a hang is killed: 137), stderr in $E
rv() {
	timeout -s KILL 60 "$RVPMU" "$@" </dev/null >"$out/stdout" 2>"$E"
	rc=$?
}

# expect NAME RC LINE-REGEX ARGS...: exit status RC and exactly one stderr
# line, matching the regex
expect() {
	name=$1 want=$2 re=$3
	shift 3
	rv "$@"
	if [ "$rc" != "$want" ]; then
		fail "$name" "exit $rc, expected $want"
	elif [ "$(wc -l <"$E")" != 1 ]; then
		fail "$name" "$(wc -l <"$E" | tr -d ' ') lines on stderr, expected one"
	elif ! grep -q -E -e "$re" "$E"; then
		fail "$name" "stderr does not match /$re/: $(head -c 300 "$E")"
	else
		pass "$name"
	fi
}

# the images: 4 zero bytes, 4096 bytes of a 31-bit LCG (seed 35), text
printf '\000\000\000\000' >"$out/zero.bin"
printf '%b' "$(awk 'BEGIN { x = 35; for (i = 0; i < 4096; i++) {
	x = (x * 1103515245 + 12345) % 2147483648; printf "\\%03o", int(x / 65536) % 256 } }')" \
	>"$out/random.bin"
printf 'This is not a kernel: rvpmu runs it anyway, and it traps.\n' >"$out/text.bin"
[ "$(wc -c <"$out/random.bin")" = 4096 ] || fail images "random.bin is not 4096 bytes"

X='(0x[0-9a-f]+)'
LIMIT='^rvpmu: instruction limit 5000 reached'
for img in zero random text; do
	k=$out/$img.bin
	# M-mode from 0x80000000: the image faults (or its first instructions
	# run) until a fetch from mtvec = 0 faults again and again
	storm="^rvpmu: trap storm: [a-z/ ]+ \(cause [0-9]+\) at pc $X, tval $X, in M-mode, taken 10000 times in a row with nothing retired in between but its handler; handled in M-mode at mtvec $X\$"
	expect "$img-none" 123 "$storm" system --bios none --kernel "$k"
	expect "$img-none-max-insns-10M" 123 "$storm" system --bios none --max-insns 10M --kernel "$k"
	expect "$img-none-max-insns-5000" 124 "$LIMIT" system --bios none --max-insns 5000 --kernel "$k"
	# the built-in SBI: the image runs in S; what it cannot handle the
	# firmware sends back to S, at stvec = 0
	storm="^rvpmu: trap storm: [a-z/ ]+ \(cause [0-9]+\) at pc $X, tval $X, in S-mode, taken 10000 times in a row with nothing retired in between but its handler; the built-in SBI passes it to S-mode at stvec $X\$"
	expect "$img-builtin" 123 "$storm" system --kernel "$k"
	expect "$img-builtin-max-insns-10M" 123 "$storm" system --max-insns 10M --kernel "$k"
	# OpenSBI handles the trap in M and returns to the faulting pc (its
	# stvec is the image's entry) or to S code that loops back to it:
	# either way the run ends, by the storm rule or at the limit
	if [ -f "$FW" ]; then
		rv system -q --bios "$FW" --max-insns 10M --kernel "$k"
		case $rc in
		123|124) pass "$img-opensbi-max-insns-10M" ;;
		*) fail "$img-opensbi-max-insns-10M" "exit $rc, expected 123 or 124" ;;
		esac
	else
		fail "$img-opensbi-max-insns-10M" "no OpenSBI at $FW"
	fi
done
# the zero image on OpenSBI: illegal instruction at the entry, which is
# also stvec, so OpenSBI's handler returns straight to it
expect zero-opensbi 123 "^rvpmu: trap storm: illegal instruction \(cause 2\) at pc 0x80200000, tval 0x0, in S-mode, taken 10000 times in a row with nothing retired in between but its handler; handled in M-mode at mtvec $X\$" \
	system -q --bios "$FW" --kernel "$out/zero.bin"

# a bare-metal handler that retires instructions and mret's to the load
# that faulted: 9999 times it then fixes it, 10000 times is a storm
for n in 9999 10000; do
	if ! $BARE_CC -march=rv64gc -mabi=lp64d -nostdlib -nostartfiles -Wl,-n \
		-Wl,-Ttext=0x80000000 -DN=$n -o "$out/retry$n" "$here/retry.S" >&2; then
		fail "retry-$n" "does not build"
	fi
done
rv system --bios none --kernel "$out/retry9999"
[ "$rc" = 0 ] && [ ! -s "$E" ] && pass retry-9999 || fail retry-9999 "exit $rc, expected 0"
lw=$(riscv64-unknown-elf-objdump -d "$out/retry10000" | awk '/\tlw\t/ { sub(":", "", $1); print $1; exit }')
expect retry-10000 123 "^rvpmu: trap storm: load access fault \(cause 5\) at pc 0x$lw, tval 0x0, in M-mode, taken 10000 times in a row with nothing retired in between but its handler; handled in M-mode at mtvec $X\$" \
	system --bios none --kernel "$out/retry10000"

# the help says so
for c in run system; do
	"$RVPMU" help $c >"$out/help.$c" 2>&1
	if grep -q 'exit 123' "$out/help.$c" && grep -q 'trap storm' "$out/help.$c" &&
	   grep -q 'none retired since the trap before' "$out/help.$c"; then
		pass "help-$c"
	else
		echo "FAIL storm help-$c: rvpmu help $c does not describe trap storms and --max-insns"
	fi
done

# user mode
if ! $CC -static -O2 -o "$out/segv-loop" "$here/segv-loop.c" >&2 ||
   ! $CC -static -nostdlib -o "$out/sigreturn-loop" "$here/sigreturn-loop.S" >&2; then
	fail user-build "the user-mode guests do not build"
	exit 0
fi
storm="^rvpmu: $out/segv-loop: trap storm: load page fault \(cause 13\) at pc $X, tval 0x0, in U-mode, taken 10000 times in a row with nothing retired in between but its handler; handled by the SIGSEGV handler at $X\$"
expect segv-loop 123 "$storm" run "$out/segv-loop"
expect segv-loop-10000 123 "$storm" run "$out/segv-loop" 10000
expect segv-loop-stat 123 "$storm" stat -o /dev/null "$out/segv-loop"
rv run "$out/segv-loop" 9999
if [ "$rc" = 0 ] && [ "$(cat "$out/stdout")" = "faults 9999" ] && [ ! -s "$E" ]; then
	pass segv-loop-9999
else
	fail segv-loop-9999 "exit $rc, stdout '$(head -c 100 "$out/stdout")', expected 0 and 'faults 9999'"
fi
expect segv-loop-max-insns-5000 124 "$LIMIT" run --max-insns 5000 "$out/segv-loop"
# nothing retires at all: only counting the traps stops it at the limit
storm="^rvpmu: $out/sigreturn-loop: trap storm: environment call from U-mode \(cause 8\) at pc $X, tval 0x0, in U-mode, taken 10000 times in a row with nothing retired in between but its handler; handled by the system call rt_sigreturn \(139\)\$"
expect sigreturn-loop 123 "$storm" run "$out/sigreturn-loop"
expect sigreturn-loop-max-insns-5000 124 "$LIMIT" run --max-insns 5000 "$out/sigreturn-loop"
exit 0
