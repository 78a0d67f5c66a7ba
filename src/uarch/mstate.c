/* Interned memory-system states.
 *
 * A block whose data accesses miss the L1D reads and moves the memory
 * system's times (timing_mem.c: the channel, the MSHRs, the prefetches in
 * flight). What it does with them depends only on those times relative to
 * the cycle it issues in, since every access issues at now or later: a
 * time at or before now acts as now (a free channel or MSHR, a prefetch
 * that has arrived). So the memory system's form relative to now, with
 * dropped prefetches kept apart, names everything such a block needs;
 * block.c keys its memo by it (besides the pipeline's form, tstate.c) and
 * a replay sets the form the block left, relative to its new now.
 *
 * Where two MSHRs are both free, the one timing_mem.c takes may differ
 * between the form and the times it came from; the MSHRs are
 * interchangeable (the first to free is taken, whichever it is), so the
 * timing is the same.
 *
 * The table only grows (an index names one form forever); when it is
 * full, or a time is too far ahead for a form, the block is timed one
 * instruction at a time. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"
#include "timing_impl.h"

#define MS_CAP (1u << 16)     /* forms, entry 0 unused */
#define MS_HASH (1u << 17)    /* hash heads */
#define DROPPED UINT16_MAX    /* UARCH_PF_DROPPED in a form */

/* times after now by (0: at or before now), as timing_mem.c keeps them */
struct mkey {
	uint16_t bus, mshr[UARCH_MSHR_MAX], pf[UARCH_PF_TRACK];
};

struct mstate {
	struct mkey k;
	uint32_t next;          /* hash chain */
};

struct uarch_mstates {
	uint32_t n;             /* entries used, with 0 */
	uint32_t head[MS_HASH];
	struct mstate s[MS_CAP];
};

/* cycle's distance after now into *out; 0 when too far for a form */
static int rel(uint64_t cycle, uint64_t now, uint16_t *out)
{
	const uint64_t d = cycle > now ? cycle - now : 0;
	*out = (uint16_t)d;
	return d < DROPPED;
}

/* the memory system is idle at now: every time at or before it (a
 * dropped prefetch is after any) */
static int idle(const struct uarch_timing *t)
{
	uint64_t late = t->bus;
	for (unsigned j = 0; j < UARCH_MSHR_MAX; j++)
		late = max64(late, t->mshr[j]);
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		late = max64(late, t->pf[j]);
	return late <= t->now;
}

uint32_t mstate_intern(struct uarch_timing *t)
{
	if (!t->ms) {
		if (!(t->ms = calloc(1, sizeof(*t->ms))))
			return 0;
		t->ms->n = MSTATE_IDLE + 1;   /* its key is all zeros, its chain empty */
	}
	if (idle(t))   /* the most common form, without a lookup */
		return MSTATE_IDLE;
	struct mkey k;
	const uint64_t now = t->now;
	int ok = rel(t->bus, now, &k.bus);
	for (unsigned j = 0; j < UARCH_MSHR_MAX; j++)
		ok &= rel(t->mshr[j], now, &k.mshr[j]);
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++) {
		if (t->pf[j] == UARCH_PF_DROPPED)
			k.pf[j] = DROPPED;
		else
			ok &= rel(t->pf[j], now, &k.pf[j]);
	}
	if (!ok)
		return 0;
	uint64_t h = 0;
	const uint16_t *w = (const uint16_t *)&k;
	for (size_t i = 0; i < sizeof(k) / sizeof(*w); i++)
		h = (h + w[i]) * UINT64_C(0x9e3779b97f4a7c15);
	struct uarch_mstates *ms = t->ms;
	uint32_t *head = &ms->head[h >> 47];
	_Static_assert(MS_HASH == 1u << 17, "head index is the hash's top 17 bits");
	for (uint32_t i = *head; i; i = ms->s[i].next)   /* never the idle form */
		if (!memcmp(&ms->s[i].k, &k, sizeof(k)))
			return i;
	if (ms->n == MS_CAP)
		return 0;
	const uint32_t i = ms->n++;
	ms->s[i].k = k;
	ms->s[i].next = *head;
	*head = i;
	return i;
}

void mstate_apply(struct uarch_timing *t, uint32_t i)
{
	if (i == MSTATE_IDLE && idle(t))
		return;   /* as good as set */
	const struct mkey *k = &t->ms->s[i].k;
	const uint64_t now = t->now;
	t->bus = now + k->bus;
	for (unsigned j = 0; j < t->cfg.l1d_mshrs; j++)   /* the others stay 0 */
		t->mshr[j] = now + k->mshr[j];
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		t->pf[j] = k->pf[j] == DROPPED ? UARCH_PF_DROPPED : now + k->pf[j];
}

void mstate_free(struct uarch_timing *t)
{
	free(t->ms);
	t->ms = NULL;
}
