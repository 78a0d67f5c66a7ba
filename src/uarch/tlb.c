/* TLB model: ITLB, DTLB and a shared L2 TLB as LRU or PLRU caches of page
 * numbers (no ASIDs or permissions: sfence.vma flushes everything). */
#include <string.h>
#include "rvpmu/uarch.h"

int uarch_tlb_init(struct uarch_tlb *t, const struct uarch_tlb_config *cfg, uint32_t page_shift)
{
	struct uarch_cache_config cc = { 0, 0, 0, cfg->repl };
	if (cfg->entries) {
		if (!cfg->ways || cfg->entries % cfg->ways || page_shift >= 32) {
			memset(&t->c, 0, sizeof t->c);
			return -1;
		}
		cc.sets = cfg->entries / cfg->ways;
		cc.ways = cfg->ways;
		cc.line = UINT32_C(1) << page_shift;
	}
	return uarch_cache_init(&t->c, &cc);
}

void uarch_tlb_free(struct uarch_tlb *t) { uarch_cache_free(&t->c); }

void uarch_tlb_flush(struct uarch_tlb *t) { uarch_cache_invalidate(&t->c); }
