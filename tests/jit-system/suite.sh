#!/bin/sh
# Translated code in system mode (src/hart/jit.c under `rvpmu system`)
# against the step loop (--no-jit). Each tests/jit-system/<test>.c is a
# bare-metal M-mode image (tests/bare's runtime: crt0.S, rt.c, link.ld)
# that prints one line per numbered check and "checks N, all passed", and
# more lines (values, the mepc of every interrupt) that only the
# comparison looks at. Each runs four times:
#   rvpmu system --bios none           translated, then with --no-jit:
#       both must pass every check and print the same; RVPMU_JIT_STATS
#       must show the first ran mostly in translated code, the second none
#   rvpmu stat -a -x, --profile u74 -e EVENTS -- system --bios none
#       the same pair on the U74 (its models on): the same checks, the same
#       output, and every count equal
# Then make fuzz's system-mode differential (tests/fuzz/fuzz_sysjit.c)
# replays its seed under several machines (Sv39 paging among them), and
# the shared Linux image's perf tests boot translated and with --no-jit
# (the MMU on; OpenSBI and the virt models in one pair): the same console
# and counts.
# Lines: PASS jit-system T: what | FAIL jit-system T: what: why.
# docs/bare-tests.md describes the tests.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${RVPMU:=$root/build/rvpmu}" "${BUILD:=$root/build}"
out=$BUILD/tests/jit-system
mkdir -p "$out" || exit 1
CC=${BARE_CC:-riscv64-unknown-elf-gcc}
HOSTCC=${HOSTCC:-cc}
T=${JIT_SYSTEM_TIMEOUT:-120}
TESTS=${JIT_SYSTEM_TESTS:-"hot fault fpoff smc timer lcofi smp"}
# generic events, then U74 raw ones: class 0 (retired: exceptions,
# loads, stores, atomics, CSR, arith, branches, jal, jalr, mul, div,
# fp-add, fp-mul, fp-div/sqrt), class 1 (load-use, long-latency and
# CSR-read stalls, mispredicts, flushes), class 2 (L1 misses with MMIO,
# write-backs), class 240 (rvpmu's coherence events)
EVENTS=cycles,instructions,branches,branch-misses,L1-dcache-load-misses,L1-icache-load-misses,\
r100,r200,r400,r800,r1000,r2000,r4000,r8000,r10000,r20000,r40000,r200000,r400000,r1000000,\
r101,r201,r401,r2001,r4001,r8001,r10001,r102,r202,r402,r1f0,r2f0,r4f0

pass() { echo "PASS jit-system $1"; }
fail() { echo "FAIL jit-system $1: $2"; }

if ! command -v "$CC" >/dev/null 2>&1; then
	fail build "$CC not installed"
	exit 0
fi
# the values hot.c's kernels must return, computed on the host
if ! "$HOSTCC" -O2 -ffp-contract=off -fno-math-errno -fno-strict-aliasing -o "$out/expect" \
	"$here/expect.c" -lm >&2 || ! "$out/expect" > "$out/expect.h"; then
	fail expect "the host program expect.c does not build or run"
	exit 0
fi

build() {	# build TEST: $out/TEST.elf
	extra=
	[ "$1" = smp ] && extra="$here/smp-entry.S -Wl,-e,smp_entry"
	# shellcheck disable=SC2086 # extra is words
	$CC -march=rv64gc_zba_zbb_zicsr_zifencei -mabi=lp64d -mcmodel=medany -nostdlib -nostartfiles \
		-ffreestanding -fno-builtin -ffp-contract=off -fno-math-errno -fno-strict-aliasing \
		-O2 -g -Wall -Wextra -Werror -I"$root/tests/bare" -I"$out" \
		-T "$root/tests/bare/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
		-o "$out/$1.elf" "$root/tests/bare/crt0.S" "$root/tests/bare/rt.c" "$here/$1.c" $extra >&2
}

# passed OUT RC [SKIP]: exit 0 and every check passed (or, with SKIP, the
# test said it does not apply to the core)
passed() {
	[ "$2" = 0 ] || return 1
	grep -q '^checks [0-9]*, all passed$' "$1" && return 0
	[ -n "$3" ] && grep -q '^skip ' "$1"
}

# why OUT ERR RC: the reason for a FAIL line
why() {
	[ "$3" = 124 ] && { printf 'timed out after %ss' "$T"; return; }
	f=$(grep -m1 '^FAIL ' "$1")
	[ -n "$f" ] && { printf 'exit %s, %s' "$3" "$f"; return; }
	printf 'exit %s: %s' "$3" "$(grep -v '^rvpmu: jit:' "$2" | head -n 1)"
}

# jit ERR FIELD: from the RVPMU_JIT_STATS lines, 1 blocks translated,
# 2 instructions in translated code, 3 all instructions
jit() {
	case $2 in
	1) sed -n 's/^rvpmu: jit: \([0-9]*\) blocks translated, .*/\1/p' "$1" ;;
	*) sed -n 's/^rvpmu: jit: \([0-9]*\) of \([0-9]*\) instructions (.*) in translated code.*/\1 \2/p' "$1" |
		cut -d' ' -f$(($2 - 1)) ;;
	esac | tail -n 1
}

# translated T JITERR NOJITERR PERCENT: the first run had blocks and at
# least PERCENT of its instructions in them, the second none, and both
# retired as many instructions
translated() {
	b=$(jit "$2" 1) i=$(jit "$2" 2) n=$(jit "$2" 3)
	b2=$(jit "$3" 1) n2=$(jit "$3" 3)
	if [ -z "$b" ] || [ -z "$b2" ]; then
		fail "$1" "no RVPMU_JIT_STATS line"
	elif [ "$b" = 0 ] || [ $((i * 100)) -lt $((n * $4)) ]; then
		fail "$1" "$b blocks, $i of $n instructions in translated code (want at least $4%)"
	elif [ "$b2" != 0 ]; then
		fail "$1" "--no-jit translated $b2 blocks"
	elif [ "$n" != "$n2" ]; then
		fail "$1" "$n instructions translated, $n2 with --no-jit"
	else
		pass "$1 ($b blocks, $i of $n instructions in them)"
	fi
}

for t in $TESTS; do
	if ! build "$t"; then
		fail "$t" "build failed"
		continue
	fi
	opts=
	[ "$t" = smp ] && opts="--smp 2"
	pct=50
	[ "$t" = smc ] && pct=25   # a page the guest rewrote runs stepped
	skip=
	[ "$t" = lcofi ] && skip=1  # no Sscofpmf on the U74
	# 1. the default core
	for m in jit nojit; do
		nj=
		[ "$m" = nojit ] && nj=--no-jit
		# shellcheck disable=SC2086
		RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" system --bios none $opts $nj --max-insns 100000000 \
			--kernel "$out/$t.elf" </dev/null >"$out/$t.$m.out" 2>"$out/$t.$m.err"
		eval "rc_$m=\$?"
	done
	# shellcheck disable=SC2154 # rc_jit, rc_nojit: set by the eval
	if passed "$out/$t.jit.out" "$rc_jit"; then pass "$t translated: checks"
	else fail "$t translated: checks" "$(why "$out/$t.jit.out" "$out/$t.jit.err" "$rc_jit")"; fi
	# shellcheck disable=SC2154
	if passed "$out/$t.nojit.out" "$rc_nojit"; then pass "$t --no-jit: checks"
	else fail "$t --no-jit: checks" "$(why "$out/$t.nojit.out" "$out/$t.nojit.err" "$rc_nojit")"; fi
	if cmp -s "$out/$t.jit.out" "$out/$t.nojit.out"; then pass "$t: same output translated and --no-jit"
	else fail "$t: same output translated and --no-jit" \
		"$(diff "$out/$t.jit.out" "$out/$t.nojit.out" | grep -m1 '^[<>]')"; fi
	translated "$t: translated" "$out/$t.jit.err" "$out/$t.nojit.err" "$pct"

	# 2. the U74 under rvpmu stat
	for m in jit nojit; do
		nj=
		[ "$m" = nojit ] && nj=--no-jit
		# shellcheck disable=SC2086
		RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" stat -a -x, --profile u74 -e "$EVENTS" -- \
			system --bios none $opts $nj --max-insns 100000000 --kernel "$out/$t.elf" \
			</dev/null >"$out/$t.u74-$m.out" 2>"$out/$t.u74-$m.err"
		eval "rc_$m=\$?"
		grep -v -e '^rvpmu: jit:' -e '^# started on' "$out/$t.u74-$m.err" >"$out/$t.u74-$m.counts"
	done
	if passed "$out/$t.u74-jit.out" "$rc_jit" $skip; then pass "$t u74 translated: checks"
	else fail "$t u74 translated: checks" "$(why "$out/$t.u74-jit.out" "$out/$t.u74-jit.err" "$rc_jit")"; fi
	if passed "$out/$t.u74-nojit.out" "$rc_nojit" $skip; then pass "$t u74 --no-jit: checks"
	else fail "$t u74 --no-jit: checks" "$(why "$out/$t.u74-nojit.out" "$out/$t.u74-nojit.err" "$rc_nojit")"; fi
	if cmp -s "$out/$t.u74-jit.out" "$out/$t.u74-nojit.out"; then pass "$t u74: same output translated and --no-jit"
	else fail "$t u74: same output translated and --no-jit" \
		"$(diff "$out/$t.u74-jit.out" "$out/$t.u74-nojit.out" | grep -m1 '^[<>]')"; fi
	nc=$(grep -c ',' "$out/$t.u74-jit.counts")
	if [ "$nc" != "$(echo "$EVENTS" | tr ',' '\n' | wc -l)" ]; then
		fail "$t u74: same counts" "$nc count lines, not one per event"
	elif cmp -s "$out/$t.u74-jit.counts" "$out/$t.u74-nojit.counts"; then
		pass "$t u74: same counts translated and --no-jit ($nc events)"
	else
		fail "$t u74: same counts translated and --no-jit" \
			"$(diff "$out/$t.u74-jit.counts" "$out/$t.u74-nojit.counts" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"
	fi
	translated "$t u74: translated" "$out/$t.u74-jit.err" "$out/$t.u74-nojit.err" "$pct"
done

# 3. make fuzz's system-mode differential (tests/fuzz/fuzz_sysjit.c), built
# with the plain compiler over make all's objects, on its seed under
# machine bytes for both cores, M and S (S also with Sv39 paging), timer,
# counter overflow and two
# harts: it traps on a difference; each run must translate blocks
objs=
for o in "$BUILD"/obj/src/*/*.o; do
	case $o in */src/cli/*) ;; *) objs="$objs $o" ;; esac
done
# shellcheck disable=SC2086 # objs, TEST_LDFLAGS: words
if ! ${HOSTCC} -std=gnu11 -O1 -g -Wall -Wextra -Werror -DFUZZ_SYSJIT_REPLAY -I"$root/include" \
	$TEST_LDFLAGS -o "$out/sysjit_replay" "$root/tests/fuzz/fuzz_sysjit.c" $objs \
	-lelf -ldw -lfdt -ljansson -liberty -lm >&2 ||
   ! $CC -march=rv64gc_zba_zbb -mabi=lp64d -nostdlib -nostartfiles -Wl,-e,0x80001000 \
	-Wl,-Ttext=0x80001000 -Wl,--no-warn-rwx-segments -o "$out/loops.elf" \
	"$root/tests/fuzz/sysjit-seeds/loops.S" >&2 ||
   ! riscv64-unknown-elf-objcopy -O binary -j .text "$out/loops.elf" "$out/loops.bin"; then
	fail fuzz-seeds "fuzz_sysjit.c or its seed does not build (run make all first)"
	exit 0
fi
for b in 0 1 2 3 5 10 11 24 26 27 29 56 58 59 66 67 74 75 82 98 99; do
	{ printf "\\$(printf %o "$b")"; cat "$out/loops.bin"; } > "$out/seed-loops-$b"
	RVPMU_PROFILE_DIR=$root/profiles "$out/sysjit_replay" "$out/seed-loops-$b" \
		>"$out/seed-loops-$b.out" 2>"$out/seed-loops-$b.err"; rc=$?
	n=$(sed -n 's/.*, \([0-9]*\) blocks translated$/\1/p' "$out/seed-loops-$b.out")
	if [ "$rc" != 0 ]; then
		fail "fuzz seed loops-$b" "exit $rc (translated and step-loop runs differ)"
	elif [ -z "$n" ] || [ "$n" = 0 ]; then
		fail "fuzz seed loops-$b" "no blocks translated: $(cat "$out/seed-loops-$b.out")"
	else
		pass "fuzz seed loops-$b (the same translated and --no-jit, $n blocks)"
	fi
done

# 4. Linux with the MMU on: the shared image's /init (the guest's own perf
# tests: counting, overflow sampling, privilege filters) booted translated
# and with --no-jit must print the same console, timestamps and counts
# included, and end with no guest failure: with the built-in SBI and no
# models, and with OpenSBI (M-mode code translated too) under rvpmu stat
# -a with the virt models, whose every count must be equal as well
. "$root/tests/linux/lib.sh"
linux_image
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
if [ -z "$img" ] || [ ! -f "$fw" ]; then
	fail linux "no shared Linux image or no $fw"
	exit 0
fi
boot() {   # NAME [rvpmu stat options --] system options...
	name=$1
	shift
	RVPMU_JIT_STATS=1 RVPMU_PROFILE_DIR=$root/profiles timeout 600 "$RVPMU" "$@" -q -m 256 \
		--kernel "$img/Image" --initrd "$img/initramfs.cpio.gz" --append "console=ttyS0" \
		</dev/null >"$out/$name.log" 2>"$out/$name.err"
}
ev=cycles,instructions,branches,branch-misses,L1-dcache-loads,L1-dcache-load-misses,L1-dcache-stores
ev=$ev,L1-icache-load-misses,dTLB-load-misses,dTLB-store-misses,iTLB-load-misses,LLC-loads,LLC-load-misses
for kind in sbi opensbi-virt; do
	for m in jit nojit; do
		nj=; [ $m = nojit ] && nj=--no-jit
		if [ $kind = sbi ]; then
			boot linux-$kind-$m system --no-sbi-snapshot $nj   # (Linux <= 6.12 and snapshots: tests/linux)
		else
			boot linux-$kind-$m stat -a --profile virt -x, -e "$ev" -o "$out/linux-$kind-$m.counts" -- \
				system --bios "$fw" $nj
		fi
	done
	log=$out/linux-$kind-jit.log
	sum=$(grep -a '^SUMMARY:' "$log" | tr -d '\r')
	if ! grep -aq '^SUMMARY: [0-9]* passed, 0 failed' "$log"; then
		fail "linux $kind" "the guest's tests: ${sum:-no summary} ($(tail -n 2 "$out/linux-$kind-jit.err" | tr '\n' '|'))"
	elif ! cmp -s "$log" "$out/linux-$kind-nojit.log"; then
		fail "linux $kind" "console differs from --no-jit's: $(diff "$log" "$out/linux-$kind-nojit.log" | head -n 4 | tr '\n' '|')"
	elif [ $kind != sbi ] && ! cmp -s "$out/linux-$kind-jit.counts" "$out/linux-$kind-nojit.counts"; then
		# (the "# started on" line aside)
		if [ "$(tail -n +2 "$out/linux-$kind-jit.counts")" != "$(tail -n +2 "$out/linux-$kind-nojit.counts")" ]; then
			fail "linux $kind" "counts differ from --no-jit's: $(diff "$out/linux-$kind-jit.counts" "$out/linux-$kind-nojit.counts" | head -n 4 | tr '\n' '|')"
		else
			pass "linux $kind: $sum, the same console and counts translated and with --no-jit"
		fi
	else
		pass "linux $kind: $sum, the same console translated and with --no-jit"
	fi
	translated "linux $kind: translated" "$out/linux-$kind-jit.err" "$out/linux-$kind-nojit.err" 50
done
exit 0
