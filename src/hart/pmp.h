/* Physical memory protection (Privileged ISA, "Physical Memory
 * Protection"): the checks, and the per-page summary the step loop's fast
 * path reads. */
#ifndef RVPMU_PMP_H
#define RVPMU_PMP_H
#include "mmu.h"

/* Page-flag bits (beside gmem's GP_*): the whole 4 KiB page is readable /
 * writable / executable by S and U under the current PMP entries. Clear
 * when not, or when only part of the page is: the slow path then asks
 * pmp_check() about the exact bytes. System mode only. */
enum { PMP_PAGE_R = 0x20, PMP_PAGE_W = 0x40, PMP_PAGE_X = 0x80 };

/* May an access of size bytes at physical address pa, at privilege priv,
 * go ahead? 0 yes, -1 no (an access fault). */
int pmp_check(const struct hart *h, uint64_t pa, unsigned size, enum mmu_access acc,
	      unsigned priv);
/* After a pmpcfg/pmpaddr write: recompute the page summary and
 * h->pmp_locked, which is set when M-mode accesses must be checked too: an
 * active entry is locked, or has a bound that is 4 but not 8 aligned (an
 * aligned ld/sd across it matches partially, which fails even in M). */
void pmp_update(struct hart *h);

#endif
