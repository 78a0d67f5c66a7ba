#!/bin/sh
# The u74 profile's instruction-commit refinements, MMIO accesses and
# timing-model events, counted exactly. Small -nostdlib riscv64 programs
# whose instruction mix, dependences, data and code footprint are known by
# construction run under `rvpmu stat --profile u74`; every expected count
# is derived from the program and from profiles/u74.json by the rules of
# src/uarch/timing.c (derivations: the programs' comments and
# docs/uarch-tests.md, section "u74 events"). The u74 has two hpm
# counters, so each run asks for at most two events besides the fixed
# cycles and instructions. MMIO accesses are counted in system mode by a
# bare-metal M-mode program (mmio.S).
cd "$(dirname "$0")" || exit 1
: "${RVPMU:=$PWD/../../build/rvpmu}"
: "${BUILD:=$PWD/../../build}"
out="$BUILD/tests/u74-events"
mkdir -p "$out" || exit 1
CC=riscv64-linux-gnu-gcc
NM=riscv64-linux-gnu-nm

pass() { echo "PASS u74-events $1"; }
fail() { echo "FAIL u74-events $1: $2"; }
isnum() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
# chk CHECK GOT WANT [what]
chk() {
	if isnum "$2" && [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "${4:+$4: }got '$2', want $3"
	fi
}
# build NAME SRC -DX=Y...
build() {
	n=$1 s=$2
	shift 2
	$CC -static -nostdlib -Wl,--build-id=none -o "$out/$n" "$@" "$s" >&2 ||
		{ fail "build $n" "$s does not build"; return 1; }
}
# st RUN EVENTS [stat options]: counts of the program $out/${RUN%%.*} into
# $out/RUN.csv (RUN = NAME or NAME.TAG, to run one program several times)
st() {
	n=$1 e=$2
	shift 2
	"$RVPMU" stat --profile u74 "$@" -x, -e "$e" -- "$out/${n%%.*}" 2>"$out/$n.csv" >/dev/null ||
		echo "stat $n -e $e: exit status $?" >&2
}
# v RUN EVENT: one count from st's CSV (empty when absent or not counted)
v() { awk -F, -v e="$2" '$3 == e { print $1 }' "$out/$1.csv"; }
# sym ELF NAME: a symbol's address, decimal
sym() { a=$($NM "$out/$1" | awk -v s="$2" '$3 == s { print $1 }'); [ -n "$a" ] && echo $((0x$a)); }
# span LO HI SHIFT: 2^SHIFT-byte blocks holding bytes [LO, HI)
span() { echo $((((($2) - 1) >> $3) - (($1) >> $3) + 1)); }
log2() { n=$1 l=0; while [ "$n" -gt 1 ]; do n=$((n / 2)) l=$((l + 1)); done; echo $l; }

# ---- the profile's numbers; the timing model's costs as src/uarch/core.c
# derives them: an L1 miss costs l2.hit - l1d.hit, an L2 miss memory -
# l2.hit more, an L1 TLB miss l2tlb.hit, an L2 TLB miss walk_latency more
eval "$(python3 - ../../profiles/u74.json <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
pi, c, t = p["pipeline"], p["caches"], p["tlbs"]
v = dict(WIDTH=pi["issue_width"], LU=pi["load_use_latency"], MULL=pi["mul_latency"],
         DIVL=pi["div_latency"], FPL=pi["fp_latency"], FPDL=pi["fp_div_latency"],
         FP32L=pi.get("fp32_latency", pi["fp_latency"]), LATE=pi.get("late_alu", 0),
         MISP=pi["mispredict_penalty"], HIST=p["branch_predictor"]["history_bits"],
         L2C=c["l2"]["hit_latency"] - c["l1d"]["hit_latency"],
         MEMC=(p["memory"]["latency_ns"] * p["clock_hz"] + 500000000) // 1000000000 - c["l2"]["hit_latency"],
         TLBC=t["l2tlb"]["hit_latency"], WALKC=t["walk_latency"],
         L1D_SIZE=c["l1d"]["size"], L1D_LINE=c["l1d"]["line"], L1D_WAYS=c["l1d"]["ways"],
         L1I_SIZE=c["l1i"]["size"], L1I_LINE=c["l1i"]["line"], L1I_WAYS=c["l1i"]["ways"],
         L2_SIZE=c["l2"]["size"], DTLB=t["dtlb"]["entries"], ITLB=t["itlb"]["entries"],
         PAGE=t["page_size"], PREFETCH=int("prefetcher" in c["l2"]))
for k, x in v.items():
    print(f"{k}={x}")
EOF
)" || { fail params "cannot read profiles/u74.json"; exit 0; }
PSHIFT=$(log2 "$PAGE")
MISS=$((L2C + MEMC))    # a cold L1 miss: the L2 misses too
TMISS=$((TLBC + WALKC)) # a cold L1 TLB miss: the L2 TLB misses too
[ "$WIDTH" = 2 ] || fail params "the derivations below assume issue_width 2, got $WIDTH"

# ---- instruction-commit refinements (commit.S), with and without models
N=1000
build commit commit.S -DN=$N || exit 0
# event=expected (commit.S's header and per-group comments)
exp="INT_LOADS_RETIRED=$((7 * N + 1)) INT_STORES_RETIRED=$((4 * N))
FP_LOADS_RETIRED=$((2 * N + 1)) FP_STORES_RETIRED=$((2 * N))
INT_ARITH_RETIRED=$((13 * N + 5)) SYSTEM_RETIRED=$((2 * N))
FP_ADDS_RETIRED=$((2 * N)) FP_MULS_RETIRED=$((2 * N))
FP_FMAS_RETIRED=$((4 * N)) FP_DIVSQRT_RETIRED=$((2 * N))
FP_OTHER_RETIRED=$((8 * N)) AMOS_RETIRED=$((3 * N))
COND_BRANCHES_RETIRED=$N JAL_RETIRED=$N JALR_RETIRED=$N INT_MULS_RETIRED=$N INT_DIVS_RETIRED=$N
ALL_LOADS_RETIRED=$((9 * N + 2)) ALL_STORES_RETIRED=$((6 * N)) ALL_JUMPS_BRANCHES_RETIRED=$((3 * N))
r2e00=$((7 * N + 1 + 4 * N + 3 * N + 13 * N + 5)) r3e00000=$((18 * N)) r3fffe00=$((56 * N + 7))"
# two hpm events per run
set -- $exp
runs=0
while [ $# -gt 0 ]; do
	a=$1 b=${2:-}
	shift; [ $# -gt 0 ] && shift
	evs=${a%%=*}${b:+,${b%%=*}}
	runs=$((runs + 1))
	for mode in models no-uarch; do
		opt=
		[ $mode = no-uarch ] && opt=--no-uarch
		st commit.$runs.$mode "instructions,$evs" $opt
		for ab in $a $b; do
			chk "commit $mode ${ab%%=*}" "$(v commit.$runs.$mode "${ab%%=*}")" "${ab#*=}"
		done
		chk "commit $mode instructions #$runs" "$(v commit.$runs.$mode instructions)" $((56 * N + 7))
	done
	# the two paths raise the same commit counts: whole CSV columns agree
	x=$(cut -d, -f1,3 "$out/commit.$runs.models.csv") y=$(cut -d, -f1,3 "$out/commit.$runs.no-uarch.csv")
	[ -n "$x" ] && [ "$x" = "$y" ] && pass "commit models = no-uarch #$runs" ||
		fail "commit models = no-uarch #$runs" "$(echo $x) vs $(echo $y)"
done

# ---- dependent chains (chain.S): U operations per iteration, N iterations
U=8 N=1000
for k in 1 2 3 4 5 6 7 8; do
	build chain$k chain.S -DKIND=$k -DU=$U -DN=$N && build line$k chain.S -DKIND=$k -DU=$U || exit 0
done
# loads: each of the U - 1 dependent loads issues load_use cycles after the
# one before instead of 1; the one data line and page miss once, cold
st chain1 ADDRGEN_INTERLOCKS,DCACHE_BUSY_CYCLES
chk "load-use chain" "$(v chain1 ADDRGEN_INTERLOCKS)" $((N * (U - 1) * (LU - 1)))
chk "load-use chain dcache-busy" "$(v chain1 DCACHE_BUSY_CYCLES)" $((MISS + TMISS)) "one cold line and page"
# the code: every line and page it spans misses once, cold
st chain2 INT_MUL_INTERLOCKS,ICACHE_BUSY_CYCLES
lo=$(sym chain2 _start) hi=$(sym chain2 code_end)
if isnum "$lo" && isnum "$hi"; then
	cl=$(span "$lo" "$hi" "$(log2 "$L1I_LINE")") cp=$(span "$lo" "$hi" "$PSHIFT")
	chk "mul chain icache-busy" "$(v chain2 ICACHE_BUSY_CYCLES)" $((cl * MISS + cp * TMISS)) "$cl lines, $cp pages"
else
	fail "mul chain icache-busy" "no _start/code_end symbols"
fi
chk "mul chain" "$(v chain2 INT_MUL_INTERLOCKS)" $((N * (U - 1) * (MULL - 1)))
# divides: U - 1 dependent waits of div_latency - 1 per iteration, and the
# next iteration's first divide waits for the unpipelined divider from 2
# cycles after the last one (addi pairs with it, bnez takes a cycle):
# div_latency - 2, less the mispredict penalty after each of the HIST + 1
# warm-up mispredicts of the loop branch (docs/uarch-tests.md loop-branch)
st chain3 LONG_LATENCY_INTERLOCKS,BRANCH_DIR_MISPREDICTS
chk "div chain loop-branch mispredicts" "$(v chain3 BRANCH_DIR_MISPREDICTS)" $((HIST + 2))
chk "div chain" "$(v chain3 LONG_LATENCY_INTERLOCKS)" \
	$((N * (U - 1) * (DIVL - 1) + (N - 1) * (DIVL - 2) - (HIST + 1) * MISP))
st line3 LONG_LATENCY_INTERLOCKS,BRANCH_DIR_MISPREDICTS
chk "div chain straight-line" "$(v line3 LONG_LATENCY_INTERLOCKS)" $(((U - 1) * (DIVL - 1)))
st chain4 FP_INTERLOCKS,LONG_LATENCY_INTERLOCKS
chk "fadd chain" "$(v chain4 FP_INTERLOCKS)" $((N * (U - 1) * (FPL - 1)))
chk "fadd chain long-latency" "$(v chain4 LONG_LATENCY_INTERLOCKS)" 0
# FP divides: a wait for the result is an FP interlock, a wait for the busy
# divider (the first of each iteration) a long-latency one, as for div
st chain5 FP_INTERLOCKS,LONG_LATENCY_INTERLOCKS
chk "fdiv chain" "$(v chain5 FP_INTERLOCKS)" $((N * (U - 1) * (FPDL - 1)))
chk "fdiv chain divider-busy" "$(v chain5 LONG_LATENCY_INTERLOCKS)" $(((N - 1) * (FPDL - 2) - (HIST + 1) * MISP))
st line5 FP_INTERLOCKS,LONG_LATENCY_INTERLOCKS
chk "fdiv chain straight-line" "$(v line5 FP_INTERLOCKS)" $(((U - 1) * (FPDL - 1)))
chk "fdiv chain straight-line divider-busy" "$(v line5 LONG_LATENCY_INTERLOCKS)" 0
# single precision: fp32_latency (5 on the U74, double 7: LLVM's SiFive 7
# model); the same loop as fadd.d's
st chain7 FP_INTERLOCKS,LONG_LATENCY_INTERLOCKS
chk "fadd.s chain" "$(v chain7 FP_INTERLOCKS)" $((N * (U - 1) * (FP32L - 1)))
# a load's value reaches an ALU op late_alu cycles before address
# generation, so an add may issue load_use - late_alu cycles after its load
# (1 on the U74: the next cycle, never with its load). The first pair of an
# iteration starts a group (after the taken bnez): its add could have
# paired with the load, and waits those cycles; each later load pairs with
# the add before it, so its own add comes a cycle later anyway and waits
# one cycle less. The first iteration's load misses and blocks: its add
# does not wait.
st chain8 ADDRGEN_INTERLOCKS,DCACHE_BUSY_CYCLES
LW=$((LU - LATE))
chk "load-alu chain" "$(v chain8 ADDRGEN_INTERLOCKS)" $(((N - 1) * LW + N * (U - 1) * (LW > 1 ? LW - 1 : 0)))
# a CSR read's result is ready 1 cycle after it, and it closes its group:
# its consumer can never wait for it
st chain6 CSR_READ_INTERLOCKS,SYSTEM_RETIRED
chk "csr-read chain" "$(v chain6 CSR_READ_INTERLOCKS)" 0
chk "csr-read chain system-retired" "$(v chain6 SYSTEM_RETIRED)" $((N * U))

# ---- CSR writes and fences flush the pipe
build csr csr.S -DN=$N && build fence fence.S -DN=$N && build fencei fence.S -DN=$N -DFENCEI || exit 0
st csr CSR_WRITE_FLUSHES,OTHER_FLUSHES
chk "csr writes flush" "$(v csr CSR_WRITE_FLUSHES)" $((5 * N)) "5 writes per iteration"
chk "csr writes other-flushes" "$(v csr OTHER_FLUSHES)" 0
st csr.2 SYSTEM_RETIRED,CSR_READ_INTERLOCKS
chk "csr accesses retired" "$(v csr.2 SYSTEM_RETIRED)" $((9 * N)) "9 per iteration"
st fencei OTHER_FLUSHES,CSR_WRITE_FLUSHES
chk "fence.i flushes" "$(v fencei OTHER_FLUSHES)" "$N"
chk "fence.i csr-write-flushes" "$(v fencei CSR_WRITE_FLUSHES)" 0
# FENCE is an ALU-class instruction for the timing model
# (include/rvpmu/uarch.h); only its commit event names it a system one
st fence OTHER_FLUSHES,SYSTEM_RETIRED
chk "fence other-flushes" "$(v fence OTHER_FLUSHES)" 0 "FENCE is timed as ALU"
chk "fence system-retired" "$(v fence SYSTEM_RETIRED)" "$N"

# ---- data misses block the pipe: D-cache busy = miss costs. A line-stride
# walk trains the L2 prefetcher (distance >= 1, no prefetch across pages):
# in each page the first line misses to memory (and its page the DTLB),
# and in the first page also the next two (the stream's stride is seen
# twice before it sends); every other line is sent by the time the walk
# comes to it (PAD multiplies make an iteration longer than a memory miss:
# src/uarch/prefetch.c, timing_mem.c) and costs an L2 hit
L=$((4 * L1D_SIZE / L1D_LINE)) P=$((4 * L1D_SIZE / PAGE)) PAD=$((MISS / MULL + 1))
build walk1 walk.S -DPASSES=1 -DCOUNT=$L -DSTRIDE="$L1D_LINE" -DPAD=$PAD &&
	build walk2 walk.S -DPASSES=2 -DCOUNT=$L -DSTRIDE="$L1D_LINE" -DPAD=$PAD || exit 0
st walk1 DCACHE_BUSY_CYCLES,DCACHE_MISSES_OR_MMIO
st walk2 DCACHE_BUSY_CYCLES,DCACHE_MISSES_OR_MMIO
chk "l1d walk misses" "$(v walk1 DCACHE_MISSES_OR_MMIO)" $L
if [ "$PREFETCH" = 1 ]; then
	W1=$((P * TMISS + (P + 2) * MISS + (L - P - 2) * L2C))
	what="$P cold pages, $((P + 2)) lines from memory, $((L - P - 2)) prefetched"
else
	W1=$((L * MISS + P * TMISS)) what="$L cold lines, $P cold pages"
fi
chk "l1d walk dcache-busy" "$(v walk1 DCACHE_BUSY_CYCLES)" $W1 "$what"
# pass 2: every line misses again (4 x ways lines per set, cyclic, under
# tree PLRU: docs/uarch-tests.md l1d-rewalk), hits the L2, and the DTLB
# holds the pages
if [ "$P" -le "$DTLB" ] && [ $((4 * L1D_SIZE)) -le "$L2_SIZE" ]; then
	chk "l1d rewalk misses" "$(v walk2 DCACHE_MISSES_OR_MMIO)" $((2 * L))
	chk "l1d rewalk dcache-busy" "$(v walk2 DCACHE_BUSY_CYCLES)" $((W1 + L * L2C)) "pass 1 + $L L2 hits"
else
	fail "l1d rewalk" "derivation assumes the DTLB and L2 hold the walk"
fi

# ---- fetch misses: I-cache busy = miss costs (ITLB misses included)
NOPS=$((2 * L1I_SIZE / 4))
build fetch1 ifetch.S -DPASSES=1 -DNOPS=$NOPS && build fetch2 ifetch.S -DPASSES=2 -DNOPS=$NOPS || exit 0
st fetch1 ICACHE_BUSY_CYCLES,ICACHE_MISSES
st fetch2 ICACHE_BUSY_CYCLES,ICACHE_MISSES
lo=$(sym fetch1 _start) hi=$(sym fetch1 code_end) ls=$(sym fetch2 loop_start) le=$(sym fetch2 code_end)
if isnum "$lo" && isnum "$hi" && isnum "$ls" && isnum "$le"; then
	ish=$(log2 "$L1I_LINE")
	cl=$(span "$lo" "$hi" "$ish") cp=$(span "$lo" "$hi" "$PSHIFT")
	# the loop: from loop_start to the bnez, 12 bytes before the ecall
	ll=$(span "$ls" $((le - 8)) "$ish")
	chk "l1i straight-line misses" "$(v fetch1 ICACHE_MISSES)" "$cl"
	chk "l1i straight-line icache-busy" "$(v fetch1 ICACHE_BUSY_CYCLES)" $((cl * MISS + cp * TMISS)) \
		"$cl cold lines, $cp cold pages"
	# pass 2 over 2 x L1I: 2 x ways lines per set, cyclic; a 4-way tree-PLRU
	# line survives at most 5 misses in its set, so all miss again; the L2
	# and the ITLB hold the code
	if [ "$cp" -le "$ITLB" ] && [ "$L1I_WAYS" = 4 ]; then
		chk "l1i loop misses" "$(v fetch2 ICACHE_MISSES)" $((cl + ll))
		chk "l1i loop icache-busy" "$(v fetch2 ICACHE_BUSY_CYCLES)" $((cl * MISS + cp * TMISS + ll * L2C)) \
			"pass 2: $ll L2 hits"
	else
		fail "l1i loop" "derivation assumes a 4-way L1I and an ITLB holding the code"
	fi
else
	fail "l1i fetch" "no _start/loop_start/code_end symbols"
fi

# ---- MMIO accesses in system mode (bare metal, M-mode)
N=1000
if riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles \
	-Wl,--no-warn-rwx-segments -T link.ld -DN=$N -o "$out/mmio.elf" mmio.S >&2; then
	"$RVPMU" system --bios none --profile u74 --kernel "$out/mmio.elf" --max-insns 1000000 \
		>"$out/mmio.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] && pass "mmio exit status" || fail "mmio exit status" "got $rc"
	set -- $(grep '^mmio ' "$out/mmio.out")
	if [ "$#" = 5 ]; then
		# device accesses bypass the modelled L1D (not cacheable), so each
		# is counted once, as MMIO only
		chk "mmio reads" $((0x$2)) "$N" "$N device reads, none through the L1D"
		chk "mmio reads 2N" $((0x$5)) $((2 * N))
		chk "mmio writes" $((0x$3)) "$N"
		chk "mmio ram hits" $((0x$4)) 0 "L1D-hit RAM loads"
	else
		fail mmio "no counts on the UART: $(head -c 200 "$out/mmio.out")"
	fi
else
	fail "build mmio" "mmio.S does not build"
fi
exit 0
