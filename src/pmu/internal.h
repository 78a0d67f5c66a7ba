/* Shared between the files of src/pmu: one mechanism per file. */
#ifndef RVPMU_PMU_INTERNAL_H
#define RVPMU_PMU_INTERNAL_H
#include "rvpmu/pmu.h"

#define BIT(i) (UINT32_C(1) << (i))

/* Zicsr: the value an op leaves in the CSR */
static inline uint64_t pmu_apply(enum pmu_csr_op op, uint64_t old, uint64_t val)
{
	return op == PMU_CSR_WRITE ? val : op == PMU_CSR_SET ? old | val : old & ~val;
}

/* the xINH bit (Sscofpmf / Smcntrpmf layout) that stops counting in priv */
static inline uint64_t pmu_inh_bit(unsigned priv)
{
	static const uint64_t bit[PMU_MODES] = {
		[PMU_PRIV_U] = PMU_UINH, [PMU_PRIV_S] = PMU_SINH, [PMU_PRIV_M] = PMU_MINH,
		[PMU_PRIV_VU] = PMU_VUINH, [PMU_PRIV_VS] = PMU_VSINH,
	};
	return bit[priv & (PMU_MODES - 1)];
}

/* xINH bits that exist: a bit whose mode is not implemented is RO 0 */
uint64_t pmu_inh_mask(const struct pmu *p);

/* counters.c */
void pmu_hold(struct pmu *p);
void pmu_update(struct pmu *p);
void pmu_counter_write(struct pmu *p, unsigned i, uint64_t v, unsigned *f);

/* sscofpmf.c */
void pmu_event_write(struct pmu *p, unsigned i, uint64_t v);
bool pmu_hpm_inhibited(const struct pmu *p, unsigned i, unsigned priv);
uint32_t pmu_hpm_add(struct pmu *p, unsigned i, uint64_t k);
int pmu_scountovf_read(const struct pmu *p, unsigned priv, uint64_t *v);

/* smcntrpmf.c */
void pmu_cfg_write(struct pmu *p, unsigned i, uint64_t v);
bool pmu_cfg_inhibited(const struct pmu *p, unsigned i, unsigned priv);

/* smcdeleg.c */
int pmu_scountinhibit_read(const struct pmu *p, uint64_t *v);
void pmu_scountinhibit_write(struct pmu *p, uint64_t v);

#endif
