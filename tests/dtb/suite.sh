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
