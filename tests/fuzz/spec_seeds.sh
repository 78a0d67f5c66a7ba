# shellcheck shell=sh
# Sourced by run_spec.sh and suite.sh: spec_seeds ROOT DIR writes the
# event-list and profile fuzzer's seeds (tests/fuzz/fuzz_spec.c) into DIR:
# each profile in ROOT/profiles (with its base laid under it), edits of them (the first byte picks the
# mode: 1 a profile, 3 edits; then 0 u74 or 1 virt and (knob, value)
# index pairs into fuzz_spec.c's knobs[] and values[]) and event lists
# (an even first byte). The edits include the inputs of bugs the fuzzer
# found, so that the suite replays them.
spec_seeds() {
	for f in "$1"/profiles/*.json; do
		# a profile with a "base" is laid over it here, as the loader does
		# (objects key by key): the fuzzer parses text, which has no file
		# beside it to take a base from
		{ printf '1'; python3 -c 'import json, os, sys
def load(f):
    p = json.load(open(f))
    b = p.pop("base", None)
    if b is None:
        return p
    base = load(os.path.join(os.path.dirname(f), b + ".json"))
    def over(a, o):
        for k, v in o.items():
            if isinstance(v, dict) and isinstance(a.get(k), dict):
                over(a[k], v)
            else:
                a[k] = v
    over(base, p)
    return base
json.dump(load(sys.argv[1]), sys.stdout, indent=1)' "$f"; } > "$2/seed-$(basename "$f" .json)"
	done
	printf '3\000\000\000' > "$2/seed-edit-u74"
	printf '3\001\005\001' > "$2/seed-edit-virt"
	# virt with 4-byte L1D lines: an ld is in two of them
	printf '3\001\007\004' > "$2/seed-edit-virt-l1d-line-4"
	i=0
	for list in cycles,instructions '{cycles,instructions}:u' 'branch-misses,L1-dcache-load-misses' \
		    'r1234,dTLB-load-misses:k' 'l1d-read-miss,stalled-cycles-backend' 'cycles:u,{r20,r40}'; do
		printf '0%s' "$list" > "$2/seed-events-$i"
		i=$((i + 1))
	done
}
