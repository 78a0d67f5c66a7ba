/* Smcdeleg/Ssccfg: counters delegated to S-mode through scountinhibit and
 * the siselect 0x40-0x5F window of the Sscsrind sireg* registers. The hart
 * owns siselect; this file is a function of it and the PMU state. */
#include "internal.h"

#define SEL_FIRST 0x40
#define SEL_LAST 0x5f

/* Smcdeleg: counter i is delegated when menvcfg.CDE = 1 and mcounteren[i] = 1 */
static uint32_t delegated(const struct pmu *p)
{
	return p->cde ? p->mcounteren : 0;
}

/* Smcdeleg "Supervisor Counter Inhibit": a masked alias of mcountinhibit;
 * illegal instruction while menvcfg.CDE = 0. */
int pmu_scountinhibit_read(const struct pmu *p, uint64_t *v)
{
	if (!p->cfg.smcdeleg || !p->cde)
		return PMU_ILLEGAL;
	*v = p->mcountinhibit & delegated(p);
	return PMU_OK;
}

void pmu_scountinhibit_write(struct pmu *p, uint64_t v)
{
	uint32_t w = delegated(p) & p->impl;
	p->mcountinhibit = (p->mcountinhibit & ~w) | ((uint32_t)v & w);
}

/* Smcdeleg "Counter Delegation": sireg = the counter, sireg2 = its event
 * selector or cfg register with MINH read-only 0; sireg3/sireg6 never
 * valid; sireg4/sireg5 are the RV32 high halves (absent on RV64). */
int pmu_sireg_access(struct pmu *p, unsigned priv, uint64_t sel, unsigned n,
		     enum pmu_csr_op op, uint64_t val, int writes,
		     uint64_t *old, unsigned *flags)
{
	unsigned f = 0;
	if (flags)
		*flags = 0;
	if (sel < SEL_FIRST || sel > SEL_LAST)
		return PMU_NOT_PMU;
	unsigned i = (unsigned)sel - SEL_FIRST;
	/* without Smcdeleg the select values are unimplemented: illegal, as
	 * Smcsrind recommends */
	if (priv < PMU_PRIV_S || priv == 2 || !p->cfg.smcdeleg || !p->cde ||
	    n < 1 || n > 2 || i == 1 || !(delegated(p) & BIT(i)))
		return PMU_ILLEGAL;
	if (n == 2 && i < 3 && !p->cfg.smcntrpmf)
		return PMU_ILLEGAL;  /* cyclecfg/instretcfg need Smcntrpmf */
	uint64_t cur;
	if (n == 1)
		cur = p->ctr[i];
	else
		cur = i == 0 ? p->cyclecfg : i == 2 ? p->instretcfg : p->event[i];
	*old = n == 1 ? cur : cur & ~PMU_MINH;
	if (!writes)
		return PMU_OK;
	uint64_t nv = pmu_apply(op, *old, val);
	pmu_hold(p);
	if (n == 1) {
		pmu_counter_write(p, i, nv, &f);
	} else {
		nv = (nv & ~PMU_MINH) | (cur & PMU_MINH);  /* M's MINH is kept */
		if (i < 3)
			pmu_cfg_write(p, i, nv);
		else
			pmu_event_write(p, i, nv);
	}
	pmu_update(p);
	if (flags)
		*flags = f | PMU_F_WROTE;
	return PMU_OK;
}
