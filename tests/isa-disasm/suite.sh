#!/bin/sh
# rvpmu's decoder and disassembler against GNU objdump 2.40 (the reference).
#
# PASS/FAIL lines:
#   isa-unit *            host unit tests (tests/unit/isa_decode.c)
#   disasm <binary>       every line of objdump -d of <binary> disassembled
#                         by rvpmu from the same bytes and address; the text
#                         compared is objdump's with its tab made a space and
#                         its " <symbol>" suffix and "# value" comment cut
#   decode <set>          rvpmu's legality and table entry vs objdump -M
#                         no-aliases (all.S also: every table entry and every
#                         compressed form present)
# Binaries: static C programs (glibc, libm, pthreads; one built with Zba/Zbb/
# Zbs), all.S (every table instruction and compressed form), rand32 (every
# table entry with random operand fields, every CSR, 200000 random words;
# ISA_DISASM_RANDOM and ISA_DISASM_SEED change that)
# and rand16 (all 16-bit words). The random sets are built with an arch
# attribute of exactly rvpmu's extensions, so objdump decodes nothing rvpmu
# lacks; instructions in real binaries that rvpmu does not implement are
# counted in the PASS line, and so are the encodings where objdump 2.40 and
# the ISA manual disagree (see deviation() in disasm_check.c).
cd "$(dirname "$0")/../.." || exit 1
: "${BUILD:=$PWD/build}"
OUT=$BUILD/tests/isa-disasm
mkdir -p "$OUT" || exit 1
HOSTCC=${HOSTCC:-gcc}
T=riscv64-linux-gnu
ARCH=rv64gch_zba_zbb_zbs_zicsr_zifencei_zihintpause
D=tests/isa-disasm

for tool in $T-gcc $T-as $T-objdump $T-objcopy "$HOSTCC"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "FAIL isa-disasm-tools: $tool not found"
		exit 0
	fi
done
if ! $T-objdump --version | grep -q ' 2\.40'; then
	echo "FAIL isa-disasm-tools: the reference is objdump 2.40, found: $($T-objdump --version | head -1)"
	exit 0
fi

# Host programs link the ISA sources directly.
if ! $HOSTCC -std=gnu11 -O2 -Wall -Wextra -Werror -Iinclude -o "$OUT/disasm_check" \
	$D/disasm_check.c src/isa/*.c >&2; then
	echo "FAIL isa-disasm-build: disasm_check does not compile"
	exit 0
fi
# under ASan/UBSan: an out-of-bounds decoder table is a failure too
if $HOSTCC -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Wall -Wextra -Werror -Iinclude -o "$OUT/isa_decode" \
	tests/unit/isa_decode.c src/isa/*.c >&2; then
	"$OUT/isa_decode" > "$OUT/isa_decode.out"; rc=$?
	cat "$OUT/isa_decode.out"
	if [ $rc != 0 ] && ! grep -q '^FAIL ' "$OUT/isa_decode.out"; then
		echo "FAIL isa-unit run: exited $rc (sanitizer report in the log)"
	fi
else
	echo "FAIL isa-unit build: tests/unit/isa_decode.c does not compile"
fi
CHK=$OUT/disasm_check

# Guest binaries, built in the background while the random sets are made.
build_guests() {
	ok=0
	for p in hello fp atomics; do
		$T-gcc -static -O2 -o "$OUT/$p" $D/$p.c -lm -pthread >&2 || ok=1
	done
	$T-gcc -static -O2 -march=rv64gc_zba_zbb_zbs -o "$OUT/bitmanip" $D/bitmanip.c >&2 || ok=1
	$T-as -march=$ARCH -mpriv-spec=1.12 -o "$OUT/all.o" $D/all.S >&2 || ok=1
	return $ok
}
rm -f "$OUT/hello" "$OUT/fp" "$OUT/atomics" "$OUT/bitmanip" "$OUT/all.o" "$OUT/r.gen"
build_guests & guests=$!

# Raw words go into the .text of an object whose attributes name exactly
# rvpmu's extensions (priv spec 1.12: no attribute, objdump's default).
printf 'nop\n' > "$OUT/base.S"
$T-as -march=$ARCH -mpriv-spec=1.12 -o "$OUT/base.o" "$OUT/base.S" >&2 &&
	"$CHK" gen32 "${ISA_DISASM_RANDOM:-200000}" "${ISA_DISASM_SEED:-1}" "$OUT/rand32.bin" &&
	"$CHK" gen16 "$OUT/rand16.bin" &&
	$T-objcopy --update-section .text="$OUT/rand32.bin" "$OUT/base.o" "$OUT/rand32.o" &&
	$T-objcopy --update-section .text="$OUT/rand16.bin" "$OUT/base.o" "$OUT/rand16.o" ||
	echo "FAIL isa-disasm-build: random instruction sets" > "$OUT/r.gen"

check() { # name object cmp|legal [cover]
	if [ "$3" = legal ]; then
		$T-objdump -d -M no-aliases "$2" | "$CHK" legal "$1" $4
	else
		$T-objdump -d "$2" | "$CHK" cmp "$1"
	fi
}

if [ -s "$OUT/r.gen" ]; then
	cat "$OUT/r.gen"; rm -f "$OUT/r.gen"
else
	# two cores: the two large objdump runs side by side
	check rand32 "$OUT/rand32.o" cmp > "$OUT/r1.out" 2> "$OUT/r1.err" &
	p1=$!
	check rand32 "$OUT/rand32.o" legal > "$OUT/r2.out" 2> "$OUT/r2.err"
	wait $p1
	cat "$OUT/r1.out" "$OUT/r2.out"
	head -n 20 "$OUT/r1.err" "$OUT/r2.err" >&2
	check rand16 "$OUT/rand16.o" cmp 2> "$OUT/r3.err"
	check rand16 "$OUT/rand16.o" legal 2>> "$OUT/r3.err"
	head -n 20 "$OUT/r3.err" >&2
fi

if ! wait $guests; then
	echo "FAIL isa-disasm-build: guest programs (see the log)"
fi
for p in hello fp atomics bitmanip; do
	if [ -f "$OUT/$p" ]; then
		check $p "$OUT/$p" cmp 2> "$OUT/$p.err"
		head -n 20 "$OUT/$p.err" >&2
	fi
done
if [ -f "$OUT/all.o" ]; then
	check all "$OUT/all.o" cmp 2> "$OUT/all.err"
	check all "$OUT/all.o" legal cover 2>> "$OUT/all.err"
	head -n 20 "$OUT/all.err" >&2
fi
exit 0
