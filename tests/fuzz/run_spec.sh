#!/bin/sh
# Build the event-list and core-profile fuzzer and run it for N seconds
# (default 60).
#   tests/fuzz/run_spec.sh [SECONDS]
# Needs clang with libFuzzer. The event-list parser and the profile loader
# and models (src/perf/evspec.c, src/uarch) are built with libFuzzer
# coverage, ASan and UBSan, the rest plainly. Seeds (spec_seeds.sh, which
# tests/fuzz/suite.sh replays in make test): each profile in profiles/,
# edits of them and event lists from perf's and rvpmu's own names; a
# dictionary of the profiles' keys and the JSON tokens helps the
# fuzzer make objects.
# A crash, or a profile whose core runs differently translated and in the
# step loop, is written to $BUILD/fuzz-spec/. Exits non-zero when the
# fuzzer finds one.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${BUILD:=$root/build}"
secs=${1:-60}
out=$BUILD/fuzz-spec
. "$here/objs.sh"
. "$here/spec_seeds.sh"
fuzz_build spec "*/src/perf/evspec.c" "*/src/uarch/*"
spec_seeds "$root" "$out/corpus"
{
	for tok in '{' '}' '[' ']' ':' ',' 'true' 'false' '0x' '-1' '4294967296'; do
		printf '"%s"\n' "$tok"
	done
	grep -oh '"[a-z_0-9]*" *:' "$root"/profiles/*.json | tr -d ' :' | sort -u |
		sed 's/"/\\"/g; s/^/"/; s/$/"/'
} > "$out/profile.dict"
cd "$out"
RVPMU_PROFILE_DIR=$root/profiles ./fuzz_spec -max_total_time="$secs" -max_len=65536 \
	-rss_limit_mb=4096 -dict="$out/profile.dict" -artifact_prefix="$out/" corpus
