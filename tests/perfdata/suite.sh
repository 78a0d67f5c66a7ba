#!/bin/sh
# perf.data writer, reader and report (src/perf/perfdata*.c, symbols.c,
# report.c). A riscv64 program with a known hot() and cold() is built;
# pdtool writes synthetic samples at pcs the binutils tools find in it
# (90% in hot() called main->caller->hot, 10% in cold() called
# main->cold). Debian's perf must read the file and agree; rvpmu's report
# must agree with perf, with addr2line for source lines, and draw a
# usable flame graph; damaged files must give an error, never a crash
# (everything here runs under ASan/UBSan).
# shellcheck disable=SC2046,SC2086 # word splitting of address lists is meant
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=$PWD/build}"
out=$BUILD/tests/perfdata
mkdir -p "$out" || exit 1
T=tests/perfdata
CC=${CC:-gcc}
XCC=riscv64-linux-gnu-gcc
SRC="src/perf/perfdata.c src/perf/perfdata_read.c src/perf/symbols.c src/perf/report.c src/perf/outfile.c src/perf/resolve.c src/perf/hist.c src/perf/callgraph.c src/perf/flamegraph.c src/perf/branch.c src/perf/header.c src/perf/unwind.c"
SAN="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
FLAGS="-std=gnu11 -Wall -Wextra -Werror -Iinclude"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0

pass() { echo "PASS perfdata $1"; }
fail() { echo "FAIL perfdata $1: $2"; }

# shellcheck disable=SC2086
if $CC $FLAGS $SAN -o "$out/perfdata_test" tests/unit/perfdata_test.c $SRC -lelf -ldw -liberty >&2; then
	"$out/perfdata_test" "$out" | sed 's/^\(PASS\|FAIL\) perfdata-unit /\1 perfdata unit-/'
else
	fail unit-build "see stderr"
fi
# shellcheck disable=SC2086
if ! $CC $FLAGS $SAN -o "$out/pdtool" $T/pdtool.c $SRC -lelf -ldw -liberty >&2; then
	fail pdtool-build "see stderr"; exit 0
fi
if ! command -v $XCC >/dev/null; then
	fail guest-build "$XCC not installed"; exit 0
fi
prog=$out/hot
if ! $XCC -static -O2 -g -fno-omit-frame-pointer -o "$prog" $T/hot.c >&2; then
	fail guest-build "see stderr"; exit 0
fi
pdtool=$out/pdtool

# Function ranges from the symbol table, return addresses from the
# disassembly: the instruction after each call.
sym_range() {	# NAME -> "start end" in hex
	riscv64-linux-gnu-nm -S "$prog" | awk -v n="$1" '$4 == n && ($3 == "T" || $3 == "t") { print $1, $2; exit }' |
		{ read -r a s && [ -n "$s" ] && printf '%x %x\n' $((0x$a)) $((0x$a + 0x$s)); }
}
ret_after() {	# FUNC CALLEE -> the return address of FUNC's call to CALLEE
	riscv64-linux-gnu-objdump -d --no-show-raw-insn "$prog" --disassemble="$1" |
		awk -v c="<$2>" '$NF == c { call = 1; next } call && /^ *[0-9a-f]+:/ { sub(":", "", $1); print $1; exit }'
}
set -- $(sym_range hot) $(sym_range cold)
hot_lo=$1 hot_hi=$2 cold_lo=$3 cold_hi=$4
ra_caller=$(ret_after caller hot) ra_main_c=$(ret_after main caller) ra_main_k=$(ret_after main cold)
if [ -z "$hot_hi" ] || [ -z "$cold_hi" ] || [ -z "$ra_caller" ] || [ -z "$ra_main_c" ] || [ -z "$ra_main_k" ]; then
	fail guest-symbols "hot '$hot_lo-$hot_hi' cold '$cold_lo-$cold_hi' ra '$ra_caller $ra_main_c $ra_main_k'"
	exit 0
fi
echo "hot $hot_lo-$hot_hi cold $cold_lo-$cold_hi ra $ra_caller $ra_main_c $ra_main_k" >&2
args="$hot_lo $hot_hi $cold_lo $cold_hi $ra_caller $ra_main_c $ra_main_k"
data=$out/hot.data
# shellcheck disable=SC2086
if "$pdtool" gen "$data" "$prog" 1000 $args --pcs "$out/pcs.txt" >&2 &&
   "$pdtool" gen "$out/multi.data" "$prog" 200 $args --multi >&2 &&
   "$pdtool" gen "$out/small.data" "$prog" 30 $args >&2 &&
   "$pdtool" gen "$out/small-br.data" "$prog" 10 $args --multi >&2 &&
   "$pdtool" gen "$out/kernel.data" "$prog" 200 $args --kernel >&2; then
	pass write
else
	fail write "pdtool gen failed"; exit 0
fi

# "PCT SYMBOL" rows of a perf-style table (perf's or ours)
rows() { awk '$1 ~ /^[0-9.]+%$/ && $(NF-1) == "[.]" { sub("%", "", $1); print $1, $NF }'; }
within() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.5 && d > -0.5) }'; }

# 1. Debian's perf
if command -v perf >/dev/null; then
	if perf report -i "$data" --stdio --no-children --sort sym -g none \
		> "$out/perf-report.txt" 2> "$out/perf-report.err"; then
		rows < "$out/perf-report.txt" > "$out/perf-rows.txt"
		set -- $(head -n 2 "$out/perf-rows.txt")
		if [ "$2" = hot ] && within "$1" 90 && [ "$4" = cold ] && within "$3" 10; then
			pass perf-report
		else
			fail perf-report "top rows '$*' (want hot 90%, cold 10%)"
		fi
	else
		fail perf-report "perf report exited non-zero: $(head -c 300 "$out/perf-report.err")"
	fi
	# perf script: one block per sample, the sampled frame first
	if perf script -i "$data" > "$out/perf-script.txt" 2> "$out/perf-script.err"; then
		awk 'BEGIN { RS = "" } { split($0, l, "\n"); split(l[2], f, " ");
			sub(/\+0x[0-9a-f]+$/, "", f[2]); n[f[2]]++ }
			END { print n["hot"] + 0, n["cold"] + 0, NR }' "$out/perf-script.txt" > "$out/perf-script.cnt"
		read -r nh nc nt < "$out/perf-script.cnt"
		if [ "$nh" = 900 ] && [ "$nc" = 100 ] && [ "$nt" = 1000 ]; then
			pass perf-script
		else
			fail perf-script "hot $nh cold $nc of $nt samples"
		fi
		# the call chains perf resolved, folded root first
		awk 'BEGIN { RS = "" } { n = split($0, l, "\n"); s = "";
			for (i = n; i >= 2; i--) { split(l[i], f, " "); sub(/\+0x[0-9a-f]+$/, "", f[2]);
				s = s (s == "" ? "" : ";") f[2] } c[s]++ }
			END { for (k in c) print k, c[k] }' "$out/perf-script.txt" | sort > "$out/perf-folded.txt"
	else
		fail perf-script "perf script exited non-zero: $(head -c 300 "$out/perf-script.err")"
	fi
	want=$(riscv64-linux-gnu-readelf -n "$prog" | awk '/Build ID/ { print $3 }')
	got=$(perf buildid-list -i "$data" 2>/dev/null | awk -v p="$prog" '$2 == p { print $1 }')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then pass perf-buildid
	else fail perf-buildid "perf sees '$got', readelf '$want'"; fi
	perf report -i "$data" --header-only > "$out/perf-header.txt" 2>&1
	if grep -q '^# arch : riscv64$' "$out/perf-header.txt" &&
	   grep -q "^# cmdline : rvpmu record -- $prog" "$out/perf-header.txt" &&
	   grep -q '^# event : name = cycles,' "$out/perf-header.txt"; then pass perf-header
	else fail perf-header "arch/cmdline/event missing from perf report --header-only"; fi
	# two events and branch stacks
	if perf script -i "$out/multi.data" -F event,ip,brstack > "$out/perf-br.txt" 2> "$out/perf-br.err" &&
	   grep -q "0x$(printf %x $((0x$ra_caller - 4)))/0x$hot_lo/P/-/-/12/CALL" "$out/perf-br.txt" &&
	   grep -q "/0x$ra_caller/M/-/-/3/RET" "$out/perf-br.txt" &&
	   [ "$(grep -c 'instructions:' "$out/perf-br.txt")" = 100 ] &&
	   [ "$(grep -c 'cycles:' "$out/perf-br.txt")" = 200 ]; then
		pass perf-branch-stack
	else
		fail perf-branch-stack "perf script -F brstack of multi.data: $(head -c 300 "$out/perf-br.err")"
	fi
else
	fail perf "perf not installed (apt-get install linux-perf)"
fi

# 2. rvpmu's reader and report
if "$pdtool" report "$data" > "$out/rv-report.txt" 2> "$out/rv-report.err"; then
	rows < "$out/rv-report.txt" > "$out/rv-rows.txt"
	set -- $(head -n 2 "$out/rv-rows.txt")
	if [ "$2" = hot ] && within "$1" 90 && [ "$4" = cold ] && within "$3" 10; then
		pass report-sym
	else
		fail report-sym "top rows '$*'"
	fi
	if [ -s "$out/perf-rows.txt" ] && cmp -s "$out/perf-rows.txt" "$out/rv-rows.txt"; then
		pass report-sym-matches-perf
	else
		fail report-sym-matches-perf "rows differ from perf's (see $out/rv-rows.txt)"
	fi
else
	fail report-sym "exited non-zero: $(cat "$out/rv-report.err")"
fi
# source lines: addr2line on the very pcs written
riscv64-linux-gnu-addr2line -e "$prog" $(cat "$out/pcs.txt") |
	sed 's#.*/##; s# (discriminator.*##' | sort | uniq -c | awk '{ print $2, $1 }' | sort > "$out/a2l.txt"
"$pdtool" report "$data" --sort srcline 2> "$out/rv-src.err" |
	awk '$1 ~ /%$/ { print $3, $2 }' | sort > "$out/rv-src.txt"
if [ -s "$out/a2l.txt" ] && grep -q '^hot\.c:[0-9]' "$out/rv-src.txt" && cmp -s "$out/a2l.txt" "$out/rv-src.txt"; then
	pass report-srcline
else
	fail report-srcline "differs from addr2line: $(diff "$out/a2l.txt" "$out/rv-src.txt" | head -n 4 | tr '\n' ' ')"
fi
set -- $("$pdtool" report "$data" --sort dso 2>/dev/null | awk '$1 ~ /%$/ { print $1, $3 }')
if [ "$*" = "100.00% hot" ]; then pass report-dso; else fail report-dso "'$*'"; fi
"$pdtool" dump "$data" > "$out/dump.txt" 2>&1
if grep -q '^arch: riscv64$' "$out/dump.txt" && grep -q "^buildid: $want $prog\$" "$out/dump.txt" &&
   grep -q "^cmdline: rvpmu record -- $prog\$" "$out/dump.txt" && grep -q '^samples: 1000$' "$out/dump.txt"; then
	pass reader-features
else
	fail reader-features "$(tr '\n' ' ' < "$out/dump.txt" | head -c 300)"
fi
"$pdtool" dump "$out/multi.data" > "$out/dump-multi.txt" 2>&1
if grep -q '^samples: 300$' "$out/dump-multi.txt" && grep -q '^branches: 600$' "$out/dump-multi.txt" &&
   grep -q "^branch1: 0x$(printf %x $((0x$hot_hi - 2)))->0x$ra_caller mispred=1 predicted=0 cycles=3 type=6\$" "$out/dump-multi.txt"; then
	pass reader-branch-stack
else
	fail reader-branch-stack "$(tr '\n' ' ' < "$out/dump-multi.txt" | head -c 300)"
fi

# 3. call chains as folded stacks: from the construction, and as perf sees them
"$pdtool" report "$data" --folded 2> "$out/rv-folded.err" | sort > "$out/rv-folded.txt"
printf 'main;caller;hot 900\nmain;cold 100\n' | sort > "$out/want-folded.txt"
if cmp -s "$out/want-folded.txt" "$out/rv-folded.txt"; then pass report-folded
else fail report-folded "got '$(tr '\n' '|' < "$out/rv-folded.txt")'"; fi
if [ -s "$out/perf-folded.txt" ] && cmp -s "$out/perf-folded.txt" "$out/rv-folded.txt"; then
	pass report-folded-matches-perf
else
	fail report-folded-matches-perf "perf's chains '$(tr '\n' '|' < "$out/perf-folded.txt" 2>/dev/null)'"
fi

# 4. flame graph: well-formed, self-contained, the hot frame with its share
svg=$out/hot.svg
rm -f "$svg"
"$pdtool" report "$data" --flamegraph "$svg" 2> "$out/fg.err"
if python3 - "$svg" <<'EOF' >&2
import re, sys, xml.etree.ElementTree as ET
path = sys.argv[1]
text = open(path).read()
root = ET.parse(path).getroot()
ns = '{http://www.w3.org/2000/svg}'
assert root.tag == ns + 'svg', root.tag
titles = {g.find(ns + 'title').text: g for g in root.iter(ns + 'g') if g.get('class') == 'f'}
hot = [t for t in titles if t.startswith('hot (')]
assert hot == ['hot (900 samples, 90.00%)'], list(titles)
assert 'cold (100 samples, 10.00%)' in titles, list(titles)
w = float(titles[hot[0]].find(ns + 'rect').get('width'))
full = float(titles['all (1000 samples, 100.00%)'].find(ns + 'rect').get('width'))
assert abs(w / full - 0.9) < 0.001, (w, full)
assert root.find(ns + 'script') is not None and root.find(ns + 'style') is not None
# nothing fetched from elsewhere: no links, no external script or style
body = text.replace('xmlns="http://www.w3.org/2000/svg"', '')
for bad in ('href', 'src=', 'url(', '@import', 'http:', 'https:', '<image', '<foreignObject'):
    assert bad not in body, bad
EOF
then pass flamegraph-svg; else fail flamegraph-svg "see stderr"; fi
if command -v node >/dev/null; then
	r=$(node $T/fgzoom.js "$svg" caller hot cold 2>&1)
	if [ "$r" = ok ]; then pass flamegraph-zoom; else fail flamegraph-zoom "$r"; fi
else
	echo "perfdata: node not installed: flamegraph-zoom not run" >&2
fi

# 5. damaged input: every truncation and five byte patterns at every
# offset of two small files, under ASan/UBSan
for f in small small-br; do
	r=$("$pdtool" mutate "$out/$f.data" 2> "$out/mutate-$f.err")
	case $r in
	"mutate ok "*) pass "bad-input-$f" ;;
	*) fail "bad-input-$f" "$(tail -n 3 "$out/mutate-$f.err" | tr '\n' ' ' | head -c 300)" ;;
	esac
done
head -c 5000 "$data" > "$out/trunc.data"
"$pdtool" report "$out/trunc.data" > /dev/null 2> "$out/trunc.err"; rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$out/trunc.err")" = 1 ] && grep -q '^rvpmu report: .*trunc.data: ' "$out/trunc.err"; then
	pass bad-input-report-truncated
else
	fail bad-input-report-truncated "exit $rc, '$(cat "$out/trunc.err")'"
fi
"$pdtool" report "$prog" > /dev/null 2> "$out/notperf.err"; rc=$?
if [ $rc = 1 ] && grep -q 'bad magic' "$out/notperf.err"; then pass bad-input-not-perf-data
else fail bad-input-not-perf-data "exit $rc, '$(cat "$out/notperf.err")'"; fi

# kernel-mode samples: [k], in no mapping (the file has no kernel MMAP)
# so "[unknown]", as perf shows them (rvpmu has no kernel symbols: the
# address stays, in perf's form)
"$pdtool" report "$out/kernel.data" --sort dso,sym > "$out/kernel-rv.txt" 2>&1
krow=$(grep '\[k\]' "$out/kernel-rv.txt" | tr -s ' ')
if [ "$krow" = " 5.00% 10 [unknown] [k] 0xffffffff80001000" ]; then
	pass "report: kernel samples [k] 0xffffffff80001000 in [unknown]"
else
	fail "report: kernel samples" "'$krow'"
fi
if command -v perf >/dev/null; then
	pk=$(perf report -i "$out/kernel.data" --stdio --no-children -n --sort dso,sym 2>/dev/null | grep '\[k\]' | tr -s ' ' | cut -d' ' -f2-4,5)
	[ "$pk" = "5.00% 10 [unknown] [k]" ] && pass "report: perf shows them alike" ||
		fail "report: perf's kernel samples" "'$pk'"
fi
exit 0
