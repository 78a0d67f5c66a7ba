#!/bin/sh
# Several harts on the bare virt machine (--bios none): harts.c checks
# mhartid, atomics and LR/SC across harts, a reservation lost to another
# hart's store, IPIs through the CLINT, per-hart timers and per-hart
# minstret (see its header). Run with 1, 2, 4 and 8 harts, with the u74
# models, with other quanta, twice for determinism, and on
# qemu-system-riscv64 -smp N to check the test itself (there built with
# HOST_TIME_COUNTERS: QEMU's counters and timer wake-ups follow the host).
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/smp
mkdir -p "$out" || exit 1
build() {	# build NAME NHARTS [FLAGS [SOURCE]]
	riscv64-unknown-elf-gcc -march=rv64gc_zicsr -mabi=lp64d -mcmodel=medany -O2 -nostdlib \
		-nostartfiles -ffreestanding -Wall -Wextra -Werror -DNHARTS="$2" $3 \
		-Wl,--no-warn-rwx-segments -T "$here/link.ld" -o "$out/$1.elf" \
		"$here/crt.S" "$here/${4:-harts.c}" >&2
}
# run NAME HARTS OPTIONS...: "PASS/FAIL smp NAME" from the finisher's code
run() {
	name=$1 n=$2
	shift 2
	timeout 120 "$RVPMU" system --bios none --smp "$n" --kernel "$out/harts$n.elf" \
		--max-insns 200M "$@" >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	[ "$rc" = 0 ] && echo "PASS smp $name: $(cat "$out/$name.out")" ||
		echo "FAIL smp $name: check $rc failed ($(tail -n 1 "$out/$name.err"))"
}
for n in 1 2 4 8; do
	if ! build "harts$n" "$n"; then
		echo "FAIL smp $n harts: does not build"
		continue
	fi
	run "$n-harts" "$n"
done
run 4-harts-u74 4 --profile u74
run 8-harts-virt 8 --profile virt
run 4-harts-quantum-100 4 --quantum 100
run 4-harts-quantum-1M 4 --quantum 1M
# the same image and options: the same interleaving, output and exit
run 4-harts-again 4
cmp -s "$out/4-harts.out" "$out/4-harts-again.out" &&
	echo "PASS smp deterministic: two 4-hart runs print the same arrival order" ||
	echo "FAIL smp deterministic: $(cat "$out/4-harts.out") vs $(cat "$out/4-harts-again.out")"
# --smp is checked
for bad in 0 9 x; do
	"$RVPMU" system --bios none --smp "$bad" --kernel "$out/harts1.elf" >/dev/null 2>"$out/bad.err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "smp" "$out/bad.err" &&
		echo "PASS smp --smp $bad refused: $(cat "$out/bad.err")" ||
		echo "FAIL smp --smp $bad: exit $rc ($(cat "$out/bad.err"))"
done
"$RVPMU" system --bios none --quantum 10 --kernel "$out/harts1.elf" >/dev/null 2>"$out/bad.err"
[ "$?" = 2 ] && echo "PASS smp --quantum 10 refused" || echo "FAIL smp --quantum 10 accepted"
# False sharing (false_sharing.c): two harts take turns incrementing
# adjacent words of one line, then words a line apart, each counting with
# its own mhpmcounters the events named; the guest checks every count
# against the number derived from MESI (the file's header) and prints them.
# fs NAME PROFILE SELECTORS KINDS [OPTIONS]
fs() {
	name=$1 prof=$2 sels=$3 kinds=$4
	shift 4
	if ! build "fs-$name" 2 "-DSELS=$sels -DKINDS=$kinds" false_sharing.c; then
		echo "FAIL smp false-sharing-$name: does not build"
		return
	fi
	timeout 120 "$RVPMU" system --bios none --smp 2 --profile "$prof" --kernel "$out/fs-$name.elf" \
		--max-insns 200M "$@" >"$out/fs-$name.out" 2>"$out/fs-$name.err"
	rc=$?
	[ "$rc" = 0 ] && echo "PASS smp false-sharing-$name: $(tr '\n' ';' <"$out/fs-$name.out")" ||
		echo "FAIL smp false-sharing-$name: count $rc wrong ($(tr '\n' ';' <"$out/fs-$name.out") $(tail -n 1 "$out/fs-$name.err"))"
}
virt_all="0x100003d,0x100003e,0x100003f,0x1000040,0x1000024,0x1000026,0x1000025,0x100001e"
virt_kinds="COH,INV,UPG,SNOOP,L2R,L2W,L2MISS,L1DMISS"
fs virt virt "$virt_all" "$virt_kinds"
fs virt-quantum-100 virt "$virt_all" "$virt_kinds" --quantum 100
fs virt-smp4 virt "$virt_all" "$virt_kinds" --smp 4
# the u74's two counters: rvpmu's class 0xf0, and its own D-cache miss event
fs u74-coh-upg u74 0x1f0,0x4f0 COH,UPG
fs u74-inv-snoop u74 0x2f0,0x8f0 INV,SNOOP
fs u74-l2 u74 0x10f0,0x20f0 L2,L2MISS
fs u74-dmiss u74 0x202,0x1f0 L1DMISS,COH --quantum 333
if command -v qemu-system-riscv64 >/dev/null 2>&1; then
	for n in 2 4 8; do
		build "hartsq$n" "$n" -DHOST_TIME_COUNTERS || continue
		timeout 60 qemu-system-riscv64 -machine virt -bios none -smp "$n" -nographic \
			-kernel "$out/hartsq$n.elf" </dev/null >"$out/qemu$n.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && echo "PASS smp qemu $n harts (the test itself)" ||
			echo "FAIL smp qemu $n harts: check $rc failed (a bad test if rvpmu passes)"
	done
	if build fsq 2 "-DSELS=0 -DKINDS=COH -DHOST_COUNTERS" false_sharing.c; then
		timeout 60 qemu-system-riscv64 -machine virt -bios none -smp 2 -nographic \
			-kernel "$out/fsq.elf" </dev/null >"$out/qemu-fs.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && echo "PASS smp qemu false sharing (the turns themselves)" ||
			echo "FAIL smp qemu false sharing: exit $rc (a bad test if rvpmu passes)"
	fi
fi
