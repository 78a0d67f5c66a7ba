/* Canonical event names and the two mhpmevent selector encodings of core
 * profiles: SBI event_idx (virt) and SiFive class + event mask (u74). */
#include <string.h>
#include <strings.h>
#include "rvpmu/profile.h"

static const char *const unames[] = {
#define PROF_X_(id, name, desc) [PROF_EV_##id - PMU_EV_COUNT] = name,
	PROFILE_UEVENTS(PROF_X_)
#undef PROF_X_
};
static const char *const udescs[] = {
#define PROF_X_(id, name, desc) [PROF_EV_##id - PMU_EV_COUNT] = desc,
	PROFILE_UEVENTS(PROF_X_)
#undef PROF_X_
};

const char *profile_event_name(unsigned e)
{
	if (e < PMU_EV_COUNT)
		return pmu_event_name((enum pmu_event)e);
	if (e < PROF_EV_COUNT)
		return unames[e - PMU_EV_COUNT];
	return NULL;
}

const char *profile_event_desc(unsigned e)
{
	if (e >= PMU_EV_COUNT && e < PROF_EV_COUNT)
		return udescs[e - PMU_EV_COUNT];
	return e < PMU_EV_COUNT ? "instruction-class event (see rvpmu/pmu.h)" : NULL;
}

int profile_event_id(const char *name)
{
	for (unsigned e = PMU_EV_NONE + 1; e < PROF_EV_COUNT; e++)
		if (strcmp(profile_event_name(e), name) == 0)
			return (int)e;
	return -1;
}

#define B(e) PROF_EV_BIT(e)

/* SBI v3.0 PMU, "Event: Hardware general events (Type #0)" */
static pmu_evset sbi_general(unsigned code)
{
	switch (code) {
	case 1: return B(PMU_EV_CYCLES);
	case 2: return B(PMU_EV_INSTRET);
	case 3: return B(PROF_EV_LL_READ_ACCESS) | B(PROF_EV_LL_WRITE_ACCESS);
	case 4: return B(PROF_EV_LL_READ_MISS) | B(PROF_EV_LL_WRITE_MISS);
	case 5: return B(PMU_EV_BRANCH) | B(PMU_EV_JAL) | B(PMU_EV_JALR);
	case 6: return B(PROF_EV_BRANCH_MISPREDICT) | B(PROF_EV_TARGET_MISPREDICT);
	case 7: return 0;       /* no bus clock is modelled */
	case 8: return B(PROF_EV_STALL_FRONTEND);
	case 9: return B(PROF_EV_STALL_BACKEND);
	case 10: return B(PMU_EV_CYCLES);   /* the modelled clock never varies */
	}
	return 0;
}

/* SBI v3.0 PMU, "Event: Hardware cache events (Type #1)":
 * code = cache_id[15:3] op_id[2:1] result_id[0] */
static pmu_evset sbi_cache(unsigned code)
{
	enum { RD, WR, PF };
	unsigned cache = code >> 3, op = (code >> 1) & 3, miss = code & 1;
	if (op == PF)   /* the L2's prefetcher; the L1s have none */
		return cache != 2 ? 0 : miss ? B(PROF_EV_LL_PREFETCH_MISS) : B(PROF_EV_LL_PREFETCH_ACCESS);
	switch (cache) {
	case 0: /* L1D */
		if (op == RD)
			return miss ? B(PROF_EV_L1D_READ_MISS) : B(PROF_EV_L1D_READ_ACCESS);
		if (op == WR)
			return miss ? B(PROF_EV_L1D_WRITE_MISS) : B(PROF_EV_L1D_WRITE_ACCESS);
		break;
	case 1: /* L1I: fetches only read */
		if (op == RD)
			return miss ? B(PROF_EV_L1I_MISS) : B(PROF_EV_L1I_ACCESS);
		break;
	case 2: /* LL */
		if (op == RD)
			return miss ? B(PROF_EV_LL_READ_MISS) : B(PROF_EV_LL_READ_ACCESS);
		if (op == WR)
			return miss ? B(PROF_EV_LL_WRITE_MISS) : B(PROF_EV_LL_WRITE_ACCESS);
		break;
	case 3: /* DTLB */
		if (op == RD)
			return miss ? B(PROF_EV_DTLB_READ_MISS) : B(PROF_EV_DTLB_READ_ACCESS);
		if (op == WR)
			return miss ? B(PROF_EV_DTLB_WRITE_MISS) : B(PROF_EV_DTLB_WRITE_ACCESS);
		break;
	case 4: /* ITLB */
		if (op == RD)
			return miss ? B(PROF_EV_ITLB_MISS) : B(PROF_EV_ITLB_ACCESS);
		break;
	case 5: /* BPU: every control transfer consults the predictor */
		if (op == RD)
			return miss ? B(PROF_EV_BRANCH_MISPREDICT) | B(PROF_EV_TARGET_MISPREDICT)
				    : B(PMU_EV_BRANCH) | B(PMU_EV_JAL) | B(PMU_EV_JALR);
		break;
	}
	return 0;               /* NODE and other combinations: not modelled */
}

pmu_evset profile_sbi_event_set(uint32_t event_idx)
{
	unsigned type = (event_idx >> 16) & 0xf, code = event_idx & 0xffff;
	if (event_idx >> 20)
		return 0;
	if (type == 0)
		return sbi_general(code);
	if (type == 1)
		return sbi_cache(code);
	return 0;
}

static pmu_evset decode_sbi(uint64_t sel)
{
	if ((sel & ~UINT64_C(0xff)) == PROFILE_SEL_CANON) {
		unsigned e = sel & 0xff;
		return e > PMU_EV_NONE && e < PROF_EV_COUNT ? B(e) : 0;
	}
	if (sel >> 20)
		return 0;
	return profile_sbi_event_set((uint32_t)sel);
}

/* SiFive U74 manual, "Hardware Performance Monitor": the counter counts
 * when any event selected by the mask (bits 8+) of the class (bits 7:0)
 * occurs. Undefined mask bits select nothing; an unknown class counts
 * nothing. */
static pmu_evset decode_sifive(const struct profile *p, uint64_t sel)
{
	unsigned cls = sel & 0xff;
	uint64_t mask = (sel & PMU_SELECTOR_MASK) >> 8;
	pmu_evset set = 0;
	for (unsigned i = 0; i < p->n_classes; i++) {
		if (p->classes[i].id != cls)
			continue;
		for (unsigned b = 0; mask; b++, mask >>= 1)
			if (mask & 1)
				set |= p->classes[i].bit_events[b];
		break;
	}
	return set;
}

pmu_evset profile_decode_set(const struct profile *p, uint64_t selector)
{
	selector &= PMU_SELECTOR_MASK;
	if (!selector)
		return 0;
	return p->pmu.encoding == PROFILE_ENC_SIFIVE ? decode_sifive(p, selector)
						     : decode_sbi(selector);
}

pmu_evset profile_decode(void *profile, uint64_t selector)
{
	return profile_decode_set(profile, selector);
}

void profile_pmu_config(const struct profile *p, struct pmu_config *cfg)
{
	pmu_config_default(cfg);
	cfg->n_hpm = p->pmu.n_hpm;
	cfg->hpm_width = p->pmu.hpm_width;
	cfg->has_s = p->pmu.has_s;
	cfg->has_u = p->pmu.has_u;
	cfg->sscofpmf = p->pmu.sscofpmf;
	cfg->smcntrpmf = p->pmu.smcntrpmf;
	cfg->smcdeleg = p->pmu.smcdeleg;
	cfg->has_h = p->pmu.h;
	cfg->decode = profile_decode;
	cfg->decode_ctx = (void *)p;
}

const struct profile_sbi_event *profile_sbi_lookup(const struct profile *p, uint32_t event_idx)
{
	for (unsigned i = 0; i < p->n_sbi; i++)
		if (p->sbi[i].event_idx == event_idx)
			return &p->sbi[i];
	return NULL;
}

const struct profile_perf_event *profile_find_event(const struct profile *p, const char *name)
{
	for (unsigned i = 0; i < p->n_events; i++)
		if (strcasecmp(p->events[i].name, name) == 0)
			return &p->events[i];
	return NULL;
}
