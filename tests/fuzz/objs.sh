# shellcheck shell=sh
# Sourced by the fuzz scripts: fuzz_objs ROOT OUT PATTERN... builds every
# rvpmu source but the CLI into OUT/obj with clang, the files matching a
# shell PATTERN with libFuzzer coverage, ASan and UBSan (what the fuzzer
# aims at), the rest plainly; the objects' paths go to $objs. fuzz_build
# NAME PATTERN... then links $out/fuzz_NAME from $here/fuzz_NAME.c.
fuzz_objs() {
	root_=$1 out_=$2
	shift 2
	objs=
	mkdir -p "$out_/obj"
	for f in "$root_"/src/*/*.c; do
		case $f in */src/cli/*) continue ;; esac
		o=$out_/obj/$(echo "${f#"$root_"/src/}" | tr / _ | sed 's/\.c$/.o/')
		flags=
		for p in "$@"; do
			# shellcheck disable=SC2254 # the pattern is meant to match
			case $f in $p) flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" ;; esac
		done
		# shellcheck disable=SC3013 # -nt: dash and bash have it
		if [ ! -f "$o" ] || [ "$f" -nt "$o" ] ||
		   [ -n "$(find "$root_/include" "$root_/src" -name '*.h' -newer "$o")" ]; then
			# shellcheck disable=SC2086
			clang -g -O1 $flags -I"$root_/include" -c -o "$o" "$f"
		fi
		objs="$objs $o"
	done
}

# shellcheck disable=SC2154 # here, root and out are the sourcing script's
fuzz_build() {
	name_=$1
	shift
	command -v clang >/dev/null || { echo "$0: clang not found (apt-get install clang)" >&2; exit 2; }
	mkdir -p "$out/corpus"
	fuzz_objs "$root" "$out" "$@"
	# shellcheck disable=SC2086
	clang -g -O1 -fsanitize=fuzzer,address,undefined -I"$root/include" -o "$out/fuzz_$name_" \
		"$here/fuzz_$name_.c" $objs -lelf -ldw -lfdt -ljansson -liberty -lm
}
