/* Coherence among harts' L1Ds (src/uarch/coherence.c): MESI states and
 * events step by step, the shared L2, private L2s, and dropping a line. */
#include <string.h>
#include "uarch_test.h"

/* three harts: L1D 4 sets x 2 ways of 16 bytes, an L2 of 8 sets x 2 ways;
 * an L1D miss served by the L2 costs 5 cycles, by memory 55 */
static void three(struct uarch u[3], struct uarch_domain *d, int share_l2)
{
	struct uarch_config c;
	ut_config_bare(&c);
	c.l1d = (struct uarch_cache_config){ 4, 2, 16, UARCH_REPL_PLRU };
	c.l2 = (struct uarch_cache_config){ 8, 2, 16, UARCH_REPL_LRU };
	c.timing.l2_lat = 5;
	c.timing.mem_lat = 50;
	struct uarch *p[3] = { &u[0], &u[1], &u[2] };
	for (int i = 0; i < 3; i++)
		ut_init(&u[i], &c);
	CHECK(uarch_domain_init(d, p, 3, share_l2) == 0, "domain");
}

static void done(struct uarch u[3], struct uarch_domain *d)
{
	for (int i = 0; i < 3; i++)
		uarch_free(&u[i]);
	uarch_domain_free(d);
}

/* hart u's access to addr, a store when write; the cycles it took */
static uint64_t acc(struct uarch *u, uint64_t addr, int write)
{
	static uint64_t pc = 0x1000;
	struct retire_rec r = ut_mem(write ? UARCH_CLS_STORE : UARCH_CLS_LOAD, pc += 4, addr, 0, 0, 0);
	uint64_t t = u->tm.now;
	uarch_retire(u, &r);
	return u->tm.now - t;
}

enum { I, S, E, M };
/* line addr's MESI state in u's L1D */
static int state(const struct uarch *u, uint64_t addr)
{
	int64_t s = uarch_cache_slot(&u->l1d, addr >> u->l1d.line_shift);
	if (s < 0)
		return I;
	uint8_t b = u->l1d.dirty[s];
	CHECK(b == 0 || b == 1 || b == UARCH_LINE_SHARED, "line 0x%llx state byte %u",
	      (unsigned long long)addr, b);
	return b == UARCH_LINE_SHARED ? S : b ? M : E;
}

#define STATES(a, b, c, what) do { \
	CHECK_EQ(state(&u[0], X), a, what ": A"); CHECK_EQ(state(&u[1], X), b, what ": B"); \
	CHECK_EQ(state(&u[2], X), c, what ": C"); } while (0)

/* A, B, C and one line X: every transition of the protocol once */
void test_coh_mesi(void)
{
	struct uarch u[3];
	struct uarch_domain d;
	const uint64_t X = 0x40;
	three(u, &d, 1);
	/* the cycles of a load and of a store hitting, by a hart alone */
	struct uarch ref;
	struct uarch_config c;
	ut_config_bare(&c);
	c.l1d = (struct uarch_cache_config){ 4, 2, 16, UARCH_REPL_PLRU };
	ut_init(&ref, &c);
	acc(&ref, 0x400, 1);
	const uint64_t load_hit = acc(&ref, 0x400, 0), store_hit = acc(&ref, 0x400, 1);
	uarch_free(&ref);
	/* A reads: nobody has it, memory supplies it Exclusive */
	CHECK_EQ(acc(&u[0], X, 0), load_hit + 55, "A's read from memory");
	STATES(E, I, I, "A reads");
	/* B reads: A's Exclusive line becomes Shared; a snoop hit of A's, a
	 * coherence miss of B's, at the L2's latency */
	CHECK_EQ(acc(&u[1], X, 0), load_hit + 5, "B's read from A");
	STATES(S, S, I, "B reads");
	CHECK_EV(&u[0], SNOOP_HIT, 1);
	CHECK_EV(&u[1], COHERENCE_MISS, 1);
	CHECK_EV(&u[1], L2_ACCESS, 1);
	CHECK_EV(&u[1], L2_MISS, 0);
	/* A writes: an upgrade, B's copy invalidated, no data moved */
	CHECK_EQ(acc(&u[0], X, 1), store_hit + 5, "A's upgrade");
	STATES(M, I, I, "A writes");
	CHECK_EV(&u[0], UPGRADE, 1);
	CHECK_EV(&u[1], INVALIDATION, 1);
	CHECK_EV(&u[0], L1D_WRITE_MISS, 0);
	CHECK_EV(&u[0], L2_ACCESS, 1);
	/* A writes again: Modified, nobody else is asked */
	CHECK_EQ(acc(&u[0], X, 1), store_hit, "A's store hit");
	CHECK_EV(&u[0], UPGRADE, 1);
	/* B reads: A writes its Modified line back and keeps it Shared */
	CHECK_EQ(acc(&u[1], X, 0), load_hit + 5, "B's read from A (Modified)");
	STATES(S, S, I, "B reads A's Modified line");
	CHECK_EV(&u[0], SNOOP_HIT, 2);
	CHECK_EV(&u[0], L1D_WRITEBACK, 1);
	CHECK_EV(&u[0], L2_ACCESS, 2);
	CHECK_EV(&u[0], L2_WRITE_ACCESS, 1);
	CHECK_EV(&u[1], COHERENCE_MISS, 2);
	/* C writes: A and B lose their Shared copies; the L2 supplies it */
	CHECK_EQ(acc(&u[2], X, 1), store_hit + 5, "C's write miss from the L2");
	STATES(I, I, M, "C writes");
	CHECK_EV(&u[0], INVALIDATION, 1);
	CHECK_EV(&u[1], INVALIDATION, 2);
	CHECK_EV(&u[2], COHERENCE_MISS, 0);
	CHECK_EV(&u[2], L1D_WRITE_MISS, 1);
	CHECK_EV(&u[2], L2_ACCESS, 1);
	CHECK_EV(&u[2], L2_MISS, 0);
	/* A writes: C's Modified line moves to A (no write-back) */
	CHECK_EQ(acc(&u[0], X, 1), store_hit + 5, "A's write miss from C");
	STATES(M, I, I, "A takes C's line");
	CHECK_EV(&u[2], SNOOP_HIT, 1);
	CHECK_EV(&u[2], INVALIDATION, 1);
	CHECK_EV(&u[2], L1D_WRITEBACK, 0);
	CHECK_EV(&u[0], COHERENCE_MISS, 1);
	CHECK_EV(&u[0], L1D_WRITE_MISS, 1);
	/* A reads its own line and B writes another: nobody else is touched */
	acc(&u[0], X, 0);
	acc(&u[1], 0x80, 1);
	STATES(M, I, I, "others' lines");
	CHECK_EV(&u[0], INVALIDATION, 1);
	CHECK_EV(&u[2], SNOOP_HIT, 1);
	/* the totals no other event disturbed */
	CHECK_EV(&u[0], UPGRADE, 1);
	CHECK_EV(&u[1], UPGRADE, 0);
	CHECK_EV(&u[2], UPGRADE, 0);
	CHECK_EV(&u[1], SNOOP_HIT, 0);
	done(u, &d);
}

/* One L2 for all: a line A filled, and its L1D dropped, B finds there. */
void test_coh_shared_l2(void)
{
	for (int share = 1; share >= 0; share--) {
		struct uarch u[3];
		struct uarch_domain d;
		three(u, &d, share);
		CHECK(share ? u[0].l2 == &d.l2 && u[1].l2 == &d.l2 && !u[0].l2_own.present
			    : u[0].l2 == &u[0].l2_own && !d.l2.present, "the L2 each uses");
		acc(&u[0], 0x00, 0);
		acc(&u[0], 0x40, 0);
		acc(&u[0], 0x80, 0);   /* set 0's two ways: 0x00 leaves A's L1D */
		CHECK_EQ(state(&u[0], 0x00), I, "0x00 evicted");
		acc(&u[1], 0x00, 0);   /* nobody holds it: the L2 (if shared) */
		CHECK_EV(&u[0], L2_ACCESS, 3);
		CHECK_EV(&u[0], L2_MISS, 3);
		CHECK_EV(&u[1], L2_ACCESS, 1);
		CHECK_EV(&u[1], L2_MISS, share ? 0 : 1);
		CHECK_EV(&u[1], COHERENCE_MISS, 0);
		CHECK_EQ(state(&u[1], 0x00), E, "B has it alone");
		done(u, &d);
	}
}

/* Private L2s lose a line another hart writes: A's L2 then misses it. */
void test_coh_private_l2(void)
{
	struct uarch u[3];
	struct uarch_domain d;
	three(u, &d, 0);
	acc(&u[0], 0x10, 0);   /* in A's L1D and L2 */
	acc(&u[0], 0x50, 0);
	acc(&u[0], 0x90, 0);   /* 0x10 leaves A's L1D, stays in its L2 */
	CHECK(uarch_cache_holds(u[0].l2, 0x10), "A's L2 holds 0x10");
	acc(&u[1], 0x10, 1);   /* B writes it */
	CHECK(!uarch_cache_holds(u[0].l2, 0x10), "A's L2 lost 0x10");
	CHECK_EV(&u[0], INVALIDATION, 0);   /* not an L1D line */
	acc(&u[0], 0x10, 0);   /* B holds it Modified */
	CHECK_EV(&u[0], COHERENCE_MISS, 1);
	CHECK_EV(&u[0], L2_MISS, 3);   /* supplied by B: not an L2 miss */
	CHECK_EV(&u[1], SNOOP_HIT, 1);
	CHECK_EV(&u[1], L1D_WRITEBACK, 1);
	done(u, &d);
}

/* A dropped line is gone from every shortcut, and its way is refilled
 * first; under LRU and tree PLRU, narrow and wide sets. */
void test_coh_drop(void)
{
	static const struct uarch_cache_config cfgs[] = {
		{ 4, 4, 16, UARCH_REPL_LRU }, { 4, 4, 16, UARCH_REPL_PLRU },
		{ 1, 64, 16, UARCH_REPL_LRU }, { 1, 64, 16, UARCH_REPL_PLRU },
	};
	for (unsigned k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
		struct uarch_cache c;
		CHECK(uarch_cache_init(&c, &cfgs[k]) == 0, "init %u", k);
		const uint32_t sets = cfgs[k].sets, ways = cfgs[k].ways;
		for (uint32_t w = 0; w < ways; w++)   /* set 0 full */
			uarch_cache_access(&c, (uint64_t)w * sets * 16, 0, NULL);
		uint64_t line = 2 * sets;   /* the third line filled, way 2 */
		int64_t s = uarch_cache_slot(&c, line);
		CHECK(s >= 0, "%u: line held", k);
		if (s < 0)
			continue;
		uarch_cache_access(&c, line << 4, 0, NULL);   /* the most recent, first in the filter */
		uarch_cache_drop(&c, (uint32_t)s);
		CHECK(!uarch_cache_hit(&c, line, 0), "%u: no shortcut finds it", k);
		CHECK(uarch_cache_slot(&c, line) < 0, "%u: not in its set", k);
		CHECK_EQ(uarch_cache_access(&c, (uint64_t)ways * sets * 16, 0, NULL), UARCH_MISS,
			 "a new line: a miss, evicting nothing dirty");
		CHECK_EQ(uarch_cache_slot(&c, (uint64_t)ways * sets), s, "it takes the dropped way");
		for (uint32_t w = 0; w < ways; w++)   /* the others are all still there */
			CHECK(w == 2 || uarch_cache_holds(&c, (uint64_t)w * sets * 16), "%u: way %u kept", k, w);
		uarch_cache_free(&c);
	}
}
