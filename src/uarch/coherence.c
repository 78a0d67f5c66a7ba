/* Coherence among the L1Ds of harts over one memory: MESI with
 * invalidation, as a core complex's L1Ds under an L2 (SiFive's TileLink
 * L1D keeps a line in one of Nothing, Branch, Trunk and Dirty: Invalid,
 * Shared, Exclusive, Modified).
 *
 * A line's state is its dirty byte (UARCH_LINE_SHARED, bit 0 dirty). The
 * protocol acts where a hart's L1D misses or a store finds its line
 * Shared, and looks at every other hart's L1D (a broadcast snoop; a
 * directory would find the same holders):
 *  - a read miss takes the line Shared when another L1D holds it, else
 *    Exclusive; a holder in Exclusive or Modified becomes Shared, one in
 *    Modified writing the line back to the L2 first;
 *  - a write miss takes it Modified, invalidating every other copy;
 *  - a store hit on a Shared line (an upgrade) makes it Modified,
 *    invalidating the other copies (no data moves);
 *  - Exclusive or Modified hits, and any read hit, need no one else.
 * Events: the miss that takes a line from another L1D holding it
 * Exclusive or Modified is a coherence miss of the hart missing and a
 * snoop hit of the holder; every copy lost to another hart's write is an
 * invalidation of the hart losing it; an upgrade is the writer's. Those
 * of other harts count on them (folded into their PMUs at their next
 * sync).
 *
 * Costs: a line another L1D supplies comes through the L2 (an L2 access
 * of the hart missing, never an L2 miss: it does not come from memory)
 * at the L2's latency, as does an upgrade's permission (no L2 access:
 * no data moves); without an L2 both cost memory's latency. Other misses
 * go to the L2 as with one hart. Instruction fetch does not snoop the
 * L1Ds, and stores do not invalidate L1Is: the L1I is not kept coherent
 * with stores (on the U74 neither is it); FENCE.I, and a remote FENCE.I
 * through the SBI, flush it. A private L2 ("shared": false) loses its
 * copy of a line when another hart takes the line for writing. */
#include <string.h>
#include "rvpmu/uarch.h"
#include "retire_impl.h"

int uarch_domain_init(struct uarch_domain *d, struct uarch *const *u, unsigned n, int share_l2)
{
	memset(d, 0, sizeof(*d));
	if (n < 2)
		return 0;   /* alone: nothing to keep coherent */
	if (n > UARCH_DOMAIN_MAX)
		return -1;
	const struct uarch_cache *l2 = &u[0]->l2_own;
	if (share_l2 && l2->present) {
		const struct uarch_cache_config cfg = { l2->sets, l2->ways, 1u << l2->line_shift, l2->repl };
		if (uarch_cache_init(&d->l2, &cfg))
			return -1;
	}
	d->n = n;
	for (unsigned i = 0; i < n; i++) {
		d->u[i] = u[i];
		u[i]->dom = d;
		if (d->l2.present) {
			uarch_cache_free(&u[i]->l2_own);
			u[i]->l2 = &d->l2;
		}
	}
	return 0;
}

void uarch_domain_free(struct uarch_domain *d)
{
	uarch_cache_free(&d->l2);
	memset(d, 0, sizeof(*d));
}

/* p's private L2 loses the line holding pa (another hart writes it) */
static void drop_private_l2(struct uarch *p, uint64_t pa)
{
	if (p->l2 != &p->l2_own || !p->l2->present)
		return;
	int64_t s = uarch_cache_slot(p->l2, pa >> p->l2->line_shift);
	if (s >= 0)
		uarch_cache_drop(p->l2, (uint32_t)s);
}

/* What an L1D miss (res & UARCH_MISS, the line now filled: Exclusive, or
 * Modified for a write) or an upgrade (res & UARCH_UPGRADE, the line now
 * Modified) of u at physical pa does to the other L1Ds; 1 with its cost in
 * *cost when that settles it, 0 when the line comes from below as alone. */
COLD int uarch_snoop(struct uarch *u, uint64_t pa, int write, unsigned res, uint32_t *cost)
{
	const struct uarch_domain *d = u->dom;
	const uint64_t line = pa >> u->l1d.line_shift;
	const uint32_t via_l2 = u->l2->present ? u->tm.cfg.l2_lat : u->tm.cfg.mem_lat;
	struct uarch *owner = NULL;
	int held = 0;
	for (unsigned i = 0; i < d->n; i++) {
		struct uarch *p = d->u[i];
		if (p == u)
			continue;
		if (write)
			drop_private_l2(p, pa);
		int64_t s = uarch_cache_slot(&p->l1d, line);
		if (s < 0)
			continue;
		uint8_t *st = &p->l1d.dirty[s];
		held = 1;
		if (!(*st & UARCH_LINE_SHARED)) {   /* Exclusive or Modified: its line */
			owner = p;
			p->ev[UARCH_EV_SNOOP_HIT]++;
			if (!write && (*st & 1))
				uarch_writeback(p, line << u->l1d.line_shift);
		}
		if (write) {
			uarch_cache_drop(&p->l1d, (uint32_t)s);
			p->ev[UARCH_EV_INVALIDATION]++;
		} else {
			*st = UARCH_LINE_SHARED;
		}
	}
	if (res & UARCH_UPGRADE) {   /* the others held it Shared, if at all */
		u->ev[UARCH_EV_UPGRADE]++;
		*cost = via_l2;
		return 1;
	}
	if (held && !write)   /* the fill put the line first in the filter */
		u->l1d.dirty[u->l1d.f_slot[0]] = UARCH_LINE_SHARED;
	if (!owner)
		return 0;
	u->ev[UARCH_EV_COHERENCE_MISS]++;
	if (u->l2->present)
		uarch_l2_count(u, uarch_cache_access(u->l2, pa, 0, NULL) & ~(unsigned)UARCH_MISS);
	*cost = via_l2;
	return 1;
}
