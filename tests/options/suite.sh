#!/bin/sh
# perf's option syntax on every subcommand (src/cli, cli_next): long and
# short forms, --opt=value and --opt value, -xV, abbreviated long options,
# clustered one-letter options, -h per subcommand, a program found on
# $PATH, and errors that start "rvpmu CMD: ". Where Debian's perf answers
# the same syntax (its parser works without hardware counters), both must
# accept or both refuse each form.
# One line per check: "PASS options NAME" / "FAIL options NAME: why".
cd "$(dirname "$0")" || exit 1
: "${RVPMU:=$PWD/../../build/rvpmu}" "${BUILD:=$PWD/../../build}"
out=$BUILD/tests/options
mkdir -p "$out" || exit 1
pass() { echo "PASS options $1"; }
fail() { echo "FAIL options $1: $2"; }
if [ ! -x "$RVPMU" ]; then
	fail rvpmu "$RVPMU not built"
	exit 0
fi
# loop: 6005 instructions (tests/stat/loop.S); hot: a C program with symbols
riscv64-linux-gnu-gcc -static -nostdlib -o "$out/loop" ../stat/loop.S >&2 ||
	{ fail build "loop.S does not build"; exit 0; }
if [ ! -f "$out/hot" ] || [ ../record/hot.c -nt "$out/hot" ]; then
	riscv64-linux-gnu-gcc -static -O2 -g -o "$out/hot" ../record/hot.c >&2 ||
		{ fail build "hot.c does not build"; exit 0; }
fi
L=$out/loop

# same NAME WANT-FILE ARGS...: rvpmu ARGS writes WANT-FILE's text to stderr
# (stat's CSV) and exits 0
same() {
	name=$1 want=$2
	shift 2
	"$RVPMU" "$@" >/dev/null 2>"$out/got.txt"
	rc=$?
	if [ "$rc" = 0 ] && cmp -s "$want" "$out/got.txt"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(head -c 200 "$out/got.txt" | tr '\n' '|') (want $(tr '\n' '|' < "$want"))"
	fi
}
# bad NAME CMD WORD ARGS...: exit 2, one stderr line "rvpmu CMD: ..." naming
# WORD, nothing on stdout
bad() {
	name=$1 cmd=$2 word=$3
	shift 3
	"$RVPMU" "$cmd" "$@" >"$out/bad.out" 2>"$out/bad.err"
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$out/bad.out" ] && [ "$(wc -l < "$out/bad.err")" = 1 ] &&
	   [ "$(head -c $((${#cmd} + 8)) "$out/bad.err")" = "rvpmu $cmd: " ] &&
	   grep -q -F -e "$word" "$out/bad.err"; then
		pass "bad: $name"
	else
		fail "bad: $name" "exit $rc: $(head -c 200 "$out/bad.err" | tr '\n' '|')"
	fi
}

# ---- -h and --help on every subcommand: the usage on stdout, exit 0
for c in run stat record report script annotate diff buildid-list list system; do
	for h in -h --help; do
		"$RVPMU" $c $h >"$out/help.out" 2>"$out/help.err"
		rc=$?
		if [ "$rc" = 0 ] && [ ! -s "$out/help.err" ] && head -n 1 "$out/help.out" | grep -q "^usage: rvpmu $c"; then
			pass "$c $h"
		else
			fail "$c $h" "exit $rc: $(head -c 100 "$out/help.out" "$out/help.err" | tr '\n' '|')"
		fi
	done
done

# ---- stat: every spelling of an option means the same
"$RVPMU" stat -x, -e instructions "$L" 2>"$out/ref.csv"
grep -q '^6005,,instructions,' "$out/ref.csv" && pass "stat reference count" ||
	fail "stat reference count" "$(cat "$out/ref.csv")"
same "stat --event=V" "$out/ref.csv" stat -x, --event=instructions "$L"
same "stat --event V" "$out/ref.csv" stat -x, --event instructions "$L"
same "stat -eV" "$out/ref.csv" stat -x, -einstructions "$L"
same "stat --ev=V (an abbreviation)" "$out/ref.csv" stat -x, --ev=instructions "$L"
same "stat --field-separator=," "$out/ref.csv" stat --field-separator=, -e instructions "$L"
same "stat --field-separator ," "$out/ref.csv" stat --field-separator , -e instructions "$L"
same "stat -x ," "$out/ref.csv" stat -x , -e instructions "$L"
same "stat -q cluster -qx," "$out/ref.csv" stat -qx, -e instructions "$L"
same "stat --profile=virt" "$out/ref.csv" stat --profile=virt -x, -e instructions "$L"
same "stat --max-insns=1M" "$out/ref.csv" stat --max-insns=1M -x, -e instructions "$L"
"$RVPMU" stat -x, -r 2 -e instructions "$L" 2>"$out/ref2.csv"
grep -q '^6005,,instructions,0.00%,' "$out/ref2.csv" && pass "stat -r 2" || fail "stat -r 2" "$(cat "$out/ref2.csv")"
same "stat --repeat=2" "$out/ref2.csv" stat -x, --repeat=2 -e instructions "$L"
same "stat --repeat 2" "$out/ref2.csv" stat -x, --repeat 2 -e instructions "$L"
same "stat -r2" "$out/ref2.csv" stat -x, -r2 -e instructions "$L"
rm -f "$out/o1.txt" "$out/o2.txt"
"$RVPMU" stat -x, -e instructions -o "$out/o1.txt" "$L" 2>/dev/null
"$RVPMU" stat -x, -e instructions --output="$out/o2.txt" "$L" 2>/dev/null
# perf's "# started on DATE" and a blank line come first
tail -n +3 "$out/o1.txt" | cmp -s - "$out/ref.csv" && tail -n +3 "$out/o2.txt" | cmp -s - "$out/ref.csv" &&
	head -n 1 "$out/o1.txt" | grep -q '^# started on ' && pass "stat -o and --output=" ||
	fail "stat -o and --output=" "$(cat "$out/o1.txt" "$out/o2.txt" | tr '\n' '|')"
# a one-letter option's attached value is taken as it stands: -x= is '='
"$RVPMU" stat -x= -e instructions "$L" 2>"$out/eq.csv"
grep -q '^6005==instructions=' "$out/eq.csv" && pass "stat -x= separates with '='" ||
	fail "stat -x= separates with '='" "$(cat "$out/eq.csv")"

# ---- errors name the subcommand
bad "stat unknown long option" stat "unknown option '--bogus'" --bogus "$L"
bad "stat unknown letter in a cluster" stat "unknown option '-z'" -qz "$L"
bad "stat ambiguous abbreviation" stat "option '--no' is ambiguous" --no "$L"
bad "stat value for a flag" stat "option '--json-output' takes no value" --json-output=yes "$L"
bad "stat missing value" stat "-e needs a value" -e
bad "stat -e=V is the event '=V' (as perf)" stat "unknown event '=instructions'" -e=instructions "$L"
bad "stat --repeat=0" stat "-r: '0' is out of range" --repeat=0 "$L"
bad "run unknown option" run "unknown option '--bogus'" --bogus "$L"
bad "run --max-insns=" run "--max-insns: '' is not a valid count" --max-insns= "$L"
bad "record unknown option" record "unknown option '--bogus'" --bogus "$L"
bad "record --count=0" record "-c must be positive" --count=0 "$L"
bad "report unknown option" report "unknown option '--bogus'" --bogus
bad "report stray argument" report "unexpected argument 'extra'" -i x.data extra
bad "report --sort=bogus" report "unknown sort key 'bogus'" --sort=bogus
bad "annotate unknown option" annotate "unknown option '--bogus'" --bogus hot
bad "list unknown option" list "unknown option '--bogus'" --bogus
bad "list --profile without a value" list "--profile needs a value" --profile
bad "system unknown option" system "unknown option '--bogus'" --bogus

# ---- record, report, annotate and list: long and short forms
"$RVPMU" record -q -e instructions -c 2000 -o "$out/s.data" "$out/hot" 100000 >/dev/null 2>&1
"$RVPMU" record -q --event=instructions --count=2000 --output="$out/l.data" "$out/hot" 100000 >/dev/null 2>&1
"$RVPMU" report -i "$out/s.data" >"$out/s.rep" 2>&1
"$RVPMU" report --input="$out/l.data" >"$out/l.rep" 2>&1
if grep -q "of event 'instructions'" "$out/s.rep" && grep -q ' hot$' "$out/s.rep" && cmp -s "$out/s.rep" "$out/l.rep"; then
	pass "record -e -c -o = --event= --count= --output=; report -i = --input="
else
	fail "record and report long forms" "$(diff "$out/s.rep" "$out/l.rep" | head -5 | tr '\n' '|')"
fi
"$RVPMU" record -q --freq 200000 --output "$out/f.data" "$out/hot" 100000 >/dev/null 2>&1
"$RVPMU" record -q -F200000 -o"$out/f2.data" "$out/hot" 100000 >/dev/null 2>&1
"$RVPMU" report --input "$out/f.data" >"$out/f.rep" 2>&1
"$RVPMU" report --in="$out/f2.data" >"$out/f2.rep" 2>&1
grep -q ' hot$' "$out/f.rep" && cmp -s "$out/f.rep" "$out/f2.rep" && pass "record --freq V = -FV; report --in=" ||
	fail "record --freq V = -FV" "$(diff "$out/f.rep" "$out/f2.rep" | head -5 | tr '\n' '|')"
"$RVPMU" report -i "$out/s.data" -s dso >"$out/d1.rep" 2>&1
"$RVPMU" report -i "$out/s.data" --sort=dso >"$out/d2.rep" 2>&1
grep -q 'Shared Object\|hot' "$out/d1.rep" && cmp -s "$out/d1.rep" "$out/d2.rep" && pass "report -s dso = --sort=dso" ||
	fail "report -s dso = --sort=dso" "$(diff "$out/d1.rep" "$out/d2.rep" | head -5 | tr '\n' '|')"
"$RVPMU" annotate -i "$out/s.data" hot >"$out/a1.txt" 2>&1
"$RVPMU" annotate --input="$out/s.data" --symbol=hot >"$out/a2.txt" 2>&1
"$RVPMU" annotate -s hot --stdio --input "$out/s.data" >"$out/a3.txt" 2>&1
grep -q 'Percent' "$out/a1.txt" && cmp -s "$out/a1.txt" "$out/a2.txt" && cmp -s "$out/a1.txt" "$out/a3.txt" &&
	pass "annotate SYM = --symbol=SYM = -s SYM; -i = --input= = --input" ||
	fail "annotate long forms" "$(head -c 200 "$out/a1.txt" "$out/a2.txt" | tr '\n' '|')"
"$RVPMU" list --profile u74 >"$out/l1.txt" 2>&1
"$RVPMU" list --profile=u74 >"$out/l2.txt" 2>&1
grep -q int_muls_retired "$out/l1.txt" && cmp -s "$out/l1.txt" "$out/l2.txt" && pass "list --profile V = --profile=V" ||
	fail "list --profile V = --profile=V" "$(head -c 200 "$out/l2.txt")"

# ---- optional values as perf's parse-options takes them: record's
# --switch-output[=V] only attached (PARSE_OPT_OPTARG); report's -g [V]
# attached or the next argument unless it starts '-' (LASTARG_DEFAULT)
"$RVPMU" record -q -g -c 2000 -o "$out/g.data" "$out/hot" 100000 >/dev/null 2>&1
"$RVPMU" report -i "$out/g.data" -g caller >"$out/g1.rep" 2>&1
"$RVPMU" report -i "$out/g.data" --call-graph=caller >"$out/g2.rep" 2>&1
"$RVPMU" report -i "$out/g.data" -gcaller >"$out/g3.rep" 2>&1
"$RVPMU" report -i "$out/g.data" -g callee >"$out/g4.rep" 2>&1
if grep -q -- '---' "$out/g1.rep" && cmp -s "$out/g1.rep" "$out/g2.rep" && cmp -s "$out/g1.rep" "$out/g3.rep" &&
   ! cmp -s "$out/g1.rep" "$out/g4.rep"; then
	pass "report -g caller = --call-graph=caller = -gcaller (not callee)"
else
	fail "report -g V forms" "$(head -c 200 "$out/g2.rep" "$out/g3.rep" | tr '\n' '|')"
fi
"$RVPMU" report -i "$out/g.data" -g -n >"$out/gn.rep" 2>&1
grep -q '^# *Children *Self *Samples' "$out/gn.rep" && grep -q -- '---' "$out/gn.rep" &&
	pass "report -g -n: -g without a value, -n an option" ||
	fail "report -g -n" "$(head -c 300 "$out/gn.rep" | tr '\n' '|')"
rm -f "$out"/sw.data*
"$RVPMU" record -q --switch-output -o "$out/sw.data" "$out/hot" 1000 >/dev/null 2>"$out/sw.err"
rc=$?
[ "$rc" = 0 ] && ls "$out"/sw.data.2* >/dev/null 2>&1 &&
	pass "record --switch-output alone is signal; -o stays an option" ||
	fail "record --switch-output alone" "exit $rc: $(head -c 200 "$out/sw.err" | tr '\n' '|')"
"$RVPMU" record -q --switch-output 10M "$out/hot" >/dev/null 2>"$out/sw.err"
rc=$?
[ "$rc" = 1 ] && [ "$(cat "$out/sw.err")" = "rvpmu record: 10M: No such file or directory" ] &&
	pass "record --switch-output V: V is the program" ||
	fail "record --switch-output V" "exit $rc: $(head -c 200 "$out/sw.err" | tr '\n' '|')"

# ---- a program name without '/' is looked for on $PATH (perf's execvp)
mkdir -p "$out/bin" "$out/cwd"
cp "$L" "$out/bin/rvloop"
printf 'not a program\n' > "$out/bin/notexec"   # not executable: skipped
cp "$L" "$out/cwd/notexec"
chmod +x "$out/cwd/notexec"
(cd "$out/cwd" && PATH="$out/bin:$PATH" "$RVPMU" stat -x, -e instructions rvloop) 2>"$out/path.csv"
grep -q '^6005,,instructions,' "$out/path.csv" && pass "stat PROG from \$PATH" ||
	fail "stat PROG from \$PATH" "$(cat "$out/path.csv")"
(cd "$out/cwd" && PATH="$out/bin:$PATH" "$RVPMU" stat -x, -e instructions notexec) 2>"$out/path2.csv"
grep -q '^6005,,instructions,' "$out/path2.csv" && pass "a file on \$PATH without x is skipped; the current directory last" ||
	fail "a file on \$PATH without x is skipped" "$(cat "$out/path2.csv")"
(cd "$out/cwd" && PATH="$out/bin" "$RVPMU" run rvloop) >/dev/null 2>&1
[ $? = 0 ] && pass "run PROG from \$PATH" || fail "run PROG from \$PATH" "exit $?"
(cd "$out/cwd" && PATH="$out/bin" "$RVPMU" record -q -o "$out/p.data" rvloop) >/dev/null 2>&1
[ -s "$out/p.data" ] && pass "record PROG from \$PATH" || fail "record PROG from \$PATH" "no perf.data"
(cd "$out/cwd" && PATH="$out/bin" "$RVPMU" stat no-such-prog) >/dev/null 2>"$out/np.err"
[ "$(cat "$out/np.err")" = "rvpmu stat: no-such-prog: No such file or directory" ] &&
	pass "a program found nowhere" || fail "a program found nowhere" "$(cat "$out/np.err")"

# ---- side by side with Debian's perf: the same syntax is accepted (or
# refused) by both. EV stands for an event each can count (task-clock on
# this host's perf, instructions on rvpmu).
if ! command -v perf >/dev/null 2>&1 || ! perf stat -e task-clock true >/dev/null 2>&1; then
	fail "perf side by side" "Debian's perf cannot run 'perf stat -e task-clock true' here"
	exit 0
fi
# verdict CMD FORM WANT PERF-EXIT RVPMU-EXIT: both ok, or both refused, as
# WANT; or, WANT rvpmu-only, perf refuses what rvpmu takes on purpose (-A
# and --per-thread split a program's counts by hart and by thread, issue
# 37; perf gives them only with -a, -p or -t)
verdict() {
	p=ok r=ok
	[ "$4" = 0 ] || p=refused
	[ "$5" = 0 ] || r=refused
	if [ "$3" = rvpmu-only ]; then
		[ "$p" = refused ] && [ "$r" = ok ] && pass "as perf: $1 $2 (refused by perf, taken by rvpmu)" ||
			fail "as perf: $1 $2" "perf $p (exit $4), rvpmu $r (exit $5), expected perf refused, rvpmu ok"
	elif [ "$p" = "$3" ] && [ "$r" = "$3" ]; then
		pass "as perf: $1 $2 ($3)"
	else
		fail "as perf: $1 $2" "perf $p (exit $4), rvpmu $r (exit $5), expected $3"
	fi
}
# report reads the same perf.data with both
while IFS='|' read -r want form; do
	# shellcheck disable=SC2086
	perf report -i "$out/g.data" --stdio $form >/dev/null 2>&1; prc=$?
	# shellcheck disable=SC2086
	"$RVPMU" report -i "$out/g.data" $form >/dev/null 2>&1; rrc=$?
	verdict report "$form" "$want" $prc $rrc
done <<'EOF'
ok|-g
ok|-g caller
ok|-g -n
ok|-gcaller
ok|--call-graph=callee
ok|--call-graph caller,0.5
ok|-n -g
ok|--sort=dso
ok|--sor dso
ok|-qn
refused|-g=caller
refused|-g bogus
refused|--sort
refused|-g caller --bogus
EOF
while IFS='|' read -r want form; do
	[ -n "$form" ] || continue
	pf=$(echo "$form" | sed 's/EV/task-clock/g') rf=$(echo "$form" | sed 's/EV/instructions/g')
	# shellcheck disable=SC2086
	perf stat $pf true >/dev/null 2>&1; prc=$?
	# shellcheck disable=SC2086
	"$RVPMU" stat $rf "$L" >/dev/null 2>&1; rrc=$?
	verdict stat "$form" "$want" $prc $rrc
done <<'EOF'
ok|-e EV
ok|--event EV
ok|--event=EV
ok|-eEV
ok|--ev=EV
ok|-e EV -x,
ok|-e EV -x ,
ok|-e EV -x=
ok|-e EV --field-separator=,
ok|-e EV --field-separator ;
ok|-e EV --field-sep=,
ok|-e EV -r 2
ok|-e EV -r2
ok|-e EV --repeat=2
ok|-e EV --repeat 2
ok|-e EV --rep 2
ok|-e EV -j
ok|-e EV --json-output
ok|-e EV -o /dev/null
ok|-e EV --output=/dev/null
ok|-e EV -- 
ok|-e EV -I 100
ok|-e EV -I 100 --interval-count 1
ok|-e EV -d
ok|-e EV -dd
ok|-e EV -ddd
ok|-e EV -dddd
ok|-e EV -n
ok|-e EV -v
ok|-e EV -B
ok|-e EV --no-big-num
ok|-e EV --all-user
ok|-e EV --all-kernel
ok|-e EV -D 10
ok|-e EV --delay=10
ok|-e EV --append -o /dev/null
ok|-e EV --metric-only
ok|-e EV -r 2 --table
ok|-e EV --timeout 100
refused|-e EV --table
refused|-e EV --timeout 5
refused|-e EV --timeout 100 -I 100
refused|-e EV --interval-count 2
refused|-e EV -I x
rvpmu-only|-e EV -A
rvpmu-only|-e EV --no-aggr
rvpmu-only|-e EV --per-thread
refused|-e EV --per-thread -A
refused|-e=EV
refused|-e EV --json-output=1
refused|-e EV -r
refused|-e EV --bogus
refused|-e EV -Z
refused|-e EV --repeat=x
EOF
exit 0
