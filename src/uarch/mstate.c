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
 * a replay leaves the form the block left, relative to its new now, in
 * t->mform without writing the times: the next such block finds its form
 * from that one and the cycles since (a cache of those steps), and only
 * timing an access one by one writes the times back (mstate_settle()).
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
#define MS_AGE 4096           /* aged forms remembered, direct-mapped */
#define DROPPED UINT16_MAX    /* UARCH_PF_DROPPED in a form */

/* times after now by (0: at or before now), as timing_mem.c keeps them */
struct mkey {
	uint16_t bus, mshr[UARCH_MSHR_MAX], pf[UARCH_PF_TRACK];
};

struct mstate {
	struct mkey k;
	uint32_t next;          /* hash chain */
	uint32_t still;         /* the form it becomes once its times have passed */
	uint32_t until;         /* after it by that many cycles: its latest time */
};

/* form from, d cycles later, is form to (a cache of aged()'s lookups) */
struct mage {
	uint32_t from, to;
	uint64_t d;
};

struct uarch_mstates {
	uint32_t n;             /* entries used, with 0 */
	uint32_t head[MS_HASH];
	struct mstate s[MS_CAP];
	struct mage age[MS_AGE];
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

/* the key of the form the memory system's times (current) are in at now;
 * 0 when one is too far ahead for a form */
static int key_of_times(const struct uarch_timing *t, struct mkey *k)
{
	const uint64_t now = t->now;
	int ok = rel(t->bus, now, &k->bus);
	for (unsigned j = 0; j < UARCH_MSHR_MAX; j++)
		ok &= rel(t->mshr[j], now, &k->mshr[j]);
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++) {
		if (t->pf[j] == UARCH_PF_DROPPED)
			k->pf[j] = DROPPED;
		else
			ok &= rel(t->pf[j], now, &k->pf[j]);
	}
	return ok;
}

/* form f, d cycles later */
static void aged(const struct mkey *f, uint64_t d, struct mkey *k)
{
	const uint16_t *from = (const uint16_t *)f;
	uint16_t *to = (uint16_t *)k;
	for (size_t i = 0; i < sizeof(*k) / sizeof(*to); i++)
		to[i] = from[i] == DROPPED ? DROPPED : from[i] > d ? (uint16_t)(from[i] - d) : 0;
}

/* the index of form k, added when new; 0 when the table is full */
static uint32_t find_or_add(struct uarch_mstates *ms, const struct mkey *k)
{
	uint64_t h = 0;
	const uint16_t *w = (const uint16_t *)k;
	for (size_t i = 0; i < sizeof(*k) / sizeof(*w); i++)
		h = (h + w[i]) * UINT64_C(0x9e3779b97f4a7c15);
	uint32_t *head = &ms->head[h >> 47];
	_Static_assert(MS_HASH == 1u << 17, "head index is the hash's top 17 bits");
	for (uint32_t i = *head; i; i = ms->s[i].next)   /* never the idle form */
		if (!memcmp(&ms->s[i].k, k, sizeof(*k)))
			return i;
	if (ms->n == MS_CAP)
		return 0;
	const uint32_t i = ms->n++;
	ms->s[i].k = *k;
	ms->s[i].next = *head;
	*head = i;
	/* its times passed: the idle form, itself, or another without times */
	struct mkey z;
	uint16_t *zw = (uint16_t *)&z, until = 0, busy = 0;
	for (size_t j = 0; j < sizeof(*k) / sizeof(*w); j++) {
		zw[j] = w[j] == DROPPED ? DROPPED : 0;
		busy |= zw[j];
		if (w[j] != DROPPED && w[j] > until)
			until = w[j];
	}
	ms->s[i].until = until;
	ms->s[i].still = !busy ? MSTATE_IDLE : !until ? i : find_or_add(ms, &z);
	return i;
}

uint32_t mstate_intern(struct uarch_timing *t)
{
	if (!t->ms) {
		if (!(t->ms = calloc(1, sizeof(*t->ms))))
			return 0;
		t->ms->n = MSTATE_IDLE + 1;   /* its key is all zeros, its chain empty */
	}
	struct uarch_mstates *ms = t->ms;
	struct mkey k;
	if (t->mform) {   /* a form since mform_at: aged to now, remembered */
		const uint64_t d = t->now - t->mform_at;
		if (!d)
			return t->mform;
		if (t->mform_still && d >= t->mform_hold)
			return t->mform_still;
		struct mage *a = &ms->age[(t->mform * UINT64_C(0x9e3779b97f4a7c15) ^ d) % MS_AGE];
		if (a->from == t->mform && a->d == d)
			return a->to;
		aged(&ms->s[t->mform].k, d, &k);
		const uint32_t i = find_or_add(ms, &k);
		if (i)
			*a = (struct mage){ .from = t->mform, .to = i, .d = d };
		return i;
	}
	if (idle(t))   /* the most common form, without a lookup */
		return MSTATE_IDLE;
	return key_of_times(t, &k) ? find_or_add(ms, &k) : 0;
}

int mstate_still(const struct uarch_timing *t, uint32_t i)
{
	return i == MSTATE_IDLE || t->ms->s[i].still == i;
}

void mstate_settles(const struct uarch_timing *t, uint32_t i, uint32_t *still, uint32_t *hold)
{
	*still = i == MSTATE_IDLE ? i : t->ms->s[i].still;
	*hold = i == MSTATE_IDLE ? 0 : t->ms->s[i].until;
}

void mstate_apply(struct uarch_timing *t, uint32_t i)
{
	t->mform = i;
	t->mform_at = t->now;
	mstate_settles(t, i, &t->mform_still, &t->mform_hold);
}

void mstate_settle(struct uarch_timing *t)
{
	const struct mkey *k = &t->ms->s[t->mform].k;
	const uint64_t at = t->mform_at;
	t->bus = at + k->bus;
	for (unsigned j = 0; j < UARCH_MSHR_MAX; j++)
		t->mshr[j] = at + k->mshr[j];
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		t->pf[j] = k->pf[j] == DROPPED ? UARCH_PF_DROPPED : at + k->pf[j];
	t->mform = 0;
	t->mform_still = 0;
}

void mstate_free(struct uarch_timing *t)
{
	free(t->ms);
	t->ms = NULL;
}
