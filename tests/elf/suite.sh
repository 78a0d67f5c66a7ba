#!/bin/sh
# User-mode Linux layer (src/linux): loading and running static riscv64
# programs.
#  - bad input: malformed ELF files made from a valid static program by
#    mkbad.py, plus real wrong inputs (dynamic program, object file, host
#    binary, directory, missing path, empty file, /dev/null). Each must exit
#    non-zero below 128 with exactly one stderr line "rvpmu run: ..." and
#    nothing on stdout.
#  - good programs: glibc static hello (compared with qemu-riscv64),
#    static-pie, the syscall self-test (progs/syscalls.c, one check per
#    "ok" line), fatal signals (exit status compared with qemu-riscv64),
#    --max-insns, --max-mem, --sysroot, determinism of clocks and random.
#  - the host unit test tests/unit/linux_test.c, unless tests/unit has its
#    own suite that runs it.
# One line per check on stdout: "PASS name" / "FAIL name: why".
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
: "${RVPMU:=$root/build/rvpmu}" "${BUILD:=$root/build}"
out=$BUILD/tests/elf
mkdir -p "$out/bad" || exit 1
CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-riscv64}
T=${GUEST_TIMEOUT:-60}
ulimit -c 0 2>/dev/null

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# build NAME [CFLAGS...]: progs/NAME.c -> $out/NAME (static)
build() {
	n=$1; shift
	src=$here/progs/$n.c bin=$out/$n
	[ -f "$bin" ] && [ "$bin" -nt "$src" ] && return 0
	$CC -O2 "$@" -o "$bin" "$src" >&2
}

# rv ARGS...: run rvpmu; sets rc, and $out/o.txt / $out/e.txt
rv() {
	timeout "$T" "$RVPMU" run "$@" </dev/null >"$out/o.txt" 2>"$out/e.txt"
	rc=$?
}

sanitizer_free() { ! grep -qE 'Sanitizer|runtime error|Segmentation fault|core dumped' "$out/e.txt"; }

# bad NAME ARGS...: rvpmu must refuse cleanly
bad() {
	name=$1; shift
	rv "$@"
	lines=$(wc -l < "$out/e.txt")
	first=$(head -n 1 "$out/e.txt")
	if [ "$rc" = 0 ] || [ "$rc" -ge 124 ]; then
		fail "elf_bad_$name" "exit status $rc ($(head -c 200 "$out/e.txt"))"
	elif [ "$lines" != 1 ] || [ "${first#rvpmu run: }" = "$first" ]; then
		fail "elf_bad_$name" "stderr is not one 'rvpmu run:' line: $(head -c 300 "$out/e.txt" | tr '\n' '|')"
	elif [ -s "$out/o.txt" ]; then
		fail "elf_bad_$name" "wrote to stdout"
	elif ! sanitizer_free; then
		fail "elf_bad_$name" "sanitizer/crash output"
	else
		pass "elf_bad_$name"
	fi
}

if ! command -v "$CC" >/dev/null || ! command -v python3 >/dev/null; then
	fail elf_tools "$CC or python3 missing (run scripts/setup.sh)"
	exit 0
fi
for p in hello fault clocks catfile bigalloc; do
	build $p -static || fail "elf_build_$p" "cross compile failed"
done
build syscalls -static -Wno-stringop-overread -Wno-stringop-overflow -Wno-array-bounds ||
	fail elf_build_syscalls "cross compile failed"
build pie -fPIE -static-pie -nostdlib -Wl,--no-dynamic-linker || fail elf_build_pie "cross compile failed"

# --- bad input ---
rm -f "$out/bad/"*
if python3 "$here/mkbad.py" "$out/hello" "$out/bad"; then
	for f in "$out/bad/"*; do
		n=$(basename "$f")
		case $n in
		big-memsz) bad "$n" --max-mem 64 "$f" ;;
		*) bad "$n" "$f" ;;
		esac
	done
else
	fail elf_mkbad "mkbad.py failed"
fi
printf 'int main(void){return 0;}\n' > "$out/dyn.c"
if $CC -O2 -o "$out/dynamic" "$out/dyn.c" 2>/dev/null; then
	bad dynamic "$out/dynamic"
	grep -q 'link with -static' "$out/e.txt" || fail elf_bad_dynamic_message "$(cat "$out/e.txt")"
else
	fail elf_bad_dynamic "could not link a dynamic program"
fi
$CC -c -o "$out/object.o" "$out/dyn.c" && bad object "$out/object.o"
bad host-binary /bin/sh
bad directory "$out"
bad missing "$out/no/such/program"
: > "$out/empty-file"
bad empty-file "$out/empty-file"
bad dev-null /dev/null

# --- good programs ---
rv "$out/hello" one "two words"
qo=$(timeout "$T" "$QEMU" "$out/hello" one "two words" 2>&1); qrc=$?
if [ "$rc" != 3 ]; then
	fail elf_hello "exit $rc, want 3: $(head -c 200 "$out/e.txt")"
elif [ "$qrc" != 3 ]; then
	fail elf_hello "qemu-riscv64 did not run it (exit $qrc)"
elif [ "$(cat "$out/o.txt")" != "$qo" ]; then
	fail elf_hello "stdout differs from qemu-riscv64"
elif [ -s "$out/e.txt" ]; then
	fail elf_hello "unexpected stderr: $(head -c 200 "$out/e.txt")"
else
	pass elf_hello
fi

rv "$out/pie"
if [ "$rc" = 0 ] && [ "$(cat "$out/o.txt")" = "static-pie ok" ]; then
	pass elf_static_pie
else
	fail elf_static_pie "exit $rc: $(head -c 200 "$out/e.txt")"
fi

scratch=$out/scratch
rm -rf "$scratch" && mkdir -p "$scratch"
rv "$out/syscalls" "$scratch"
srv=$rc
sed -n 's/^ok \(.*\)$/PASS linux_\1/p; s/^not ok \([^:]*\): \(.*\)$/FAIL linux_\1: \2/p' "$out/o.txt"
if [ "$srv" = 0 ] && grep -q '^ALL OK 0$' "$out/o.txt"; then
	pass linux_syscalls_complete
else
	fail linux_syscalls_complete "exit $srv, last line: $(tail -n 1 "$out/o.txt") $(head -c 200 "$out/e.txt")"
fi
if [ "$(grep -c '' "$out/e.txt")" = 1 ] &&
   grep -qx 'rvpmu: warning: unsupported syscall 4000 (unknown)' "$out/e.txt"; then
	pass linux_unknown_syscall_warning
else
	fail linux_unknown_syscall_warning "stderr: $(head -c 300 "$out/e.txt" | tr '\n' '|')"
fi

# Fatal signals: the exit status must be what qemu-riscv64 reports (the
# shell's 128+signal), and rvpmu says which signal and where.
for k in segv:SIGSEGV abort:SIGABRT ebreak:SIGTRAP ill:SIGILL misaligned-amo:SIGBUS; do
	what=${k%%:*} sig=${k#*:}
	rv "$out/fault" "$what"
	timeout "$T" "$QEMU" "$out/fault" "$what" >/dev/null 2>&1; qrc=$?
	if [ "$qrc" -le 128 ]; then
		fail "linux_fatal_$what" "qemu-riscv64 exit $qrc is not a signal death"
	elif [ "$rc" != "$qrc" ]; then
		fail "linux_fatal_$what" "exit $rc, qemu-riscv64 gives $qrc"
	elif ! grep -q "rvpmu: .*$sig" "$out/e.txt" || ! sanitizer_free; then
		fail "linux_fatal_$what" "stderr: $(head -c 300 "$out/e.txt")"
	else
		pass "linux_fatal_$what"
	fi
done
rv "$out/fault" segv
if grep -q 'pc 0x[0-9a-f]*: load page fault (cause 13), tval 0x2: .*lw' "$out/e.txt"; then
	pass linux_fatal_report
else
	fail linux_fatal_report "$(head -c 300 "$out/e.txt")"
fi

rv --max-insns 100000 "$out/fault" loop
if [ "$rc" = 124 ] && [ "$(cat "$out/e.txt")" = "rvpmu: instruction limit 100000 reached" ]; then
	pass linux_max_insns
else
	fail linux_max_insns "exit $rc: $(head -c 200 "$out/e.txt")"
fi

rv --max-mem 64 "$out/bigalloc" 256
if [ "$rc" = 0 ] && [ "$(cat "$out/o.txt")" = "malloc failed" ]; then
	pass linux_max_mem_enomem
else
	fail linux_max_mem_enomem "exit $rc: $(cat "$out/o.txt") $(head -c 200 "$out/e.txt")"
fi
rv --max-mem 64 "$out/bigalloc" 16
if [ "$rc" = 0 ] && [ "$(cat "$out/o.txt")" = "malloc ok" ]; then
	pass linux_max_mem_fits
else
	fail linux_max_mem_fits "exit $rc: $(cat "$out/o.txt") $(head -c 200 "$out/e.txt")"
fi

sr=$out/sysroot
mkdir -p "$sr/etc"
echo "inside the sysroot $$" > "$sr/etc/rvpmu-sysroot-test"
rv --sysroot "$sr" "$out/catfile" /etc/rvpmu-sysroot-test
if [ "$rc" = 0 ] && [ "$(cat "$out/o.txt")" = "inside the sysroot $$" ]; then
	pass linux_sysroot
else
	fail linux_sysroot "exit $rc: $(head -c 200 "$out/e.txt")"
fi
rv --sysroot "$sr" "$out/catfile" /dev/null
[ "$rc" = 0 ] && pass linux_sysroot_dev || fail linux_sysroot_dev "exit $rc: $(head -c 200 "$out/e.txt")"

rv "$out/clocks"
c1=$(cat "$out/o.txt") r1=$rc
rv "$out/clocks"
if [ "$r1" = 0 ] && [ "$rc" = 0 ] && [ -n "$c1" ] && [ "$c1" = "$(cat "$out/o.txt")" ]; then
	pass linux_deterministic
else
	fail linux_deterministic "runs differ or failed: '$c1' vs '$(cat "$out/o.txt")'"
fi

# --- host unit test ---
if [ ! -f "$root/tests/unit/suite.sh" ]; then
	ut=$out/linux_test
	if gcc -std=gnu11 -O1 -g -I"$root/include" -o "$ut" "$root/tests/unit/linux_test.c" \
		$(ls "$root"/src/*/*.c | grep -v /src/cli/) -lelf -ldw -lfdt -ljansson -liberty -lm >&2; then
		"$ut" || true
	else
		fail linux_unit_build "gcc failed"
	fi
fi
exit 0
