/* Cache model tests: exact hit/miss/writeback counts derived by hand. */
#include <string.h>
#include "uarch_test.h"

/* Direct-mapped, 4 sets of one 16-byte line: set = addr[5:4].
 *  #  op addr   set  result
 *  1  R  0x000  0    miss
 *  2  W  0x004  0    hit (line 0x000 dirty)
 *  3  R  0x040  0    miss, evicts dirty 0x000: writeback 1
 *  4  R  0x010  1    miss
 *  5  W  0x014  1    hit (0x010 dirty)
 *  6  R  0x048  0    hit
 *  7  W  0x080  0    miss, evicts clean 0x040 (0x080 dirty)
 *  8  R  0x000  0    miss, evicts dirty 0x080: writeback 2
 *  9  R  0x050  1    miss, evicts dirty 0x010: writeback 3
 * 10  R  0x020  2    miss
 * 11  R  0x030  3    miss
 * 12  R  0x02c  2    hit
 * => 12 accesses, 8 misses, 3 writebacks (victims 0x000, 0x080, 0x010). */
static const struct { int w; uint64_t a; } dm_seq[12] = {
	{0, 0x000}, {1, 0x004}, {0, 0x040}, {0, 0x010}, {1, 0x014}, {0, 0x048},
	{1, 0x080}, {0, 0x000}, {0, 0x050}, {0, 0x020}, {0, 0x030}, {0, 0x02c},
};

void test_cache_direct(void)
{
	static const unsigned want[12] = {
		UARCH_MISS, UARCH_HIT, UARCH_MISS | UARCH_WB, UARCH_MISS, UARCH_HIT, UARCH_HIT,
		UARCH_MISS, UARCH_MISS | UARCH_WB, UARCH_MISS | UARCH_WB, UARCH_MISS, UARCH_MISS, UARCH_HIT,
	};
	static const uint64_t victims[3] = { 0x000, 0x080, 0x010 };
	struct uarch_cache c;
	struct uarch_cache_config cfg = { 4, 1, 16, UARCH_REPL_LRU };
	CHECK(uarch_cache_init(&c, &cfg) == 0, "init");
	int nv = 0;
	for (int i = 0; i < 12; i++) {
		uint64_t v = ~0ULL;
		unsigned r = uarch_cache_access(&c, dm_seq[i].a, dm_seq[i].w, &v);
		CHECK(r == want[i], "access %d: result %u, want %u", i + 1, r, want[i]);
		if (r & UARCH_WB) {
			CHECK(nv < 3 && v == victims[nv], "access %d: victim 0x%llx", i + 1,
			      (unsigned long long)v);
			nv++;
		}
	}
	CHECK_EQ(c.misses, 8, "misses");
	CHECK_EQ(c.writebacks, 3, "writebacks");
	/* PLRU on one way is the same cache */
	uarch_cache_free(&c);
	cfg.repl = UARCH_REPL_PLRU;
	CHECK(uarch_cache_init(&c, &cfg) == 0, "init plru");
	for (int i = 0; i < 12; i++)
		uarch_cache_access(&c, dm_seq[i].a, dm_seq[i].w, NULL);
	CHECK_EQ(c.misses, 8, "plru 1-way misses");
	CHECK_EQ(c.writebacks, 3, "plru 1-way writebacks");
	uarch_cache_invalidate(&c);
	CHECK(!uarch_cache_holds(&c, 0x020), "invalidate drops lines");
	CHECK(uarch_cache_access(&c, 0x02c, 0, NULL) == UARCH_MISS, "the last line misses after invalidate");
	uarch_cache_free(&c);
}

/* One set of 4 ways, lines A..F = 0x00..0x50, sequence A B C D A E B F.
 * LRU: A B C D fill ways 0-3; A hits; E evicts the LRU line B; B misses and
 * evicts C (order C D A E); F evicts D. Misses: 7.
 * Tree PLRU (bit 0 = victim in the lower half, a touch points the path
 * away): after A B C D the bits are root=0 L=0 R=0; touching A (way 0) sets
 * root=1 L=1, so E's victim is root->right, R=0 -> way 2 = C. E in way 2:
 * root=0 R=1. B (way 1) hits: root=1 L=0. F: root->right, R=1 -> way 3 = D.
 * Misses: 6. After A B C D A E: LRU holds C, not B; PLRU holds B, not C. */
static void lru_vs_plru(uint8_t repl, unsigned want_miss, int holds_b)
{
	struct uarch_cache c;
	struct uarch_cache_config cfg = { 1, 4, 16, repl };
	CHECK(uarch_cache_init(&c, &cfg) == 0, "init");
	static const uint64_t seq1[6] = { 0x00, 0x10, 0x20, 0x30, 0x00, 0x40 };
	for (int i = 0; i < 6; i++)
		uarch_cache_access(&c, seq1[i], 0, NULL);
	CHECK(uarch_cache_holds(&c, 0x10) == holds_b, "repl %u: holds B after E", repl);
	CHECK(uarch_cache_holds(&c, 0x20) == !holds_b, "repl %u: holds C after E", repl);
	unsigned rb = uarch_cache_access(&c, 0x10, 0, NULL);
	CHECK(rb == (holds_b ? UARCH_HIT : UARCH_MISS), "repl %u: B result %u", repl, rb);
	uarch_cache_access(&c, 0x50, 0, NULL);
	CHECK(!uarch_cache_holds(&c, 0x30), "repl %u: F evicts D", repl);
	CHECK_EQ(c.misses, want_miss, repl == UARCH_REPL_LRU ? "LRU misses" : "PLRU misses");
	CHECK_EQ(c.writebacks, 0, "no writebacks on reads");
	uarch_cache_free(&c);
}

void test_cache_lru_plru(void)
{
	lru_vs_plru(UARCH_REPL_LRU, 7, 0);
	lru_vs_plru(UARCH_REPL_PLRU, 6, 1);
}

/* LRU compares stamps within one cache, so caches that share a clock (as
 * the models' do, uarch_init()) keep their LRU exact: lru_vs_plru()'s
 * sequence, another cache touched between its accesses and invalidated
 * halfway (which leaves a shared clock as it is), evicts as before. */
void test_cache_shared_clock(void)
{
	uint64_t clock = 0;
	struct uarch_cache a, b;
	struct uarch_cache_config cfg = { 1, 4, 16, UARCH_REPL_LRU };
	CHECK(uarch_cache_init(&a, &cfg) == 0 && uarch_cache_init(&b, &cfg) == 0, "init");
	a.clock = b.clock = &clock;
	static const uint64_t seq[8] = { 0x00, 0x10, 0x20, 0x30, 0x00, 0x40, 0x10, 0x50 };
	for (int i = 0; i < 8; i++) {
		uarch_cache_access(&a, seq[i], 0, NULL);
		uarch_cache_access(&b, (uint64_t)(i % 3) * 16, 0, NULL);
		if (i == 4)
			uarch_cache_invalidate(&b);
	}
	CHECK_EQ(a.misses, 7, "LRU misses with a shared clock");
	CHECK(!uarch_cache_holds(&a, 0x20) && !uarch_cache_holds(&a, 0x30), "C and D evicted");
	CHECK(uarch_cache_holds(&a, 0x00) && uarch_cache_holds(&a, 0x40), "A and E held");
	CHECK_EQ(clock, 16, "one clock counted both caches' touches (8 each)");
	uarch_cache_free(&a);
	uarch_cache_free(&b);
}

/* 8 ways, one set, lines L0..L11 in order. After L0..L7 fill ways 0-7 every
 * tree bit is 0 (each last touch in a subtree was its upper way). Victims:
 * L8 -> way 0 (all bits 0; touch sets root, n2, n4); L9 -> way 4 (root=1,
 * n3=0, n6=0); L10 -> way 2 (root=0, n2=1, n5=0); L11 -> way 6 (root=1,
 * n3=1, n7=0). So PLRU loses L0 L4 L2 L6; LRU loses L0 L1 L2 L3. */
void test_cache_plru8(void)
{
	for (int p = 0; p < 2; p++) {
		struct uarch_cache c;
		struct uarch_cache_config cfg = { 1, 8, 64, p ? UARCH_REPL_PLRU : UARCH_REPL_LRU };
		CHECK(uarch_cache_init(&c, &cfg) == 0, "init");
		for (uint64_t i = 0; i < 12; i++)
			uarch_cache_access(&c, i * 64, 0, NULL);
		static const int plru_gone[12] = { 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0 };
		static const int lru_gone[12] = { 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
		for (int i = 0; i < 12; i++) {
			int gone = p ? plru_gone[i] : lru_gone[i];
			CHECK(uarch_cache_holds(&c, (uint64_t)i * 64) == !gone,
			      "%s: L%d %s", p ? "PLRU" : "LRU", i, gone ? "should be evicted" : "should be held");
		}
		CHECK_EQ(c.misses, 12, "misses");
		uarch_cache_free(&c);
	}
}

/* The dm_seq stream as loads/stores through the facade with L1D = the
 * 4-set direct-mapped cache above and L2 = 8 sets x 2 ways, 16-byte lines
 * (set = addr[6:4]), no L1I/TLBs. L1D: 9 reads (7 miss), 3 writes (1 miss),
 * 3 writebacks. L2 sees each L1D miss as a fill, then each writeback:
 *   3: fill 0x040 (set 4) miss, wb 0x000 (set 0) hit
 *   1: fill 0x000 miss; 4: fill 0x010 (set 1) miss; 7: fill 0x080 (set 0) miss
 *   8: fill 0x000 hit, wb 0x080 hit; 9: fill 0x050 (set 5) miss, wb 0x010 hit
 *  10: fill 0x020 miss; 11: fill 0x030 miss
 * => 11 L2 accesses, 7 misses, no L2 writebacks. */
void test_hier_l1d_l2(void)
{
	struct uarch_config c;
	struct uarch u;
	ut_config_bare(&c);
	c.l1d = (struct uarch_cache_config){ 4, 1, 16, UARCH_REPL_LRU };
	c.l2 = (struct uarch_cache_config){ 8, 2, 16, UARCH_REPL_LRU };
	ut_init(&u, &c);
	for (int i = 0; i < 12; i++) {
		struct retire_rec r = ut_mem(dm_seq[i].w ? UARCH_CLS_STORE : UARCH_CLS_LOAD,
					     0x1000 + 4 * (uint64_t)i, dm_seq[i].a, dm_seq[i].w ? 0 : 5, 0, 0);
		uarch_retire(&u, &r);
	}
	CHECK_EV(&u, L1D_READ_ACCESS, 9);
	CHECK_EV(&u, L1D_READ_MISS, 7);
	CHECK_EV(&u, L1D_WRITE_ACCESS, 3);
	CHECK_EV(&u, L1D_WRITE_MISS, 1);
	CHECK_EV(&u, L1D_WRITEBACK, 3);
	CHECK_EV(&u, L2_ACCESS, 11);
	CHECK_EV(&u, L2_MISS, 7);
	CHECK_EV(&u, L2_WRITEBACK, 0);
	CHECK_EV(&u, L1I_ACCESS, 0);
	CHECK_EV(&u, DTLB_ACCESS, 0);
	/* a misaligned 8-byte load across two lines is two accesses */
	struct retire_rec r = ut_mem(UARCH_CLS_LOAD, 0x2000, 0x10c, 5, 0, 0);
	r.size = 8;
	uarch_retire(&u, &r);
	CHECK_EV(&u, L1D_READ_ACCESS, 11);
	uarch_free(&u);
}

/* L1D: one 16-byte line; L2: 1 set x 2 ways LRU.
 *  W 0x00: L1 miss; L2 fill 0x00 miss.
 *  W 0x10: L1 miss; L2 fill 0x10 miss; L1 victim 0x00 (dirty) -> L2 write hit.
 *  R 0x20: L1 miss; L2 fill 0x20 miss evicts LRU 0x10 (clean); L1 victim
 *          0x10 (dirty) -> L2 write miss, allocates, evicts LRU 0x00 which is
 *          dirty -> L2 writeback.
 * => L1D writebacks 2; L2 accesses 5, misses 4, writebacks 1. */
void test_hier_l2_writeback(void)
{
	struct uarch_config c;
	struct uarch u;
	ut_config_bare(&c);
	c.l1d = (struct uarch_cache_config){ 1, 1, 16, UARCH_REPL_LRU };
	c.l2 = (struct uarch_cache_config){ 1, 2, 16, UARCH_REPL_LRU };
	ut_init(&u, &c);
	struct retire_rec s[3] = {
		ut_mem(UARCH_CLS_STORE, 0x1000, 0x00, 0, 0, 0),
		ut_mem(UARCH_CLS_STORE, 0x1004, 0x10, 0, 0, 0),
		ut_mem(UARCH_CLS_LOAD, 0x1008, 0x20, 5, 0, 0),
	};
	for (int i = 0; i < 3; i++)
		uarch_retire(&u, &s[i]);
	CHECK_EV(&u, L1D_WRITEBACK, 2);
	CHECK_EV(&u, L2_ACCESS, 5);
	CHECK_EV(&u, L2_MISS, 4);
	CHECK_EV(&u, L2_WRITEBACK, 1);
	CHECK(uarch_cache_holds(u.l2, 0x10) && uarch_cache_holds(u.l2, 0x20), "L2 holds 0x10, 0x20");
	uarch_free(&u);
}

/* L1I: 4 sets x 1 way, 16-byte lines (set = pc[5:4]).
 *  1 0x100 alu       access (first fetch) miss, set 0
 *  2-4 0x104..0x10c  same block
 *  5 0x110 alu       new block: access miss, set 1
 *  6 0x114 jal 0x118 same block
 *  7 0x118 alu       redirect: access hit
 *  8 0x11c alu (2 B) same block
 *  9 0x11e alu (4 B) straddles: block 0x120 access miss, set 2
 * 10 0x122 alu (2 B) same block
 * 11 0x124 beq taken 0x100
 * 12 0x100 jal 0x140 redirect: access hit
 * 13 0x140 jalr 0x104 redirect: access miss (set 0, evicts 0x100)
 * 14 0x104 alu       redirect: access miss
 * => 7 accesses, 5 misses. */
void test_fetch_l1i(void)
{
	struct uarch_config c;
	struct uarch u;
	ut_config_bare(&c);
	c.l1i = (struct uarch_cache_config){ 4, 1, 16, UARCH_REPL_LRU };
	ut_init(&u, &c);
	struct retire_rec s[14];
	s[0] = ut_alu(0x100, 5, 0, 0);
	s[1] = ut_alu(0x104, 5, 0, 0);
	s[2] = ut_alu(0x108, 5, 0, 0);
	s[3] = ut_alu(0x10c, 5, 0, 0);
	s[4] = ut_alu(0x110, 5, 0, 0);
	s[5] = ut_jump(UARCH_CLS_JAL, 0x114, 0x118, 0, 0);
	s[6] = ut_alu(0x118, 5, 0, 0);
	s[7] = ut_alu(0x11c, 5, 0, 0);
	s[7].ilen = 2, s[7].next_pc = 0x11e;
	s[8] = ut_alu(0x11e, 5, 0, 0);
	s[9] = ut_alu(0x122, 5, 0, 0);
	s[9].ilen = 2, s[9].next_pc = 0x124;
	s[10] = ut_br(0x124, 1, 0x100, 0);
	s[11] = ut_jump(UARCH_CLS_JAL, 0x100, 0x140, 0, 0);
	s[12] = ut_jump(UARCH_CLS_JALR, 0x140, 0x104, 0, 6);
	s[13] = ut_alu(0x104, 5, 0, 0);
	static const uint8_t acc_after[14] = { 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 7 };
	for (int i = 0; i < 14; i++) {
		uarch_retire(&u, &s[i]);
		CHECK_EQ(u.ev[UARCH_EV_L1I_ACCESS], acc_after[i], "L1I accesses so far");
	}
	CHECK_EV(&u, L1I_MISS, 5);
	uarch_free(&u);
}

/* A plain reference model (no lookup filters): per set, LRU as a recency
 * list, PLRU as a tree walked bit by bit; invalid ways fill lowest first. */
#define REF_WAYS 1024
struct ref_cache {
	uint32_t sets, ways, plru;
	uint64_t line[64][REF_WAYS];    /* [set][way]: line + 1, 0 = empty */
	uint8_t dirty[64][REF_WAYS];
	uint32_t order[64][REF_WAYS];   /* LRU: ways, most recent first */
	uint32_t n[64];
	uint8_t tree[64][64];           /* PLRU (up to 64 ways): node bits, 1 = victim in the upper half */
};

static void ref_touch(struct ref_cache *r, uint32_t s, uint32_t w)
{
	if (!r->plru) {
		uint32_t k = 0;
		while (r->order[s][k] != w)
			k++;
		for (; k > 0; k--)
			r->order[s][k] = r->order[s][k - 1];
		r->order[s][0] = w;
		return;
	}
	uint32_t lo = 0, hi = r->ways, node = 1;
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		int upper = w >= mid;
		r->tree[s][node] = !upper;  /* point at the other half */
		node = 2 * node + (uint32_t)upper;
		if (upper)
			lo = mid;
		else
			hi = mid;
	}
}

static unsigned ref_access(struct ref_cache *r, uint64_t addr, int write, uint64_t *victim)
{
	uint64_t ln = (addr >> 4) + 1;
	uint32_t s = (uint32_t)((addr >> 4) % r->sets), w;
	for (w = 0; w < r->ways; w++)
		if (r->line[s][w] == ln) {
			r->dirty[s][w] |= (uint8_t)write;
			ref_touch(r, s, w);
			return UARCH_HIT;
		}
	unsigned res = UARCH_MISS;
	if (r->n[s] < r->ways) {
		w = r->n[s]++;
		if (!r->plru) {
			for (uint32_t k = w; k > 0; k--)
				r->order[s][k] = r->order[s][k - 1];
			r->order[s][0] = w;
		}
	} else if (!r->plru) {
		w = r->order[s][r->ways - 1];
	} else {
		uint32_t lo = 0, hi = r->ways, node = 1;
		while (hi - lo > 1) {
			uint32_t mid = (lo + hi) / 2, up = r->tree[s][node];
			node = 2 * node + up;
			if (up)
				lo = mid;
			else
				hi = mid;
		}
		w = lo;
	}
	if (r->line[s][w] && r->dirty[s][w]) {
		*victim = (r->line[s][w] - 1) << 4;
		res |= UARCH_WB;
	}
	r->line[s][w] = ln;
	r->dirty[s][w] = (uint8_t)write;
	ref_touch(r, s, w);
	return res;
}

/* A hit as translated code makes it in a one-set cache from a lookup's
 * hint (jit_models.c): the line found in its slot, touched and put first
 * in the filter without moving the others; 0 when it is not there. */
static int hinted_hit(struct uarch_cache *c, uint64_t addr, int write)
{
	const uint64_t key = (addr >> c->line_shift) + 1;
	for (uint32_t s = 0; s < c->ways; s++)
		if (c->tag[s] == key) {
			uarch_cache_touch(c, 0, s);
			c->dirty[s] |= (uint8_t)write;
			c->f_key[0] = key;
			c->f_slot[0] = s;
			return 1;
		}
	return 0;
}

/* Random accesses (biased to reuse, mostly of alternating pairs) through the
 * model and the reference: every result and victim must agree. With one
 * set, some hits are made as translated code makes them. */
void test_cache_reference(void)
{
	static const struct uarch_cache_config cfgs[] = {
		{ 4, 4, 16, UARCH_REPL_LRU }, { 2, 8, 16, UARCH_REPL_PLRU },
		{ 1, 32, 16, UARCH_REPL_LRU }, { 1, 32, 16, UARCH_REPL_PLRU },
		{ 8, 1, 16, UARCH_REPL_LRU }, { 4, 2, 16, UARCH_REPL_PLRU },
		{ 2, 3, 16, UARCH_REPL_LRU }, { 1, 40, 16, UARCH_REPL_LRU },
		{ 2, 64, 16, UARCH_REPL_LRU }, { 1, 128, 16, UARCH_REPL_LRU },
		{ 2, 1024, 16, UARCH_REPL_LRU },   /* TLB-wide LRU sets */
		{ 1, 8, 16, UARCH_REPL_PLRU }, { 1, 6, 16, UARCH_REPL_LRU },
	};
	static struct ref_cache ref;
	for (unsigned k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
		struct uarch_cache c;
		CHECK(uarch_cache_init(&c, &cfgs[k]) == 0, "init %u", k);
		memset(&ref, 0, sizeof ref);
		ref.sets = cfgs[k].sets;
		ref.ways = cfgs[k].ways;
		ref.plru = cfgs[k].repl == UARCH_REPL_PLRU;
		/* the last four addresses: reuse at each place in the filter */
		uint64_t x = 0x9e3779b97f4a7c15ULL * (k + 1), prev[4] = { 0, 0x10, 0x20, 0x30 };
		int bad = 0;
		for (int i = 0; i < 200000 && !bad; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint64_t lines = 4 * (uint64_t)cfgs[k].sets * cfgs[k].ways / 3 + 2;
			uint64_t a = (x >> 8) % 4 ? prev[(x >> 4) & ((x >> 60) ? 1 : 3)]
					       : ((x >> 16) % lines) * 16;
			a += (x >> 40) & 15;
			int wr = (x >> 20) % 3 == 0;
			prev[i & 3] = a;
			if (i == 100000) {   /* a flush, then the same again from cold */
				uarch_cache_invalidate(&c);
				memset(ref.line, 0, sizeof ref.line);
				memset(ref.dirty, 0, sizeof ref.dirty);
				memset(ref.order, 0, sizeof ref.order);
				memset(ref.n, 0, sizeof ref.n);
				memset(ref.tree, 0, sizeof ref.tree);
			}
			uint64_t v1 = 0, v2 = 0;
			unsigned r1 = c.sets == 1 && (x >> 24) % 3 == 0 && hinted_hit(&c, a, wr)
				? UARCH_HIT : uarch_cache_access(&c, a, wr, &v1);
			unsigned r2 = ref_access(&ref, a, wr, &v2);
			if (r1 != r2 || ((r1 & UARCH_WB) && v1 != v2)) {
				CHECK(0, "config %u access %d (0x%llx %c): model %u victim 0x%llx, reference %u victim 0x%llx",
				      k, i, (unsigned long long)a, wr ? 'W' : 'R', r1, (unsigned long long)v1,
				      r2, (unsigned long long)v2);
				bad = 1;
			}
		}
		uarch_cache_free(&c);
	}
}
