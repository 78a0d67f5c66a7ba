/* Shared helpers for the rvpmu benchmark workloads: a fixed PRNG so every
 * run sees the same data, and the size scale taken from argv[1]. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/* splitmix64: tiny, full-period, good enough to make test data. */
static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform-enough value in [0, n) for n much smaller than 2^64. */
static inline uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return rng_next(s) % n;
}

/* Scale in percent (argv[1], default 100); work sizes multiply by it so
 * BENCH_SCALE can shrink a run for a quick check. */
static inline unsigned bench_scale(int argc, char **argv)
{
	if (argc < 2)
		return 100;
	long v = strtol(argv[1], NULL, 10);
	if (v < 1 || v > 100000) {
		fprintf(stderr, "scale must be 1..100000 (percent)\n");
		exit(2);
	}
	return (unsigned)v;
}

/* n scaled by pct percent, at least 1. */
static inline uint64_t scaled(uint64_t n, unsigned pct)
{
	uint64_t v = n * pct / 100;
	return v ? v : 1;
}

/* Fold a value into a running checksum (order-sensitive). */
static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

#endif
