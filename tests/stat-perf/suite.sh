#!/bin/sh
# rvpmu stat's perf habits (issue 38) and rvpmu list: software events from
# rvpmu's kernel, -I intervals, -r with --table, -d, -M and --metric-only,
# -D, --timeout, -n, -v, --all-user/--all-kernel, --no-big-num, --append;
# first principles on sleep.S (its header: page faults, context switches,
# instructions and the time it sleeps are known), golden outputs, bad
# input for every option, and Debian's perf beside rvpmu where it answers
# on this host (software events, <not supported> rows, its formats).
# One line per check: "PASS stat-perf NAME" / "FAIL stat-perf NAME: why".
cd "$(dirname "$0")" || exit 1
: "${RVPMU:=$PWD/../../build/rvpmu}" "${BUILD:=$PWD/../../build}"
out=$BUILD/tests/stat-perf
mkdir -p "$out" golden || exit 1
export PYTHONDONTWRITEBYTECODE=1   # check.py: nothing written beside it
pass() { echo "PASS stat-perf $1"; }
fail() { echo "FAIL stat-perf $1: $2"; }
if [ ! -x "$RVPMU" ]; then
	fail rvpmu "$RVPMU not built"
	exit 0
fi
for g in sleep:sleep.S loop:../stat/loop.S; do
	riscv64-linux-gnu-gcc -static -nostdlib -o "$out/${g%%:*}" "${g#*:}" >&2 ||
		{ fail build "${g#*:} does not build"; exit 0; }
done
S=$out/sleep
# rv OUT ARGS...: rvpmu stat's stderr (the counts) into OUT; sets rc
rv() {
	o=$1
	shift
	(cd "$out" && env -i "$RVPMU" stat "$@") >/dev/null 2>"$o"
	rc=$?
}

# ---- software events from first principles (sleep.S's header)
SW=task-clock,cpu-clock,page-faults,minor-faults,major-faults,page-faults:u,page-faults:k
SW=$SW,context-switches,cs:u,cpu-migrations,alignment-faults,emulation-faults,instructions,cycles,duration_time
rv "$out/sw.csv" -x, -e $SW ./sleep
python3 - "$out/sw.csv" <<'PY' || fail "software events" "python check failed"
import sys
from check import ok
r = {f[2]: f for f in (l.rstrip("\n").split(",") for l in open(sys.argv[1]))}
want = {"page-faults": "66", "minor-faults": "66", "major-faults": "0", "page-faults:u": "65",
        "page-faults:k": "1", "context-switches": "3", "cs:u": "0", "cpu-migrations": "0",
        "alignment-faults": "0", "emulation-faults": "0", "instructions": "1200357"}
for e, v in want.items():
    ok("sleep.S %s = %s" % (e, v), r.get(e, ["?"])[0] == v, r.get(e))
cyc = int(r["cycles"][0])
# virt runs at 1 GHz: task-clock is the cycles in ns, printed in msec
ok("task-clock = cpu-clock = cycles (ns), in msec",
   r["task-clock"][1] == "msec" and r["task-clock"][0] == "%.2f" % (cyc / 1e6) and
   r["cpu-clock"][0] == r["task-clock"][0] and int(r["task-clock"][3]) == cyc, (r["task-clock"], cyc))
ok("duration_time = cycles + 3 x 20 ms asleep", r["duration_time"][1] == "ns" and
   int(r["duration_time"][0]) == cyc + 60000000, r["duration_time"])
ok("CPUs utilized = task-clock / elapsed", r["task-clock"][6] == "CPUs utilized" and
   abs(float(r["task-clock"][5]) - cyc / (cyc + 60e6)) < 0.0006, r["task-clock"])
rate = 66 * 1e9 / cyc / 1000
ok("page-faults' K/sec of task-clock", r["page-faults"][6] == "K/sec" and
   abs(float(r["page-faults"][5]) - rate) < 0.0006, (r["page-faults"], rate))
PY
# ---- golden outputs: exact, deterministic; checked below from first
# principles (RVPMU_UPDATE_GOLDEN=1 rewrites them)
golden() {  # golden NAME ARGS... (run in $out, program last)
	n=$1
	shift
	rv "$out/$n.txt" "$@"
	grep -v '^# started on' "$out/$n.txt" > "$out/$n.cmp"
	if [ -n "$RVPMU_UPDATE_GOLDEN" ]; then
		cp "$out/$n.cmp" "golden/$n.txt"
	fi
	if cmp -s "$out/$n.cmp" "golden/$n.txt"; then
		pass "golden $n"
	else
		fail "golden $n" "$(diff "golden/$n.txt" "$out/$n.cmp" | head -5 | tr '\n' '|')"
	fi
}
IE=task-clock,context-switches,page-faults,instructions
golden interval-table -I 10 -e $IE ./sleep
golden interval-csv -I 10 -x, -e $IE ./sleep
golden interval-json -I 10 -j -e $IE ./sleep
golden interval-count -I 10 --interval-count 2 -e instructions ./sleep
golden interval-metric-only -I 20 --metric-only -e instructions,cycles ./sleep
golden default-table ./sleep
golden repeat-table -r 3 --table ./sleep
golden repeat-csv -r 3 -x, -e task-clock,instructions ./sleep
golden repeat-json -r 3 -j -e task-clock,instructions ./sleep
golden delay -D 30 -e instructions,context-switches ./sleep
golden timeout --timeout 30 -e instructions,context-switches ./sleep
golden null -n ./sleep
golden verbose -v -r 2 -e instructions,page-faults ./sleep
golden detailed-virt -d ./loop
golden detailed-u74 --profile u74 -ddd ./loop
golden metrics-virt -M Summary,Branches,L1D_Miss_Rate ./loop
golden metrics-u74 --profile u74 -M Mix ./loop
golden metric-only --metric-only -M IPC,Load_Ratio -e branch-misses,branches ./loop
golden metric-only-csv --metric-only -x, -M IPC,Load_Ratio ./loop
golden metric-only-json --metric-only -j -M IPC,Load_Ratio ./loop
golden all-user --all-user -e page-faults,context-switches,instructions ./sleep
golden all-kernel --all-kernel -e page-faults,context-switches,instructions ./sleep
golden no-big-num --no-big-num -e instructions,cycles ./sleep
python3 - "$out" <<'PY' || fail "golden: first principles" "python check failed"
import json, re, sys
from check import ok, text
d = sys.argv[1]
def lines(n):
    return text(d, n + ".cmp")
# sleep.S: 334 instructions, then 3 x (20 ms asleep, 400008 or, last,
# 400007 instructions); ~61.2 ms in all. -I 10: the boundaries inside a
# sleep read what ran before it at the boundary itself; those a whole
# sleep covers are <not counted>; the run's end gives the last one.
csv = [l.split(",") for l in lines("interval-csv")]
ins = [(f[0].strip(), f[1]) for f in csv if f[3] == "instructions"]
want = [("0.010000000", "334"), ("0.020000000", "<not counted>"), ("0.030000000", "400008"),
        ("0.040000000", "<not counted>"), ("0.050000000", "400008"), ("0.060000000", "<not counted>")]
ok("-I 10: intervals and their instructions", ins[:6] == want and ins[6][1] == "400007" and
   61.2 < float(ins[6][0]) * 1000 < 61.3 and len(ins) == 7, ins)
pf = [f[1] for f in csv if f[3] == "page-faults"]
ok("-I 10: the 66 page faults all in the first interval", pf[0] == "66" and
   all(p in ("0", "<not counted>") for p in pf[1:]), pf)
cs = [f[1] for f in csv if f[3] == "context-switches"]
ok("-I 10: a context switch in each interval a sleep began in", cs == ["1", "<not counted>", "1",
   "<not counted>", "1", "<not counted>", "0"], cs)
ok("-I 10 CSV: perf's time stamp prefix", all(re.fullmatch(r" {5}0\.\d{9}", f[0]) for f in csv), csv[0])
t = lines("interval-table")
ok("-I 10 table: perf's header, then stamped rows", t[0] == "#           time             counts unit events"
   and all(re.match(r" {5}0\.\d{9} ", l) for l in t[1:]) and len(t) == 1 + 4 * 7, t[:2])
js = [json.loads(l) for l in lines("interval-json")]
ok("-I 10 JSON: perf's interval key first, the CSV's values",
   all(list(o)[0] == "interval" for o in js) and
   [(("%.9f" % o["interval"]), o["counter-value"].split(".")[0]) for o in js if o["event"] == "instructions"][:2]
   == [("0.010000000", "334"), ("0.020000000", "<not counted>")], js[:2])
c = lines("interval-count")
ok("--interval-count 2: two intervals, then none", len(c) == 3 and c[2].split()[1] == "<not")
# -r 3: deterministic runs: no noise column in the table, 0.00 in CSV and JSON
r = lines("repeat-table")
ok("-r 3 --table: three equal runs, perf's layout",
   "(3 runs)" in r[1] and "# Table of individual measurements:" in "\n".join(r) and
   sum(1 for l in r if re.fullmatch(r" +0\.06 \(\+0\.00\) #", l)) == 3 and
   any(re.fullmatch(r" +0\.06 \+- 0\.00 seconds time elapsed \(modelled: virt at 1\.00 GHz\)", l) for l in r)
   and not any("( +-" in l for l in r), r)
rc = [l.split(",") for l in lines("repeat-csv")]
ok("-r 3 CSV: variance 0.00% after the name", [f[3] for f in rc] == ["0.00%", "0.00%"] and rc[1][0] == "1200357", rc)
rj = [json.loads(l) for l in lines("repeat-json")]
ok("-r 3 JSON: variance 0.00", [o["variance"] for o in rj] == [0, 0], rj)
# -D 30: counting from 30 ms, inside the second sleep: runs 2 and 3
dl = lines("delay")
ok("-D 30: perf's Events lines; counts from 30 ms", dl[:2] == ["Events disabled", "Events enabled"] and
   any(re.match(r" +800,015 +instructions", l) for l in dl) and
   any(re.match(r" +1 +context-switches", l) for l in dl) and
   any(re.match(r" +0\.03120\d+ seconds time elapsed", l) for l in dl), dl)
to = lines("timeout")
ok("--timeout 30: SIGTERM in the second sleep, counts of run 1 and 2 sleeps, 30 ms",
   any(re.match(r" +400,342 +instructions", l) for l in to) and
   any(re.match(r" +2 +context-switches", l) for l in to) and
   any(l.startswith("       0.030000000 seconds time elapsed") for l in to), to)
n = lines("null")
ok("-n: no events, the elapsed time", not any(re.match(r" +[0-9,.]+ ", l) for l in n[3:-6]) and
   any(l.startswith("       0.0612") for l in n), n)
v = lines("verbose")
ok("-v: perf's run lines and raw counts", v[0] == "[ perf stat: executing run #1 ... ]" and
   re.fullmatch(r"instructions: 1200357 \d+ \d+", v[1]) and v[2] == "page-faults: 66 %s %s" %
   tuple(v[1].split()[2:]) and v[3] == "[ perf stat: executing run #2 ... ]", v[:4])
# -d: perf's event sets after the default ones
def events(n):
    return [m.group(1) for m in (re.match(r" +(?:[0-9,.]+(?: msec)?|<not supported>|<not counted>) +(\S+)", l)
                                 for l in lines(n)) if m and m.group(1) != "seconds"]
default = ["task-clock", "context-switches", "cpu-migrations", "page-faults", "cycles", "instructions",
           "branches", "branch-misses"]
d1 = ["L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses"]
d2 = ["L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads",
      "iTLB-load-misses"]
d3 = ["L1-dcache-prefetches", "L1-dcache-prefetch-misses"]
ok("-d: the default events, then perf's -d set", events("detailed-virt") == default + d1, events("detailed-virt"))
ok("-ddd: and -dd's and -ddd's", events("detailed-u74") == default + d1 + d2 + d3, events("detailed-u74"))
u = "\n".join(lines("detailed-u74"))
ok("-ddd on u74: what it cannot count is <not supported>",
   all(re.search(r"<not supported> +%s\b" % e, u) for e in ["L1-dcache-loads", "LLC-loads", "L1-dcache-prefetches"])
   and re.search(r"\n +[0-9,]+ +L1-dcache-load-misses|<not counted> +L1-dcache-load-misses", u), u)
# -M: loop.S (tests/stat/loop.S): 6005 instructions, 1000 branches, 1000 loads
m = "\n".join(lines("metrics-virt"))
cyc = int(re.search(r"\n +([0-9,]+) +cycles ", m).group(1).replace(",", ""))
ok("-M Summary: IPC and CPI from the counts on the line of their first event",
   re.search(r"6,005 +instructions +# +%.2f  insn per cycle *\n +# +%.2f IPC" % (6005 / cyc, 6005 / cyc), m)
   and re.search(r"# +%.2f CPI" % (cyc / 6005), m), m)
ok("-M: a ScaleUnit metric prints %8.1f and 'unit  name'", re.search(r"# +0\.1 %  L1D_Miss_Rate", m), m)
mu = "\n".join(lines("metrics-u74"))
ok("-M Mix on u74: the loads' share", re.search(r"# +%.1f %%  Load_Ratio" % (100 * 1000 / 6005), mu), mu)
mo = lines("metric-only")
# (the metrics of every event: branch-misses', IPC's group's, whose cycles
# has only "Ghz" without task-clock, Load_Ratio's group's instructions)
ok("--metric-only: perf's header of units, one line of values",
   re.search(r"^branch-misses of all branches +insn per cycle +IPC +Ghz +%  Load_Ratio +insn per cycle $", mo[3]) and
   mo[4].split() == ["1.40%", "%.2f" % (6005 / cyc), "%.2f" % (6005 / cyc), "%.1f" % (100 * 1000 / 6005),
                     "%.2f" % (6005 / cyc)], mo)
mj = lines("metric-only-json")
ok("--metric-only -j: perf's unit and value objects", mj[0].startswith('{"unit" : "insn per cycle"') and
   '{"metric-value" : "%.2f"}' % (6005 / cyc) in mj[1], mj)
# --all-user / --all-kernel: the kernel's page fault and the sleeps
au, ak = "\n".join(lines("all-user")), "\n".join(lines("all-kernel"))
ok("--all-user: the program's 65 faults, no context switch, all instructions",
   re.search(r" 65 +page-faults", au) and re.search(r" 0 +context-switches", au) and
   re.search(r" 1,200,357 +instructions", au), au)
ok("--all-kernel: the kernel's 1 fault, 3 context switches, no instructions",
   re.search(r" 1 +page-faults", ak) and re.search(r" 3 +context-switches", ak) and
   re.search(r" 0 +instructions", ak), ak)
ok("--no-big-num: no thousands' separators", re.search(r" 1200357 +instructions", "\n".join(lines("no-big-num"))))
PY

# --append keeps what -o's file had: two runs, two "# started on" blocks
rm -f "$out/app.txt"
rv "$out/app.err" -o app.txt -e instructions ./loop
rv "$out/app.err" --append -o app.txt -e instructions ./loop
[ "$(grep -c '^# started on ' "$out/app.txt")" = 2 ] && [ "$(grep -c ' 6,005 *instructions' "$out/app.txt")" = 2 ] &&
	pass "--append -o: both runs in the file" || fail "--append -o" "$(tr '\n' '|' < "$out/app.txt")"

# ---- rvpmu list (item 8)
lgold() {  # lgold NAME ARGS...
	n=$1
	shift
	"$RVPMU" list "$@" > "$out/$n.cmp" 2>&1
	[ -n "$RVPMU_UPDATE_GOLDEN" ] && cp "$out/$n.cmp" "golden/$n.txt"
	cmp -s "$out/$n.cmp" "golden/$n.txt" && pass "golden $n" ||
		fail "golden $n" "$(diff "golden/$n.txt" "$out/$n.cmp" | head -5 | tr '\n' '|')"
}
lgold list-virt
lgold list-u74 --profile u74
lgold list-u74-mpki --profile u74 mpki
lgold list-u74-details --profile u74 --details metricgroup
lgold list-u74-nodesc --profile u74 --no-desc pmu
python3 - "$out" ../../profiles <<'PY' || fail "list: checks" "python check failed"
import json, re, sys
from check import ok
d, prof = sys.argv[1], sys.argv[2]
u = open(d + "/list-u74.cmp").read()
p = json.load(open(prof + "/u74.json"))
# hardware events: only what the u74's SBI map can count
ok("list u74: hardware events it counts, perf's layout",
   "  cpu-cycles OR cycles" + " " * 31 + "[Hardware event]\n" in u and "cache-references" not in u and
   "  L1-dcache-load-misses" + " " * 30 + "[Hardware cache event]" in u and "L1-dcache-loads " not in u, u[:400])
ok("list u74: each vendor event, lower case, with its description",
   all(re.search(r"\n  %s +\n +\[%s" % (e["EventName"].lower(), re.escape(e["BriefDescription"].split()[0])), u)
       for e in p["perf_events"]), [e["EventName"] for e in p["perf_events"]
       if not re.search(r"\n  %s +\n +\[%s" % (e["EventName"].lower(), re.escape(e["BriefDescription"].split()[0])), u)])
ok("list u74: each metric under each of its groups",
   all(re.search(r"\n%s:\n(  \S+\n +\[[^\]]*\]\n)*  %s\n" % (g, m["MetricName"]), u)
       for m in p["perf_metrics"] for g in m["MetricGroup"].split(";")), "")
f = open(d + "/list-u74-mpki.cmp").read()
ok("list u74 mpki: only names matching *mpki*, any case", "L1D_MPKI" in f and "IPC" not in f and
   "cycles" not in f and "Load_Ratio" not in f, f)
PY
# perf's own sw section, for the events rvpmu has: the same lines
if command -v perf >/dev/null 2>&1; then
	perf list sw 2>/dev/null > "$out/perf-sw.txt"
	"$RVPMU" list sw > "$out/rv-sw.txt"
	missing=$(grep -v -x -F -f "$out/perf-sw.txt" "$out/rv-sw.txt")
	[ -s "$out/rv-sw.txt" ] && [ -z "$missing" ] && pass "list sw: each line as Debian's perf prints it" ||
		fail "list sw as perf" "not in perf's: $missing"
fi

# ---- -A (--per-cpu, --no-aggr) and --per-thread split a program's counts
# by modelled hart and by thread (issue 37; perf gives them only with -a,
# -p or -t, tests/options): one hart and one thread give one row each,
# the total's, software events included
EV=instructions,page-faults,task-clock
"$RVPMU" stat -x, -e $EV "$out/loop" >/dev/null 2>"$out/split-tot.csv"
want=$(cut -d, -f1,3 "$out/split-tot.csv" | sed 's/^/CPU0,/' | tr '\n' '|')
for opt in -A --per-cpu --no-aggr; do
	"$RVPMU" stat -x, $opt -e $EV "$out/loop" >/dev/null 2>"$out/split.csv"
	got=$(cut -d, -f1,2,4 "$out/split.csv" | tr '\n' '|')
	[ -n "$want" ] && [ "$got" = "$want" ] && pass "$opt: one row per hart, CPU0 the total's" ||
		fail "$opt per hart" "'$got', want '$want'"
done
"$RVPMU" stat -x, --per-thread -e $EV "$out/loop" >/dev/null 2>"$out/split.csv"
got=$(cut -d, -f1,2,4 "$out/split.csv" | tr '\n' '|')
want=$(echo "$want" | sed 's/CPU0,/loop-1000,/g')
[ "$got" = "$want" ] && pass "--per-thread: one row per thread, loop-1000 the total's" ||
	fail "--per-thread" "'$got', want '$want'"

# ---- bad input: one line "rvpmu stat: ...", exit 2
bad() {  # bad NAME WORD ARGS...
	name=$1 word=$2
	shift 2
	"$RVPMU" stat "$@" "$out/loop" >/dev/null 2>"$out/bad.err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l < "$out/bad.err")" = 1 ] && grep -q '^rvpmu stat: ' "$out/bad.err" &&
	   grep -q -F -e "$word" "$out/bad.err"; then
		pass "bad input: $name"
	else
		fail "bad input: $name" "exit $rc: $(head -c 200 "$out/bad.err" | tr '\n' '|')"
	fi
}
bad "-I x" "-I: 'x' is not a valid count" -I x
bad "-I -5" "-I: '-5' is not a valid count" -I -5
bad "--interval-count x" "--interval-count: 'x' is not a valid count" -I 10 --interval-count x
bad "--interval-count without -I" "--interval-count should be used together with -I" --interval-count 2
bad "-D x" "-D: 'x' is not a valid count" -D x
bad "-D -2" "-D: '-2' is not a valid count" -D -2
bad "--timeout 5 (perf: >= 10 ms)" "--timeout: '5' is out of range (10.." --timeout 5
bad "--timeout x" "--timeout: 'x' is not a valid count" --timeout x
bad "--timeout with -I" "--timeout is not supported with -I" --timeout 100 -I 10
bad "--table without -r" "--table is only supported with -r" --table
bad "-a" "-a and -C count a system-mode run" -a
bad "-C" "-a and -C count a system-mode run" -C 0
bad "--per-thread with -A" "--per-thread and -A cannot be used together" --per-thread -A
bad "-A with -I" "--per-thread and -A print the whole run's counts" -A -I 10
bad "--per-thread with --metric-only" "--per-thread and -A print the whole run's counts" --per-thread --metric-only
bad "--all-user without Sscofpmf" "the u74 core has no Sscofpmf" --profile u74 --all-user
bad "--metric-only with a value" "option '--metric-only' takes no value" --metric-only=1
bad "unknown software modifier" "unknown event modifier 'z'" -e task-clock:z
bad "software event typo" "did you mean 'task-clock'" -e task-clok
bad "-M: unknown metric" "cannot find metric or group 'NoSuch'" -M NoSuch
bad "-M: a virt metric on u74" "cannot find metric or group 'L1D_Miss_Rate' for the u74 core" \
	--profile u74 -M L1D_Miss_Rate
bad "-M ''" "cannot find metric or group ''" -M ''
bad "-M twice" "-M given twice" -M IPC -M CPI
bad "-M: too many events" "need more than 64 events" -M all
python3 -c '
import json, sys
p = json.load(open("../../profiles/virt.json"))
p["name"] = "badm"
p["perf_metrics"] = [{"MetricName": "Broken", "MetricExpr": "instructions / (cycles"},
                     {"MetricName": "Ghost", "MetricExpr": "NO_SUCH_EVENT / cycles"}]
json.dump(p, open(sys.argv[1], "w"))' "$out/badm.json"
bad "-M: a metric that does not parse" "metric Broken: expected ')'" --profile "$out/badm.json" -M Broken
bad "-M: a metric naming no event" "metric Ghost: unknown event 'NO_SUCH_EVENT'" --profile "$out/badm.json" -M Ghost
"$RVPMU" list --bogus >/dev/null 2>"$out/bad.err"
[ $? = 2 ] && grep -q "^rvpmu list: unknown option '--bogus'" "$out/bad.err" && pass "bad input: list --bogus" ||
	fail "bad input: list --bogus" "$(cat "$out/bad.err")"
"$RVPMU" list --profile nosuch >/dev/null 2>"$out/bad.err"
[ $? = 2 ] && grep -q '^rvpmu list: profile "nosuch"' "$out/bad.err" && pass "bad input: list --profile nosuch" ||
	fail "bad input: list --profile nosuch" "$(cat "$out/bad.err")"

# ---- beside Debian's perf: its software events and <not supported> rows
# on this host (no hardware counters) in each format
if ! command -v perf >/dev/null 2>&1 || ! perf stat -e task-clock true >/dev/null 2>&1; then
	fail "perf side by side" "Debian's perf cannot run 'perf stat -e task-clock true' here"
	exit 0
fi
E=task-clock,page-faults,context-switches,cpu-migrations,L1-dcache-prefetches
for f in table csv json; do
	case $f in table) x= ;; csv) x=-x, ;; json) x=-j ;; esac
	# shellcheck disable=SC2086
	perf stat $x -e $E true 2>"$out/perf-$f.txt" >/dev/null
	# shellcheck disable=SC2086
	rv "$out/rv-$f.txt" $x -e $E ./sleep
done
for f in csv json; do
	x=-x,; [ $f = json ] && x=-j
	# shellcheck disable=SC2086
	perf stat -r 2 $x -e $E true 2>"$out/perf-r-$f.txt" >/dev/null
	# shellcheck disable=SC2086
	rv "$out/rv-r-$f.txt" -r 2 $x -e $E ./sleep
	# shellcheck disable=SC2086
	perf stat -I 100 $x -e task-clock sleep 0.15 2>"$out/perf-i-$f.txt" >/dev/null
	# shellcheck disable=SC2086
	rv "$out/rv-i-$f.txt" -I 10 $x -e task-clock ./sleep
done
perf stat -I 100 -e task-clock sleep 0.15 2>"$out/perf-i-table.txt" >/dev/null
rv "$out/rv-i-table.txt" -I 10 -e task-clock ./sleep
perf stat -r 2 --table -e task-clock true 2>"$out/perf-tbl.txt" >/dev/null
rv "$out/rv-tbl.txt" -r 2 --table -e task-clock ./sleep
perf stat -v -r 2 -e task-clock true 2>"$out/perf-v.txt" >/dev/null
rv "$out/rv-v.txt" -v -r 2 -e task-clock ./sleep
perf stat -n true 2>"$out/perf-n.txt" >/dev/null
rv "$out/rv-n.txt" -n ./sleep
python3 - "$out" <<'PY' || fail "perf side by side" "python check failed"
import json, re, sys
from check import ok, text
d = sys.argv[1]
def rows(name):
    return text(d, name + ".txt")
def table(name):   # event -> row line
    return {m.group(1): l for l in rows(name)
            for m in [re.match(r" +(?:[0-9,.]+(?: msec)?|<not supported>|<not counted>) +(?:msec )?(\S+)", l)] if m}
pt, rt = table("perf-table"), table("rv-table")
ok("table: the <not supported> row is byte for byte perf's",
   pt.get("L1-dcache-prefetches") == rt.get("L1-dcache-prefetches") is not None, (pt, rt))
def shape(l):   # where the fields are, and the words (numbers and rate prefixes aside)
    return (len(l), l.index("#") if "#" in l else -1, re.sub(r"[0-9,.]+|\b[KMG](?=/sec)", "", l).split())
for e in ["task-clock", "page-faults", "context-switches", "cpu-migrations"]:
    ok("table: the %s row has perf's columns" % e, e in pt and e in rt and shape(pt[e]) == shape(rt[e]),
       (pt.get(e), rt.get(e)))
hp = [l for l in rows("perf-table") if "Performance counter stats for" in l]
hr = [l for l in rows("rv-table") if "Performance counter stats for" in l]
ok("table: perf's header line", hp == [" Performance counter stats for 'true':"] and
   hr == [" Performance counter stats for './sleep':"], (hp, hr))
def csv(name):
    return {f[2]: f for f in (l.split(",") for l in rows(name)) if len(f) > 2}
pc, rc = csv("perf-csv"), csv("rv-csv")
ok("CSV: the <not supported> row is perf's", pc.get("L1-dcache-prefetches") == rc.get("L1-dcache-prefetches"), (pc, rc))
for e in ["task-clock", "page-faults", "context-switches"]:
    ok("CSV: %s has perf's fields (unit, name, metric unit)" % e, e in pc and e in rc and len(pc[e]) == len(rc[e])
       and pc[e][1] == rc[e][1] and re.sub(r"^[KMG]", "", pc[e][6]) == re.sub(r"^[KMG]", "", rc[e][6]),
       (pc.get(e), rc.get(e)))
pj = {o["event"]: o for o in map(json.loads, rows("perf-json"))}
rj = {o["event"]: o for o in map(json.loads, rows("rv-json"))}
ok("JSON: the <not supported> object is perf's", pj.get("L1-dcache-prefetches") == rj.get("L1-dcache-prefetches"), (pj, rj))
ok("JSON: perf's keys in perf's order", all(list(pj[e]) == list(rj[e]) for e in pj), (pj, rj))
for f in ["csv", "json"]:
    p, r = rows("perf-r-" + f), rows("rv-r-" + f)
    if f == "csv":
        ok("-r 2 CSV: a variance field after the name, as perf's", all(re.fullmatch(r"\d+\.\d\d%", l.split(",")[3])
           for l in p + r) and [len(l.split(",")) for l in p] == [len(l.split(",")) for l in r], (p, r))
    else:
        ok("-r 2 JSON: perf's keys with variance", [list(json.loads(l)) for l in p] == [list(json.loads(l)) for l in r],
           (p, r))
pi, ri = rows("perf-i-table"), rows("rv-i-table")
ok("-I: perf's header", pi[0] == ri[0] == "#           time             counts unit events", (pi[0], ri[0]))
ok("-I: perf's row layout", all(shape(a[16:]) == shape(b[16:]) for a in pi[1:2] for b in ri[1:2]) and
   all(re.match(r" +\d+\.\d{9} ", l) for l in pi[1:] + ri[1:]), (pi, ri))
pc, rc = rows("perf-i-csv"), rows("rv-i-csv")
ok("-I CSV: perf's stamp and fields", all(re.fullmatch(r" +\d+\.\d{9}", l.split(",")[0]) for l in pc + rc) and
   len(pc[0].split(",")) == len(rc[0].split(",")), (pc, rc))
pj, rj = rows("perf-i-json"), rows("rv-i-json")
ok("-I JSON: perf's keys", list(json.loads(pj[0])) == list(json.loads(rj[0])), (pj[0], rj[0]))
def kinds(ls):   # the --table block, line by line; numbers and signs aside
    return [re.sub(r"\(-", "(+", re.sub(r"[0-9.]+", "N", re.sub(r"#+$", "#", l.strip()))).split(" seconds")[0]
            for l in ls if "task-clock" not in l and re.search(r"# |\([+-]N|seconds time elapsed",
                                                             re.sub(r"[0-9.]+", "N", l))]
pt, rt = rows("perf-tbl"), rows("rv-tbl")
ok("--table: perf's lines", kinds(pt) == kinds(rt) == ["# Table of individual measurements:", "N (+N) #",
   "N (+N) #", "# Final result:", "N +- N"], (kinds(pt), kinds(rt)))
pv, rv = rows("perf-v"), rows("rv-v")
ok("-v: perf's run and counter lines", [l for l in pv if l.startswith("[ perf stat")] ==
   [l for l in rv if l.startswith("[ perf stat")] and
   all(re.fullmatch(r"task-clock: \d+ \d+ \d+", l) for l in pv + rv if l.startswith("task-clock:")) and
   sum(l.startswith("task-clock:") for l in rv) == 2, (pv, rv))
pn, rn = rows("perf-n"), rows("rv-n")
ok("-n: perf's lines (header, elapsed, user, sys)", [re.sub(r"[0-9.]+|'.*'", "", l).split(" (")[0] for l in pn] ==
   [re.sub(r"[0-9.]+|'.*'", "", l).split(" (")[0] for l in rn], (pn, rn))
PY
exit 0
