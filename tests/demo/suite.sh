#!/bin/sh
# make demo's output is what the README shows, and the same every run.
# The README's abridged block must appear in scripts/demo.sh's output,
# line by line and in order, with its numbers masked: the counts follow
# the program's absolute path (glibc's start-up reads /proc/self/exe), so
# a clone elsewhere counts a few instructions more or fewer, and the
# report's rows (which sampling puts where) are left out. Two runs must
# print the same, numbers and all. One line per check:
# "PASS demo NAME" / "FAIL demo NAME: why".
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
out=$BUILD/tests/demo
mkdir -p "$out" || exit 1

# the README's block: the fenced lines after "`make demo` prints"
awk '/^`make demo` prints/ { f = 1; next }
     f && /^```/ { if (in_) exit; in_ = 1; next }
     in_ && !/^ +[0-9.]+% /' "$root/README.md" > "$out/readme.txt"
if [ ! -s "$out/readme.txt" ]; then
	echo "FAIL demo readme: no demo block in README.md"
	exit 0
fi

# in_order A B: every line of A is a line of B, in A's order, trailing
# blanks aside and every run of digits the same as any other; prints the
# first line of A it could not find
in_order() {
	awk 'function mask(l) { sub(/[ \t]+$/, "", l); gsub(/[0-9]+/, "0", l); return l }
	     BEGIN { i = n = 0 }
	     NR == FNR { want[n++] = $0; next }
	     i < n && mask($0) == mask(want[i]) { i++ }
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
