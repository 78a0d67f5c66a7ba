#!/bin/sh
# Guest-level tests of the microarchitecture models: small -nostdlib
# riscv64 programs whose data, fetch and branch behaviour is known by
# construction, run under `rvpmu stat`, with every expected count derived
# from the core profile's geometry by derive.py (derivations: comments
# there and docs/uarch-tests.md). Exact counts are absolute where the
# program is the only code that runs, or differences between two runs of
# different size (the fixed costs cancel). Profiles: virt (all checks) and
# u74 (2 hpm counters: at most two model events per run).
cd "$(dirname "$0")" || exit 1
: "${RVPMU:=$PWD/../../build/rvpmu}"
: "${BUILD:=$PWD/../../build}"
out="$BUILD/tests/guest-uarch"
mkdir -p "$out" || exit 1
CC=riscv64-linux-gnu-gcc

pfx=uarch       # "uarch" for virt, "uarch u74" for u74
pass() { echo "PASS $pfx $1"; }
fail() { echo "FAIL $pfx $1: $2"; }

# build NAME SRC -DX=Y...: the macros make each variant a separate binary
build() {
	n=$1 s=$2
	shift 2
	$CC -static -nostdlib -Wl,--build-id=none -o "$out/$n" "$@" "$s" >&2
}

# st NAME EVENTS: counts of $out/NAME on $prof into $out/NAME.csv
st() {
	csv="$out/$1.csv"
	"$RVPMU" stat --profile "$prof" -x, -e "$2" "$out/$1" 2>"$csv"
	rc=$?
	[ "$rc" = 0 ] || echo "stat $1 on $prof: exit status $rc" >&2
	return $rc
}
# v NAME EVENT: one count from st's CSV (empty when absent)
v() { awk -F, -v e="$2" '$3 == e { print $1 }' "$out/$1.csv"; }
isnum() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
# chk CHECK GOT WANT [what]
chk() {
	if isnum "$2" && [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "${4:+$4: }got '$2', want $3"
	fi
}
# dif NAME1 NAME2 EVENT: count(NAME2) - count(NAME1), empty if either is missing
dif() {
	a=$(v "$1" "$3") b=$(v "$2" "$3")
	isnum "$a" && isnum "$b" && echo $((b - a))
}

# PROFILES: names under profiles/ or .json paths (e.g. a variant of virt
# with other geometry: every expectation follows the file)
for prof in ${PROFILES:-virt u74}; do
	case $prof in
	*.json) pj=$prof p=$(basename "$prof" .json) ;;
	*) pj=../../profiles/$prof.json p=$prof ;;
	esac
	[ "$p" = virt ] && pfx=uarch || pfx="uarch $p"
	params=$(python3 derive.py "$pj" params) || { fail derive "derive.py $pj failed"; continue; }
	eval "$params"

	# ---- L1D load walk: one line-stride pass over 4x L1D, all cold ----
	build ld4x.$p walk.S -DPASSES=1 -DSTRIDE="$L1D_LINE" -DCOUNT="$WALK_COUNT" -DBUFSIZE="$WALK_BYTES" &&
	build ld4x2.$p walk.S -DPASSES=2 -DSTRIDE="$L1D_LINE" -DCOUNT="$WALK_COUNT" -DBUFSIZE="$WALK_BYTES" &&
	build ld4xtail.$p walk.S -DPASSES=1 -DSTRIDE="$L1D_LINE" -DCOUNT="$WALK_COUNT" -DBUFSIZE="$WALK_BYTES" \
		-DTAIL_OFF=$((WALK_BYTES - L1D_SIZE / 2)) -DTAIL_COUNT="$HALF_COUNT" -DTAIL_STRIDE="$L1D_LINE" &&
	build l1probe.$p walk.S -DPASSES=2 -DSTRIDE="$L1D_LINE" -DCOUNT="$L1D_PROBE_LINES" -DBUFSIZE=$((L1D_PROBE_LINES * L1D_LINE)) &&
	build ldhalf1.$p walk.S -DPASSES=1 -DSTRIDE="$L1D_LINE" -DCOUNT="$HALF_COUNT" -DBUFSIZE=$((L1D_SIZE / 2)) &&
	build ldhalf3.$p walk.S -DPASSES=3 -DSTRIDE="$L1D_LINE" -DCOUNT="$HALF_COUNT" -DBUFSIZE=$((L1D_SIZE / 2)) ||
		fail build "walk.S variants do not build"
	eval "$(python3 derive.py "$pj" codepages "$out/ld4x.$p")"
	if [ "$FULL" = 1 ]; then
		ev=L1-dcache-loads,L1-dcache-load-misses,L1-dcache-stores,LLC-loads,LLC-load-misses,dTLB-loads,dTLB-load-misses,L1-icache-load-misses
		st ld4x.$p $ev; st ld4x2.$p $ev; st ld4xtail.$p $ev; st ldhalf1.$p $ev; st ldhalf3.$p $ev; st l1probe.$p $ev
		chk l1d-stride-walk "$(v ld4x.$p L1-dcache-load-misses)" "$WALK_COUNT" "L1D load misses"
		chk "l1d-stride-walk loads" "$(v ld4x.$p L1-dcache-loads)" "$WALK_COUNT"
		chk "l1d-stride-walk stores" "$(v ld4x.$p L1-dcache-stores)" 0
		chk "l1d-stride-walk dtlb-loads" "$(v ld4x.$p dTLB-loads)" "$WALK_COUNT" "one DTLB lookup per line"
		chk "l1d-stride-walk dtlb-misses" "$(v ld4x.$p dTLB-load-misses)" "$WALK_PAGES"
		# the L2 serves every L1D and L1I miss; all are cold
		chk "l1d-stride-walk llc-loads" "$(v ld4x.$p LLC-loads)" $((WALK_COUNT + CODE_LINES))
		chk "l1d-stride-walk llc-misses" "$(v ld4x.$p LLC-load-misses)" $((WALK_COUNT + CODE_LINES))
		chk "l1d-stride-walk l1i-misses" "$(v ld4x.$p L1-icache-load-misses)" "$CODE_LINES"
		# second pass of the 4x walk: replacement decides the L1D misses;
		# every one of them is an L2 read, and the L2 holds the whole walk
		chk "l1d-rewalk misses" "$(dif ld4x.$p ld4x2.$p L1-dcache-load-misses)" "$L1D_REWALK_MISSES"
		chk "l1d-rewalk llc-loads" "$(dif ld4x.$p ld4x2.$p LLC-loads)" "$L1D_REWALK_MISSES" "one L2 read per L1D miss"
		[ "$L2_HOLDS_WALK" = 1 ] &&
			chk "l1d-rewalk llc-misses" "$(dif ld4x.$p ld4x2.$p LLC-load-misses)" 0 "the L2 holds the walk"
	else
		ev=L1-dcache-load-misses,dTLB-load-misses
		st ld4x.$p $ev; st ld4x2.$p $ev; st ld4xtail.$p $ev; st ldhalf1.$p $ev; st ldhalf3.$p $ev; st l1probe.$p $ev
		chk l1d-stride-walk "$(v ld4x.$p L1-dcache-load-misses)" "$WALK_COUNT" "L1D load misses"
		chk "l1d-stride-walk dtlb-misses" "$(v ld4x.$p dTLB-load-misses)" "$WALK_PAGES"
		chk "l1d-rewalk misses" "$(dif ld4x.$p ld4x2.$p L1-dcache-load-misses)" "$L1D_REWALK_MISSES"
	fi
	chk l1d-replacement "$(v l1probe.$p L1-dcache-load-misses)" "$L1D_PROBE_MISSES" "2 passes over ways+1 lines per set"
	# half of L1D: fits, so the first pass misses once per line and the
	# next two passes never miss
	chk l1d-half-cold "$(v ldhalf1.$p L1-dcache-load-misses)" "$HALF_COUNT"
	chk l1d-half-rewalk "$(dif ldhalf1.$p ldhalf3.$p L1-dcache-load-misses)" 0 "new misses in passes 2-3"
	[ "$FULL" = 1 ] &&
		chk "l1d-half-rewalk loads" "$(dif ldhalf1.$p ldhalf3.$p L1-dcache-loads)" $((2 * HALF_COUNT))
	# the last half L1D of the 4x walk is still resident
	[ "$TAIL_RESIDENT" = 1 ] &&
		chk l1d-tail-resident "$(dif ld4x.$p ld4xtail.$p L1-dcache-load-misses)" 0 "misses re-reading the last L1D/2"

	# ---- store walk over 4x L1D, then re-read its last half L1D ----
	build st4xtail.$p walk.S -DSTORE -DPASSES=1 -DSTRIDE="$L1D_LINE" -DCOUNT="$WALK_COUNT" -DBUFSIZE="$WALK_BYTES" \
		-DTAIL_OFF=$((WALK_BYTES - L1D_SIZE / 2)) -DTAIL_COUNT="$HALF_COUNT" -DTAIL_STRIDE="$L1D_LINE" ||
		fail build "walk.S store variant does not build"
	eval "$(python3 derive.py "$pj" codepages "$out/st4xtail.$p")"
	[ "$WRITE_ALLOCATE" = 1 ] && tailmiss=0 || tailmiss=$HALF_COUNT
	if [ "$FULL" = 1 ]; then
		st st4xtail.$p L1-dcache-stores,L1-dcache-store-misses,L1D_WRITEBACKS,L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-stores,LLC-load-misses,LLC-store-misses
		chk "l1d-store-walk stores" "$(v st4xtail.$p L1-dcache-stores)" "$WALK_COUNT"
		chk l1d-store-walk "$(v st4xtail.$p L1-dcache-store-misses)" "$WALK_COUNT" "L1D store misses"
		chk "l1d-store-walk writebacks" "$(v st4xtail.$p L1D_WRITEBACKS)" "$WRITEBACKS"
		chk "l1d-store-walk loads" "$(v st4xtail.$p L1-dcache-loads)" "$HALF_COUNT"
		chk l1d-write-allocate "$(v st4xtail.$p L1-dcache-load-misses)" "$tailmiss" "load misses re-reading stored lines"
		# L2 traffic: one read per L1 miss (the code's lines too), one write
		# per writeback; the written-back lines are still in the L2
		lr=$(v st4xtail.$p LLC-loads) lw=$(v st4xtail.$p LLC-stores)
		lrm=$(v st4xtail.$p LLC-load-misses) lwm=$(v st4xtail.$p LLC-store-misses)
		if isnum "$lr" && isnum "$lw" && isnum "$lrm" && isnum "$lwm"; then
			chk "l1d-store-walk llc-accesses" $((lr + lw)) $((WALK_COUNT + tailmiss + CODE_LINES + WRITEBACKS)) "LLC-loads + LLC-stores"
			[ "$L2_HOLDS_WALK" = 1 ] &&
				chk "l1d-store-walk llc-misses" $((lrm + lwm)) $((WALK_COUNT + CODE_LINES)) "LLC load + store misses"
			chk "l1d-store-walk llc-loads" "$lr" $((WALK_COUNT + tailmiss + CODE_LINES)) "L2 reads (fills)"
			chk "l1d-store-walk llc-stores" "$lw" "$WRITEBACKS" "L2 writes (L1D writebacks)"
		else
			fail "l1d-store-walk llc" "LLC counts missing"
		fi
	else
		st st4xtail.$p DCACHE_MISSES_OR_MMIO,DCACHE_WRITEBACKS
		chk l1d-store-walk "$(v st4xtail.$p DCACHE_MISSES_OR_MMIO)" $((WALK_COUNT + tailmiss)) "L1D read+write misses"
		chk "l1d-store-walk writebacks" "$(v st4xtail.$p DCACHE_WRITEBACKS)" "$WRITEBACKS"
	fi

	# ---- DTLB: one load per page over 4x the DTLB's reach, twice ----
	build pg1.$p walk.S -DPASSES=1 -DSTRIDE="$PAGE" -DCOUNT="$DTLB_PAGES" -DBUFSIZE=$((DTLB_PAGES * PAGE)) &&
	build pg2.$p walk.S -DPASSES=2 -DSTRIDE="$PAGE" -DCOUNT="$DTLB_PAGES" -DBUFSIZE=$((DTLB_PAGES * PAGE)) &&
	build probe.$p walk.S -DPASSES=2 -DSTRIDE="$PAGE" -DCOUNT="$DTLB_PROBE_PAGES" -DBUFSIZE=$((DTLB_PROBE_PAGES * PAGE)) ||
		fail build "walk.S page variants do not build"
	eval "$(python3 derive.py "$pj" codepages "$out/pg1.$p")"
	if [ "$FULL" = 1 ]; then
		ev=dTLB-loads,dTLB-load-misses,L2TLB_MISSES,iTLB-load-misses
	else
		ev=dTLB-load-misses,L2TLB_MISSES
	fi
	st pg1.$p $ev; st pg2.$p $ev; st probe.$p $ev
	chk dtlb-page-walk "$(v pg1.$p dTLB-load-misses)" "$DTLB_PAGES" "DTLB load misses"
	[ "$FULL" = 1 ] && chk "dtlb-page-walk loads" "$(v pg1.$p dTLB-loads)" "$DTLB_PAGES"
	[ "$FULL" = 1 ] && chk "itlb-code-pages" "$(v pg1.$p iTLB-load-misses)" "$CODE_PAGES"
	chk dtlb-rewalk "$(dif pg1.$p pg2.$p dTLB-load-misses)" "$DTLB_REWALK_MISSES" "DTLB misses of pass 2"
	if [ "$HAVE_L2TLB" = 1 ]; then
		# every L1 TLB miss (data and code) looks up the L2 TLB: all cold
		chk l2tlb-cold "$(v pg1.$p L2TLB_MISSES)" $((DTLB_PAGES + CODE_PAGES)) "page walks"
		[ "$L2TLB_HOLDS" = 1 ] &&
			chk l2tlb-holds "$(dif pg1.$p pg2.$p L2TLB_MISSES)" 0 "page walks in pass 2"
	fi
	[ "$DTLB_PROBE_PAGES" -gt 0 ] &&
		chk dtlb-replacement "$(v probe.$p dTLB-load-misses)" "$DTLB_PROBE_MISSES" "2 passes over DTLB entries + 1 pages"
	if [ "$HAVE_L2TLB" = 1 ]; then
		# 4x the L2 TLB's reach: pass 2 walks again for every page
		build big1.$p walk.S -DPASSES=1 -DSTRIDE="$PAGE" -DCOUNT="$BIG_PAGES" -DBUFSIZE=$((BIG_PAGES * PAGE)) &&
		build big2.$p walk.S -DPASSES=2 -DSTRIDE="$PAGE" -DCOUNT="$BIG_PAGES" -DBUFSIZE=$((BIG_PAGES * PAGE)) ||
			fail build "walk.S big variants do not build"
		st big1.$p L2TLB_MISSES; st big2.$p L2TLB_MISSES
		chk l2tlb-beyond "$(dif big1.$p big2.$p L2TLB_MISSES)" "$BIG_REWALK_MISSES" "page walks in pass 2"
	fi

	# ---- a loop branch: mispredicts only while the predictor warms up ----
	build loop1.$p loopbr.S -DN=1000 && build loop2.$p loopbr.S -DN=5000 ||
		fail build "loopbr.S does not build"
	if [ "$FULL" = 1 ]; then
		ev=branches,branch-misses,BRANCH_MISPREDICTS,TARGET_MISPREDICTS
	else
		ev=branch-misses,TARGET_MISPREDICTS
	fi
	st loop1.$p $ev; st loop2.$p $ev
	chk loop-branch "$(v loop1.$p branch-misses)" "$LOOP_MISSES" "1000 iterations"
	chk "loop-branch long" "$(v loop2.$p branch-misses)" "$LOOP_MISSES" "5000 iterations"
	chk "loop-branch btb" "$(v loop2.$p TARGET_MISPREDICTS)" 0 "target mispredicts"
	[ "$FULL" = 1 ] && chk "loop-branch count" "$(v loop2.$p branches)" 5000

	# ---- branches on an LCG's sign bit: about half mispredict ----
	U=32 S=12345 R1=500 R2=2500
	build lcg1.$p lcg.S -DREPS=$R1 -DUNROLL=$U -DSEED=$S && build lcg2.$p lcg.S -DREPS=$R2 -DUNROLL=$U -DSEED=$S ||
		fail build "lcg.S does not build"
	if [ "$FULL" = 1 ]; then
		dm=BRANCH_MISPREDICTS
		ev=branches,BRANCHES_TAKEN,$dm
	else
		dm=BRANCH_DIR_MISPREDICTS
		ev=COND_BRANCHES_RETIRED,$dm
	fi
	st lcg1.$p $ev; st lcg2.$p $ev
	eval "$(python3 derive.py lcg $R2 $U $S)"
	if [ "$FULL" = 1 ]; then
		chk "branch-random count" "$(v lcg2.$p branches)" $((R2 * (U + 1)))
		chk "branch-random taken" "$(v lcg2.$p BRANCHES_TAKEN)" $((LCG_TAKEN + R2 - 1)) "LCG branches taken + loop"
	else
		chk "branch-random count" "$(v lcg2.$p COND_BRANCHES_RETIRED)" $((R2 * (U + 1)))
	fi
	d=$(dif lcg1.$p lcg2.$p $dm)
	if isnum "$d"; then
		n=$(((R2 - R1) * U))
		# rate in per mille of the random branches
		pm=$((d * 1000 / n))
		echo "branch-random on $p: $d of $n mispredicted ($pm/1000)" >&2
		[ "$pm" -ge 400 ] && [ "$pm" -le 600 ] && pass branch-random ||
			fail branch-random "$d mispredicts of $n random branches ($pm/1000), want 40%..60%"
	else
		fail branch-random "no $dm count"
	fi

	# ---- call chains deeper than the RAS, and as deep ----
	Q1=100 Q2=300
	for depth in $((RAS_DEPTH + 12)) "$RAS_DEPTH"; do
		[ "$depth" -ge 2 ] || continue
		build ras$depth.1.$p ras.S -DDEPTH="$depth" -DREPS=$Q1 &&
		build ras$depth.2.$p ras.S -DDEPTH="$depth" -DREPS=$Q2 || fail build "ras.S does not build"
		eval "$(python3 derive.py "$pj" ras "$out/ras$depth.1.$p")"
		echo "ras depth $depth on $prof: $BTB_PER_REP BTB misses per rep" >&2
		chk "ras-depth$depth call-sites" "$CALL_SITES" "$depth" "jal sites in the binary"
		ev=TARGET_MISPREDICTS,branch-misses
		[ "$FULL" = 1 ] && ev=$ev,calls,returns
		st ras$depth.1.$p $ev; st ras$depth.2.$p $ev
		over=$((depth > RAS_DEPTH ? depth - RAS_DEPTH : 0))
		# per rep: the returns the RAS lost, plus BTB misses of the jal
		# sites and loop branch (0 when they all fit)
		want=$(((Q2 - Q1) * (over + BTB_PER_REP)))
		chk "ras-depth$depth" "$(dif ras$depth.1.$p ras$depth.2.$p TARGET_MISPREDICTS)" "$want" \
			"target mispredicts over $((Q2 - Q1)) reps ($over RAS + $BTB_PER_REP BTB per rep)"
		chk "ras-depth$depth branch-misses" "$(dif ras$depth.1.$p ras$depth.2.$p branch-misses)" "$want"
		if [ "$FULL" = 1 ]; then
			chk "ras-depth$depth calls" "$(v ras$depth.2.$p calls)" $((Q2 * depth))
			chk "ras-depth$depth returns" "$(v ras$depth.2.$p returns)" $((Q2 * depth))
		fi
	done

	# ---- dependent multiplies: one every mul_latency cycles ----
	M=64 K1=200 K2=1200
	build mul1.$p mulchain.S -DREPS=$K1 -DUNROLL=$M && build mul2.$p mulchain.S -DREPS=$K2 -DUNROLL=$M ||
		fail build "mulchain.S does not build"
	[ "$FULL" = 1 ] && ev=cycles,instructions,INT_MUL || ev=cycles,instructions,INT_MULS_RETIRED
	st mul1.$p $ev; st mul2.$p $ev
	[ "$FULL" = 1 ] && mev=INT_MUL || mev=INT_MULS_RETIRED
	chk "mul-latency count" "$(dif mul1.$p mul2.$p $mev)" $(((K2 - K1) * M))
	# the loop's addi and bnez issue in the shadow of the last multiply
	# (in cycles +1 and +2 at width 1) iff mul_latency >= 3 (>= 2 at width 2)
	if [ "$MUL_LAT" -ge $((WIDTH > 1 ? 2 : 3)) ]; then
		d=$(dif mul1.$p mul2.$p cycles)
		chk mul-latency "$d" $(((K2 - K1) * M * MUL_LAT)) "cycles for $(((K2 - K1) * M)) dependent muls"
	fi

	# ---- straight-line code larger than L1I: one miss per line ----
	build fetch2.$p fetch.S -DNOPS=$((2 * L1I_BYTES / 4)) && build fetch3.$p fetch.S -DNOPS=$((3 * L1I_BYTES / 4)) ||
		fail build "fetch.S does not build"
	[ "$FULL" = 1 ] && ev=instructions,cycles,L1-icache-loads,L1-icache-load-misses,iTLB-load-misses ||
		ev=instructions,L1-icache-load-misses,iTLB-load-misses
	st fetch2.$p $ev; st fetch3.$p $ev
	eval "$(python3 derive.py "$pj" fetch "$out/fetch2.$p")"
	chk "l1i-straight-line insns" "$(v fetch2.$p instructions)" "$CODE_INSNS"
	chk l1i-straight-line "$(v fetch2.$p L1-icache-load-misses)" "$CODE_LINES" "L1I misses"
	chk "l1i-straight-line itlb" "$(v fetch2.$p iTLB-load-misses)" "$CODE_PAGES" "ITLB misses"
	chk "l1i-straight-line diff" "$(dif fetch2.$p fetch3.$p L1-icache-load-misses)" $((L1I_BYTES / L1I_LINE)) "one more L1I of code"
	if [ "$FULL" = 1 ]; then
		chk "l1i-straight-line loads" "$(v fetch2.$p L1-icache-loads)" "$CODE_LINES" "one fetch per line"
		[ "$WIDTH" = 1 ] &&
			chk fetch-miss-cycles "$(v fetch2.$p cycles)" "$FETCH_CYCLES" "instructions + fetch miss penalties"
	fi

	# ---- determinism: two runs, bit-identical CSV ----
	[ "$FULL" = 1 ] &&
		ev=cycles,instructions,branch-misses,L1-dcache-load-misses,L1-icache-load-misses,stalled-cycles-frontend,stalled-cycles-backend ||
		ev=cycles,instructions,branch-misses,L1-icache-load-misses
	st lcg2.$p $ev && cp "$out/lcg2.$p.csv" "$out/det.a.csv" &&
		st lcg2.$p $ev && cmp -s "$out/det.a.csv" "$out/lcg2.$p.csv" &&
		[ -s "$out/det.a.csv" ] && pass determinism || fail determinism "two runs' CSV differ (or a run failed)"
done

# ---- the L2's stride prefetcher (virt with one): a one-line-stride walk
# over 4x the L1D, cold. In the first page the stream's stride is seen
# twice before it sends: from the third line on, each L1D miss sends the
# lines up to the distance ahead not sent yet, so every line of the page
# from the fourth on is sent once; in each later page its first line
# sends the next ones, as the stream goes on across the page (prefetches
# do not), so all but the first are. Every line sent is absent (cold):
# looked up and fetched alike. The code's fetches do not train it.
pfj=$out/virt-prefetch.json
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["caches"]["l2"]["prefetcher"]={"streams": 2, "distance": 3, "window": 6}; json.dump(p,open(sys.argv[2],"w"))' \
	../../profiles/virt.json "$pfj" || fail prefetch "cannot write a profile variant"
eval "$(python3 derive.py "$pfj" params)"
pfx=uarch
LPP=$((PAGE / L1D_LINE))
if [ -f "$out/ld4x.virt" ] && [ "$WALK_PAGES" -ge 1 ]; then
	"$RVPMU" stat --profile "$pfj" -x, -e ll-prefetch-accesses,ll-prefetch-misses,L1-dcache-load-misses \
		"$out/ld4x.virt" 2>"$out/ld4x.pf.csv" >/dev/null || echo "stat ld4x on $pfj failed" >&2
	want=$((LPP - 3 + (WALK_PAGES - 1) * (LPP - 1)))
	chk "prefetch sent" "$(v ld4x.pf ll-prefetch-misses)" "$want" "lines fetched by the prefetcher"
	chk "prefetch looked up" "$(v ld4x.pf ll-prefetch-accesses)" "$want" "all absent (cold)"
	chk "prefetch l1d-misses" "$(v ld4x.pf L1-dcache-load-misses)" "$WALK_COUNT" "the L1D misses as without it"
else
	fail prefetch "no ld4x.virt walk"
fi

# ---- the SiFive 7-series timing rules (rules.S; derive.py rules): exact
# cycles of small loops on u74 and on u74 without the rules' own keys
# (late_alu and the latency variants; the numbers follow the file). A
# chain's cycles over REPS iterations more are REPS * UNROLL * its latency
# (the loop's addi and bnez issue in its shadow); a pair's, as the pairs
# are not dependent, cost UNROLL * its cycles plus the loop's own, which
# the difference of two UNROLLs cancels. ----
pfx="uarch u74"
nr=$out/u74-norules.json
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))
for k in ("late_alu", "fp32_latency", "fp32_div_latency", "div32_latency", "fp_move_latency"): del p["pipeline"][k]
json.dump(p, open(sys.argv[2], "w"))' ../../profiles/u74.json "$nr" || fail rules "cannot write a profile variant"
R1=100 R2=300 U1=16 U2=32
# KIND:name (rules.S)
kinds="1:fadd.d 2:fmul.d 3:fmadd.d 4:fadd.s 5:fmul.s 6:fdiv.d 7:fdiv.s 8:div 9:divw 10:load-address 11:fsgnj.d
20:load-alu 21:alu-pair 22:load-load 23:mul-mul 24:load-mul"
for kn in $kinds; do
	k=${kn%%:*}
	for r in $R1 $R2; do for u in $U1 $U2; do
		build rule$k.$r.$u rules.S -DKIND="$k" -DREPS=$r -DUNROLL=$u || fail build "rules.S KIND $k does not build"
	done; done
done
for pj in ../../profiles/u74.json "$nr"; do
	eval "$(python3 derive.py "$pj" rules)"
	[ -n "$RULES_SKIP" ] && { fail rules "$pj: $RULES_SKIP"; continue; }
	[ "$pj" = "$nr" ] && { tag=" without-rules" prof=$nr; } || { tag= prof=u74; }
	for kn in $kinds; do
		k=${kn%%:*} name=${kn#*:}
		eval "c=\$RULE_$k"
		[ -n "$tag" ] && case $k in 4 | 7 | 9 | 11 | 20) ;; *) continue ;; esac
		for r in $R1 $R2; do for u in $U1 $U2; do st rule$k.$r.$u cycles; done; done
		d1=$(dif rule$k.$R1.$U1 rule$k.$R2.$U1 cycles) d2=$(dif rule$k.$R1.$U2 rule$k.$R2.$U2 cycles)
		if [ "$k" -lt 20 ]; then
			chk "rule $name$tag" "$d1" $(((R2 - R1) * U1 * c)) "cycles of $(((R2 - R1) * U1)) dependent ops more ($c each)"
			chk "rule $name$tag unroll" "$d2" $(((R2 - R1) * U2 * c))
		elif isnum "$d1" && isnum "$d2"; then
			chk "rule $name$tag" $((d2 - d1)) $(((R2 - R1) * (U2 - U1) * c)) "cycles of $(((R2 - R1) * (U2 - U1))) pairs more ($c each)"
		else
			fail "rule $name$tag" "no cycle counts"
		fi
	done
done

# ---- memory.latency_ns: a walk of dependent loads, each to memory (rules.S
# KIND 30), on u74 with 100 and 200 ns at 1.2 and 1.5 GHz: each load more
# waits the latency's cycles at that clock more, rounded as the loader does
# (derive.py memory_cycles), and nothing else differs ----
N1=50 N2=150
eval "$(python3 derive.py ../../profiles/u74.json params)"
build mem.$N1 rules.S -DKIND=30 -DREPS=$N1 -DUNROLL=1 -DSTRIDE=$((PAGE + L1D_LINE)) &&
	build mem.$N2 rules.S -DKIND=30 -DREPS=$N2 -DUNROLL=1 -DSTRIDE=$((PAGE + L1D_LINE)) ||
	fail build "rules.S KIND 30 does not build"
for hz in 1200000000 1500000000; do
	for ns in 100 200; do
		python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["clock_hz"]=int(sys.argv[2]); p["memory"]["latency_ns"]=int(sys.argv[3]); json.dump(p,open(sys.argv[4],"w"))' \
			../../profiles/u74.json $hz $ns "$out/u74-$hz-$ns.json" || fail "memory-latency-ns" "cannot write a profile variant"
		prof=$out/u74-$hz-$ns.json
		st mem.$N1 cycles,DCACHE_MISSES_OR_MMIO; cp "$out/mem.$N1.csv" "$out/mem.$N1.$ns.csv"
		st mem.$N2 cycles,DCACHE_MISSES_OR_MMIO; cp "$out/mem.$N2.csv" "$out/mem.$N2.$ns.csv"
		eval "mc$ns=$(python3 derive.py "$prof" rules | sed -n 's/^MEM_CYCLES=//p')"
	done
	chk "memory-latency-ns $hz Hz misses" "$(dif mem.$N1.200 mem.$N2.200 DCACHE_MISSES_OR_MMIO)" $((N2 - N1))
	a=$(dif mem.$N1.100 mem.$N2.100 cycles) b=$(dif mem.$N1.200 mem.$N2.200 cycles)
	isnum "$a" && isnum "$b" && d=$((b - a)) || d=
	chk "memory-latency-ns $hz Hz" "$d" $(((N2 - N1) * (mc200 - mc100))) "cycles of $((N2 - N1)) loads more, 200 ns against 100"
done

# ---- MSHRs and the memory channel: stores to new lines one after another
# (rules.S KIND 31: a store and an addi per line, in a buffer of one 2 MiB
# page, a page size the variants take so that no TLB miss falls between).
# Each store misses the L1D and the L2 and takes an MSHR for the miss's
# l2.hit - l1d.hit + memory - l2.hit cycles; it goes on, and the store
# that finds every MSHR busy waits for the oldest: with m MSHRs, m stores
# per miss time. With a channel slower than that, one line per line's
# transfer time. The loop's cost cancels in the difference of two
# UNROLLs; the store misses train no prefetcher (caches.l2.prefetcher
# stores is false). ----
B1=8 B2=24
for r in $B1 $B2; do for u in $U1 $U2; do
	build st.$r.$u rules.S -DKIND=31 -DREPS=$r -DUNROLL=$u -DSTRIDE="$L1D_LINE" -DBUFALIGN=2097152 ||
		fail build "rules.S KIND 31 does not build"
done; done
for var in mshrs2 mshrs1 channel; do
	vj=$out/u74-$var.json
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); v=sys.argv[2]
p["tlbs"]["page_size"]=2097152
p["caches"]["l1d"]["mshrs"]=1 if v=="mshrs1" else 2
if v=="channel": p["memory"]["read_bandwidth"]=p["memory"]["write_bandwidth"]=768
json.dump(p,open(sys.argv[3],"w"))' ../../profiles/u74.json $var "$vj" || { fail "store-stream $var" "cannot write a profile variant"; continue; }
	eval "$(python3 derive.py "$vj" rules)"
	prof=$vj
	for r in $B1 $B2; do for u in $U1 $U2; do st st.$r.$u cycles; done; done
	d1=$(dif st.$B1.$U1 st.$B2.$U1 cycles) d2=$(dif st.$B1.$U2 st.$B2.$U2 cycles)
	n=$(((B2 - B1) * (U2 - U1)))
	miss=$((MEM_CYCLES - L1D_HIT))
	want=$((n * miss / L1D_MSHRS))
	[ "$READ_LINE_CYCLES" -gt $((miss / L1D_MSHRS)) ] && want=$((n * READ_LINE_CYCLES))
	isnum "$d1" && isnum "$d2" && d=$((d2 - d1)) || d=
	chk "store-stream $var" "$d" "$want" "cycles of $n stores to new lines more ($L1D_MSHRS MSHRs, a miss $miss cycles, a line on the channel $READ_LINE_CYCLES)"
done

# ---- switch dispatch with a fixed target sequence (switch.S, switch.py):
# the indirect predictor learns it, the BTB's last target never does ----
for prof in ${PROFILES:-virt u74}; do
	case $prof in
	*.json) pj=$prof p=$(basename "$prof" .json) ;;
	*) pj=../../profiles/$prof.json p=$prof ;;
	esac
	[ "$p" = virt ] && pfx=uarch || pfx="uarch $p"
	W1=200 W2=1200
	build sw1.$p switch.S -DREPS=$W1 && build sw2.$p switch.S -DREPS=$W2 ||
		{ fail build "switch.S does not build"; continue; }
	SW_SKIP= SW_PER_REP= SW_BOUND=
	eval "$(python3 switch.py "$pj" "$out/sw1.$p")" || { fail switch "switch.py $pj failed"; continue; }
	if [ -n "$SW_SKIP" ]; then
		echo "SKIP $pfx switch-dispatch: $SW_SKIP"
		continue
	fi
	jev=JALR
	python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["pmu"].get("selector_encoding") != "sifive")' "$pj" &&
		jev=JALR_RETIRED
	st sw1.$p $jev,TARGET_MISPREDICTS; st sw2.$p $jev,TARGET_MISPREDICTS
	chk "switch-dispatch jumps" "$(dif sw1.$p sw2.$p $jev)" $((W2 - W1)) "jalr retired"
	chk switch-dispatch "$(dif sw1.$p sw2.$p TARGET_MISPREDICTS)" $(((W2 - W1) * SW_PER_REP)) \
		"target mispredicts over $((W2 - W1)) dispatches after warm-up"
	if [ -n "$SW_BOUND" ]; then
		m=$(v sw1.$p TARGET_MISPREDICTS)
		isnum "$m" && [ "$m" -le "$SW_BOUND" ] && pass "switch-dispatch warm-up" ||
			fail "switch-dispatch warm-up" "got '$m' target mispredicts in $W1 dispatches, want <= $SW_BOUND"
		# the same core without its indirect predictor: every dispatch misses
		python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["branch_predictor"]["indirect_entries"]=0; json.dump(p,open(sys.argv[2],"w"))' \
			"$pj" "$out/$p-noind.json" || { fail "switch-dispatch btb" "cannot write a profile variant"; continue; }
		sprof=$prof prof=$out/$p-noind.json
		st sw1.$p TARGET_MISPREDICTS; st sw2.$p TARGET_MISPREDICTS
		prof=$sprof
		chk "switch-dispatch btb" "$(dif sw1.$p sw2.$p TARGET_MISPREDICTS)" $((W2 - W1)) \
			"indirect_entries 0: BTB last target"
	fi
done
exit 0
