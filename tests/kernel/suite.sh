#!/bin/sh
# rvpmu's own user-mode kernel (src/linux) where qemu-riscv64 7.2 is no
# peer to compare with (tests/diff has the programs whose output both
# must print alike): file mappings qemu does not do as Linux does, what
# a program reads about itself in /proc (never the host process's),
# /dev/urandom from the deterministic source getrandom uses, and demand
# paging and sleeps as getrusage counts them. Guests are
# progs/*.c, built static. One line per check: "PASS kernel NAME" /
# "FAIL kernel NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/kernel
mkdir -p "$out" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
T=${GUEST_TIMEOUT:-60}
ulimit -c 0 2>/dev/null
O=$out/stdout E=$out/stderr

ok() { echo "PASS kernel $1"; }
no() { echo "FAIL kernel $1: $2"; sed "s/^/[kernel $1] /" "$E" | head -n 5 >&2; }

if [ ! -x "$RVPMU" ]; then
	echo "FAIL kernel rvpmu: $RVPMU not built"
	exit 0
fi
for src in "$here"/progs/*.c; do
	bin=$out/$(basename "$src" .c)
	{ [ -f "$bin" ] && [ "$bin" -nt "$src" ]; } || $CC -static -O2 -o "$bin" "$src" >&2 ||
		echo "FAIL kernel build-$(basename "$bin"): does not build"
done

# rv ARGS...: rvpmu run ARGS; sets rc, output in $O and $E
rv() {
	timeout "$T" "$RVPMU" run "$@" </dev/null >"$O" 2>"$E"
	rc=$?
}

# --- file mappings
scratch=$out/scratch
rm -rf "$scratch" && mkdir -p "$scratch"
rv "$out/fmap" dup "$scratch"
[ "$rc" = 0 ] && [ "$(cat "$O")" = "dup: D A D
private anonymous: refused" ] && ok fmap-mremap-dup || no fmap-mremap-dup "exit $rc: $(head -c 200 "$O" | tr '\n' '|')"

# Another process shrinks a file the program maps: the program's next
# access past the new end is killed by SIGBUS, as on Linux, with a line
# from rvpmu saying why (the host's SIGBUS must not crash rvpmu).
f=$scratch/shrunk.bin
head -c 8192 /dev/zero | tr '\0' x > "$f"
rm -f "$scratch/fifo" && mkfifo "$scratch/fifo"
timeout "$T" "$RVPMU" run "$out/fmap" wait "$f" <"$scratch/fifo" >"$O" 2>"$E" &
pid=$!
exec 3>"$scratch/fifo"
i=0
while ! grep -q ready "$O" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
truncate -s 10 "$f"
echo go >&3
exec 3>&-
wait $pid
rc=$?
if [ "$rc" != 135 ]; then no fmap-shrunk-by-another "exit $rc, expected 135 (SIGBUS)"
elif [ "$(cat "$O")" != "ready x" ]; then no fmap-shrunk-by-another "stdout '$(head -c 100 "$O")'"
elif ! grep -q '^rvpmu: the program touched a file mapping past the file.s end (another process shrank the file): killed by SIGBUS$' "$E"; then
	no fmap-shrunk-by-another "stderr: $(head -c 200 "$E")"
else ok fmap-shrunk-by-another; fi

# --- /proc: the program's own (progs/proc.c: one "ok"/"not ok" line a check)
rv "$out/proc" "$scratch"
sed -n 's/^ok \(.*\)$/PASS kernel proc-\1/p; s/^not ok \([^:]*\): \(.*\)$/FAIL kernel proc-\1: \2/p' "$O"
if [ "$rc" = 0 ] && grep -q '^ALL OK 0$' "$O" && [ ! -s "$E" ]; then ok proc-complete
else no proc-complete "exit $rc, last line '$(tail -n 1 "$O")'"; fi

# /proc/cpuinfo in RISC-V Linux's format (Linux 6.12 prints these lines),
# from the hart: its extensions and its profile's ids, which riscv_hwprobe
# gives too
tab=$(printf '\t')
isa=rv64imafdc_zicntr_zicsr_zifencei_zihpm_zba_zbb_zbs
rv --profile u74 "$out/proc" cat /proc/cpuinfo
printf 'processor\t: 0\nhart\t\t: 0\nisa\t\t: %s\nmmu\t\t: sv39\nmvendorid\t: 0x489\nmarchid\t\t: 0x8000000000000007\nmimpid\t\t: 0x20181004\nhart isa\t: %s\n\n' \
	"$isa" "$isa" > "$out/cpuinfo.u74"
cmp -s "$O" "$out/cpuinfo.u74" && ok cpuinfo-u74 || no cpuinfo-u74 "$(diff "$out/cpuinfo.u74" "$O" | head -n 4 | tr '\n' '|')"
rv "$out/proc" cat /proc/cpuinfo
grep -qx "isa$tab$tab: ${isa}_smcdeleg_smcntrpmf_sscofpmf_ssccfg_smctr_ssctr" "$O" &&
	grep -qx "mvendorid$tab: 0x0" "$O" && ok cpuinfo-virt || no cpuinfo-virt "$(head -n 4 "$O" | tr '\n' '|')"
rv --profile u74 "$out/proc" ids
[ "$(cat "$O")" = "mvendorid 0x489 marchid 0x8000000000000007 mimpid 0x20181004" ] && ok hwprobe-ids ||
	no hwprobe-ids "$(head -c 100 "$O")"

# --- /dev/urandom and /dev/random: getrandom's deterministic stream, a
# read of N bytes giving what getrandom(N) gives (progs/random.c)
rv "$out/random" getrandom 32
want=$(cat "$O")
for m in urandom random readv; do
	rv "$out/random" $m 32
	[ "$rc" = 0 ] && [ -n "$want" ] && [ "$(cat "$O")" = "$want" ] && ok "random-$m" ||
		no "random-$m" "'$(head -c 70 "$O")', getrandom gave '$want'"
done
rv "$out/random" mmap
[ "$(cat "$O")" = "No such device" ] && ok random-mmap || no random-mmap "$(head -c 70 "$O")"
# the program's path follows the bytes: two stat runs count alike
for i in 1 2; do
	timeout "$T" "$RVPMU" stat -q -x, -e instructions -o "$out/bits$i.csv" "$out/random" bits \
		</dev/null >"$out/bits$i.out" 2>"$E"
done
c1=$(cut -d, -f1 "$out/bits1.csv" 2>/dev/null) c2=$(cut -d, -f1 "$out/bits2.csv" 2>/dev/null)
if [ -n "$c1" ] && [ "$c1" = "$c2" ] && [ -s "$out/bits1.out" ] && cmp -s "$out/bits1.out" "$out/bits2.out"; then
	ok random-stat-deterministic
else
	no random-stat-deterministic "instructions '$c1' and '$c2', bits '$(cat "$out/bits1.out")' and '$(cat "$out/bits2.out")'"
fi

# --- demand paging: a page is absent until its first touch, one minor
# fault each (ru_minflt, perf's page-faults); each sleep gives up the
# hart: a voluntary context switch (ru_nvcsw, perf's context-switches)
rv "$out/faults" 0 2 1 1 r; a=$(cat "$O")
rv "$out/faults" 500 5 1 1 r; b=$(cat "$O")
if [ -n "$a" ] && [ -n "$b" ] && [ "$(( ${b% *} - ${a% *} )) ${a#* } ${b#* }" = "500 2 5" ]; then
	ok "demand paging: 500 pages touched, 500 more ru_minflt; ru_nvcsw counts the sleeps"
else
	no "demand paging and sleeps" "0 pages, 2 sleeps: '$a'; 500 pages, 5 sleeps: '$b'"
fi
exit 0
