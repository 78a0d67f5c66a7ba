/* Sscofpmf: mhpmevent OF and xINH bits, count overflow, LCOFI requests,
 * scountovf. Also the selector decode shared by every mhpmevent. */
#include "internal.h"

/* Priv "Hardware Performance Monitor": mhpmeventN is a WARL selector (bits
 * 55:0 here); Sscofpmf adds OF and the xINH bits, an xINH bit of a mode
 * that is not implemented being RO 0. Absent counter: RO 0. A write never
 * causes an overflow or an interrupt request (Sscofpmf "Count Overflow
 * Control"), whatever it does to OF. */
void pmu_event_write(struct pmu *p, unsigned i, uint64_t v)
{
	if (!(p->impl & BIT(i)))
		return;
	uint64_t keep = PMU_SELECTOR_MASK;
	if (p->cfg.sscofpmf)
		keep |= PMU_OF | pmu_inh_mask(p);
	p->event[i] = v & keep;
	uint64_t sel = v & PMU_SELECTOR_MASK;
	/* selector 0 is "no event" whatever the profile says */
	p->evset[i] = sel ? p->cfg.decode(p->cfg.decode_ctx, sel) : 0;
}

/* Sscofpmf: xINH set -> no counting in mode x */
bool pmu_hpm_inhibited(const struct pmu *p, unsigned i, unsigned priv)
{
	return p->cfg.sscofpmf && (p->event[i] & pmu_inh_bit(priv));
}

/* Sscofpmf "Count Overflow Control": overflow is the unsigned wrap of the
 * implemented bits by a hardware increment; with OF = 0 it sets OF and
 * requests LCOFI, with OF = 1 nothing more happens. Returns BIT(i) when OF
 * went 0 -> 1. */
uint32_t pmu_hpm_add(struct pmu *p, unsigned i, uint64_t k)
{
	uint64_t v = p->ctr[i], m = p->hpm_mask;
	bool wrapped = k > m - v;
	p->ctr[i] = (v + k) & m;
	if (!wrapped || !p->cfg.sscofpmf || (p->event[i] & PMU_OF))
		return 0;
	p->event[i] |= PMU_OF;
	p->lcofi_req = true;
	return BIT(i);
}

/* Sscofpmf "Supervisor Count Overflow": OF shadows; M sees all, S sees bit
 * X only when mcounteren[X] = 1 (scounteren plays no part), VS only when
 * hcounteren[X] = 1 as well. */
int pmu_scountovf_read(const struct pmu *p, unsigned priv, uint64_t *v)
{
	if (!p->cfg.sscofpmf)
		return PMU_ILLEGAL;
	uint32_t of = 0;
	for (unsigned i = 3; i < 32; i++)
		if (p->event[i] & PMU_OF)
			of |= BIT(i);
	*v = priv == PMU_PRIV_M ? of : of & p->mcounteren;
	if (priv == PMU_PRIV_VS)  /* Sscofpmf: in VS-mode hcounteren masks too */
		*v &= p->hcounteren;
	return PMU_OK;
}
