/* Applying a core profile to a hart (see rvpmu/core.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/core.h"
#include "rvpmu/ctr.h"

static uint32_t log2u(uint32_t v)
{
	return v ? 31 - (uint32_t)__builtin_clz(v) : 0;
}

static void cache_cfg(struct uarch_cache_config *c, const struct profile_cache *p)
{
	memset(c, 0, sizeof(*c));
	if (!p->present)
		return;
	c->sets = p->sets;
	c->ways = p->ways;
	c->line = p->line;
	c->repl = p->repl == PROFILE_REPL_PLRU ? UARCH_REPL_PLRU : UARCH_REPL_LRU;
}

static void tlb_cfg(struct uarch_tlb_config *t, const struct profile_tlb *p)
{
	t->entries = p->present ? p->entries : 0;
	t->ways = p->present ? p->ways : 0;
	t->repl = p->repl == PROFILE_REPL_PLRU ? UARCH_REPL_PLRU : UARCH_REPL_LRU;
}

/* cycles a line holds the memory channel at mbps MB/s, rounded up (0: free) */
static uint32_t line_cycles(const struct profile *p, unsigned line, unsigned mbps)
{
	if (!mbps)
		return 0;
	const uint64_t d = (uint64_t)mbps * 1000000;
	return (uint32_t)(((uint64_t)line * p->clock_hz + d - 1) / d);
}

/* The profile's geometry and timing as the models take them. */
static void uarch_cfg(struct uarch_config *u, const struct profile *p)
{
	memset(u, 0, sizeof(*u));
	cache_cfg(&u->l1i, &p->l1i);
	cache_cfg(&u->l1d, &p->l1d);
	cache_cfg(&u->l2, &p->l2);
	tlb_cfg(&u->itlb, &p->itlb);
	tlb_cfg(&u->dtlb, &p->dtlb);
	tlb_cfg(&u->l2tlb, &p->l2tlb);
	u->page_shift = log2u(p->page_size);
	u->bpred.dir = p->bpred.kind == PROFILE_BP_GSHARE ? UARCH_DIR_GSHARE : UARCH_DIR_BIMODAL;
	u->bpred.pht_entries = p->bpred.bht_entries;
	u->bpred.hist_bits = p->bpred.history_bits;
	u->bpred.btb_ways = p->bpred.btb_entries ? p->bpred.btb_ways : 0;
	u->bpred.btb_sets = p->bpred.btb_entries ? p->bpred.btb_entries / p->bpred.btb_ways : 0;
	u->bpred.ras_depth = p->bpred.ras_depth;
	u->bpred.counter_bits = p->bpred.counter_bits;
	u->bpred.indirect_entries = p->bpred.indirect_entries;
	struct uarch_timing_config *t = &u->timing;
	t->width = p->pipe.issue_width > 2 ? 2 : p->pipe.issue_width;
	t->pairing = p->pipe.pipes ? UARCH_PAIR_PIPES : UARCH_PAIR_UNITS;
	t->load_use = p->pipe.load_use_latency;
	t->late_alu = p->pipe.late_alu;
	t->mul_lat = p->pipe.mul_latency;
	t->div_lat = p->pipe.div_latency;
	t->fp_lat = p->pipe.fp_latency;
	t->fp_div_lat = p->pipe.fp_div_latency;
	t->div32_lat = p->pipe.div32_latency;
	t->fp32_lat = p->pipe.fp32_latency;
	t->fp32_div_lat = p->pipe.fp32_div_latency;
	t->fp_move_lat = p->pipe.fp_move_latency;
	t->mispredict_penalty = p->pipe.mispredict_penalty;
	t->redirect_penalty = p->pipe.mispredict_penalty / 2;
	/* the models charge the extra cycles of each level beyond L1 */
	t->l2_lat = p->l2.present ? p->l2.hit_latency - p->l1d.hit_latency : 0;
	t->mem_lat = p->memory_latency - (p->l2.present ? p->l2.hit_latency : p->l1d.hit_latency);
	t->l2tlb_lat = p->l2tlb.present ? p->l2tlb.hit_latency : 0;
	t->walk_lat = p->walk_latency;
	t->l1d_mshrs = p->l1d.mshrs;
	t->l2_mshrs = p->l2.present ? p->l2.mshrs : 0;
	const unsigned line = p->l2.present ? p->l2.line : p->l1d.line;
	t->bus_read = line_cycles(p, line, p->read_bandwidth);
	t->bus_write = line_cycles(p, line, p->write_bandwidth);
	t->prefetcher = p->l2pf.streams ? p->l2pf.distance : 0;
	u->prefetch = (struct uarch_prefetch_config){
		.streams = p->l2pf.streams, .distance = p->l2pf.distance, .window = p->l2pf.window,
		.stores = p->l2pf.stores, .cross_page = p->l2pf.cross_page,
	};
}

/* Model events onto the canonical ids (include/rvpmu/profile.h). */
static void event_map(struct hart *h)
{
	static const struct { uint8_t ue; uint8_t canon; } m[] = {
		{UARCH_EV_L1I_ACCESS, PROF_EV_L1I_ACCESS}, {UARCH_EV_L1I_MISS, PROF_EV_L1I_MISS},
		{UARCH_EV_L1D_READ_ACCESS, PROF_EV_L1D_READ_ACCESS},
		{UARCH_EV_L1D_READ_MISS, PROF_EV_L1D_READ_MISS},
		{UARCH_EV_L1D_WRITE_ACCESS, PROF_EV_L1D_WRITE_ACCESS},
		{UARCH_EV_L1D_WRITE_MISS, PROF_EV_L1D_WRITE_MISS},
		{UARCH_EV_L1D_WRITEBACK, PROF_EV_L1D_WRITEBACK},
		/* L2 totals count as reads; retire.c moves the writes (writebacks) */
		{UARCH_EV_L2_ACCESS, PROF_EV_LL_READ_ACCESS}, {UARCH_EV_L2_MISS, PROF_EV_LL_READ_MISS},
		{UARCH_EV_L2_WRITE_ACCESS, PROF_EV_LL_WRITE_ACCESS},
		{UARCH_EV_L2_WRITE_MISS, PROF_EV_LL_WRITE_MISS},
		{UARCH_EV_COHERENCE_MISS, PROF_EV_COHERENCE_MISS},
		{UARCH_EV_INVALIDATION, PROF_EV_COHERENCE_INVAL},
		{UARCH_EV_UPGRADE, PROF_EV_COHERENCE_UPGRADE},
		{UARCH_EV_SNOOP_HIT, PROF_EV_SNOOP_HIT},
		{UARCH_EV_L2_PREFETCH, PROF_EV_LL_PREFETCH_ACCESS},
		{UARCH_EV_L2_PREFETCH_MISS, PROF_EV_LL_PREFETCH_MISS},
		{UARCH_EV_ITLB_ACCESS, PROF_EV_ITLB_ACCESS}, {UARCH_EV_ITLB_MISS, PROF_EV_ITLB_MISS},
		/* so do the DTLB totals: retire.c moves the stores */
		{UARCH_EV_DTLB_ACCESS, PROF_EV_DTLB_READ_ACCESS}, {UARCH_EV_DTLB_MISS, PROF_EV_DTLB_READ_MISS},
		{UARCH_EV_DTLB_WRITE_ACCESS, PROF_EV_DTLB_WRITE_ACCESS},
		{UARCH_EV_DTLB_WRITE_MISS, PROF_EV_DTLB_WRITE_MISS},
		{UARCH_EV_L2TLB_MISS, PROF_EV_L2TLB_MISS},
		{UARCH_EV_BRANCH_DIR_MISPREDICT, PROF_EV_BRANCH_MISPREDICT},
		{UARCH_EV_BRANCH_TARGET_MISPREDICT, PROF_EV_TARGET_MISPREDICT},
		{UARCH_EV_RAS_MISPREDICT, PROF_EV_TARGET_MISPREDICT},
		{UARCH_EV_CYCLES, PMU_EV_CYCLES},
		{UARCH_EV_STALL_FRONTEND, PROF_EV_STALL_FRONTEND},
		{UARCH_EV_STALL_BACKEND, PROF_EV_STALL_BACKEND},
		{UARCH_EV_STALL_LOAD_USE, PROF_EV_STALL_LOAD_USE},
		{UARCH_EV_STALL_LONG_LATENCY, PROF_EV_STALL_LONG_LATENCY},
		{UARCH_EV_STALL_CSR_READ, PROF_EV_STALL_CSR_READ},
		{UARCH_EV_STALL_INT_MUL, PROF_EV_STALL_INT_MUL},
		{UARCH_EV_STALL_FP, PROF_EV_STALL_FP},
		{UARCH_EV_STALL_ICACHE_BUSY, PROF_EV_STALL_ICACHE_BUSY},
		{UARCH_EV_STALL_DCACHE_BUSY, PROF_EV_STALL_DCACHE_BUSY},
		{UARCH_EV_FLUSH_CSR_WRITE, PROF_EV_FLUSH_CSR_WRITE},
		{UARCH_EV_FLUSH_OTHER, PROF_EV_FLUSH_OTHER},
		{UARCH_EV_STALL_MISPREDICT, PROF_EV_STALL_MISPREDICT},
		{UARCH_EV_STALL_REDIRECT, PROF_EV_STALL_REDIRECT},
		{UARCH_EV_STALL_FLUSH, PROF_EV_STALL_FLUSH},
	};
	memset(h->uarch_map, 0, sizeof(h->uarch_map));
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		h->uarch_map[m[i].ue] = m[i].canon;
	memset(h->uev_synced, 0, sizeof(h->uev_synced));  /* a new model counts from 0 */
	h->obs.valid = 0;   /* retire_observed() answers for this map */
}

int core_setup(struct hart *h, const struct profile *p, bool models, char *err, size_t errlen)
{
	struct pmu_config cfg;
	struct uarch_config uc;
	profile_pmu_config(p, &cfg);
	uarch_cfg(&uc, p);
	if (models) {
		/* the overflow horizon: the most an instruction can raise */
		uint64_t most = uarch_timing_max_per_insn(&uc.timing, h->system);
		for (int e = 0; e < PMU_EV_MAX; e++)
			if (e == PMU_EV_CYCLES || e >= PMU_EV_COUNT)
				cfg.max_per_step[e] = most < UINT32_MAX ? (uint32_t)most : UINT32_MAX;
	}
	/* keep what the mode set up: counter enables (user mode) */
	uint32_t mcen = h->pmu.mcounteren, scen = h->pmu.scounteren;
	hart_pmu_init(h, &cfg);
	if (!h->system) {
		uint64_t old;
		pmu_csr_access(&h->pmu, PRIV_M, PMU_CSR_MCOUNTEREN, PMU_CSR_WRITE, mcen, 1, &old, NULL);
		pmu_csr_access(&h->pmu, PRIV_M, PMU_CSR_SCOUNTEREN, PMU_CSR_WRITE, scen, 1, &old, NULL);
	}
	h->skid = p->pmu.skid;
	h->sstc = h->system && p->pmu.sstc;
	hart_set_h(h, h->system && p->pmu.h);
	h->aia = h->system && p->pmu.aia;
	/* user mode: the kernel (rvpmu) would emulate them anyway */
	h->misaligned_trap = h->system && p->misaligned_trap;
	h->insn_hz = p->clock_hz;   /* time runs at the core clock, one cycle per instruction */
	h->csr.mvendorid = p->mvendorid;
	h->csr.marchid = p->marchid;
	h->csr.mimpid = p->mimpid;
	core_free(h);
	if (p->pmu.smctr) {
		struct ctr_config cc;
		ctr_config_default(&cc);
		cc.smstateen = false;  /* no Smstateen CSRs here: CTR is not gated */
		cc.has_h = h->has_h;   /* vsctrctl, VS/VU recording */
		h->ctr = calloc(1, sizeof(*h->ctr));
		if (!h->ctr || ctr_init(h->ctr, &cc)) {
			free(h->ctr);
			h->ctr = NULL;
			snprintf(err, errlen, "cannot set up control transfer records");
			return -1;
		}
	}
	if (!models)
		return 0;
	struct uarch *u = calloc(1, sizeof(*u));
	if (!u || uarch_init(u, &uc, err, errlen)) {
		free(u);
		if (!u)
			snprintf(err, errlen, "out of memory");
		core_free(h);   /* the control transfer records */
		return -1;
	}
	h->uarch = u;
	u->walk = hart_page_walk;   /* system mode's walks read real page tables */
	u->walk_ctx = h;
	event_map(h);
	return 0;
}

int core_share(struct hart *const *h, unsigned n, struct uarch_domain *d, const struct profile *p,
	       char *err, size_t errlen)
{
	struct uarch *u[UARCH_DOMAIN_MAX];
	if (n > UARCH_DOMAIN_MAX) {
		snprintf(err, errlen, "at most %d harts share models", UARCH_DOMAIN_MAX);
		return -1;
	}
	memset(d, 0, sizeof(*d));
	for (unsigned i = 0; i < n; i++)
		if (!(u[i] = h[i]->uarch))
			return 0;   /* no models */
	if (uarch_domain_init(d, u, n, p->l2.shared)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void core_free(struct hart *h)
{
	free(h->ctr);
	h->ctr = NULL;
	if (h->uarch) {
		uarch_free(h->uarch);
		free(h->uarch);
		h->uarch = NULL;
	}
}
