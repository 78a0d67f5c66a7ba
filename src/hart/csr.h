/* CSR access from the step loop (Zicsr). */
#ifndef RVPMU_CSR_H
#define RVPMU_CSR_H
#include <stdint.h>
#include "rvpmu/hart.h"

enum csr_op { CSR_WRITE, CSR_SET, CSR_CLEAR };

/* Read CSR csr into *old, then (when writes) apply op with val, at the
 * hart's current privilege. h->instret holds the instructions retired
 * before this one. Returns 0, or -1 when the access raises illegal
 * instruction. */
int csr_access(struct hart *h, unsigned csr, enum csr_op op, uint64_t val,
	       int writes, uint64_t *old);

/* Store mstatus with its read-only fields (SD, UXL, SXL) derived. */
void hart_update_mstatus(struct hart *h, uint64_t v);

#endif
