#!/bin/sh
# Metrics (src/perf/metric.c, profiles/*.json "perf_metrics"): perf's
# MetricExpr language from first principles (tests/unit/metric_test.c,
# under ASan/UBSan), every metric Linux 6.1's pmu-events ships parsed by
# it, and each profile's metrics resolved and counted by rvpmu stat -M,
# with values checked against loop.S's known counts.
# One line per check: "PASS metric NAME" / "FAIL metric NAME: why".
cd "$(dirname "$0")/../.." || exit 1
: "${RVPMU:=$PWD/build/rvpmu}" "${BUILD:=$PWD/build}"
out=$BUILD/tests/metrics
mkdir -p "$out" || exit 1
pass() { echo "PASS metric $1"; }
fail() { echo "FAIL metric $1: $2"; }
CC=${CC:-gcc}
FLAGS="-std=gnu11 -Wall -Wextra -Werror -Iinclude -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"

# shellcheck disable=SC2086
if $CC $FLAGS -o "$out/metric_test" tests/unit/metric_test.c src/perf/metric.c src/perf/evspec.c \
	src/uarch/profile*.c src/pmu/*.c -ljansson -lm >&2; then
	"$out/metric_test" || echo "FAIL metric unit: exited $?"
else
	fail unit-build "see stderr"
fi

# Linux 6.1's own metrics, every architecture: each MetricExpr parses
tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -f "$out/corpus.txt" ] && [ -f "$tarball" ]; then
	tar -xJf "$tarball" -C "$out" --wildcards 'linux-source-6.1/tools/perf/pmu-events/arch/*.json' &&
	python3 - "$out/linux-source-6.1/tools/perf/pmu-events/arch" > "$out/corpus.txt" <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], '**', '*.json'), recursive=True)):
    try:
        items = json.load(open(path))
    except ValueError:
        continue
    for e in items if isinstance(items, list) else []:
        if isinstance(e, dict) and e.get('MetricExpr'):
            print(' '.join(e['MetricExpr'].split()))
PY
fi
if [ -s "$out/corpus.txt" ]; then
	n=$(wc -l < "$out/corpus.txt")
	"$out/metric_test" --corpus < "$out/corpus.txt" > "$out/corpus.out"
	if [ $? = 0 ] && [ "$n" -gt 1000 ]; then
		pass "every MetricExpr of Linux 6.1's pmu-events parses ($n)"
	else
		fail "Linux 6.1's pmu-events corpus ($n)" "$(grep -m 3 FAIL "$out/corpus.out" | tr '\n' '|')"
	fi
else
	fail corpus "no metrics from $tarball (Debian package linux-source-6.1)"
fi

if [ ! -x "$RVPMU" ]; then
	fail rvpmu "$RVPMU not built"
	exit 0
fi
riscv64-linux-gnu-gcc -static -nostdlib -o "$out/loop" tests/stat/loop.S >&2 ||
	{ fail build "loop.S does not build"; exit 0; }

# every metric of each profile resolves: its events parse and it prints
for p in virt u74; do
	names=$(python3 -c 'import json, sys; print(" ".join(m["MetricName"] for m in json.load(open(sys.argv[1]))["perf_metrics"]))' "profiles/$p.json")
	bad=
	for m in $names; do
		"$RVPMU" stat --profile $p -j -M "$m" "$out/loop" 2>"$out/m.json" >/dev/null &&
			grep -q "\"metric-unit\" : \"[^\"]*$m\"" "$out/m.json" || bad="$bad $m"
	done
	[ -z "$bad" ] && pass "$p: each of its $(echo $names | wc -w) metrics counts (-M NAME)" ||
		fail "$p: metrics that do not count" "$bad"
done

# values from loop.S's known counts (its header): 6005 instructions, 1000
# loads, 1000 stores, 1000 conditional branches, one L1D read miss and no
# write miss (one data line, loaded before it is stored)
val() {  # val PROFILE METRIC: the metric's value (JSON), unscaled
	"$RVPMU" stat --profile "$1" -j -M "$2" "$out/loop" 2>&1 >/dev/null |
		sed -n "s/.*\"metric-value\" : \([0-9.]*\), \"metric-unit\" : \"[^\"]*$2\".*/\1/p"
}
cyc=$("$RVPMU" stat -x, -e cycles "$out/loop" 2>&1 >/dev/null | cut -d, -f1)
check() {  # check NAME GOT WANT
	if python3 -c 'import sys; g, w = sys.argv[1:3]; sys.exit(not g or abs(float(g) - float(w)) > 1e-6 * max(1, abs(float(w))))' "$2" "$3"; then
		pass "$1 = $3"
	else
		fail "$1" "got '$2', want $3"
	fi
}
check "virt IPC" "$(val virt IPC)" "$(python3 -c "print(6005 / $cyc)")"
check "virt CPI" "$(val virt CPI)" "$(python3 -c "print($cyc / 6005)")"
check "virt Load_Ratio (100%)" "$(val virt Load_Ratio)" "$(python3 -c 'print(100 * 1000 / 6005)')"
check "virt Store_Ratio (100%)" "$(val virt Store_Ratio)" "$(python3 -c 'print(100 * 1000 / 6005)')"
check "virt Branch_Ratio (100%)" "$(val virt Branch_Ratio)" "$(python3 -c 'print(100 * 1000 / 6005)')"
check "virt L1D_Miss_Rate (100%)" "$(val virt L1D_Miss_Rate)" "$(python3 -c 'print(100 * 1 / 2000)')"
check "virt L1D_MPKI" "$(val virt L1D_MPKI)" "$(python3 -c 'print(1000 * 1 / 6005)')"
check "u74 Load_Ratio (100%)" "$(val u74 Load_Ratio)" "$(python3 -c 'print(100 * 1000 / 6005)')"
bm=$("$RVPMU" stat --profile u74 -x, -e branch-misses "$out/loop" 2>&1 >/dev/null | cut -d, -f1)
check "u74 Cond_Branch_Mispredict_Rate = branch-misses / 1000 (100%)" \
	"$(val u74 Cond_Branch_Mispredict_Rate)" "$(python3 -c "print(100 * $bm / 1000)")"

exit 0
