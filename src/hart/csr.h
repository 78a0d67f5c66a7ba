/* CSR access from the step loop (Zicsr). */
#ifndef RVPMU_CSR_H
#define RVPMU_CSR_H
#include <stdint.h>
#include "rvpmu/hart.h"

enum csr_op { CSR_WRITE, CSR_SET, CSR_CLEAR };

/* Results beside 0 (done) and -1 (illegal instruction) of csr_access,
 * hart_system_insn and hyp_insn: a virtual-instruction exception (cause
 * 22), or a trap whose h->cause and h->tval are set. */
enum { HART_VIRTUAL_INSN = -2, HART_TRAPPED = -3 };

/* The VS-level interrupts (VSSIP, VSTIP, VSEIP): bits 2, 6, 10 of mip/mie. */
#define HYP_VS_IRQS ((1ull << IRQ_VSSI) | (1ull << IRQ_VSTI) | (1ull << IRQ_VSEI))

/* A CSR's hooks (the table in csr.c): 0, or -1 for illegal instruction. */
typedef int csr_read_fn(struct hart *h, unsigned csr, uint64_t *v);
typedef int csr_write_fn(struct hart *h, unsigned csr, uint64_t v);
typedef int csr_pred_fn(const struct hart *h, unsigned csr);

/* Read CSR csr into *old, then (when writes) apply op with val, at the
 * hart's current privilege. h->instret holds the instructions retired
 * before this one. Returns 0, or -1 when the access raises illegal
 * instruction. */
int csr_access(struct hart *h, unsigned csr, enum csr_op op, uint64_t val,
	       int writes, uint64_t *old);

/* The hypervisor extension's CSRs (hyp_csr.c). */
csr_pred_fn pred_h;
csr_read_fn rd_hstatus, rd_vsstatus, rd_hvip, rd_hie, rd_vsie, rd_vsip;
csr_write_fn wr_hstatus, wr_vsstatus, wr_hvip, wr_hie, wr_vsie, wr_vsip;
/* The CSR a VS-mode access to supervisor CSR csr reaches (the vs* one
 * for those that have one), or -1 when it is a virtual instruction. */
int hyp_vs_csr(const struct hart *h, unsigned csr);

/* Store mstatus with its read-only fields (SD, UXL, SXL) derived. */
void hart_update_mstatus(struct hart *h, uint64_t v);

#endif
