/* Privileged-architecture helpers used by the step loop. */
#ifndef RVPMU_TRAP_H
#define RVPMU_TRAP_H
#include "rvpmu/hart.h"

int hart_system_insn(struct hart *h, unsigned id, unsigned len);
/* mstatus.FS is not Dirty: -1 when Off (illegal), else mark it Dirty. */
int hart_fp_dirty(struct hart *h);
/* The CSR instruction at h->pc (len bytes) retires on its own, after its
 * access: as the counters stood before it, a counter it wrote taking the
 * place of its increment. */
void hart_retire_csr_insn(struct hart *h, unsigned len);

#endif
