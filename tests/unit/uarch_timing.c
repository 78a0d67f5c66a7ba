/* Timing model tests: tiny streams whose cycle totals were worked out by
 * hand from the rules at the top of src/uarch/timing.c. */
#include <stdlib.h>
#include <string.h>
#include "uarch_test.h"

static void tm_config(struct uarch_config *c, uint32_t width)
{
	ut_config_bare(c);
	c->bpred = (struct uarch_bpred_config){
		.dir = UARCH_DIR_BIMODAL, .pht_entries = 16,
		.btb_sets = 4, .btb_ways = 2, .ras_depth = 4,
	};
	c->timing = (struct uarch_timing_config){
		.width = width, .load_use = 3, .mul_lat = 4, .div_lat = 10,
		.fp_lat = 2, .fp_div_lat = 8, .mispredict_penalty = 5,
		.redirect_penalty = 2, .l2_lat = 7, .mem_lat = 30,
		.l2tlb_lat = 3, .walk_lat = 11,
	};
}

static void run(struct uarch *u, const struct retire_rec *s, int n, const uint64_t *now_after)
{
	for (int i = 0; i < n; i++) {
		uarch_retire(u, &s[i]);
		CHECK(u->tm.now == now_after[i], "after instruction %d: cycles %llu, want %llu",
		      i + 1, (unsigned long long)u->tm.now, (unsigned long long)now_after[i]);
	}
}

/* 1-wide, no caches or TLBs (no fetch or data miss cycles).
 *  #  pc     insn                 e   issue  why
 *  1  1000   alu x5               1   1
 *  2  1004   load x6 <- (x5)      2   2      x6 ready 5
 *  3  1008   alu x7 <- x6         3   5      load-use: backend 2
 *  4  100c   mul x8 <- x7,x7      6   6      x8 ready 10
 *  5  1010   div x9 <- x5         7   7      divider busy until 17
 *  6  1014   div x10 <- x5        8   17     divider: backend 9; x10 at 27
 *  7  1018   alu x11 <- x8        18  18
 *  8  101c   bne x9 (not taken)   19  19     counter predicts N: right
 *  9  1020   beq -> 2000 (taken)  20  20     predicted N: dir mispredict
 * 10  2000   alu                  21+5=26    frontend 5
 * 11  2004   fdiv f1              27  27     f1 ready 35
 * 12  2008   csr x12              28  35     waits for all: backend 7
 * 13  200c   jal ra -> 3000       36  36     BTB cold: decode redirect
 * 14  3000   alu                  37+2=39    frontend 2
 * => cycles 39 = 14 groups + frontend 7 + backend 18. */
void test_timing_w1(void)
{
	struct uarch_config c;
	struct uarch u;
	tm_config(&c, 1);
	ut_init(&u, &c);
	struct retire_rec s[14] = {
		ut_alu(0x1000, 5, 0, 0),
		ut_mem(UARCH_CLS_LOAD, 0x1004, 0x9000, 6, 5, 0),
		ut_alu(0x1008, 7, 6, 0),
		ut_op(UARCH_CLS_MUL, 0x100c, 8, 7, 7),
		ut_op(UARCH_CLS_DIV, 0x1010, 9, 5, 0),
		ut_op(UARCH_CLS_DIV, 0x1014, 10, 5, 0),
		ut_alu(0x1018, 11, 8, 0),
		ut_br(0x101c, 0, 0, 9),
		ut_br(0x1020, 1, 0x2000, 0),
		ut_alu(0x2000, 13, 0, 0),
		ut_op(UARCH_CLS_FP_DIV, 0x2004, 33, 0, 0),
		ut_op(UARCH_CLS_CSR, 0x2008, 12, 0, 0),
		ut_jump(UARCH_CLS_JAL, 0x200c, 0x3000, 1, 0),
		ut_alu(0x3000, 14, 0, 0),
	};
	static const uint64_t now[14] = { 1, 2, 5, 6, 7, 17, 18, 19, 20, 26, 27, 35, 36, 39 };
	run(&u, s, 14, now);
	CHECK_EV(&u, CYCLES, 39);
	CHECK_EV(&u, STALL_FRONTEND, 7);
	CHECK_EV(&u, STALL_BACKEND, 18);
	CHECK_EV(&u, BRANCH_DIR_MISPREDICT, 1);
	CHECK_EV(&u, BRANCH_TARGET_MISPREDICT, 1);
	/* the frontend's parts: 10's mispredict, 14's decode redirect; 12
	 * only reads its CSR, which drains but does not flush */
	CHECK_EV(&u, STALL_MISPREDICT, 5);
	CHECK_EV(&u, STALL_REDIRECT, 2);
	CHECK_EV(&u, STALL_ICACHE_BUSY, 0);
	CHECK_EV(&u, STALL_FLUSH, 0);
	/* reset gives the same totals again */
	uarch_reset(&u);
	run(&u, s, 14, now);
	CHECK_EV(&u, STALL_BACKEND, 18);
	uarch_free(&u);
}

/* 2-wide with L1I, L1D (4 sets x 1 way, 16 B), L2 (16 x 2, 16 B), a 2-entry
 * DTLB, no ITLB or L2 TLB. Fetch miss to memory = 7 + 30 = 37; a DTLB miss
 * walks (11). Groups start at `now`; "pair" means it may join the group.
 *  #  pc    insn               fetch      e         issue  now after
 *  1  1000  alu x5             miss 37    1+37=38   38     38
 *  2  1004  alu x6             -          pair 38   38     38 (full)
 *  3  1008  alu x7 <- x5       -          39        39     39
 *  4  100c  alu x8 <- x7       -          pair 39   40     40 (dep: backend 1)
 *  5  1010  ld x9 <- 0x8000    miss 37    41+37=78  78     DTLB walk 11 + L1D
 *                                                          miss to mem 37:
 *                                                          freezes 48 -> 126
 *  6  1014  alu x10 <- x9      -          127       129    129 (backend 2)
 *  7  1018  ld x11 <- 0x8004   -          pair 129  129    129 (hit, x11 at 132)
 *  8  101c  sd x10 -> 0x8008   -          130       130    130 (hit, dirty)
 *  9  1020  sd x11 -> 0x8040   miss 37    131+37=168 168   L1D miss to mem 37,
 *                                                          evicts dirty 0x8000
 *                                                          (L2 hit): 205
 * 10  1024  beq -> 1000 taken  -          206       206    206, dir mispredict
 * 11  1000  alu x5             hit, +5    207+5=212 212    212
 * 12  1004  mul x6 <- x5       -          pair 212  213    213 (backend 1)
 * 13  1008  mul x7             -          MDU busy: 214    214
 * 14  100c  fp f1              -          pair 214  214    214
 * 15  1010  csr x12            hit        215       218    x7 ready 218 (backend 3)
 * 16  1014  ld x13 <- 0x8000   -          219       219    L1D miss, evicts dirty
 *                                                          0x8040 (L2 hit); 0x8000
 *                                                          hits L2: 7 -> 226
 * => cycles 226 = 11 groups (1 3 5 6 8 9 10 11 13 15 16) + frontend 116 +
 * backend 99. */
void test_timing_w2(void)
{
	struct uarch_config c;
	struct uarch u;
	tm_config(&c, 2);
	c.l1i = (struct uarch_cache_config){ 4, 1, 16, UARCH_REPL_LRU };
	c.l1d = (struct uarch_cache_config){ 4, 1, 16, UARCH_REPL_LRU };
	c.l2 = (struct uarch_cache_config){ 16, 2, 16, UARCH_REPL_LRU };
	c.dtlb = (struct uarch_tlb_config){ 2, 2, UARCH_REPL_LRU };
	ut_init(&u, &c);
	struct retire_rec s[16] = {
		ut_alu(0x1000, 5, 0, 0),
		ut_alu(0x1004, 6, 0, 0),
		ut_alu(0x1008, 7, 5, 0),
		ut_alu(0x100c, 8, 7, 0),
		ut_mem(UARCH_CLS_LOAD, 0x1010, 0x8000, 9, 0, 0),
		ut_alu(0x1014, 10, 9, 0),
		ut_mem(UARCH_CLS_LOAD, 0x1018, 0x8004, 11, 0, 0),
		ut_mem(UARCH_CLS_STORE, 0x101c, 0x8008, 0, 0, 10),
		ut_mem(UARCH_CLS_STORE, 0x1020, 0x8040, 0, 0, 11),
		ut_br(0x1024, 1, 0x1000, 0),
		ut_alu(0x1000, 5, 0, 0),
		ut_op(UARCH_CLS_MUL, 0x1004, 6, 5, 0),
		ut_op(UARCH_CLS_MUL, 0x1008, 7, 0, 0),
		ut_op(UARCH_CLS_FP, 0x100c, 33, 0, 0),
		ut_op(UARCH_CLS_CSR, 0x1010, 12, 0, 0),
		ut_mem(UARCH_CLS_LOAD, 0x1014, 0x8000, 13, 0, 0),
	};
	static const uint64_t now[16] = {
		38, 38, 39, 40, 126, 129, 129, 130, 205, 206, 212, 213, 214, 214, 218, 226,
	};
	run(&u, s, 16, now);
	CHECK_EV(&u, CYCLES, 226);
	CHECK_EV(&u, STALL_FRONTEND, 116);
	CHECK_EV(&u, STALL_BACKEND, 99);
	CHECK_EV(&u, STALL_ICACHE_BUSY, 111);   /* three fetch misses; 11's mispredict */
	CHECK_EV(&u, STALL_MISPREDICT, 5);
	CHECK_EV(&u, STALL_REDIRECT, 0);
	CHECK_EV(&u, L1I_ACCESS, 5);
	CHECK_EV(&u, L1I_MISS, 3);
	CHECK_EV(&u, L1D_READ_ACCESS, 3);
	CHECK_EV(&u, L1D_READ_MISS, 2);
	CHECK_EV(&u, L1D_WRITE_ACCESS, 2);
	CHECK_EV(&u, L1D_WRITE_MISS, 1);
	CHECK_EV(&u, L1D_WRITEBACK, 2);
	CHECK_EV(&u, L2_ACCESS, 8);
	CHECK_EV(&u, L2_MISS, 5);
	CHECK_EV(&u, DTLB_ACCESS, 5);
	CHECK_EV(&u, DTLB_MISS, 1);
	CHECK_EV(&u, PAGE_WALK, 1);
	CHECK_EV(&u, BRANCH_DIR_MISPREDICT, 1);
	uarch_free(&u);

	/* 2-wide, no misses: 8 independent ALU ops take 4 cycles, a chain of 8
	 * dependent ones 8 (7 lost pairings) */
	tm_config(&c, 2);
	ut_init(&u, &c);
	for (int i = 0; i < 8; i++) {
		struct retire_rec r = ut_alu(0x1000 + 4 * (uint64_t)i, (uint8_t)(5 + i), 0, 0);
		uarch_retire(&u, &r);
	}
	CHECK_EV(&u, CYCLES, 4);
	for (int i = 0; i < 8; i++) {
		struct retire_rec r = ut_alu(0x1020 + 4 * (uint64_t)i, 5, 5, 0);
		uarch_retire(&u, &r);
	}
	CHECK_EV(&u, CYCLES, 12);
	CHECK_EV(&u, STALL_BACKEND, 7);
	uarch_free(&u);
}

/* The top-down's flush part (1-wide, no caches): a CSR write and a system
 * instruction flush; only their drains are stall_flush.
 *  #  pc     insn                 e   issue  why
 *  1  1000   load x6 <- (x5)      1   1      x6 ready 4
 *  2  1004   csrw (x0)            2   4      drain to 4: flush 2
 *  3  1008   fence (system)       5   5      nothing outstanding
 *  4  100c   mul x8               6   6      x8 ready 10
 *  5  1010   csrr x12             7   10     drain to 10: a read, no flush
 *  6  1014   mul x9               11  11     x9 ready 15
 *  7  1018   csrrw x13            12  15     drain to 15: flush 3
 * => cycles 15 = 7 groups + backend 8, of it flush 5. And a redirect
 * penalty as long as the mispredict penalty is refused: the two would
 * not be told apart. */
void test_timing_topdown(void)
{
	struct uarch_config c;
	struct uarch u;
	tm_config(&c, 1);
	ut_init(&u, &c);
	struct retire_rec s[7] = {
		ut_mem(UARCH_CLS_LOAD, 0x1000, 0x9000, 6, 5, 0),
		ut_op(UARCH_CLS_CSR, 0x1004, 0, 0, 0),
		ut_op(UARCH_CLS_SYSTEM, 0x1008, 0, 0, 0),
		ut_op(UARCH_CLS_MUL, 0x100c, 8, 0, 0),
		ut_op(UARCH_CLS_CSR, 0x1010, 12, 0, 0),
		ut_op(UARCH_CLS_MUL, 0x1014, 9, 0, 0),
		ut_op(UARCH_CLS_CSR, 0x1018, 13, 0, 0),
	};
	s[1].flags |= UARCH_RF_CSR_WRITE;
	s[6].flags |= UARCH_RF_CSR_WRITE;
	static const uint64_t now[7] = { 1, 4, 5, 6, 10, 11, 15 };
	run(&u, s, 7, now);
	CHECK_EV(&u, STALL_BACKEND, 8);
	CHECK_EV(&u, STALL_FLUSH, 5);
	CHECK_EV(&u, FLUSH_CSR_WRITE, 2);
	CHECK_EV(&u, FLUSH_OTHER, 1);
	CHECK_EV(&u, STALL_FRONTEND, 0);
	uarch_free(&u);
	tm_config(&c, 1);
	c.timing.redirect_penalty = c.timing.mispredict_penalty;
	CHECK(uarch_init(&u, &c, NULL, 0) == -1, "equal redirect and mispredict penalties accepted");
	c.timing.redirect_penalty = c.timing.mispredict_penalty = 0;
	CHECK(uarch_init(&u, &c, NULL, 0) == 0, "no penalties refused");
	uarch_free(&u);
}

void test_config_reject(void)
{
	struct uarch_config c;
	struct uarch u;
	char err[160];
	uarch_config_default(&c);
	CHECK(uarch_init(&u, &c, err, sizeof err) == 0, "default config accepted: %s", err);
	uarch_free(&u);
	static const char *const want[] = { "l1i", "l1d", "l2", "bpred", "timing", "dtlb", "page_shift",
					    "itlb" };
	for (int k = 0; k < 8; k++) {
		uarch_config_default(&c);
		switch (k) {
		case 0: c.l1i.sets = 96; break;
		case 1: c.l1d.ways = 3; c.l1d.repl = UARCH_REPL_PLRU; break;
		case 2: c.l2.line = 48; break;
		case 3: c.bpred.pht_entries = 1000; break;
		case 4: c.timing.width = 3; break;
		case 5: c.dtlb.ways = 0; break;
		case 6: c.page_shift = 11; break;
		case 7: c.itlb.entries = c.itlb.ways = 128; c.itlb.repl = UARCH_REPL_PLRU; break;
		}
		err[0] = 0;
		CHECK(uarch_init(&u, &c, err, sizeof err) == -1, "case %d accepted", k);
		CHECK(strstr(err, want[k]) != NULL, "case %d: message \"%s\" lacks %s", k, err, want[k]);
	}
	/* 3 ways are fine with true LRU */
	uarch_config_default(&c);
	c.l1d.ways = 3;
	c.l1d.repl = UARCH_REPL_LRU;
	CHECK(uarch_init(&u, &c, NULL, 0) == 0, "3-way LRU accepted");
	uarch_free(&u);
	/* LRU sets and BTB sets wider than a PLRU tree's 64 ways, as the
	 * profile loader allows them */
	uarch_config_default(&c);
	c.itlb.entries = c.itlb.ways = 256;
	c.itlb.repl = UARCH_REPL_LRU;
	c.bpred.btb_sets = 1;
	c.bpred.btb_ways = 512;
	CHECK(uarch_init(&u, &c, err, sizeof err) == 0, "256-way LRU ITLB, 512-way BTB: %s", err);
	uarch_free(&u);
}

/* A pseudo-random stream through the default model twice (after reset):
 * identical counts; and the totals hang together. */
void test_determinism(void)
{
	enum { N = 20000 };
	struct retire_rec *s = malloc(N * sizeof *s);
	CHECK(s != NULL, "malloc");
	if (!s)
		return;
	uint64_t x = 88172645463325252ULL, pc = 0x10000;
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint8_t cls = (uint8_t)(x % UARCH_CLS_COUNT);
		struct retire_rec r = ut_op(cls, pc, (uint8_t)((x >> 8) % 64), (uint8_t)((x >> 16) % 64),
					    (uint8_t)((x >> 24) % 64));
		r.addr = r.paddr = 0x200000 + ((x >> 32) & 0xfffff);
		r.size = (uint8_t)(1u << ((x >> 56) & 3));
		r.taken = (x >> 60) & 1;
		if (cls == UARCH_CLS_JALR || cls == UARCH_CLS_JAL || (cls == UARCH_CLS_BRANCH && r.taken))
			r.next_pc = 0x10000 + ((x >> 40) & 0x3ffc);
		if (cls == UARCH_CLS_BRANCH && !r.taken)
			r.next_pc = pc + 4;
		s[i] = r;
		pc = r.next_pc;
	}
	struct uarch_config c;
	struct uarch u;
	uarch_config_default(&c);
	ut_init(&u, &c);
	uint64_t first[UARCH_EV_COUNT];
	for (int i = 0; i < N; i++)
		uarch_retire(&u, &s[i]);
	uarch_events(&u, first);
	uarch_reset(&u);
	for (int i = 0; i < N; i++)
		uarch_retire(&u, &s[i]);
	for (int e = 0; e < UARCH_EV_COUNT; e++)
		CHECK(uarch_event(&u, (enum uarch_event)e) == first[e], "%s differs after reset: %llu vs %llu",
		      uarch_event_name(e), (unsigned long long)uarch_event(&u, (enum uarch_event)e),
		      (unsigned long long)first[e]);
	CHECK(u.tm.now >= N / 2 + u.ev[UARCH_EV_STALL_FRONTEND] + u.ev[UARCH_EV_STALL_BACKEND],
	      "cycles cover issue and stalls");
	CHECK(u.tm.now <= N + u.ev[UARCH_EV_STALL_FRONTEND] + u.ev[UARCH_EV_STALL_BACKEND],
	      "cycles at most one group per instruction plus stalls");
	CHECK(u.ev[UARCH_EV_L1D_READ_MISS] <= u.ev[UARCH_EV_L1D_READ_ACCESS], "misses <= accesses");
	CHECK(u.ev[UARCH_EV_L2_ACCESS] == u.ev[UARCH_EV_L1I_MISS] + u.ev[UARCH_EV_L1D_READ_MISS] +
	      u.ev[UARCH_EV_L1D_WRITE_MISS] + u.ev[UARCH_EV_L1D_WRITEBACK], "L2 accesses = L1 misses + writebacks");
	uarch_free(&u);
	free(s);
}
