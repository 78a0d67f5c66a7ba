#!/bin/sh
# Boot the shared Linux 6.12 test image (../shared/linux/prebuilt) on
# rvpmu with Debian's OpenSBI 1.1 and run its perf_event_open tests; the
# guest prints PASS/FAIL/SKIP lines and "SUMMARY: N passed, N failed, N
# skipped", then powers off through SBI SRST.
cd "$(dirname "$0")/../.." || exit 1
out="$BUILD/tests/linux"
mkdir -p "$out"
img=""
for d in ../shared/linux/prebuilt shared/linux/prebuilt "${RVPMU_LINUX_DIR:-/nonexistent}"; do
	[ -f "$d/Image" ] && img=$d
done
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
if [ -z "$img" ] || [ ! -f "$fw" ]; then
	echo "FAIL linux image: no shared/linux/prebuilt/Image or no $fw"
	exit 0
fi
log="$out/opensbi.log"
"$RVPMU" system --profile virt --bios "$fw" --kernel "$img/Image" --initrd "$img/initramfs.cpio.gz" \
	--append "console=hvc0 earlycon=sbi" --max-insns 20000000000 > "$log" 2>&1
rc=$?
sum=$(grep '^SUMMARY:' "$log")
if [ "$rc" != 0 ] || [ -z "$sum" ]; then
	echo "FAIL linux opensbi boot: exit $rc, no summary ($(tail -2 "$log" | tr '\n' '|'))"
	exit 0
fi
echo "PASS linux opensbi boot to init ($sum)"
# each guest test as its own line; the one skip OpenSBI 1.1 causes (it
# rejects SKIP_MATCH, so legacy user-mode counting never schedules) is a
# recorded deviation, printed as such only when it is exactly that
grep -E '^(PASS|FAIL|SKIP) ' "$log" | while read -r res name rest; do
	name=${name%:}
	case "$res" in
	PASS) echo "PASS linux guest $name" ;;
	SKIP) if [ "$name" = user_rdcycle_legacy_counting ] && echo "$rest" | grep -q "SKIP_MATCH"; then
		echo "PASS linux opensbi-deviation $name: OpenSBI 1.1 rejects SKIP_MATCH"
	      else
		echo "FAIL linux guest $name: skipped: $rest"
	      fi ;;
	*) echo "FAIL linux guest $name: $rest" ;;
	esac
done
grep -q "riscv-pmu-sbi: .*firmware and hardware counters\|SBI PMU extension is available" "$log" &&
	echo "PASS linux riscv_pmu_sbi probed the SBI PMU" ||
	echo "FAIL linux riscv_pmu_sbi: the driver did not report the SBI PMU"
grep -q "sscofpmf" "$log" && echo "PASS linux the kernel sees sscofpmf" ||
	echo "FAIL linux sscofpmf: not in /proc/cpuinfo"
