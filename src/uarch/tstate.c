/* Interned pipeline states.
 *
 * What timing_issue() does next depends on the timing state only relative
 * to now: a ready cycle, divider or latest result at or before now delays
 * nothing (every instruction issues at now or later), and the functional
 * units used by a group that is full do not matter (nothing joins it). So
 * the state's relative form (the open group, each register still pending
 * with its ready cycle, stall cause and whether it comes from the late
 * stage, the dividers, the latest ready cycle) names everything the
 * future needs but now itself and the memory system's times. Those (the
 * channel's, the MSHRs', the prefetches') stay absolute cycles, always
 * current: only a data access's memory traffic reads or moves them, and
 * block.c keys the memo of a block with such an access by their own form
 * relative to now (mstate.c) too, setting them when it replays one.
 * Interned, such
 * a form is a small number, the index of a table entry: block.c's memo
 * maps (state, block, misses) to (cycles, events, state after), and while
 * blocks replay from it the timing keeps only now and that number
 * (t->skey, with the redirect penalty in its lower half), writing no
 * register. uarch_timing_settle() writes the fields back when an
 * instruction is timed one by one.
 *
 * The table only grows (an index names one form forever, so anything
 * holding it stays right); when it is full, new forms are not interned and
 * those blocks are timed one instruction at a time. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"
#include "timing_impl.h"

#define TS_CAP (1u << 17)     /* states, entry 0 unused */
#define TS_HASH (1u << 18)    /* hash heads */
#define TS_MAXP 16            /* pending registers a form holds */

/* A state relative to now (zero-padded: compared as bytes) */
struct tkey {
	uint8_t slots, units, np, pad;
	uint16_t ready_max, div_free, fdiv_free, pad2;   /* after now by; 0: not */
	/* register | LATE | cause << 8 | ready after now << 16, by register */
	uint32_t p[TS_MAXP];
};
#define LATE 0x80        /* the register is in t->late */
_Static_assert(offsetof(struct tkey, p) % 4 == 0, "keys are hashed as 32-bit words");

struct tstate {
	struct tkey k;
	uint32_t closed;       /* this state with its group closed; 0: not made yet */
	uint32_t next;         /* hash chain */
};

struct uarch_tstates {
	uint32_t n;            /* entries used, with 0 */
	uint32_t head[TS_HASH];
	struct tstate s[TS_CAP];
};

static size_t key_bytes(const struct tkey *k)
{
	return offsetof(struct tkey, p) + k->np * sizeof(k->p[0]);
}

/* the index of form k, added when new; 0 when the table is full */
static uint32_t find_or_add(struct uarch_tstates *ts, const struct tkey *k)
{
	const size_t nb = key_bytes(k);
	uint64_t h = 0;
	const uint32_t *w = (const uint32_t *)k;
	for (size_t i = 0; i < nb / 4; i++)
		h = (h + w[i]) * UINT64_C(0x9e3779b97f4a7c15);
	uint32_t *head = &ts->head[h >> 46];
	_Static_assert(TS_HASH == 1u << 18, "head index is the hash's top 18 bits");
	for (uint32_t i = *head; i; i = ts->s[i].next)
		if (!memcmp(&ts->s[i].k, k, nb))
			return i;
	if (ts->n == TS_CAP)
		return 0;
	uint32_t i = ts->n++;
	ts->s[i].k = *k;
	ts->s[i].closed = 0;
	ts->s[i].next = *head;
	*head = i;
	return i;
}

static uint64_t after_now(uint64_t cycle, uint64_t now)
{
	return cycle > now ? cycle - now : 0;
}

uint64_t tstate_intern(struct uarch_timing *t)
{
	if (!t->ts) {
		if (!(t->ts = calloc(1, sizeof(*t->ts))))
			return 0;
		t->ts->n = 1;
	}
	struct tkey k;
	memset(&k, 0, sizeof(k));
	const uint64_t now = t->now;
	k.slots = (uint8_t)t->slots;
	k.units = (uint8_t)(t->slots < t->cfg.width ? t->units : 0);
	for (uint64_t m = t->pend; m; m &= m - 1) {
		unsigned r = (unsigned)__builtin_ctzll(m);
		uint64_t d = after_now(t->ready[r], now);
		if (!d) {
			t->pend &= ~(UINT64_C(1) << r);
			continue;
		}
		if (d > UINT16_MAX || k.np == TS_MAXP)
			return 0;
		k.p[k.np++] = r | (t->late >> r & 1 ? LATE : 0) | (uint32_t)t->why[r] << 8 |
			      (uint32_t)d << 16;
	}
	const uint64_t rm = after_now(t->ready_max, now), dv = after_now(t->div_free, now),
		       fd = after_now(t->fdiv_free, now);
	if (rm > UINT16_MAX || dv > UINT16_MAX || fd > UINT16_MAX)
		return 0;
	k.ready_max = (uint16_t)rm;
	k.div_free = (uint16_t)dv;
	k.fdiv_free = (uint16_t)fd;
	uint32_t i = find_or_add(t->ts, &k);
	return i ? skey_make(i, t->fe_pending) : 0;
}

uint32_t tstate_closed(struct uarch_timing *t, uint32_t i)
{
	struct tstate *s = &t->ts->s[i];
	if (!s->closed) {
		struct tkey k = s->k;
		k.slots = (uint8_t)t->cfg.width;
		k.units = 0;
		s->closed = k.slots == s->k.slots && !s->k.units ? i : find_or_add(t->ts, &k);
	}
	return s->closed;
}

void uarch_timing_settle(struct uarch_timing *t)
{
	if (t->mform)
		mstate_settle(t);
	if (!t->skey)
		return;
	const struct tkey *k = &t->ts->s[skey_state(t->skey)].k;
	const uint64_t now = t->now;
	for (uint64_t m = t->pend; m; m &= m - 1)   /* stale: ready by now */
		t->ready[__builtin_ctzll(m)] = 0;
	t->pend = 0;
	t->late = 0;   /* those of registers ready by now do not matter */
	for (unsigned i = 0; i < k->np; i++) {
		unsigned r = k->p[i] & 63;
		t->ready[r] = now + (k->p[i] >> 16);
		t->why[r] = (uint8_t)(k->p[i] >> 8);
		t->pend |= UINT64_C(1) << r;
		t->late |= (uint64_t)((k->p[i] & LATE) != 0) << r;
	}
	t->slots = k->slots;
	t->units = k->units;
	t->fe_pending = skey_pen(t->skey);
	t->ready_max = now + k->ready_max;
	t->div_free = now + k->div_free;
	t->fdiv_free = now + k->fdiv_free;
	t->skey = 0;
}

void uarch_timing_free(struct uarch_timing *t)
{
	free(t->ts);
	t->ts = NULL;
	t->skey = 0;
	mstate_free(t);
}
