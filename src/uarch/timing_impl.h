/* The timing model's issue step (rules: the top of timing.c), inline so
 * that uarch_retire() runs it without a call. Private to src/uarch. */
#ifndef RVPMU_UARCH_TIMING_IMPL_H
#define RVPMU_UARCH_TIMING_IMPL_H
#include "rvpmu/uarch.h"

/* functional units, for pairing (t->unit_of[]: two classes sharing a bit
 * never pair); U_SER issues alone */
enum { U_LSU = 1, U_BRU = 2, U_MDU = 4, U_FPU = 8, U_SER = 16 };

/* the stall event of waiting for a result of each class (0: none finer) */
static const uint8_t cause[UARCH_CLS_COUNT] = {
	[UARCH_CLS_LOAD] = UARCH_EV_STALL_LOAD_USE, [UARCH_CLS_ATOMIC] = UARCH_EV_STALL_LOAD_USE,
	[UARCH_CLS_MUL] = UARCH_EV_STALL_INT_MUL, [UARCH_CLS_DIV] = UARCH_EV_STALL_LONG_LATENCY,
	[UARCH_CLS_FP] = UARCH_EV_STALL_FP, [UARCH_CLS_FP_DIV] = UARCH_EV_STALL_FP,
	[UARCH_CLS_CSR] = UARCH_EV_STALL_CSR_READ,
};

/* the operands a class may read in the late stage (bit 0 rs1, bit 1 rs2):
 * ALU ops and branches execute there when an operand is late; a store's
 * data is only needed there */
static const uint8_t late_ops[UARCH_CLS_COUNT] = {
	[UARCH_CLS_ALU] = 3, [UARCH_CLS_BRANCH] = 3, [UARCH_CLS_STORE] = 2,
};

/* classes whose result comes out of the late stage (cfg.late_alu) */
static const uint8_t late_result[UARCH_CLS_COUNT] = {
	[UARCH_CLS_LOAD] = 1, [UARCH_CLS_ATOMIC] = 1,
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

/* mstate.c: the memory system's form relative to now, interned (0 when
 * it cannot be); make it form i relative to now (t->mform, until
 * mstate_settle() writes the times) */
#define MSTATE_IDLE 1   /* the form with every time at or before now */
uint32_t mstate_intern(struct uarch_timing *t);
void mstate_apply(struct uarch_timing *t, uint32_t i);
/* whether form i is itself at any later cycle, as the idle form is (its
 * times at or before now, or prefetches dropped, which stay so): its
 * number names it whatever the cycles since */
int mstate_still(const struct uarch_timing *t, uint32_t i);
/* the still form form i becomes (0: none could be interned), hold
 * cycles after the cycle it is relative to */
void mstate_settles(const struct uarch_timing *t, uint32_t i, uint32_t *still, uint32_t *hold);
void mstate_settle(struct uarch_timing *t);
void mstate_free(struct uarch_timing *t);

/* timing_mem.c: the stall of a data access issued in cycle i whose
 * misses the cache side reported as mc (UARCH_MC_*) */
uint32_t uarch_timing_mem(struct uarch_timing *t, unsigned cls, uint32_t mc, uint64_t i);

/* divides and serialising instructions: their waits and flushes */
static inline uint64_t timing_special(struct uarch_timing *t, const struct retire_rec *r,
				      unsigned cls, uint64_t i, unsigned *why, uint64_t *ev)
{
	uint64_t busy = cls == UARCH_CLS_DIV ? t->div_free : cls == UARCH_CLS_FP_DIV ? t->fdiv_free : 0;
	if (busy > i) {
		i = busy;
		*why = UARCH_EV_STALL_LONG_LATENCY;
	}
	if (cls == UARCH_CLS_CSR || cls == UARCH_CLS_SYSTEM) {
		uint64_t all = max64(t->ready_max, max64(t->div_free, t->fdiv_free));
		const int flush = cls == UARCH_CLS_SYSTEM || (r->flags & UARCH_RF_CSR_WRITE);
		if (all > i) {   /* a drain: for a flush, the top-down's bad speculation */
			i = all;
			*why = flush ? UARCH_EV_STALL_FLUSH : 0;
		}
		ev[cls == UARCH_CLS_SYSTEM ? UARCH_EV_FLUSH_OTHER : UARCH_EV_FLUSH_CSR_WRITE] += flush;
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
	uint32_t unit = t->unit_of[cls];
	const uint64_t start = t->now;
	const uint32_t fetch_miss = fe;
	if (__builtin_expect(t->fe_pending != 0, 0)) {
		/* which penalty it is shows in its length (uarch_timing_init()
		 * keeps the two apart), which is all a memo key holds */
		const uint32_t p = t->fe_pending;
		fe += p;
		ev[p == t->cfg.mispredict_penalty ? UARCH_EV_STALL_MISPREDICT : UARCH_EV_STALL_REDIRECT] += p;
		t->fe_pending = 0;
	}

	int pair = !fe && t->slots < t->cfg.width && !((t->units | U_SER) & unit);
	uint64_t e = (pair ? start : start + 1) + fe;
	unsigned s1 = r->rs1 & 63, s2 = r->rs2 & 63;
	uint64_t r1 = t->ready[s1], r2 = t->ready[s2];
	const uint64_t early = max64(r1, r2);   /* when address generation has both */
	if (t->cfg.late_alu && late_ops[cls]) {
		/* an operand from the late stage reaches the late ALUs sooner */
		r1 -= (late_ops[cls] & t->late >> s1 & 1) * t->cfg.late_alu;
		r2 -= (late_ops[cls] >> 1 & t->late >> s2 & 1) * t->cfg.late_alu;
	}
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
	if (__builtin_expect(be != 0, 0))
		be = uarch_timing_mem(t, cls, be, i);
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

	uint32_t lat = t->lat[cls][(r->flags >> UARCH_RF_LAT_SHIFT) & 3];
	if (lat && r->rd) {
		const unsigned d = r->rd & 63;
		const uint64_t bit = UINT64_C(1) << d;
		uint64_t ready = now + lat;
		uint8_t w = cause[cls];
		int late = late_result[cls];
		if (t->cfg.late_alu && cls == UARCH_CLS_ALU && early > i) {
			/* it ran in the late ALU: address generation waits for it */
			ready += t->cfg.late_alu;
			w = UARCH_EV_STALL_LOAD_USE;
			late = 1;
		}
		t->ready[d] = ready;
		t->pend |= bit;
		t->late = late && t->cfg.late_alu ? t->late | bit : t->late & ~bit;
		t->ready_max = max64(t->ready_max, ready);
		t->why[d] = w;
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
