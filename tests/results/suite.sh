#!/bin/sh
# Results are never lost (issue 35).
# -o FILE (stat and record): a run that writes nothing leaves an
# existing FILE as it was, a write error is an error, and record keeps
# the file it replaces as FILE.old, as perf record does.
cd "$(dirname "$0")" || exit 1
out="$BUILD/tests/results"
mkdir -p "$out"
pass() { echo "PASS results $1"; }
fail() { echo "FAIL results $1: $2"; }
if [ ! -f "$out/marked" ] || [ marked.c -nt "$out/marked" ]; then
	riscv64-linux-gnu-gcc -static -O2 -g -fno-omit-frame-pointer -o "$out/marked" marked.c >&2 ||
		{ fail build "marked.c does not build"; exit 0; }
fi
log() { tr '\n' '|' < "$out/e.txt" | head -c 600; }

# ---- -o FILE ----
for cmd in stat record; do
	# nothing counted: an existing FILE stays as it was, nothing beside it
	for why in "missing program:/no-such-program" "not an ELF:marked.c" "unknown event:-e cyclse $out/marked 1"; do
		rm -f "$out"/keep*
		echo "the last output" > "$out/keep"
		# shellcheck disable=SC2086 # the arguments are meant to split
		"$RVPMU" $cmd -o "$out/keep" ${why#*:} >/dev/null 2>&1
		rc=$?
		left=$(ls "$out" | grep -c '^keep.')
		if [ "$rc" != 0 ] && [ "$(cat "$out/keep")" = "the last output" ] && [ "$left" = 0 ]; then
			pass "$cmd -o: ${why%%:*}: the old file kept"
		else
			fail "$cmd -o: ${why%%:*}" "exit $rc, keep: '$(head -c 60 "$out/keep")', $left other files"
		fi
	done
	"$RVPMU" $cmd -o /dev/full "$out/marked" 1000 >/dev/null 2>"$out/e.txt"
	rc=$?
	[ "$rc" = 1 ] && grep -qx "rvpmu: $cmd: /dev/full: No space left on device" "$out/e.txt" &&
		pass "$cmd -o /dev/full: exit 1, the write error" || fail "$cmd -o /dev/full" "exit $rc: $(log)"
done
# record puts a new recording in place and keeps the one before as FILE.old
"$RVPMU" record -o "$out/keep" "$out/marked" 1000 >/dev/null 2>"$out/e.txt"
if [ "$(cat "$out/keep.old" 2>/dev/null)" = "the last output" ] &&
	"$RVPMU" report -i "$out/keep" >/dev/null 2>&1 && [ "$(ls "$out" | grep -c '^keep.')" = 1 ]; then
	pass "record -o: the new recording in place, the one before as FILE.old"
else
	fail "record -o: FILE.old" "$(log)"
fi
