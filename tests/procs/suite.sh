#!/bin/sh
# Processes in user mode (docs/architecture.md, "Threads and processes"):
# fork, exec, posix_spawn, wait statuses, pipes between processes, shared
# anonymous memory, kill and process groups, system() and popen() through
# a small sh in a --sysroot, a pipeline of three processes, #! scripts,
# and a deadlock between processes. Each program is also built for the
# host and run natively: rvpmu's output must be the host Linux's
# (qemu-riscv64 cannot exec a riscv64 program without binfmt_misc). One
# line per check: "PASS procs NAME" / "FAIL procs NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/procs
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
T=${GUEST_TIMEOUT:-60}
QEMU=${QEMU:-qemu-riscv64}
ulimit -c 0 2>/dev/null
O=$out/stdout E=$out/stderr

ok() { echo "PASS procs $1"; }
no() { echo "FAIL procs $1: $2"; sed "s/^/[procs $1] /" "$E" | head -n 5 >&2; }

if [ ! -x "$RVPMU" ]; then
	echo "FAIL procs rvpmu: $RVPMU not built"
	exit 0
fi
# build NAME: $out/NAME (riscv64, static) and $out/NAME.host
build() {
	src=$here/$1.c
	{ [ -f "$out/$1" ] && [ "$out/$1" -nt "$src" ] && [ -f "$out/$1.host" ]; } && return 0
	$CC -static -O2 -o "$out/$1" "$src" && cc -O2 -o "$out/$1.host" "$src" ||
		{ echo "FAIL procs build-$1: does not build"; return 1; }
}
for p in procs system pipeline shm minish cat args deadpipe nosock; do build $p; done
root=$out/sysroot
rm -rf "$root" && mkdir -p "$root/bin" && cp "$out/minish" "$root/bin/sh" && cp "$out/cat" "$root/bin/cat" &&
	cp "$out/args" "$root/bin/args"

# rv ARGS...: rvpmu run ARGS; sets rc, output in $O and $E
rv() {
	timeout "$T" "$RVPMU" run "$@" </dev/null >"$O" 2>"$E"
	rc=$?
}

# --- the same output as the host's Linux, on 1 and 4 harts
for p in procs system pipeline shm; do
	(cd "$out" && timeout "$T" "./$p.host" </dev/null >"$out/$p.host.out" 2>/dev/null)
	hrc=$?
	# system() runs sh and cat from the sysroot; the others exec themselves
	sys=""
	[ $p = system ] && sys="--sysroot $root"
	for c in 1 4; do
		rv --cpus $c $sys "$out/$p"
		if [ "$rc" != "$hrc" ]; then no "$p-cpus$c" "exit $rc, on the host $hrc"
		elif ! cmp -s "$O" "$out/$p.host.out"; then
			no "$p-cpus$c" "stdout differs from the host's: $(diff "$O" "$out/$p.host.out" | head -n 3 | tr '\n' '|')"
		else ok "$p-cpus$c"; fi
	done
done

# --- a #! script: its interpreter gets interp, the optional argument,
# the script's path, then the script's arguments (fs/binfmt_script.c)
printf '#!/bin/args -x\nnot read\n' > "$root/script" && chmod +x "$root/script"
rv --sysroot "$root" "$root/bin/sh" -c "/script a1 a2"
want="argv[0] /bin/args
argv[1] -x
argv[2] /script
argv[3] a1
argv[4] a2"
[ "$rc" = 0 ] && [ "$(cat "$O")" = "$want" ] && ok script-interpreter || no script-interpreter "exit $rc: $(head -c 200 "$O" | tr '\n' '|')"
# a program that is no riscv64 executable (the host's own) is ENOEXEC
rv --sysroot "$root" "$root/bin/sh" -c "$out/args.host"
[ "$rc" = 127 ] && grep -q "not found" "$E" && ok exec-foreign-enoexec || no exec-foreign-enoexec "exit $rc"

# --- socket: EAFNOSUPPORT, and rvpmu says nothing about it
rv "$out/nosock"
[ "$rc" = 0 ] && [ "$(cat "$O")" = "socket: -1 Address family not supported by protocol" ] && [ ! -s "$E" ] &&
	ok socket-eafnosupport || no socket-eafnosupport "exit $rc: $(cat "$O") $(head -c 100 "$E")"

# --- processes that wait for each other through pipes: a deadlock
rv "$out/deadpipe"
if [ "$rc" = 125 ] && grep -q 'deadlock: every thread waits' "$E" &&
   [ "$(grep -c 'waits for a pipe the program made' "$E")" = 2 ]; then ok deadlock-pipes
else no deadlock-pipes "exit $rc: $(head -c 300 "$E" | tr '\n' '|')"; fi

# --- rvpmu stat counts the process tree (perf's inherit): system()'s sh
# and cat each get their rows by comm after exec, and they add up
timeout "$T" "$RVPMU" stat -q -x, -o "$out/all.csv" -e instructions --sysroot "$root" "$out/system" </dev/null >/dev/null 2>"$E"
timeout "$T" "$RVPMU" stat -q -x, -o "$out/thr.csv" --per-thread -e instructions --sysroot "$root" "$out/system" </dev/null >/dev/null 2>>"$E"
timeout "$T" "$RVPMU" stat -q -x, -o "$out/first.csv" -i -e instructions --sysroot "$root" "$out/system" </dev/null >/dev/null 2>>"$E"
# (-o's file starts as perf's: "# started on DATE" and a blank line)
sed -i '/^# started on /d; /^$/d' "$out/all.csv" "$out/thr.csv" "$out/first.csv"
tot=$(cut -d, -f1 "$out/all.csv") sum=$(awk -F, '{ s += $2 } END { print s }' "$out/thr.csv")
comms=$(sed 's/-[0-9]*,.*//' "$out/thr.csv" | sort -u | tr '\n' ' ')
first=$(sed -n 's/^system-1000,\([0-9]*\),.*/\1/p' "$out/thr.csv")
if [ -n "$tot" ] && [ "$sum" = "$tot" ] && [ "$comms" = "cat sh system " ] && [ "$(cut -d, -f1 "$out/first.csv")" = "$first" ]; then
	ok stat-process-tree
else no stat-process-tree "total '$tot', threads' sum '$sum', comms '$comms', -i '$(cut -d, -f1 "$out/first.csv")' vs '$first'"; fi

# --- rvpmu record across processes: a sample before an exec keeps the
# old program's name and image, after it the new one's (COMM, MMAP2 and
# FORK records), as Debian's perf reads the same file
if timeout "$T" "$RVPMU" record -q -c 2000 --cpus 2 --sysroot "$root" -o "$out/s.data" "$out/system" </dev/null >/dev/null 2>"$E"; then
	"$RVPMU" report -i "$out/s.data" --sort comm,dso >"$out/s.dso" 2>"$E"
	pairs=$(grep -v '^#' "$out/s.dso" | awk 'NF == 3 { print $2 "/" $3 }' | sort | tr '\n' ' ')
	[ "$pairs" = "cat/cat sh/sh system/system " ] && ok record-exec ||
		no record-exec "comm/dso pairs '$pairs'"
	if command -v perf >/dev/null 2>&1; then
		for k in comm,pid comm,dso; do
			perf report -i "$out/s.data" --stdio --sort $k 2>/dev/null | grep -v '^#' | grep . >"$out/s.perf"
			"$RVPMU" report -i "$out/s.data" --sort $k 2>"$E" | grep -v '^#' | grep . >"$out/s.rv"
			[ -s "$out/s.perf" ] && cmp -s "$out/s.perf" "$out/s.rv" && ok "record-exec-perf-$k" ||
				no "record-exec-perf-$k" "$(diff "$out/s.rv" "$out/s.perf" | head -n 6 | tr '\n' '|')"
		done
	else
		no record-exec-perf "perf is not installed (scripts/setup.sh installs linux-perf)"
	fi
else
	no record-exec "rvpmu record failed: $(head -c 200 "$E")"
fi

# --- determinism: the same count every run, translated or not
count() {
	timeout "$T" "$RVPMU" stat -q -x, -e instructions -o "$out/c.csv" "$@" </dev/null >/dev/null 2>"$E"
	sed '/^# started on /d; /^$/d' "$out/c.csv" 2>/dev/null | cut -d, -f1
}
a=$(count --cpus 2 "$out/pipeline") b=$(count --cpus 2 "$out/pipeline") c=$(count --cpus 2 --no-jit "$out/pipeline")
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] && grep -q "stage 2: status 5" "$out/pipeline.host.out" &&
	ok deterministic || no deterministic "'$a' '$b' --no-jit '$c'"
# --- page faults across fork and exec (execfaults.c): stat's page-faults
# for the run are the sum getrusage gives (the last image's own, kept
# across its exec, and its reaped children's), the first touches the
# kernel takes loading each exec'd image included; on 1 and 2 harts
if $CC -static -O2 -o "$out/execfaults" "$here/execfaults.c"; then
	for c in 1 2; do
		timeout "$T" "$RVPMU" stat -q -x, -e page-faults -o "$out/ef.csv" --cpus $c "$out/execfaults" \
			</dev/null >"$O" 2>"$E"
		rc=$? pf=$(sed -n 's/^\([0-9]*\),,page-faults,.*/\1/p' "$out/ef.csv")
		ru=$(sed -n 's/^faults \([0-9]*\) child \([0-9]*\)$/\1 \2/p' "$O")
		set -- $ru
		[ "$rc" = 0 ] && [ -n "$pf" ] && [ "$1" = "$pf" ] && [ "$2" -ge 40 ] &&
			ok "exec-page-faults-cpus$c ($pf)" ||
			no "exec-page-faults-cpus$c" "exit $rc, stat '$pf', getrusage '$ru' (want the same, the child's >= its 40 pages)"
	done
else
	echo "FAIL procs build-execfaults: does not build"
fi
# --- a real shell: BusyBox's ash (scripts/busybox.sh builds it from
# Debian's source) in a sysroot of applet links, running pipelines,
# command substitution, a subshell's status, a background job, a here
# document: qemu-riscv64's output on 1 and 4 harts, the same counts twice
bb=${BUSYBOX:-$BUILD/busybox/busybox}
if [ -x "$bb" ]; then
	bbroot=$out/bbroot
	rm -rf "$bbroot" && mkdir -p "$bbroot/bin" && cp "$bb" "$bbroot/bin/busybox" &&
		for a in sh cat tr wc sort head sleep; do ln -s busybox "$bbroot/bin/$a"; done
	S='echo a | cat; echo hello world | tr a-z A-Z | wc -c; x=$(echo sub); echo "got $x"
for i in 1 2 3; do echo $i; done | sort -r | head -n 2; (exit 3); echo status $?
sleep 0 & wait $!; echo waited $?
cat <<END | wc -l
one
two
END'
	PATH=/bin timeout "$T" "$QEMU" -L "$bbroot" "$bbroot/bin/sh" -c "$S" </dev/null >"$out/bb.qemu" 2>/dev/null
	q=$?
	for c in 1 4; do
		PATH=/bin rv --cpus $c --sysroot "$bbroot" "$bbroot/bin/sh" -c "$S"
		if [ "$rc" != "$q" ] || ! cmp -s "$O" "$out/bb.qemu" || [ "$(sed -n 1p "$O")" != a ]; then
			no "busybox-sh-cpus$c" "exit $rc (qemu $q): $(diff "$O" "$out/bb.qemu" | head -n 4 | tr '\n' '|')"
		else ok "busybox-sh-cpus$c"; fi
	done
	a=$(PATH=/bin count --cpus 2 --sysroot "$bbroot" "$bbroot/bin/sh" -c "$S")
	b=$(PATH=/bin count --cpus 2 --sysroot "$bbroot" "$bbroot/bin/sh" -c "$S")
	[ -n "$a" ] && [ "$a" = "$b" ] && ok busybox-deterministic || no busybox-deterministic "'$a' then '$b'"
else
	echo "SKIP procs busybox: no riscv64 busybox at $bb (scripts/busybox.sh builds one)"
fi
exit 0
