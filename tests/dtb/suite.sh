#!/bin/sh
# The generated device tree: dtc decompiles it cleanly, and it says what
# the machine and the profile have (ISA extensions, PMU event map).
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/dtb"
mkdir -p "$out"
pass() { echo "PASS dtb $1"; }
fail() { echo "FAIL dtb $1: $2"; }
# any image will do: --dump-dtb stops before running it
img="$out/nop.bin"
printf '\157\000\000\000' > "$img"   # jal x0, 0
for p in default virt u74; do
	args=""
	[ "$p" != default ] && args="--profile $p"
	# shellcheck disable=SC2086
	if ! "$RVPMU" system $args --kernel "$img" --dump-dtb "$out/$p.dtb" 2>"$out/$p.err"; then
		fail "$p dump" "$(cat "$out/$p.err")"
		continue
	fi
	if dtc -I dtb -O dts -o "$out/$p.dts" "$out/$p.dtb" 2>"$out/$p.dtc" && [ ! -s "$out/$p.dtc" ]; then
		pass "$p decompiles without warnings"
	else
		fail "$p decompiles" "$(head -3 "$out/$p.dtc")"
	fi
	grep -q 'compatible = "riscv,pmu"' "$out/$p.dts" && grep -q "riscv,event-to-mhpmcounters" "$out/$p.dts" &&
		pass "$p has the /pmu node" || fail "$p /pmu node" "missing"
done
grep -q 'isa-extensions = .*sscofpmf' "$out/virt.dts" 2>/dev/null && pass "virt lists sscofpmf" || fail "virt lists sscofpmf" "not in riscv,isa-extensions"
grep -q 'sscofpmf' "$out/u74.dts" 2>/dev/null && fail "u74 lists no sscofpmf" "it does" || pass "u74 lists no sscofpmf"

# The PLIC and the UART's wiring, as QEMU virt describes them (values from
# the SiFive PLIC binding and the virt memory map, not from a run)
d="$out/default.dtb"
g() { fdtget "$@" 2>/dev/null; }
intc=$(g -t u "$d" /cpus/cpu@0/interrupt-controller phandle)
plic=$(g -t u "$d" /soc/plic@c000000 phandle)
[ "$(g "$d" /soc/plic@c000000 compatible)" = "sifive,plic-1.0.0 riscv,plic0" ] &&
	pass "plic compatible sifive,plic-1.0.0 riscv,plic0" || fail "plic compatible" "$(g "$d" /soc/plic@c000000 compatible)"
[ "$(g -t x "$d" /soc/plic@c000000 reg)" = "0 c000000 0 600000" ] &&
	pass "plic reg 0xc000000 size 0x600000" || fail "plic reg" "$(g -t x "$d" /soc/plic@c000000 reg)"
[ "$(g -t u "$d" /soc/plic@c000000 riscv,ndev)" = 96 ] &&
	pass "plic riscv,ndev 96 (QEMU 7.2 virt)" || fail "plic riscv,ndev" "$(g -t u "$d" /soc/plic@c000000 riscv,ndev)"
[ -n "$intc" ] && [ "$(g -t u "$d" /soc/plic@c000000 interrupts-extended)" = "$intc 11 $intc 9" ] &&
	pass "plic interrupts-extended: cpu intc 11 (M external), 9 (S external)" ||
	fail "plic interrupts-extended" "$(g -t u "$d" /soc/plic@c000000 interrupts-extended), cpu intc phandle ${intc:-missing}"
g "$d" /soc/plic@c000000 interrupt-controller >/dev/null && [ "$(g -t u "$d" /soc/plic@c000000 '#interrupt-cells')" = 1 ] &&
	[ "$(g -t u "$d" /soc/plic@c000000 '#address-cells')" = 0 ] &&
	pass "plic is an interrupt-controller, #interrupt-cells 1" || fail "plic interrupt-controller" "property missing"
[ -n "$plic" ] && [ "$(g -t u "$d" /soc/serial@10000000 interrupts)" = 10 ] &&
	[ "$(g -t u "$d" /soc/serial@10000000 interrupt-parent)" = "$plic" ] &&
	pass "serial interrupts 10, interrupt-parent the plic" ||
	fail "serial interrupts" "$(g -t u "$d" /soc/serial@10000000 interrupts) parent $(g -t u "$d" /soc/serial@10000000 interrupt-parent), plic ${plic:-missing}"
# one node per memory-map device
[ "$(g -l "$d" /soc | sort | tr '\n' ' ')" = "clint@2000000 plic@c000000 serial@10000000 test@100000 " ] &&
	pass "soc nodes are the memory map's devices" || fail "soc nodes" "$(g -l "$d" /soc | tr '\n' ' ')"
# the same nodes as QEMU 7.2's virt machine (its dumpdtb): property names,
# and the values that do not depend on phandle numbering
QEMU=${QEMU_SYSTEM:-qemu-system-riscv64}
q="$out/qemu-virt.dtb"
if ! "$QEMU" -machine virt,dumpdtb="$q" -nographic >/dev/null 2>&1; then
	fail "qemu plic and serial nodes" "$QEMU -machine virt,dumpdtb failed or not installed"
else
	for n in plic@c000000 serial@10000000; do
		a=$(g -p "$d" /soc/$n | sort | tr '\n' ' ')
		b=$(g -p "$q" /soc/$n | sort | tr '\n' ' ')
		for p in compatible reg riscv,ndev interrupts; do
			a="$a|$(g -t x "$d" /soc/$n $p)"
			b="$b|$(g -t x "$q" /soc/$n $p)"
		done
		[ "$a" = "$b" ] && pass "$n as QEMU virt has it" || fail "$n as QEMU virt" "rvpmu '$a', qemu '$b'"
	done
fi

# --dtb FILE: the machine boots with the user's tree; /chosen takes
# --append (and --initrd), as QEMU's -dtb does
k=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin   # any image will do for --dump-dtb
a="$out/user.dts"
"$RVPMU" system --kernel "$k" --dump-dtb "$out/orig.dtb" 2>/dev/null &&
	dtc -q -I dtb -O dts "$out/orig.dtb" | sed 's/model = "rvpmu,virt"/model = "user,tree"/' > "$a" &&
	dtc -q -I dts -O dtb -o "$out/user.dtb" "$a" || fail "--dtb setup" "dump or dtc failed"
"$RVPMU" system --kernel "$k" --dtb "$out/user.dtb" --append "root=/dev/x quiet" --dump-dtb "$out/back.dtb" 2>"$out/dtb.err"
if dtc -q -I dtb -O dts "$out/back.dtb" > "$out/back.dts" 2>&1; then
	grep -q 'model = "user,tree"' "$out/back.dts" && grep -q 'bootargs = "root=/dev/x quiet"' "$out/back.dts" &&
		pass "--dtb: the user's tree, with /chosen/bootargs from --append" ||
		fail "--dtb" "$(grep -E 'model|bootargs' "$out/back.dts" | tr '\n' ' ')"
else
	fail "--dtb" "the result does not decompile: $(cat "$out/dtb.err")"
fi
head -c 100 /dev/urandom > "$out/junk.dtb"
for bad in "$out/junk.dtb" "$out/does-not-exist.dtb"; do
	"$RVPMU" system --kernel "$k" --dtb "$bad" 2>"$out/dtb.err" >/dev/null </dev/null
	rc=$?
	[ "$rc" != 0 ] && grep -q -- "--dtb" "$out/dtb.err" && pass "--dtb $(basename "$bad"): exit $rc, '$(head -1 "$out/dtb.err")'" ||
		fail "--dtb $(basename "$bad")" "exit $rc: $(cat "$out/dtb.err")"
done
# an empty kernel or initrd is named as such
: > "$out/empty.img"
for what in kernel initrd; do
	if [ $what = kernel ]; then
		"$RVPMU" system --kernel "$out/empty.img" 2>"$out/empty.err" >/dev/null </dev/null
	else
		"$RVPMU" system --kernel "$k" --initrd "$out/empty.img" 2>"$out/empty.err" >/dev/null </dev/null
	fi
	rc=$?
	[ "$rc" = 1 ] && [ "$(cat "$out/empty.err")" = "rvpmu system: $out/empty.img: empty file" ] &&
		pass "empty --$what: exit 1, 'empty file'" ||
		fail "empty --$what" "exit $rc: $(cat "$out/empty.err")"
done
# Linux boots on it and reports the user's model
img=""
# beside the clone, inside it, the workspace copy (for clones made elsewhere), or the override
for dd in ../../../shared/linux/prebuilt ../../shared/linux/prebuilt /work/shared/linux/prebuilt "${RVPMU_LINUX_DIR:-/nonexistent}"; do
	[ -f "$dd/Image" ] && img=$dd
done
if [ -n "$img" ]; then
	"$RVPMU" system --profile virt --no-uarch --dtb "$out/user.dtb" --kernel "$img/Image" \
		--initrd "$img/initramfs.cpio.gz" --append "console=hvc0 earlycon=sbi" \
		--max-insns 20000000000 </dev/null > "$out/linux-dtb.log" 2>&1
	grep -aq "Machine model: user,tree" "$out/linux-dtb.log" && grep -aq "^SUMMARY:" "$out/linux-dtb.log" &&
		pass "--dtb: Linux boots on the user's tree (Machine model: user,tree)" ||
		fail "--dtb Linux" "$(grep -a 'Machine model\|SUMMARY' "$out/linux-dtb.log" | tr '\n' ' ')"
else
	fail "--dtb Linux" "no shared/linux/prebuilt/Image"
fi
# --dtb with damaged trees (random byte changes of a valid one): a clear
# error or a boot, never a crash
if python3 - "$RVPMU" "$k" "$out/orig.dtb" "$out" <<'PY'
import random, subprocess, sys
rv, k, src, out = sys.argv[1:5]
d = bytearray(open(src, "rb").read())
rnd = random.Random(7)
for i in range(200):
    x = bytearray(d)
    for _ in range(rnd.randint(1, 8)):
        x[rnd.randrange(len(x))] = rnd.randrange(256)
    open(out + "/fuzz.dtb", "wb").write(x)
    r = subprocess.run([rv, "system", "--kernel", k, "--dtb", out + "/fuzz.dtb", "--append", "x",
                        "--dump-dtb", out + "/fuzz-out.dtb"], capture_output=True, timeout=30)
    if r.returncode not in (0, 1) or (r.returncode == 1 and b"--dtb" not in r.stderr):
        print(f"mutation {i}: exit {r.returncode}: {r.stderr[-200:]!r}")
        sys.exit(1)
PY
then pass "--dtb: 200 damaged trees, each a clear error or a boot"
else fail "--dtb damaged trees" "see above"
fi
