/* Retiring a straight-line block in one call (translated code), with a
 * memo of block timings.
 *
 * The models see a block's instructions as uarch_retire() would, in the
 * same order: each one's fetch blocks and data accesses in turn, then the
 * predictor for the last one (the only control transfer). Only how the
 * timing is computed differs.
 *
 * Timing memo: what timing_issue() does over a block depends only on the
 * pipeline state relative to the block's first now and the fetch and data
 * miss cycles of its instructions, and the state it leaves is as
 * determined, relative to its last now (tstate.c); a block whose data
 * misses go to the timed memory system (timing_mem.c) depends on that
 * system's times relative to its first now too, and leaves them as
 * determined (mstate.c). With states interned,
 * the memo maps (state, memory form, block, misses) to the cycles
 * advanced, the timing events raised and the state (and memory form)
 * after; a replay adds those and changes the state's number, writing no
 * register but the memory system's times. The last instruction's redirect
 * and predictor result are applied afterwards, as timing_issue() applies
 * them last. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"
#include "retire_impl.h"

#define MEMO_SIZE (1u << 14)   /* entries, direct-mapped */
#define MEMO_MISS 8            /* words of miss cycles a key holds (four misses) */
#define TEV UARCH_EV_CYCLES    /* the timing events are the last ones */
#define NTEV (UARCH_EV_COUNT - TEV)
#define PREDICT (1u << 31)            /* block_end()'s pen: the predictor is still to run */
_Static_assert(UARCH_EV_STALL_FRONTEND > TEV && UARCH_EV_STALL_BACKEND > TEV &&
	       UARCH_EV_STALL_LOAD_USE > TEV && UARCH_EV_STALL_DCACHE_BUSY > TEV &&
	       UARCH_EV_FLUSH_OTHER > TEV && UARCH_EV_STALL_MISPREDICT > TEV && UARCH_EV_RAS_MISPREDICT < TEV,
	       "timing_issue() raises only the events from CYCLES on");

/* uarch_retire_block() reads an op's bit 1 as data, bit 0 as the second
 * fetch or a store */
_Static_assert(UARCH_OP_FETCH == 0 && UARCH_OP_FETCH2 == 1 && UARCH_OP_LOAD == 2 &&
	       UARCH_OP_STORE == 3, "op kinds are bit fields");

_Static_assert(NTEV >= UARCH_XC_EV, "a memo entry's events fill a uarch_xc's");

struct memo_entry {
	uint64_t tag;          /* the block's; 0: empty */
	uint64_t sin;          /* the state it started in (t->skey) */
	uint32_t smid;         /* the state it left, before the last redirect */
	uint32_t min, mout;    /* the memory form it started in and left (0: untouched) */
	uint32_t dnow;         /* cycles advanced */
	uint8_t nmiss, nev;
	uint8_t ev[NTEV];      /* the timing events it raised but cycles, */
	uint16_t evn[NTEV];    /* and by how much */
	uint32_t miss[MEMO_MISS];
};
struct uarch_memo {
	struct memo_entry e[MEMO_SIZE];
};

void uarch_block_init(const struct uarch *u, struct uarch_block *b, const struct retire_rec *r,
		      uint32_t n)
{
	static uint64_t next_tag = 1;
	memset(b, 0, sizeof(*b));
	if (n > 64)
		return;
	b->r = r;
	b->n = n;
	const unsigned fs = u->fetch_shift;
	uint64_t prev = 0;   /* the fetch block the instruction before ended in */
	for (uint32_t k = 0; k < n; k++) {
		unsigned cls = r[k].cls;
		uint64_t first = r[k].fetch_pa >> fs;
		uint64_t last = (r[k].fetch_pa + rec_ilen(&r[k]) - 1) >> fs;
		/* the first instruction's fetch depends on what ran before;
		 * after a jump, fetch starts again */
		if (!k || first != prev || r[k - 1].cls == UARCH_CLS_JAL)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_FETCH);
		prev = last;
		if (last != first)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_FETCH2);
		if ((cls == UARCH_CLS_BRANCH || cls == UARCH_CLS_JAL) && k + 1 < n) {
			if (b->nib == UARCH_IB) {   /* more than a translator makes */
				memset(b, 0, sizeof(*b));
				return;
			}
			b->ib[b->nib++] = (uint8_t)k;
		}
		if (cls == UARCH_CLS_LOAD)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_LOAD);
		else if (cls == UARCH_CLS_STORE || cls == UARCH_CLS_ATOMIC)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_STORE);
	}
	b->tag = next_tag++;
	for (unsigned i = 0; i < UARCH_XC; i++)
		b->xc[0][i].sin = b->xc[1][i].sin = UINT64_MAX;
	for (unsigned i = 0; i < UARCH_XM; i++)
		b->xm[0][i].x.sin = b->xm[1][i].x.sin = UINT64_MAX;
}

/* timing_issue() on each of b's first n instructions, the last one's
 * redirect aside; its branches and jumps before that mispredicted as bits
 * (the UARCH_IB bits) say */
static void simulate(struct uarch *u, const struct uarch_block *b, uint32_t n,
		     const struct uarch_misses *ms, unsigned bits)
{
	uint32_t c[2][64] = {{0}};   /* [data][instruction] */
	uint8_t bp[64] = {0};
	for (uint32_t i = 0; i < ms->n; i += 2)
		c[ms->m[i] & 1][ms->m[i] >> 1] += ms->m[i + 1];
	for (unsigned i = 0; i < b->nib; i++)
		bp[b->ib[i]] = b->r[b->ib[i]].cls == UARCH_CLS_JAL
			? UARCH_BP_REDIRECT | (bits >> i & 1 ? UARCH_BP_TARGET | UARCH_BP_DECODE : 0)
			: bits >> i & 1 ? UARCH_BP_DIR : 0;
	for (uint32_t k = 0; k < n; k++)
		timing_issue(&u->tm, &b->r[k], c[0][k], c[1][k], bp[k], u->ev);
}

static int same_key(const struct memo_entry *e, uint64_t tag, uint64_t sin, uint32_t min,
		    const struct uarch_misses *ms)
{
	if (e->tag != tag || e->sin != sin || e->min != min || e->nmiss != ms->n)
		return 0;
	for (uint32_t i = 0; i < ms->n; i++)   /* mostly none or one miss: no memcmp() call */
		if (e->miss[i] != ms->m[i])
			return 0;
	return 1;
}

static HOT_INLINE void replay(struct uarch *u, const struct memo_entry *e)
{
	struct uarch_timing *t = &u->tm;
	t->now += e->dnow;
	t->skey = skey_make(e->smid, 0);
	if (e->mout)
		mstate_apply(t, e->mout);
	for (unsigned i = 0; i < e->nev; i++)
		u->ev[e->ev[i]] += e->evn[i];
}

/* Whether misses ms make the timing read or move the memory system's
 * times (timing_mem.c), which the interned states leave out: a data
 * access's L1D miss, when MSHRs, the channel or prefetches are timed. */
static int memory_timed(const struct uarch_timing *t, const struct uarch_misses *ms)
{
	if (!t->memory_timed)
		return 0;
	for (uint32_t i = 0; i < ms->n; i += 2)
		if ((ms->m[i] & 1) && (ms->m[i + 1] & UARCH_MC_L1MISS))
			return 1;
	return 0;
}

/* simulate() from interned state t->skey (sin: with bits, its key) and
 * memory form min, keeping what it did in e when the numbers fit it and
 * the states it leaves can be interned */
static void record(struct uarch *u, const struct uarch_block *b, const struct uarch_misses *ms,
		   struct memo_entry *e, uint64_t sin, uint32_t min, unsigned bits)
{
	struct uarch_timing *t = &u->tm;
	uint64_t ev[NTEV];
	memcpy(ev, &u->ev[TEV], sizeof(ev));
	const uint64_t start = t->now;
	uarch_timing_settle(t);
	simulate(u, b, b->n, ms, bits);
	uint64_t sout = tstate_intern(t);
	const uint32_t mout = min ? mstate_intern(t) : 0;
	int fits = sout && t->now - start < UINT32_MAX && (!min || mout);
	e->tag = 0;
	e->sin = sin;
	e->min = min;
	e->mout = mout;
	e->smid = skey_state(sout);
	e->dnow = (uint32_t)(t->now - start);
	e->nev = 0;
	for (unsigned i = 0; i < NTEV; i++) {
		uint64_t d = u->ev[TEV + i] - ev[i];
		if (!d || TEV + i == UARCH_EV_CYCLES)   /* cycles: dnow */
			continue;
		fits &= d <= UINT16_MAX;
		e->ev[e->nev] = (uint8_t)(TEV + i);
		e->evn[e->nev++] = (uint16_t)d;
	}
	for (unsigned i = e->nev; i < UARCH_XC_EV; i++) {   /* what xc_of() copies adds 0 */
		e->ev[i] = UARCH_EV_CYCLES;
		e->evn[i] = 0;
	}
	e->nmiss = (uint8_t)ms->n;
	memcpy(e->miss, ms->m, ms->n * sizeof(ms->m[0]));
	if (fits)
		e->tag = b->tag;
	t->skey = sout;   /* 0 (the fields are current) or that same state */
}

/* The memo entry b's timing came from, or was kept in (valid when its
 * tag is b's), or NULL when it was simulated. */
static const struct memo_entry *timing_block(struct uarch *u, struct uarch_block *b, uint32_t n,
					     const struct uarch_misses *ms, unsigned bits)
{
	struct uarch_timing *t = &u->tm;
	if (__builtin_expect(!u->memo, 0) && !(u->memo = calloc(1, sizeof(*u->memo))))
		b->tag = 0;   /* no memory for a memo: simulate */
	uint32_t min = 0;   /* the memory form, for a block whose misses it times */
	if (n == b->n && b->tag && ms->n <= MEMO_MISS &&
	    (!memory_timed(t, ms) || (min = mstate_intern(t))) &&
	    (t->skey || (t->skey = tstate_intern(t)))) {
		const uint64_t key = t->skey | (uint64_t)bits << UARCH_IB_SHIFT;
		/* a block mostly starts as it did last time: try that entry first */
		struct memo_entry *e = &u->memo->e[b->hint];
		if (same_key(e, b->tag, key, min, ms)) {
			replay(u, e);
			return e;
		}
		uint64_t hash = (b->tag * UINT64_C(0x9e3779b97f4a7c15) ^ key) + min;
		for (uint32_t i = 0; i < ms->n; i++)
			hash += (uint64_t)ms->m[i] << (i & 31);
		hash *= UINT64_C(0xff51afd7ed558ccd);
		b->hint = (uint32_t)(hash >> 40) & (MEMO_SIZE - 1);
		e = &u->memo->e[b->hint];
		if (same_key(e, b->tag, key, min, ms))
			replay(u, e);
		else
			record(u, b, ms, e, key, min, bits);
		return e;
	}
	uarch_timing_settle(t);
	simulate(u, b, n, ms, bits);
	return NULL;
}

/* timing_after() of a block's last instruction, which leaves penalty pen
 * pending (its first took what was): on an interned state too */
static void after(struct uarch_timing *t, int redirect, uint32_t pen)
{
	if (t->skey) {
		uint32_t i = skey_state(t->skey);
		if (redirect)
			i = tstate_closed(t, i);
		if (i) {
			t->skey = skey_make(i, pen);
			return;
		}
		uarch_timing_settle(t);
	}
	if (redirect)
		t->slots = t->cfg.width;
	t->fe_pending = pen;
}

/* xc = memo entry e of a whole block, as a way out replays it: its
 * redirect applied to the state it leaves; 0 when it cannot be */
static int xc_of(struct uarch_timing *t, struct uarch_xc *xc, const struct memo_entry *e,
		 int redirect)
{
	uint32_t sout = redirect ? tstate_closed(t, e->smid) : e->smid;
	if (!sout || e->nev > UARCH_XC_EV)
		return 0;
	xc->sin = e->sin;
	xc->sout = skey_make(sout, 0);
	xc->dnow = e->dnow;
	memcpy(xc->ev, e->ev, sizeof(xc->ev));
	memcpy(xc->evn, e->evn, sizeof(xc->evn));
	return 1;
}

/* x first in the way out's xc[], the others after it in the order they
 * were, dropping the last or x's old place (at, UARCH_XC when none) */
static void xc_front(struct uarch_xc *xc, const struct uarch_xc *x, unsigned at)
{
	const struct uarch_xc y = *x;
	for (unsigned i = at < UARCH_XC ? at : UARCH_XC - 1; i > 0; i--)
		xc[i] = xc[i - 1];
	xc[0] = y;
}

/* Memo entry e, of a whole block b run without a miss to way out way,
 * kept in the way out's xc[] (the latest first) and in u->xt */
static void keep_xc(struct uarch *u, struct uarch_block *b, unsigned way,
		    const struct memo_entry *e, int redirect)
{
	struct uarch_xc *xc = b->xc[way];
	unsigned at = 0;
	while (at < UARCH_XC && xc[at].sin != e->sin)
		at++;
	struct uarch_xc x;
	if (at < UARCH_XC)   /* the same again: a whole block is deterministic */
		xc_front(xc, &xc[at], at);
	else if (xc_of(&u->tm, &x, e, redirect))
		xc_front(xc, &x, UARCH_XC);
	else
		return;
	if (u->xt) {   /* where translated code looks past xc[] */
		const uint64_t id = uarch_xt_id(b, way);
		struct uarch_xt *s = &u->xt[uarch_xt_slot(id, xc->sin)];
		s->id = id;
		s->x = *xc;
	}
}

/* Memo entry e, of a whole block run with the one or two misses in ms,
 * kept first in the way out's xm[] */
static void keep_xm(struct uarch_timing *t, struct uarch_xm *xm, const struct memo_entry *e,
		    int redirect, const struct uarch_misses *ms)
{
	struct uarch_xm x = { .m = { 0 }, .min = e->min, .mout = e->mout };
	memcpy(x.m, ms->m, ms->n * sizeof(ms->m[0]));
	unsigned at = 0;
	while (at < UARCH_XM && (xm[at].x.sin != e->sin || memcmp(xm[at].m, x.m, sizeof(x.m))))
		at++;
	if (!at)   /* the same as the latest: in place already */
		return;
	if (at < UARCH_XM)   /* the same again */
		x = xm[at];
	else if (!xc_of(t, &x.x, e, redirect))
		return;
	else if (e->mout)   /* for translated code, which sets mform_still and mform_hold too */
		mstate_settles(t, e->mout, &x.still, &x.hold);
	for (unsigned i = at < UARCH_XM ? at : UARCH_XM - 1; i > 0; i--)
		xm[i] = xm[i - 1];
	xm[0] = x;
}

/* Block b's first n instructions, their ops done with misses ms: the
 * predictor (when pen is PREDICT; else it is done, leaving penalty pen
 * and the UARCH_IB bits above it) and the timing. */
static void block_end(struct uarch *u, struct uarch_block *b, uint32_t n, uint64_t next_pc,
		      int taken, uint32_t pen, const struct uarch_misses *ms)
{
	const struct retire_rec *l = &b->r[n - 1];
	const unsigned fs = u->fetch_shift;
	int redirect = next_pc != l->pc + rec_ilen(l);
	taken = l->cls == UARCH_CLS_BRANCH && taken;
	unsigned bits = 0;
	if (pen & PREDICT) {   /* the branches (not taken) and jumps it went on past */
		for (unsigned i = 0; i < b->nib && b->ib[i] + 1u < n; i++) {
			const struct retire_rec *x = &b->r[b->ib[i]];
			int none = 0;
			bits |= (predict(u, x, x[1].pc, 0, &none) != 0) << i;
		}
		pen = timing_penalty(&u->tm, predict(u, l, next_pc, taken, &redirect), 0);
	} else {   /* as predict() has it */
		redirect |= taken || l->cls == UARCH_CLS_JAL || l->cls == UARCH_CLS_JALR;
		bits = pen >> UARCH_IB_SHIFT;
		pen &= (1u << UARCH_IB_SHIFT) - 1;
	}
	u->fetch_line = redirect ? UARCH_NO_LINE : (l->fetch_pa + rec_ilen(l) - 1) >> fs;
	const struct memo_entry *e = timing_block(u, b, n, ms, bits);
	after(&u->tm, redirect, pen);
	if (e && e->tag == b->tag && !ms->n)
		keep_xc(u, b, (unsigned)taken, e, redirect);
	else if (e && e->tag == b->tag && (ms->n == 2 || ms->n == 4) &&
		 (!e->min || e->min == MSTATE_IDLE || mstate_still(&u->tm, e->min)))
		keep_xm(&u->tm, b->xm[taken], e, redirect, ms);
}

/* op i's miss cycles c, in ms */
static void note_miss(struct uarch_misses *ms, unsigned i, uint32_t what, uint32_t c)
{
	if (ms->op == i + 1) {   /* its other part missed too */
		ms->m[ms->n - 1] += c;
		return;
	}
	ms->op = i + 1;
	ms->m[ms->n++] = what;
	ms->m[ms->n++] = c;
}

/* the physical address of instruction k's access (uarch_retire_block()) */
static inline uint64_t block_pa(const uint64_t *addr, unsigned k, const struct retire_rec *x)
{
	return addr[x->flags & UARCH_RF_PADDR ? k + UARCH_BLOCK_INSNS : k];
}

void uarch_retire_block(struct uarch *u, struct uarch_block *b, uint32_t n,
			const uint64_t *addr, uint64_t next_pc, int taken)
{
	const struct retire_rec *r = b->r;
	const unsigned fs = u->fetch_shift;
	struct uarch_misses ms;
	ms.n = 0;
	if (!n || n > b->n)
		return;
	unsigned nops = b->nops;
	if (n < b->n)   /* a side exit: the ops of the first n instructions */
		for (nops = 0; nops < b->nops && b->ops[nops] >> 2 < n; nops++)
			;
	/* ops[0] is the first instruction's fetch: none when it goes on in
	 * the fetch block the last instruction before it ended in */
	if ((r->fetch_pa >> fs) != u->fetch_line) {
		uint32_t c = fetch_block(u, r->pc >> fs << fs, r->fetch_pa >> fs << fs,
					 r->flags & UARCH_RF_BARE_FETCH);
		if (c) {
			ms.m[ms.n++] = 0;
			ms.m[ms.n++] = c;
		}
	}
	for (const uint8_t *op = b->ops + 1, *end = b->ops + nops; op < end; op++) {
		unsigned k = *op >> 2, c, data = *op >> 1 & 1;
		const struct retire_rec *x = &r[k];
		if (data) {   /* UARCH_OP_LOAD, UARCH_OP_STORE */
			c = data_access_at(u, addr[k], block_pa(addr, k, x), x->size, x->flags, *op & 1);
		} else {      /* UARCH_OP_FETCH, UARCH_OP_FETCH2: the block of its last byte */
			uint64_t off = *op & 1 ? rec_ilen(x) - 1 : 0;
			c = fetch_block(u, (x->pc + off) >> fs << fs, (x->fetch_pa + off) >> fs << fs,
					x->flags & UARCH_RF_BARE_FETCH);
		}
		if (c) {
			ms.m[ms.n++] = k << 1 | data;
			ms.m[ms.n++] = c;
		}
	}
	block_end(u, b, n, next_pc, taken, PREDICT, &ms);
}

/* Translated code's op i (what: as note_miss()'s) missed for c cycles:
 * noted in u->jmiss for the way out's timing */
static void jmiss(struct uarch *u, unsigned i, uint32_t what, uint32_t c)
{
	if (!c)
		return;
	if (!u->jmiss.n) {   /* the way out's replay cannot start from 0: to C */
		u->jskey = u->tm.skey;
		u->tm.skey = 0;
	}
	note_miss(&u->jmiss, i, what, c);
}

void uarch_block_slow(struct uarch *u, const struct uarch_block *b, const uint64_t *addr,
		      uint32_t at)
{
	const unsigned i = at >> 1, op = b->ops[i], k = op >> 2, data = op >> 1 & 1;
	const struct retire_rec *x = &b->r[k];
	uint32_t c;
	if (data) {   /* the first line of one across two (uarch_block_cross() the second) */
		const int store = op & 1;
		/* with other harts, translated code leaves a store's L1D part
		 * to C whole: its line may be Shared (an upgrade) */
		c = at & 1 ? l1d_part(u, block_pa(addr, k, x), store, !(store && u->dom))
			   : dtlb_part(u, addr[k], store, 1);
	} else {
		const unsigned fs = u->fetch_shift;
		const uint64_t off = op & 1 ? rec_ilen(x) - 1 : 0;
		c = at & 1 ? l1i_part(u, (x->fetch_pa + off) >> fs << fs, 1)
			   : itlb_part(u, (x->pc + off) >> fs << fs, 1);
	}
	jmiss(u, i, k << 1 | data, c);
}

void uarch_block_cross(struct uarch *u, const struct uarch_block *b, const uint64_t *addr,
		       uint32_t i)
{
	const unsigned op = b->ops[i], k = op >> 2;
	const struct retire_rec *x = &b->r[k];
	const uint64_t last = x->size - 1u;
	const uint32_t c = data_line(u, addr[k] + last, block_pa(addr, k, x) + last, op & 1, x->flags);
	struct uarch_misses *ms = &u->jmiss;
	if (ms->op == i + 1)   /* its first line missed: as data_access_at() */
		ms->m[ms->n - 1] = uarch_mc_add(ms->m[ms->n - 1], c);
	else
		jmiss(u, i, k << 1 | 1, c);
}

void uarch_block_resume(struct uarch *u, struct uarch_block *b, uint64_t next_pc, uint32_t taken,
			uint32_t pen)
{
	if (u->jmiss.n)
		u->tm.skey = u->jskey;
	if (b->n)
		block_end(u, b, b->n, next_pc, (int)taken, pen, &u->jmiss);
	u->jmiss.n = u->jmiss.op = 0;
}
