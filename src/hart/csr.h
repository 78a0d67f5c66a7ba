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
csr_read_fn rd_hstatus, rd_vsstatus, rd_hie;
csr_write_fn wr_hstatus, wr_vsstatus, wr_hie;

/* AIA (aia.c): the interrupt CSRs whose bits mvien, hvien and hideleg
 * route (sip/sie, vsip/vsie, hvip, mvip), the *topi CSRs, hvictl. */
csr_pred_fn pred_aia, pred_aia_h;
csr_read_fn rd_topi, rd_mvien, rd_sip, rd_vsip, rd_hvip, rd_hvien, rd_hideleg;
csr_write_fn wr_mvien, wr_sip, wr_vsip, wr_hvip, wr_hvien, wr_hideleg;
/* mip as read (software bits and device lines), mvip, hideleg as it
 * acts, sip/sie and vsip/vsie (VS numbering) as the AIA defines them */
uint64_t aia_mip(const struct hart *h);
uint64_t aia_mvip(const struct hart *h);
uint64_t aia_hideleg(const struct hart *h);
uint64_t aia_sip(const struct hart *h);
uint64_t aia_sie(const struct hart *h);
uint64_t aia_vsip(const struct hart *h);
uint64_t aia_vsie(const struct hart *h);
/* mtopi, stopi, vstopi: IID << 16 | IPRIO, or 0 */
uint64_t aia_mtopi(const struct hart *h);
uint64_t aia_stopi(const struct hart *h);
uint64_t aia_vstopi(const struct hart *h);
/* The interrupt to take now (the cause; VS-mode's number for a trap to
 * VS) and *target (PRIV_M, PRIV_S, PRIV_VS), or -1. */
int aia_pending(const struct hart *h, int *target);
/* Some level has an interrupt pending and enabled (global enables aside:
 * what ends a WFI). */
int aia_any_pending(const struct hart *h);
/* miselect/siselect's iprio numbers (0x30-0x3F): 0 (*old read), -1
 * (illegal), 1 (not an iprio number, or no AIA). n: mireg<n>/sireg<n>. */
int aia_iprio_access(const struct hart *h, uint64_t sel, unsigned n, uint64_t *old);
/* The CSR a VS-mode access to supervisor CSR csr reaches (the vs* one
 * for those that have one), or -1 when it is a virtual instruction. */
int hyp_vs_csr(const struct hart *h, unsigned csr);

/* Store mstatus with its read-only fields (SD, UXL, SXL) derived. */
void hart_update_mstatus(struct hart *h, uint64_t v);

#endif
