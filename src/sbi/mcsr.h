/* The firmware's CSR accesses: made at M privilege through the hart's
 * CSR table, exactly as M-mode code would make them. */
#ifndef RVPMU_SBI_MCSR_H
#define RVPMU_SBI_MCSR_H
#include "rvpmu/hart.h"

static inline uint64_t rd(struct hart *h, unsigned csr)
{
	uint64_t v = 0;
	hart_csr(h, PRIV_M, csr, HART_CSR_READ, 0, &v);
	return v;
}

static inline void wr(struct hart *h, unsigned csr, int op, uint64_t v)
{
	hart_csr(h, PRIV_M, csr, op, v, NULL);
}

#endif
