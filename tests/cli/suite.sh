#!/bin/sh
# The rvpmu command line: help and version output, exit-status passthrough,
# resource limits, fatal-signal reports, and bad input of every kind (each
# must give a one-line "rvpmu: ..." error and a non-zero status, never a
# crash). Guests are the *.S / *.c files here, built into $BUILD/tests/cli.
# One line per check: "PASS cli NAME" / "FAIL cli NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/cli
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
ulimit -c 0 2>/dev/null
O=$out/stdout E=$out/stderr

if [ ! -x "$RVPMU" ]; then
	echo "FAIL cli rvpmu: $RVPMU not built"
	exit 0
fi

# a guest: NAME from NAME.S (no libc) or NAME.c (-static -O2)
guest() {
	bin=$out/$1
	for src in "$here/$1.S" "$here/$1.c"; do
		[ -f "$src" ] || continue
		[ -f "$bin" ] && [ "$bin" -nt "$src" ] && return 0
		case $src in
		*.S) $CC -static -nostdlib -o "$bin" "$src" >&2 ;;
		*) $CC -static -O2 -o "$bin" "$src" >&2 ;;
		esac
		return
	done
	return 1
}
for g in loop exit42 argc null nullc bigmalloc memlimit; do
	guest $g || echo "FAIL cli build-$g: guest does not build"
done

# rv ARGS...: run rvpmu; sets rc; output in $O and $E. A hang is killed
# (status 137), so it cannot pass as rvpmu's own limit status.
rv() {
	timeout --preserve-status -s KILL 30 "$RVPMU" "$@" </dev/null >"$O" 2>"$E"
	rc=$?
}

ok() { echo "PASS cli $1"; }
no() { echo "FAIL cli $1: $2"; sed "s/^/[cli $1] /" "$E" | head -n 5 >&2; }
nlines() { wc -l <"$1" | tr -d ' '; }
has() { grep -q -i -E -e "$2" "$1"; }

# bad NAME WORD ARGS...: an error: non-zero, not a crash, nothing on
# stdout, exactly one stderr line starting "rvpmu CMD: " for subcommand
# CMD (the first of ARGS; "rvpmu: " for an unknown one), naming WORD
bad() {
	name=$1 word=$2
	shift 2
	case $1 in
	run|stat|record|report|annotate|script|diff|buildid-list|list|system|help) prefix="rvpmu $1: " ;;
	*) prefix="rvpmu: " ;;
	esac
	rv "$@"
	if [ "$rc" = 0 ]; then
		no "$name" "exit 0, expected an error"
	elif [ "$rc" -ge 128 ]; then
		no "$name" "crashed or hung (exit $rc)"
	elif [ -s "$O" ]; then
		no "$name" "wrote to stdout"
	elif [ "$(nlines "$E")" != 1 ]; then
		no "$name" "$(nlines "$E") stderr lines, expected one"
	elif [ "$(head -c ${#prefix} "$E")" != "$prefix" ]; then
		no "$name" "error does not start with '$prefix'"
	elif grep -q -F -e "$prefix$1: " "$E"; then
		no "$name" "the subcommand named twice: $(cat "$E")"
	elif [ -n "$word" ] && ! grep -q -F -e "$word" "$E"; then
		no "$name" "error does not name '$word'"
	else
		ok "$name"
	fi
}

# patch FILE OFFSET BYTES...: overwrite bytes (given in octal escapes)
patch() {
	f=$1 at=$2
	shift 2
	printf "$*" | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null
}
u16() { od -A n -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
mangled() {	# mangled NAME: a fresh copy of exit42 to corrupt
	cp "$out/exit42" "$out/$1" && echo "$out/$1"
}

# --- help and version
rv --help
if [ "$rc" != 0 ]; then no help "exit $rc"
elif ! has "$O" '\brun\b'; then no help "does not mention 'run'"
elif [ -s "$E" ]; then no help "wrote to stderr"
else ok help; fi

rv --version
if [ "$rc" != 0 ]; then no version "exit $rc"
elif [ "$(nlines "$O")" != 1 ] ||
     ! grep -q -E '^rvpmu [0-9]+\.[0-9]+(\.[0-9]+)?([-+~][0-9A-Za-z.-]+)?$' "$O"; then
	no version "not one line 'rvpmu X.Y[.Z]': $(head -n 1 "$O")"
else ok version; fi

rv help run
if [ "$rc" != 0 ]; then no help-run "exit $rc"
elif ! has "$O" 'usage: rvpmu run' || ! has "$O" '--max-insns' || ! has "$O" '--max-mem'; then
	no help-run "no usage line or options"
else ok help-run; fi

rv
if [ "$rc" = 0 ]; then no no-command "exit 0"
elif ! has "$E" 'usage'; then no no-command "no usage on stderr"
else ok no-command; fi

bad unknown-command frobnicate frobnicate
bad help-unknown frobnicate help frobnicate

# --- run: argument handling
rv run
if [ "$rc" = 0 ] || [ "$rc" -ge 128 ]; then no run-no-program "exit $rc"
elif ! has "$E" 'usage|help run'; then no run-no-program "no usage hint"
else ok run-no-program; fi

bad run-missing-file /nonexistent/dir/prog run /nonexistent/dir/prog
bad run-unknown-option --bogus run --bogus "$out/exit42"
bad run-option-needs-value --max-insns run --max-insns

rv run "$out/exit42"
[ "$rc" = 42 ] && ok exit-status || no exit-status "exit $rc, expected 42"
rv run "$out/argc" a b c
[ "$rc" = 4 ] && ok guest-args || no guest-args "guest argc $rc, expected 4"
rv run -- "$out/argc" x
[ "$rc" = 2 ] && ok double-dash || no double-dash "guest argc $rc, expected 2"
rv run "$out/argc" --max-insns 5 --help
[ "$rc" = 4 ] && ok args-after-prog || no args-after-prog "guest argc $rc, expected 4 (options after PROG are the guest's)"

# --- bad programs: never a crash
: >"$out/empty"
printf 'just some text\n' >"$out/text"
head -c 100 "$out/exit42" >"$out/truncated"
head -c 64 "$out/exit42" >"$out/header-only"
bad elf-empty "$out/empty" run "$out/empty"
bad elf-text "$out/text" run "$out/text"
bad elf-truncated "$out/truncated" run "$out/truncated"
bad elf-header-only "$out/header-only" run "$out/header-only"
bad elf-directory "" run "$out"
phoff=$(u16 "$out/exit42" 32) phnum=$(u16 "$out/exit42" 56)
f=$(mangled elf32); patch "$f" 4 '\001'		# EI_CLASS = ELFCLASS32
bad elf-class32 "$f" run "$f"
f=$(mangled elf-bigendian); patch "$f" 5 '\002'	# EI_DATA = ELFDATA2MSB
bad elf-bigendian "$f" run "$f"
f=$(mangled elf-rel); patch "$f" 16 '\001'		# e_type = ET_REL
bad elf-rel "$f" run "$f"
f=$(mangled elf-phnum); patch "$f" 56 '\377\377'	# e_phnum = 65535
bad elf-phnum "$f" run "$f"
f=$(mangled elf-phentsize); patch "$f" 54 '\007\000'	# e_phentsize = 7
bad elf-phentsize "$f" run "$f"
f=$(mangled elf-filesz)				# every p_filesz far beyond the file
i=0; while [ "$i" -lt "$phnum" ]; do
	patch "$f" $((phoff + i * 56 + 32)) '\000\000\000\000\000\001\000\000'
	i=$((i + 1))
done
bad elf-filesz "$f" run "$f"
f=$(mangled elf-offset)				# every p_offset far beyond the file
i=0; while [ "$i" -lt "$phnum" ]; do
	patch "$f" $((phoff + i * 56 + 8)) '\000\000\000\000\000\001\000\000'
	i=$((i + 1))
done
bad elf-offset "$f" run "$f"
[ -f /bin/true ] && bad elf-x86 /bin/true run /bin/true

# --- --max-insns
rv run --max-insns 1000 "$out/loop"
if [ "$rc" = 0 ] || [ "$rc" = 137 ]; then no max-insns "exit $rc, expected a non-zero limit status"
elif ! has "$E" 'instruction.*limit|limit.*instruction|max-insns'; then no max-insns "no message about the instruction limit"
else ok max-insns; fi
# "stop after N retired instructions": exactly N, seen via --insn-count
rm -f "$out/count"
rv run --max-insns 1000 --insn-count "$out/count" "$out/loop"
[ "$(cat "$out/count" 2>/dev/null)" = 1000 ] && ok max-insns-exact ||
	no max-insns-exact "retired '$(cat "$out/count" 2>/dev/null)', expected exactly 1000"
rm -f "$out/count"
rv run --max-insns 2k --insn-count "$out/count" "$out/loop"	# k = 1000
[ "$(cat "$out/count" 2>/dev/null)" = 2000 ] && ok max-insns-suffix ||
	no max-insns-suffix "retired '$(cat "$out/count" 2>/dev/null)' with 2k, expected 2000"
rv run --max-insns 1000 "$out/exit42"
[ "$rc" = 42 ] && ok max-insns-not-reached || no max-insns-not-reached "exit $rc, expected 42"
for v in abc -5 "" 12x 0x 99999999999999999999999 1.5; do
	bad "max-insns-invalid=$v" --max-insns run --max-insns "$v" "$out/exit42"
done
for v in abc -1 "" 16q; do
	bad "max-mem-invalid=$v" --max-mem run --max-mem "$v" "$out/exit42"
done

# --- --max-mem: the guest sees the allocation fail
rv run --max-mem 16 "$out/bigmalloc"
if [ "$rc" != 0 ]; then no max-mem "exit $rc"
elif [ "$(cat "$O")" != ENOMEM ]; then no max-mem "guest printed '$(head -c 80 "$O")', expected ENOMEM"
else ok max-mem; fi
rv run "$out/bigmalloc"
[ "$rc" = 0 ] && [ "$(cat "$O")" = allocated ] && ok max-mem-default ||
	no max-mem-default "without --max-mem: exit $rc, '$(head -c 80 "$O")'"

# --- the default bound: half of the host's memory (MemTotal, or a
# smaller cgroup v2 limit), RLIMIT_AS as the program sees it; --max-mem 0
# is none. A program allocating without end meets the bound as ENOMEM.
host=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024))
cg=$(cat /sys/fs/cgroup/memory.max 2>/dev/null)
case $cg in ''|max) ;; *) [ "$cg" -gt 0 ] && [ "$cg" -lt "$host" ] && host=$cg ;; esac
half=$((host >> 21))
rv run "$out/memlimit" rlimit
[ "$rc" = 0 ] && [ "$(cat "$O")" = "$half" ] && ok max-mem-default-bound ||
	no max-mem-default-bound "RLIMIT_AS '$(head -c 80 "$O")' MiB (exit $rc), expected half of the host's $((host >> 20)) MiB: $half"
rv run --max-mem 0 "$out/memlimit" rlimit
[ "$rc" = 0 ] && [ "$(cat "$O")" = unlimited ] && ok max-mem-0-none ||
	no max-mem-0-none "--max-mem 0: RLIMIT_AS '$(head -c 80 "$O")' (exit $rc), expected unlimited"
# a mapping just over the default bound, never touched, so it costs nothing
# (on a host with more than ~480 GiB it would not fit the 256 GiB space)
if [ $((half + 64)) -lt 240000 ]; then
	rv run "$out/memlimit" reserve $((half + 64))
	[ "$rc" = 0 ] && [ "$(cat "$O")" = "Cannot allocate memory" ] && ok max-mem-default-enomem ||
		no max-mem-default-enomem "$((half + 64)) MiB past the default bound: '$(head -c 80 "$O")' (exit $rc)"
	rv run --max-mem 0 "$out/memlimit" reserve $((half + 64))
	[ "$rc" = 0 ] && [ "$(cat "$O")" = mapped ] && ok max-mem-0-maps ||
		no max-mem-0-maps "--max-mem 0, $((half + 64)) MiB: '$(head -c 80 "$O")' (exit $rc)"
fi
rv run --max-mem 64 "$out/memlimit" loop
n=$(sed -n 's/^ENOMEM after \([0-9]*\) MiB$/\1/p' "$O")
if [ "$rc" != 0 ] || [ -z "$n" ]; then no max-mem-loop "exit $rc, '$(head -c 80 "$O")'"
elif [ "$n" -lt 48 ] || [ "$n" -gt 63 ]; then no max-mem-loop "ENOMEM after $n MiB, expected about 64 less the 8 MiB stack"
elif [ "$(cat "$E")" != "rvpmu: warning: $out/memlimit: memory bound of 64 MiB reached: brk/mmap fail with ENOMEM (--max-mem sets the bound)" ]; then
	no max-mem-loop "stderr: $(head -c 200 "$E")"
else ok max-mem-loop; fi
rv stat -q --max-mem 100 -o /dev/null "$out/memlimit" rlimit
[ "$rc" = 0 ] && [ "$(cat "$O")" = 100 ] && ok max-mem-stat || no max-mem-stat "RLIMIT_AS '$(head -c 80 "$O")' (exit $rc)"
rv stat -q -o /dev/null "$out/memlimit" rlimit
[ "$rc" = 0 ] && [ "$(cat "$O")" = "$half" ] && ok max-mem-stat-default ||
	no max-mem-stat-default "RLIMIT_AS '$(head -c 80 "$O")' (exit $rc), expected $half"
rv record -q --max-mem 100 -o "$out/mem.data" "$out/memlimit" rlimit
[ "$rc" = 0 ] && [ "$(cat "$O")" = 100 ] && ok max-mem-record || no max-mem-record "RLIMIT_AS '$(head -c 80 "$O")' (exit $rc)"
# system mode: RAM the host does not have is refused before anything runs
bad system-m-host "host's" system -m $(((host >> 20) + 1)) --kernel "$out/exit42"
bad system-m-huge "host's" system -m 99999999999999 --kernel "$out/exit42"
bad system-smp "--smp: '9' is out of range" system --smp 9 --kernel "$out/exit42"
bad system-smp-qemu "--smp: '0' is out of range" system -smp 0 --kernel "$out/exit42"
bad system-quantum "--quantum: '10' is too small" system --quantum 10 --kernel "$out/exit42"

# --- fatal signals: 128+N and a report naming the signal and the pc
rv run "$out/null"
pc=$(riscv64-linux-gnu-nm "$out/null" | awk '$3 == "fault_pc" { print $1 }' | sed 's/^0*//')
if [ "$rc" != 139 ]; then no sigsegv "exit $rc, expected 139"
elif ! has "$E" SIGSEGV; then no sigsegv "stderr does not mention SIGSEGV"
elif [ -z "$pc" ] || ! has "$E" "0x0*$pc\\b"; then no sigsegv "stderr does not name pc 0x$pc"
else ok sigsegv; fi
rv run "$out/nullc"
if [ "$rc" != 139 ]; then no sigsegv-c "exit $rc, expected 139"
elif [ "$(cat "$O")" != before ]; then no sigsegv-c "stdout before the fault lost"
elif ! has "$E" SIGSEGV || ! has "$E" 'pc'; then no sigsegv-c "stderr lacks SIGSEGV / pc"
else ok sigsegv-c; fi

# --- run --profile / --no-uarch: rdcycle sees the chosen core. cyc.S runs
# N iterations of divu/addi/bnez then reads rdcycle (printing it with an
# argument, exiting at once without). Two sizes, same code otherwise: the
# end state of the loop is the same, so the rdcycle difference is the
# loop's cycles, which stat on the same core must give too. Functional
# (plain run, or --no-uarch): one cycle per instruction, 3 per iteration.
Q1=100 Q2=500
for n in $Q1 $Q2; do
	$CC -static -nostdlib -DN=$n -o "$out/cyc$n" "$here/cyc.S" >&2 ||
		echo "FAIL cli build-cyc: guest does not build"
done
# rdc NAME RUN-OPTIONS...: rdcycle of cyc$Q2 minus cyc$Q1 under rvpmu run
rdc() {
	name=$1
	shift
	rv run "$@" "$out/cyc$Q1" p; a=$(cat "$O"); ra=$rc
	rv run "$@" "$out/cyc$Q2" p; b=$(cat "$O")
	case "$ra$rc:$a:$b" in
	00:[0-9]*:[0-9]*) d=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }') ;;  # no leading-zero octal
	*) d=; no "$name" "run $*: exit $ra/$rc, printed '$a' '$b'" ;;
	esac
}
# scyc ARGS...: stat's cycles of cyc$Q2 minus cyc$Q1
scyc() {
	rv stat -x, -e cycles "$@" "$out/cyc$Q1"; sa=$(awk -F, '$3 == "cycles" { print $1 }' "$E")
	rv stat -x, -e cycles "$@" "$out/cyc$Q2"; sb=$(awk -F, '$3 == "cycles" { print $1 }' "$E")
	case "$sa:$sb" in
	[0-9]*:[0-9]*) s=$((sb - sa)) ;;
	*) s= ;;
	esac
}
rdc run-rdcycle-functional
dplain=$d
[ -n "$d" ] && { [ "$d" = $((3 * (Q2 - Q1))) ] && ok run-rdcycle-functional ||
	no run-rdcycle-functional "rdcycle difference $d, want $((3 * (Q2 - Q1)))"; }
for p in u74 virt; do
	rdc "run-profile-$p-rdcycle" --profile $p
	scyc --profile $p
	if [ -z "$d" ]; then :
	elif [ -z "$s" ]; then no "run-profile-$p-rdcycle" "stat --profile $p gave no cycles"
	elif [ "$d" != "$s" ]; then no "run-profile-$p-rdcycle" "rdcycle difference $d, stat's cycles $s"
	else ok "run-profile-$p-rdcycle"; fi
done
# the u74 divide is unpipelined and slow: the modelled loop costs more
rdc run-profile-u74-differs --profile u74
[ -n "$d" ] && [ -n "$dplain" ] && { [ "$d" -gt "$dplain" ] && ok run-profile-u74-differs ||
	no run-profile-u74-differs "u74 $d cycles, functional $dplain"; }
rdc run-profile-no-uarch --profile u74 --no-uarch
[ -n "$d" ] && { [ "$d" = $((3 * (Q2 - Q1))) ] && ok run-profile-no-uarch ||
	no run-profile-no-uarch "rdcycle difference $d, want $((3 * (Q2 - Q1)))"; }
rv run --help
has "$O" '--profile P' && has "$O" '--no-uarch' && ok run-help-profile ||
	no run-help-profile "run --help does not document --profile and --no-uarch"
bad run-profile-unknown nosuchcore run --profile nosuchcore "$out/exit42"
printf '{ "name": "broken", ' > "$out/broken.json"
bad run-profile-bad-json broken.json run --profile "$out/broken.json" "$out/exit42"
bad run-profile-no-value --profile run --profile
exit 0
