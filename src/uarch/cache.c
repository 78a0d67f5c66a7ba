/* Set-associative cache model: tags only (no data), write-back and
 * write-allocate, LRU (exact, by last-use stamps) or tree pseudo-LRU.
 * The TLB model reuses it with page-sized lines. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

static uint32_t log2u(uint32_t x)
{
	uint32_t n = 0;
	while (x >>= 1)
		n++;
	return n;
}

int uarch_cache_init(struct uarch_cache *c, const struct uarch_cache_config *cfg)
{
	memset(c, 0, sizeof *c);
	if (!cfg->sets)
		return 0;
	if (!is_pow2(cfg->sets) || !is_pow2(cfg->line) || cfg->ways < 1 || cfg->ways > 64)
		return -1;
	if (cfg->repl == UARCH_REPL_PLRU && !is_pow2(cfg->ways))
		return -1;
	if (cfg->repl != UARCH_REPL_LRU && cfg->repl != UARCH_REPL_PLRU)
		return -1;
	size_t n = (size_t)cfg->sets * cfg->ways;
	c->sets = cfg->sets;
	c->ways = cfg->ways;
	c->ways_log2 = log2u(cfg->ways);
	c->line_shift = log2u(cfg->line);
	c->set_mask = cfg->sets - 1;
	c->repl = cfg->repl;
	c->tag = calloc(n, sizeof *c->tag);
	c->dirty = calloc(n, 1);
	c->age = calloc(cfg->repl == UARCH_REPL_LRU ? n : cfg->sets, sizeof *c->age);
	if (!c->tag || !c->dirty || !c->age) {
		uarch_cache_free(c);
		return -1;
	}
	c->present = 1;
	return 0;
}

void uarch_cache_free(struct uarch_cache *c)
{
	free(c->tag);
	free(c->dirty);
	free(c->age);
	memset(c, 0, sizeof *c);
}

void uarch_cache_invalidate(struct uarch_cache *c)
{
	if (!c->present)
		return;
	size_t n = (size_t)c->sets * c->ways;
	memset(c->tag, 0, n * sizeof *c->tag);
	memset(c->dirty, 0, n);
	memset(c->age, 0, (c->repl == UARCH_REPL_LRU ? n : c->sets) * sizeof *c->age);
	c->clock = 0;
	memset(c->f_key, 0, sizeof c->f_key);
}

/* Tree PLRU: node 1 is the root, node i has children 2i and 2i+1; bit i of
 * the set's word says which half holds the victim (0 = lower ways). A touch
 * points every node on the way's path away from it. */
static void plru_touch(uint64_t *bits, uint32_t levels, uint32_t way)
{
	uint32_t node = 1;
	for (uint32_t l = levels; l-- > 0;) {
		uint32_t b = (way >> l) & 1;
		if (b)
			*bits &= ~(UINT64_C(1) << node);
		else
			*bits |= UINT64_C(1) << node;
		node = node * 2 + b;
	}
}

static uint32_t plru_victim(uint64_t bits, uint32_t levels)
{
	uint32_t node = 1, way = 0;
	for (uint32_t l = 0; l < levels; l++) {
		uint32_t b = (bits >> node) & 1;
		way = way * 2 + b;
		node = node * 2 + b;
	}
	return way;
}

static inline __attribute__((always_inline)) void touch(struct uarch_cache *c, uint32_t set, uint32_t slot)
{
	if (c->repl == UARCH_REPL_LRU)
		c->age[slot] = ++c->clock;
	else
		plru_touch(&c->age[set], c->ways_log2, slot & (c->ways - 1));
}

static unsigned access_slow(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim);

unsigned uarch_cache_access(struct uarch_cache *c, uint64_t addr, int write, uint64_t *victim)
{
	uint64_t line = addr >> c->line_shift;
	c->accesses++;
	/* The last line touched is most recent in its set under both policies,
	 * so touching it again changes no replacement state. */
	if (line + 1 == c->f_key[0]) {
		c->dirty[c->f_slot[0]] |= (uint8_t)write;
		return UARCH_HIT;
	}
	return access_slow(c, line, write, victim);
}

/* put (key, slot) first in the filter, dropping entry `drop` */
_Static_assert(UARCH_CACHE_FILTER == 4, "filter_front is unrolled for 4 entries");
static inline void filter_front(struct uarch_cache *c, uint64_t key, uint32_t slot, unsigned drop)
{
	/* unrolled: a loop here becomes a memmove call */
	switch (drop) {
	case 3:
		c->f_key[3] = c->f_key[2], c->f_slot[3] = c->f_slot[2];
		__attribute__((fallthrough));
	case 2:
		c->f_key[2] = c->f_key[1], c->f_slot[2] = c->f_slot[1];
		__attribute__((fallthrough));
	case 1:
		c->f_key[1] = c->f_key[0], c->f_slot[1] = c->f_slot[0];
		break;
	}
	c->f_key[0] = key;
	c->f_slot[0] = slot;
}

static __attribute__((noinline)) unsigned
access_slow(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim)
{
	uint64_t key = line + 1;
	uint32_t set = (uint32_t)line & c->set_mask, base = set * c->ways;
	for (unsigned k = 1; k < UARCH_CACHE_FILTER; k++) {
		if (c->f_key[k] == key) {
			uint32_t s = c->f_slot[k];
			touch(c, set, s);
			c->dirty[s] |= (uint8_t)write;
			filter_front(c, key, s, k);
			return UARCH_HIT;
		}
	}
	uint64_t *t = c->tag + base;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (t[w] == key) {
			touch(c, set, base + w);
			c->dirty[base + w] |= (uint8_t)write;
			filter_front(c, key, base + w, UARCH_CACHE_FILTER - 1);
			return UARCH_HIT;
		}
	}
	c->misses++;
	uint32_t w = 0;
	if (c->repl == UARCH_REPL_LRU) {
		/* invalid lines have stamp 0, so the first of them wins */
		uint64_t *a = c->age + base, best = a[0];
		for (uint32_t i = 1; i < c->ways; i++)
			if (a[i] < best)
				best = a[i], w = i;
	} else {
		for (w = 0; w < c->ways && t[w]; w++)
			;
		if (w == c->ways)
			w = plru_victim(c->age[set], c->ways_log2);
	}
	unsigned res = UARCH_MISS;
	if (t[w] && c->dirty[base + w]) {
		if (victim)
			*victim = (t[w] - 1) << c->line_shift;
		c->writebacks++;
		res |= UARCH_WB;
	}
	/* the victim leaves the filter if it was there */
	unsigned drop = UARCH_CACHE_FILTER - 1;
	if (t[w])
		for (unsigned k = 0; k < UARCH_CACHE_FILTER; k++)
			if (c->f_key[k] == t[w])
				drop = k;
	t[w] = key;
	c->dirty[base + w] = (uint8_t)write;
	touch(c, set, base + w);
	filter_front(c, key, base + w, drop);
	return res;
}

int uarch_cache_holds(const struct uarch_cache *c, uint64_t addr)
{
	if (!c->present)
		return 0;
	uint64_t line = addr >> c->line_shift;
	const uint64_t *t = c->tag + ((uint32_t)line & c->set_mask) * c->ways;
	for (uint32_t w = 0; w < c->ways; w++)
		if (t[w] == line + 1)
			return 1;
	return 0;
}
