/* A libFuzzer target's LLVMFuzzerTestOneInput() on each file named, in
 * turn, without libFuzzer: tests/fuzz/suite.sh builds a target with the
 * plain compiler and this main() to replay its seeds in make test. A
 * failing input traps or aborts, as under the fuzzer; a target that
 * compares two runs counts the inputs that got that far in
 * fuzz_compared, printed at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern unsigned long fuzz_compared __attribute__((weak));

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, got;
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap && !(buf = realloc(buf, cap = cap * 2 + 4096))) {
				fprintf(stderr, "%s: out of memory\n", argv[i]);
				return 2;
			}
			n += got = fread(buf + n, 1, cap - n, f);
		} while (got);
		if (ferror(f)) {
			perror(argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	if (&fuzz_compared)
		printf("compared %lu\n", fuzz_compared);
	return 0;
}
