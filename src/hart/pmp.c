/* PMP: 64 entries, granularity 4 bytes (G = 0), checked in entry order;
 * the first entry that matches any byte of an access decides, and it must
 * match all of them. M-mode is checked only against locked entries; an
 * S or U access that no entry matches fails. */
#include "jit.h"
#include "pmp.h"

enum { PMP_R = 1, PMP_W = 2, PMP_X = 4, PMP_A = 0x18, PMP_L = 0x80 };
enum { A_OFF = 0, A_TOR = 0x08, A_NA4 = 0x10, A_NAPOT = 0x18 };
#define PMP_COUNT 64

static uint8_t cfg(const struct hart *h, unsigned i)
{
	return (uint8_t)(h->csr.pmpcfg[(i / 8) * 2] >> (8 * (i % 8)));
}

/* Entry i's byte range [*lo, *hi); 0 when it is off or empty. */
static int range(const struct hart *h, unsigned i, uint64_t *lo, uint64_t *hi)
{
	uint64_t a = h->csr.pmpaddr[i];
	switch (cfg(h, i) & PMP_A) {
	case A_TOR:
		*lo = i ? h->csr.pmpaddr[i - 1] << 2 : 0;
		*hi = a << 2;
		return *lo < *hi;
	case A_NA4:
		*lo = a << 2;
		*hi = *lo + 4;
		return 1;
	case A_NAPOT: {
		/* trailing ones give the size: 2^(ones + 3) bytes */
		unsigned ones = (unsigned)__builtin_ctzll(~a);
		uint64_t size = ones >= 54 ? 1ull << 56 : 8ull << ones;
		*lo = (a << 2) & ~(size - 1);
		*hi = *lo + size;
		return 1;
	}
	}
	return 0;
}

static int allows(uint8_t c, enum mmu_access acc)
{
	return c & (acc == MMU_FETCH ? PMP_X : acc == MMU_LOAD ? PMP_R : PMP_W);
}

int pmp_check(const struct hart *h, uint64_t pa, unsigned size, enum mmu_access acc,
	      unsigned priv)
{
	uint64_t end = pa + size, lo, hi;
	for (unsigned i = 0; i < PMP_COUNT; i++) {
		if (!range(h, i, &lo, &hi) || end <= lo || pa >= hi)
			continue;
		if (pa < lo || end > hi)
			return -1;           /* matches only part of the access */
		uint8_t c = cfg(h, i);
		if (priv == PRIV_M && !(c & PMP_L))
			return 0;
		return allows(c, acc) ? 0 : -1;
	}
	return priv == PRIV_M ? 0 : -1;
}

struct active { uint64_t lo, hi; uint8_t cfg; };

/* The S/U permission bits for the page at pa: those of the first entry
 * that matches any byte of it, if that entry covers all of it. */
static uint8_t page_bits(const struct active *e, unsigned n, uint64_t pa)
{
	uint64_t end = pa + GPAGE_SIZE;
	for (unsigned i = 0; i < n; i++) {
		if (end <= e[i].lo || pa >= e[i].hi)
			continue;
		if (pa < e[i].lo || end > e[i].hi)
			return 0;
		uint8_t c = e[i].cfg;
		return (uint8_t)((c & PMP_R ? PMP_PAGE_R : 0) | (c & PMP_W ? PMP_PAGE_W : 0) |
				 (c & PMP_X ? PMP_PAGE_X : 0));
	}
	return 0;
}

void pmp_update(struct hart *h)
{
	struct active e[PMP_COUNT];
	unsigned n = 0;
	h->pmp_locked = 0;
	for (unsigned i = 0; i < PMP_COUNT; i++)
		if (range(h, i, &e[n].lo, &e[n].hi)) {
			e[n].cfg = cfg(h, i);
			/* M is bound by locked entries, and by any entry that
			 * matches only half of an aligned 8-byte access: a
			 * partial match fails whatever L is */
			h->pmp_locked |= (e[n].cfg & PMP_L) || ((e[n].lo | e[n].hi) & 4);
			n++;
		}
	/* translated blocks chain past the fetch checks of their pages */
	if (h->jit)
		jit_flush(h->jit);
	uint8_t *pf = h->mem.pflags;
	for (uint64_t p = h->ram_base >> GPAGE_SHIFT; p < h->ram_end >> GPAGE_SHIFT; p++)
		pf[p] = (uint8_t)((pf[p] & ~(PMP_PAGE_R | PMP_PAGE_W | PMP_PAGE_X)) |
				  page_bits(e, n, p << GPAGE_SHIFT));
}
