#!/bin/sh
# rvpmu record / report: sample counts against the counted total, the hot
# function in rvpmu's report and in Linux perf's, call chains, and bad
# input.
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/record"
mkdir -p "$out"
pass() { echo "PASS record $1"; }
fail() { echo "FAIL record $1: $2"; }
if [ ! -f "$out/hot" ] || [ hot.c -nt "$out/hot" ]; then
	riscv64-linux-gnu-gcc -static -O2 -g -fno-omit-frame-pointer -o "$out/hot" hot.c >&2 ||
		{ fail build "hot.c does not build"; exit 0; }
fi

# samples = floor(events / period) +- 1, events from rvpmu stat
P=10007
"$RVPMU" stat -x, -e cycles "$out/hot" 2>"$out/stat.csv" >/dev/null
cyc=$(cut -d, -f1 "$out/stat.csv")
"$RVPMU" record -g -c $P -o "$out/hot.data" "$out/hot" >/dev/null 2>"$out/record.err"
n=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$out/record.err")
want=$((cyc / P))
if [ -n "$n" ] && [ "$n" -ge $((want - 1)) ] && [ "$n" -le $((want + 1)) ]; then
	pass "samples = cycles / period ($n of $cyc / $P)"
else
	fail "samples = cycles / period" "got '$n', want $want +- 1 ($(cat "$out/record.err"))"
fi

# the hot function: at least 85% in rvpmu's report
"$RVPMU" report -i "$out/hot.data" > "$out/report.txt" 2>&1
pct=$(awk '$NF == "hot" && $3 == "[.]" { sub("%", "", $1); print $1; exit }' "$out/report.txt")
if [ -n "$pct" ] && awk -v p="$pct" 'BEGIN { exit !(p >= 85) }'; then
	pass "rvpmu report: hot has $pct%"
else
	fail "rvpmu report: hot" "got '$pct' ($(head -12 "$out/report.txt" | tr '\n' '|'))"
fi

# and in Linux perf's report of the same file
if command -v perf >/dev/null 2>&1; then
	perf report -i "$out/hot.data" --stdio --no-children --sort sym -g none > "$out/perf.txt" 2>/dev/null
	ppct=$(awk '$NF == "hot" && $2 == "[.]" { sub("%", "", $1); print $1; exit }' "$out/perf.txt")
	if [ -n "$ppct" ] && awk -v p="$ppct" 'BEGIN { exit !(p >= 85) }'; then
		pass "perf report: hot has $ppct%"
	else
		fail "perf report: hot" "got '$ppct' ($(grep -v '^#' "$out/perf.txt" | head -5 | tr '\n' '|'))"
	fi
	perf script -i "$out/hot.data" > "$out/script.txt" 2>/dev/null
	ns=$(grep -c " cycles: *$" "$out/script.txt")
	[ "$ns" = "$n" ] && pass "perf script lists every sample ($ns)" ||
		fail "perf script" "listed '$ns' sample lines, rvpmu wrote '$n'"
else
	fail "perf report" "perf is not installed (scripts/setup.sh installs linux-perf)"
fi

# call chains from frame pointers: main -> caller -> hot
"$RVPMU" report -i "$out/hot.data" --folded > "$out/folded.txt" 2>&1
if grep -q "main;caller;hot [0-9]" "$out/folded.txt"; then
	pass "call chains: main;caller;hot"
else
	fail "call chains" "$(sort -k2 -n -r "$out/folded.txt" | head -3 | tr '\n' '|')"
fi

# flame graph
"$RVPMU" report -i "$out/hot.data" --flamegraph "$out/hot.svg" >/dev/null 2>&1
python3 -c "import sys, xml.etree.ElementTree as E; t = E.parse(sys.argv[1]); assert 'hot' in open(sys.argv[1]).read()" \
	"$out/hot.svg" 2>/dev/null && pass "flame graph is XML with the hot frame" || fail "flame graph" "not parseable or no hot frame"

# bad input
bad() {  # name expected-text command...
	name=$1 want=$2
	shift 2
	"$@" >/dev/null 2>"$out/bad.err"
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" -lt 128 ] && grep -q -- "$want" "$out/bad.err"; then
		pass "bad input: $name"
	else
		fail "bad input: $name" "exit $rc, stderr: $(cat "$out/bad.err")"
	fi
}
bad "no Sscofpmf on u74" "no Sscofpmf" "$RVPMU" record --profile u74 -o "$out/x.data" "$out/hot"
bad "zero period" "must be positive" "$RVPMU" record -c 0 "$out/hot"
bad "unknown event" "unknown event" "$RVPMU" record -e cyclse "$out/hot"
bad "no program" "no program" "$RVPMU" record
bad "report: missing file" "no-such.data" "$RVPMU" report -i "$out/no-such.data"
head -c 100 "$out/hot.data" > "$out/trunc.data"
bad "report: truncated file" "rvpmu:" "$RVPMU" report -i "$out/trunc.data"
bad "report: bad sort key" "use sym, dso or srcline" "$RVPMU" report --sort nope -i "$out/hot.data"

# -b: branch stacks from the control transfer records. The hot loop's
# back edge (a conditional branch inside hot() to a lower address in hot())
# must be the most frequent edge, and Linux perf must read the stacks.
"$RVPMU" record -b -c 100003 -o "$out/b.data" "$out/hot" >/dev/null 2>"$out/b.err" ||
	fail "branch stack: record" "$(cat "$out/b.err")"
range=$(riscv64-linux-gnu-nm -S "$out/hot" | awk '$4 == "hot" { print $1, $2 }')
if command -v perf >/dev/null 2>&1; then
	perf script -i "$out/b.data" -F brstack 2>/dev/null | tr -s ' \t' '\n' | grep / |
		cut -d/ -f1,2,7 | sort | uniq -c | sort -rn | head -1 > "$out/top-edge.txt"
	read -r cnt edge < "$out/top-edge.txt"
	from=$(echo "$edge" | cut -d/ -f1); to=$(echo "$edge" | cut -d/ -f2); typ=$(echo "$edge" | cut -d/ -f3)
	if python3 - "$range" "$from" "$to" "$typ" <<'PY'
import sys
start, size = (int(x, 16) for x in sys.argv[1].split())
f, t = int(sys.argv[2], 16), int(sys.argv[3], 16)
sys.exit(0 if start <= t < f < start + size and sys.argv[4] == "COND" else 1)
PY
	then
		pass "branch stack: hot loop back edge $from->$to ($cnt)"
	else
		fail "branch stack: hot loop back edge" "top edge '$edge' x$cnt, hot() at $range"
	fi
else
	fail "branch stack" "perf is not installed"
fi
bad "-b without Smctr (u74)" "Sscofpmf" "$RVPMU" record -b --profile u74 -o "$out/x.data" "$out/hot"
