/* The hypervisor extension's instructions (src/hart/hyp.c). */
#ifndef RVPMU_HYP_H
#define RVPMU_HYP_H
#include "rvpmu/hart.h"

/* HLV, HLVX, HSV, HFENCE.VVMA, HFENCE.GVMA at h->pc (x: the integer
 * registers). Returns 0 (h->pc is the next pc), -1 for illegal
 * instruction, HART_VIRTUAL_INSN, or HART_TRAPPED with h->cause and
 * h->tval (and the guest-fault values) set. */
int hyp_insn(struct hart *h, const struct dinsn *d, uint64_t *x);

#endif
