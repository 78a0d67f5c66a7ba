/* Set-associative cache model: tags only (no data), write-back and
 * write-allocate, LRU (exact, by last-use stamps) or tree pseudo-LRU.
 * The TLB model reuses it with page-sized lines. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "rvpmu/uarch.h"

enum { HX_MIN_WAYS = 32 };   /* fully associative TLBs; narrower sets scan faster */

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

static uint32_t log2u(uint32_t x)
{
	uint32_t n = 0;
	while (x >>= 1)
		n++;
	return n;
}

/* Tree PLRU: node 1 is the root, node i has children 2i and 2i+1; bit i of
 * the set's word says which half holds the victim (0 = lower ways). A touch
 * points every node on the way's path away from it: the path's bits are
 * fixed per way, so init makes them a mask pair (plru[2w]: the bits kept,
 * plru[2w + 1]: the bits set; uarch_cache_touch() applies them). */
static void plru_masks(uint64_t *m, uint32_t levels, uint32_t way)
{
	uint64_t path = 0, set = 0;
	uint32_t node = 1;
	for (uint32_t l = levels; l-- > 0;) {
		uint32_t b = (way >> l) & 1;
		path |= UINT64_C(1) << node;
		if (!b)
			set |= UINT64_C(1) << node;
		node = node * 2 + b;
	}
	m[0] = ~path;
	m[1] = set;
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

int uarch_cache_init(struct uarch_cache *c, const struct uarch_cache_config *cfg)
{
	memset(c, 0, sizeof *c);
	c->clock = &c->own_clock;
	if (!cfg->sets)
		return 0;
	/* a set's PLRU tree is one 64-bit word; LRU sets as wide as a TLB's */
	if (!is_pow2(cfg->sets) || !is_pow2(cfg->line) || cfg->ways < 1 ||
	    cfg->ways > (cfg->repl == UARCH_REPL_PLRU ? 64u : 65536u))
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
	c->sets_log2 = log2u(cfg->sets);
	c->mru = malloc(cfg->sets * sizeof *c->mru);
	c->mkey = calloc(cfg->sets, sizeof *c->mkey);   /* as the slots' tags: invalid */
	if (c->mru)
		for (uint32_t set = 0; set < cfg->sets; set++)
			c->mru[set] = set * cfg->ways;   /* any slot of the set will do */
	if (cfg->ways <= 16 && !(c->sig = calloc(n + 16, 1))) {
		uarch_cache_free(c);
		return -1;
	}
	c->age = calloc(cfg->repl == UARCH_REPL_LRU ? n : cfg->sets, sizeof *c->age);
	if (cfg->repl == UARCH_REPL_PLRU) {
		c->plru = malloc(2 * (size_t)cfg->ways * sizeof *c->plru);
		if (!c->plru) {
			uarch_cache_free(c);
			return -1;
		}
		for (uint32_t w = 0; w < cfg->ways; w++)
			plru_masks(&c->plru[2 * w], c->ways_log2, w);
	}
	uint32_t bits = log2u((uint32_t)n) + 2;   /* at most a quarter full */
	if (cfg->ways >= HX_MIN_WAYS && n <= (UINT32_C(1) << 24)) {
		c->hx_mask = (UINT32_C(1) << bits) - 1;
		c->hx_shift = 64 - bits;
		c->hx = calloc((size_t)c->hx_mask + 1, sizeof *c->hx);
		if (cfg->repl == UARCH_REPL_LRU) {
			c->old = calloc((size_t)cfg->sets * UARCH_CACHE_OLD, sizeof *c->old);
			c->nold = calloc(cfg->sets, 1);
			c->iold = calloc(cfg->sets, 1);
		}
		if (!c->hx || (cfg->repl == UARCH_REPL_LRU && (!c->old || !c->nold || !c->iold))) {
			uarch_cache_free(c);
			return -1;
		}
	}
	if (!c->tag || !c->dirty || !c->age || !c->mru || !c->mkey) {
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
	free(c->hx);
	free(c->plru);
	free(c->sig);
	free(c->mru);
	free(c->mkey);
	free(c->old);
	free(c->nold);
	free(c->iold);
	memset(c, 0, sizeof *c);
}

void uarch_cache_invalidate(struct uarch_cache *c)
{
	if (!c->present)
		return;
	size_t n = (size_t)c->sets * c->ways;
	memset(c->tag, 0, n * sizeof *c->tag);
	memset(c->mkey, 0, c->sets * sizeof *c->mkey);
	memset(c->dirty, 0, n);
	if (c->sig)
		memset(c->sig, 0, n);
	memset(c->age, 0, (c->repl == UARCH_REPL_LRU ? n : c->sets) * sizeof *c->age);
	c->nvalid = 0;   /* the clock goes on: it may be shared */
	memset(c->f_key, 0, sizeof c->f_key);
	if (c->hx)
		memset(c->hx, 0, ((size_t)c->hx_mask + 1) * sizeof *c->hx);
	if (c->nold)
		memset(c->nold, 0, c->sets);   /* the stamps restart: rescan */
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

/* ---- the hash index (c->hx): where a key is, if anywhere ---- */
static inline uint32_t hx_home(const struct uarch_cache *c, uint64_t key)
{
	return (uint32_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> c->hx_shift);
}

/* the index position holding key, or of the empty entry ending its probe */
static inline uint32_t hx_find(const struct uarch_cache *c, uint64_t key)
{
	uint32_t p = hx_home(c, key), v;
	while ((v = c->hx[p]) && c->tag[v - 1] != key)
		p = (p + 1) & c->hx_mask;
	return p;
}

/* empty position p (linear probing's deletion: later entries of the probe
 * run move back when their home allows) */
static void hx_remove(struct uarch_cache *c, uint32_t p)
{
	uint32_t m = c->hx_mask, j = p, v;
	while ((v = c->hx[j = (j + 1) & m])) {
		uint32_t k = hx_home(c, c->tag[v - 1]);
		/* v may fill p unless its home lies cyclically in (p, j] */
		if (p <= j ? (k <= p || k > j) : (k <= p && k > j)) {
			c->hx[p] = v;
			p = j;
		}
	}
	c->hx[p] = 0;
}

/* The LRU way of a wide set: the oldest line of the last scan not touched
 * since. Touches only make lines newest and fills fill the way they take,
 * so every line outside the list is newer than the list's last entry was,
 * or was touched since: the first untouched entry is the oldest line. An
 * exhausted list is rebuilt by a scan keeping the UARCH_CACHE_OLD oldest
 * by (stamp, way), as the plain scan picks the first of equal stamps (the
 * invalid lines' 0). */
static uint32_t lru_oldest(struct uarch_cache *c, uint32_t set)
{
	struct uarch_old *o = c->old + (size_t)set * UARCH_CACHE_OLD;
	const uint64_t *a = c->age + (size_t)set * c->ways;
	for (;;) {
		while (c->iold[set] < c->nold[set]) {
			const struct uarch_old *x = &o[c->iold[set]++];
			if (a[x->slot] == x->age)
				return x->slot;
		}
		unsigned n = 0;
		for (uint32_t w = 0; w < c->ways; w++) {
			if (n == UARCH_CACHE_OLD && a[w] >= o[n - 1].age)
				continue;
			/* insertion into the sorted list; ways ascend, so a tie
			 * stays behind the way before it */
			unsigned j = n < UARCH_CACHE_OLD ? n++ : UARCH_CACHE_OLD;
			while (j > 0 && o[j - 1].age > a[w]) {
				if (j < UARCH_CACHE_OLD)
					o[j] = o[j - 1];
				j--;
			}
			if (j < UARCH_CACHE_OLD)
				o[j] = (struct uarch_old){ w, a[w] };
		}
		c->nold[set] = (uint8_t)n;
		c->iold[set] = 0;
	}
}

static inline uint8_t sig_of(const struct uarch_cache *c, uint64_t line)
{
	return (uint8_t)(line >> c->sets_log2);   /* the tag's low byte */
}

/* The way of set `base` (its first slot) holding key, or ways: with tag
 * bytes, only the lines whose byte matches are compared (the bytes with
 * SSE2 all at once). */
static inline uint32_t find_way(const struct uarch_cache *c, uint32_t base, uint64_t line,
				uint64_t key)
{
	const uint64_t *t = c->tag + base;
	if (!c->sig) {
		for (uint32_t w = 0; w < c->ways; w++)
			if (t[w] == key)
				return w;
		return c->ways;
	}
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const __m128i *)(c->sig + base));
	uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)sig_of(c, line))));
	for (m &= (UINT32_C(1) << c->ways) - 1; m; m &= m - 1)
		if (t[__builtin_ctz(m)] == key)
			return (uint32_t)__builtin_ctz(m);
#else
	const uint8_t s = sig_of(c, line);
	for (uint32_t w = 0; w < c->ways; w++)
		if (c->sig[base + w] == s && t[w] == key)
			return w;
#endif
	return c->ways;
}

/* A hit past uarch_cache_hit()'s checks: in the filter's other entries
 * or found in the set; UARCH_HIT having touched (and for a write
 * dirtied) the line, or UARCH_UPGRADE for a write that found it Shared
 * (now Modified), else -1 having changed nothing. *hp: where a wide
 * set's hash index has or would have the line. */
static inline int hit_found(struct uarch_cache *c, uint64_t line, int write, uint32_t *hp)
{
	uint64_t key = line + 1;
	uint32_t set = (uint32_t)line & c->set_mask, base = set * c->ways, s;
	unsigned drop = UARCH_CACHE_FILTER - 1;
	for (unsigned k = 2; k < UARCH_CACHE_FILTER; k++)
		if (c->f_key[k] == key) {
			s = c->f_slot[k];
			drop = k;
			goto hit;
		}
	if (c->hx) {
		*hp = hx_find(c, key);
		if (!c->hx[*hp])
			return -1;
		s = c->hx[*hp] - 1;
	} else {
		uint32_t w = find_way(c, base, line, key);
		if (w == c->ways)
			return -1;
		s = base + w;
	}
hit:
	uarch_cache_touch(c, set, s);
	filter_front(c, key, s, drop);
	if (write && (c->dirty[s] & UARCH_LINE_SHARED)) {
		c->dirty[s] = 1;   /* Shared -> Modified */
		return UARCH_UPGRADE;
	}
	c->dirty[s] |= (uint8_t)write;
	return UARCH_HIT;
}

int uarch_cache_find(struct uarch_cache *c, uint64_t line, int write)
{
	uint32_t hp;
	return hit_found(c, line, write, &hp) >= 0;
}

/* the miss of line, which a wide set's hash index would have at hp: a
 * victim's way filled */
static unsigned fill(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim, uint32_t hp)
{
	uint64_t key = line + 1;
	uint32_t set = (uint32_t)line & c->set_mask, base = set * c->ways;
	uint64_t *t = c->tag + base;
	c->misses++;
	uint32_t w = 0;
	if (c->old) {
		w = lru_oldest(c, set);
	} else if (c->repl == UARCH_REPL_LRU) {
		/* invalid lines have stamp 0, so the first of them wins */
		uint64_t *a = c->age + base, best = a[0];
		for (uint32_t i = 1; i < c->ways; i++)
			if (a[i] < best)
				best = a[i], w = i;
	} else {
		w = c->ways;
		if (c->nvalid < (uint64_t)c->sets * c->ways)   /* an empty way first */
			for (w = 0; w < c->ways && t[w]; w++)
				;
		if (w == c->ways)
			w = plru_victim(c->age[set], c->ways_log2);
	}
	c->nvalid += !t[w];
	unsigned res = UARCH_MISS;
	if (t[w] && c->dirty[base + w]) {
		if (victim)
			*victim = (t[w] - 1) << c->line_shift;
		c->writebacks++;
		res |= UARCH_WB;
	}
	/* the victim leaves the filter wherever it was */
	unsigned drop = UARCH_CACHE_FILTER - 1;
	if (t[w])
		for (unsigned k = 0; k < UARCH_CACHE_FILTER; k++)
			if (c->f_key[k] == t[w]) {
				c->f_key[k] = 0;
				drop = k;
			}
	if (c->hx) {
		if (t[w]) {
			hx_remove(c, hx_find(c, t[w]));
			hp = hx_find(c, key);   /* the removal may have moved the gap */
		}
		c->hx[hp] = base + w + 1;
	}
	t[w] = key;
	if (c->sig)
		c->sig[base + w] = sig_of(c, line);
	c->dirty[base + w] = (uint8_t)write;
	uarch_cache_touch(c, set, base + w);
	filter_front(c, key, base + w, drop);
	return res;
}

/* the filter's first two entries missed (uarch_cache_access in uarch.h) */
unsigned uarch_cache_access_slow(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim)
{
	uint32_t hp = 0;
	/* the inline checks found it neither first in the filter nor the most
	 * recent of its set (or it is Shared and written) */
	int r = hit_found(c, line, write, &hp);
	return r >= 0 ? (unsigned)r : fill(c, line, write, victim, hp);
}

unsigned uarch_cache_miss(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim)
{
	return fill(c, line, write, victim, c->hx ? hx_find(c, line + 1) : 0);
}

int64_t uarch_cache_slot(const struct uarch_cache *c, uint64_t line)
{
	if (!c->present)
		return -1;
	if (c->hx) {
		uint32_t v = c->hx[hx_find(c, line + 1)];
		return v ? (int64_t)v - 1 : -1;
	}
	uint32_t base = ((uint32_t)line & c->set_mask) * c->ways;
	uint32_t w = find_way(c, base, line, line + 1);
	return w == c->ways ? -1 : (int64_t)base + w;
}

int uarch_cache_holds(const struct uarch_cache *c, uint64_t addr)
{
	return uarch_cache_slot(c, addr >> c->line_shift) >= 0;
}

void uarch_cache_drop(struct uarch_cache *c, uint32_t slot)
{
	const uint64_t key = c->tag[slot];
	const uint32_t set = slot / c->ways;
	if (!key)
		return;
	if (c->hx)
		hx_remove(c, hx_find(c, key));
	for (unsigned k = 0; k < UARCH_CACHE_FILTER; k++)
		if (c->f_key[k] == key)
			c->f_key[k] = 0;
	if (c->mru[set] == slot)
		c->mkey[set] = 0;   /* as the slot's tag */
	c->tag[slot] = 0;
	if (c->sig)
		c->sig[slot] = 0;
	c->dirty[slot] = 0;
	c->nvalid--;
	/* LRU takes the oldest stamp, and invalid lines have 0 (a wide
	 * set's list of its oldest lines is then made again); tree PLRU
	 * fills an empty way first while any is */
	if (c->repl == UARCH_REPL_LRU) {
		c->age[slot] = 0;
		if (c->nold)
			c->nold[set] = 0;
	}
}
