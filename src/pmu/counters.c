/* Zicntr/Zihpm counters, mcountinhibit, mcounteren/scounteren gating, the
 * PMU CSR map, and bulk retirement with the overflow horizon. */
#include <string.h>
#include "internal.h"

void pmu_config_default(struct pmu_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->n_hpm = 16;
	cfg->hpm_width = 64;
	cfg->has_s = cfg->has_u = true;
	cfg->sscofpmf = cfg->smcntrpmf = cfg->smcdeleg = true;
}

int pmu_init(struct pmu *p, const struct pmu_config *cfg)
{
	if (cfg->n_hpm > 29 || cfg->hpm_width < 1 || cfg->hpm_width > 64 ||
	    (cfg->has_s && !cfg->has_u) ||
	    ((cfg->sscofpmf || cfg->smcdeleg) && !cfg->has_s))
		return -1;  /* Sscofpmf and Smcdeleg add S-level CSRs */
	memset(p, 0, sizeof *p);
	p->cfg = *cfg;
	if (!p->cfg.decode)
		p->cfg.decode = pmu_decode_virt;
	p->impl = BIT(0) | BIT(2);
	for (unsigned i = 3; i < 3 + cfg->n_hpm; i++)
		p->impl |= BIT(i);
	p->hpm_mask = cfg->hpm_width == 64 ? ~UINT64_C(0)
					   : (UINT64_C(1) << cfg->hpm_width) - 1;
	p->evset[0] = PMU_EV_BIT(PMU_EV_CYCLES);
	p->evset[2] = PMU_EV_BIT(PMU_EV_INSTRET);
	pmu_update(p);
	return 0;
}

uint64_t pmu_inh_mask(const struct pmu *p)
{
	return PMU_MINH | (p->cfg.has_s ? PMU_SINH : 0) | (p->cfg.has_u ? PMU_UINH : 0) |
	       (p->cfg.has_h ? PMU_VSINH | PMU_VUINH : 0);
}

/* Priv "Machine Counter-Inhibit Register": counter i counts in priv iff
 * mcountinhibit[i] = 0 and the mode filter of its extension allows it. */
void pmu_update(struct pmu *p)
{
	static const unsigned modes[] = { PMU_PRIV_U, PMU_PRIV_S, PMU_PRIV_M, PMU_PRIV_VU, PMU_PRIV_VS };
	memset(p->active, 0, sizeof(p->active));
	for (unsigned m = 0; m < (p->cfg.has_h ? 5u : 3u); m++) {
		unsigned priv = modes[m];
		uint32_t a = 0;
		for (unsigned i = 0; i < 32; i++) {
			if (!(p->impl & BIT(i)) || (p->mcountinhibit & BIT(i)) || !p->evset[i])
				continue;
			if (i >= 3 ? pmu_hpm_inhibited(p, i, priv) : pmu_cfg_inhibited(p, i, priv))
				continue;
			a |= BIT(i);
		}
		p->active[priv] = a;
	}
}

/* Before a write changes what counts: the writing instruction itself
 * counts as things stood before it (Sail evaluates should_inc_minstret
 * ahead of the instruction; mcycle, a cycle per instruction without the
 * models, follows the same rule), so the csrw that clears an inhibit does
 * not count and the one that sets it does. */
void pmu_hold(struct pmu *p)
{
	if (p->held)
		return;
	memcpy(p->held_active, p->active, sizeof(p->active));
	memcpy(p->held_evset, p->evset, sizeof(p->evset));
	p->held = true;
}

bool pmu_held(const struct pmu *p)
{
	return p->held;
}

/* Priv "Hardware Performance Monitor": a write stores the value (WARL
 * width) and replaces the writing instruction's own increment (Zicsr
 * "CSR Instructions" on minstret; Priv on mcycle/mhpmcounter). */
void pmu_counter_write(struct pmu *p, unsigned i, uint64_t v, unsigned *f)
{
	if (!(p->impl & BIT(i)))
		return;  /* unimplemented: read-only 0 */
	p->ctr[i] = i >= 3 ? v & p->hpm_mask : v;
	p->replace |= BIT(i);
	*f |= PMU_F_REPLACE;
}

static bool priv_ok(const struct pmu *p, unsigned priv)
{
	return priv == PMU_PRIV_M || (priv == PMU_PRIV_S && p->cfg.has_s) ||
	       (priv == PMU_PRIV_U && p->cfg.has_u) ||
	       ((priv == PMU_PRIV_VS || priv == PMU_PRIV_VU) && p->cfg.has_h);
}

/* Priv "Counter-Enable Registers": mcounteren gates the next lower mode,
 * scounteren additionally gates U. With V=1 (Hypervisor "Hypervisor
 * Counter-Enable Register"), hcounteren gates VS and VU, and scounteren
 * VU: what mcounteren refuses is illegal, what hcounteren or scounteren
 * then refuses is a virtual instruction. */
static int counter_access(const struct pmu *p, unsigned priv, unsigned i)
{
	if (priv == PMU_PRIV_M)
		return PMU_OK;
	if (!(p->mcounteren & BIT(i)))
		return PMU_ILLEGAL;
	if (priv >= PMU_PRIV_VU) {
		if (!(p->hcounteren & BIT(i)))
			return PMU_VIRTUAL;
		return priv == PMU_PRIV_VS || (p->scounteren & BIT(i)) ? PMU_OK : PMU_VIRTUAL;
	}
	return priv == PMU_PRIV_S || !p->cfg.has_s || (p->scounteren & BIT(i)) ? PMU_OK : PMU_ILLEGAL;
}

static bool is_pmu_csr(const struct pmu *p, unsigned csr)
{
	return csr == PMU_CSR_SCOUNTEREN || csr == PMU_CSR_SCOUNTINHIBIT ||
	       csr == PMU_CSR_MCOUNTEREN || csr == PMU_CSR_SCOUNTOVF ||
	       (csr == PMU_CSR_HCOUNTEREN && p->cfg.has_h) ||
	       (csr >= 0x320 && csr <= 0x33f) || (csr >= 0x721 && csr <= 0x73f) ||
	       (csr >= 0xb00 && csr <= 0xb1f) || (csr >= 0xb80 && csr <= 0xb9f) ||
	       (csr >= 0xc00 && csr <= 0xc1f) || (csr >= 0xc80 && csr <= 0xc9f);
}

static int csr_read(const struct pmu *p, unsigned priv, unsigned csr, uint64_t *v)
{
	if (csr >= PMU_CSR_CYCLE && csr <= PMU_CSR_HPMCOUNTER31) {
		unsigned i = csr - PMU_CSR_CYCLE;
		int r = counter_access(p, priv, i);
		if (r != PMU_OK)
			return r;
		if (i == 1) {  /* time: gated here, valued by the platform */
			if (!p->cfg.time_read)
				return PMU_NOT_PMU;
			*v = p->cfg.time_read(p->cfg.time_ctx);
			return PMU_OK;
		}
		*v = p->ctr[i];
		return PMU_OK;
	}
	if (csr >= PMU_CSR_MCYCLE && csr <= PMU_CSR_MHPMCOUNTER31) {
		if (csr == PMU_CSR_MCYCLE + 1)
			return PMU_ILLEGAL;  /* no mtime CSR: it is memory-mapped */
		*v = p->ctr[csr - PMU_CSR_MCYCLE];
		return PMU_OK;
	}
	if (csr >= PMU_CSR_MHPMEVENT3 && csr <= PMU_CSR_MHPMEVENT31) {
		*v = p->event[csr - 0x320];
		return PMU_OK;
	}
	switch (csr) {
	case PMU_CSR_MCOUNTINHIBIT:
		*v = p->mcountinhibit;
		return PMU_OK;
	case PMU_CSR_MCYCLECFG: case PMU_CSR_MINSTRETCFG:
		if (!p->cfg.smcntrpmf)
			return PMU_ILLEGAL;
		*v = csr == PMU_CSR_MCYCLECFG ? p->cyclecfg : p->instretcfg;
		return PMU_OK;
	case PMU_CSR_MCOUNTEREN:
		if (!p->cfg.has_u)
			return PMU_ILLEGAL;  /* exists iff U-mode does */
		*v = p->mcounteren;
		return PMU_OK;
	case PMU_CSR_SCOUNTEREN:
		if (!p->cfg.has_s)
			return PMU_ILLEGAL;
		*v = p->scounteren;
		return PMU_OK;
	case PMU_CSR_HCOUNTEREN:
		*v = p->hcounteren;
		return PMU_OK;
	case PMU_CSR_SCOUNTINHIBIT:
		return pmu_scountinhibit_read(p, v);
	case PMU_CSR_SCOUNTOVF:
		return pmu_scountovf_read(p, priv, v);
	}
	return PMU_ILLEGAL;  /* RV32-only halves (…h CSRs) do not exist on RV64 */
}

static void csr_write(struct pmu *p, unsigned csr, uint64_t v, unsigned *f)
{
	pmu_hold(p);
	if (csr >= PMU_CSR_MCYCLE && csr <= PMU_CSR_MHPMCOUNTER31)
		pmu_counter_write(p, csr - PMU_CSR_MCYCLE, v, f);
	else if (csr >= PMU_CSR_MHPMEVENT3 && csr <= PMU_CSR_MHPMEVENT31)
		pmu_event_write(p, csr - 0x320, v);
	else if (csr == PMU_CSR_MCOUNTINHIBIT)
		p->mcountinhibit = v & p->impl;  /* bit 1 (time) and absent counters RO 0 */
	else if (csr == PMU_CSR_MCYCLECFG || csr == PMU_CSR_MINSTRETCFG)
		pmu_cfg_write(p, csr == PMU_CSR_MCYCLECFG ? 0 : 2, v);
	else if (csr == PMU_CSR_MCOUNTEREN)
		p->mcounteren = (uint32_t)v;
	else if (csr == PMU_CSR_SCOUNTEREN)
		p->scounteren = (uint32_t)v;
	else if (csr == PMU_CSR_HCOUNTEREN)
		p->hcounteren = (uint32_t)v;  /* all 32 bits writable, as mcounteren */
	else if (csr == PMU_CSR_SCOUNTINHIBIT)
		pmu_scountinhibit_write(p, v);
	pmu_update(p);
	*f |= PMU_F_WROTE;
}

/* Zicsr "CSR Instructions" + Priv "CSR Address Mapping Conventions" */
int pmu_csr_access(struct pmu *p, unsigned priv, unsigned csr,
		   enum pmu_csr_op op, uint64_t val, int writes,
		   uint64_t *old, unsigned *flags)
{
	unsigned f = 0;
	if (flags)
		*flags = 0;
	if (!is_pmu_csr(p, csr))
		return PMU_NOT_PMU;
	/* csr[9:8] is the lowest privilege that may access (2: hypervisor,
	 * HS-mode's); csr[11:10] = 3 is read-only */
	unsigned lvl = (csr >> 8) & 3;
	uint64_t v = 0;
	if (!priv_ok(p, priv) || (writes && (csr >> 10) == 3))
		return PMU_ILLEGAL;
	if (priv != PMU_PRIV_M && (lvl == 3 || (lvl && priv == PMU_PRIV_U)))
		return PMU_ILLEGAL;
	/* V=1: an access HS-mode could make is a virtual instruction
	 * (Hypervisor "Virtual Instruction Exception"); VS reaches
	 * scounteren and scountovf as they are, but Smcdeleg's
	 * scountinhibit, and scountovf with menvcfg.CDE = 1, not */
	if (priv >= PMU_PRIV_VU && lvl &&
	    (lvl == 2 || priv == PMU_PRIV_VU || csr == PMU_CSR_SCOUNTINHIBIT ||
	     (csr == PMU_CSR_SCOUNTOVF && p->cde)))
		return csr_read(p, PMU_PRIV_S, csr, &v) == PMU_OK ? PMU_VIRTUAL : PMU_ILLEGAL;
	int r = csr_read(p, priv, csr, &v);
	if (r != PMU_OK)
		return r;
	*old = v;
	if (writes) {
		csr_write(p, csr, pmu_apply(op, v, val), &f);
		if (flags)
			*flags = f;
	}
	return PMU_OK;
}

uint64_t pmu_menvcfg_mask(const struct pmu *p)
{
	return p->cfg.smcdeleg ? PMU_MENVCFG_CDE : 0;
}

void pmu_set_cde(struct pmu *p, bool cde)
{
	p->cde = cde && p->cfg.smcdeleg;  /* CDE is RO 0 without Smcdeleg */
}

static uint64_t add_counter(struct pmu *p, unsigned i, uint64_t k)
{
	if (i >= 3)
		return pmu_hpm_add(p, i, k);
	p->ctr[i] += k;  /* mcycle/minstret: 64 bits, no OF, no LCOFI */
	return 0;
}

/* The counters the current instruction counts in priv, and their event
 * sets: as they stood before its first write, less those it wrote. */
static uint32_t counting(const struct pmu *p, unsigned priv, const pmu_evset **evset)
{
	*evset = p->held ? p->held_evset : p->evset;
	return (p->held ? p->held_active : p->active)[priv & (PMU_MODES - 1)] & ~p->replace;
}

uint32_t pmu_retire(struct pmu *p, unsigned priv, const uint64_t counts[PMU_EV_MAX])
{
	const pmu_evset *evset;
	uint32_t act = counting(p, priv, &evset), ovf = 0;
	p->replace = 0;
	p->held = false;
	while (act) {
		unsigned i = __builtin_ctz(act);
		act &= act - 1;
		uint64_t k = 0;
		for (pmu_evset s = evset[i]; s; s &= s - 1)
			k += counts[pmu_evset_first(s)];
		if (k)
			ovf |= add_counter(p, i, k);
	}
	return ovf;
}

uint32_t pmu_count(struct pmu *p, unsigned priv, unsigned e, uint64_t n)
{
	/* part of the current instruction: a pending replace, and the state
	 * before its writes, still apply */
	const pmu_evset *evset;
	uint32_t act = counting(p, priv, &evset), ovf = 0;
	if (e >= PMU_EV_MAX || !n)
		return 0;
	while (act) {
		unsigned i = __builtin_ctz(act);
		act &= act - 1;
		if (evset[i] & PMU_EV_BIT(e))
			ovf |= add_counter(p, i, n);
	}
	return ovf;
}

uint32_t pmu_retire_n(struct pmu *p, unsigned priv, uint64_t n)
{
	uint64_t c[PMU_EV_MAX] = { 0 };
	c[PMU_EV_CYCLES] = c[PMU_EV_INSTRET] = n;
	return pmu_retire(p, priv, c);
}

uint64_t pmu_to_wrap(const struct pmu *p, unsigned i)
{
	uint64_t m = i >= 3 ? p->hpm_mask : ~UINT64_C(0);
	uint64_t rem = m - p->ctr[i];  /* 2^W - value - 1 */
	return rem == ~UINT64_C(0) ? rem : rem + 1;  /* 2^64 saturates */
}

/* Overflow is found from the counts, never a timer: a counter that can
 * request LCOFI (Sscofpmf, OF = 0, counting here) wraps no earlier than
 * ceil(to_wrap / most-per-step) steps from now. With cycles not NULL, counters
 * of the cycles event alone are the caller's to stop exactly: their
 * fewest to_wrap goes there instead. */
uint64_t pmu_horizon_cycles(const struct pmu *p, unsigned priv, uint64_t *cycles)
{
	uint64_t best = UINT64_MAX;
	if (cycles)
		*cycles = UINT64_MAX;
	if (!p->cfg.sscofpmf)
		return best;
	for (uint32_t a = p->active[priv & (PMU_MODES - 1)] & ~7u; a; a &= a - 1) {
		unsigned i = __builtin_ctz(a);
		if (p->event[i] & PMU_OF)
			continue;
		uint64_t rem = pmu_to_wrap(p, i);
		if (cycles && p->evset[i] == PMU_EV_BIT(PMU_EV_CYCLES)) {
			if (rem < *cycles)
				*cycles = rem;
			continue;
		}
		uint64_t w = 0;
		for (pmu_evset s = p->evset[i]; s; s &= s - 1) {
			uint32_t m = p->cfg.max_per_step[pmu_evset_first(s)];
			w += m ? m : 1;
		}
		uint64_t d = rem / w + (rem % w != 0);
		if (d < best)
			best = d;
	}
	return best;
}

uint64_t pmu_horizon(const struct pmu *p, unsigned priv)
{
	return pmu_horizon_cycles(p, priv, NULL);
}

pmu_evset pmu_events_in_use(const struct pmu *p, unsigned priv)
{
	pmu_evset u = 0;
	for (uint32_t a = p->active[priv & (PMU_MODES - 1)]; a; a &= a - 1)
		u |= p->evset[__builtin_ctz(a)];
	return u;
}

uint64_t pmu_take_mip(struct pmu *p)
{
	if (!p->lcofi_req)
		return 0;
	p->lcofi_req = false;
	return PMU_MIP_LCOFIP;
}
