/* A known call structure, main -> a -> b -> leaf, built without frame
 * pointers (-fomit-frame-pointer): --call-graph ctr must recover it from
 * the CTR call records. The work after each call keeps it a real call,
 * not a tail jump. The optional argument is leaf's iteration count. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	sink = s;
}

__attribute__((noinline)) void b(unsigned long n)
{
	leaf(n);
	sink++;
}

__attribute__((noinline)) void a(unsigned long n)
{
	b(n);
	sink++;
}

int main(int argc, char **argv)
{
	a(argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000);
	return 0;
}
