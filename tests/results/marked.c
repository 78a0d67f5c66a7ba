/* For the interruption tests: says "running" on stdout once it runs, then
 * spends argv[1] rounds in spin() (far more than a test waits for), or
 * without an argument reads stdin to its end. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) unsigned long spin(unsigned long n)
{
	unsigned long h = 1469598103934665603ul;
	for (unsigned long i = 0; i < n; i++)
		h = (h ^ i) * 1099511628211ul;
	return h;
}

int main(int argc, char **argv)
{
	if (write(1, "running\n", 8) != 8)
		return 1;
	if (argc < 2) {
		char b[256];
		while (read(0, b, sizeof(b)) > 0)
			;
		return 0;
	}
	printf("%lx\n", spin(strtoul(argv[1], NULL, 0)));
	return 0;
}
