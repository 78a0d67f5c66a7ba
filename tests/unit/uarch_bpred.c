/* Branch prediction tests: counts derived from the 2-bit counter, gshare
 * history and RAS rules by hand. */
#include "uarch_test.h"

static void bp_config(struct uarch_config *c, uint8_t dir, uint32_t pht, uint32_t hist)
{
	ut_config_bare(c);
	c->bpred = (struct uarch_bpred_config){
		.dir = dir, .pht_entries = pht, .hist_bits = hist,
		.btb_sets = 16, .btb_ways = 2, .ras_depth = 4,
	};
}

static void retire(struct uarch *u, struct retire_rec r) { uarch_retire(u, &r); }

/* A loop branch taken 9 times then not taken, the loop run R times, one
 * bimodal counter starting weakly not-taken (1). Run 1: the first taken
 * mispredicts (1->2), the next 8 hit (saturating at 3), the exit
 * mispredicts (3->2). Every later run starts at 2: the 9 taken hit, the
 * exit mispredicts. => R + 1 direction mispredicts; the BTB learns the
 * target on the first taken, so no target mispredicts. */
void test_bimodal_loop(void)
{
	static const unsigned runs[3] = { 1, 3, 10 };
	for (int k = 0; k < 3; k++) {
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
		ut_init(&u, &c);
		for (unsigned run = 0; run < runs[k]; run++)
			for (int i = 0; i < 10; i++)
				retire(&u, ut_br(0x200, i < 9, 0x1f0, 5));
		CHECK_EV(&u, BRANCH_DIR_MISPREDICT, runs[k] + 1);
		CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 0);
		uarch_free(&u);
	}
}

/* One branch alternating T N T N ... (100 outcomes), pc 0x400 so the pc
 * bits under the 4-entry table are 0.
 * gshare, 2 history bits (index = history, history starts 00, counters 1):
 *  T: idx 0, ctr 1 -> predicts N: miss; ctr0=2, hist 01
 *  N: idx 1, ctr 1 -> N: hit; ctr1=0, hist 10
 *  T: idx 2, ctr 1 -> N: miss; ctr2=2, hist 01
 *  N: idx 1, ctr 0 -> hit; hist 10
 *  T: idx 2, ctr 2 -> T: hit; from here on idx 2 always T, idx 1 always N
 * => exactly 2 mispredicts. Bimodal: the one counter swings 1->2->1..., it
 * is wrong every time: 100. */
void test_gshare_alternate(void)
{
	for (int g = 0; g < 2; g++) {
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, g ? UARCH_DIR_GSHARE : UARCH_DIR_BIMODAL, 4, 2);
		ut_init(&u, &c);
		uint64_t after10 = 0;
		for (int i = 0; i < 100; i++) {
			retire(&u, ut_br(0x400, !(i & 1), 0x3f0, 5));
			if (i == 9)
				after10 = u.ev[UARCH_EV_BRANCH_DIR_MISPREDICT];
		}
		CHECK_EV(&u, BRANCH_DIR_MISPREDICT, g ? 2 : 100);
		if (g)
			CHECK_EQ(after10, 2, "gshare mispredicts within warm-up");
		CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 0);
		uarch_free(&u);
	}
}

/* RAS depth 4, six nested calls (jal ra) then six returns (jalr x0, 0(ra)):
 * the 5th and 6th pushes overwrite the two oldest entries, so returns 1-4
 * hit and the last two find the stack empty: 2 RAS mispredicts per round.
 * Call i sits at site(i) = 0x1000 + 0x104 i, BTB set (pc >> 1) mod 16 = 2i:
 * six different sets, so the jal targets miss the cold BTB in round 1 only
 * (returns never use it). Two rounds: 4 RAS, 6 target mispredicts. */
#define SITE(i) (0x1000 + 0x104 * (i))
void test_ras_overflow(void)
{
	struct uarch_config c;
	struct uarch u;
	bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
	ut_init(&u, &c);
	for (int round = 0; round < 2; round++) {
		for (uint64_t i = 0; i < 6; i++)
			retire(&u, ut_jump(UARCH_CLS_JAL, SITE(i), SITE(i + 1), 1, 0));
		for (uint64_t i = 6; i-- > 0;)
			retire(&u, ut_jump(UARCH_CLS_JALR, SITE(i + 1) + 0x40, SITE(i) + 4, 0, 1));
		CHECK_EV(&u, RAS_MISPREDICT, 2 * (round + 1));
	}
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 6);
	CHECK_EV(&u, BRANCH_DIR_MISPREDICT, 0);
	uarch_free(&u);
}

/* The JALR hint table (Unprivileged ISA 2.5.1):
 *  jal ra, 0x4000 at 0x3000          push 0x3004 (BTB cold: 1 target miss)
 *  jalr t0, 0(ra) at 0x4000 -> 0x3004 rd, rs1 links, different: pop
 *                                     (0x3004, hit) then push 0x4004
 *  jalr x0, 0(t0) at 0x3004 -> 0x4004 pop: 0x4004 hit
 *  jalr ra, 0(ra) at 0x5000 -> 0x6000 rd = rs1 = ra: push 0x5004 only; the
 *                                     target comes from the BTB (cold: miss)
 *  jalr x0, 0(x5) at 0x6000 -> 0x5004 pop: hit
 *  jalr x0, 0(a0) at 0x7000 -> 0x8000 no hint: BTB (cold: miss)
 *  jalr x0, 0(ra) at 0x8000 -> 0x9000 pop on an empty stack: RAS miss
 * => 1 RAS, 3 target mispredicts. Treating the pop-then-push as a push
 * would add a target miss; as a pop, a RAS miss at 0x3004. */
void test_ras_hints(void)
{
	struct uarch_config c;
	struct uarch u;
	bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
	ut_init(&u, &c);
	retire(&u, ut_jump(UARCH_CLS_JAL, 0x3000, 0x4000, 1, 0));
	retire(&u, ut_jump(UARCH_CLS_JALR, 0x4000, 0x3004, 5, 1));
	retire(&u, ut_jump(UARCH_CLS_JALR, 0x3004, 0x4004, 0, 5));
	CHECK_EV(&u, RAS_MISPREDICT, 0);
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 1);
	retire(&u, ut_jump(UARCH_CLS_JALR, 0x5000, 0x6000, 1, 1));
	retire(&u, ut_jump(UARCH_CLS_JALR, 0x6000, 0x5004, 0, 5));
	CHECK_EV(&u, RAS_MISPREDICT, 0);
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 2);
	retire(&u, ut_jump(UARCH_CLS_JALR, 0x7000, 0x8000, 0, 10));
	retire(&u, ut_jump(UARCH_CLS_JALR, 0x8000, 0x9000, 0, 1));
	CHECK_EV(&u, RAS_MISPREDICT, 1);
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 3);
	/* a compressed call (c.jalr ra) pushes pc + 2 */
	struct retire_rec r = ut_jump(UARCH_CLS_JALR, 0xa000, 0xb000, 1, 10);
	r.ilen = 2;
	retire(&u, r);
	retire(&u, ut_jump(UARCH_CLS_JALR, 0xb000, 0xa002, 0, 1));
	CHECK_EV(&u, RAS_MISPREDICT, 1);
	uarch_free(&u);
}

/* BTB of 1 set x 2 ways (LRU): three jal sites cycled 3 times thrash it (9
 * target misses); two sites fit (2 cold misses). An indirect jump whose
 * target changes misses each time it changes. */
void test_btb_conflict(void)
{
	for (int sites = 2; sites <= 3; sites++) {
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
		c.bpred.btb_sets = 1;
		ut_init(&u, &c);
		for (int round = 0; round < 3; round++)
			for (uint64_t s = 0; s < (uint64_t)sites; s++)
				retire(&u, ut_jump(UARCH_CLS_JAL, 0x1000 + 0x10 * s, 0x2000 + 0x10 * s, 0, 0));
		CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, sites == 2 ? 2 : 9);
		uarch_free(&u);
	}
	struct uarch_config c;
	struct uarch u;
	bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
	ut_init(&u, &c);
	static const uint64_t tg[6] = { 0x100, 0x100, 0x200, 0x200, 0x200, 0x100 };
	for (int i = 0; i < 6; i++)
		retire(&u, ut_jump(UARCH_CLS_JALR, 0x5000, tg[i], 0, 10));
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 3);
	uarch_free(&u);
}

/* The BTB's victim is its set's least recently used way, not the oldest
 * fill, and a branch is found past a stale hint: 1 set x 2 ways, jal
 * sites A B C sharing one hint. A B A C B A: A's second run hits (past
 * B's hint) and makes B the LRU way, so C evicts B, B evicts A and A
 * misses: 5 target misses (first-in-first-out would give 4: C evicting
 * A, B hitting). */
void test_btb_lru(void)
{
	struct uarch_config c;
	struct uarch u;
	bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
	c.bpred.btb_sets = 1;
	ut_init(&u, &c);
	static const uint64_t site[6] = { 0x1000, 0x1200, 0x1000, 0x1400, 0x1200, 0x1000 };
	for (int i = 0; i < 6; i++)
		retire(&u, ut_jump(UARCH_CLS_JAL, site[i], site[i] + 0x800, 0, 0));
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 5);
	uarch_free(&u);
}

/* Counter width n: counters saturate at 0 and 2^n - 1, predict taken from
 * 2^(n-1) and start at 2^(n-1) - 1 (one T from predicting taken).
 * The 9T+1N loop of test_bimodal_loop, R runs: a 1-bit counter flips on
 * the exit, so every run mispredicts its first taken and its exit: 2R.
 * Two or more bits ride out the exit: R + 1 (the first taken of run 1
 * and every exit).
 * 20 T, 20 N, 20 T: 1 miss to leave the start, then 2^(n-1) misses at each
 * change of direction (saturated to the midpoint, and 0 back up to it):
 * 1 + 2^n. */
void test_bpred_counter_bits(void)
{
	static const unsigned runs[3] = { 1, 3, 10 };
	for (uint32_t bits = 1; bits <= 4; bits++) {
		for (int k = 0; k < 3; k++) {
			struct uarch_config c;
			struct uarch u;
			bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
			c.bpred.counter_bits = bits;
			ut_init(&u, &c);
			for (unsigned run = 0; run < runs[k]; run++)
				for (int i = 0; i < 10; i++)
					retire(&u, ut_br(0x200, i < 9, 0x1f0, 5));
			CHECK_EQ(u.ev[UARCH_EV_BRANCH_DIR_MISPREDICT],
				 bits == 1 ? 2 * runs[k] : runs[k] + 1, bits == 1 ? "1-bit loop" : "n-bit loop");
			uarch_free(&u);
		}
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
		c.bpred.counter_bits = bits;
		ut_init(&u, &c);
		for (int i = 0; i < 60; i++)
			retire(&u, ut_br(0x200, i < 20 || i >= 40, 0x1f0, 5));
		CHECK_EQ(u.ev[UARCH_EV_BRANCH_DIR_MISPREDICT], 1 + (1u << bits), "T20 N20 T20 hysteresis");
		uarch_free(&u);
	}
	/* widths outside 1..4 are refused; 0 means 2 (the loop gives R + 1 above) */
	struct uarch_config c;
	struct uarch u;
	bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
	c.bpred.counter_bits = 5;
	CHECK(uarch_init(&u, &c, NULL, 0) != 0, "counter_bits 5 accepted");
	bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
	c.bpred.indirect_entries = (1u << 16) + 1;
	CHECK(uarch_init(&u, &c, NULL, 0) != 0, "indirect_entries 65537 accepted");
}

/* A branch at 0x400 alternating T N T N ... (100 times), each followed by
 * a jalr x0, 0(a0) at 0x5000 going to 0x100 after a T and 0x200 after an
 * N; 4 indirect entries.
 * gshare, 2 history bits: after the branch the history is 01 (after T) or
 * 10 (after N), and (0x5000 >> 1) mod 4 = 0, so the jalr uses entry 1
 * after T and 2 after N: two cold misses, then every target is right: 2.
 * (The branch itself: 2 direction misses, as in test_gshare_alternate, and
 * its BTB entry is trained on its first taken: no target misses.)
 * The same jumps from the BTB (no indirect predictor): the target changes
 * every time: 100. Bimodal has no history, the index is the pc alone: one
 * entry whose last target is always the other one: 100. */
void test_indirect_history(void)
{
	for (int v = 0; v < 3; v++) {
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, v == 2 ? UARCH_DIR_BIMODAL : UARCH_DIR_GSHARE, 4, 2);
		c.bpred.indirect_entries = v == 1 ? 0 : 4;
		ut_init(&u, &c);
		uint64_t after10 = 0;
		for (int i = 0; i < 100; i++) {
			int t = !(i & 1);
			retire(&u, ut_br(0x400, t, 0x3f0, 5));
			retire(&u, ut_jump(UARCH_CLS_JALR, 0x5000, t ? 0x100 : 0x200, 0, 10));
			if (i == 9)
				after10 = u.ev[UARCH_EV_BRANCH_TARGET_MISPREDICT];
		}
		CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, v == 0 ? 2 : 100);
		if (v == 0)
			CHECK_EQ(after10, 2, "indirect target misses within warm-up");
		CHECK_EV(&u, BRANCH_DIR_MISPREDICT, v == 2 ? 100 : 2);
		CHECK_EV(&u, RAS_MISPREDICT, 0);
		uarch_free(&u);
	}
}

/* Bimodal (no history): the index is (pc >> 1) mod entries.
 *  - 4 entries: jalr sites 0x5000 (entry 0) and 0x5004 (entry 2), each with
 *    its own constant target, alternated 10 times: 2 cold misses. Sites
 *    0x5000 and 0x5008 share entry 0 (tagless): every jump evicts the
 *    other's target: 20 misses.
 *  - 3 entries: 0x5000 -> 10240 mod 3 = 1, 0x5008 -> 10244 mod 3 = 2: no
 *    sharing, 2 misses.
 *  - 1 entry: jalr 0x5000 -> 0x100, then a call (jal ra at 0x6000, BTB
 *    cold once) and its return (jalr x0, 0(ra), from the RAS), 5 times: the
 *    return leaves the one entry alone, so 1 indirect + 1 BTB miss; a call
 *    through jalr ra, 0(a0) (a push, not a return) does use it: a second
 *    site with another target in the one entry makes every jump miss. */
void test_indirect_pc(void)
{
	static const struct { uint32_t n; uint64_t second; unsigned want; } t[3] = {
		{ 4, 0x5004, 2 }, { 4, 0x5008, 20 }, { 3, 0x5008, 2 },
	};
	for (int k = 0; k < 3; k++) {
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
		c.bpred.indirect_entries = t[k].n;
		ut_init(&u, &c);
		for (int i = 0; i < 10; i++) {
			retire(&u, ut_jump(UARCH_CLS_JALR, 0x5000, 0x100, 0, 10));
			retire(&u, ut_jump(UARCH_CLS_JALR, t[k].second, 0x200, 0, 11));
		}
		CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, t[k].want);
		uarch_free(&u);
	}
	for (int viajalr = 0; viajalr < 2; viajalr++) {
		struct uarch_config c;
		struct uarch u;
		bp_config(&c, UARCH_DIR_BIMODAL, 16, 0);
		c.bpred.indirect_entries = 1;
		ut_init(&u, &c);
		for (int i = 0; i < 5; i++) {
			retire(&u, ut_jump(UARCH_CLS_JALR, 0x5000, 0x100, 0, 10));
			retire(&u, viajalr ? ut_jump(UARCH_CLS_JALR, 0x6000, 0x7000, 1, 10)
					   : ut_jump(UARCH_CLS_JAL, 0x6000, 0x7000, 1, 0));
			retire(&u, ut_jump(UARCH_CLS_JALR, 0x7000, 0x6004, 0, 1));
		}
		CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, viajalr ? 10 : 2);
		CHECK_EV(&u, RAS_MISPREDICT, 0);
		uarch_free(&u);
	}
}
