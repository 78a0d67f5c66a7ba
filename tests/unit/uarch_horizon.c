/* uarch_timing_max_per_insn(), which the PMU's overflow horizon trusts:
 * no event may grow by more in one retired instruction. Adversarial
 * streams try to reach it: instructions straddling pages (two fetch
 * blocks), accesses straddling pages (two data lines), addresses spread
 * so that caches and TLBs miss, PTE walks of UARCH_WALK_MAX reads at
 * spread addresses, chains of divides, pending mispredicts, serialising
 * instructions. The largest cycle growth seen must also come near the
 * bound, or the stream did not test it. */
#include <string.h>
#include "uarch_test.h"

static uint64_t rng = 0x2545f4914f6cdd1d;
static uint64_t next(void) { return ut_rand(&rng); }

/* an address at the end of a random page of a large space */
static uint64_t page_end(unsigned back)
{
	return ((next() % (1u << 20)) << 12) + 4096 - back;
}

static unsigned walk(void *ctx, uint64_t va, uint64_t *pte, unsigned max)
{
	(void)ctx;
	(void)va;
	for (unsigned i = 0; i < max; i++)
		pte[i] = (next() % (1u << 26)) << 6;
	return max;
}

/* memsys: with the SiFive 7 rules and the memory system's timing (MSHRs,
 * a channel, the prefetcher), which add their waits */
static void run(int pte_walks, uint32_t width, int memsys)
{
	struct uarch_config c;
	uarch_config_default(&c);
	c.timing = (struct uarch_timing_config){
		.width = width, .load_use = 3, .mul_lat = 3, .div_lat = 66,
		.fp_lat = 5, .fp_div_lat = 56, .mispredict_penalty = 3,
		.redirect_penalty = 2, .l2_lat = 20, .mem_lat = 120,
		.l2tlb_lat = 2, .walk_lat = 40,
	};
	if (memsys) {
		c.timing.pairing = UARCH_PAIR_PIPES;
		c.timing.late_alu = 2;
		c.timing.fp_lat = 7;
		c.timing.div32_lat = 34;
		c.timing.l1d_mshrs = 2;
		c.timing.l2_mshrs = 3;
		c.timing.bus_read = 30;
		c.timing.bus_write = 40;
		c.prefetch = (struct uarch_prefetch_config){ .streams = 2, .distance = UARCH_PF_DIST_MAX,
							     .window = 8, .stores = 1, .cross_page = 1 };
	}
	struct uarch u;
	ut_init(&u, &c);
	if (pte_walks)
		u.walk = walk;
	const uint64_t bound = uarch_timing_max_per_insn(&c.timing, pte_walks);
	static const uint8_t cls[] = {
		UARCH_CLS_ALU, UARCH_CLS_LOAD, UARCH_CLS_STORE, UARCH_CLS_ATOMIC,
		UARCH_CLS_BRANCH, UARCH_CLS_JAL, UARCH_CLS_JALR, UARCH_CLS_MUL,
		UARCH_CLS_DIV, UARCH_CLS_FP, UARCH_CLS_FP_DIV, UARCH_CLS_CSR,
		UARCH_CLS_SYSTEM, UARCH_CLS_DIV, UARCH_CLS_LOAD,
	};
	uint64_t prev[UARCH_EV_COUNT], most = 0, stream = 0x40000000, last_pc = 0, last_pa = 0;
	uarch_events(&u, prev);
	for (int k = 0; k < 200000; k++) {
		/* with memsys, mostly stores and loads, to queue traffic */
		uint8_t kind = memsys && next() % 4 ? (next() % 3 ? UARCH_CLS_STORE : UARCH_CLS_LOAD)
						     : cls[next() % sizeof cls];
		/* with memsys, mostly fetching on from the last block: a
		 * fetch miss hides the memory system's waits */
		uint64_t pc = memsys && next() % 4 ? last_pc + 4 : page_end(2);
		struct retire_rec r = ut_op(kind, pc,
					    (uint8_t)(next() % 4), (uint8_t)(next() % 4),
					    (uint8_t)(next() % 4));
		r.fetch_pa = pc == last_pc + 4 ? last_pa + 4 : page_end(2);
		last_pc = pc;
		last_pa = r.fetch_pa;
		if (r.cls == UARCH_CLS_LOAD || r.cls == UARCH_CLS_STORE || r.cls == UARCH_CLS_ATOMIC) {
			/* with the prefetcher, also runs of lines it follows */
			r.addr = memsys && next() % 2 ? (stream += 60) : page_end(3);
			r.paddr = r.addr;
			r.size = 8;
		}
		if (memsys)
			r.flags = (uint8_t)((next() % 4) << UARCH_RF_LAT_SHIFT);
		if (r.cls == UARCH_CLS_BRANCH || r.cls == UARCH_CLS_JAL || r.cls == UARCH_CLS_JALR) {
			r.taken = (uint8_t)(next() & 1);
			r.next_pc = r.taken || r.cls != UARCH_CLS_BRANCH ? page_end(2) : r.next_pc;
			r.rd = (uint8_t)(next() % 2 ? 1 : 0);
			r.rs1 = (uint8_t)(next() % 2 ? 1 : 5);
		}
		if (r.cls == UARCH_CLS_CSR && next() % 2)
			r.flags |= UARCH_RF_CSR_WRITE;
		uarch_retire(&u, &r);
		for (int e = 0; e < UARCH_EV_COUNT; e++) {
			uint64_t d = uarch_event(&u, (enum uarch_event)e) - prev[e];
			if (d > bound) {
				CHECK(0, "instruction %d raised event %d by %llu, over the bound %llu",
				      k, e, (unsigned long long)d, (unsigned long long)bound);
				break;
			}
			if (e == UARCH_EV_CYCLES && d > most)
				most = d;
		}
		uarch_events(&u, prev);
	}
	/* within a factor of two: the stream reaches the bound's terms; with
	 * the memory system's waits, whose worst cases seldom meet, beyond
	 * what blocking misses alone could take */
	struct uarch_timing_config blocking = c.timing;
	blocking.l1d_mshrs = blocking.bus_read = blocking.bus_write = blocking.prefetcher = 0;
	const uint64_t reach = memsys ? 2 * uarch_timing_max_per_insn(&blocking, pte_walks) + 2 : bound;
	CHECK(2 * most >= reach, "pte_walks %d width %u memsys %d: at most %llu cycles per "
	      "instruction seen, the bound is %llu", pte_walks, width, memsys,
	      (unsigned long long)most, (unsigned long long)bound);
	uarch_free(&u);
}

void test_max_per_insn(void)
{
	for (int w = 0; w < 2; w++)
		for (uint32_t width = 1; width <= 2; width++)
			for (int m = 0; m < 2; m++)
				run(w, width, m);
}
