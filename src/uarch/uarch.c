/* The models' facade: routes each retired instruction through fetch (ITLB,
 * L1I), data access (DTLB, L1D), the L2 and L2 TLB behind them, the branch
 * predictor and the timing model, and counts the events.
 *
 * Fetch: an instruction fetches its fetch block (an L1I line) when it is
 * not the block fetched last or after a redirect (a taken branch or a jump,
 * even to the next instruction; or next_pc != pc + ilen, as after a trap
 * or xRET), and also the next block when it straddles
 * one. Each block fetched is one ITLB and one L1I access. Data: a load,
 * store or atomic accesses each L1D line it touches (atomics as writes: the
 * read-modify-write needs the line owned), one DTLB access per line. L1
 * misses fill from L2 (a read access); a dirty L1D victim is then written to
 * L2 (a write access, allocating there). L1 TLB misses look up the L2 TLB;
 * its misses are page walks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"
#include "retire_impl.h"

static const char *const ev_names[UARCH_EV_COUNT] = {
#define UARCH_EV_NAME(n, s) [UARCH_EV_##n] = s,
	UARCH_EVENTS(UARCH_EV_NAME)
#undef UARCH_EV_NAME
};

const char *uarch_event_name(enum uarch_event e)
{
	return (unsigned)e < UARCH_EV_COUNT ? ev_names[e] : NULL;
}

void uarch_config_default(struct uarch_config *c)
{
	memset(c, 0, sizeof *c);
	c->l1i = (struct uarch_cache_config){ 128, 4, 64, UARCH_REPL_LRU };
	c->l1d = (struct uarch_cache_config){ 64, 8, 64, UARCH_REPL_PLRU };
	c->l2 = (struct uarch_cache_config){ 1024, 16, 64, UARCH_REPL_PLRU };
	c->itlb = (struct uarch_tlb_config){ 32, 32, UARCH_REPL_LRU };
	c->dtlb = (struct uarch_tlb_config){ 32, 32, UARCH_REPL_LRU };
	c->l2tlb = (struct uarch_tlb_config){ 512, 4, UARCH_REPL_LRU };
	c->page_shift = 12;
	c->bpred = (struct uarch_bpred_config){
		.dir = UARCH_DIR_GSHARE, .pht_entries = 4096, .hist_bits = 12,
		.btb_sets = 64, .btb_ways = 4, .ras_depth = 8,
	};
	c->timing = (struct uarch_timing_config){
		.width = 2, .load_use = 2, .mul_lat = 3, .div_lat = 20,
		.fp_lat = 4, .fp_div_lat = 20, .mispredict_penalty = 4,
		.redirect_penalty = 1, .l2_lat = 12, .mem_lat = 80,
		.l2tlb_lat = 6, .walk_lat = 30,
	};
}

int uarch_init(struct uarch *u, const struct uarch_config *c, char *err, size_t errsz)
{
	const char *bad = NULL;
	struct uarch_timing_config timing = c->timing;
	timing.prefetcher = c->prefetch.streams ? c->prefetch.distance : 0;
	memset(u, 0, sizeof *u);
	if (c->page_shift < 12 || c->page_shift > 30)
		bad = "page_shift";
	else if (uarch_cache_init(&u->l1i, &c->l1i))
		bad = "l1i";
	else if (uarch_cache_init(&u->l1d, &c->l1d))
		bad = "l1d";
	else if (uarch_cache_init(&u->l2_own, &c->l2))
		bad = "l2";
	else if (uarch_tlb_init(&u->itlb, &c->itlb, c->page_shift))
		bad = "itlb";
	else if (uarch_tlb_init(&u->dtlb, &c->dtlb, c->page_shift))
		bad = "dtlb";
	else if (uarch_tlb_init(&u->l2tlb, &c->l2tlb, c->page_shift))
		bad = "l2tlb";
	else if (uarch_bpred_init(&u->bp, &c->bpred))
		bad = "bpred";
	else if (uarch_timing_init(&u->tm, &timing))
		bad = "timing";
	else if (uarch_prefetch_init(&u->pf, &c->prefetch, c->page_shift - u->l2_own.line_shift) ||
		 (c->prefetch.streams && !u->l2_own.present))
		bad = "prefetch";
	if (bad) {
		if (err && errsz)
			snprintf(err, errsz, "uarch: bad %s geometry or parameters (or out of memory)", bad);
		uarch_free(u);
		return -1;
	}
	/* no table only costs speed: those records' runs go to C */
	u->xt = calloc((size_t)1 << UARCH_XT_BITS, sizeof(*u->xt));
	u->fetch_shift = u->l1i.present ? u->l1i.line_shift : 6;
	u->dline_shift = u->l1d.present ? u->l1d.line_shift : 6;
	u->fetch_line = UARCH_NO_LINE;
	/* LRU compares stamps within a structure only, so one clock serves all */
	u->l2 = &u->l2_own;
	u->l1i.clock = u->l1d.clock = u->l2_own.clock = &u->lru_clock;
	u->itlb.c.clock = u->dtlb.c.clock = u->l2tlb.c.clock = u->bp.clock = &u->lru_clock;
	return 0;
}

void uarch_free(struct uarch *u)
{
	uarch_cache_free(&u->l1i);
	uarch_cache_free(&u->l1d);
	uarch_cache_free(&u->l2_own);
	uarch_tlb_free(&u->itlb);
	uarch_tlb_free(&u->dtlb);
	uarch_tlb_free(&u->l2tlb);
	uarch_bpred_free(&u->bp);
	uarch_timing_free(&u->tm);
	free(u->memo);
	u->memo = NULL;
	free(u->xt);
	u->xt = NULL;
}

void uarch_reset(struct uarch *u)
{
	memset(u->ev, 0, sizeof u->ev);
	uarch_cache_invalidate(&u->l1i);
	uarch_cache_invalidate(&u->l1d);
	uarch_cache_invalidate(&u->l2_own);   /* not a shared one: the others' too */
	uarch_sfence_vma(u);
	if (u->bp.pht)
		uarch_bpred_reset(&u->bp);
	uarch_prefetch_reset(&u->pf);
	uarch_timing_reset(&u->tm);
	u->fetch_line = UARCH_NO_LINE;
}

void uarch_sfence_vma(struct uarch *u)
{
	uarch_tlb_flush(&u->itlb);
	uarch_tlb_flush(&u->dtlb);
	uarch_tlb_flush(&u->l2tlb);
	/* the next fetch translates again, in the same fetch block too
	 * (translated code's first fetch relies on it: jm_begin()) */
	uarch_redirect(u);
}

void uarch_fence_i(struct uarch *u)
{
	uarch_cache_invalidate(&u->l1i);
	u->fetch_line = UARCH_NO_LINE;
}

/* A page walk for va. With the real page tables (system mode, va
 * translated) it reads each PTE it visits through the L1D, as the
 * Rocket-family walker does: load_use cycles each, plus the L2 fill of a
 * miss. Those reads fill and evict L1D lines but are not counted as L1D
 * accesses, which perf's L1-dcache events mean for the program's own
 * loads; their L2 fills are L2 traffic like any other. Without page
 * tables (user mode) a walk costs walk_lat. */
static uint32_t page_walk(struct uarch *u, uint64_t va)
{
	uint64_t pte[UARCH_WALK_MAX];
	unsigned n = u->walk ? u->walk(u->walk_ctx, va, pte, UARCH_WALK_MAX) : 0;
	u->ev[UARCH_EV_PAGE_WALK]++;
	if (!n)
		return u->tm.cfg.walk_lat;
	uint32_t c = 0;
	for (unsigned i = 0; i < n; i++) {
		c += u->tm.cfg.load_use;
		if (!u->l1d.present) {
			c += uarch_l2_fill(u, pte[i]);
			continue;
		}
		uint64_t victim = 0;
		unsigned res = uarch_cache_access(&u->l1d, pte[i], 0, &victim);
		if (res & UARCH_MISS)
			c += uarch_l1d_fill(u, pte[i], 0, res);
		if (res & UARCH_WB)
			uarch_writeback(u, victim);
	}
	return c;
}

/* cost of an L1 TLB miss */
COLD uint32_t uarch_tlb_refill(struct uarch *u, uint64_t addr)
{
	if (!u->l2tlb.c.present)
		return page_walk(u, addr);
	u->ev[UARCH_EV_L2TLB_ACCESS]++;
	if (uarch_tlb_access(&u->l2tlb, addr))
		return u->tm.cfg.l2tlb_lat;
	u->ev[UARCH_EV_L2TLB_MISS]++;
	return u->tm.cfg.l2tlb_lat + page_walk(u, addr);
}

void uarch_l2_count(struct uarch *u, unsigned res)
{
	u->ev[UARCH_EV_L2_ACCESS]++;
	u->ev[UARCH_EV_L2_MISS] += res & UARCH_MISS;
	u->ev[UARCH_EV_L2_WRITEBACK] += (res & UARCH_WB) != 0;
}

/* cycles of an L1I or PTE miss */
COLD uint32_t uarch_l2_fill(struct uarch *u, uint64_t addr)
{
	if (!u->l2->present)
		return u->tm.cfg.mem_lat;
	unsigned res = uarch_cache_access(u->l2, addr, 0, NULL);
	uarch_l2_count(u, res);
	return u->tm.cfg.l2_lat + (res & UARCH_MISS ? u->tm.cfg.mem_lat : 0);
}

/* An L1D miss (write: a store's or an AMO's): the L2's lookup and the
 * prefetcher's training. The L2 line is read, not written: the L1D holds
 * it dirty. */
COLD uint32_t uarch_l2_data(struct uarch *u, uint64_t addr, int write)
{
	const struct uarch_timing_config *c = &u->tm.cfg;
	if (!u->l2->present)
		return UARCH_MC_L1MISS | UARCH_MC_READ(1) | c->mem_lat;
	const unsigned res = uarch_cache_access(u->l2, addr, 0, NULL);
	const uint64_t line = addr >> u->l2->line_shift;
	uarch_l2_count(u, res);
	uint32_t mc = UARCH_MC_L1MISS | c->l2_lat;
	if (res & UARCH_MISS)
		mc += c->mem_lat + UARCH_MC_READ(1);
	else if (u->pf.cfg.streams)
		mc |= UARCH_MC_AGE(uarch_prefetch_used(&u->pf, line));
	if (res & UARCH_WB)
		mc += UARCH_MC_WB(1);
	if (u->pf.cfg.streams && (!write || u->pf.cfg.stores))
		mc += uarch_prefetch_train(u, line);
	return mc;
}

/* a dirty L1D victim goes to L2 (or to memory, without one) */
COLD uint32_t uarch_writeback(struct uarch *u, uint64_t victim)
{
	u->ev[UARCH_EV_L1D_WRITEBACK]++;
	if (!u->l2->present)
		return UARCH_MC_WB(1);
	unsigned r = uarch_cache_access(u->l2, victim, 1, NULL);
	uarch_l2_count(u, r);
	u->ev[UARCH_EV_L2_WRITE_ACCESS]++;  /* the writeback is a write */
	u->ev[UARCH_EV_L2_WRITE_MISS] += r & UARCH_MISS;
	return r & UARCH_WB ? UARCH_MC_WB(1) : 0;
}

/* field by field: cycles and flags add, counts saturate, the larger age */
COLD uint32_t uarch_mc_add(uint32_t a, uint32_t b)
{
	static const struct { uint8_t shift, max; } f[] = { {17, 3}, {23, 15}, {27, 15} };
	uint32_t r = ((a & UARCH_MC_CYCLES) + (b & UARCH_MC_CYCLES)) | ((a | b) & UARCH_MC_L1MISS);
	for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		uint32_t n = (a >> f[i].shift & f[i].max) + (b >> f[i].shift & f[i].max);
		r |= (n < f[i].max ? n : f[i].max) << f[i].shift;
	}
	uint32_t aa = a >> 19 & 15, ba = b >> 19 & 15;
	return r | UARCH_MC_AGE(aa > ba ? aa : ba);
}

void uarch_retire(struct uarch *u, const struct retire_rec *r)
{
	uarch_retire_inline(u, r);
}
