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
n=$(sed -n 's/.*(\([0-9]*\) samples) \].*/\1/p' "$out/record.err")
want=$((cyc / P))
if [ -n "$n" ] && [ "$n" -ge $((want - 1)) ] && [ "$n" -le $((want + 1)) ]; then
	pass "samples = cycles / period ($n of $cyc / $P)"
else
	fail "samples = cycles / period" "got '$n', want $want +- 1 ($(cat "$out/record.err"))"
fi

# the hot function: at least 85% in rvpmu's report
"$RVPMU" report --no-children -i "$out/hot.data" > "$out/report.txt" 2>&1
pct=$(awk '$NF == "hot" && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' "$out/report.txt")
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
bad "report: truncated file" "^rvpmu report:" "$RVPMU" report -i "$out/trunc.data"
bad "report: bad sort key" "unknown sort key 'nope'" "$RVPMU" report --sort nope -i "$out/hot.data"
bad "-j given twice" "-j given twice" "$RVPMU" record -j any_call -j u -o "$out/x.data" "$out/hot"

# -e twice samples both lists, as perf record does (issue 35)
"$RVPMU" record -c 10007 -e cycles -e instructions:u -o "$out/e2.data" "$out/hot" >/dev/null 2>&1
if command -v perf >/dev/null 2>&1; then
	perf script -i "$out/e2.data" -F event 2>/dev/null | sort | uniq -c > "$out/e2.txt"
	if grep -q " cycles: *$" "$out/e2.txt" && grep -q " instructions:u: *$" "$out/e2.txt"; then
		pass "-e cycles -e instructions:u: perf script shows samples of both"
	else
		fail "-e given twice" "$(tr '\n' '|' < "$out/e2.txt")"
	fi
fi

# -o /dev/null (a device without a file position) is a valid sink (this
# period put a buffer flush inside a header feature: ftell said 0 there)
if "$RVPMU" record -q -c 5003 -o /dev/null "$out/hot" >/dev/null 2>"$out/null.err"; then
	pass "record -o /dev/null"
else
	fail "record -o /dev/null" "$(cat "$out/null.err")"
fi

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

# ---- the skid against a trace, branch stacks against the real path,
# report --branch, CTR call chains, -j filters (issues 6 and 8) ----
# (in a subshell, so that a missing tool ends only these checks and
# their variables stay theirs)
trace_checks() (
	chk=trace_check.py
	if [ ! -f "$out/loop" ] || [ loop.S -nt "$out/loop" ]; then
		riscv64-linux-gnu-gcc -static -nostdlib -o "$out/loop" loop.S >&2 ||
			{ fail build "loop.S does not build"; exit 0; }
	fi
	if [ ! -f "$out/calls" ] || [ calls.c -nt "$out/calls" ]; then
		riscv64-linux-gnu-gcc -static -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls \
			-o "$out/calls" calls.c >&2 || { fail build "calls.c does not build"; exit 0; }
	fi
	if ! command -v perf >/dev/null 2>&1; then
		fail "trace checks" "perf is not installed (they compare perf script with the trace)"
		exit 0
	fi
	N=$(sed -n 's/^[[:space:]]*\.equ[[:space:]]*N,[[:space:]]*\([0-9]*\).*/\1/p' loop.S)
	skid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pmu"]["skid"])' ../../profiles/virt.json)
	sym() { riscv64-linux-gnu-nm "$1" | awk -v s="$2" '$3 == s { print $1 }'; }
	top=$(sym "$out/loop" loop_top) pat=$(sym "$out/loop" pat_br) skp=$(sym "$out/loop" skip)
	back=$(sym "$out/loop" loop_br) start=$(sym "$out/loop" _start)

	# loop.S retires exactly N loads (one per iteration, nothing else loads)
	"$RVPMU" stat -x, -e loads "$out/loop" 2>"$out/loop-stat.csv" >/dev/null
	ld=$(cut -d, -f1 "$out/loop-stat.csv")
	[ -n "$N" ] && [ "$ld" = "$N" ] && pass "loop.S: stat counts its $N loads" ||
		fail "loop.S: loads" "stat says '$ld', the program has N = '$N'"

	# sampling loads: samples = floor(N / P) +- 1, and the trace's loads are N
	P=1009
	"$RVPMU" record -e loads -c $P --trace "$out/loop.trace" -o "$out/loop.data" "$out/loop" \
		>/dev/null 2>"$out/loop.err"
	n=$(sed -n 's/.*(\([0-9]*\) samples) \].*/\1/p' "$out/loop.err")
	want=$((N / P))
	if [ -n "$n" ] && [ "$n" -ge $((want - 1)) ] && [ "$n" -le $((want + 1)) ]; then
		pass "loads samples = N / period ($n of $N / $P)"
	else
		fail "loads samples = N / period" "got '$n', want $want +- 1 ($(cat "$out/loop.err"))"
	fi
	tl=$(awk '$1 == "i" { s += $5 } END { print s + 0 }' "$out/loop.trace")
	[ "$tl" = "$N" ] && pass "trace: the loads it attributes to instructions total N ($tl)" ||
		fail "trace: loads" "the trace's loads add up to '$tl', want $N"
	tld=$(awk -v a="$top" '$1 == "i" && $5 == 1 { if ($2 != a) bad++ } END { print bad + 0 }' "$out/loop.trace")
	[ "$tld" = 0 ] && pass "trace: every load is the ld at loop_top" ||
		fail "trace: loads" "$tld instructions other than loop_top's ld raised a load"

	# the skid: each sample's pc is the instruction after the overflowing one
	# plus at most skid more; perf.data holds the same pcs
	perf script -i "$out/loop.data" -F ip > "$out/loop-ips.txt" 2>/dev/null
	r=$(python3 "$chk" skid "$out/loop.trace" $P "$skid" "$out/loop-ips.txt")
	case $r in
	ok*) pass "skid: samples within $skid instructions of the overflow, pcs match (${r#ok })" ;;
	*) fail "skid" "${r#bad }" ;;
	esac
	# virt's skid is a fixed number of retirements (docs/profiles.md)
	ex=$(echo "$r" | sed -n 's/.*exact \([0-9]*\);.*/\1/p')
	[ -n "$ex" ] && [ "$ex" = "$n" ] && pass "skid: exactly $skid retirements for all $n samples" ||
		fail "skid: exactly $skid" "$ex of $n samples (${r})"

	# sampling cycles: the step loop runs as far as the overflow horizon,
	# which trusts a bound on what one instruction can add to the models'
	# cycles (uarch_timing_max_per_insn); a bound too small shows here as an
	# overflow seen late, past the skid (calls' startup misses a lot)
	"$RVPMU" record -e cycles -c 997 --trace "$out/callsc.trace" -o "$out/callsc.data" \
		"$out/calls" 200000 >/dev/null 2>"$out/callsc.err"
	perf script -i "$out/callsc.data" -F ip > "$out/callsc-ips.txt" 2>/dev/null
	r=$(python3 "$chk" skid "$out/callsc.trace" 997 "$skid" "$out/callsc-ips.txt")
	case $r in
	ok*) pass "skid on cycles (the models): samples within $skid of the overflow (${r#ok })" ;;
	*) fail "skid on cycles" "${r#bad }" ;;
	esac

	# branch stacks = the last transfers the program really made (the trace)
	"$RVPMU" record -b -e loads -c $P --trace "$out/loopb.trace" -o "$out/loopb.data" "$out/loop" \
		>/dev/null 2>"$out/loopb.err"
	perf script -i "$out/loopb.data" -F brstack > "$out/loopb-br.txt" 2>/dev/null
	r=$(python3 "$chk" brstack "$out/loopb.trace" "$out/loopb-br.txt" BCcTSJR 256)
	case $r in
	ok*) pass "branch stacks = the trace's path (${r#ok })" ;;
	*) fail "branch stacks vs trace" "${r#bad }" ;;
	esac
	# and the loop's known edges: only loop_br -> loop_top and pat_br -> skip,
	# both COND; the taken branches repeat every 4 iterations as pat, back,
	# pat, back, pat, back, back, so 256 consecutive records hold
	# floor or ceil of 256 * 4/7 = 146.3 back edges
	edges=$(tr -s ' \t' '\n' < "$out/loopb-br.txt" | grep / | cut -d/ -f1,2,7 | sort -u | tr '\n' ' ')
	wantedges=$(printf '0x%x/0x%x/COND\n0x%x/0x%x/COND\n' 0x$back 0x$top 0x$pat 0x$skp | sort | tr '\n' ' ')
	[ "$edges" = "$wantedges" ] && pass "branch stacks: exactly the loop's two edges ($edges)" ||
		fail "branch stacks: edges" "got '$edges', want '$wantedges' (nm)"
	bad_rows=$(awk -v e="$(printf '0x%x/0x%x/' 0x$back 0x$top)" '{ n = 0; for (i = 1; i <= NF; i++) if (index($i, e) == 1) n++
		if (NF != 256 || (n != 146 && n != 147)) b++ } END { print b + 0 }' "$out/loopb-br.txt")
	[ "$bad_rows" = 0 ] && pass "branch stacks: 256 records with 146 or 147 back edges in each of $n" ||
		fail "branch stacks: back edges" "$bad_rows samples differ"

	# report --branch: the back edge is the hottest edge, its count that of
	# the stacks; blocks are the loop's three straight runs
	"$RVPMU" report --branch -i "$out/loopb.data" > "$out/loopb-rep.txt" 2>&1
	nback=$(tr -s ' \t' '\n' < "$out/loopb-br.txt" | grep -c "^$(printf '0x%x/0x%x/' 0x$back 0x$top)")
	off() { printf '_start+0x%x' $((0x$1 - 0x$start)); }
	row=$(grep -A1 '^#  *Count.*From -> To' "$out/loopb-rep.txt" | tail -1)
	set -- $row
	if [ "$1" = "$nback" ] && [ "$5 $6 $7" = "$(off $back) -> $(off $top)" ]; then
		pass "report --branch: hottest edge loop_br -> loop_top ($5 -> $7, $1)"
	else
		fail "report --branch: hottest edge" "row '$row', want $nback x $(off $back) -> $(off $top)"
	fi
	blocks=$(sed -n '/^# Basic blocks/,$p' "$out/loopb-rep.txt" | awk '$1 ~ /^[0-9]+$/ { print $4, $6 }' | sort | tr '\n' ' ')
	wantb=$(printf '%s %s\n' "$(off $top)" "$(off $pat)" "$(off $skp)" "$(off $back)" "$(off $top)" "$(off $back)" | sort | tr '\n' ' ')
	[ "$blocks" = "$wantb" ] && pass "report --branch: the loop's three blocks ($blocks)" ||
		fail "report --branch: blocks" "got '$blocks', want '$wantb'"
	bad "report --branch without branch stacks" "no branch stacks" "$RVPMU" report --branch -i "$out/loop.data"

	# --call-graph ctr on code without frame pointers: main;a;b;leaf
	"$RVPMU" record --call-graph ctr -c 100003 -o "$out/calls.data" "$out/calls" >/dev/null 2>"$out/calls.err"
	"$RVPMU" report --folded -i "$out/calls.data" > "$out/calls-folded.txt" 2>&1
	lf=$(awk '$1 ~ /(^|;)leaf$/ { s += $2 } END { print s + 0 }' "$out/calls-folded.txt")
	lfull=$(awk '$1 ~ /(^|;)main;a;b;leaf$/ { s += $2 } END { print s + 0 }' "$out/calls-folded.txt")
	tot=$(awk '{ s += $NF } END { print s + 0 }' "$out/calls-folded.txt")
	if [ "$lf" -gt 0 ] && [ "$lf" = "$lfull" ] && [ $((lf * 2)) -gt "$tot" ]; then
		pass "--call-graph ctr: all $lf leaf samples (of $tot) are main;a;b;leaf"
	else
		fail "--call-graph ctr" "leaf $lf, main;a;b;leaf $lfull of $tot: $(sort -k2 -nr "$out/calls-folded.txt" | head -3 | tr '\n' '|')"
	fi
	if perf script -i "$out/calls.data" > "$out/calls-script.txt" 2>"$out/calls-script.err"; then
		r=$(awk 'NF == 0 { if (k) { t++; if (f[1] == "leaf") { l++; if (f[2] == "b" && f[3] == "a" && f[4] == "main") ok++ } } k = 0; next }
			/^\t/ { split($2, s, "+"); f[++k] = s[1]; next }
			END { printf "%d %d %d", t, l, ok }' "$out/calls-script.txt")
		set -- $r
		[ "$2" -gt 0 ] && [ "$2" = "$3" ] && pass "perf script reads the CTR chains: $3 of $1 samples leaf<-b<-a<-main" ||
			fail "perf script: CTR chains" "samples $1, leaf $2, with b, a, main $3"
	else
		fail "perf script: CTR chains" "$(head -3 "$out/calls-script.err")"
	fi
	bad "--call-graph: bad mode" "use fp, dwarf" "$RVPMU" record --call-graph lbr "$out/calls"
	python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p["name"] = "nosmctr"; p["pmu"]["extensions"]["smctr"] = False; json.dump(p, open(sys.argv[2], "w"))' \
		../../profiles/virt.json "$out/nosmctr.json"
	bad "--call-graph ctr without Smctr" "needs control transfer records" \
		"$RVPMU" record --call-graph ctr --profile "$out/nosmctr.json" -o "$out/x.data" "$out/calls"

	# -j: each filter's stacks are the trace's transfers of those kinds only
	for jk in call:C ind_call:c any_call:Cc any_ret:T cond:B; do
		j=${jk%%:*} k=${jk#*:}
		"$RVPMU" record -j $j -e instructions -c 5003 --trace "$out/j.trace" -o "$out/j.data" \
			"$out/calls" 3000 >/dev/null 2>"$out/j.err"
		perf script -i "$out/j.data" -F brstack > "$out/j-br.txt" 2>/dev/null
		r=$(python3 "$chk" brstack "$out/j.trace" "$out/j-br.txt" "$k" 256)
		case $r in
		ok*) pass "-j $j: stacks = the trace's $k transfers (${r#ok })" ;;
		*) fail "-j $j" "${r#bad } ($(head -2 "$out/j.err" | tr '\n' '|'))" ;;
		esac
	done
	bad "-j: unknown filter" "unknown branch filter" "$RVPMU" record -j calls "$out/calls"
	bad "-j k in user mode" "only u" "$RVPMU" record -j any,k "$out/calls"
	bad "--trace: unwritable" "no-such-dir" "$RVPMU" record --trace "$out/no-such-dir/t" "$out/loop"
)
trace_checks

# ---- progress line (issue 6) ----
# On a terminal (script(1) gives the command a pty) a long run shows one
# line on stderr, "rvpmu CMD: N instructions, M MIPS" (and ", K samples"
# for record), drawn as "\r\033[K<text>\r" and erased ("\r\033[K") before
# anything else reaches the terminal and at the end. Nothing of it when
# stderr is not a terminal or with -q. The line must change no result.
pg_check() {  # transcript command want-samples(0/1) [final-samples]
	python3 - "$@" 2>&1 <<'PY'
import re, sys
t = open(sys.argv[1], 'rb').read().decode('latin-1')
cmd, want_s = sys.argv[2], sys.argv[3] == '1'
final = int(sys.argv[4]) if len(sys.argv) > 4 else None
draw = re.compile(r'\r\x1b\[Krvpmu %s: ([0-9.]+)([MG]) instructions, ([0-9]+) MIPS(, ([0-9]+) samples)?\r' % cmd)
ds = list(draw.finditer(t))
if not ds:
    sys.exit('no progress line in %r' % t[:200])
if len(re.findall(r'rvpmu %s: [0-9]' % cmd, t)) != len(ds):
    sys.exit('a progress text that is not a whole line')
last_i, last_s = 0, 0
for m in ds:
    if not t.startswith('\r\x1b[K', m.end()):
        sys.exit('not erased before %r' % t[m.end():m.end() + 40])
    i = float(m[1]) * (1e9 if m[2] == 'G' else 1e6)
    if i < last_i:
        sys.exit('instructions went down')
    last_i = i
    if want_s != bool(m[4]):
        sys.exit('samples shown: %s, wanted %s' % (bool(m[4]), want_s))
    if m[4]:
        s = int(m[5])
        if s < last_s or (final is not None and s > final):
            sys.exit('samples %d after %d (final %s)' % (s, last_s, final))
        last_s = s
print(len(ds))
PY
}
if ! command -v script >/dev/null 2>&1; then
	fail "progress" "script(1) (util-linux) is not installed"
else
	# run: the guest's own output comes after the erase (in the step loop:
	# translated, the program ends before a line is due)
	script -qec "'$RVPMU' run --no-jit '$out/hot' 300000000" /dev/null > "$out/pg-run.txt" 2>&1
	if k=$(pg_check "$out/pg-run.txt" run 0) &&
		grep -q "$(printf '\r\033\\[K')[0-9a-f]\{8,\} [0-9a-f]\{4,\}" "$out/pg-run.txt"; then
		pass "progress: run on a tty ($k lines, erased before the guest's output)"
	else
		fail "progress: run on a tty" "$k"
	fi
	# stat: on a tty and not (-q), the same counts (the step loop again:
	# counting blocks end the run before a line is due)
	ev=cycles,instructions,branches,branch-misses,L1-dcache-load-misses
	script -qec "'$RVPMU' stat --no-jit -x, -e $ev -o '$out/pg-stat1.csv' '$out/hot' 20000000 >/dev/null" \
		/dev/null > "$out/pg-stat.txt" 2>&1
	script -qec "'$RVPMU' stat --no-jit -q -x, -e $ev -o '$out/pg-stat2.csv' '$out/hot' 20000000 >/dev/null" \
		/dev/null > "$out/pg-stat-q.txt" 2>&1
	k=$(pg_check "$out/pg-stat.txt" stat 0) && pass "progress: stat on a tty ($k lines)" ||
		fail "progress: stat on a tty" "$k"
	# (after perf's "# started on DATE" line and the blank one)
	tail -n +3 "$out/pg-stat2.csv" > "$out/pg-stat2.body"
	if [ -s "$out/pg-stat1.csv" ] && tail -n +3 "$out/pg-stat1.csv" | cmp -s - "$out/pg-stat2.body"; then
		pass "progress: stat counts the same with the line and without (-q)"
	else
		fail "progress: stat counts" "$(diff "$out/pg-stat1.csv" "$out/pg-stat2.csv" | tr '\n' '|')"
	fi
	grep -q "MIPS" "$out/pg-stat-q.txt" && fail "progress: stat -q" "a progress line with -q" ||
		pass "progress: stat -q on a tty shows none"
	# record: samples so far, never more than it writes; the same samples
	# (the step loop and a long run: translated, sampling ends before a
	# line is due)
	script -qec "'$RVPMU' record --no-jit -c 10007 -o '$out/pg1.data' '$out/hot' 40000000 >/dev/null" \
		/dev/null > "$out/pg-record.txt" 2>&1
	script -qec "'$RVPMU' record --no-jit -q -c 10007 -o '$out/pg2.data' '$out/hot' 40000000 >/dev/null" \
		/dev/null > "$out/pg-record-q.txt" 2>&1
	nw=$(sed -n 's/.*(\([0-9]*\) samples) \].*/\1/p' "$out/pg-record.txt")
	if [ -n "$nw" ] && k=$(pg_check "$out/pg-record.txt" record 1 "$nw") &&
		grep -q "$(printf '\r\033\\[K')\[ rvpmu record: Woken up" "$out/pg-record.txt"; then
		pass "progress: record on a tty ($k lines, samples up to $nw, erased before its summary)"
	else
		fail "progress: record on a tty" "$k (wrote '$nw')"
	fi
	"$RVPMU" report -i "$out/pg1.data" --sort srcline > "$out/pg1.rep" 2>&1
	"$RVPMU" report -i "$out/pg2.data" --sort srcline > "$out/pg2.rep" 2>&1
	if grep -q "($nw samples) ]" "$out/pg-record-q.txt" && cmp -s "$out/pg1.rep" "$out/pg2.rep" &&
		! grep -q MIPS "$out/pg-record-q.txt"; then
		pass "progress: record -q shows none and samples the same"
	else
		fail "progress: record -q" "$(tr '\r\n' '||' < "$out/pg-record-q.txt" | head -c 300)"
	fi
	# system: the UART's text is never mixed with the line
	if riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles \
		-Wl,--no-warn-rwx-segments -T ../bare-events/link.ld -o "$out/spin.elf" spin.S >&2; then
		# --no-jit: translated, its 600M instructions take too little
		# time for the progress line's first draw
		script -qec "'$RVPMU' system --no-jit --bios none --kernel '$out/spin.elf'" /dev/null \
			> "$out/pg-system.txt" 2>&1 < /dev/null
		if k=$(pg_check "$out/pg-system.txt" system 0) &&
			grep -q "$(printf '\r\033\\[K')done" "$out/pg-system.txt" && grep -q "^go" "$out/pg-system.txt"; then
			pass "progress: system on a tty ($k lines, erased before the UART's output)"
		else
			fail "progress: system on a tty" "$k"
		fi
	else
		fail "progress: system" "spin.S does not build"
	fi
	# not a terminal: stderr a file, or a pipe while stdout is the tty
	"$RVPMU" run "$out/hot" 300000000 >/dev/null 2>"$out/pg-file.err"
	script -qec "'$RVPMU' run '$out/hot' 300000000 2>&1 | cat" /dev/null > "$out/pg-pipe.txt" 2>&1
	script -qec "'$RVPMU' run -q '$out/hot' 300000000" /dev/null > "$out/pg-q.txt" 2>&1
	if [ ! -s "$out/pg-file.err" ] && ! grep -q MIPS "$out/pg-pipe.txt" && ! grep -q MIPS "$out/pg-q.txt" &&
		grep -q '^[0-9a-f]* [0-9a-f]*' "$out/pg-pipe.txt"; then
		pass "progress: none when stderr is a file or a pipe, or with -q"
	else
		fail "progress: not a terminal" "file: $(head -c 100 "$out/pg-file.err"), pipe: $(head -c 100 "$out/pg-pipe.txt")"
	fi
fi

# ---- the flame graph in a browser (issue 6) ----
# Chromium renders hot.svg (from the -g recording above): the PNG must be
# 1200x800 with the hot frame drawn in its colour across (nearly) its SVG
# width; the DOM after load must hold the hot frame with the attribute the
# SVG's script sets; a click on the caller frame must zoom: caller spans
# the full width (1180 px) and cold, outside it, is hidden.
if [ -x /usr/bin/chromium ]; then
	art="$BUILD/artefacts"
	mkdir -p "$art"
	rm -f "$art/flamegraph.png"
	chrome() {
		timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--force-device-scale-factor=1 --user-data-dir="$out/chromium" "$@" 2>>"$out/chromium.err"
	}
	chrome --screenshot="$art/flamegraph.png" --window-size=1200,800 "file://$(readlink -f "$out/hot.svg")" >/dev/null
	if [ -s "$art/flamegraph.png" ] && r=$(python3 - "$art/flamegraph.png" "$out/hot.svg" <<'PY'
import re, struct, sys, zlib
png, svg = sys.argv[1], sys.argv[2]
d = open(png, 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, hdr = 8, b'', None
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if t == b'IHDR':
        hdr = struct.unpack('>IIBBBBB', body)
    elif t == b'IDAT':
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, inter = hdr
assert (w, h) == (1200, 800), 'size %dx%d' % (w, h)
assert depth == 8 and ctype in (2, 6) and not inter, 'PNG kind %r' % (hdr,)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
rows, prev, at = [], bytearray(stride), 0
for y in range(h):  # undo the PNG row filters
    f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
    at += 1 + stride
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
colours = set()
for r in rows[::8]:
    for x in range(0, stride, bpp * 4):
        colours.add(r[x:x + 3])
assert len(colours) >= 8, 'only %d colours: a blank page?' % len(colours)
s = open(svg).read()
m = re.search(r'<title>hot \([^<]*</title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)" '
              r'height="(\d+)" fill="rgb\((\d+),(\d+),(\d+)\)"', s)
assert m, 'no hot frame in the SVG'
y, rw, rh = int(m[2]), float(m[3]), int(m[4])
fill = bytes(int(m[i]) for i in (5, 6, 7))
best = 0
for row in rows[y:y + rh]:  # the label covers part of some rows
    run = 0
    for px in range(w):
        run = run + 1 if row[px * bpp:px * bpp + 3] == fill else 0
        best = max(best, run)
assert best >= rw - 4, 'hot frame drawn %d px wide, the SVG says %.1f' % (best, rw)
print('%d colours, hot frame %d px of %.1f' % (len(colours), best, rw))
PY
	); then
		pass "flame graph: chromium's screenshot ($r)"
	else
		fail "flame graph: chromium's screenshot" "${r:-no PNG} ($(tail -2 "$out/chromium.err" | tr '\n' '|'))"
	fi
	chrome --dump-dom "file://$(readlink -f "$out/hot.svg")" > "$out/dom.txt"
	if grep -q '<g class="f"[^>]*data-n="hot"><title>hot (' "$out/dom.txt"; then
		pass "flame graph: the hot frame is in chromium's DOM after the script ran"
	else
		fail "flame graph: DOM" "no hot frame with data-n ($(head -c 200 "$out/dom.txt"))"
	fi
	# a click on caller, dispatched by a script added to a copy
	sed 's|</svg>|<script type="text/ecmascript"><![CDATA[window.addEventListener("load", function () { var f = document.querySelectorAll(".f"); for (var i = 0; i < f.length; i++) if (f[i].getAttribute("data-n") == "caller") f[i].dispatchEvent(new MouseEvent("click", {bubbles: true})); });]]></script></svg>|' \
		"$out/hot.svg" > "$out/hot-click.svg"
	chrome --dump-dom "file://$(readlink -f "$out/hot-click.svg")" > "$out/dom-click.txt"
	cw0=$(grep -o '<title>caller ([^<]*</title><rect [^>]*' "$out/hot.svg" | sed 's/.*width="\([^"]*\)".*/\1/')
	cw=$(grep -o '<title>caller ([^<]*</title><rect [^>]*' "$out/dom-click.txt" | sed 's/.*width="\([^"]*\)".*/\1/')
	if [ "$cw" = 1180 ] && [ "$cw0" != 1180 ] &&
		grep -q '<g class="f"[^>]*data-n="cold" style="display: none;">' "$out/dom-click.txt"; then
		pass "flame graph: a click zooms to caller (width $cw0 -> $cw, cold hidden)"
	else
		fail "flame graph: click to zoom" "caller width '$cw0' -> '$cw'; $(grep -o '<g class="f"[^>]*data-n="cold"[^>]*>' "$out/dom-click.txt")"
	fi
else
	fail "flame graph in chromium" "/usr/bin/chromium is missing (scripts/setup.sh installs chromium)"
fi

# rvpmu report and Debian perf report agree on the bundled workloads
for w in compute memory branchy; do
	src=../../bench/workloads/$w.c
	bin="$out/bw-$w"
	if [ ! -f "$bin" ] || [ "$src" -nt "$bin" ]; then
		riscv64-linux-gnu-gcc -static -O2 -g -fno-omit-frame-pointer -o "$bin" "$src" >&2 ||
			{ fail "agree $w" "$src does not build"; continue; }
	fi
	"$RVPMU" record -c 20011 -o "$bin.data" -- "$bin" 2 >/dev/null 2>"$bin.err" &&
		"$RVPMU" report -i "$bin.data" --no-children --sort sym -F overhead,sample,sym > "$bin.rv.txt" 2>&1 &&
		perf report -i "$bin.data" --stdio --no-children --sort sym -F overhead,sample,sym \
			> "$bin.perf.txt" 2>/dev/null ||
		{ fail "agree $w" "record or a report failed: $(tail -1 "$bin.err")"; continue; }
	r=$(python3 agree.py "$bin.rv.txt" "$bin.perf.txt") && pass "agree $w: $r" || fail "agree $w" "$r"
done
