#!/bin/sh
# Block translation (src/hart/jit.c) against the step loop (--no-jit) and
# qemu-riscv64: the self-checking blocks.S; random programs
# (gen_random.py) leaving the same registers and memory; the bench
# workloads (small scale) with identical output and exactly equal
# instruction counts; and
# sampling, where every sample must fall on the same instruction with and
# without translation (the budget stops a block exactly). RVPMU_JIT_STATS
# shows that blocks really were translated, so the comparisons can fail.
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
: "${RVPMU:=$root/build/rvpmu}" "${BUILD:=$root/build}"
out=$BUILD/tests/jit
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-riscv64}
T=${GUEST_TIMEOUT:-60}
ulimit -c 0 2>/dev/null

pass() { echo "PASS jit $1"; }
fail() { echo "FAIL jit $1: $2"; }

# translated ERRFILE: blocks translated, from the RVPMU_JIT_STATS line
translated() {
	sed -n 's/^rvpmu: jit: \([0-9]*\) blocks translated.*/\1/p' "$1" | tail -n 1
}
# inner ERRFILE: conditional branches blocks went on past (superblocks)
inner() {
	sed -n 's/^rvpmu: jit: .*, \([0-9]*\) branches gone on past$/\1/p' "$1" | tail -n 1
}

# 1. blocks.S: exit 0 everywhere and the same instruction count, translated
# with at least one flush (the rewritten code)
bin=$out/blocks
if ! $CC -g -march=rv64gc -mabi=lp64d -I"$root/tests/guest" -static -nostdlib \
	-Wl,--no-relax -o "$bin" "$here/blocks.S" >&2; then
	fail blocks "does not build"
else
	timeout "$T" "$QEMU" "$bin" </dev/null >/dev/null 2>&1; q=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --insn-count "$out/blocks.n1" "$bin" \
		</dev/null >/dev/null 2>"$out/blocks.err"; r=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --no-jit --insn-count "$out/blocks.n2" "$bin" \
		</dev/null >/dev/null 2>&1; s=$?
	n=$(translated "$out/blocks.err")
	f=$(sed -n 's/^rvpmu: jit: .*, \([0-9]*\) flushes.*/\1/p' "$out/blocks.err")
	if [ "$q" != 0 ]; then
		fail blocks "bad test: qemu exit $q"
	elif [ "$r" != 0 ] || [ "$s" != 0 ]; then
		fail blocks "exit $r translated, $s with --no-jit (the failing check's number)"
	elif ! cmp -s "$out/blocks.n1" "$out/blocks.n2"; then
		fail blocks "instructions $(cat "$out/blocks.n1") translated, $(cat "$out/blocks.n2") in the step loop"
	elif [ "${n:-0}" -lt 10 ] || [ "${f:-0}" -lt 1 ]; then
		fail blocks "expected translated blocks and a flush, got '$(cat "$out/blocks.err")'"
	else
		pass blocks
	fi
fi

# stat_same PROG -- STAT-ARGS: empty when `rvpmu stat STAT-ARGS PROG`
# counts the same translated and with --no-jit, else why
stat_same() {
	p=$1; shift
	for m in jit step; do
		flag=; [ $m = step ] && flag=--no-jit
		timeout "$T" "$RVPMU" stat $flag -x, -o "$out/same.$m" "$@" "$p" >/dev/null 2>&1
	done
	if ! grep -q '^[0-9]' "$out/same.jit"; then
		echo "stat $*: no counts"
	elif ! diff -I '^# started on' "$out/same.jit" "$out/same.step" >/dev/null; then
		echo "stat $*: $(diff -I '^# started on' "$out/same.jit" "$out/same.step" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"
	fi
}
# the instruction-class events without models (inline in counting blocks),
CLASSES=INSTRUCTIONS,LOADS,STORES,BRANCHES,BRANCHES_TAKEN,INT_MUL,INT_DIV,FP_OPS,ATOMICS,CSR_ACCESSES,INT_LOADS,INT_STORES,INT_ARITH,SYSTEM_OTHER
# and the u74's models (their inline hit paths; two events at a time, as
# its counters allow)
counts_same() {
	why=$(stat_same "$1" --no-uarch --profile virt -e "$CLASSES")
	for e in amos_retired,dcache_misses_or_mmio int_arith_retired,int_muls_retired \
		 all_loads_retired,all_stores_retired stalled-cycles-backend,addrgen_interlocks; do
		[ -z "$why" ] && why=$(stat_same "$1" --profile u74 -e "cycles,instructions,$e")
	done
	echo "$why"
}
# share ERRFILE: the percentage of instructions run translated
share() {
	sed -n 's/^rvpmu: jit: [0-9]* of [0-9]* instructions (\([0-9.]*\)%) in translated.*/\1/p' "$1" | tail -n 1
}

# 1b. bitmanip-atomic.S: Zba/Zbb/Zbs, mulhsu, AMOs and LR/SC in a loop,
# self-checking, run all but whole in translated code (each ended a block
# before, and the loop's blocks, too short, were given back to the step
# loop: 0.2% translated), with the step loop's instruction count and stat
# counts. QEMU 7.2 fails its last check only (ctzw, see the file).
src=$here/bitmanip-atomic.S bin=$out/bitmanip-atomic
if ! $CC -g -march=rv64gc -mabi=lp64d -I"$root/tests/guest" -static -nostdlib \
	-Wl,--no-relax -o "$bin" "$src" >&2; then
	fail bitmanip-atomic "does not build"
else
	last=$(grep -c '^[[:space:]]*CHECK' "$src")
	timeout "$T" "$QEMU" "$bin" </dev/null >/dev/null 2>&1; q=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --insn-count "$out/ba.n1" "$bin" \
		</dev/null >/dev/null 2>"$out/ba.err"; r=$?
	timeout "$T" "$RVPMU" run --no-jit --insn-count "$out/ba.n2" "$bin" </dev/null >/dev/null 2>&1; s=$?
	sh_=$(share "$out/ba.err")
	if [ "$q" != 0 ] && [ "$q" != "$last" ]; then
		fail bitmanip-atomic "bad test: qemu fails check $q"
	elif [ "$r" != 0 ] || [ "$s" != 0 ]; then
		fail bitmanip-atomic "check $r fails translated, $s with --no-jit"
	elif ! cmp -s "$out/ba.n1" "$out/ba.n2"; then
		fail bitmanip-atomic "instructions $(cat "$out/ba.n1") translated, $(cat "$out/ba.n2") in the step loop"
	elif ! awk -v s="${sh_:-0}" 'BEGIN { exit !(s >= 99.0) }'; then
		fail bitmanip-atomic "${sh_:-no}% of the instructions translated, expected at least 99%"
	else
		why=$(counts_same "$bin")
		if [ -z "$why" ]; then pass bitmanip-atomic; else fail bitmanip-atomic "$why"; fi
	fi
fi

# 1c. every Zb form and mulhsu on every pair of awkward values
# (gen_random.py --table): the results qemu-riscv64 and the step loop give,
# translated (85% before, the Zb instructions in the step loop)
prog=$out/zb-table
if ! python3 "$here/gen_random.py" --table >"$prog.S" ||
   ! $CC -static -nostdlib -Wl,--no-relax -o "$prog" "$prog.S" >&2; then
	fail zb-table "does not build"
else
	timeout "$T" "$QEMU" "$prog" >"$prog.qemu" 2>/dev/null; q=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run "$prog" >"$prog.jit" 2>"$prog.err"; r=$?
	timeout "$T" "$RVPMU" run --no-jit "$prog" >"$prog.step" 2>/dev/null; s=$?
	sh_=$(share "$prog.err")
	if [ "$q" != 0 ] || [ "$r" != 0 ] || [ "$s" != 0 ]; then
		fail zb-table "exit $q under qemu, $r translated, $s with --no-jit"
	elif ! cmp -s "$prog.step" "$prog.qemu"; then
		fail zb-table "step loop: results differ from qemu's"
	elif ! cmp -s "$prog.jit" "$prog.qemu"; then
		fail zb-table "translated: results differ from qemu's (at byte $(cmp "$prog.jit" "$prog.qemu" | sed 's/.*byte \([0-9]*\).*/\1/'))"
	elif ! awk -v s="${sh_:-0}" 'BEGIN { exit !(s >= 99.0) }'; then
		fail zb-table "${sh_:-no}% of the instructions translated"
	else
		pass zb-table
	fi
fi

# 2. random programs (gen_random.py): registers and memory as qemu-riscv64
# and the step loop leave them, and
# stat's counts equal translated and in the step loop
for seed in 1 2 3 4 5 6 7 8; do
	src=$out/random-$seed.S prog=$out/random-$seed
	if ! python3 "$here/gen_random.py" "$seed" >"$src" ||
	   ! $CC -static -nostdlib -Wl,--no-relax -o "$prog" "$src" >&2; then
		fail "random-$seed" "does not build"
		continue
	fi
	timeout "$T" "$QEMU" "$prog" >"$out/random-$seed.qemu" 2>/dev/null; q=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run "$prog" >"$out/random-$seed.jit" \
		2>"$out/random-$seed.err"; r=$?
	timeout "$T" "$RVPMU" run --no-jit "$prog" >"$out/random-$seed.step" 2>/dev/null; s=$?
	n=$(translated "$out/random-$seed.err")
	if [ "$q" != 0 ]; then
		fail "random-$seed" "bad test: qemu exit $q"
	elif [ "$r" != 0 ] || [ "$s" != 0 ]; then
		fail "random-$seed" "exit $r translated, $s with --no-jit"
	elif ! cmp -s "$out/random-$seed.jit" "$out/random-$seed.qemu"; then
		fail "random-$seed" "translated: registers or memory differ from qemu's"
	elif ! cmp -s "$out/random-$seed.step" "$out/random-$seed.qemu"; then
		fail "random-$seed" "step loop: registers or memory differ from qemu's"
	elif [ "${n:-0}" -lt 20 ]; then
		fail "random-$seed" "only '${n:-none}' blocks translated"
	else
		why=$(counts_same "$prog")
		if [ -z "$why" ]; then pass "random-$seed"; else fail "random-$seed" "$why"; fi
	fi
done

# 3. the bench workloads at 2% size (smc: code that rewrites itself)
for w in compute memory branchy smc; do
	prog=$out/$w
	if ! $CC -static -O2 -fno-omit-frame-pointer -g -o "$prog" "$root/bench/workloads/$w.c" >&2; then
		fail "$w" "does not build"
		continue
	fi
	timeout "$T" "$QEMU" "$prog" 2 >"$out/$w.qemu" 2>/dev/null
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --insn-count "$out/$w.n1" "$prog" 2 \
		>"$out/$w.jit" 2>"$out/$w.err"; r1=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --no-jit --insn-count "$out/$w.n2" "$prog" 2 \
		>"$out/$w.step" 2>/dev/null; r2=$?
	n=$(translated "$out/$w.err")
	if [ "$r1" != 0 ] || [ "$r2" != 0 ]; then
		fail "$w" "exit $r1 translated, $r2 with --no-jit"
	elif ! cmp -s "$out/$w.jit" "$out/$w.qemu" || ! cmp -s "$out/$w.step" "$out/$w.qemu"; then
		fail "$w" "output differs from qemu-riscv64's"
	elif ! cmp -s "$out/$w.n1" "$out/$w.n2"; then
		fail "$w" "instructions $(cat "$out/$w.n1") translated, $(cat "$out/$w.n2") in the step loop"
	elif [ "${n:-0}" -lt 50 ]; then
		fail "$w" "only '${n:-none}' blocks translated"
	else
		pass "$w"
	fi
done

# smc rewrites a function before each call: its page leaves translation
# at the first write into blocks (one flush), rather than being flushed
# and translated again at every write (a flush per call)
f=$(sed -n 's/^rvpmu: jit: .*, \([0-9]*\) flushes.*/\1/p' "$out/smc.err")
if [ -n "$f" ] && [ "$f" -le 2 ]; then
	pass smc-flushes
else
	fail smc-flushes "'${f:-no}' flushes of translated code, want at most 2"
fi

# 4. sampling on instructions: the same sample on the same instruction,
# every 10007 instructions (a period prime to every block length)
prog=$out/branchy
ok=1
for mode in jit step; do
	flag=; [ $mode = step ] && flag=--no-jit
	if ! timeout "$T" "$RVPMU" record -q $flag -e instructions -c 10007 -o "$out/rec.$mode.data" \
		"$prog" 2 >/dev/null 2>"$out/rec.$mode.err" ||
	   ! "$RVPMU" report -i "$out/rec.$mode.data" --stdio -n --sort sym >"$out/rec.$mode.txt" 2>&1; then
		fail record-samples "record/report ($mode) failed: $(head -n 3 "$out/rec.$mode.err")"
		ok=0
	fi
done
if [ $ok = 1 ]; then
	samples=$(awk '$1 ~ /%$/ { n += $2 } END { print n }' "$out/rec.jit.txt")
	if ! cmp -s "$out/rec.jit.txt" "$out/rec.step.txt"; then
		fail record-samples "reports differ: $(diff "$out/rec.jit.txt" "$out/rec.step.txt" | head -n 4 | tr '\n' ' ')"
	elif [ "${samples:-0}" -lt 100 ]; then
		fail record-samples "only '${samples:-no}' samples"
	else
		pass record-samples
	fi
fi
# sampling the models' cycles (the default event): counting blocks run to
# the overflow horizon like the step loop, so the samples are the same
for mode in jit step; do
	flag=; [ $mode = step ] && flag=--no-jit
	timeout "$T" "$RVPMU" record -q $flag -c 10007 -o "$out/recc.$mode.data" "$prog" 2 \
		>/dev/null 2>&1
	perf script -i "$out/recc.$mode.data" -F ip > "$out/recc.$mode.txt" 2>/dev/null
done
n=$(wc -l < "$out/recc.jit.txt")
if [ "$n" -lt 100 ]; then
	fail record-cycles "only $n samples in the translated run"
elif ! cmp -s "$out/recc.jit.txt" "$out/recc.step.txt"; then
	fail record-cycles "sample pcs differ from the step loop's"
else
	pass record-cycles
fi
# and the per-address counts behind them (annotate of the hottest function)
sym=$(awk '/%/ { print $NF; exit }' "$out/rec.jit.txt" 2>/dev/null)
if [ -n "$sym" ] &&
   "$RVPMU" annotate -i "$out/rec.jit.data" --stdio "$sym" >"$out/ann.jit" 2>&1 &&
   "$RVPMU" annotate -i "$out/rec.step.data" --stdio "$sym" >"$out/ann.step" 2>&1 &&
   cmp -s "$out/ann.jit" "$out/ann.step"; then
	pass record-addresses
else
	fail record-addresses "annotate of '${sym:-?}' differs or failed"
fi

# 6. counting blocks: with the models on (stat) every count equals the
# step loop's, and blocks were translated, going on past branches (their
# taken ways out are blocks of their own). compute and branchy count every
# event the profile names, as many at a time as it has counters so nothing
# multiplexes; memory (slow to set up) the memory system's. Both runs have
# RVPMU_JIT_STATS in the guest's environment: it moves the stack.
events() {   # the hardware, cache and profile events the core can count
	"$RVPMU" list --profile "$1" --raw-dump hw cache pmu | tr ' ' '\n' | grep .
}
# same_counts PROFILE PROG EVENTS [SIZE]: empty when equal, else why
same_counts() {
	for m in jit step; do
		flag=; [ $m = step ] && flag=--no-jit
		RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" stat $flag $SC_FLAGS --profile "$1" -x, -e "$3" \
			-o "$out/cnt.$m" "$2" "${4:-1}" >/dev/null 2>"$out/cnt.$m.err"
	done
	n=$(translated "$out/cnt.jit.err") i=$(inner "$out/cnt.jit.err")
	if [ "${n:-0}" -lt 50 ] || [ "${i:-0}" -lt 10 ]; then
		echo "only '${n:-none}' blocks translated, '${i:-none}' past a branch"
	elif ! grep -q '^[0-9]' "$out/cnt.jit" ||   # (after perf's "# started on DATE")
	     ! diff -I '^# started on' "$out/cnt.jit" "$out/cnt.step" >/dev/null; then
		echo "$3: $(diff -I '^# started on' "$out/cnt.jit" "$out/cnt.step" | head -n 4 | tr '\n' ' ')"
	fi
}
for p in u74:2 virt:16; do
	prof=${p%:*} per=${p#*:}
	for w in compute branchy smc; do
		why= groups=0
		set -- $(events "$prof")
		while [ $# -gt 0 ] && [ -z "$why" ]; do
			g=$1; shift; i=1
			while [ $i -lt "$per" ] && [ $# -gt 0 ]; do g=$g,$1; shift; i=$((i + 1)); done
			groups=$((groups + 1))
			why=$(same_counts "$prof" "$out/$w" "$g")
		done
		[ $groups -lt 2 ] && why="${why:-no events listed}"
		if [ -z "$why" ]; then pass "counting-$prof-$w"; else fail "counting-$prof-$w" "$why"; fi
	done
done
# without models (--no-uarch), counting blocks add their class events
# inline: every class event the virt profile names, sixteen at a time
for w in compute branchy smc; do
	why=$(SC_FLAGS=--no-uarch same_counts virt "$out/$w" CYCLES,INSTRUCTIONS,LOADS,STORES,BRANCHES,BRANCHES_TAKEN,JAL,JALR,CALLS,RETURNS,INT_MUL,INT_DIV,FP_OPS,ATOMICS,CSR_ACCESSES,EXCEPTIONS)
	[ -z "$why" ] && why=$(SC_FLAGS=--no-uarch same_counts virt "$out/$w" INT_LOADS,INT_STORES,FP_LOADS,FP_STORES,INT_ARITH,SYSTEM_OTHER,FP_ADD,FP_MUL,FP_FMA,FP_DIVSQRT,FP_OTHER)
	if [ -z "$why" ]; then pass "counting-no-uarch-$w"; else fail "counting-no-uarch-$w" "$why"; fi
done
# translated code counts the model events counters count, which change as
# multiplexed counters take turns: ten events on the u74's two counters,
# those that translated code counts itself (mispredicts, stalls) last, so
# that blocks made before their turn must be made again (checked to fail
# when they are not); long enough for every event to have its turns
why=$(same_counts u74 "$out/branchy" cycles,instructions,INT_LOADS_RETIRED,JAL_RETIRED,DCACHE_MISSES_OR_MMIO,DTLB_MISSES,branch-misses,ADDRGEN_INTERLOCKS,stalled-cycles-backend,TARGET_MISPREDICTS 20)
if [ -z "$why" ] && grep -q 'not counted' "$out/cnt.jit"; then why="an event never had its turn"; fi
if [ -z "$why" ]; then pass counting-u74-multiplexed; else fail counting-u74-multiplexed "$why"; fi
why=$(same_counts u74 "$out/memory" cycles,instructions,DCACHE_MISSES_OR_MMIO,DTLB_MISSES)
[ -z "$why" ] && why=$(same_counts virt "$out/memory" cycles,instructions,L1D_READ_MISSES,L1D_WRITE_MISSES,L1D_WRITEBACKS,LL_READ_MISSES,LL_WRITE_ACCESSES,LL_WRITE_MISSES,DTLB_READ_MISSES,DTLB_WRITE_MISSES,L2TLB_MISSES,STALL_DCACHE_BUSY,STALL_LOAD_USE,BRANCH_MISPREDICTS,STALL_BACKEND)
if [ -z "$why" ]; then pass counting-memory; else fail counting-memory "$why"; fi
# a profile with L1 lines narrower than an 8-byte access (narrow-lines.json):
# each ld, sd, fld and fsd looks up two L1D lines, which translated code
# leaves to the step loop
why=$(same_counts "$here/narrow-lines.json" "$out/compute" cycles,instructions,L1D_READ_ACCESSES,L1D_READ_MISSES,L1D_WRITE_ACCESSES,L1D_WRITE_MISSES,L1D_WRITEBACKS,L1I_ACCESSES,L1I_MISSES,LL_READ_ACCESSES,LL_WRITE_ACCESSES,DTLB_READ_ACCESSES,DTLB_WRITE_ACCESSES,STALL_LOAD_USE,STALL_DCACHE_BUSY,STALL_BACKEND)
if [ -z "$why" ]; then pass counting-narrow-lines; else fail counting-narrow-lines "$why"; fi

# misaligned.S: loads and stores across L1D lines in a hot loop (as
# Linux's probe of misaligned-access speed makes them); with the virt
# models every count equals the step loop's, and they ran translated:
# at most 10 side exits where the loop makes 62,000 crossing accesses
bin=$out/misaligned
if ! $CC -static -nostdlib -o "$bin" "$here/misaligned.S" >&2; then
	fail misaligned-lines "does not build"
else
	timeout "$T" "$QEMU" "$bin" </dev/null >/dev/null 2>&1; q=$?
	ev=cycles,instructions,L1D_READ_ACCESSES,L1D_READ_MISSES,L1D_WRITE_ACCESSES,L1D_WRITE_MISSES,DTLB_READ_ACCESSES,DTLB_WRITE_ACCESSES,STALL_LOAD_USE,STALL_DCACHE_BUSY
	for m in jit step; do
		flag=; [ $m = step ] && flag=--no-jit
		RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" stat $flag --profile virt -x, -e "$ev" \
			-o "$out/mis.$m" "$bin" >/dev/null 2>"$out/mis.$m.err"
		eval "r_$m=\$?"
	done
	side=$(sed -n 's/^rvpmu: jit: .* \([0-9]*\) side exits.*/\1/p' "$out/mis.jit.err")
	if [ "$q" = 0 ] || [ "$r_jit" != "$q" ] || [ "$r_step" != "$q" ]; then
		fail misaligned-lines "exit $r_jit translated, $r_step stepped, $q under qemu (its checksum)"
	elif ! diff -I '^# started on' "$out/mis.jit" "$out/mis.step" >/dev/null; then
		fail misaligned-lines "$(diff -I '^# started on' "$out/mis.jit" "$out/mis.step" | head -n 4 | tr '\n' ' ')"
	elif [ -z "$side" ] || [ "$side" -gt 10 ]; then
		fail misaligned-lines "'${side:-no}' side exits, want at most 10"
	else
		pass misaligned-lines
	fi
fi

# 7. the largest block there can be (64 instructions, 62 of them stores:
# the models' inline code and out-of-line paths for each) with the models
# of either profile takes at most half the room a block may have
src=$out/stores.S big=$out/stores
{
	printf '\t.globl _start\n_start:\n\tla a0, buf\n\tli a1, 1000\n1:\n'
	i=0; while [ $i -lt 62 ]; do printf '\tsd a1, %d(a0)\n' $((i * 32)); i=$((i + 1)); done
	printf '\taddi a1, a1, -1\n\tbnez a1, 1b\n\tli a0, 0\n\tli a7, 93\n\tecall\n'
	printf '\t.bss\n\t.balign 4096\nbuf:\t.space 8192\n'
} >"$src"
if ! $CC -static -nostdlib -o "$big" "$src" >&2; then
	fail block-room "does not build"
else
	for prof in u74 virt; do
		RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" stat --profile $prof -e cycles -o /dev/null \
			"$big" >/dev/null 2>"$out/stores.err"
		set -- $(sed -n 's/.*largest \([0-9]*\) of \([0-9]*\) bytes.*/\1 \2/p' "$out/stores.err")
		if [ $# -eq 2 ] && [ "$1" -gt 4096 ] && [ $(($1 * 2)) -le "$2" ]; then
			pass "block-room-$prof"
		else
			fail "block-room-$prof" "largest block '$1' bytes of '$2': $(head -c 200 "$out/stores.err")"
		fi
	done
fi

# 8. among harts: tests/fuzz/fuzz_jit.c's runs (translated against the
# step loop, alone and in a coherence domain with another hart's models,
# whose lines this hart's stores upgrade and its misses take), built as a
# program (gcc, the objects make built) over the fuzzer's seed programs;
# each run must translate blocks, upgrade lines and take some
rp=$out/jit_replay
# shellcheck disable=SC2046 # one word per object
# shellcheck disable=SC2086 # TEST_LDFLAGS: make asan's sanitizers, which its objects need
if ! gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -I"$root/include" $TEST_LDFLAGS -DFUZZ_JIT_REPLAY -o "$rp" \
	"$root/tests/fuzz/fuzz_jit.c" $(ls "$BUILD"/obj/src/*/*.o | grep -v /cli/) \
	-lelf -ldw -lfdt -ljansson -liberty -lm >&2; then
	fail coherent "does not build"
else
	ins=
	for seed in 1 2 3 4; do
		python3 "$here/gen_random.py" --fuzz-seed "$seed" >"$out/fz$seed.S" &&
			$CC -static -nostdlib -Wl,--no-relax -o "$out/fz$seed" "$out/fz$seed.S" >&2 &&
			riscv64-linux-gnu-objcopy -O binary -j .text "$out/fz$seed" "$out/fz$seed.bin" &&
			head -c 4096 "$out/fz$seed.bin" >"$out/fz$seed.in" && ins="$ins $out/fz$seed.in"
	done
	# shellcheck disable=SC2086
	"$rp" $ins >"$out/coherent.txt" 2>&1; r=$?
	few=$(awk '$2 < 10 || $5 < 1 || $7 < 1 { print }' "$out/coherent.txt" | head -n 1)
	if [ "$r" != 0 ]; then
		fail coherent "exit $r: translated and step-loop runs differ ($(tail -n 1 "$out/coherent.txt"))"
	elif [ "$(wc -l <"$out/coherent.txt")" != 4 ] || [ -n "$few" ]; then
		fail coherent "too little done: ${few:-$(cat "$out/coherent.txt")}"
	else
		pass coherent
	fi
fi

# 5. --max-insns stops inside blocks exactly: the count file says so
for n in 1 2 3 1000 123457; do
	timeout "$T" "$RVPMU" run --max-insns "$n" --insn-count "$out/max.n" "$prog" 2 \
		>/dev/null 2>&1
	got=$(cat "$out/max.n" 2>/dev/null)
	if [ "$got" = "$n" ]; then
		pass "max-insns-$n"
	else
		fail "max-insns-$n" "retired '$got'"
	fi
done
# 6. restart.c: after a side exit at a loop's head and after a flush, the
# loops run translated again (before, the first sent the loop to the step
# loop one block at a time, the second the head of every block in counting
# runs: 56% and 46% translated); the same output as qemu, the same count
# as the step loop (the same environment: it moves the stack), and at least 99% of the instructions translated
prog=$out/restart
if ! $CC -static -O2 -o "$prog" "$here/restart.c" >&2; then
	fail restart "does not build"
else
	timeout "$T" "$QEMU" "$prog" >"$out/restart.qemu" 2>/dev/null
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --no-jit --insn-count "$out/restart.n0" "$prog" >"$out/restart.step" 2>/dev/null
	for mode in run u74; do
		if [ $mode = run ]; then
			set -- run --insn-count "$out/restart.n"
		else
			set -- stat -x, -e instructions -o "$out/restart.stat" --profile u74
		fi
		RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" "$@" "$prog" >"$out/restart.out" \
			2>"$out/restart.err"; r=$?
		[ $mode = u74 ] && sed -n 's/^\([0-9]*\),,instructions.*/\1/p' "$out/restart.stat" >"$out/restart.n"
		share=$(sed -n 's/^rvpmu: jit: [0-9]* of [0-9]* instructions (\([0-9.]*\)%) in translated.*/\1/p' \
			"$out/restart.err")
		if [ "$r" != 0 ] || ! cmp -s "$out/restart.out" "$out/restart.qemu"; then
			fail "restart-$mode" "exit $r, or output differs from qemu's"
		elif ! cmp -s "$out/restart.n" "$out/restart.n0"; then
			fail "restart-$mode" "instructions $(cat "$out/restart.n") translated, $(cat "$out/restart.n0") in the step loop"
		elif ! awk -v s="${share:-0}" 'BEGIN { exit !(s >= 99.0) }'; then
			fail "restart-$mode" "${share:-no}% of the instructions translated, expected at least 99%"
		else
			pass "restart-$mode"
		fi
	done
fi
# 7. rows.c: rows of loads and stores from one base register checking
# their pages once (src/hart/jit_row.c), within a page, across two, with
# the base replaced in mid-row, and faulting at a row's unmapped or
# read-only last page: the same output as qemu's, translated and in the
# step loop, with at least 95% of the instructions translated
prog=$out/rows
if ! $CC -static -O2 -o "$prog" "$here/rows.c" >&2; then
	fail rows "does not build"
else
	timeout "$T" "$QEMU" "$prog" >"$out/rows.qemu" 2>/dev/null
	timeout "$T" "$RVPMU" run --no-jit "$prog" >"$out/rows.step" 2>/dev/null; r0=$?
	RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run "$prog" >"$out/rows.out" 2>"$out/rows.err"; r=$?
	share=$(sed -n 's/^rvpmu: jit: [0-9]* of [0-9]* instructions (\([0-9.]*\)%) in translated.*/\1/p' \
		"$out/rows.err")
	if [ "$r" != 0 ] || [ "$r0" != 0 ] || [ ! -s "$out/rows.qemu" ] ||
	   ! cmp -s "$out/rows.out" "$out/rows.qemu" || ! cmp -s "$out/rows.step" "$out/rows.qemu"; then
		fail rows "exit $r (step loop $r0), or output differs from qemu's: $(diff "$out/rows.out" "$out/rows.qemu" | head -n 3 | tr '\n' ' ')"
	elif ! awk -v s="${share:-0}" 'BEGIN { exit !(s >= 95.0) }'; then
		fail rows "${share:-no}% of the instructions translated, expected at least 95%"
	else
		pass rows
	fi
fi
# perf-map: RVPMU_PERF_MAP=1 names each block's host code in
# /tmp/perf-PID.map, perf's convention for code made at run time: one line
# "START SIZE guest_PC[+models][.cold]" per part, a hot line per block
# translated (as RVPMU_JIT_STATS counts them), the program's entry among
# them, and no two parts overlapping; with the u74 models, "+models", and
# the models' shared lookup subroutines on lines of their own
# ("models_lookup_CACHE[_store]", apart from any block's parts).
# compute (from 3.) has no flush but at its exit, so no code is made twice.
bin=$out/compute
if [ -x "$bin" ]; then
	entry=$(riscv64-linux-gnu-readelf -h "$bin" | sed -n 's/.*Entry point address: *0x\([0-9a-f]*\).*/\1/p')
	for mode in run u74; do
		if [ $mode = run ]; then set -- run; else set -- stat -e instructions --profile u74; fi
		RVPMU_PERF_MAP=1 RVPMU_JIT_STATS=1 timeout "$T" sh -c 'echo $$ >"$0"; exec "$@"' \
			"$out/perfmap.pid" "$RVPMU" "$@" "$bin" 2 </dev/null >/dev/null 2>"$out/perfmap.err"
		map=/tmp/perf-$(cat "$out/perfmap.pid").map
		n=$(translated "$out/perfmap.err")
		why=$(awk -v n="${n:-0}" -v entry="$entry" -v want="$([ $mode = u74 ] && echo +models)" '
			function hex(x,   i, v) {
				v = 0
				for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
				return v
			}
			/^[0-9a-f]+ [0-9a-f]+ models_lookup_(itlb|l1i|dtlb|l1d)(_store)?$/ {
				subs++
				printf "%.0f %.0f\n", hex($1), hex($1) + hex($2) >"/dev/stderr"
				next
			}
			!/^[0-9a-f]+ [0-9a-f]+ guest_[0-9a-f]+(\+models)?(\.cold)?$/ { print "bad line: " $0; bad = 1; exit }
			{ split($3, g, /[+.]/); if ($3 !~ /\.cold$/) hot++
			  if (g[1] == "guest_" entry) seen = 1
			  if (want != "" && index($3, want) == 0) { print "no +models: " $0; bad = 1; exit }
			  printf "%.0f %.0f\n", hex($1), hex($1) + hex($2) >"/dev/stderr" }
			END { if (bad) exit
			      if (hot != n) { print hot " hot lines, " n " blocks translated"; exit }
			      if ((want != "") != (subs > 0)) { print subs + 0 " lines of lookup subroutines"; exit }
			      if (!seen) print "no line for the entry 0x" entry }' "$map" 2>"$out/perfmap.ranges")
		[ -z "$why" ] && why=$(sort -n "$out/perfmap.ranges" | awk 'NR > 1 && $1 < end { print "parts overlap at " $1; exit }
			{ end = $2 }')
		if [ ! -f "$map" ]; then
			fail "perf-map-$mode" "no /tmp/perf-PID.map written"
		elif [ "${n:-0}" -lt 10 ] || [ -n "$why" ]; then
			fail "perf-map-$mode" "${why:-only ${n:-no} blocks translated}"
		else
			pass "perf-map-$mode"
		fi
		rm -f "$map"
	done
fi

exit 0
