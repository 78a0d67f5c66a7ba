/* Sv39/Sv48 address translation (Privileged ISA, "Supervisor-Level ISA":
 * virtual-memory system). */
#ifndef RVPMU_MMU_H
#define RVPMU_MMU_H
#include "rvpmu/hart.h"

enum mmu_access { MMU_LOAD, MMU_STORE, MMU_FETCH };

/* Translate *addr (virtual) in place to a physical address for an access
 * at privilege priv. Returns 0, or the exception cause (page fault, or
 * access fault for a page-table entry outside memory); tval is the
 * virtual address. Sets PTE A and D bits as hardware does. */
int mmu_translate(struct hart *h, uint64_t *addr, enum mmu_access acc, unsigned priv);

/* Drop cached translations (SFENCE.VMA, satp writes). */
void mmu_flush(struct hart *h);

/* The effective privilege of loads and stores (mstatus.MPRV). */
unsigned mmu_data_priv(const struct hart *h);
/* Is translation on for fetches / for loads and stores? */
int mmu_fetch_on(const struct hart *h);
int mmu_data_on(const struct hart *h);

#endif
