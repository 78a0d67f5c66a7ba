# Sourced by the fuzz scripts: fuzz_objs ROOT OUT PATTERN... builds every
# rvpmu source but the CLI into OUT/obj with clang, the files matching a
# shell PATTERN with libFuzzer coverage, ASan and UBSan (what the fuzzer
# aims at), the rest plainly; the objects' paths go to $objs.
fuzz_objs() {
	root_=$1 out_=$2
	shift 2
	objs=
	mkdir -p "$out_/obj"
	for f in $(ls "$root_"/src/*/*.c | grep -v '/src/cli/'); do
		o=$out_/obj/$(echo "${f#$root_/src/}" | tr / _ | sed 's/\.c$/.o/')
		flags=
		for p in "$@"; do
			# shellcheck disable=SC2254 # the pattern is meant to match
			case $f in $p) flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" ;; esac
		done
		if [ ! -f "$o" ] || [ "$f" -nt "$o" ] ||
		   [ -n "$(find "$root_/include" "$root_/src" -name '*.h' -newer "$o")" ]; then
			# shellcheck disable=SC2086
			clang -g -O1 $flags -I"$root_/include" -c -o "$o" "$f"
		fi
		objs="$objs $o"
	done
}
