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
