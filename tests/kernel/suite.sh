#!/bin/sh
# rvpmu's own user-mode kernel (src/linux) where qemu-riscv64 7.2 is no
# peer to compare with (tests/diff has the programs whose output both
# must print alike): file mappings qemu does not do as Linux does, what
# a program reads about itself in /proc (never the host process's), and
# /dev/urandom from the deterministic source getrandom uses. Guests are
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
exit 0
