#!/bin/sh
# Results are never lost (issue 35).
# SIGINT and SIGTERM during a run, as perf treats them: the first one
# stops the guest at the run loop's next check and the subcommand still
# writes what it has (record: a complete perf.data that rvpmu report and
# Debian's perf read alike; stat: the counts so far, <not counted> where
# an event never ran), then rvpmu dies of the signal (status 130 / 143).
# A second signal ends it at once, leaving an existing output file as it
# was. run and system end promptly with 130 / 143; system gives the
# terminal back as it found it. Each guest says "running" once it runs;
# the signal comes a second after that.
# -o FILE (stat and record): a run that writes nothing leaves an
# existing FILE as it was, a write error is an error, and record keeps
# the file it replaces as FILE.old, as perf record does.
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/results"
mkdir -p "$out"
pass() { echo "PASS results $1"; }
fail() { echo "FAIL results $1: $2"; }
if [ ! -f "$out/marked" ] || [ marked.c -nt "$out/marked" ]; then
	riscv64-linux-gnu-gcc -static -O2 -g -fno-omit-frame-pointer -o "$out/marked" marked.c >&2 ||
		{ fail build "marked.c does not build"; exit 0; }
fi
if [ ! -f "$out/forever.elf" ] || [ forever.S -nt "$out/forever.elf" ]; then
	riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -nostdlib -nostartfiles \
		-Wl,--no-warn-rwx-segments -T ../bare-events/link.ld -o "$out/forever.elf" forever.S >&2 ||
		{ fail build "forever.S does not build"; exit 0; }
fi
BIG=1000000000000   # rounds of spin(): hours
log() { tr '\n' '|' < "$out/e.txt" | head -c 600; }

# start CMD...: CMD in the background (stdout $out/o.txt, stderr
# $out/e.txt, stdin $in or /dev/null), $pid its pid; returns once the
# guest said "running" (at most a minute) and a second more has passed,
# or 1 after a FAIL line ($name) when it never did
start() {
	"$@" < "${in:-/dev/null}" > "$out/o.txt" 2> "$out/e.txt" &
	pid=$!
	i=0
	until grep -q running "$out/o.txt" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 $pid 2>/dev/null; then
			kill -KILL $pid 2>/dev/null
			wait $pid 2>/dev/null
			fail "$name" "the guest never ran: $(log)"
			return 1
		fi
		sleep 0.1
	done
	sleep 1
}
# finish: wait for $pid (a minute at most: then it is killed, status 137);
# rc is its status. Returns 0: the watchdog's own status (143 when the
# TERM reached it before its trap was set) is no verdict, and returning
# it made signalled's caller skip its checks without a line.
finish() {
	(trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 60 & s=$!; wait $s; kill -KILL $pid 2>/dev/null) &
	dog=$!
	wait $pid 2>/dev/null  # the shell's "Terminated" note aside
	rc=$?
	kill $dog 2>/dev/null
	wait $dog 2>/dev/null
	return 0
}
# signalled SIG NAME CMD...: start CMD, send SIG, finish; 1 when it never ran
signalled() {
	sig=$1 name=$2
	shift 2
	start "$@" || return 1
	kill -"$sig" $pid
	finish
}
# samples N (from record's closing line in $out/e.txt)
nsamples() { sed -n 's/^\[ rvpmu record: Captured and wrote [0-9.]* MB .* (\([0-9]*\) samples) \]$/\1/p' "$out/e.txt"; }

# ---- record: SIGINT, then both readers ----
if signalled INT "record SIGINT" "$RVPMU" record -g -c 100003 -o "$out/int.data" "$out/marked" $BIG; then
	n=$(nsamples)
	if [ "$rc" = 130 ] && [ -n "$n" ] && [ "$n" -gt 0 ] &&
		grep -q "^rvpmu: .*marked: interrupted by SIGINT after [0-9]* instructions$" "$out/e.txt"; then
		pass "record SIGINT: exit 130, the closing line ($n samples)"
	else
		fail "record SIGINT" "exit $rc, samples '$n': $(log)"
	fi
	"$RVPMU" report -i "$out/int.data" --no-children --sort sym -F overhead,sample,sym > "$out/int.rep" 2>&1
	rn=$(awk '$3 == "[.]" { n += $2 } END { print n }' "$out/int.rep")
	top=$(awk '$3 == "[.]" { print $4; exit }' "$out/int.rep")
	if [ -n "$n" ] && [ "$rn" = "$n" ] && [ "$top" = spin ]; then
		pass "record SIGINT: rvpmu report reads the $n samples, spin on top"
	else
		fail "record SIGINT: rvpmu report" "samples '$rn' of '$n', top '$top': $(head -9 "$out/int.rep" | tr '\n' '|')"
	fi
	if command -v perf >/dev/null 2>&1; then
		perf report -i "$out/int.data" --stdio --no-children --sort sym -g none -F overhead,sample,sym \
			> "$out/int.perf" 2>"$out/int.perf.err"
		pn=$(awk '$3 == "[.]" { n += $2 } END { print n }' "$out/int.perf")
		ptop=$(awk '$3 == "[.]" { print $4; exit }' "$out/int.perf")
		sn=$(perf script -i "$out/int.data" 2>/dev/null | grep -c " cycles: *$")
		if [ -n "$n" ] && [ "$pn" = "$n" ] && [ "$sn" = "$n" ] && [ "$ptop" = spin ]; then
			pass "record SIGINT: perf report and perf script read the same $n samples"
		else
			fail "record SIGINT: perf" "report '$pn', script '$sn', rvpmu '$n', top '$ptop': $(head -3 "$out/int.perf.err" | tr '\n' '|')"
		fi
	else
		fail "record SIGINT: perf" "perf is not installed (scripts/setup.sh installs linux-perf)"
	fi
fi

# ---- record: SIGTERM ----
if signalled TERM "record SIGTERM" "$RVPMU" record -c 100003 -o "$out/term.data" "$out/marked" $BIG; then
	n=$(nsamples)
	"$RVPMU" report -i "$out/term.data" --no-children --sort sym -F overhead,sample,sym > "$out/term.rep" 2>&1
	rn=$(awk '$3 == "[.]" { n += $2 } END { print n }' "$out/term.rep")
	if [ "$rc" = 143 ] && [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$rn" = "$n" ]; then
		pass "record SIGTERM: exit 143, a readable file ($n samples)"
	else
		fail "record SIGTERM" "exit $rc, samples '$n', report '$rn': $(log)"
	fi
fi

# ---- a second SIGINT: at once, the old file kept ----
# --trace into a FIFO that nobody reads: rvpmu blocks writing it, before
# and after the first signal alike, so only the second can end it
rm -f "$out/trace.fifo" "$out"/two.data*
echo "the previous recording" > "$out/two.data"
mkfifo "$out/trace.fifo"
exec 3<>"$out/trace.fifo"
name="second SIGINT"
if start "$RVPMU" record -c 100003 --trace "$out/trace.fifo" -o "$out/two.data" "$out/marked" $BIG; then
	kill -INT $pid
	sleep 2
	if kill -0 $pid 2>/dev/null; then
		kill -INT $pid
		finish
		left=$(ls "$out" | grep -c '^two\.data\.')
		if [ "$rc" = 130 ] && [ "$(cat "$out/two.data")" = "the previous recording" ] && [ "$left" = 0 ]; then
			pass "a second SIGINT ends record at once (130), the old file as it was, no partial file"
		else
			fail "second SIGINT" "exit $rc, two.data: '$(head -c 40 "$out/two.data")', $left partial files"
		fi
	else
		finish
		fail "second SIGINT" "record ended after the first one (exit $rc), blocked as it was"
	fi
fi
exec 3>&-

# ---- stat: the counts so far ----
if signalled TERM "stat SIGTERM" "$RVPMU" stat -x, -e instructions,cycles,branches "$out/marked" $BIG; then
	ins=$(awk -F, '$3 == "instructions" { print $1 }' "$out/e.txt")
	after=$(sed -n 's/^rvpmu: .*: interrupted by SIGTERM after \([0-9]*\) instructions$/\1/p' "$out/e.txt")
	br=$(awk -F, '$3 == "branches" { print $1 }' "$out/e.txt")
	if [ "$rc" = 143 ] && [ -n "$after" ] && [ "$ins" = "$after" ] && [ "$br" -gt 0 ] 2>/dev/null; then
		pass "stat SIGTERM: exit 143, the counts so far ($ins instructions, as many as ran)"
	else
		fail "stat SIGTERM" "exit $rc, instructions '$ins' after '$after': $(log)"
	fi
fi
# more events than counters and a multiplexing tick that never comes:
# the events that did not fit were never counted
ev=cycles,instructions,cache-references,cache-misses,branches,branch-misses
ev=$ev,L1-dcache-loads,L1-dcache-load-misses,L1-dcache-stores,L1-dcache-store-misses
ev=$ev,L1-icache-loads,L1-icache-load-misses,LLC-loads,LLC-load-misses,LLC-stores
ev=$ev,LLC-store-misses,dTLB-loads,dTLB-load-misses,dTLB-stores,dTLB-store-misses
ev=$ev,iTLB-loads,iTLB-load-misses,loads,stores,int-mul,calls,returns,jal
if signalled INT "stat SIGINT" "$RVPMU" stat -e "$ev" --mux-interval 1000G "$out/marked" $BIG; then
	nc=$(grep -c "<not counted> *[a-zA-Z]" "$out/e.txt")
	c=$(grep -c "^ *[0-9][0-9,]* *[a-zA-Z]" "$out/e.txt")
	if [ "$rc" = 130 ] && [ "$nc" -gt 0 ] && [ "$c" -gt 0 ] && [ $((nc + c)) = 28 ] &&
		grep -q "Performance counter stats for" "$out/e.txt" &&
		grep -q "^ *[0-9][0-9,]* *instructions" "$out/e.txt"; then
		pass "stat SIGINT: exit 130, $c events counted and $nc <not counted>"
	else
		fail "stat SIGINT" "exit $rc, $c counted, $nc not: $(log)"
	fi
fi

# ---- run: promptly, also when the guest waits for input ----
if signalled INT "run SIGINT" "$RVPMU" run "$out/marked" $BIG; then
	[ "$rc" = 130 ] && grep -q "interrupted by SIGINT" "$out/e.txt" &&
		pass "run SIGINT: exit 130" || fail "run SIGINT" "exit $rc: $(log)"
fi
# marked without an argument reads stdin to its end: a FIFO whose writer
# (this shell) never writes keeps it waiting in read(2), a host call
# rvpmu makes for it, which the signal must end too
rm -f "$out/in.fifo"
mkfifo "$out/in.fifo"
exec 4<>"$out/in.fifo"
in=$out/in.fifo
if signalled TERM "run SIGTERM in read(2)" "$RVPMU" run "$out/marked"; then
	[ "$rc" = 143 ] && grep -q "interrupted by SIGTERM" "$out/e.txt" &&
		pass "run SIGTERM while the guest waits in read(2): exit 143" ||
		fail "run SIGTERM in read(2)" "exit $rc: $(log)"
fi
in=
exec 4>&-

# ---- system: promptly, the terminal as it was ----
if signalled TERM "system SIGTERM" "$RVPMU" system --bios none --kernel "$out/forever.elf"; then
	[ "$rc" = 143 ] && grep -q "interrupted by SIGTERM at pc 0x" "$out/e.txt" &&
		pass "system SIGTERM: exit 143" || fail "system SIGTERM" "exit $rc: $(log)"
fi
if command -v script >/dev/null 2>&1; then
	# on a terminal (script's), the console makes it raw for the run
	cat > "$out/tty.sh" <<EOF
stty -g > "$out/tty-before"
"$RVPMU" system --bios none --kernel "$out/forever.elf" < /dev/tty > "$out/tty-o.txt" 2>&1 &
p=\$!
i=0
until grep -q running "$out/tty-o.txt" || [ \$i -gt 600 ]; do sleep 0.1; i=\$((i + 1)); done
sleep 1
stty -g > "$out/tty-during"
kill -TERM \$p
wait \$p 2>/dev/null
echo \$? > "$out/tty-rc"
stty -g > "$out/tty-after"
EOF
	rm -f "$out/tty-rc" "$out/tty-after"
	timeout 120 script -qec "sh '$out/tty.sh'" /dev/null > /dev/null 2>&1
	if [ "$(cat "$out/tty-rc" 2>/dev/null)" = 143 ] && [ -s "$out/tty-before" ] &&
		cmp -s "$out/tty-before" "$out/tty-after" && ! cmp -s "$out/tty-before" "$out/tty-during"; then
		pass "system SIGTERM on a terminal: exit 143, raw during the run, restored after"
	else
		fail "system SIGTERM on a terminal" "exit '$(cat "$out/tty-rc" 2>/dev/null)', modes before/during/after: $(cat "$out/tty-before" "$out/tty-during" "$out/tty-after" 2>/dev/null | tr '\n' '|')"
	fi
else
	fail "system on a terminal" "script(1) (util-linux) is not installed"
fi

# ---- -o FILE ----
for cmd in stat record; do
	# nothing counted: an existing FILE stays as it was, nothing beside it
	for why in "missing program:/no-such-program" "not an ELF:marked.c" "unknown event:-e cyclse $out/marked 1"; do
		rm -f "$out"/keep*
		echo "the last output" > "$out/keep"
		# shellcheck disable=SC2086 # the arguments are meant to split
		"$RVPMU" $cmd -o "$out/keep" ${why#*:} >/dev/null 2>&1
		rc=$?
		left=$(ls "$out" | grep -c '^keep.')
		if [ "$rc" != 0 ] && [ "$(cat "$out/keep")" = "the last output" ] && [ "$left" = 0 ]; then
			pass "$cmd -o: ${why%%:*}: the old file kept"
		else
			fail "$cmd -o: ${why%%:*}" "exit $rc, keep: '$(head -c 60 "$out/keep")', $left other files"
		fi
	done
	"$RVPMU" $cmd -o /dev/full "$out/marked" 1000 >/dev/null 2>"$out/e.txt"
	rc=$?
	[ "$rc" = 1 ] && grep -qx "rvpmu $cmd: /dev/full: No space left on device" "$out/e.txt" &&
		pass "$cmd -o /dev/full: exit 1, the write error" || fail "$cmd -o /dev/full" "exit $rc: $(log)"
done
# record puts a new recording in place and keeps the one before as FILE.old
"$RVPMU" record -o "$out/keep" "$out/marked" 1000 >/dev/null 2>"$out/e.txt"
if [ "$(cat "$out/keep.old" 2>/dev/null)" = "the last output" ] &&
	"$RVPMU" report -i "$out/keep" >/dev/null 2>&1 && [ "$(ls "$out" | grep -c '^keep.')" = 1 ]; then
	pass "record -o: the new recording in place, the one before as FILE.old"
else
	fail "record -o: FILE.old" "$(log)"
fi
