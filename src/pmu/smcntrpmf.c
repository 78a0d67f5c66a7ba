/* Smcntrpmf: mode filtering of mcycle and minstret (mcyclecfg, minstretcfg). */
#include "internal.h"

static uint64_t *cfg_reg(struct pmu *p, unsigned i)
{
	return i == 0 ? &p->cyclecfg : &p->instretcfg;
}

/* Smcntrpmf: bit 63 is RO 0 (no OF: mcycle/minstret never raise LCOFI),
 * 57:0 are WPRI (read 0 here), xINH of absent modes RO 0. */
void pmu_cfg_write(struct pmu *p, unsigned i, uint64_t v)
{
	*cfg_reg(p, i) = v & pmu_inh_mask(p);
}

/* Smcntrpmf: counter 0/2 does not count in mode x while xINH = 1;
 * mcountinhibit still applies on top (pmu_update). */
bool pmu_cfg_inhibited(const struct pmu *p, unsigned i, unsigned priv)
{
	uint64_t c = i == 0 ? p->cyclecfg : p->instretcfg;
	return p->cfg.smcntrpmf && (c & pmu_inh_bit(priv));
}
