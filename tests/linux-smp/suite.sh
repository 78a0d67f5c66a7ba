#!/bin/sh
# Linux on four harts (--smp 4): the shared Linux 6.12 image on the
# built-in SBI and on Debian's OpenSBI 1.1 fw_jump, its /proc/cpuinfo
# and its perf tests; the same boot twice, byte for byte; then this
# suite's own /init (init.c, built into an initramfs here) with the
# per-CPU perf tests the shared image does not have, on both firmwares.
cd "$(dirname "$0")/../.." || exit 1
. tests/linux/lib.sh
linux_setup linux-smp || exit 0
smp="--smp 4"
con="console=hvc0 earlycon=sbi"
# The built-in SBI boots run the models and without the snapshot area
# (tests/linux/suite.sh says why); the OpenSBI ones without the models,
# as in tests/linux.
builtin="--profile virt --no-sbi-snapshot"
opensbi="--profile virt --no-uarch --bios $fw"

# cpuinfo NAME LOG: the image's init printed /proc/cpuinfo with harts
# 0, 1, 2, 3, once each (in any order: OpenSBI's boot hart, Linux's CPU
# 0, is whichever wins its lottery)
cpuinfo() {
	harts=$(grep -a -E '^  hart[[:space:]]+:' "$2" | tr -d '\r' | awk '{print $3}' | sort -n | tr '\n' ' ')
	[ "$harts" = "0 1 2 3 " ] && echo "PASS $suite $1 /proc/cpuinfo lists harts 0 1 2 3" ||
		echo "FAIL $suite $1 /proc/cpuinfo lists harts '$harts', want 0 1 2 3"
}

# shellcheck disable=SC2086 # the option lists split into words
if linux_boot builtin "$img/initramfs.cpio.gz" "$con" $smp $builtin; then
	guest_lines builtin "$log"
	[ "$sum" = "SUMMARY: 29 passed, 0 failed, 0 skipped" ] &&
		echo "PASS $suite builtin all 29 guest tests pass" ||
		echo "FAIL $suite builtin summary: $sum"
	cpuinfo builtin "$log"
	pmu_probed builtin "$log"
	# Determinism: the same boot again gives the same console, byte for
	# byte: its timestamps, and the guest's counts of every event
	first=$log
	if linux_boot builtin-again "$img/initramfs.cpio.gz" "$con" $smp $builtin; then
		if cmp -s "$first" "$log"; then
			echo "PASS $suite builtin-again console identical to the first boot's ($(wc -c < "$log") bytes)"
		else
			echo "FAIL $suite builtin-again console differs from the first boot's: $(cmp "$first" "$log" | head -n 1)"
		fi
	fi
fi
if linux_boot opensbi "$img/initramfs.cpio.gz" "$con" $smp $opensbi; then
	guest_lines opensbi "$log" opensbi
	cpuinfo opensbi "$log"
	pmu_probed opensbi "$log"
fi

# This suite's /init: a static program in a newc cpio of its own. The
# guest checks sample ips against the profile's skid.
rd="$out/initramfs"
rm -rf "$rd"
mkdir -p "$rd"
skid=$(sed -n 's/.*"skid": *\([0-9]*\).*/\1/p' profiles/virt.json)
if ! riscv64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$rd/init" tests/linux-smp/init.c \
	> "$out/init-build.log" 2>&1 ||
   ! (cd "$rd" && echo init | cpio -o -H newc -R 0:0 --reproducible --quiet > ../init.cpio); then
	echo "FAIL $suite init: did not build ($(tail -n 2 "$out/init-build.log" | tr '\n' '|'))"
	exit 0
fi
# init_boot NAME OPTIONS...: this /init on four harts, every test passing
init_boot() {
	name=$1
	shift
	if linux_boot "$name" "$out/init.cpio" "$con rvpmu_cpus=4 rvpmu_skid=$skid" $smp "$@"; then
		guest_lines "$name" "$log"
		[ "$sum" = "SUMMARY: 13 passed, 0 failed, 0 skipped" ] &&
			echo "PASS $suite $name all 13 guest tests pass" ||
			echo "FAIL $suite $name summary: $sum"
	fi
}
init_boot init-builtin $builtin
# OpenSBI 1.1's hart_start marks a hart START_PENDING before it stores
# the hart's start address (sbi_hsm_hart_start; later OpenSBI stores it
# first, "atomic_cmpxchg() is an implicit barrier"): a hart polling its
# state in the turn in which the starting hart's turn ended between the
# two jumps to the stale address (the kernel's _start, where it clears
# the running kernel's BSS) and never comes online. Whether a boot meets
# that window is a matter of where the turns fall; with this /init and the
# default 10000-instruction turns, it does (hart 1 ends in a trap storm at
# .Lsecondary_park), so this boot takes turns of a prime length.
init_boot init-opensbi $opensbi --quantum 9973
