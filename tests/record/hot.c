/* A program whose profile is known: hot() does nearly all the work,
 * called through caller(); cold() does a little. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned long hot(unsigned long n)
{
	unsigned long h = 1469598103934665603ul;
	for (unsigned long i = 0; i < n; i++)
		h = (h ^ i) * 1099511628211ul;
	return h;
}

__attribute__((noinline)) unsigned long cold(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noinline)) unsigned long caller(unsigned long n)
{
	return hot(n) + 1;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	printf("%lx %lx\n", caller(n), cold(n / 100));
	return 0;
}
