/* A threaded compute kernel with known per-thread results: thread i
 * mixes a xorshift64* stream seeded from i (CHECKSUM) and runs a counted
 * loop of (i + 1) * LOOP iterations of three instructions (LOOP). The
 * checksums are the same on any machine (the suite compares a host build
 * of this file); the loop is what --per-thread counts exactly. Usage:
 * kernel [THREADS [ITERATIONS]]. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LOOP 100000
static long iters = 200000;

struct job {
	int id;
	uint64_t sum, loop;
};

/* (i + 1) * LOOP iterations of addi, add, bnez: 3 instructions each */
static uint64_t counted_loop(uint64_t n)
{
	uint64_t acc = 0;
#ifdef __riscv
	__asm__ volatile("1: addi %0, %0, -1\n\tadd %1, %1, %0\n\tbnez %0, 1b" : "+r"(n), "+r"(acc));
#else
	while (n--)
		acc += n;
#endif
	return acc;
}

static void *work(void *a)
{
	struct job *j = a;
	uint64_t x = (uint64_t)(j->id + 1) * 0x9e3779b97f4a7c15ull, sum = 0;
	for (long k = 0; k < iters; k++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		sum = (sum << 7 | sum >> 57) ^ (x * 0x2545f4914f6cdd1dull);
	}
	j->sum = sum;
	j->loop = counted_loop((uint64_t)(j->id + 1) * LOOP);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	if (argc > 2)
		iters = atol(argv[2]);
	if (n < 1 || n > 64)
		return 2;
	pthread_t t[64];
	struct job j[64];
	for (int i = 0; i < n; i++) {
		j[i].id = i;
		pthread_create(&t[i], NULL, work, &j[i]);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		printf("thread %d: checksum %016llx loop %llu\n", i, (unsigned long long)j[i].sum,
		       (unsigned long long)j[i].loop);
	}
	return 0;
}
