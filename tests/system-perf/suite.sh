#!/bin/sh
# rvpmu stat and record on a system-mode run (perf stat -a, -A, -C and
# perf record -a): busy.S on 1, 2 and 4 harts, every hart 9 instructions
# in machine mode and the rest in user mode until --max-insns ends the
# run; the counts are asserted exactly (round-robin quanta give every hart
# the same share), :u and :k split by mode, the table and -x formats; the
# samples per CPU follow from those counts and the period, read back by
# rvpmu script and Debian's perf; the Linux image counted and sampled per
# CPU with the guest's own result; bad input.
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/system-perf
mkdir -p "$out" || exit 1
pass() { echo "PASS system-perf $1"; }
fail() { echo "FAIL system-perf $1: $2"; }
if ! riscv64-unknown-elf-gcc -nostdlib -nostartfiles -march=rv64i_zicsr -mabi=lp64 \
	-Wl,--no-relax,--no-warn-rwx-segments -T "$here/../smp/link.ld" -o "$out/busy.elf" "$here/busy.S" >&2; then
	fail build "busy.S does not build"; exit 0
fi
R=$RVPMU
# st NAME STAT-OPTIONS... -- SYSTEM-OPTIONS...: the table in $out/NAME.err
st() {
	name=$1; shift
	"$R" stat "$@" >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
}
# count FILE EVENT [CPU]: the count of EVENT (on CPU with -A) in a table
count() {
	awk -v e="$2" -v c="$3" '
		c == "" && NF == 2 && $2 == e { gsub(",", "", $1); print $1 }
		c != "" && NF == 3 && $1 == c && $3 == e { gsub(",", "", $2); print $2 }' "$1"
}

for n in 1 2 4; do
	per=$((4000000 / n))
	st "a$n" -a --no-uarch -e instructions,instructions:u,instructions:k,cycles \
		system --bios none --smp "$n" --max-insns 4M --kernel "$out/busy.elf"
	got="$(count "$out/a$n.err" instructions) $(count "$out/a$n.err" instructions:u)"
	got="$got $(count "$out/a$n.err" instructions:k) $(count "$out/a$n.err" cycles)"
	want="4000000 $((4000000 - 9 * n)) $((9 * n)) 4000000"
	[ "$rc" = 124 ] && [ "$got" = "$want" ] &&
		pass "-a, $n harts: instructions, :u, :k, cycles = $got" ||
		fail "-a, $n harts" "exit $rc, got '$got' want '$want' ($(tail -n 3 "$out/a$n.err" | tr '\n' '|'))"
	st "A$n" -A --no-uarch -e instructions:u,instructions:k \
		system --bios none --smp "$n" --max-insns 4M --kernel "$out/busy.elf"
	# every hart: 9 in machine mode; all but the last the same total (the
	# budget ends the last one's turn); the sum, the machine's budget
	ok=1 got= sum=0 first=
	for c in $(seq 0 $((n - 1))); do
		u=$(count "$out/A$n.err" instructions:u "CPU$c") k=$(count "$out/A$n.err" instructions:k "CPU$c")
		got="$got CPU$c $u+$k"
		[ -n "$u" ] && [ "$k" = 9 ] || { ok=0; continue; }
		sum=$((sum + u + k))
		[ "$c" = $((n - 1)) ] || { [ -z "$first" ] && first=$((u + k)); [ "$((u + k))" = "$first" ] || ok=0; }
	done
	[ "$rc" = 124 ] && [ "$ok" = 1 ] && [ "$sum" = 4000000 ] &&
		pass "-A, $n harts: each CPU 9 machine-mode instructions, the rest user, $sum in all:$got" ||
		fail "-A, $n harts" "exit $rc, got$got"
done

# -C keeps the harts listed; -x is perf's CSV (CPU first with -A)
st C -C 1,3 -x, --no-uarch -e instructions system --bios none --smp 4 --max-insns 4M \
	--kernel "$out/busy.elf"
c1=$(count "$out/A4.err" instructions:u CPU1) c3=$(count "$out/A4.err" instructions:u CPU3)
want=$((c1 + c3 + 18))
[ "$(grep -v '^rvpmu:' "$out/C.err")" = "$want,,instructions,1000000,100.00,," ] &&
	pass "-C 1,3 -x,: the two harts' sum as -A gave them ($want), perf's CSV" ||
	fail "-C 1,3 -x," "want $want: $(tr '\n' '|' < "$out/C.err")"
st CA -C 2-3 -A -x, --no-uarch -e instructions:k system --bios none --smp 4 --max-insns 4M \
	--kernel "$out/busy.elf"
[ "$(grep -v '^rvpmu:' "$out/CA.err" | tr '\n' ' ')" = \
  "CPU2,9,,instructions:k,1000000,100.00,, CPU3,9,,instructions:k,1000000,100.00,, " ] &&
	pass "-C 2-3 -A -x,: a line per hart" || fail "-C 2-3 -A -x," "$(tr '\n' '|' < "$out/CA.err")"
# the table's frame, as perf's: header, a line per event, modelled time
st T -a -e instructions system --bios none --smp 2 --max-insns 2M --kernel "$out/busy.elf"
grep -q "^ Performance counter stats for 'system wide':\$" "$out/T.err" &&
	grep -q '^         2,000,000      instructions$' "$out/T.err" &&
	grep -q '^ *0.00[0-9]* seconds time elapsed (modelled: virt at 1.00 GHz)$' "$out/T.err" &&
	pass "table: perf's header, count column and elapsed line" ||
	fail "table" "$(tr '\n' '|' < "$out/T.err")"
st NB -a --no-big-num -e instructions system --bios none --smp 2 --max-insns 2M --kernel "$out/busy.elf"
grep -q '^ *2000000      instructions$' "$out/NB.err" &&
	pass "--no-big-num: no thousands' separators" || fail "--no-big-num" "$(tr '\n' '|' < "$out/NB.err")"
# with the models: cycles count the timing model's, at least one a step
st M -A -e cycles,instructions,L1-dcache-load-misses system --bios none --smp 2 --max-insns 2M \
	--kernel "$out/busy.elf"
c0=$(count "$out/M.err" cycles CPU0) i0=$(count "$out/M.err" instructions CPU0)
c1=$(count "$out/M.err" cycles CPU1) i1=$(count "$out/M.err" instructions CPU1)
[ "$rc" = 124 ] && [ "$((i0 + i1))" = 2000000 ] && [ "${c0:-0}" -ge "$i0" ] && [ "${c1:-0}" -ge "$i1" ] &&
	pass "models: $c0 and $c1 cycles for $i0 and $i1 instructions" || fail "models" "$(tr '\n' '|' < "$out/M.err")"
# events the machine cannot count say so, as perf
st U --no-uarch -a -e L1-dcache-load-misses system --bios none --max-insns 1M --kernel "$out/busy.elf"
grep -q '<not supported>      L1-dcache-load-misses$' "$out/U.err" &&
	pass "--no-uarch: a cache event is <not supported>" || fail "--no-uarch cache event" "$(tr '\n' '|' < "$out/U.err")"

# The shared Linux image on two harts: each CPU's user and kernel counts,
# which add up to its cycles without the models, and the guest's own tests
. "$here/../linux/lib.sh"
linux_image
if [ -n "$img" ]; then
	st L -A --no-uarch -e instructions:u,instructions:k,cycles system --smp 2 --no-sbi-snapshot \
		--kernel "$img/Image" --initrd "$img/initramfs.cpio.gz" --append console=hvc0
	ok=1
	for c in CPU0 CPU1; do
		u=$(count "$out/L.err" instructions:u $c) k=$(count "$out/L.err" instructions:k $c)
		cy=$(count "$out/L.err" cycles $c)
		[ -n "$u" ] && [ "$u" -gt 0 ] && [ "$((u + k))" = "$cy" ] || ok=0
	done
	[ "$rc" = 0 ] && [ "$ok" = 1 ] && grep -q '^SUMMARY: [0-9]* passed, 0 failed' "$out/L.out" &&
		pass "Linux on 2 harts: each CPU's :u + :k = its cycles; $(grep '^SUMMARY' "$out/L.out")" ||
		fail "Linux on 2 harts" "exit $rc, $(grep '^SUMMARY' "$out/L.out"), $(tail -n 8 "$out/L.err" | tr '\n' '|')"
else
	fail "Linux on 2 harts" "no shared/linux/prebuilt/Image (tests/linux/lib.sh linux_image)"
fi

# no -e: perf's hardware defaults (its software events would be the guest
# kernel's, which the host does not see)
st def -a --no-uarch system --bios none --max-insns 1M --kernel "$out/busy.elf"
got=$(awk '/^ +([0-9,]+|<not supported>) +[a-z-]+$/ { printf "%s ", $NF }' "$out/def.err")
[ "$rc" = 124 ] && [ "$got" = "cycles instructions branches branch-misses " ] &&
	[ "$(count "$out/def.err" instructions)" = 1000000 ] &&
	pass "no -e on a system-mode run: $got" ||
	fail "no -e on a system-mode run" "exit $rc, events '$got': $(tr '\n' '|' < "$out/def.err")"
# perf's :G (guest: V=1) and :H (host: V=0) on hv.S, whose instructions
# are known by mode (its header): HS 2009, VS 3007, VU 3601, M 21; u and
# k choose within the side; the names as typed, as perf prints them
if riscv64-unknown-elf-gcc -nostdlib -nostartfiles -march=rv64i_zicsr -mabi=lp64 \
	-Wl,--no-relax,--no-warn-rwx-segments -T "$here/../smp/link.ld" -o "$out/hv.elf" "$here/hv.S" >&2; then
	evs=instructions,instructions:G,instructions:H,instructions:Gk,instructions:Gu,instructions:Hk
	evs=$evs,instructions:Hu,instructions:u,instructions:k,cycles:GH,instructions:kG,cycles:H
	st GH --profile virt -a --no-uarch -e "$evs" system --bios none --kernel "$out/hv.elf"
	got=$(awk '/^ +[0-9,]+ +[a-z:GHuk]+$/ { printf "%s=%s ", $2, $1 }' "$out/GH.err")
	want="instructions=8,638 instructions:G=6,608 instructions:H=2,030 instructions:Gk=3,007"
	want="$want instructions:Gu=3,601 instructions:Hk=2,030 instructions:Hu=0 instructions:u=3,601"
	want="$want instructions:k=5,037 cycles:GH=8,638 instructions:kG=3,007 cycles:H=2,030 "
	[ "$rc" = 0 ] && [ "$got" = "$want" ] &&
		pass ":G/:H on HS, VS and VU: G = VS + VU, H = HS + M, Gk = VS, Gu = VU, G + H = all: $got" ||
		fail ":G/:H" "exit $rc, got '$got' want '$want'"
	st GHg --profile virt -a --no-uarch -e '{instructions,cycles}:Gu' system --bios none --kernel "$out/hv.elf"
	got="$(count "$out/GHg.err" instructions:Gu) $(count "$out/GHg.err" cycles:Gu)"
	[ "$rc" = 0 ] && [ "$got" = "3601 3601" ] &&
		pass "a group's :Gu applies to each member: $got" || fail "group :Gu" "exit $rc, got '$got'"
	st GHx -A -x, --profile virt --no-uarch -e instructions:Gu,instructions:Hk system --bios none \
		--kernel "$out/hv.elf"
	[ "$(tr '\n' ' ' < "$out/GHx.err")" = \
	  "CPU0,3601,,instructions:Gu,8600,100.00,, CPU0,2030,,instructions:Hk,8600,100.00,, " ] &&
		pass "-A -x, with :Gu and :Hk: perf's CSV, names as typed" ||
		fail "-A -x, :Gu/:Hk" "$(tr '\n' '|' < "$out/GHx.err")"
	# record: floor(count / 100) samples, each in the mode's own code
	for e in instructions:Gu=36=vu instructions:Gk=30=vs instructions:Hk=20=hs; do
		ev=${e%%=*} n=${e#*=} n=${n%%=*} sym=${e##*=}
		"$R" record --profile virt -a --no-uarch -c 100 -e "$ev" -o "$out/gh.data" system --bios none \
			--kernel "$out/hv.elf" >/dev/null 2>"$out/gh.err"
		rc=$?
		syms=$("$R" script -i "$out/gh.data" -F ip,sym 2>/dev/null | awk '{ print $2 }' | sort | uniq -c |
			awk '{ printf "%s:%s ", $2, $1 }')
		[ "$rc" = 0 ] && [ "$syms" = "$sym:$n " ] &&
			pass "record -a -c 100 -e $ev: $n samples, all in $sym" ||
			fail "record -a $ev" "exit $rc, samples by symbol '$syms', want '$sym:$n'"
	done
else
	fail build "hv.S does not build"
fi

# record -a: each hart samples its own events every -c; CPU c has
# floor(count / period) samples, every one in busy.S's user loop (:u) or
# its machine-mode start (:k), as rvpmu script and Debian's perf read them
# samples FILE: "N0 N1 N2 N3", the samples of each CPU in rvpmu script's output
samples() {
	"$R" script -i "$1" 2>/dev/null | awk '{ n[$3]++ } END {
		printf "%d %d %d %d", n["[000]"], n["[001]"], n["[002]"], n["[003]"] }'
}
"$R" record -a -c 100003 -e instructions:u -o "$out/u.data" system --bios none --smp 4 \
	--max-insns 4M --kernel "$out/busy.elf" >/dev/null 2>"$out/u.err"
rc=$? want=
for c in 0 1 2 3; do
	want="$want $(($(count "$out/A4.err" instructions:u CPU$c) / 100003))"
done
want=${want# }
got=$(samples "$out/u.data")
syms=$("$R" script -i "$out/u.data" -F ip,sym 2>/dev/null | awk "{ print \$2 }" | sort -u | tr '\n' ' ')
[ "$rc" = 124 ] && [ "$got" = "$want" ] && [ "$syms" = "user " ] &&
	grep -q 'Captured and wrote .* (36 samples)' "$out/u.err" &&
	pass "record -a instructions:u -c 100003: samples per CPU $got, all in user" ||
	fail "record -a :u" "exit $rc, got '$got' want '$want', symbols '$syms' ($(tr '\n' '|' < "$out/u.err"))"
"$R" record -a -c 3 -e instructions:k -o "$out/k.data" system --bios none --smp 4 \
	--max-insns 400k --kernel "$out/busy.elf" >/dev/null 2>&1
got=$(samples "$out/k.data")
kern=$("$R" report -i "$out/k.data" --stdio --sort cpu,sym 2>/dev/null | grep -c '\[k\] _start$')
[ "$got" = "3 3 3 3" ] && [ "$kern" = 4 ] &&
	pass "record -a instructions:k -c 3: 3 samples on each CPU, in machine mode in _start" ||
	fail "record -a :k" "samples '$got', [k] _start rows $kern"
if command -v perf >/dev/null 2>&1; then
	pc=$(perf report -i "$out/u.data" --stdio --sort cpu -n 2>/dev/null |
		awk '/^ +[0-9.]+%/ { printf "%s:%s ", $3, $2 }')
	[ "$pc" = "000:9 001:9 002:9 003:9 " ] &&
		pass "Debian's perf report --sort cpu splits the samples: $pc" ||
		fail "perf report --sort cpu" "got '$pc'"
else
	fail "perf report --sort cpu" "Debian's perf (linux-perf) is not installed"
fi
if [ -f "$img/Image" ]; then
	"$R" record -a --no-uarch -c 1000003 -o "$out/lx.data" system --smp 2 --no-sbi-snapshot \
		--kernel "$img/Image" --initrd "$img/initramfs.cpio.gz" --append console=hvc0 \
		>"$out/lx.out" 2>"$out/lx.err"
	rc=$?
	got=$(samples "$out/lx.data")
	set -- $got
	[ "$rc" = 0 ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$3" = 0 ] &&
		grep -q '^SUMMARY: [0-9]* passed, 0 failed' "$out/lx.out" &&
		pass "record -a of Linux on 2 harts: samples on CPU0 and CPU1 ($1, $2); $(grep '^SUMMARY' "$out/lx.out")" ||
		fail "record -a Linux" "exit $rc, samples '$got', $(grep '^SUMMARY' "$out/lx.out")"
fi

# bad input: a clear error, a non-zero exit, no table
bad() {	# bad DESCRIPTION WANT-RC PATTERN STAT-ARGS...
	what=$1 want=$2 pat=$3; shift 3
	st bad "$@"
	[ "$rc" = "$want" ] && grep -q -- "$pat" "$out/bad.err" &&
		! grep -q 'Performance counter stats' "$out/bad.err" &&
		pass "bad input: $what -> exit $rc: $(grep -- "$pat" "$out/bad.err" | head -n 1)" ||
		fail "bad input: $what" "exit $rc: $(tr '\n' '|' < "$out/bad.err")"
}
bad "-a with a program" 2 "^rvpmu stat: -a and -C count a system-mode run" -a /bin/true
bad "-C with a program" 2 "^rvpmu stat: -a and -C count a system-mode run" -C 0 /bin/true
# -A splits a program's counts by hart too (tests/threads); --per-thread
# and --cpus are a program's
bad "--per-thread with system" 2 "^rvpmu stat: --per-thread, --no-inherit, --cpus and --sysroot are for a program" \
	--per-thread system --bios none --kernel "$out/busy.elf"
bad "--cpus with system" 2 "^rvpmu stat: --per-thread, --no-inherit, --cpus and --sysroot are for a program" \
	--cpus 2 system --bios none --kernel "$out/busy.elf"
bad "-I with system" 2 "^rvpmu stat: -I, -D, .* are for a program, not a system-mode run" -I 10 \
	system --bios none --kernel "$out/busy.elf"
bad "-M with system" 2 "^rvpmu stat: -I, -D, .* are for a program" -M IPC system --bios none \
	--kernel "$out/busy.elf"
bad "a software event with system" 2 "^rvpmu stat: task-clock: software events are" -e task-clock \
	system --bios none --kernel "$out/busy.elf"
bad "-C past the harts" 2 "the machine has CPUs 0-1" -C 3 system --bios none --smp 2 \
	--max-insns 1M --kernel "$out/busy.elf"
bad "-C not a list" 2 "not a CPU list" -C 1-x system --bios none --kernel "$out/busy.elf"
bad "--profile after system" 2 "^rvpmu stat: give --profile before 'system'" system --profile u74 --bios none \
	--kernel "$out/busy.elf"
bad "--no-uarch after system" 2 "^rvpmu stat: give --no-uarch before 'system'" system --no-uarch \
	--bios none --kernel "$out/busy.elf"
bad "-r with system" 2 "^rvpmu stat: -r and -j are not available for a system-mode run" -r 2 system --bios none \
	--kernel "$out/busy.elf"
bad "no kernel" 2 "no --kernel" -a system --bios none
bad "an unknown modifier" 2 "^rvpmu stat: unknown event modifier 'X' (rvpmu knows u, k, G and H" \
	-a -e instructions:GX system --bios none --kernel "$out/busy.elf"
rbad() {	# rbad DESCRIPTION PATTERN RECORD-ARGS...
	what=$1 pat=$2; shift 2
	rm -f "$out/bad.data"
	"$R" record -o "$out/bad.data" "$@" >/dev/null 2>"$out/bad.err"
	rc=$?
	[ "$rc" = 2 ] && grep -q -- "$pat" "$out/bad.err" && [ ! -e "$out/bad.data" ] &&
		pass "bad input: record $what -> exit 2, no file: $(grep -- "$pat" "$out/bad.err" | head -n 1)" ||
		fail "bad input: record $what" "exit $rc: $(tr '\n' '|' < "$out/bad.err")"
}
rbad "-a with a program" "^rvpmu record: -a samples a system-mode run" -a /bin/true
rbad "an unknown modifier" "^rvpmu record: unknown event modifier 'h' (rvpmu knows u, k, G and H" \
	-a -e cycles:h system --bios none --kernel "$out/busy.elf"
rbad "-g with system" "^rvpmu record: a system-mode run takes -e" -g system --bios none --kernel "$out/busy.elf"
exit 0
