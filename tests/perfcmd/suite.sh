#!/bin/sh
# perf's habits on rvpmu's report, script, annotate, diff, buildid-list
# and record (issue 38): golden outputs of a libc-free program
# (golden/, regenerated with GOLDEN_UPDATE=1), the same outputs as
# Debian's perf on the same perf.data (report's tables and call graphs,
# script's lines, buildid-list, diff), DWARF call chains of -O2 code
# without frame pointers, chains that end at the last frame-pointer
# frame, pipe mode, -D, --switch-output, leader sampling, demangled
# names, and bad input for each new option.
cd "$(dirname "$0")" || exit 1
here=$PWD
out="$BUILD/tests/perfcmd"
mkdir -p "$out"
pass() { echo "PASS perfcmd $1"; }
fail() { echo "FAIL perfcmd $1: $2"; }
XCC=riscv64-linux-gnu-gcc
build() {  # OUT SRC FLAGS...
	o=$1 s=$2
	shift 2
	[ -f "$out/$o" ] && [ "$out/$o" -nt "$s" ] || $XCC -static "$@" -o "$out/$o" "$s" >&2
}
build gold gold.S -nostdlib -Wl,--build-id || { fail build "gold.S"; exit 0; }
build hot ../record/hot.c -O2 -g -fno-omit-frame-pointer || { fail build "hot.c"; exit 0; }
build nofp nofp.c -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls || { fail build "nofp.c"; exit 0; }
build mangled mangled.c -O2 -g || { fail build "mangled.c"; exit 0; }
R=$RVPMU
cd "$out" || exit 1
have_perf=1
command -v perf >/dev/null 2>&1 || { have_perf=0; fail perf "perf is not installed (scripts/setup.sh installs linux-perf)"; }

# ---- golden outputs (the program's path made $BIN) ----
# Without the models cycles are instructions, which this program's path
# does not change; with them, the stack's place (the environment, the
# program's path) would move cache misses and so the samples.
clean="env -i ${RVPMU_PROFILE_DIR:+RVPMU_PROFILE_DIR=$RVPMU_PROFILE_DIR}"
$clean "$R" record -q --no-uarch -g -c 997 -o gold.data ./gold 2>gold.rec
$clean "$R" record -q --no-uarch -c 997 -o gold2.data ./gold 1500 2>/dev/null
golden() {  # NAME command...
	name=$1
	shift
	"$@" 2>&1 | sed "s|$out/gold|\$BIN|g; s|\./gold|\$BIN|g" > "got-$name.txt"
	if [ -n "$GOLDEN_UPDATE" ]; then
		cp "got-$name.txt" "$here/golden/$name.txt"
	fi
	if cmp -s "$here/golden/$name.txt" "got-$name.txt"; then
		pass "golden: $name"
	else
		fail "golden: $name" "$(diff "$here/golden/$name.txt" "got-$name.txt" | head -6 | tr '\n' '|')"
	fi
}
golden record-lines cat gold.rec
golden report "$R" report -i gold.data
golden report-no-children "$R" report -i gold.data --no-children -n --sort sym,dso,pid,cpu
golden report-callee "$R" report -i gold.data -g callee --percent-limit 5
golden report-tid-symoff "$R" report -i gold.data --no-children -n --sort tid,symoff,srcline
golden script "$R" script -i gold.data
golden script-fields "$R" script -i gold.data -F comm,pid,tid,time,event,ip,sym,symoff,callindent,insn
golden annotate "$R" annotate -i gold.data
golden diff "$R" diff gold.data gold2.data
golden buildid-list "$R" buildid-list -i gold.data

# ---- the same as Debian's perf on the same files ----
same_as_perf() {  # NAME "perf args" "rvpmu args" (perf's tips and rvpmu's help line dropped)
	[ $have_perf = 1 ] || return 0
	# shellcheck disable=SC2086
	perf $2 2>/dev/null | grep -v '^# (Tip:\|^# (For a higher' > perf-out.txt
	# shellcheck disable=SC2086
	"$R" $3 2>/dev/null | grep -v '^# (For a higher' > rv-out.txt
	if [ -s rv-out.txt ] && cmp -s perf-out.txt rv-out.txt; then
		pass "as perf: $1 ($(wc -l < rv-out.txt) lines)"
	else
		fail "as perf: $1" "$(diff perf-out.txt rv-out.txt | head -6 | tr '\n' '|')"
	fi
}
"$R" record -q -g -c 10007 -o hotg.data ./hot >/dev/null 2>&1
"$R" record -q -c 10007 -o hot.data ./hot >/dev/null 2>&1
"$R" record -q -c 10007 -o hot3.data ./hot 500000 >/dev/null 2>&1
"$R" record -q -b -c 100003 -o hotb.data ./hot >/dev/null 2>&1
for f in hot hotg gold; do
	same_as_perf "report $f" "report -i $f.data --stdio" "report -i $f.data"
done
same_as_perf "report -n --sort comm,pid,dso,sym,cpu" "report -i hot.data --stdio -n --sort comm,pid,dso,sym,cpu" \
	"report -i hot.data -n --sort comm,pid,dso,sym,cpu"
same_as_perf "report --sort pid,sym (perf's widths)" "report -i gold.data --stdio --sort pid,sym" \
	"report -i gold.data --sort pid,sym"
same_as_perf "report --no-children -g caller" "report -i hotg.data --stdio --no-children -g caller" \
	"report -i hotg.data --no-children -g caller"
same_as_perf "report -g callee --sort sym" "report -i hotg.data --stdio -g callee --sort sym" \
	"report -i hotg.data -g callee --sort sym"
same_as_perf "report --percent-limit 1 -q" "report -i hotg.data --stdio --percent-limit 1 -q" \
	"report -i hotg.data --percent-limit 1 -q"
same_as_perf "report --comms/--dsos (elided columns)" "report -i hotg.data --stdio --comms hot --dsos hot" \
	"report -i hotg.data --comms hot --dsos hot"
same_as_perf "report --symbols -n" "report -i hot.data --stdio --symbols hot,cold -n" \
	"report -i hot.data --symbols hot,cold -n"
same_as_perf "report --max-stack 3" "report -i hotg.data --stdio --max-stack 3" "report -i hotg.data --max-stack 3"
same_as_perf "report -F overhead,sample,sym" "report -i hot.data --stdio -F overhead,sample,sym" \
	"report -i hot.data -F overhead,sample,sym"
same_as_perf "report --header-only" "report -i hot.data --header-only" "report -i hot.data --header-only"
for f in hot hotg hotb gold; do
	same_as_perf "script $f" "script -i $f.data" "script -i $f.data"
done
same_as_perf "script -F brstacksym,dso" "script -i hotb.data -F ip,sym,dso,brstacksym" \
	"script -i hotb.data -F ip,sym,dso,brstacksym"
same_as_perf "script -F pid,tid,time,event,ip,sym" "script -i hotg.data -F pid,tid,time,event,ip,sym" \
	"script -i hotg.data -F pid,tid,time,event,ip,sym"
same_as_perf "buildid-list" "buildid-list -i hot.data" "buildid-list -i hot.data"
same_as_perf "diff" "diff hot.data hot3.data" "diff hot.data hot3.data"

# ---- frame-pointer chains end at the last frame-pointer frame: glibc's
# __libc_start_call_main, never past it into a junk frame_dummy or
# __do_global_dtors_aux ----
"$R" script -i hotg.data -F ip,sym > chains.txt 2>&1
r=$(awk 'NF == 0 { if (last != "") ends[last]++; if (past) bad++; last = ""; past = 0; in_main = 0; next }
	{ if (in_main) past = 1; if ($2 == "__libc_start_call_main") in_main = 1; last = $2 }
	END { printf "%d %d past", ends["__libc_start_call_main"], bad }' chains.txt)
set -- $r
if [ "$1" -gt 1000 ] && [ "$2" = 0 ]; then
	pass "fp chains end at __libc_start_call_main ($1 chains, none past it)"
else
	fail "fp chain bottom" "$1 chains end at __libc_start_call_main, $2 go past it"
fi

# ---- --call-graph dwarf: -O2 code without frame pointers, full chains ----
"$R" record -q --call-graph dwarf -c 20011 -o dw.data ./nofp >/dev/null 2>dw.err
"$R" report -i dw.data --folded > dw-folded.txt 2>&1
lf=$(awk '$1 ~ /(^|;)leaf$/ { s += $2 } END { print s + 0 }' dw-folded.txt)
full=$(awk '$1 ~ /^_start;__libc_start_main_impl;__libc_start_call_main;main;a;b;leaf$/ { s += $2 } END { print s + 0 }' dw-folded.txt)
if [ "$lf" -gt 100 ] && [ "$lf" = "$full" ]; then
	pass "dwarf: all $lf leaf samples unwind to _start;...;main;a;b;leaf"
else
	fail "dwarf chains" "leaf $lf, full $full: $(sort -k2 -nr dw-folded.txt | head -3 | tr '\n' '|')"
fi
"$R" record -q -g -c 20011 -o dwfp.data ./nofp >/dev/null 2>&1
"$R" report -i dwfp.data --folded > fp-folded.txt 2>&1
grep -q '^main;a;b;leaf ' fp-folded.txt && fail "dwarf: the fp baseline" "frame pointers found the chain too" ||
	pass "dwarf: frame pointers alone do not find main;a;b;leaf in this program"
if [ $have_perf = 1 ]; then
	# perf reads the samples (registers, stack) but, built for x86-64,
	# does not unwind riscv64 ones: docs/perf-compat.md says so
	n=$(perf script -i dw.data 2>/dev/null | grep -c ' cycles: *$')
	[ "$n" -gt 100 ] && pass "dwarf: perf script reads the $n samples" || fail "dwarf: perf script" "$n samples"
fi
"$R" record -q --call-graph dwarf,1024 -c 20011 -o dw1k.data ./nofp >/dev/null 2>&1
sz=$(perf report -i dw1k.data --header-only 2>/dev/null | sed -n 's/.*sample_stack_user = \([0-9]*\).*/\1/p' | head -1)
[ "$sz" = 1024 ] && pass "dwarf,1024: perf sees sample_stack_user = 1024" || fail "dwarf,1024" "'$sz'"

# ---- pipe mode ----
# (the program's stdout is its stderr in both: glibc buffers a file and
# a terminal differently, so its instruction counts would differ)
"$R" record -q -c 10007 -o - ./hot 2>pipe.err > pipe.data
"$R" record -q -c 10007 -o hote.data ./hot 2>hote.err 1>&2
"$R" report -i hote.data > file-rep.txt 2>&1
"$R" report -i - < pipe.data > pipe-rep.txt 2>&1
if cmp -s file-rep.txt pipe-rep.txt && grep -q '^1a6a1f4b4b3b5184 ' pipe.err; then
	pass "-o - | report -i -: the file's report; the program's stdout on stderr"
else
	fail "pipe mode" "$(diff file-rep.txt pipe-rep.txt | head -4 | tr '\n' '|') $(head -2 pipe.err | tr '\n' '|')"
fi
if [ $have_perf = 1 ]; then
	perf report -i - --stdio -q < pipe.data 2>/dev/null > perf-pipe.txt
	perf report -i hote.data --stdio -q 2>/dev/null > perf-file.txt
	[ -s perf-pipe.txt ] && cmp -s perf-pipe.txt perf-file.txt && pass "perf report -i - reads rvpmu's pipe data" ||
		fail "perf report -i -" "$(head -3 perf-pipe.txt | tr '\n' '|')"
fi

# ---- closing lines, -F max, -T, -D ----
"$R" record -c 10007 -o close.data ./hot >/dev/null 2>close.err
ns=$("$R" script -i close.data | wc -l)
grep -q '^\[ rvpmu record: Woken up [0-9]* times to write data \]$' close.err &&
	grep -q "^\[ rvpmu record: Captured and wrote [0-9.]* MB close.data ($ns samples) \]$" close.err &&
	pass "closing lines as perf's" || fail "closing lines" "$(tr '\n' '|' < close.err)"
"$R" record -F max -T -o max.data ./hot >/dev/null 2>max.err
grep -q 'info: Using a maximum frequency rate of 100000 Hz' max.err &&
	pass "-F max: 100000 Hz (Linux's default maximum)" || fail "-F max" "$(tr '\n' '|' < max.err)"
"$R" record -q -c 10007 -D 5 -o delay.data ./hot >/dev/null 2>delay.err
first=$("$R" script -i delay.data -F time 2>/dev/null | head -1 | tr -d ' :')
if grep -q '^Events disabled$' delay.err && grep -q '^Events enabled$' delay.err &&
	awk -v t="$first" 'BEGIN { exit !(t >= 0.005 && t < 0.0051) }'; then
	pass "-D 5: the first sample at $first s (modelled)"
else
	fail "-D 5" "first sample at '$first': $(tr '\n' '|' < delay.err)"
fi

# ---- --switch-output ----
rm -f sw.data.*
"$R" record -c 10007 --switch-output=20K -o sw.data ./hot >/dev/null 2>sw.err
nf=$(ls sw.data.* 2>/dev/null | wc -l)
tot=0
for f in sw.data.*; do
	k=$("$R" script -i "$f" 2>/dev/null | wc -l)
	tot=$((tot + k))
done
if [ "$nf" -ge 2 ] && [ "$tot" = "$ns" ] && [ ! -e sw.data ] &&
	grep -q '^\[ rvpmu record: Dump sw.data.[0-9]\{16\} \]$' sw.err &&
	grep -q 'Captured and wrote [0-9.]* MB sw.data.<timestamp> (' sw.err; then
	pass "--switch-output=20K: $nf files with all $ns samples"
else
	fail "--switch-output=20K" "$nf files, $tot samples: $(tr '\n' '|' < sw.err)"
fi
rm -f sig.data.*
# a run far longer than the test: SIGUSR2 a second in, SIGINT a second later
# (record finishes the second file and exits 130), on a fast host or a slow one
"$R" record -q -c 10007 --switch-output -o sig.data ./hot 40000000000 >/dev/null 2>sig.err &
pid=$!
sleep 1
kill -USR2 $pid 2>/dev/null
sleep 1
kill -INT $pid 2>/dev/null
wait $pid
src=$?
nf=$(ls sig.data.* 2>/dev/null | wc -l)
[ "$nf" = 2 ] && [ "$src" = 130 ] && pass "--switch-output: SIGUSR2 starts a new file (2 files)" ||
	fail "--switch-output signal" "$nf files, exit $src: $(tr '\n' '|' < sig.err)"

# ---- {a,b}:S: the leader samples, the member is read with it ----
"$R" record -q -e '{cycles,instructions}:S' -c 10007 -o grp.data ./hot >/dev/null 2>&1
"$R" stat -x, -e instructions ./hot 2>grp.csv >/dev/null
ins=$(cut -d, -f1 grp.csv)
"$R" script -i grp.data -F event,period > grp.txt 2>&1
nc=$(grep -c 'cycles:S:' grp.txt)
si=$(awk '$2 == "instructions:S:" { s += $1 } END { print s + 0 }' grp.txt)
if [ "$nc" -gt 1000 ] && [ "$si" -le "$ins" ] && [ "$si" -gt $((ins * 99 / 100)) ]; then
	pass "{cycles,instructions}:S: $nc samples, instructions read with them: $si of $ins"
else
	fail "leader sampling" "$nc cycles samples, instructions $si of $ins"
fi
if [ $have_perf = 1 ]; then
	pi=$(perf script -i grp.data -F event,period 2>/dev/null | awk '$2 == "instructions:S:" { s += $1 } END { print s + 0 }')
	[ "$pi" = "$si" ] && pass "leader sampling: perf script reads the same ($pi)" || fail "leader sampling: perf" "'$pi' vs $si"
fi

# ---- demangled names ----
"$R" record -q -c 10007 -o m.data ./mangled >/dev/null 2>&1
"$R" report -i m.data -q --sort sym > m.txt 2>&1
"$R" report -i m.data -q --sort sym --no-demangle > mraw.txt 2>&1
if grep -q '\[\.\] ns::worker$' m.txt && grep -q '\[\.\] crate::spin$' m.txt && grep -q '\[\.\] crate::other$' m.txt &&
	grep -q '\[\.\] _ZN2ns6workerEm$' mraw.txt; then
	pass "C++ and Rust (legacy, v0) names demangled; --no-demangle keeps them"
else
	fail demangle "$(head -3 m.txt | tr '\n' '|') / $(head -1 mraw.txt)"
fi
[ $have_perf = 1 ] && same_as_perf "report of demangled names" "report -i m.data --stdio --sort sym" "report -i m.data --sort sym"
"$R" annotate -i m.data --no-source ns::worker > m-ann.txt 2>&1 && grep -q '^# Symbol: ns::worker at' m-ann.txt &&
	pass "annotate ns::worker (the demangled name)" || fail "annotate demangled" "$(head -2 m-ann.txt | tr '\n' '|')"

# ---- annotate without a symbol: every function over the limit, hottest first ----
"$R" annotate -i hot.data --no-source > all.txt 2>&1
names=$(sed -n 's/^# Annotate: //p' all.txt | tr '\n' ' ')
[ "$names" = "hot cold " ] && pass "annotate: hot, then cold (over 0.5%)" || fail "annotate all" "'$names'"
"$R" annotate -i hot.data -s cold --no-source > cold.txt 2>&1 && grep -q '^# Annotate: cold$' cold.txt &&
	pass "annotate -s cold" || fail "annotate -s" "$(head -2 cold.txt | tr '\n' '|')"

# ---- bad input: a message naming the command, exit 2 (options) or 1 ----
bad() {  # name want-exit expected-text command...
	name=$1 want=$2 text=$3
	shift 3
	"$@" >/dev/null 2>bad.err </dev/null
	rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$text" bad.err; then
		pass "bad input: $name"
	else
		fail "bad input: $name" "exit $rc, stderr: $(head -2 bad.err | tr '\n' '|')"
	fi
}
bad "report --sort" 2 "rvpmu report: unknown sort key 'nope'" "$R" report -i hot.data --sort sym,nope
bad "report -F" 2 "rvpmu report: unknown field 'x'" "$R" report -i hot.data -F overhead,x
bad "report -g" 2 "rvpmu report: -g 'tree'" "$R" report -i hot.data -g tree
bad "report --percent-limit" 2 "rvpmu report: --percent-limit: 'ten'" "$R" report -i hot.data --percent-limit ten
bad "report --max-stack" 2 "rvpmu report: --max-stack: '0'" "$R" report -i hot.data --max-stack 0
bad "report --header-only --folded" 2 "rvpmu report: --header-only prints no samples" "$R" report -i hot.data --header-only --folded
bad "report argument" 2 "rvpmu report: unexpected argument 'hot.data'" "$R" report hot.data
bad "report -i - (not perf data)" 1 "rvpmu report: standard input: not a perf.data" sh -c "echo 'hello, this is text and not perf data' | '$R' report -i -"
bad "report -i - (empty)" 1 "rvpmu report: standard input: too short" sh -c "'$R' report -i - </dev/null"
bad "script -F" 2 "rvpmu script: -F: unknown field 'ipp'" "$R" script -i hot.data -F ipp
bad "script -F symoff" 2 "symoff needs sym" "$R" script -i hot.data -F ip,symoff
bad "script -F sym" 2 "need ip" "$R" script -i hot.data -F sym
bad "script missing file" 1 "rvpmu script: no-such.data" "$R" script -i no-such.data
bad "diff missing file" 1 "rvpmu diff: no-such.data" "$R" diff hot.data no-such.data
bad "diff three files" 2 "rvpmu diff: more than two files" "$R" diff hot.data hot.data hot.data
bad "buildid-list missing file" 1 "rvpmu buildid-list: no-such.data" "$R" buildid-list -i no-such.data
bad "record --call-graph dwarf,7" 2 "multiple of 8" "$R" record --call-graph dwarf,7 ./hot
bad "record --call-graph dwarf,x" 2 "not a valid count" "$R" record --call-graph dwarf,x ./hot
bad "record --call-graph lbr" 2 "use fp, dwarf" "$R" record --call-graph lbr ./hot
bad "record --switch-output=10X" 2 "rvpmu record: --switch-output='10X'" "$R" record --switch-output=10X ./hot
bad "record --switch-output with -o -" 2 "needs a file" "$R" record --switch-output -o - ./hot
bad "record -D" 2 "not a valid count" "$R" record -D soon ./hot
bad "record -F" 2 "not a valid count" "$R" record -F most ./hot
bad "record cycles:S (not a group)" 2 "modifier S is a group's" "$R" record -e cycles:S ./hot
bad "annotate --percent-limit" 2 "rvpmu annotate: --percent-limit: 'x'" "$R" annotate -i hot.data --percent-limit x
bad "annotate empty symbol" 2 "rvpmu annotate: an empty symbol name" "$R" annotate -i hot.data ""
bad "annotate two symbols" 2 "one symbol at a time" "$R" annotate -i hot.data hot cold
bad "annotate high limit" 1 "no function has 99.00%" "$R" annotate -i hot.data --percent-limit 99
