/* Sv39/Sv48 address translation (Privileged ISA, "Supervisor-Level ISA":
 * virtual-memory system), and with V=1 the hypervisor extension's
 * two-stage translation (VS-stage under vsatp, G-stage Sv39x4/Sv48x4
 * under hgatp). */
#ifndef RVPMU_MMU_H
#define RVPMU_MMU_H
#include "rvpmu/hart.h"

/* MMU_HLVX: a load that needs execute permission instead of read (HLVX),
 * faulting as a load */
enum mmu_access { MMU_LOAD, MMU_STORE, MMU_FETCH, MMU_HLVX };

/* Translate *addr (virtual) in place to a physical address for an access
 * in mode (priv | V << 2, as hart_mode). Returns 0, or the exception
 * cause (page fault, guest-page fault, or access fault for a page-table
 * entry outside memory); tval is the virtual address. A guest-page fault
 * sets h->tval2 (GPA >> 2) and h->tinst; any fault with V=1 sets
 * h->tval_gva. Sets PTE A and D bits as hardware does. */
int mmu_translate(struct hart *h, uint64_t *addr, enum mmu_access acc, unsigned mode);

/* The key of TLB entries for accesses in mode: the mode and the status
 * bits permissions depend on (translated code compares it). */
uint64_t mmu_tlb_key(const struct hart *h, unsigned mode);

/* Drop cached translations (SFENCE.VMA, satp writes). */
void mmu_flush(struct hart *h);

/* The effective privilege of loads and stores (mstatus.MPRV). */
unsigned mmu_data_priv(const struct hart *h);
/* The same with the V bit: MPRV with mstatus.MPV=1 translates as V=1. */
unsigned mmu_data_mode(const struct hart *h);
/* Is translation on for fetches / for loads and stores? */
int mmu_fetch_on(const struct hart *h);
int mmu_data_on(const struct hart *h);

#endif
