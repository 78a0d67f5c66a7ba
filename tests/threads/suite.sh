#!/bin/sh
# Threads in user mode (docs/architecture.md, "Threads and processes"):
# pthreads, futex and the thread calls, C++ threads, OpenMP, a kernel
# with known per-thread checksums, each compared with qemu-riscv64 (and
# the kernel with a host build of itself) on 1, 2 and 4 modelled harts;
# what a program sees of the harts, deadlock diagnosis, time slices on
# one hart, and determinism (the same counts every run, with and without
# block translation and the models). One line per check: "PASS threads
# NAME" / "FAIL threads NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/threads
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
CXX=${CROSS_CXX:-riscv64-linux-gnu-g++}
QEMU=${QEMU:-qemu-riscv64}
T=${GUEST_TIMEOUT:-60}
ulimit -c 0 2>/dev/null
O=$out/stdout E=$out/stderr

ok() { echo "PASS threads $1"; }
no() { echo "FAIL threads $1: $2"; sed "s/^/[threads $1] /" "$E" | head -n 5 >&2; }

if [ ! -x "$RVPMU" ]; then
	echo "FAIL threads rvpmu: $RVPMU not built"
	exit 0
fi
# build NAME: progs from NAME.c or NAME.cc, static
build() {
	src=$here/$1.c flags="-pthread"
	[ -f "$src" ] || src=$here/$1.cc
	[ "$1" = omp ] && flags=-fopenmp
	bin=$out/$1
	{ [ -f "$bin" ] && [ "$bin" -nt "$src" ]; } && return 0
	case $src in
	*.cc) $CXX -static -O2 $flags -o "$bin" "$src" ;;
	*) $CC -static -O2 $flags -o "$bin" "$src" 2>"$out/$1.build" ;;
	esac || { echo "FAIL threads build-$1: does not build"; return 1; }
}

# rv ARGS...: rvpmu run ARGS; sets rc, output in $O and $E
rv() {
	timeout "$T" "$RVPMU" run "$@" </dev/null >"$O" 2>"$E"
	rc=$?
}

# --- against qemu-riscv64 (and for the kernel a host build): stdout and
# exit status alike on 1, 2 and 4 harts
for p in pthreads futex cxx_threads omp kernel; do
	build $p || continue
	timeout "$T" "$QEMU" "$out/$p" </dev/null >"$out/$p.qemu" 2>/dev/null
	q=$?
	for c in 1 2 4; do
		rv --cpus $c "$out/$p"
		if [ "$rc" != "$q" ]; then no "$p-cpus$c" "exit $rc, qemu $q"
		elif ! cmp -s "$O" "$out/$p.qemu"; then
			no "$p-cpus$c" "stdout differs from qemu's: $(diff "$O" "$out/$p.qemu" | head -n 3 | tr '\n' '|')"
		else ok "$p-cpus$c"; fi
	done
done
if cc -O2 -pthread -o "$out/kernel.host" "$here/kernel.c" 2>/dev/null && "$out/kernel.host" >"$out/kernel.host.out"; then
	rv --cpus 4 "$out/kernel"
	cmp -s "$O" "$out/kernel.host.out" && ok kernel-checksums-host ||
		no kernel-checksums-host "$(diff "$O" "$out/kernel.host.out" | head -n 2 | tr '\n' '|')"
else
	echo "FAIL threads kernel-checksums-host: no host build"
fi

# --- the harts a program sees (harts.c: ok/not ok lines)
build harts && for c in 1 3 4; do
	rv --cpus $c "$out/harts" $c
	sed -n "s/^ok \(.*\)$/PASS threads harts$c-\1/p; s/^not ok \([^:]*\): \(.*\)$/FAIL threads harts$c-\1: \2/p" "$O"
	[ "$rc" = 0 ] && grep -qx 'ALL OK' "$O" && ok "harts$c-complete" || no "harts$c-complete" "exit $rc"
done
rv --cpus 0 "$out/harts"
[ "$rc" = 2 ] && grep -q "^rvpmu run: --cpus: '0' is out of range (1..32)$" "$E" && ok cpus-0-refused || no cpus-0-refused "exit $rc"
rv --cpus 33 "$out/harts"
[ "$rc" = 2 ] && grep -q "out of range" "$E" && ok cpus-33-refused || no cpus-33-refused "exit $rc"

# --- --max-mem bounds the process, whichever hart's thread maps
build memlimit && {
	rv --max-mem 200 --cpus 1 "$out/memlimit"
	one=$(cat "$O")
	rv --max-mem 200 --cpus 4 "$out/memlimit"
	four=$(cat "$O")
	m=$(echo "$one" | sed -n 's/^mapped \([0-9]*\) MiB$/\1/p')
	if [ -n "$m" ] && [ "$m" -gt 100 ] && [ "$m" -lt 200 ] && [ "$one" = "$four" ]; then ok max-mem-shared
	else no max-mem-shared "1 hart '$one', 4 harts '$four'"; fi
}

# --- a deadlock ends the run (exit 125) with a line per waiting thread
build deadlock && for c in 1 2; do
	rv --cpus $c "$out/deadlock"
	if [ "$rc" != 125 ]; then no "deadlock-cpus$c" "exit $rc, expected 125"
	elif ! grep -q '^rvpmu: .*/deadlock: deadlock: every thread waits and nothing can wake one$' "$E" ||
	     [ "$(grep -c '^rvpmu:   thread 100[012] (deadlock) of process 1000 waits for a futex at 0x' "$E")" != 3 ]; then
		no "deadlock-cpus$c" "diagnosis: $(head -c 300 "$E" | tr '\n' '|')"
	else ok "deadlock-cpus$c"; fi
done

# --- two threads spinning on a plain variable: one hart must slice them
build pingpong && for c in 1 2; do
	rv --cpus $c "$out/pingpong"
	[ "$rc" = 0 ] && [ "$(cat "$O")" = "token 10" ] && ok "pingpong-cpus$c" || no "pingpong-cpus$c" "exit $rc: $(head -c 80 "$O")"
done

# --- determinism: the same counts every run, translated or not, with the
# models or without
# rvpmu stat -o starts its file as perf stat -o does ("# started on
# DATE" and a blank line): the rows alone are left
strip_started() {
	sed -i '/^# started on /d; /^$/d' "$1"
}
count() {  # count NAME ARGS...: instructions,cycles of rvpmu stat into $out/NAME
	n=$1
	shift
	timeout "$T" "$RVPMU" stat -q -x, -e instructions,cycles -o "$out/$n.csv" "$@" </dev/null >/dev/null 2>"$E"
	strip_started "$out/$n.csv"
	cut -d, -f1 "$out/$n.csv" 2>/dev/null | tr '\n' ' '
}
for prof in "--no-uarch" "--profile u74"; do
	a=$(count det1 $prof --cpus 4 "$out/kernel") b=$(count det2 $prof --cpus 4 "$out/kernel")
	c=$(count det3 $prof --no-jit --cpus 4 "$out/kernel")
	name=deterministic-$(echo "$prof" | tr -d ' -')
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ]; then ok "$name"
	else no "$name" "counts '$a', '$b', --no-jit '$c'"; fi
done
a=$(count det4 --cpus 2 "$out/pthreads") b=$(count det5 --cpus 2 --no-jit "$out/pthreads")
[ -n "$a" ] && [ "$a" = "$b" ] && ok deterministic-pthreads || no deterministic-pthreads "'$a' and --no-jit '$b'"
# --- counting as perf does: the whole process by default (inherit),
# --per-thread, -A over the harts, --no-inherit the first thread. The
# kernel with no checksum rounds: thread i's counted loop is 3 * (i + 1)
# * 100000 instructions, everything else the same for each thread.
stat_csv() {  # stat_csv NAME ARGS...: rvpmu stat -x, into $out/NAME.csv
	n=$1
	shift
	timeout "$T" "$RVPMU" stat -q -x, -o "$out/$n.csv" "$@" </dev/null >/dev/null 2>"$E" &&
		strip_started "$out/$n.csv"
}
if stat_csv tot -e instructions:u --cpus 2 "$out/kernel" 4 0 &&
   stat_csv thr --per-thread -e instructions:u --cpus 2 "$out/kernel" 4 0 &&
   stat_csv cpu -A -e instructions:u --cpus 2 "$out/kernel" 4 0 &&
   stat_csv first --no-inherit -e instructions:u --cpus 2 "$out/kernel" 4 0 &&
   stat_csv thr1 -i --per-thread -e instructions:u --cpus 2 "$out/kernel" 4 0; then
	tot=$(cut -d, -f1 "$out/tot.csv")
	# kernel-TID,COUNT,...: by thread, the counted loop's steps apart
	steps=$(sort -t, -k1,1 "$out/thr.csv" | awk -F, '
		{ split($1, w, "-"); tid[NR] = w[2]; v[NR] = $2; sum += $2 }
		END { for (i = 3; i <= NR; i++) printf "%d ", v[i] - v[i - 1]; printf "%d %s", sum, tid[1] }')
	[ "$steps" = "300000 300000 300000 $tot 1000" ] && [ "$(wc -l <"$out/thr.csv")" = 5 ] &&
		[ "$(cut -d- -f1 "$out/thr.csv" | sort -u)" = kernel ] && ok stat-per-thread ||
		no stat-per-thread "total $tot, by thread: $(tr '\n' '|' <"$out/thr.csv")"
	sum=$(awk -F, '{ s += $2 } END { print s }' "$out/cpu.csv")
	[ "$(cut -d, -f1 "$out/cpu.csv" | tr '\n' ' ')" = "CPU0 CPU1 " ] && [ "$sum" = "$tot" ] && ok stat-per-cpu ||
		no stat-per-cpu "total $tot, by hart: $(tr '\n' '|' <"$out/cpu.csv")"
	main=$(sed -n 's/^kernel-1000,\([0-9]*\),.*/\1/p' "$out/thr.csv")
	[ -n "$main" ] && [ "$(cut -d, -f1 "$out/first.csv")" = "$main" ] && [ "$main" -lt "$tot" ] &&
		[ "$(cut -d, -f1,2 "$out/thr1.csv")" = "kernel-1000,$main" ] && ok stat-no-inherit ||
		no stat-no-inherit "first thread $main: $(tr '\n' '|' <"$out/first.csv") -i --per-thread: $(tr '\n' '|' <"$out/thr1.csv")"
else
	no stat-split "rvpmu stat failed: $(head -c 200 "$E")"
fi
# the table and JSON layouts of perf 6.1's --per-thread and -A
if timeout "$T" "$RVPMU" stat -q --per-thread -e instructions --cpus 2 "$out/kernel" 2 0 </dev/null >/dev/null 2>"$O" &&
   timeout "$T" "$RVPMU" stat -q -A -j -e instructions --cpus 2 "$out/kernel" 2 0 </dev/null >/dev/null 2>"$E"; then
	grep -Eq '^          kernel-1000    {1,18}[0-9,]+      instructions ' "$O" &&
		[ "$(grep -c '^          kernel-100[0-2]  ' "$O")" = 3 ] && ok stat-per-thread-table ||
		no stat-per-thread-table "$(head -n 6 "$O" | tr '\n' '|')"
	[ "$(grep -c '^{"cpu" : "[01]", "counter-value" : "[0-9]*\.000000", "unit" : "", "event" : "instructions", ' "$E")" = 2 ] &&
		ok stat-per-cpu-json || no stat-per-cpu-json "$(head -c 300 "$E")"
else
	no stat-split-layouts "exit status $?"
fi
# -I with --per-thread or -A: each interval's rows by thread and by hart
# add up to its row without them (per event); perf 6.1's -I headers for
# each; --metric-only by thread or hart: a row each, its IPC its own
# counts' (the -x, rows of the same split without --metric-only)
EV2=instructions,cycles
if stat_csv iv -I 1 -e $EV2 --cpus 2 "$out/kernel" 4 0 && stat_csv ivt -I 1 --per-thread -e $EV2 --cpus 2 "$out/kernel" 4 0 &&
   stat_csv iva -I 1 -A -e $EV2 --cpus 2 "$out/kernel" 4 0; then
	whole=$(awk -F, '{ print $1, $4, $2 }' "$out/iv.csv" | sort)
	byt=$(awk -F, '{ s[$1 " " $5] += $3 } END { for (k in s) print k, s[k] }' "$out/ivt.csv" | sort)
	bya=$(awk -F, '{ s[$1 " " $5] += $3 } END { for (k in s) print k, s[k] }' "$out/iva.csv" | sort)
	n=$(wc -l <"$out/iv.csv")
	[ "$n" -ge 4 ] && [ "$byt" = "$whole" ] && [ "$bya" = "$whole" ] &&
		[ "$(wc -l <"$out/iva.csv")" = $((n * 2)) ] && ok "stat-interval-split-sums ($((n / 2)) intervals)" ||
		no stat-interval-split-sums "$n rows; whole: $(echo "$whole" | tr '\n' '|') by thread: $(echo "$byt" | tr '\n' '|') by hart: $(echo "$bya" | tr '\n' '|')"
else
	no stat-interval-split-sums "rvpmu stat failed: $(head -c 200 "$E")"
fi
if timeout "$T" "$RVPMU" stat -q -I 1 --per-thread -e instructions --cpus 2 "$out/kernel" 2 0 </dev/null >/dev/null 2>"$O" &&
   timeout "$T" "$RVPMU" stat -q -I 1 -A -e instructions --cpus 2 "$out/kernel" 2 0 </dev/null >/dev/null 2>"$E"; then
	[ "$(head -n 1 "$O")" = "#           time             comm-pid                  counts unit events" ] &&
		grep -Eq '^ +0\.[0-9]{9}           kernel-1000    {1,18}[0-9,]+      instructions ' "$O" &&
		[ "$(head -n 1 "$E")" = "#           time CPU                    counts unit events" ] &&
		grep -Eq '^ +0\.[0-9]{9} CPU1    {1,18}[0-9,]+      instructions ' "$E" && ok stat-interval-split-table ||
		no stat-interval-split-table "$(head -n 2 "$O" | tr '\n' '|') $(head -n 2 "$E" | tr '\n' '|')"
else
	no stat-interval-split-table "rvpmu stat failed"
fi
if stat_csv mot --metric-only --per-thread -e $EV2 --cpus 2 "$out/kernel" 4 0 &&
   stat_csv ct --per-thread -e $EV2 --cpus 2 "$out/kernel" 4 0 &&
   stat_csv moa -I 1 --metric-only -A -e $EV2 --cpus 2 "$out/kernel" 4 0 &&
   timeout "$T" "$RVPMU" stat -q -I 1 --metric-only -A -e $EV2 --cpus 2 "$out/kernel" 4 0 </dev/null >/dev/null 2>"$O"; then
	# comm-tid,IPC from the counts: instructions / cycles to 2 places
	want=$(awk -F, '$4 == "instructions" { i[$1] = $2 } $4 == "cycles" { c[$1] = $2 }
		END { for (t in i) printf "%s,%.2f\n", t, i[t] / c[t] }' "$out/ct.csv" | sort)
	got=$(sed 1d "$out/mot.csv" | cut -d, -f1,2 | sort)
	[ "$(head -n 1 "$out/mot.csv")" = "comm-pid,insn per cycle,Ghz," ] && [ "$(echo "$got" | wc -l)" = 5 ] &&
		[ "$got" = "$want" ] && ok stat-metric-only-per-thread ||
		no stat-metric-only-per-thread "$(tr '\n' '|' <"$out/mot.csv"), want $(echo "$want" | tr '\n' '|')"
	iv=$(cut -d, -f1 "$out/iv.csv" | sort -u | wc -l)
	[ "$(head -n 1 "$out/moa.csv")" = " time,cpu,insn per cycle,Ghz," ] &&
		[ "$(sed 1d "$out/moa.csv" | cut -d, -f2 | sort | uniq -c | awk '{ printf "%s %s,", $2, $1 }')" = "CPU0 $iv,CPU1 $iv," ] &&
		grep -q '^#           time CPU           insn per cycle ' "$O" && ok stat-metric-only-per-cpu-interval ||
		no stat-metric-only-per-cpu-interval "$iv intervals: $(head -n 3 "$out/moa.csv" | tr '\n' '|') $(head -n 2 "$O" | tr '\n' '|')"
else
	no stat-metric-only-split "rvpmu stat failed: $(head -c 200 "$E")"
fi
# elapsed time is the busiest hart's cycles, user time every hart's
# (virt runs at 1 GHz: a cycle is a nanosecond)
if timeout "$T" "$RVPMU" stat -q -A -e cycles --cpus 2 "$out/kernel" 4 1000 </dev/null >/dev/null 2>"$O"; then
	c=$(sed -n 's/^CPU[01] *\([0-9,]*\) *cycles.*/\1/p' "$O" | tr -d , | sort -n | tr '\n' ' ')
	el=$(sed -n 's/^ *0\.\([0-9]*\) seconds time elapsed.*/\1/p' "$O" | sed 's/^0*//')
	us=$(sed -n 's/^ *0\.\([0-9]*\) seconds user$/\1/p' "$O" | sed 's/^0*//')
	set -- $c
	[ $# = 2 ] && [ "$el" = "$2" ] && [ "$us" = $(($1 + $2)) ] && ok stat-elapsed-harts ||
		no stat-elapsed-harts "harts' cycles '$c', elapsed '$el' ns, user '$us' ns"
else
	no stat-elapsed-harts "rvpmu stat failed"
fi
# --per-thread lists 256 threads and says so; the total counts them all
build many && {
	stat_csv many --per-thread -e instructions "$out/many"
	r=$?
	lines=$(wc -l <"$out/many.csv") said=$(cat "$E")
	stat_csv many2 -e instructions "$out/many"
	sum=$(awk -F, '{ s += $2 } END { print s }' "$out/many.csv") tot=$(cut -d, -f1 "$out/many2.csv")
	[ "$r" = 0 ] && [ "$lines" = 256 ] &&
		[ "$said" = "rvpmu stat: --per-thread lists the first 256 threads only" ] &&
		[ -n "$tot" ] && [ "$sum" -lt "$tot" ] && ok stat-per-thread-limit ||
		no stat-per-thread-limit "exit $r, $lines rows, their sum $sum of $tot"
}
# perf's software events per thread and per hart: a worker's first
# touches of 64 fresh pages and its 3 sleeps are its own; a fork child
# faults on the pages its parent never touched, not on those it did
# (fork copies what demand paging left absent); the rows add up
build swevents && {
	rv --cpus 2 "$out/swevents"
	printf '%s\n' "worker touched 64 pages: at least 64 faults: yes" \
		"child: sum 2016, no fault on the parent's pages: yes, one on each untouched page: yes" >"$out/swevents.want"
	[ "$rc" = 0 ] && cmp -s "$O" "$out/swevents.want" && ok swevents-run ||
		no swevents-run "exit $rc: $(tr '\n' '|' <"$O")"
	EVS=page-faults,context-switches
	if stat_csv swt --per-thread -e $EVS --cpus 2 "$out/swevents" &&
	   stat_csv swa -A -e $EVS --cpus 2 "$out/swevents" && stat_csv sw -e $EVS --cpus 2 "$out/swevents"; then
		tot=$(cut -d, -f1 "$out/sw.csv" | tr '\n' ' ')
		byt=$(awk -F, '{ s[$4] += $2 } END { printf "%d %d ", s["page-faults"], s["context-switches"] }' "$out/swt.csv")
		byc=$(awk -F, '{ s[$4] += $2 } END { printf "%d %d ", s["page-faults"], s["context-switches"] }' "$out/swa.csv")
		wf=$(sed -n 's/^swevents-1001,\([0-9]*\),,page-faults,.*/\1/p' "$out/swt.csv")
		ws=$(sed -n 's/^swevents-1001,\([0-9]*\),,context-switches,.*/\1/p' "$out/swt.csv")
		[ "$byt" = "$tot" ] && [ "$byc" = "$tot" ] && [ -n "$wf" ] && [ "$wf" -ge 64 ] && [ "$ws" = 3 ] &&
			ok "stat-swevents-split ($tot: worker $wf faults, $ws switches)" ||
			no stat-swevents-split "total '$tot', threads' '$byt', harts' '$byc', worker '$wf' '$ws'"
	else
		no stat-swevents-split "rvpmu stat failed"
	fi
}
# the program's own perf_event_open across threads and processes
# (pe_threads.c: inherit, pid, cpu, group reads, its ok/not ok lines):
# on 1, 2 and 4 harts without the models, on 2 and 4 with them (virt:
# the u74 has one counter for instructions a hart, too few to count all
# these at once, and rvpmu does not rotate a task's events)
build pe_threads && for cfg in "1 run" "2 run" "4 run" "2 stat" "4 stat"; do
	set -- $cfg
	if [ "$2" = run ]; then
		timeout "$T" "$RVPMU" run --cpus "$1" "$out/pe_threads" "$1" nomodels </dev/null >"$O" 2>"$E"
	else
		timeout "$T" "$RVPMU" stat -o /dev/null -e task-clock --cpus "$1" \
			"$out/pe_threads" "$1" models </dev/null >"$O" 2>"$E"
	fi
	rc=$? l=pe-threads-$2-cpus$1
	sed -n "s/^ok \(.*\)$/PASS threads $l: \1/p; s/^not ok \([^:]*\): \(.*\)$/FAIL threads $l: \1: \2/p" "$O"
	[ "$rc" = 0 ] && grep -qx 'info 0 failed' "$O" && ok "$l-complete" || no "$l-complete" "exit $rc"
done
# run --insn-count counts every hart's instructions, as stat does
# (stdout to /dev/null for both: glibc buffers a device and a file apart)
timeout "$T" "$RVPMU" run --cpus 4 --insn-count "$out/ic" "$out/kernel" 4 1000 </dev/null >/dev/null 2>"$E"
rc=$?
stat_csv ic -e instructions --no-uarch --cpus 4 "$out/kernel" 4 1000
ic=$(cat "$out/ic" 2>/dev/null) st=$(cut -d, -f1 "$out/ic.csv")
[ "$rc" = 0 ] && [ -n "$ic" ] && [ "$ic" = "$st" ] && ok insn-count-harts || no insn-count-harts "--insn-count '$ic', stat '$st'"
a=$(stat_csv d1 --per-thread -e instructions,cycles --profile u74 --cpus 4 "$out/kernel" && cat "$out/d1.csv")
b=$(stat_csv d2 --per-thread -e instructions,cycles --profile u74 --cpus 4 --no-jit "$out/kernel" && cat "$out/d2.csv")
[ -n "$a" ] && [ "$a" = "$b" ] && ok stat-per-thread-deterministic || no stat-per-thread-deterministic "differ"
# --- rvpmu record samples every thread on every hart: samples tagged
# with pid, tid and hart, FORK and EXIT records for each thread; rvpmu
# report splits them as Debian's perf does
rows() {  # rows FILE: the table lines of a report
	grep -v '^#' "$1" | grep .
}
if timeout "$T" "$RVPMU" record -q -c 10000 --cpus 2 -o "$out/k.data" "$out/kernel" 4 20000 </dev/null >/dev/null 2>"$E"; then
	"$RVPMU" report -i "$out/k.data" --sort comm,tid >"$out/k.tid" 2>"$E"
	tids=$(rows "$out/k.tid" | sed -n 's/.*  *\(100[0-4]\):kernel *$/\1/p' | sort | tr '\n' ' ')
	[ "$tids" = "1000 1001 1002 1003 1004 " ] && ok record-threads ||
		no record-threads "tids '$tids': $(head -c 300 "$out/k.tid" | tr '\n' '|')"
	"$RVPMU" report -i "$out/k.data" --sort cpu >"$out/k.cpu" 2>"$E"
	[ "$(rows "$out/k.cpu" | awk '{ print $2 }' | sort | tr '\n' ' ')" = "000 001 " ] && ok record-cpus ||
		no record-cpus "$(rows "$out/k.cpu" | tr '\n' '|')"
	if command -v perf >/dev/null 2>&1; then
		perf report -i "$out/k.data" --stdio --sort comm,pid 2>/dev/null >"$out/k.perf"
		"$RVPMU" report -i "$out/k.data" --sort comm,pid >"$out/k.rv" 2>"$E"
		[ -n "$(rows "$out/k.perf")" ] && [ "$(rows "$out/k.perf")" = "$(rows "$out/k.rv")" ] &&
			ok record-threads-perf || no record-threads-perf "perf: $(rows "$out/k.perf" | tr '\n' '|') rvpmu: $(rows "$out/k.rv" | tr '\n' '|')"
		perf script -i "$out/k.data" --show-task-events 2>/dev/null | grep PERF_RECORD >"$out/k.tasks"
		[ "$(grep -c 'PERF_RECORD_FORK(1000:100[1-4]):(1000:1000)' "$out/k.tasks")" = 4 ] &&
			[ "$(grep -c 'PERF_RECORD_EXIT(1000:100[0-4])' "$out/k.tasks")" = 5 ] && ok record-task-events ||
			no record-task-events "$(tr '\n' '|' <"$out/k.tasks" | head -c 400)"
	else
		no record-threads-perf "perf is not installed (scripts/setup.sh installs linux-perf)"
	fi
else
	no record-threads "rvpmu record failed: $(head -c 200 "$E")"
fi

# what follows one hart (--trace, leader sampling) is refused with more
for opt in "--trace $out/trace.txt" "-e {cycles,instructions}:S"; do
	timeout "$T" "$RVPMU" record -q --cpus 2 $opt -o "$out/x.data" "$out/kernel" 2 10 </dev/null >/dev/null 2>"$E"
	r=$?
	[ "$r" = 1 ] && grep -q '^rvpmu record: .* follows one hart: use it with --cpus 1$' "$E" &&
		ok "record-one-hart-${opt%% *}" || no "record-one-hart-${opt%% *}" "exit $r: $(head -c 200 "$E")"
done

# --- the harts' L1Ds are kept coherent: two threads writing adjacent
# words of one line take a coherence miss at each handover of the line,
# a line apart they do not (the profile's own event names)
build falseshare && for ev in virt:COHERENCE_MISSES u74:RVPMU_COHERENCE_MISSES; do
	prof=${ev%%:*} ev=${ev#*:}
	stat_csv fs1 --profile "$prof" -e "$ev" --cpus 2 "$out/falseshare" && same=$(cut -d, -f1 "$out/fs1.csv")
	stat_csv fs2 --profile "$prof" -e "$ev" --cpus 2 "$out/falseshare" apart && apart=$(cut -d, -f1 "$out/fs2.csv")
	stat_csv fs3 --profile "$prof" -e "$ev" --cpus 1 "$out/falseshare" && one=$(cut -d, -f1 "$out/fs3.csv")
	# 2 million instructions in turns of 10,000 on each hart: about 100
	# rounds, the line moving twice in each
	if [ -n "$same" ] && [ -n "$apart" ] && [ "$same" -ge $((apart + 150)) ] && [ "$one" = 0 ]; then
		ok "false-sharing-$prof"
	else no "false-sharing-$prof" "$ev: one line $same, apart $apart, one hart $one"; fi
done
RVPMU_JIT_STATS=1 timeout "$T" "$RVPMU" run --cpus 4 "$out/kernel" </dev/null >"$O" 2>"$E"
n=$(sed -n 's/^rvpmu: jit: \([0-9]*\) blocks translated.*/\1/p' "$E")
[ "${n:-0}" -gt 0 ] && ok jit-on-every-hart || no jit-on-every-hart "'$(head -c 100 "$E")'"
exit 0
