/* memory: a dependent pointer chase around a randomly permuted ring of
 * 32 MiB (every hop a likely cache and TLB miss), then a cache-blocked
 * double-precision matrix multiply over ~2.8 MiB of matrices.
 * Usage: memory [scale-percent] */
#include "common.h"
#include <string.h>

#define RING_BYTES (32u << 20)
#define RING_N (RING_BYTES / sizeof(void *))
#define MM_N 352
#define MM_B 32 /* 3 blocks of 32x32 doubles = 24 KiB: fits a 32 KiB L1 */

static void *ring[RING_N];
static double A[MM_N][MM_N], B[MM_N][MM_N], C[MM_N][MM_N];

/* Sattolo's algorithm gives a single cycle through all n slots; build it
 * as indices in place, then turn each index into a pointer. */
static NOINLINE void ring_build(uint64_t *rs)
{
	uintptr_t *p = (uintptr_t *)ring;
	for (size_t i = 0; i < RING_N; i++)
		p[i] = i;
	for (size_t i = RING_N - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(rs, i);
		uintptr_t t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	for (size_t i = 0; i < RING_N; i++)
		ring[i] = &ring[p[i]];
}

/* One lap: follow next pointers until back at the start. Returns the hop
 * count (must be RING_N for a single cycle); *h gets an order-sensitive
 * hash of the visited slots. */
static NOINLINE size_t ring_lap(void **start, uint64_t *h)
{
	void **p = start;
	size_t hops = 0;
	uint64_t x = *h;
	do {
		p = (void **)*p;
		x = x * 31 + (uint64_t)(p - ring);
		hops++;
	} while (p != start);
	*h = x;
	return hops;
}

/* Partial lap of n hops (for scales below one lap). */
static NOINLINE void **ring_hops(void **p, size_t n, uint64_t *h)
{
	uint64_t x = *h;
	while (n--) {
		p = (void **)*p;
		x = x * 31 + (uint64_t)(p - ring);
	}
	*h = x;
	return p;
}

/* C += A*B for rows [0, rows), blocked over i, k and j. */
static NOINLINE void dgemm_blocked(int rows)
{
	for (int ii = 0; ii < rows; ii += MM_B)
		for (int kk = 0; kk < MM_N; kk += MM_B)
			for (int jj = 0; jj < MM_N; jj += MM_B)
				for (int i = ii; i < ii + MM_B && i < rows; i++)
					for (int k = kk; k < kk + MM_B; k++) {
						double a = A[i][k];
						for (int j = jj; j < jj + MM_B; j++)
							C[i][j] += a * B[k][j];
					}
}

int main(int argc, char **argv)
{
	unsigned pct = bench_scale(argc, argv);
	uint64_t rs = 0x6d656d6f7279ull; /* "memory" */
	int ok = 1;

	ring_build(&rs);
	/* One lap at full scale; a partial lap when scaled down. */
	uint64_t total = scaled((uint64_t)RING_N, pct), hh = 0;
	void **p = &ring[0];
	while (total >= RING_N) {
		if (ring_lap(p, &hh) != RING_N) {
			printf("FAIL ring is not a single cycle\n");
			ok = 0;
		}
		total -= RING_N;
	}
	p = ring_hops(p, (size_t)total, &hh);

	/* Small integer entries keep every product and sum exact, so the
	 * result does not depend on summation order or FMA contraction. */
	for (int i = 0; i < MM_N; i++)
		for (int j = 0; j < MM_N; j++) {
			A[i][j] = (double)((int)rng_below(&rs, 9) - 4);
			B[i][j] = (double)((int)rng_below(&rs, 9) - 4);
			C[i][j] = 0.0;
		}
	int rows = (int)scaled(MM_N, pct);
	if (rows > MM_N)
		rows = MM_N;
	dgemm_blocked(rows);

	/* Spot-check entries against a plain dot product. */
	for (int t = 0; t < 64; t++) {
		int i = (int)rng_below(&rs, (uint64_t)rows), j = (int)rng_below(&rs, MM_N);
		double s = 0.0;
		for (int k = 0; k < MM_N; k++)
			s += A[i][k] * B[k][j];
		if (s != C[i][j]) {
			printf("FAIL dgemm C[%d][%d]=%g want %g\n", i, j, C[i][j], s);
			ok = 0;
		}
	}
	uint64_t mh = 0;
	double tr = 0.0;
	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < MM_N; j++)
			mh = mix(mh, (uint64_t)(int64_t)C[i][j]);
		tr += C[i][i];
	}

	uint64_t sum = mix(mix(mix(0, hh), (uint64_t)(p - ring)), mh);
	printf("ring=%016llx end=%zu dgemm=%016llx trace=%.1f\n",
	       (unsigned long long)hh, (size_t)(p - ring), (unsigned long long)mh, tr);
	printf("memory checksum %016llx%s\n", (unsigned long long)sum, ok ? "" : " (SELF-CHECK FAILED)");
	return ok ? 0 : 1;
}
