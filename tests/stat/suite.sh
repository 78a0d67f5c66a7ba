#!/bin/sh
# rvpmu stat: exact counts on a program whose events are known by
# construction (loop.S), CSV output parsed back, agreement with
# `rvpmu run --insn-count`, determinism under -r, and bad input.
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/stat"
mkdir -p "$out"
pass() { echo "PASS stat $1"; }
fail() { echo "FAIL stat $1: $2"; }

if [ ! -f "$out/loop" ] || [ loop.S -nt "$out/loop" ]; then
	riscv64-linux-gnu-gcc -static -nostdlib -o "$out/loop" loop.S >&2 ||
		{ fail build "loop.S does not build"; exit 0; }
fi
if [ ! -f "$out/hello" ] || [ hello.c -nt "$out/hello" ]; then
	riscv64-linux-gnu-gcc -static -O2 -o "$out/hello" hello.c >&2 ||
		{ fail build "hello.c does not build"; exit 0; }
fi

# exact counts (derived in loop.S's header comment); without the models a
# cycle is an instruction and branch-misses cannot be counted
"$RVPMU" stat --no-uarch -x, -e instructions,cycles,loads,stores,int-mul,branches,branches-taken,instructions:k,branch-misses \
	"$out/loop" 2>"$out/loop.csv"
rc=$?
[ "$rc" = 0 ] && pass "exit status" || fail "exit status" "got $rc"
check() {  # event expected
	got=$(awk -F, -v e="$1" '$3 == e { print $1 }' "$out/loop.csv")
	[ "$got" = "$2" ] && pass "loop $1 = $2" || fail "loop $1" "got '$got', want $2"
}
check instructions 6005
check cycles 6005
check loads 1000
check stores 1000
check int-mul 1000
check branches 1000
check branches-taken 999
check instructions:k 0
check branch-misses "<not supported>"

# with the models (default): the loop touches one data line and one or
# two instruction lines, so L1D sees 1000 loads and exactly 1 miss; the
# loop branch mispredicts only while the predictor warms up and at exit
"$RVPMU" stat -x, -e instructions,cycles,L1-dcache-loads,L1-dcache-load-misses,branch-misses \
	"$out/loop" 2>"$out/loop.csv"
check instructions 6005
check L1-dcache-loads 1000
check L1-dcache-load-misses 1
cyc=$(awk -F, '$3 == "cycles" { print $1 }' "$out/loop.csv")
bm=$(awk -F, '$3 == "branch-misses" { print $1 }' "$out/loop.csv")
[ -n "$cyc" ] && [ "$cyc" -ge 3003 ] && [ "$cyc" -le 60050 ] && pass "models: cycles plausible ($cyc)" ||
	fail "models: cycles plausible" "got '$cyc' for 6005 instructions"
[ -n "$bm" ] && [ "$bm" -ge 1 ] && [ "$bm" -le 32 ] && pass "models: branch-misses ($bm)" ||
	fail "models: branch-misses" "got '$bm' for a 1000-iteration loop"
"$RVPMU" stat -x, -e instructions,cycles "$out/loop" 2>"$out/a.csv"
"$RVPMU" stat -x, -e instructions,cycles "$out/loop" 2>"$out/b.csv"
cmp -s "$out/a.csv" "$out/b.csv" && pass "models: deterministic" || fail "models: deterministic" "two runs differ"

# the u74 profile: SiFive encoding, 2 hpm counters
"$RVPMU" stat --profile u74 -x, -e instructions,cycles,branches "$out/loop" 2>"$out/u74.csv"
ins=$(awk -F, '$3 == "instructions" { print $1 }' "$out/u74.csv")
br=$(awk -F, '$3 == "branches" { print $1 }' "$out/u74.csv")
[ "$ins" = 6005 ] && [ "$br" = 1000 ] && pass "u74: instructions and branches" ||
	fail "u74: instructions and branches" "got '$ins' and '$br'"

# the human table carries the same numbers
"$RVPMU" stat --no-uarch -e instructions,branches-taken "$out/loop" 2>"$out/loop.txt"
if grep -Eq '^ +6,005 +instructions +# +1\.00  insn per cycle|^ +6,005 +instructions' "$out/loop.txt" &&
   grep -Eq '^ +999 +branches-taken' "$out/loop.txt" &&
   grep -q "Performance counter stats for '$out/loop'" "$out/loop.txt"; then
	pass "table format"
else
	fail "table format" "$(tr '\n' '|' < "$out/loop.txt")"
fi

# a glibc program: stat's instruction count equals run's
"$RVPMU" run --insn-count "$out/hello.n" "$out/hello" >"$out/hello.out" 2>&1
"$RVPMU" stat -x, -e instructions "$out/hello" >"$out/hello.out" 2>"$out/hello.csv"
a=$(cat "$out/hello.n"); b=$(cut -d, -f1 "$out/hello.csv")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "stat agrees with run ($a)" || fail "stat agrees with run" "run $a, stat $b"
grep -q "hello from stat" "$out/hello.out" && pass "program output passes through" ||
	fail "program output passes through" "stdout: $(cat "$out/hello.out")"

# -r: deterministic runs
"$RVPMU" stat -r 3 -e instructions "$out/loop" 2>"$out/r3.txt" &&
	grep -q "(3 runs)" "$out/r3.txt" && grep -q "6,005" "$out/r3.txt" &&
	pass "repeat" || fail "repeat" "$(tr '\n' '|' < "$out/r3.txt")"

# -o FILE
rm -f "$out/o.txt"
"$RVPMU" stat -o "$out/o.txt" -e instructions "$out/loop" 2>/dev/null
grep -q "6,005" "$out/o.txt" 2>/dev/null && pass "-o file" || fail "-o file" "no count in the file"

# bad input: one clear line, non-zero exit, no crash
echo '{"name": "bad", "pmu": 5}' > "$out/bad.json"
bad() {  # name expected-text args...
	name=$1 want=$2
	shift 2
	"$RVPMU" stat "$@" >/dev/null 2>"$out/bad.err"
	rc=$?
	lines=$(wc -l < "$out/bad.err")
	if [ "$rc" != 0 ] && [ "$rc" -lt 128 ] && [ "$lines" = 1 ] && grep -q -- "$want" "$out/bad.err"; then
		pass "bad input: $name"
	else
		fail "bad input: $name" "exit $rc, stderr: $(cat "$out/bad.err")"
	fi
}
bad "unknown event" "unknown event 'cyclse' (did you mean 'cycles'" -e cyclse "$out/loop"
bad "unknown modifier" "unknown event modifier 'z'" -e cycles:z "$out/loop"
bad "unterminated group" "unterminated group" -e '{cycles,instructions' "$out/loop"
bad "unmatched brace" "unmatched" -e 'cycles}' "$out/loop"
bad "trailing comma" "trailing" -e 'cycles,' "$out/loop"
bad "empty list" "empty event list" -e '' "$out/loop"
bad "no program" "no program given"
bad "missing program" "no-such-program" /no-such-program
bad "bad -r" "out of range" -r 0 "$out/loop"
bad "unknown option" "unknown option" --bogus "$out/loop"
bad "unknown profile" "no nosuch.json" --profile nosuch "$out/loop"
bad "malformed profile" "missing required key" --profile "$out/bad.json" "$out/loop"
