# Sourced by tests/linux and tests/linux-smp: where the shared Linux image
# is, a boot of it on rvpmu, and the guest's result lines as suite lines
# "PASS $suite ..." / "FAIL $suite ...: why".

# linux_image [SUB]: $img, the directory holding the shared image,
# shared/linux/SUB (default prebuilt), found in $RVPMU_LINUX_DIR (the
# prebuilt one) or beside it, in the workspace copy for clones made
# elsewhere, inside the clone or beside it (run from the clone's top);
# empty when there is none
linux_image() {
	sub=${1:-prebuilt}
	img=""
	given=${RVPMU_LINUX_DIR:-/nonexistent}
	[ "$sub" = prebuilt ] || given=$given/../$sub
	for d in "$given" /work/shared/linux/$sub shared/linux/$sub \
		 ../shared/linux/$sub; do
		[ -f "$d/Image" ] && img=$d && break
	done
}

# linux_setup SUITE [SUB]: $suite, $out (made), $img (linux_image SUB)
# and $fw (OpenSBI's fw_jump); says FAIL and returns 1 when the image or
# the firmware is missing
linux_setup() {
	suite=$1 sub=${2:-prebuilt}
	out="$BUILD/tests/$1"
	mkdir -p "$out"
	linux_image "$sub"
	fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
	if [ -z "$img" ] || [ ! -f "$fw" ]; then
		echo "FAIL $1 image: no shared/linux/$sub/Image or no $fw"
		return 1
	fi
}

# linux_boot NAME INITRD APPEND OPTIONS...: boots $img/Image with INITRD
# and the kernel command line APPEND; the console goes to $out/NAME.log,
# stderr to $out/NAME.err. Sets $log and $sum (the guest's SUMMARY line);
# says whether it got there ("$suite NAME boot").
linux_boot() {
	name=$1 initrd=$2 append=$3
	shift 3
	log="$out/$name.log"
	"$RVPMU" system "$@" --kernel "$img/Image" --initrd "$initrd" --append "$append" \
		--max-insns 20000000000 </dev/null > "$log" 2>"$out/$name.err"
	rc=$?
	sum=$(grep -a '^SUMMARY:' "$log" | head -n 1 | tr -d '\r')  # ttyS0 sends CR LF
	if [ "$rc" != 0 ] || [ -z "$sum" ]; then
		echo "FAIL $suite $name boot: exit $rc, no summary ($(tail -n 2 "$log" "$out/$name.err" | tr '\n' '|'))"
		return 1
	fi
	echo "PASS $suite $name boot to init ($sum)"
}

# guest_lines TAG LOG [opensbi]: "PASS $suite TAG guest NAME" or "FAIL
# $suite TAG guest NAME: why" for each PASS/FAIL/SKIP line of the guest
# in LOG. With opensbi, the one skip OpenSBI 1.1 causes (it rejects
# SKIP_MATCH, so legacy user-mode counting never schedules) is a recorded
# deviation, "PASS $suite TAG-deviation NAME", only when it is exactly
# that.
guest_lines() {
	grep -a -E '^(PASS|FAIL|SKIP) ' "$2" | tr -d '\r' | while read -r res name rest; do
		name=${name%:}
		case "$res:$3" in
		PASS:*) echo "PASS $suite $1 guest $name" ;;
		SKIP:opensbi)
			if [ "$name" = user_rdcycle_legacy_counting ] && echo "$rest" | grep -q "SKIP_MATCH"; then
				echo "PASS $suite $1-deviation $name: OpenSBI 1.1 rejects SKIP_MATCH"
			else
				echo "FAIL $suite $1 guest $name: skipped: $rest"
			fi ;;
		*) echo "FAIL $suite $1 guest $name: $res $rest" ;;
		esac
	done
}

# pmu_probed TAG LOG: the kernel's riscv_pmu_sbi driver found the SBI PMU,
# and /proc/cpuinfo shows Sscofpmf
pmu_probed() {
	grep -aq "riscv-pmu-sbi: .*firmware and hardware counters\|SBI PMU extension is available" "$2" &&
		echo "PASS $suite $1 riscv_pmu_sbi probed the SBI PMU" ||
		echo "FAIL $suite $1 riscv_pmu_sbi: the driver did not report the SBI PMU"
	grep -aq "sscofpmf" "$2" && echo "PASS $suite $1 the kernel sees sscofpmf" ||
		echo "FAIL $suite $1 sscofpmf: not in /proc/cpuinfo"
}
