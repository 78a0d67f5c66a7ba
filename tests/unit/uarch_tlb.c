/* TLB model tests: strided walks with hand-counted misses. */
#include "uarch_test.h"

/* 4-entry fully associative LRU DTLB, 4 KiB pages, pages 0..7 walked twice
 * with a 4 KiB stride: 8 cold misses, then cycling 8 pages through 4 LRU
 * entries misses every time: 16 misses. A 2 KiB stride touches each page
 * twice in a row: the second touch hits, 8 misses of 16. */
void test_tlb_strided(void)
{
	struct uarch_tlb t;
	struct uarch_tlb_config cfg = { 4, 4, UARCH_REPL_LRU };
	CHECK(uarch_tlb_init(&t, &cfg, 12) == 0, "init");
	unsigned miss = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t p = 0; p < 8; p++)
			miss += !uarch_tlb_access(&t, 0x40000000 + p * 4096 + 0x18);
	CHECK_EQ(miss, 16, "stride 4K misses");
	uarch_tlb_flush(&t);
	miss = 0;
	for (uint64_t a = 0; a < 16 * 2048; a += 2048)
		miss += !uarch_tlb_access(&t, a);
	CHECK_EQ(miss, 8, "stride 2K misses");
	/* pages 0..3 fit: a second pass over them all hits */
	uarch_tlb_flush(&t);
	miss = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t p = 0; p < 4; p++)
			miss += !uarch_tlb_access(&t, p << 12);
	CHECK_EQ(miss, 4, "4 pages in 4 entries");
	uarch_tlb_free(&t);
}

/* Pages 0, 4, 8 (16 KiB stride) cycled twice. 8 entries as 4 sets x 2 ways
 * (set = vpn mod 4): all three map to set 0, three pages in two LRU ways
 * miss every time: 6. Fully associative 8 entries: 3 cold misses. */
void test_tlb_setassoc(void)
{
	struct uarch_tlb_config cfgs[2] = { { 8, 2, UARCH_REPL_LRU }, { 8, 8, UARCH_REPL_LRU } };
	static const unsigned want[2] = { 6, 3 };
	for (int k = 0; k < 2; k++) {
		struct uarch_tlb t;
		CHECK(uarch_tlb_init(&t, &cfgs[k], 12) == 0, "init");
		unsigned miss = 0;
		for (int pass = 0; pass < 2; pass++)
			for (uint64_t p = 0; p < 12; p += 4)
				miss += !uarch_tlb_access(&t, p << 12);
		CHECK_EQ(miss, want[k], k ? "fully associative misses" : "2-way misses");
		uarch_tlb_free(&t);
	}
	struct uarch_tlb t;
	struct uarch_tlb_config bad = { 6, 4, UARCH_REPL_LRU };
	CHECK(uarch_tlb_init(&t, &bad, 12) != 0, "6 entries of 4 ways rejected");
	bad = (struct uarch_tlb_config){ 12, 4, UARCH_REPL_LRU };
	CHECK(uarch_tlb_init(&t, &bad, 12) != 0, "3 sets rejected");
}

/* Through the facade: ITLB 1 entry, DTLB 4 entries fully associative, L2
 * TLB 16 entries fully associative. The code stays at pc 0x1000 (page 1,
 * one fetch: ITLB miss, L2 TLB miss, walk). Loads walk data pages
 * 0x10..0x17 twice: DTLB 16 accesses all miss (as above); the L2 TLB
 * misses the first pass (8 walks) and hits the second (9 pages fit).
 * => L2 TLB 17 accesses, 9 misses, 9 page walks. */
void test_tlb_facade(void)
{
	struct uarch_config c;
	struct uarch u;
	ut_config_bare(&c);
	c.itlb = (struct uarch_tlb_config){ 1, 1, UARCH_REPL_LRU };
	c.dtlb = (struct uarch_tlb_config){ 4, 4, UARCH_REPL_LRU };
	c.l2tlb = (struct uarch_tlb_config){ 16, 16, UARCH_REPL_LRU };
	ut_init(&u, &c);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t p = 0; p < 8; p++) {
			struct retire_rec r = ut_mem(UARCH_CLS_LOAD, 0x1000, 0x10000 + p * 4096, 5, 0, 0);
			uarch_retire(&u, &r);
		}
	CHECK_EV(&u, ITLB_ACCESS, 1);
	CHECK_EV(&u, ITLB_MISS, 1);
	CHECK_EV(&u, DTLB_ACCESS, 16);
	CHECK_EV(&u, DTLB_MISS, 16);
	CHECK_EV(&u, L2TLB_ACCESS, 17);
	CHECK_EV(&u, L2TLB_MISS, 9);
	CHECK_EV(&u, PAGE_WALK, 9);
	/* sfence.vma empties every TLB: the next load walks again, and so
	 * does the fetch of its instruction, which the fence makes a new
	 * fetch though its block is the one fetched last (1 + 1 walks) */
	uarch_sfence_vma(&u);
	struct retire_rec r = ut_mem(UARCH_CLS_LOAD, 0x1000, 0x10000, 5, 0, 0);
	uarch_retire(&u, &r);
	CHECK_EV(&u, ITLB_ACCESS, 2);
	CHECK_EV(&u, ITLB_MISS, 2);
	CHECK_EV(&u, DTLB_MISS, 17);
	CHECK_EV(&u, PAGE_WALK, 11);
	uarch_free(&u);

	/* no L2 TLB: every L1 TLB miss is a walk */
	c.l2tlb.entries = 0;
	ut_init(&u, &c);
	for (uint64_t p = 0; p < 8; p++) {
		struct retire_rec q = ut_mem(UARCH_CLS_STORE, 0x1000, 0x10000 + p * 4096, 0, 0, 0);
		uarch_retire(&u, &q);
	}
	CHECK_EV(&u, L2TLB_ACCESS, 0);
	CHECK_EV(&u, PAGE_WALK, 9);
	uarch_free(&u);
}

/* 2 MiB pages (page_shift 21): 1024 loads at a 4 KiB stride span 4 MiB
 * starting at 0x200000: two pages, two DTLB misses. */
void test_tlb_hugepage(void)
{
	struct uarch_config c;
	struct uarch u;
	ut_config_bare(&c);
	c.page_shift = 21;
	c.dtlb = (struct uarch_tlb_config){ 4, 4, UARCH_REPL_LRU };
	ut_init(&u, &c);
	for (uint64_t i = 0; i < 1024; i++) {
		struct retire_rec r = ut_mem(UARCH_CLS_LOAD, 0x1000, 0x200000 + i * 4096, 5, 0, 0);
		uarch_retire(&u, &r);
	}
	CHECK_EV(&u, DTLB_ACCESS, 1024);
	CHECK_EV(&u, DTLB_MISS, 2);
	CHECK_EV(&u, PAGE_WALK, 2);
	uarch_free(&u);
}

/* The real page tables' walker (system mode): a hand-made one whose PTEs
 * are root 0x1000, middle 0x2040 and leaf 0x3080 + 8 * (page & 7), so
 * the L1D (64 sets of one 64 B line: 4 KiB direct mapped) holds them in
 * sets 0, 1 and 2; data lives in sets 4 and 5. */
static unsigned walk_calls;
static unsigned test_walker(void *ctx, uint64_t va, uint64_t *pte, unsigned max)
{
	walk_calls++;
	if (ctx == NULL || max < 3)
		return 0;
	pte[0] = 0x1000;
	pte[1] = 0x2040;
	pte[2] = 0x3080 + 8 * ((va >> 12) & 7);
	return 3;
}

static void walk_run(struct uarch *u, void *ctx)
{
	struct uarch_config c;
	ut_config_bare(&c);
	c.dtlb = (struct uarch_tlb_config){ 1, 1, UARCH_REPL_LRU };
	c.l1d = (struct uarch_cache_config){ 64, 1, 64, UARCH_REPL_LRU };
	c.timing.mem_lat = 50;
	c.timing.walk_lat = 30;
	ut_init(u, &c);
	u->walk = test_walker;
	u->walk_ctx = ctx;
	/* virtual pages 0x10 and 0x11 at physical 0x90100 and 0x91140 */
	struct retire_rec r = ut_mem(UARCH_CLS_LOAD, 0x1000, 0x10000, 5, 0, 0);
	r.paddr = 0x90100;
	uarch_retire(u, &r);
	r = ut_mem(UARCH_CLS_LOAD, 0x1004, 0x11000, 6, 0, 0);
	r.paddr = 0x91140;
	uarch_retire(u, &r);
}

/* Load 1 misses the DTLB: its walk reads three PTEs, all L1D misses, at
 * load_use (1) + memory (50) cycles each = 153; then its data misses.
 * Load 2's walk finds all three lines cached: 3 cycles (which also shows
 * the walk's reads filled the L1D). With no page
 * tables (the walker answers 0) each walk costs walk_lat = 30 and reads
 * nothing. Same data accesses either way, so the cycle difference is
 * (153 + 3) - 2 * 30 = 96. */
void test_tlb_walker(void)
{
	struct uarch real, flat;
	walk_calls = 0;
	walk_run(&real, &real);
	CHECK(walk_calls == 2, "walker called %u times, want 2", walk_calls);
	/* the PTE reads are not the program's: only the two loads count */
	CHECK_EV(&real, PAGE_WALK, 2);
	CHECK_EV(&real, L1D_READ_ACCESS, 2);
	CHECK_EV(&real, L1D_READ_MISS, 2);
	walk_run(&flat, NULL);
	CHECK_EV(&flat, PAGE_WALK, 2);
	CHECK_EV(&flat, L1D_READ_ACCESS, 2);
	CHECK_EV(&flat, L1D_READ_MISS, 2);
	uint64_t a = real.tm.now, b = flat.tm.now;
	CHECK(a - b == 96, "walk cycles: %llu with page tables, %llu without, want 96 apart",
	      (unsigned long long)a, (unsigned long long)b);
	uarch_free(&real);
	uarch_free(&flat);
}

/* Untranslated accesses (M-mode, satp Bare) consult no TLB; the caches
 * see physical addresses: one virtual pc at two physical places is two
 * L1I lines. */
void test_tlb_bare(void)
{
	struct uarch_config c;
	struct uarch u;
	ut_config_bare(&c);
	c.itlb = (struct uarch_tlb_config){ 4, 4, UARCH_REPL_LRU };
	c.dtlb = (struct uarch_tlb_config){ 4, 4, UARCH_REPL_LRU };
	c.l1i = (struct uarch_cache_config){ 4, 1, 64, UARCH_REPL_LRU };
	ut_init(&u, &c);
	struct retire_rec r = ut_mem(UARCH_CLS_LOAD, 0x1000, 0x10000, 5, 0, 0);
	r.flags = UARCH_RF_BARE_FETCH | UARCH_RF_BARE_DATA;
	uarch_retire(&u, &r);
	CHECK_EV(&u, ITLB_ACCESS, 0);
	CHECK_EV(&u, DTLB_ACCESS, 0);
	CHECK_EV(&u, PAGE_WALK, 0);
	CHECK_EV(&u, L1I_ACCESS, 1);
	/* translated: the same virtual pc, now at physical 0x5000 */
	r = ut_alu(0x1000, 5, 0, 0);
	r.fetch_pa = 0x5000;
	uarch_redirect(&u);
	uarch_retire(&u, &r);
	CHECK_EV(&u, ITLB_ACCESS, 1);
	CHECK_EV(&u, L1I_ACCESS, 2);
	CHECK_EV(&u, L1I_MISS, 2);
	uarch_free(&u);
}
