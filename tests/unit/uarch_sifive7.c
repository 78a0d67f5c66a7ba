/* The SiFive 7-series rules of the timing model (src/uarch/timing.c):
 * late ALUs, pipes A and B, latency variants; and the memory system's
 * timing (src/uarch/timing_mem.c): MSHRs, the channel, the prefetcher's
 * lines arriving or dropped. Tiny streams whose cycles were worked out by
 * hand from those rules, each against the same stream without the rule
 * (so that the rule is what makes the difference). */
#include "uarch_test.h"

static void run(struct uarch *u, const struct retire_rec *s, int n, const uint64_t *now_after,
		const char *what)
{
	for (int i = 0; i < n; i++) {
		uarch_retire(u, &s[i]);
		CHECK(u->tm.now == now_after[i], "%s: after instruction %d: cycles %llu, want %llu", what,
		      i + 1, (unsigned long long)u->tm.now, (unsigned long long)now_after[i]);
	}
}

static void bare(struct uarch_config *c, uint32_t width, uint32_t load_use)
{
	ut_config_bare(c);
	c->timing.width = width;
	c->timing.load_use = load_use;
}

/* 2-wide, pipes, load_use 3, no caches.
 *  #  insn                 e         issue  result
 *  1  ld x6 <- (x5)        1         1      x6 at 4 for address generation, late
 *  2  add x7 <- x6         pair 1    2      late ALU: x6 there at 4 - 2; x7 late, at 5
 *  3  add x8 <- x7         pair 2    3      x7 at 5 - 2; x8 late, at 6
 *  4  ld x9 <- (x8)        pair 3    6      an address: waits for x8 (6)
 *  5  add x10 <- x5        pair 6    6      early, x10 at 7
 *  6  sd x9 -> (x10)       7         7      data x9 late (9 - 2), address x10 at 7
 * => 7 cycles, 1 + 1 + 3 backend cycles, all load-use (address generation
 * waits for a late value). Without late ALUs: #2 at 4, #3 at 5, #4 at 6,
 * #5 at 6, #6 waits for its data x9 (9): 9 cycles, backend 3 + 1 + 1 + 2. */
void test_late_alu(void)
{
	struct uarch_config c;
	struct uarch u;
	const struct retire_rec s[6] = {
		ut_mem(UARCH_CLS_LOAD, 0x1000, 0x8000, 6, 5, 0),
		ut_alu(0x1004, 7, 6, 0),
		ut_alu(0x1008, 8, 7, 0),
		ut_mem(UARCH_CLS_LOAD, 0x100c, 0x8008, 9, 8, 0),
		ut_alu(0x1010, 10, 5, 0),
		ut_mem(UARCH_CLS_STORE, 0x1014, 0x8010, 0, 10, 9),
	};
	bare(&c, 2, 3);
	c.timing.pairing = UARCH_PAIR_PIPES;
	c.timing.late_alu = 2;
	ut_init(&u, &c);
	static const uint64_t late[6] = { 1, 2, 3, 6, 6, 7 };
	run(&u, s, 6, late, "late ALUs");
	CHECK_EV(&u, STALL_BACKEND, 5);
	CHECK_EV(&u, STALL_LOAD_USE, 5);
	uarch_free(&u);

	c.timing.late_alu = 0;
	ut_init(&u, &c);
	static const uint64_t early[6] = { 1, 4, 5, 6, 6, 9 };
	run(&u, s, 6, early, "no late ALUs");
	CHECK_EV(&u, STALL_BACKEND, 7);
	uarch_free(&u);
}

/* 2-wide, independent: mul, fadd.d, ld, add, mul, add.
 * Pipes: mul (B) 1; fadd (B) cannot join it: 2; ld (A) joins: 2; add 3;
 * mul joins (B free): 3; add 4. Units: mul 1, fadd joins (FPU) 1, ld 2,
 * add joins 2, mul 3, add joins 3. */
void test_pipes(void)
{
	struct uarch_config c;
	struct uarch u;
	const struct retire_rec s[6] = {
		ut_op(UARCH_CLS_MUL, 0x1000, 5, 1, 2),
		ut_op(UARCH_CLS_FP, 0x1004, 33, 34, 35),
		ut_mem(UARCH_CLS_LOAD, 0x1008, 0x8000, 6, 7, 0),
		ut_alu(0x100c, 8, 9, 0),
		ut_op(UARCH_CLS_MUL, 0x1010, 10, 11, 0),
		ut_alu(0x1014, 12, 13, 0),
	};
	bare(&c, 2, 1);
	c.timing.pairing = UARCH_PAIR_PIPES;
	ut_init(&u, &c);
	static const uint64_t pipes[6] = { 1, 2, 2, 3, 3, 4 };
	run(&u, s, 6, pipes, "pipes");
	uarch_free(&u);
	c.timing.pairing = UARCH_PAIR_UNITS;
	ut_init(&u, &c);
	static const uint64_t units[6] = { 1, 1, 2, 2, 3, 3 };
	run(&u, s, 6, units, "units");
	uarch_free(&u);
}

/* 1-wide; fp 7 (double), fp32 5, fp_move 3, fp_div 56, fp32_div 27, div
 * 66, div32 34. A chain of FP results, then two divides:
 *  1 fadd.d f1 <- f2       1    f1 at 8
 *  2 fadd.d f1 <- f1       8    15 (backend 6)
 *  3 fadd.s f1 <- f1       15   20 (6)
 *  4 fsgnj.d f1 <- f1      20   23 (4)
 *  5 fmv.s f1 <- f1        23   26 (2)
 *  6 fdiv.s f2 <- f1       26   53 (2)
 *  7 divw x5 <- x1         27   divider free at 61
 *  8 div x6 <- x1          61   (33, long latency)
 * => 61 cycles = 8 + backend 53, 20 of them FP. */
void test_latency_variants(void)
{
	struct uarch_config c;
	struct uarch u;
	enum { W = UARCH_RF_W32, M = UARCH_RF_FP_MOVE };
	struct retire_rec s[8] = {
		ut_op(UARCH_CLS_FP, 0x1000, 33, 34, 0),
		ut_op(UARCH_CLS_FP, 0x1004, 33, 33, 0),
		ut_op(UARCH_CLS_FP, 0x1008, 33, 33, 0),
		ut_op(UARCH_CLS_FP, 0x100c, 33, 33, 0),
		ut_op(UARCH_CLS_FP, 0x1010, 33, 33, 0),
		ut_op(UARCH_CLS_FP_DIV, 0x1014, 34, 33, 0),
		ut_op(UARCH_CLS_DIV, 0x1018, 5, 1, 0),
		ut_op(UARCH_CLS_DIV, 0x101c, 6, 1, 0),
	};
	s[2].flags = W;
	s[3].flags = M;
	s[4].flags = M | W;
	s[5].flags = W;
	s[6].flags = W;
	bare(&c, 1, 1);
	c.timing.fp_lat = 7;
	c.timing.fp32_lat = 5;
	c.timing.fp_move_lat = 3;
	c.timing.fp_div_lat = 56;
	c.timing.fp32_div_lat = 27;
	c.timing.div_lat = 66;
	c.timing.div32_lat = 34;
	ut_init(&u, &c);
	static const uint64_t now[8] = { 1, 8, 15, 20, 23, 26, 27, 61 };
	run(&u, s, 8, now, "latency variants");
	CHECK_EV(&u, STALL_BACKEND, 53);
	CHECK_EV(&u, STALL_FP, 20);
	CHECK_EV(&u, STALL_LONG_LATENCY, 33);
	uarch_free(&u);
}

/* 1-wide, L1D 4 x 1 x 16 B, L2 16 x 2 x 16 B, l2_lat 7, mem_lat 30 (a line
 * from memory: 37), channel 5 cycles a read, Q = 4 lines.
 *  1 sd 0x8000   L2 miss: MSHR 0 until 1 + 37; channel 1..6        now 1
 *  2 sd 0x8010   MSHR 1; its read waits for the channel (6): 2+37+4  now 2
 *  3 sd 0x8020   both busy: waits for MSHR 0 (38, a 35-cycle stall)    now 38
 *  4 ld 0x8030   MSHR 1 frees at 43: waits, then 37: done 80         now 80
 *  5 add                                                            81
 * Without MSHRs each miss blocks 37: 38, 76, 114, 152, 153. */
void test_mshrs(void)
{
	struct uarch_config c;
	struct uarch u;
	const struct retire_rec s[5] = {
		ut_mem(UARCH_CLS_STORE, 0x1000, 0x8000, 0, 0, 5),
		ut_mem(UARCH_CLS_STORE, 0x1004, 0x8010, 0, 0, 5),
		ut_mem(UARCH_CLS_STORE, 0x1008, 0x8020, 0, 0, 5),
		ut_mem(UARCH_CLS_LOAD, 0x100c, 0x8030, 6, 0, 0),
		ut_alu(0x1010, 7, 0, 0),
	};
	bare(&c, 1, 1);
	c.l1d = (struct uarch_cache_config){ 4, 1, 16, UARCH_REPL_LRU };
	c.l2 = (struct uarch_cache_config){ 16, 2, 16, UARCH_REPL_LRU };
	c.timing.l2_lat = 7;
	c.timing.mem_lat = 30;
	ut_init(&u, &c);
	static const uint64_t blocking[5] = { 38, 76, 114, 152, 153 };
	run(&u, s, 5, blocking, "no MSHRs");
	uarch_free(&u);
	c.timing.l1d_mshrs = 2;
	c.timing.l2_mshrs = 4;
	c.timing.bus_read = 5;
	ut_init(&u, &c);
	static const uint64_t mshrs[5] = { 1, 2, 38, 80, 81 };
	run(&u, s, 5, mshrs, "2 MSHRs");
	CHECK_EV(&u, L1D_WRITE_MISS, 3);
	CHECK_EV(&u, STALL_DCACHE_BUSY, 35 + 41);
	uarch_free(&u);
}

/* The channel's write occupancy: 1-wide, an L1D of one 16-byte line, no
 * L2 (a dirty victim is written to memory), mem_lat 30, 2 MSHRs, Q = 4
 * lines; a read holds the channel 5 cycles, a write 40.
 *  1 sd 0x8000   miss: MSHR 0 until 1 + 30; reads 1..6                   now 1
 *  2 sd 0x8010   MSHR 1; reads 6..11 (done 36); writes 0x8000 11..51     now 2
 *  3 ld 0x8020   waits for MSHR 0 (31); its read waits for the write:
 *                51..56, done 81; writes 0x8010 56..96                 now 81
 *  4 ld 0x8030   MSHR 1 (36); reads 96..101 after the write: done 126   now 126
 *  5 add                                                               127
 * Writes free (write_bandwidth unset: 0): the same reads, none waits:
 * 1, 2, 31 + 30 = 61, 62 + 30 = 92, 93. */
void test_write_bandwidth(void)
{
	struct uarch_config c;
	struct uarch u;
	const struct retire_rec s[5] = {
		ut_mem(UARCH_CLS_STORE, 0x1000, 0x8000, 0, 0, 5),
		ut_mem(UARCH_CLS_STORE, 0x1004, 0x8010, 0, 0, 5),
		ut_mem(UARCH_CLS_LOAD, 0x1008, 0x8020, 6, 0, 0),
		ut_mem(UARCH_CLS_LOAD, 0x100c, 0x8030, 7, 0, 0),
		ut_alu(0x1010, 8, 0, 0),
	};
	bare(&c, 1, 1);
	c.l1d = (struct uarch_cache_config){ 1, 1, 16, UARCH_REPL_LRU };
	c.timing.mem_lat = 30;
	c.timing.l1d_mshrs = 2;
	c.timing.l2_mshrs = 4;
	c.timing.bus_read = 5;
	c.timing.bus_write = 40;
	ut_init(&u, &c);
	static const uint64_t slow[5] = { 1, 2, 81, 126, 127 };
	run(&u, s, 5, slow, "writes 40 cycles");
	CHECK_EV(&u, L1D_WRITEBACK, 2);
	uarch_free(&u);
	c.timing.bus_write = 0;
	ut_init(&u, &c);
	static const uint64_t free_wr[5] = { 1, 2, 61, 92, 93 };
	run(&u, s, 5, free_wr, "writes free");
	uarch_free(&u);
}

/* The prefetcher (1 stream, distance 2, window 4) on loads of lines L0..L5
 * in a row, the same caches and memory as test_mshrs, no MSHRs:
 *  1 L0  miss, 37 (channel 1..6)                           now 38
 *  2 L1  miss, 37; the stream's stride is 1                76
 *  3 L2  miss, 37 (channel 77..82); trained: sends L3 (82..87, arrives
 *        119) and L4 (87..92, 124)                         114
 *  4 L3  L2 hit (7) on a line sent: waits for 119 (is by 122); sends L5
 *        (115..120, 152)                                   122
 *  5 L4  hit, arrived at 124 (by 130); sends L6             130
 *  6 L5  hit, waits for 152                                152
 * With l2_mshrs 1 (the demand's read fills it) #3's prefetches are dropped:
 * #4 reads L3 itself (115..120, by 152) and sends L5 (120..125, 157);
 * #5's L6 is dropped (L5 in flight), L4 read at 153 (190); #6's L5 has
 * arrived: 198. */
void test_prefetch(void)
{
	struct uarch_config c;
	struct uarch u;
	struct retire_rec s[6];
	for (int i = 0; i < 6; i++)
		s[i] = ut_mem(UARCH_CLS_LOAD, 0x1000 + 4 * (uint64_t)i, 0x10000 + 16 * (uint64_t)i, 6, 0, 0);
	bare(&c, 1, 1);
	c.l1d = (struct uarch_cache_config){ 4, 1, 16, UARCH_REPL_LRU };
	c.l2 = (struct uarch_cache_config){ 16, 2, 16, UARCH_REPL_LRU };
	c.timing.l2_lat = 7;
	c.timing.mem_lat = 30;
	c.timing.l2_mshrs = 4;
	c.timing.bus_read = 5;
	c.prefetch = (struct uarch_prefetch_config){ .streams = 1, .distance = 2, .window = 4 };
	ut_init(&u, &c);
	static const uint64_t sent[6] = { 38, 76, 114, 122, 130, 152 };
	run(&u, s, 6, sent, "prefetched");
	CHECK_EV(&u, L2_PREFETCH, 5);
	CHECK_EV(&u, L2_PREFETCH_MISS, 5);
	CHECK_EV(&u, L2_MISS, 3);
	uarch_free(&u);
	c.timing.l2_mshrs = 1;
	ut_init(&u, &c);
	static const uint64_t dropped[6] = { 38, 76, 114, 152, 190, 198 };
	run(&u, s, 6, dropped, "prefetches dropped");
	uarch_free(&u);
	c.prefetch.streams = 0;
	ut_init(&u, &c);
	static const uint64_t none[6] = { 38, 76, 114, 152, 190, 228 };
	run(&u, s, 6, none, "no prefetcher");
	CHECK_EV(&u, L2_PREFETCH, 0);
	uarch_free(&u);
}
