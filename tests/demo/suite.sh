#!/bin/sh
# make demo's output is what the README shows: every line of the README's
# abridged demo block appears in scripts/demo.sh's output, in order, with
# the same counts (the demo runs its program with an empty environment,
# so they do not depend on the machine). One line per check:
# "PASS demo NAME" / "FAIL demo NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
out=$BUILD/tests/demo
mkdir -p "$out" || exit 1

# the README's block: the fenced lines after "`make demo` prints"
awk '/^`make demo` prints/ { f = 1; next }
     f && /^```/ { if (in_) exit; in_ = 1; next }
     in_' "$root/README.md" > "$out/readme.txt"
if [ ! -s "$out/readme.txt" ]; then
	echo "FAIL demo readme: no demo block in README.md"
	exit 0
fi

# in_order A B: every line of A is a line of B, in A's order (trailing
# blanks aside); prints the first line of A it could not find
in_order() {
	awk 'BEGIN { i = n = 0 }
	     NR == FNR { sub(/[ \t]+$/, ""); want[n++] = $0; next }
	     { sub(/[ \t]+$/, ""); if (i < n && $0 == want[i]) i++ }
	     END { if (i < n) { print want[i]; exit 1 } }' "$1" "$2"
}

for run in 1 2; do
	if ! sh "$root/scripts/demo.sh" > "$out/demo$run.txt" 2>&1; then
		echo "FAIL demo run$run: scripts/demo.sh failed: $(tail -1 "$out/demo$run.txt")"
		exit 0
	fi
done
if miss=$(in_order "$out/readme.txt" "$out/demo1.txt"); then
	echo "PASS demo readme-block"
else
	echo "FAIL demo readme-block: not in make demo's output: $miss"
fi
# the same program, arguments and environment: the same counts, and
# perf.data written the same
if cmp -s "$out/demo1.txt" "$out/demo2.txt"; then
	echo "PASS demo repeat"
else
	echo "FAIL demo repeat: two runs of scripts/demo.sh differ"
fi
