/* Two threads, each adding to its own counter ROUNDS times, the counters
 * either adjacent words of one cache line (false sharing: the line goes
 * back and forth between the harts' L1Ds) or a line apart (argument
 * "apart"). rvpmu stat shows the difference in coherence misses. Prints
 * the sums, the same either way. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 200000
static struct {
	volatile long a;
	volatile long b;        /* next to a: the same 64-byte line */
	char pad[128];
	volatile long c;        /* two lines from a */
} __attribute__((aligned(64))) s;
static volatile long *second = &s.b;

static void *add(void *p)
{
	volatile long *v = p;
	for (int i = 0; i < ROUNDS; i++)
		*v += i;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "apart"))
		second = &s.c;
	pthread_t t;
	pthread_create(&t, NULL, add, (void *)second);
	add((void *)&s.a);
	pthread_join(t, NULL);
	printf("%ld %ld\n", s.a, *second);
	return 0;
}
