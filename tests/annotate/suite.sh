#!/bin/sh
# rvpmu annotate on tests/record's hot workload: the header, the listing
# against objdump and Linux perf annotate, where the samples of hot() are
# (its loop), that they add up to hot's row in rvpmu report, help, and bad
# input.
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/annotate"
mkdir -p "$out"
pass() { echo "PASS annotate $1"; }
fail() { echo "FAIL annotate $1: $2"; }
src=../record/hot.c
if [ ! -f "$out/hot" ] || [ $src -nt "$out/hot" ]; then
	riscv64-linux-gnu-gcc -static -O2 -g -fno-omit-frame-pointer -o "$out/hot" $src >&2 ||
		{ fail build "hot.c does not build"; exit 0; }
fi
exe=$(readlink -f "$out/hot")
P=10007
"$RVPMU" record -c $P -o "$out/hot.data" "$out/hot" >/dev/null 2>"$out/record.err" ||
	{ fail record "$(cat "$out/record.err")"; exit 0; }
"$RVPMU" annotate -i "$out/hot.data" --stdio hot > "$out/ann.txt" 2>"$out/ann.err"
rc=$?
[ "$rc" = 0 ] && pass "exit 0" || fail "exit status" "$rc: $(cat "$out/ann.err")"

# what the header must say, from the ELF (nm, objdump) and rvpmu report
"$RVPMU" report -n --sort sym --no-children -i "$out/hot.data" > "$out/report.txt" 2>&1
total=$(awk '$1 ~ /%$/ { s += $2 } END { print s + 0 }' "$out/report.txt")
nhot=$(awk '$3 == "[.]" && $4 == "hot" { print $2; exit }' "$out/report.txt")
set -- $(riscv64-linux-gnu-nm -S "$out/hot" | awk '$4 == "hot" { print $1, $2 }')
start=$(printf '%x' 0x$1) size=$(printf '%d' 0x$2)
riscv64-linux-gnu-objdump -d --disassemble=hot "$out/hot" |
	awk -F'\t' '/^ +[0-9a-f]+:\t/ { sub(/ *#.*/, "", $4); gsub(/ +$/, "", $2);
		sub(/^ +/, "", $1); print $1, $2, $3 ($4 != "" ? " " $4 : "") }' > "$out/objdump.txt"
ninsn=$(wc -l < "$out/objdump.txt")
pct=$(awk -v a="$nhot" -v b="$total" 'BEGIN { printf "%.2f", 100 * a / b }')
cat > "$out/want-header.txt" <<EOF
# Annotate: hot
# File: $exe
# Symbol: hot at 0x$start, $size bytes, $ninsn instructions
# Event: cycles: $nhot samples in hot, $pct% of $total
#
#  Percent   Samples   Address  Encoding  Disassembly
#  .......   .......   .......  ........  ...........
#
EOF
head -8 "$out/ann.txt" > "$out/got-header.txt"
if [ -n "$nhot" ] && [ -n "$total" ] && cmp -s "$out/want-header.txt" "$out/got-header.txt"; then
	pass "header ($nhot of $total samples, $ninsn instructions)"
else
	fail header "$(diff "$out/want-header.txt" "$out/got-header.txt" | tr '\n' '|')"
fi

# the instruction lines: percent, samples, address, encoding, text
awk '/^ +[0-9]+\.[0-9][0-9] +[0-9]+ +[0-9a-f]+:  / {
	pc = $3; sub(/:$/, "", pc); t = ""
	for (i = 5; i <= NF; i++) t = t (i > 5 ? " " : "") $i
	print $1, $2, pc, $4, t }' "$out/ann.txt" > "$out/lines.txt"
awk '{ print $3 ":", $4, substr($0, index($0, $5)) }' "$out/lines.txt" > "$out/ann-dis.txt"
if [ "$ninsn" -gt 10 ] && cmp -s "$out/objdump.txt" "$out/ann-dis.txt"; then
	pass "every instruction as objdump -d shows it ($ninsn)"
else
	fail "disassembly vs objdump" "$(diff "$out/objdump.txt" "$out/ann-dis.txt" | head -6 | tr '\n' '|')"
fi

sum=$(awk '{ s += $2 } END { print s + 0 }' "$out/lines.txt")
[ -n "$nhot" ] && [ "$sum" = "$nhot" ] && pass "samples add up to hot's row in rvpmu report ($sum)" ||
	fail "samples sum" "listing $sum, report '$nhot'"

# each percentage is the line's share of hot's samples
bad=$(awk -v t="$nhot" '{ want = sprintf("%.2f", 100 * $2 / t); if (want != $1) print $3 ": " $1 " want " want }' "$out/lines.txt")
[ -z "$bad" ] && pass "percentages = samples / $nhot" || fail percentages "$(echo "$bad" | head -3 | tr '\n' '|')"

# The loop of hot.c is the one backward conditional branch in hot(); it
# runs n = 2000000 times, the ~20 other instructions once, before and
# after it. Each of those two stretches lasts far less than a period
# (10007 cycles), so each can hold at most one sample: at most 2 of
# hot's samples are outside the loop, and the top line is in it.
lo= hi=
while read -r at enc op args rest; do
	case $op in b*) ;; *) continue ;; esac
	to=${args##*,} at=${at%:}
	case $op in bne|beq|blt|bge|bltu|bgeu|bnez|beqz|bltz|bgez|blez|bgtz|bgt|ble|bgtu|bleu) ;; *) continue ;; esac
	[ $((0x$to)) -lt $((0x$at)) ] && lo=$to hi=$at
done < "$out/objdump.txt"
if [ -n "$lo" ]; then
	inloop=0 top= topn=-1
	while read -r pc n addr rest; do
		[ $((0x$addr)) -ge $((0x$lo)) ] && [ $((0x$addr)) -le $((0x$hi)) ] && inloop=$((inloop + n))
		[ "$n" -gt "$topn" ] && top=$addr topn=$n
	done < "$out/lines.txt"
	if [ $((nhot - inloop)) -le 2 ] && [ $((0x$top)) -ge $((0x$lo)) ] && [ $((0x$top)) -le $((0x$hi)) ]; then
		pass "the loop $lo..$hi has $inloop of $nhot samples, the top line $top ($topn) is in it"
	else
		fail "hot loop" "loop $lo..$hi has $inloop of $nhot, top line $top ($topn)"
	fi
else
	fail "hot loop" "no backward branch in hot() ($(tr '\n' '|' < "$out/objdump.txt"))"
fi

# source lines from DWARF, with the text of hot.c
ln=$(grep -n 'h = (h ^ i) \* 1099511628211ul;' $src | cut -d: -f1)
if grep -q "^ \{30,\}hot\.c:$ln  .*h = (h ^ i) \* 1099511628211ul;\$" "$out/ann.txt"; then
	pass "source line hot.c:$ln with its text"
else
	fail "source lines" "no hot.c:$ln line ($(grep -c 'hot\.c:' "$out/ann.txt") source lines)"
fi
"$RVPMU" annotate -i "$out/hot.data" --no-source hot > "$out/nosrc.txt" 2>&1
if ! grep -q 'hot\.c:' "$out/nosrc.txt" && [ "$(grep -vc '^ \{30,\}hot\.c:' "$out/ann.txt")" = "$(wc -l < "$out/nosrc.txt")" ]; then
	pass "--no-source: the same listing without source lines"
else
	fail "--no-source" "$(head -12 "$out/nosrc.txt" | tr '\n' '|')"
fi

# Linux perf annotate of the same file: the same percentage at each address
if command -v perf >/dev/null 2>&1; then
	perf annotate -i "$out/hot.data" --stdio --objdump=riscv64-linux-gnu-objdump hot \
		> "$out/perf-ann.txt" 2>/dev/null
	awk '$2 == ":" && $3 ~ /^[0-9a-f]+:$/ { sub(/:$/, "", $3); print $3, $1 }' "$out/perf-ann.txt" > "$out/perf-pct.txt"
	awk '{ print $3, $1 }' "$out/lines.txt" > "$out/our-pct.txt"
	phead=$(sed -n 's/.*Disassembly of hot for cycles (\([0-9]*\) samples.*/\1/p' "$out/perf-ann.txt" | head -1)
	if [ -s "$out/perf-pct.txt" ] && cmp -s "$out/perf-pct.txt" "$out/our-pct.txt" && [ "$phead" = "$nhot" ]; then
		pass "perf annotate agrees at every address ($phead samples)"
	else
		fail "perf annotate" "perf says $phead samples; $(diff "$out/perf-pct.txt" "$out/our-pct.txt" | head -4 | tr '\n' '|')"
	fi
else
	fail "perf annotate" "perf is not installed (scripts/setup.sh installs linux-perf)"
fi

# help
"$RVPMU" annotate --help > "$out/help1.txt" 2>&1; r1=$?
"$RVPMU" help annotate > "$out/help2.txt" 2>&1; r2=$?
if [ $r1 = 0 ] && [ $r2 = 0 ] && head -1 "$out/help1.txt" | grep -q '^usage: rvpmu annotate ' &&
	cmp -s "$out/help1.txt" "$out/help2.txt" && grep -q -- '--symfs DIR' "$out/help1.txt" &&
	"$RVPMU" --help | grep -q '^  annotate '; then
	pass "help: annotate --help, help annotate, the command list"
else
	fail help "exit $r1/$r2: $(head -2 "$out/help1.txt" | tr '\n' '|')"
fi

# bad input: a clear message, a non-zero exit, no crash
bad() {  # name expected-status expected-text command...
	name=$1 wantrc=$2 want=$3
	shift 3
	"$@" >"$out/bad.out" 2>"$out/bad.err"
	rc=$?
	if [ "$rc" = "$wantrc" ] && grep -q -- "$want" "$out/bad.err" && [ ! -s "$out/bad.out" ]; then
		pass "bad input: $name"
	else
		fail "bad input: $name" "exit $rc (want $wantrc), stderr: $(cat "$out/bad.err")"
	fi
}
bad "unknown symbol" 1 "no function 'no_such_fn'" "$RVPMU" annotate -i "$out/hot.data" no_such_fn
# abort() is linked in but never runs when the program exits normally
if riscv64-linux-gnu-nm "$out/hot" | grep -q ' T abort$'; then
	bad "symbol without samples" 1 "'abort' in .* has no samples" "$RVPMU" annotate -i "$out/hot.data" abort
else
	fail "bad input: symbol without samples" "abort is not in the binary"
fi
bad "missing file" 1 "no-such.data" "$RVPMU" annotate -i "$out/no-such.data" hot
head -c 200 "$out/hot.data" > "$out/trunc.data"
bad "truncated file" 1 "^rvpmu annotate: .*trunc.data" "$RVPMU" annotate -i "$out/trunc.data" hot
bad "not a perf.data file" 1 "^rvpmu annotate: " "$RVPMU" annotate -i "$out/hot" hot
bad "empty symbol" 2 "^rvpmu annotate: an empty symbol name" "$RVPMU" annotate -i "$out/hot.data" ""
bad "two symbols" 2 "one symbol at a time" "$RVPMU" annotate -i "$out/hot.data" hot cold
bad "unknown option" 2 "unknown option '--bogus'" "$RVPMU" annotate --bogus hot
bad "-i without a value" 2 "needs a value" "$RVPMU" annotate hot -i
bad "mapped ELF missing (--symfs)" 1 "cannot read $out/nosymfs" "$RVPMU" annotate -i "$out/hot.data" --symfs "$out/nosymfs" hot
mkdir -p "$out/symfs$(dirname "$exe")"
echo "not an ELF" > "$out/symfs$exe"
bad "mapped file is not an ELF" 1 "not an ELF file" "$RVPMU" annotate -i "$out/hot.data" --symfs "$out/symfs" hot

# ---- a rebuilt binary (issue 35) ----
# perf.data names each file with its build id; report and annotate refuse
# a file whose build id is another, as perf does: a warning naming the
# file, and its samples unresolved (perf's offsets into the file; source
# lines perf's ??:0), never put on the functions of another program.
cp "$out/hot" "$out/rb"
rb=$(readlink -f "$out/rb")
"$RVPMU" record -c $P -o "$out/rb.data" "$out/rb" >/dev/null 2>&1
"$RVPMU" report -n --sort sym -i "$out/rb.data" > "$out/rb-same.txt" 2>"$out/rb-same.err"
"$RVPMU" annotate -i "$out/rb.data" hot > "$out/rb-ann.txt" 2>&1
if [ "$(awk '$3 == "[.]" { print $4; exit }' "$out/rb-same.txt")" = hot ] && [ ! -s "$out/rb-same.err" ] &&
	grep -q "^# Symbol: hot at" "$out/rb-ann.txt"; then
	pass "build id: the recorded file itself is used (report and annotate)"
else
	fail "build id: the recorded file" "$(cat "$out/rb-same.err" "$out/rb-ann.txt" | head -5 | tr '\n' '|')"
fi
# another program at the same path
riscv64-linux-gnu-gcc -static -O2 -g -o "$out/rb" ../record/calls.c >&2
"$RVPMU" report -n --sort sym -i "$out/rb.data" > "$out/rb-other.txt" 2>"$out/rb-other.err"
top=$(awk '$3 == "[.]" { print $4; exit }' "$out/rb-other.txt")
named=$(awk '$3 == "[.]" && $4 !~ /^0x[0-9a-f]+$/' "$out/rb-other.txt" | head -3)
"$RVPMU" report -n -i "$out/rb.data" --sort srcline > "$out/rb-src.txt" 2>/dev/null
if grep -q "^rvpmu report: warning: $rb is not the file that was recorded (build id [0-9a-f]* in perf.data, [0-9a-f]* in the file)" \
	"$out/rb-other.err" && [ -n "$top" ] && [ -z "$named" ] &&
	[ "$(awk '/%/ { print $3 }' "$out/rb-src.txt" | sort -u)" = "??:0" ]; then
	pass "build id: another file at the path: a warning, samples unresolved (top $top)"
else
	fail "build id: another file at the path" "top '$top', named '$named': $(tr '\n' '|' < "$out/rb-other.err")"
fi
if command -v perf >/dev/null 2>&1; then
	# with an empty build-id cache, so perf too has only the file at the path
	ptop=$(PERF_BUILDID_DIR="$out/no-cache" perf report -i "$out/rb.data" --stdio --no-children \
		--sort sym 2>/dev/null | awk '$2 == "[.]" { print $3; exit }')
	[ -n "$ptop" ] && [ "$ptop" = "$top" ] && pass "build id: perf report shows the same ($ptop)" ||
		fail "build id: perf report" "perf's top '$ptop', rvpmu's '$top'"
fi
bad "build id: annotate refuses another file" 1 "$rb is not the file that was recorded" \
	"$RVPMU" annotate -i "$out/rb.data" hot
bad "build id: nor does it annotate the other's functions" 1 "no function 'leaf' found ($rb is not the file" \
	"$RVPMU" annotate -i "$out/rb.data" leaf
