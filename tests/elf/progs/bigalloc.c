/* Asks for argv[1] MiB; with --max-mem below that, malloc must fail
 * cleanly (mmap/brk answer ENOMEM) instead of anything crashing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 256;
	char *p = malloc(mb << 20);
	if (!p) {
		printf("malloc failed\n");
		return 0;
	}
	memset(p, 1, mb << 20);
	printf("malloc ok\n");
	return 0;
}
