/* The timing model's issue step (rules: the top of timing.c), inline so
 * that uarch_retire() runs it without a call. Private to src/uarch. */
#ifndef RVPMU_UARCH_TIMING_IMPL_H
#define RVPMU_UARCH_TIMING_IMPL_H
#include "rvpmu/uarch.h"

enum { U_LSU = 1, U_BRU = 2, U_MDU = 4, U_FPU = 8, U_SER = 16 };

static const uint8_t unit_of[UARCH_CLS_COUNT] = {
	[UARCH_CLS_ALU] = 0,
	[UARCH_CLS_LOAD] = U_LSU, [UARCH_CLS_STORE] = U_LSU, [UARCH_CLS_ATOMIC] = U_LSU,
	[UARCH_CLS_BRANCH] = U_BRU, [UARCH_CLS_JAL] = U_BRU, [UARCH_CLS_JALR] = U_BRU,
	[UARCH_CLS_MUL] = U_MDU, [UARCH_CLS_DIV] = U_MDU,
	[UARCH_CLS_FP] = U_FPU, [UARCH_CLS_FP_DIV] = U_FPU,
	[UARCH_CLS_CSR] = U_SER, [UARCH_CLS_SYSTEM] = U_SER,
};

/* the stall event of waiting for a result of each class (0: none finer) */
static const uint8_t cause[UARCH_CLS_COUNT] = {
	[UARCH_CLS_LOAD] = UARCH_EV_STALL_LOAD_USE, [UARCH_CLS_ATOMIC] = UARCH_EV_STALL_LOAD_USE,
	[UARCH_CLS_MUL] = UARCH_EV_STALL_INT_MUL, [UARCH_CLS_DIV] = UARCH_EV_STALL_LONG_LATENCY,
	[UARCH_CLS_FP] = UARCH_EV_STALL_FP, [UARCH_CLS_FP_DIV] = UARCH_EV_STALL_FP,
	[UARCH_CLS_CSR] = UARCH_EV_STALL_CSR_READ,
};

/* classes that take timing_special() */
static const uint8_t special_of[UARCH_CLS_COUNT] = {
	[UARCH_CLS_DIV] = 1, [UARCH_CLS_FP_DIV] = 1, [UARCH_CLS_CSR] = 1, [UARCH_CLS_SYSTEM] = 1,
};

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* An interned state's key (t->skey): its number above the redirect
 * penalty pending, which translated code ORs in */
static inline uint64_t skey_make(uint32_t state, uint32_t pen) { return (uint64_t)state << 32 | pen; }
static inline uint32_t skey_state(uint64_t k) { return (uint32_t)(k >> 32); }
static inline uint32_t skey_pen(uint64_t k) { return (uint32_t)k; }

/* tstate.c: the current state interned (a t->skey value), 0 when it cannot
 * be (too many pending registers, or the table is full) */
uint64_t tstate_intern(struct uarch_timing *t);
/* interned state i with its issue group closed (0: table full) */
uint32_t tstate_closed(struct uarch_timing *t, uint32_t i);

/* divides and serialising instructions: their waits and flushes */
static inline uint64_t timing_special(struct uarch_timing *t, const struct retire_rec *r,
				      unsigned cls, uint64_t i, unsigned *why, uint64_t *ev)
{
	uint64_t busy = cls == UARCH_CLS_DIV ? t->div_free : cls == UARCH_CLS_FP_DIV ? t->fdiv_free : 0;
	if (busy > i) {
		i = busy;
		*why = UARCH_EV_STALL_LONG_LATENCY;
	}
	if (unit_of[cls] == U_SER) {
		uint64_t all = max64(t->ready_max, max64(t->div_free, t->fdiv_free));
		if (all > i) {
			i = all;
			*why = 0;
		}
		ev[cls == UARCH_CLS_SYSTEM ? UARCH_EV_FLUSH_OTHER : UARCH_EV_FLUSH_CSR_WRITE] +=
			cls == UARCH_CLS_SYSTEM || (r->flags & UARCH_RF_CSR_WRITE);
	}
	return i;
}

/* The redirect penalty pending after an instruction's prediction result
 * bp (fe: the one pending before). */
static inline __attribute__((always_inline)) uint32_t timing_penalty(const struct uarch_timing *t,
								     unsigned bp, uint32_t fe)
{
	if (bp & (UARCH_BP_DIR | UARCH_BP_RAS | UARCH_BP_TARGET))
		fe = (bp & (UARCH_BP_DIR | UARCH_BP_RAS)) || !(bp & UARCH_BP_DECODE)
			? t->cfg.mispredict_penalty : t->cfg.redirect_penalty;
	return fe;
}

/* What an instruction's redirect and prediction (bp as timing_issue()
 * takes it) leave for the next one. */
static inline __attribute__((always_inline)) void timing_after(struct uarch_timing *t, unsigned bp)
{
	if (bp & UARCH_BP_REDIRECT)
		t->slots = t->cfg.width;        /* the next fetch block starts a group */
	t->fe_pending = timing_penalty(t, bp, t->fe_pending);
}

static inline __attribute__((always_inline)) void
timing_issue(struct uarch_timing *t, const struct retire_rec *r, uint32_t fe, uint32_t be,
	     unsigned bp, uint64_t *ev)
{
	if (__builtin_expect(t->skey != 0, 0))
		uarch_timing_settle(t);
	unsigned cls = r->cls < UARCH_CLS_COUNT ? r->cls : UARCH_CLS_ALU;
	uint32_t unit = unit_of[cls];
	const uint64_t start = t->now;
	const uint32_t fetch_miss = fe;
	if (__builtin_expect(t->fe_pending != 0, 0)) {
		fe += t->fe_pending;
		t->fe_pending = 0;
	}

	int pair = !fe && t->slots < t->cfg.width && !((t->units | U_SER) & unit);
	uint64_t e = (pair ? start : start + 1) + fe;
	unsigned s1 = r->rs1 & 63, s2 = r->rs2 & 63;
	uint64_t r1 = t->ready[s1], r2 = t->ready[s2];
	unsigned dep = r1 >= r2 ? s1 : s2;     /* the later operand */
	uint64_t i = e, rdy = max64(r1, r2);
	unsigned why = 0;
	if (rdy > e) {
		i = rdy;
		why = t->why[dep];
	}
	const int special = special_of[cls];
	if (__builtin_expect(special, 0))
		i = timing_special(t, r, cls, i, &why, ev);
	/* fetch_miss <= fe, and why is set only when i > e */
	if (fe) {
		ev[UARCH_EV_STALL_FRONTEND] += fe;
		ev[UARCH_EV_STALL_ICACHE_BUSY] += fetch_miss;
	}
	if ((i - e) | be) {
		ev[UARCH_EV_STALL_BACKEND] += i - e + be;
		ev[UARCH_EV_STALL_DCACHE_BUSY] += be;
		if (why)
			ev[why] += i - e;
	}

	uint64_t now = start;
	if (i != now) {
		now = i;
		t->slots = 0;
		t->units = 0;
	}
	t->slots++;
	t->units |= unit;
	if (be) {
		now += be;
		t->slots = t->cfg.width;
	}
	if (unit == U_SER)
		t->slots = t->cfg.width;        /* it issues alone */
	t->now = now;

	uint32_t lat = t->lat[cls];
	if (lat && r->rd) {
		uint64_t ready = now + lat;
		t->ready[r->rd & 63] = ready;
		t->pend |= UINT64_C(1) << (r->rd & 63);
		t->ready_max = max64(t->ready_max, ready);
		t->why[r->rd & 63] = cause[cls];
	}
	if (__builtin_expect(special, 0)) {
		if (cls == UARCH_CLS_DIV)
			t->div_free = now + lat;
		else if (cls == UARCH_CLS_FP_DIV)
			t->fdiv_free = now + lat;
	}

	timing_after(t, bp);
}

#endif
