/* Allocator churn: many small and large (mmap-sized) blocks allocated,
 * filled, checked, reallocated and freed in a pseudo-random order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t seed = 12345;
static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

enum { SLOTS = 512 };
static unsigned char *blk[SLOTS];
static size_t len[SLOTS];

static int check(int i)
{
	for (size_t k = 0; k < len[i]; k += 1 + k / 8)
		if (blk[i][k] != (unsigned char)(i + k))
			return 0;
	return 1;
}

int main(void)
{
	unsigned long bad = 0, allocs = 0, bytes = 0;
	for (int round = 0; round < 20000; round++) {
		int i = (int)(rnd() % SLOTS);
		if (blk[i]) {
			bad += !check(i);
			if (rnd() % 4 == 0) {
				size_t nl = rnd() % 3000 + 1;
				unsigned char *p = realloc(blk[i], nl);
				if (!p)
					return 1;
				size_t keep = nl < len[i] ? nl : len[i];
				for (size_t k = 0; k < keep; k += 1 + k / 8)
					bad += p[k] != (unsigned char)(i + k);
				blk[i] = p;
				len[i] = nl;
				for (size_t k = 0; k < nl; k++)
					p[k] = (unsigned char)(i + k);
				continue;
			}
			free(blk[i]);
			blk[i] = NULL;
			continue;
		}
		uint32_t r = rnd();
		size_t n = r % 256 == 0 ? 100000 + r % 200000 : r % 512 + 1;
		blk[i] = (r & 1) ? malloc(n) : calloc(n, 1);
		if (!blk[i])
			return 1;
		if (!(r & 1))
			for (size_t k = 0; k < n; k++)
				bad += blk[i][k] != 0;
		len[i] = n;
		for (size_t k = 0; k < n; k++)
			blk[i][k] = (unsigned char)(i + k);
		allocs++, bytes += n;
	}
	unsigned long live = 0;
	for (int i = 0; i < SLOTS; i++)
		if (blk[i]) {
			bad += !check(i);
			live++;
			free(blk[i]);
		}
	printf("allocs %lu bytes %lu live %lu bad %lu\n", allocs, bytes, live, bad);

	/* one big block, grown step by step */
	size_t n = 1;
	char *p = NULL;
	for (int k = 0; k < 22; k++, n *= 2) {
		char *q = realloc(p, n);
		if (!q)
			return 2;
		p = q;
		memset(p + n / 2, 'a' + k, n - n / 2);
	}
	unsigned long h = 0;
	for (size_t k = 0; k < n / 2; k += 4093)
		h = h * 31 + (unsigned char)p[k];
	free(p);
	printf("grown to %zu hash %lu\n", n / 2, h);

	void *al = aligned_alloc(4096, 8192);
	printf("aligned %d\n", al != NULL && ((uintptr_t)al & 4095) == 0);
	free(al);
	return 0;
}
