#!/bin/sh
# Top-down (docs/topdown.md): first-principles guest programs, each built
# so that one category must take the most issue slots (a pointer chase:
# backend; random branches: bad speculation; a code footprint twice the
# L1I: frontend; independent additions: retiring; CSR writes after loads:
# bad speculation's machine clears), on virt (1-wide) and u74 (2-wide),
# in the step loop (--no-jit) and translated. On every run the slots sum
# exactly: retiring + bad speculation + frontend + backend = width x
# cycles, in integers, and each level-2 part is its level-1 category's;
# both ways of running count alike; rvpmu stat --topdown prints the same
# split. One line per check: "PASS topdown NAME" / "FAIL topdown NAME: why".
cd "$(dirname "$0")/../.." || exit 1
: "${RVPMU:=$PWD/build/rvpmu}" "${BUILD:=$PWD/build}"
out=$BUILD/tests/topdown
mkdir -p "$out" || exit 1
pass() { echo "PASS topdown $1"; }
fail() { echo "FAIL topdown $1: $2"; }
T=60

build() {   # NAME -DX=Y...
	n=$1
	shift
	riscv64-linux-gnu-gcc -static -nostdlib -Wl,--build-id=none -o "$out/$n" "$@" \
		"tests/topdown/$n.S" >&2 || { fail "build-$n" "see stderr"; return 1; }
}
build chase -DLINES=65536 -DSTEPS=131072 &&
build branch -DWORDS=2000 &&
build footprint -DLINES=1024 -DPASSES=50 &&
build alu -DREPS=2000 &&
build flush -DREPS=2000 || exit 0

# st PROG MODE EVENTS: the CSV counts into $out/PROG.MODE.csv; fails
# (printing why) when rvpmu fails or an event was not counted the whole run
st() {
	flag=; [ "$2" = step ] && flag=--no-jit
	csv=$out/$1.$2.csv
	if ! timeout "$T" "$RVPMU" stat $flag --profile "$prof" -x, -e "$3" "$out/$1" \
		>/dev/null 2>"$csv"; then
		echo "rvpmu stat failed: $(head -c 200 "$csv")"
		return 1
	fi
	cat "$csv" >> "$out/$1.$2.all"   # every run's, to compare the two ways
	awk -F, '/^[0-9]/ && $5 != "100.00" { print $3 " ran " $5 "%"; bad = 1 } END { exit bad }' "$csv"
}
# v PROG MODE EVENT: one count of st's CSV
v() { awk -F, -v e="$3" '$3 == e { print $1; exit }' "$out/$1.$2.csv"; }

# largest NAME=VALUE...: the name of the largest value (the first on a tie)
largest() {
	best= bv=-1
	for nv in "$@"; do
		if [ "${nv#*=}" -gt "$bv" ]; then best=${nv%%=*} bv=${nv#*=}; fi
	done
	echo "$best"
}

# split PROG MODE: the top-down split of one run into the variables
# slots ret bad fe be (level 1), misp clears flat redir mem core (level 2);
# prints why not when the counts do not hang together
split() {
	p=$1 m=$2
	: > "$out/$p.$m.all"
	if [ "$prof" = virt ]; then   # 1-wide: each stall cycle is one slot
		st "$p" "$m" cycles,instructions,STALL_FRONTEND,STALL_BACKEND,STALL_MISPREDICT,STALL_FETCH_REDIRECT,STALL_FLUSH,STALL_ICACHE_BUSY,STALL_DCACHE_BUSY || return
		c=$(v "$p" "$m" cycles) ret=$(v "$p" "$m" instructions)
		sfe=$(v "$p" "$m" STALL_FRONTEND) sbe=$(v "$p" "$m" STALL_BACKEND)
		misp=$(v "$p" "$m" STALL_MISPREDICT) redir=$(v "$p" "$m" STALL_FETCH_REDIRECT)
		clears=$(v "$p" "$m" STALL_FLUSH) flat=$(v "$p" "$m" STALL_ICACHE_BUSY)
		mem=$(v "$p" "$m" STALL_DCACHE_BUSY)
		slots=$c bad=$((misp + clears)) fe=$((sfe - misp))
		# backend from its own counts: each instruction is a group of
		# its own, so the slots sum only if the model lost no cycle
		be=$((sbe - clears)) core=$((sbe - clears - mem))
		[ "$sfe" = $((flat + misp + redir)) ] ||
			echo "stall_frontend $sfe != icache $flat + mispredict $misp + redirect $redir"
	else   # u74: two counters, so four runs (all alike: modelled time)
		st "$p" "$m" cycles,instructions,RVPMU_TOPDOWN_BAD_SPEC,RVPMU_TOPDOWN_FRONTEND || return
		c=$(v "$p" "$m" cycles) ret=$(v "$p" "$m" instructions)
		b=$(v "$p" "$m" RVPMU_TOPDOWN_BAD_SPEC) f=$(v "$p" "$m" RVPMU_TOPDOWN_FRONTEND)
		st "$p" "$m" cycles,RVPMU_STALL_MISPREDICT,RVPMU_STALL_FLUSH || return
		c2=$(v "$p" "$m" cycles) misp=$(v "$p" "$m" RVPMU_STALL_MISPREDICT)
		clears=$(v "$p" "$m" RVPMU_STALL_FLUSH)
		st "$p" "$m" cycles,ICACHE_BUSY_CYCLES,RVPMU_STALL_FETCH_REDIRECT || return
		c3=$(v "$p" "$m" cycles) flat=$(v "$p" "$m" ICACHE_BUSY_CYCLES)
		redir=$(v "$p" "$m" RVPMU_STALL_FETCH_REDIRECT)
		st "$p" "$m" cycles,DCACHE_BUSY_CYCLES,RVPMU_TOPDOWN_NOT_CORE || return
		c4=$(v "$p" "$m" cycles) mem=$(v "$p" "$m" DCACHE_BUSY_CYCLES)
		nc=$(v "$p" "$m" RVPMU_TOPDOWN_NOT_CORE)
		[ "$c" = "$c2" ] && [ "$c" = "$c3" ] && [ "$c" = "$c4" ] ||
			{ echo "runs differ: cycles $c $c2 $c3 $c4"; return; }
		slots=$((2 * c)) bad=$((2 * b)) fe=$((2 * f))
		be=$((slots - ret - bad - fe))   # the rest, by definition
		misp=$((2 * misp)) clears=$((2 * clears)) flat=$((2 * flat)) redir=$((2 * redir))
		mem=$((2 * mem)) core=$((slots - ret - 2 * nc))
		[ "$be" -ge 0 ] || echo "backend $be < 0"
		# the class 0xf1 sums are their parts'
		[ $((2 * nc)) = $((bad + fe + mem)) ] ||
			echo "2 x RVPMU_TOPDOWN_NOT_CORE $((2 * nc)) != bad $bad + frontend $fe + memory $mem"
	fi
	[ $((ret + bad + fe + be)) = "$slots" ] ||
		echo "retiring $ret + bad speculation $bad + frontend $fe + backend $be != slots $slots"
	[ $((misp + clears)) = "$bad" ] || echo "mispredicts $misp + machine clears $clears != bad speculation $bad"
	[ $((flat + redir)) = "$fe" ] || echo "fetch latency $flat + resteers $redir != frontend $fe"
	[ $((mem + core)) = "$be" ] && [ "$core" -ge 0 ] || echo "memory $mem + core $core != backend $be"
}

# td PROG MODE: rvpmu stat --topdown -x,'s line of values: cycles' empty
# Ghz (as perf's), then the four level-1 percentages in the profiles'
# order (backend, bad speculation, frontend, retiring), then IPC
td() {
	flag=; [ "$2" = step ] && flag=--no-jit
	timeout "$T" "$RVPMU" stat $flag --profile "$prof" --topdown -x, "$out/$1" 2>&1 >/dev/null | tail -n 1
}

for prof in virt u74; do
	for pw in chase:be:mem branch:bad:misp footprint:fe:flat alu:ret: flush:bad:clears; do
		p=${pw%%:*} want=${pw#*:} want2=${want#*:} want=${want%%:*}
		name=$prof-$p
		why=
		for m in step jit; do
			split "$p" "$m" >"$out/why"
			why=$(cat "$out/why")
			[ -n "$why" ] && { why="$m: $why"; break; }
			top=$(largest ret=$ret bad=$bad fe=$fe be=$be)
			[ "$top" = "$want" ] ||
				{ why="$m: $top dominates, not $want (slots $slots: ret $ret bad $bad fe $fe be $be)"; break; }
			if [ -n "$want2" ]; then
				if [ "$want" = bad ]; then top=$(largest misp=$misp clears=$clears)
				elif [ "$want" = fe ]; then top=$(largest flat=$flat redir=$redir)
				else top=$(largest mem=$mem core=$core); fi
				[ "$top" = "$want2" ] || { why="$m: level 2: $top dominates, not $want2"; break; }
			fi
		done
		[ -z "$why" ] && ! cmp -s "$out/$p.step.all" "$out/$p.jit.all" &&
			why="step loop and translated counts differ: $(diff "$out/$p.step.all" "$out/$p.jit.all" | head -n 3 | tr '\n' ' ')"
		if [ -z "$why" ]; then pass "$name ($want: slots sum exactly)"; else fail "$name" "$why"; fi

		# --topdown: the same split, rounded, in both ways of running
		a=$(td "$p" step) b=$(td "$p" jit)
		why=$(echo "$a" | awk -F, -v be="$be" -v bad="$bad" -v fe="$fe" -v ret="$ret" -v s="$slots" '
			NF < 6 { print "no --topdown line: " $0; exit }
			{ w[1] = be; w[2] = bad; w[3] = fe; w[4] = ret; sum = 0
			  for (i = 1; i <= 4; i++) {
				x = $(i + 1)
				sum += x
				if (x - 100 * w[i] / s > 0.051 || 100 * w[i] / s - x > 0.051)
					{ print "column " i ": " x "% for " w[i] " of " s " slots"; exit }
			  }
			  if (sum < 99.8 || sum > 100.2) print "the four sum to " sum "%" }')
		[ -z "$why" ] && [ "$a" != "$b" ] && why="step loop '$a', translated '$b'"
		if [ -z "$why" ]; then pass "$name --topdown"; else fail "$name --topdown" "$why"; fi
	done
done

# bad input: a level the profiles do not have, --td-level alone, no models
for args in "--topdown --td-level 3" "--td-level 1" "--topdown --no-uarch"; do
	# shellcheck disable=SC2086
	"$RVPMU" stat $args "$out/alu" >/dev/null 2>"$out/err"
	rc=$?
	if [ $rc = 2 ] && grep -q '^rvpmu stat: ' "$out/err"; then
		pass "refuses $args"
	else
		fail "refuses $args" "exit $rc: $(head -c 120 "$out/err")"
	fi
done
