/* Retiring a straight-line block in one call (translated code), with a
 * memo of block timings.
 *
 * The models see a block's instructions as uarch_retire() would, in the
 * same order: each one's fetch blocks and data accesses in turn, then the
 * predictor for the last one (the only control transfer). Only how the
 * timing is computed differs.
 *
 * Timing memo: timing_issue() over a block reads, of the pipeline state,
 * the open group's slots and units, the pending redirect penalty, the
 * ready cycle and stall cause of each register the block reads before it
 * writes it, the dividers' free cycles when it divides, and the fetch and
 * data miss cycles of its instructions. Everything it computes is relative
 * to `now`: shift all of it by a constant and the result shifts by that
 * constant. A ready cycle at or before the block's first `now` delays
 * nothing (every instruction issues at `now` or later), so it is keyed as
 * 0. That key and the block's tag find an entry holding what the block
 * did: cycles advanced, the group's state, each written register's ready
 * cycle and cause, the latest ready cycle, the dividers and the timing
 * events. The last instruction's redirect and predictor result are
 * applied afterwards, as timing_issue() applies them last. ready_max is
 * read only by serialising instructions, which memoised blocks do not
 * hold. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"
#include "retire_impl.h"

#define MEMO_SIZE (1u << 14)   /* entries, direct-mapped */
#define MEMO_KEY 48            /* words: state, live registers, dividers, misses */
#define TEV UARCH_EV_CYCLES    /* the timing events are the last ones */
#define NTEV (UARCH_EV_COUNT - TEV)
_Static_assert(UARCH_EV_STALL_FRONTEND > TEV && UARCH_EV_STALL_BACKEND > TEV &&
	       UARCH_EV_STALL_LOAD_USE > TEV && UARCH_EV_STALL_DCACHE_BUSY > TEV &&
	       UARCH_EV_FLUSH_OTHER > TEV && UARCH_EV_RAS_MISPREDICT < TEV,
	       "timing_issue() raises only the events from CYCLES on");

/* uarch_retire_block() reads an op's bit 1 as data, bit 0 as the second
 * fetch or a store */
_Static_assert(UARCH_OP_FETCH == 0 && UARCH_OP_FETCH2 == 1 && UARCH_OP_LOAD == 2 &&
	       UARCH_OP_STORE == 3, "op kinds are bit fields");

/* Small fields, so that a replay reads few host cache lines; a block
 * whose numbers do not fit them is not kept. */
struct memo_entry {
	uint64_t tag;          /* the block's; 0: empty */
	/* relative to the block's first now */
	uint32_t dnow, ready_max, div_free, fdiv_free;
	uint8_t nkey, slots, units;
	uint8_t nev, ev[NTEV];  /* the timing events it raised, and by how much */
	uint16_t evn[NTEV];
	uint64_t late;          /* the written registers still pending at the end, */
	uint32_t late_i;        /* and their indices in the block's wr[] */
	uint16_t ready[UARCH_BLOCK_WR];
	uint8_t why[UARCH_BLOCK_WR];
	uint32_t key[MEMO_KEY];
};
struct uarch_memo {
	struct memo_entry e[MEMO_SIZE];
};

void uarch_block_init(const struct uarch *u, struct uarch_block *b, const struct retire_rec *r,
		      uint32_t n)
{
	static uint64_t next_tag = 1;
	uint64_t written = 0, live = 0;
	memset(b, 0, sizeof(*b));
	if (n > 64)
		return;
	int ok = 1;
	b->r = r;
	b->n = n;
	const unsigned fs = u->fetch_shift;
	uint64_t prev = 0;   /* the fetch block the instruction before ended in */
	for (uint32_t k = 0; k < n; k++) {   /* ok or not, the ops are all needed */
		unsigned cls = r[k].cls < UARCH_CLS_COUNT ? r[k].cls : UARCH_CLS_ALU;
		uint64_t first = r[k].fetch_pa >> fs;
		uint64_t last = (r[k].fetch_pa + rec_ilen(&r[k]) - 1) >> fs;
		/* the first instruction's fetch depends on what ran before */
		if (!k || first != prev)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_FETCH);
		prev = last;
		if (last != first)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_FETCH2);
		if (cls == UARCH_CLS_LOAD)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_LOAD);
		else if (cls == UARCH_CLS_STORE || cls == UARCH_CLS_ATOMIC)
			b->ops[b->nops++] = (uint8_t)(k << 2 | UARCH_OP_STORE);
		const unsigned src[2] = {r[k].rs1 & 63u, r[k].rs2 & 63u};
		for (int i = 0; i < 2; i++)
			if (src[i])
				live |= (UINT64_C(1) << src[i]) & ~written;
		b->div |= cls == UARCH_CLS_DIV ? 1 : cls == UARCH_CLS_FP_DIV ? 2 : 0;
		if (unit_of[cls] == U_SER)
			ok = 0;
		unsigned rd = r[k].rd & 63u;
		if (u->tm.lat[cls] && rd && !(written >> rd & 1)) {
			if (b->nwr == UARCH_BLOCK_WR)
				ok = 0;
			else
				b->wr[b->nwr++] = (uint8_t)rd;
			written |= UINT64_C(1) << rd;
		}
	}
	b->live = live;
	b->wrmask = written;
	b->tag = ok ? next_tag++ : 0;
}

/* The fetch and data miss cycles of a block's instructions: a list of
 * (instruction << 1 | data, cycles), in order. */
struct misses {
	uint32_t n;
	uint32_t m[2 * 3 * 64];
};

/* timing_issue() on each of the first n instructions, redirects aside */
static void simulate(struct uarch *u, const struct retire_rec *r, uint32_t n,
		     const struct misses *ms)
{
	uint32_t c[2][64] = {{0}};   /* [data][instruction] */
	for (uint32_t i = 0; i < ms->n; i += 2)
		c[ms->m[i] & 1][ms->m[i] >> 1] += ms->m[i + 1];
	for (uint32_t k = 0; k < n; k++)
		timing_issue(&u->tm, &r[k], c[0][k], c[1][k], 0, u->ev);
}

static uint64_t rel(uint64_t cycle, uint64_t base)
{
	return cycle > base ? cycle - base : 0;
}

/* The memo's key for b from the current state; 0 when it cannot have one.
 * *diff: whether it differs from the key of entry e. Of the registers b
 * reads first, only those still pending are keyed (the others are 0),
 * each with its number; t->pend drops the ones found ready. */
static uint32_t make_key(struct uarch_timing *t, const struct uarch_block *b,
			 const struct misses *ms, uint32_t *key, const struct memo_entry *e,
			 uint32_t *diff)
{
	const uint64_t base = t->now;
	uint32_t nk = 0, d = 0;
#define PUT(w) (key[nk] = (w), d |= key[nk] ^ e->key[nk], nk++)
	if (t->fe_pending >= (1u << 20))
		return 0;
	PUT(t->slots | t->units << 4 | t->fe_pending << 12);
	for (uint64_t m = t->pend & b->live; m; m &= m - 1) {
		unsigned reg = (unsigned)__builtin_ctzll(m);
		uint64_t r = rel(t->ready[reg], base);
		if (!r) {
			t->pend &= ~(UINT64_C(1) << reg);
			continue;
		}
		if (r >= (1u << 18) || nk == MEMO_KEY - 2)
			return 0;
		PUT((uint32_t)r << 14 | reg << 8 | t->why[reg]);
	}
	if (nk + 2 + ms->n > MEMO_KEY)
		return 0;
	if (b->div) {
		const uint64_t div = b->div & 1 ? rel(t->div_free, base) : 0;
		const uint64_t fdiv = b->div & 2 ? rel(t->fdiv_free, base) : 0;
		if (div >= UINT32_MAX || fdiv >= UINT32_MAX)
			return 0;
		if (b->div & 1)
			PUT((uint32_t)div);
		if (b->div & 2)
			PUT((uint32_t)fdiv);
	}
	for (uint32_t i = 0; i < ms->n; i++)
		PUT(ms->m[i]);
#undef PUT
	*diff = d | (e->tag != b->tag) | (e->nkey != nk);
	return nk;
}

/* Only the registers still pending at the end get their ready cycle and
 * cause: another written one is ready by then, which its old value may
 * contradict only when that is still pending (in t->pend), and any cycle
 * up to the end means the same (nothing reads a cause that is not
 * waited for). */
static HOT_INLINE void replay(struct uarch *u, const struct uarch_block *b,
			      const struct memo_entry *e)
{
	struct uarch_timing *t = &u->tm;
	const uint64_t base = t->now;
	t->now = base + e->dnow;
	t->slots = e->slots;
	t->units = e->units;
	t->fe_pending = 0;
	for (uint64_t m = t->pend & b->wrmask & ~e->late; m; m &= m - 1)
		t->ready[__builtin_ctzll(m)] = 0;
	t->pend = (t->pend & ~b->wrmask) | e->late;
	for (uint32_t m = e->late_i; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		t->ready[b->wr[i]] = base + e->ready[i];
		t->why[b->wr[i]] = e->why[i];
	}
	if (e->ready_max)
		t->ready_max = max64(t->ready_max, base + e->ready_max);
	if (b->div) {
		if (b->div & 1)
			t->div_free = base + e->div_free;
		if (b->div & 2)
			t->fdiv_free = base + e->fdiv_free;
	}
	u->ev[UARCH_EV_CYCLES] += e->dnow;   /* each issue adds its now - start */
	for (unsigned i = 0; i < e->nev; i++)
		u->ev[e->ev[i]] += e->evn[i];
}

/* simulate(), keeping what it did in e */
static void record(struct uarch *u, const struct uarch_block *b, const struct misses *ms,
		   struct memo_entry *e)
{
	struct uarch_timing *t = &u->tm;
	const uint64_t base = t->now, ready_max = t->ready_max;
	uint64_t ev[NTEV];
	memcpy(ev, &u->ev[TEV], sizeof(ev));
	t->ready_max = 0;   /* now the latest ready cycle of this block's writes */
	simulate(u, b->r, b->n, ms);
	int fits = t->now - base < UINT32_MAX && rel(t->ready_max, base) < UINT32_MAX &&
		   (!(b->div & 1) || rel(t->div_free, base) < UINT32_MAX) &&
		   (!(b->div & 2) || rel(t->fdiv_free, base) < UINT32_MAX);
	e->dnow = (uint32_t)(t->now - base);
	e->ready_max = (uint32_t)rel(t->ready_max, base);
	e->div_free = (uint32_t)rel(t->div_free, base);
	e->fdiv_free = (uint32_t)rel(t->fdiv_free, base);
	e->slots = (uint8_t)t->slots;
	e->units = (uint8_t)t->units;
	e->late = 0;
	e->late_i = 0;
	for (unsigned i = 0; i < b->nwr; i++) {
		uint64_t d = rel(t->ready[b->wr[i]], base);
		if (t->ready[b->wr[i]] > t->now) {
			e->late |= UINT64_C(1) << b->wr[i];
			e->late_i |= UINT32_C(1) << i;
		}
		fits &= d <= UINT16_MAX;
		e->ready[i] = (uint16_t)d;
		e->why[i] = t->why[b->wr[i]];
	}
	e->nev = 0;
	for (unsigned i = 0; i < NTEV; i++) {
		uint64_t d = u->ev[TEV + i] - ev[i];
		if (!d || TEV + i == UARCH_EV_CYCLES)   /* cycles: dnow */
			continue;
		fits &= d <= UINT16_MAX;
		e->ev[e->nev] = (uint8_t)(TEV + i);
		e->evn[e->nev++] = (uint16_t)d;
	}
	t->ready_max = max64(t->ready_max, ready_max);
	if (!fits)
		e->tag = 0;
}

static int same_key(const struct memo_entry *e, uint64_t tag, const uint32_t *key, uint32_t nk)
{
	if (e->tag != tag || e->nkey != nk)
		return 0;
	uint32_t d = 0;
	for (uint32_t i = 0; i < nk; i++)
		d |= e->key[i] ^ key[i];
	return !d;
}

static void timing_block(struct uarch *u, struct uarch_block *b, uint32_t n,
			 const struct misses *ms)
{
	uint32_t key[MEMO_KEY], nk, diff;
	if (__builtin_expect(!u->memo, 0) && b->tag && !(u->memo = calloc(1, sizeof(*u->memo))))
		b->tag = 0;   /* no memory for a memo: simulate */
	if (n != b->n || !b->tag) {
		simulate(u, b->r, n, ms);
		return;
	}
	/* a block mostly starts as it did last time: try that entry first */
	struct memo_entry *e = &u->memo->e[b->hint];
	if (!(nk = make_key(&u->tm, b, ms, key, e, &diff))) {
		simulate(u, b->r, n, ms);
		return;
	}
	if (!diff) {
		replay(u, b, e);
		return;
	}
	uint64_t hash = 0;   /* the words mixed independently, then once */
	for (uint32_t i = 0; i < nk; i++)
		hash += (uint64_t)key[i] << (i & 31);
	hash = (hash ^ b->tag) * UINT64_C(0x9e3779b97f4a7c15);
	b->hint = (uint32_t)(hash >> 40) & (MEMO_SIZE - 1);
	e = &u->memo->e[b->hint];
	if (same_key(e, b->tag, key, nk)) {
		replay(u, b, e);
		return;
	}
	e->tag = b->tag;
	e->nkey = (uint8_t)nk;
	memcpy(e->key, key, nk * sizeof(key[0]));
	record(u, b, ms, e);
}

void uarch_retire_block(struct uarch *u, struct uarch_block *b, uint32_t n,
			const uint64_t *addr, uint64_t next_pc, int taken)
{
	const struct retire_rec *r = b->r;
	const unsigned fs = u->fetch_shift;
	struct misses ms;
	ms.n = 0;
	if (!n || n > b->n)
		return;
	unsigned nops = b->nops;
	if (n < b->n)   /* a side exit: the ops of the first n instructions */
		for (nops = 0; nops < b->nops && b->ops[nops] >> 2 < n; nops++)
			;
	/* ops[0] is the first instruction's fetch: none when it goes on in
	 * the fetch block the last instruction before it ended in */
	if ((r->fetch_pa >> fs) != u->fetch_line || u->redirect) {
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
			c = data_access_at(u, addr[k], addr[k], x->size, x->flags, *op & 1);
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
	const struct retire_rec *l = &r[n - 1];
	u->fetch_line = (l->fetch_pa + rec_ilen(l) - 1) >> fs;
	int redirect = next_pc != l->pc + rec_ilen(l);
	unsigned bp = predict(u, l, next_pc, l->cls == UARCH_CLS_BRANCH && taken, &redirect);
	u->redirect = (uint8_t)redirect;
	timing_block(u, b, n, &ms);
	timing_after(&u->tm, bp | (redirect ? UARCH_BP_REDIRECT : 0));
}
