#!/bin/sh
# S-mode SBI conformance payloads: Base extension and PMU extension.
# Each tests/sbi/<payload>.c is linked with crt0.S + rt.c + pmu-asm.S into
# an S-mode image at 0x80200000 (the SBI boot protocol: a0 = hartid, a1 =
# device tree). It prints one line per numbered check through the SBI
# console (DBCN, else legacy putchar) and shuts down with SRST (reason 0
# when every check passed); the summary line "checks K, all passed" /
# "checks K, first failing F" carries the result.
#
# Platforms, one line per payload and platform on stdout:
#   qemu           qemu-system-riscv64 (7.2) + Debian's OpenSBI 1.1 fw_jump
#   rvpmu          "$RVPMU" system --bios builtin (rvpmu's own SBI)
#   rvpmu-opensbi  "$RVPMU" system --bios fw_jump.bin (Debian's OpenSBI 1.1)
#                  (on by default; RVPMU_SBI_OPENSBI=0 skips it)
#   rvpmu-opensbi-dynamic  the same with fw_dynamic.bin (a2 = the
#                  fw_dynamic_info in rvpmu's boot ROM); same deviations
#   PASS sbi <platform> <payload>                all checks passed
#   PASS sbi <platform>-deviation <payload>: check N: ...   the run failed
#       exactly the checks listed for that platform below, each with the
#       recorded value; never reported as a plain PASS
#   FAIL sbi <platform> <payload>: why
# After the matrix: sbi-misaligned and sbi-hfence (the RFENCE hypervisor
# fences, with and without H), each on its own platforms (below).
# docs/sbi-tests.md describes every check and every deviation.
here=$(cd "$(dirname "$0")" && pwd)
: "${RVPMU:=$here/../../build/rvpmu}" "${BUILD:=$here/../../build}"
out=$BUILD/tests/sbi
mkdir -p "$out" || exit 1
CC=${SBI_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_SYSTEM:-qemu-system-riscv64}
FW=${OPENSBI_FW:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
FW_DYN=${OPENSBI_FW_DYNAMIC:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin}
T=${SBI_TIMEOUT:-20}
PAYLOADS="sbi-base sbi-pmu sbi-sample sbi-snapshot sbi-harts"

# Deviations from the SBI 3.0 behaviour the payloads assert, observed with
# run_qemu. cause "opensbi" = OpenSBI 1.1 (expected wherever it runs),
# "qemu" = QEMU 7.2's hart (expected on the qemu platform only).
# payload|check|value printed after "got" ('*' = any)|cause|what happens
E=0xfffffffffffffffe	# SBI_ERR_NOT_SUPPORTED as printed
DEVIATIONS="sbi-base|3|0x1000000|opensbi|get_spec_version = 0x01000000: OpenSBI 1.1 implements SBI 1.0
sbi-base|15|0x0|opensbi|probe_extension(DBCN) = 0: DBCN is SBI 2.0, the console uses legacy putchar
sbi-base|20|$E|opensbi|DBCN console_write -> NOT_SUPPORTED
sbi-pmu|14|*|qemu|window count includes firmware instructions: QEMU 7.2 ignores mhpmevent.MINH
sbi-pmu|16|0x0|qemu|a stopped hpmcounter reads its value once, then 0
sbi-pmu|33|0x0|opensbi|reserved config_flags bit accepted (counter configured)
sbi-pmu|34|0x0|opensbi|reserved start_flags bit accepted (counter started)
sbi-pmu|35|0x0|opensbi|reserved stop_flags bit accepted (counter stopped)
sbi-pmu|39|$E|opensbi|fw_read_hi (FID 6, SBI 2.0) -> NOT_SUPPORTED
sbi-pmu|40|0x0|opensbi|starting a started firmware counter succeeds (no ALREADY_STARTED)
sbi-pmu|43|0x0|opensbi|stopping a stopped firmware counter succeeds (no ALREADY_STOPPED)
sbi-pmu|48|0x0|opensbi|config_matching(set = {1}) succeeds with fixed counter 2, outside the set
sbi-sample|7|0x73a|qemu|LCOFI after 1850 of 2000 sled instructions: the firmware's own instructions after the counter write are counted (MINH ignored)
sbi-sample|17|0x73a|qemu|same after re-arming
sbi-snapshot|1|$E|opensbi|snapshot_set_shmem (FID 7, SBI 2.0) -> NOT_SUPPORTED
sbi-snapshot|2|$E|opensbi|same (flags = 1)
sbi-snapshot|3|$E|opensbi|same (hi = 1)
sbi-snapshot|4|$E|opensbi|same (valid page)
sbi-snapshot|7|0xa5a5a5a5a5a5a500|opensbi|TAKE_SNAPSHOT ignored: slot 0 keeps the fill pattern
sbi-snapshot|9|0x1|opensbi|TAKE_SNAPSHOT ignored: overflow bitmap not written
sbi-snapshot|11|*|opensbi|INIT_SNAPSHOT ignored: counter resumes from its own value
sbi-snapshot|12|*|opensbi|TAKE_SNAPSHOT ignored: slot idx keeps the fill pattern
sbi-snapshot|13|0xdead|opensbi|TAKE_SNAPSHOT ignored after an overflow: bitmap keeps the fill pattern
sbi-snapshot|14|$E|opensbi|snapshot_set_shmem(-1, -1) -> NOT_SUPPORTED
sbi-snapshot|15|0x0|opensbi|TAKE_SNAPSHOT without shared memory not rejected (no NO_SHMEM)
sbi-snapshot|16|0x0|opensbi|INIT_SNAPSHOT without shared memory not rejected (no NO_SHMEM)
sbi-snapshot|17|$E|opensbi|event_get_info (FID 8, SBI 3.0) -> NOT_SUPPORTED
sbi-snapshot|18|0xffffffff|opensbi|event_get_info output words not written
sbi-snapshot|19|0xffffffff|opensbi|same
sbi-snapshot|20|0x1|opensbi|same (first entry's reserved bits)
sbi-snapshot|21|0x0|opensbi|same (outputs disagree with config_matching)
sbi-snapshot|22|$E|opensbi|event_get_info -> NOT_SUPPORTED (flags = 1)
sbi-snapshot|23|$E|opensbi|same (misaligned)
sbi-snapshot|24|$E|opensbi|same (bad event_idx)
sbi-snapshot|25|$E|opensbi|same (hi = 1)
sbi-harts|27|0x4|opensbi|send_ipi(self) counts IPI_SENT: OpenSBI 1.1 sends the calling hart an IPI too
sbi-harts|29|0x0|opensbi|a hart id past the last hart in hart_mask is dropped, not INVALID_PARAM
sbi-harts|32|0x4|opensbi|IPI_SENT includes the self-IPI of check 27"

# Values the payloads report ("info KEY VALUE") that must match:
# platform class (opensbi = qemu and rvpmu-opensbi)|payload|key|value
INFOS="opensbi|sbi-base|impl_id|0x1
opensbi|sbi-base|impl_version|0x10001
qemu|sbi-pmu|num_counters|0x23"

build() {	# build PAYLOAD: $out/PAYLOAD.elf
	$CC -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -nostdlib -nostartfiles \
		-ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror -I"$here" \
		-T "$here/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
		-o "$out/$1.elf" "$here/crt0.S" "$here/rt.c" "$here/pmu-asm.S" "$here/$1.c" >&2
}

# qemu_boot_hart0 PAYLOAD: run it under QEMU until OpenSBI boots on hart 0.
# fw_jump's cold-boot lottery picks any hart under QEMU, and with another
# boot hart OpenSBI 1.1 never reports hart_stop of the next hart (the run
# spins to the timeout), so a run that boots elsewhere is stopped as soon
# as the banner says so and started again (each try takes well under a
# second; 40 tries all losing has a chance of (3/4)^40, about 1e-5).
qemu_boot_hart0() {
	for try in $(seq 40); do
		timeout "$T" "$QEMU" -machine virt -cpu rv64,sscofpmf=true -m 256M -nographic \
			-monitor none $icount -smp "$smp" -bios "$FW" -kernel "$out/$1.elf" \
			</dev/null >"$o" 2>"${o%.out}.err" &
		q=$!
		[ "$smp" = 1 ] && { wait $q; return; }
		while kill -0 $q 2>/dev/null && ! grep -q '^Boot HART ID' "$o"; do
			sleep 0.05
		done
		if grep -q '^Boot HART ID *: 0\b' "$o" || ! grep -q '^Boot HART ID' "$o"; then
			wait $q; return
		fi
		kill $q 2>/dev/null; wait $q 2>/dev/null
	done
}

# run PLATFORM PAYLOAD: console in $out/PAYLOAD.PLATFORM.out, status in $rc.
# QEMU needs -icount for instret/hpmcounters to count instructions (without
# it they follow the host clock).
# sbi-harts needs 4 harts (and counts no instructions: with -icount QEMU
# 7.2 never starts the second hart); the others run on one.
run() {
	o=$out/$2.$1.out
	smp=1 icount="-icount shift=0"
	[ "$2" = sbi-harts ] && smp=4 icount=
	case $1 in
	qemu) qemu_boot_hart0 "$2" ;;
	rvpmu) timeout "$T" "$RVPMU" system --bios builtin --smp "$smp" --kernel "$out/$2.elf" \
		--max-insns 50000000 </dev/null >"$o" 2>"${o%.out}.err" ;;
	rvpmu-opensbi) timeout "$T" "$RVPMU" system --bios "$FW" --smp "$smp" --kernel "$out/$2.elf" \
		--max-insns 50000000 </dev/null >"$o" 2>"${o%.out}.err" ;;
	rvpmu-opensbi-dynamic) timeout "$T" "$RVPMU" system --bios "$FW_DYN" --smp "$smp" \
		--kernel "$out/$2.elf" --max-insns 50000000 </dev/null >"$o" 2>"${o%.out}.err" ;;
	esac
	rc=$?
	# OpenSBI's console turns \n into \r\n
	tr -d '\r' <"$o" >"$o.tmp" && mv "$o.tmp" "$o"
}

# why OUT RC: reason for a FAIL line
why() {
	if [ "$2" = 124 ]; then
		printf 'timed out after %ss' "$T"; return
	fi
	f=$(grep -m1 -E '^(FATAL|FAIL) ' "$1")
	if [ -n "$f" ]; then
		printf 'exit %s, %s' "$2" "$f"
	elif grep -q '^checks ' "$1"; then
		printf 'exit %s' "$2"
	else
		f=$(cat "${1%.out}.err" "$1" 2>/dev/null | grep -v '^ok ' | grep . | head -n 1)
		printf 'exit %s before finishing: %s' "$2" "${f:-no output}"
	fi
}

# expected deviations of PAYLOAD on PLATFORM (lines of the table)
expected() {
	case $1 in
	qemu) printf '%s\n' "$DEVIATIONS" | awk -F'|' -v p="$2" '$1 == p' ;;
	rvpmu-opensbi|rvpmu-opensbi-dynamic) printf '%s\n' "$DEVIATIONS" | awk -F'|' -v p="$2" '$1 == p && $4 == "opensbi"' ;;
	esac
}

# infos_ok PLATFORM PAYLOAD: every required info value seen (else prints why)
infos_ok() {
	case $1 in qemu) cls='qemu|opensbi' ;; rvpmu-opensbi|rvpmu-opensbi-dynamic) cls='opensbi' ;; *) return 0 ;; esac
	printf '%s\n' "$INFOS" | awk -F'|' -v p="$2" -v c="^($cls)\$" '$2 == p && $1 ~ c' |
	while IFS='|' read -r c p k v; do
		g=$(sed -n "s/^info $k \\([^ ]*\\)\$/\\1/p" "$o" | head -n 1)
		if [ "$g" != "$v" ]; then
			printf 'info %s = %s, recorded %s' "$k" "${g:-missing}" "$v"
			exit 1
		fi
	done
}

# deviation PLATFORM PAYLOAD: succeed iff the run failed exactly the listed
# checks with the listed values; then print the deviation lines
deviation() {
	exp=$(expected "$1" "$2")
	[ -n "$exp" ] || return 1
	[ "$rc" != 124 ] && ! grep -q '^FATAL' "$o" || return 1
	grep -q '^checks [0-9]*, first failing [0-9]*$' "$o" || return 1
	got=$(grep '^FAIL ' "$o" | sed -n 's/^FAIL \([0-9]*\) .*: got \([^ ]*\) want [^ ]*$/\1|\2/p')
	[ "$(printf '%s\n' "$got" | wc -l)" = "$(grep -c '^FAIL ' "$o")" ] || return 1
	[ "$(printf '%s\n' "$got" | wc -l)" = "$(printf '%s\n' "$exp" | wc -l)" ] || return 1
	printf '%s\n' "$exp" | while IFS='|' read -r p n v c d; do
		g=$(printf '%s\n' "$got" | awk -F'|' -v n="$n" '$1 == n { print $2 }')
		[ -n "$g" ] || exit 1
		[ "$v" = '*' ] || [ "$v" = "$g" ] || exit 1
	done || return 1
	printf '%s\n' "$exp" | while IFS='|' read -r p n v c d; do
		echo "PASS sbi $1-deviation $2: check $n: $d"
	done
}

# report PLATFORM PAYLOAD: the PASS/FAIL lines for one run
report() {
	o=$out/$2.$1.out
	if [ "$rc" = 124 ] || ! grep -q '^checks ' "$o" || grep -q '^FATAL' "$o"; then
		echo "FAIL sbi $1 $2: $(why "$o" "$rc")"
		return
	fi
	iw=$(infos_ok "$1" "$2")
	if [ -n "$iw" ]; then
		echo "FAIL sbi $1 $2: $iw"
	elif [ "$rc" = 0 ] && grep -q '^checks [0-9]*, all passed$' "$o" && ! grep -q '^FATAL' "$o"; then
		echo "PASS sbi $1 $2"
		if [ -n "$(expected "$1" "$2")" ]; then
			echo "FAIL sbi $1-deviation $2: documented deviation no longer seen (update suite.sh and docs/sbi-tests.md)"
		fi
	elif ! deviation "$1" "$2"; then
		echo "FAIL sbi $1 $2: $(why "$o" "$rc")"
		grep -E '^(FAIL|FATAL) ' "$o" | sed "s/^/[sbi $1 $2] /" >&2
	fi
}

platforms="qemu rvpmu"
[ "${RVPMU_SBI_OPENSBI:-1}" = 1 ] && platforms="$platforms rvpmu-opensbi rvpmu-opensbi-dynamic"
have_qemu=1
command -v "$QEMU" >/dev/null 2>&1 || have_qemu=0
[ "$have_qemu" = 1 ] && "$QEMU" --version | head -n 1 >&2
[ -r "$FW" ] || have_qemu=0
for p in $PAYLOADS; do
	if ! build "$p"; then
		for pl in $platforms; do echo "FAIL sbi $pl $p: build failed"; done
		continue
	fi
	for pl in $platforms; do
		case $pl in
		qemu) if [ "$have_qemu" = 0 ]; then
				echo "FAIL sbi qemu $p: $QEMU or $FW not installed"; continue
			fi ;;
		rvpmu-opensbi) if [ ! -r "$FW" ]; then
				echo "FAIL sbi $pl $p: $FW not installed"; continue
			fi ;;
		rvpmu-opensbi-dynamic) if [ ! -r "$FW_DYN" ]; then
				echo "FAIL sbi $pl $p: $FW_DYN not installed"; continue
			fi ;;
		esac
		case $pl in rvpmu*) if [ ! -x "$RVPMU" ]; then
				echo "FAIL sbi $pl $p: $RVPMU not built"; continue
			fi ;;
		esac
		run "$pl" "$p"
		report "$pl" "$p"
	done
done

# Misaligned loads and stores from S-mode (sbi-misaligned.c): on a core
# whose profile traps them (virt with "misaligned": "trap") the firmware
# emulates each and counts it; where the hart handles them the values are
# the same and the firmware counts nothing.
trap_prof=$out/virt-misaligned-trap.json
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["name"]="virt-trap"; p["misaligned"]="trap"; json.dump(p, open(sys.argv[2], "w"))' \
	"$here/../../profiles/virt.json" "$trap_prof"
mis() {	# NAME TRAPS COMMAND... (ending in its kernel option): build with -DTRAPS, run
	name=$1 traps=$2
	shift 2
	e=$out/sbi-misaligned-$traps.elf o=$out/sbi-misaligned.$name.out
	if ! $CC -march=rv64imafdc_zicsr_zifencei -mabi=lp64 -mcmodel=medany -nostdlib -nostartfiles \
		-ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror -I"$here" -DTRAPS="$traps" \
		-T "$here/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments -o "$e" \
		"$here/crt0.S" "$here/rt.c" "$here/pmu-asm.S" "$here/sbi-misaligned.c" >&2; then
		echo "FAIL sbi misaligned $name: build failed"
		return
	fi
	timeout "$T" "$@" "$e" </dev/null 2>"$o.err" | tr -d '\r' > "$o"
	grep -q '^checks 17, all passed$' "$o" && echo "PASS sbi misaligned $name" ||
		echo "FAIL sbi misaligned $name: $(grep -E '^(FAIL|FATAL|checks)' "$o" | head -n 3 | tr '\n' ' ')"
}
mis rvpmu-trap 1 "$RVPMU" system --profile "$trap_prof" --no-uarch --max-insns 50000000 --kernel
mis rvpmu-opensbi-trap 1 "$RVPMU" system --profile "$trap_prof" --no-uarch --bios "$FW" --max-insns 50000000 --kernel
mis rvpmu-handle 0 "$RVPMU" system --profile virt --no-uarch --max-insns 50000000 --kernel
[ "$have_qemu" = 1 ] && mis qemu 0 "$QEMU" -machine virt -cpu rv64,sscofpmf=true -m 256M -nographic \
	-monitor none -bios "$FW" -kernel || echo "FAIL sbi misaligned qemu: $QEMU or $FW not installed"

# The RFENCE extension's hypervisor fences (sbi-hfence.c) on 2 harts:
# built with -DHAS_H=1 for a core with H (rvpmu's virt profile, QEMU with
# h=true) and -DHAS_H=0 for one without (rvpmu with no profile, QEMU
# h=false), where each answers NOT_SUPPORTED. OpenSBI 1.1 (on QEMU and
# on rvpmu) drops a hart id past the last hart from the mask instead of
# answering INVALID_PARAM (check 17, as sbi-harts check 29): the one
# deviation, reported as such.
hf() {	# NAME HAS_H DEVIATES COMMAND... (ending in its kernel option)
	name=$1 hh=$2 dev=$3
	shift 3
	e=$out/sbi-hfence-$hh.elf o=$out/sbi-hfence.$name.out
	if ! $CC -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -nostdlib -nostartfiles \
		-ffreestanding -fno-builtin -O2 -g -Wall -Wextra -Werror -I"$here" -DHAS_H="$hh" \
		-T "$here/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments -o "$e" \
		"$here/crt0.S" "$here/rt.c" "$here/pmu-asm.S" "$here/sbi-hfence.c" >&2; then
		echo "FAIL sbi hfence $name: build failed"
		return
	fi
	timeout "$T" "$@" "$e" </dev/null 2>"$o.err" | tr -d '\r' > "$o"
	n=7
	[ "$hh" = 1 ] && n=57
	if ! grep -q "^info has_h 0x$hh\$" "$o"; then
		echo "FAIL sbi hfence $name: $(grep -E '^(FAIL|FATAL|checks|info has_h)' "$o" | head -n 3 | tr '\n' ' ')"
	elif [ "$dev" = 0 ] && grep -q "^checks $n, all passed\$" "$o"; then
		echo "PASS sbi hfence $name"
	elif [ "$dev" = 1 ] && grep -q "^checks $n, first failing 17\$" "$o" && [ "$(grep -c '^FAIL ' "$o")" = 1 ] &&
		grep -q '^FAIL 17 .*: got 0x0 want 0xfffffffffffffffd$' "$o"; then
		echo "PASS sbi hfence $name-deviation: check 17: a hart past the last one in hart_mask is dropped, not INVALID_PARAM"
	else
		echo "FAIL sbi hfence $name: $(grep -E '^(FAIL|FATAL|checks)' "$o" | head -n 3 | tr '\n' ' ')"
	fi
}
hf rvpmu 1 0 "$RVPMU" system --profile virt --no-uarch --smp 2 --max-insns 50000000 --kernel
hf rvpmu-no-h 0 0 "$RVPMU" system --smp 2 --max-insns 50000000 --kernel
if [ -r "$FW" ]; then
	hf rvpmu-opensbi 1 1 "$RVPMU" system --profile virt --no-uarch --bios "$FW" --smp 2 --max-insns 50000000 --kernel
	hf rvpmu-opensbi-no-h 0 0 "$RVPMU" system --bios "$FW" --smp 2 --max-insns 50000000 --kernel
else
	echo "FAIL sbi hfence rvpmu-opensbi: $FW not installed"
fi
if [ "$have_qemu" = 1 ]; then
	hf qemu 1 1 "$QEMU" -machine virt -cpu rv64,h=true,sscofpmf=true -m 256M -nographic \
		-monitor none -smp 2 -bios "$FW" -kernel
	hf qemu-no-h 0 0 "$QEMU" -machine virt -cpu rv64,h=false,sscofpmf=true -m 256M -nographic \
		-monitor none -smp 2 -bios "$FW" -kernel
else
	echo "FAIL sbi hfence qemu: $QEMU or $FW not installed"
fi

# --trace-sbi: one line per call with the extension, function, arguments
# and result; --no-sbi-snapshot: FID 7 answers SBI_ERR_NOT_SUPPORTED (-2)
if [ -x "$RVPMU" ] && [ -f "$out/sbi-base.elf" ]; then
	"$RVPMU" system --trace-sbi --kernel "$out/sbi-base.elf" --max-insns 50000000 </dev/null \
		>/dev/null 2>"$out/trace.err"
	grep -q '^sbi: BASE.fid 0(0, 0, 0, 0, 0, 0) = 0, 0x3000000 at instret [0-9]*$' "$out/trace.err" &&
		echo "PASS sbi trace-sbi: BASE.fid 0 (get_spec_version) = 0, 0x3000000" ||
		echo "FAIL sbi trace-sbi: $(head -n 2 "$out/trace.err" | tr '\n' '|')"
fi
if [ -x "$RVPMU" ] && [ -f "$out/sbi-snapshot.elf" ]; then
	"$RVPMU" system --no-sbi-snapshot --trace-sbi --kernel "$out/sbi-snapshot.elf" \
		--max-insns 50000000 </dev/null >/dev/null 2>"$out/nosnap.err"
	n=$(grep -c 'PMU.snapshot_set_shmem(' "$out/nosnap.err")
	[ "$n" -gt 0 ] && ! grep 'PMU.snapshot_set_shmem(' "$out/nosnap.err" | grep -qv ') = -2 at' &&
		echo "PASS sbi no-sbi-snapshot: all $n snapshot_set_shmem calls get SBI_ERR_NOT_SUPPORTED" ||
		echo "FAIL sbi no-sbi-snapshot: $(grep 'snapshot_set_shmem' "$out/nosnap.err" | head -n 2 | tr '\n' '|')"
fi
exit 0
