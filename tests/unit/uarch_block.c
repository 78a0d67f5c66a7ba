/* uarch_retire_block() against uarch_retire() on each instruction: random
 * blocks (every class a translated block holds, dependent registers,
 * divides, 2- and 4-byte instructions straddling fetch blocks, accesses
 * crossing lines, misses), run in a random order many times so the
 * timing memo replays most of them, sometimes only partly (a side exit);
 * some blocks write more registers than the memo keeps. Twice: on the
 * default core, and on one with the SiFive 7-series rules (late ALUs,
 * pipes A and B, latency variants) and the memory system's timing (MSHRs,
 * a limited channel, the L2 prefetcher, fed sequential streams too).
 * After every block the two models must hold the same events and the same
 * pipeline state. */
#include <string.h>
#include "uarch_test.h"

#define NBLOCKS 48
#define MAXN 40

static uint64_t rng = 0x9e3779b97f4a7c15;
static uint64_t next(void) { return ut_rand(&rng); }

/* a few registers, so that instructions depend on each other; or (wide)
 * any, so that a long block reads and writes more than the memo keeps */
static uint8_t reg(int wide)
{
	static const uint8_t r[] = {0, 1, 2, 3, 5, 8, 9, 10, 33, 34, 40};
	return wide ? (uint8_t)(next() % 64) : r[next() % sizeof(r)];
}

struct blk {
	struct retire_rec r[MAXN];
	struct uarch_block ub;
	uint64_t target;
};

static void make_block(struct blk *b, uint64_t pc)
{
	static const uint8_t body[] = {
		UARCH_CLS_ALU, UARCH_CLS_ALU, UARCH_CLS_ALU, UARCH_CLS_LOAD, UARCH_CLS_LOAD,
		UARCH_CLS_STORE, UARCH_CLS_MUL, UARCH_CLS_DIV, UARCH_CLS_FP, UARCH_CLS_FP_DIV,
	};
	static const uint8_t last[] = {UARCH_CLS_BRANCH, UARCH_CLS_JAL, UARCH_CLS_JALR, UARCH_CLS_ALU};
	uint32_t n = 1 + (uint32_t)(next() % MAXN);
	int wide = next() % 4 == 0;
	for (uint32_t k = 0; k < n; k++) {
		uint8_t cls = k + 1 < n ? body[next() % sizeof(body)] : last[next() % sizeof(last)];
		struct retire_rec *r = &b->r[k];
		*r = ut_op(cls, pc, reg(wide), reg(wide), reg(wide));
		r->ilen = next() % 3 ? 4 : 2;
		if (cls == UARCH_CLS_LOAD || cls == UARCH_CLS_STORE)
			r->size = (uint8_t)(1u << (next() % 4));
		if (cls == UARCH_CLS_STORE || cls == UARCH_CLS_BRANCH)
			r->rd = 0;
		if (cls == UARCH_CLS_JALR && next() % 2)
			r->rs1 = 1, r->rd = 0;         /* a return */
		if (cls == UARCH_CLS_JAL && next() % 2)
			r->rd = 1;                     /* a call */
		if (cls == UARCH_CLS_DIV || cls == UARCH_CLS_FP || cls == UARCH_CLS_FP_DIV)
			r->flags = (uint8_t)((next() % 4) << UARCH_RF_LAT_SHIFT);
		pc += r->ilen;
	}
	b->target = 0x10000 + (next() % NBLOCKS) * 0x200;
	b->ub.n = n;
}

/* the retire stream the per-instruction model sees for the first n */
static void retire_each(struct uarch *u, const struct blk *b, uint32_t n, const uint64_t *addr,
			uint64_t next_pc, int taken)
{
	for (uint32_t k = 0; k < n; k++) {
		struct retire_rec r = b->r[k];
		r.addr = r.paddr = addr[k];
		r.next_pc = k + 1 < n ? r.pc + r.ilen : next_pc;
		r.taken = (uint8_t)(r.cls == UARCH_CLS_BRANCH && taken);
		uarch_retire(u, &r);
	}
}

/* Registers compare as what the timing reads of them: a ready cycle at or
 * before now delays nothing (its cause is never read), and a pending one
 * must be in the pending mask. */
static int same_regs(const struct uarch_timing *x, const struct uarch_timing *y)
{
	for (int r = 0; r < 64; r++) {
		int px = x->ready[r] > x->now, py = y->ready[r] > y->now;
		if (px != py || (px && (x->ready[r] != y->ready[r] || x->why[r] != y->why[r] ||
					!(x->pend >> r & 1) || !(y->pend >> r & 1))))
			return 0;
	}
	return 1;
}

/* a cycle as the timing reads it: any at or before now is now */
static uint64_t at(uint64_t cycle, uint64_t now) { return cycle > now ? cycle : now; }

/* The memory system's times as the timing reads them: the MSHRs as a set
 * (it takes the one that frees first), a prefetch dropped or not. */
static int same_memory(const struct uarch_timing *x, const struct uarch_timing *y)
{
	uint64_t mx[UARCH_MSHR_MAX], my[UARCH_MSHR_MAX];
	for (unsigned j = 0; j < UARCH_MSHR_MAX; j++) {
		uint64_t vx = at(x->mshr[j], x->now), vy = at(y->mshr[j], y->now);
		unsigned i = j, k = j;
		for (; i > 0 && mx[i - 1] > vx; i--)
			mx[i] = mx[i - 1];
		mx[i] = vx;
		for (; k > 0 && my[k - 1] > vy; k--)
			my[k] = my[k - 1];
		my[k] = vy;
	}
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		if ((x->pf[j] == UARCH_PF_DROPPED) != (y->pf[j] == UARCH_PF_DROPPED) ||
		    (x->pf[j] != UARCH_PF_DROPPED && at(x->pf[j], x->now) != at(y->pf[j], y->now)))
			return 0;
	for (int r = 0; r < 64; r++)   /* a late value matters while it is pending */
		if (x->ready[r] > x->now && (x->late >> r & 1) != (y->late >> r & 1))
			return 0;
	return !memcmp(mx, my, sizeof(mx)) && at(x->bus, x->now) == at(y->bus, y->now);
}

/* b's timing may be interned: a copy is settled (which changes nothing
 * it does next). The units of a full group are never read. */
static int same_state(const struct uarch *a, const struct uarch *b)
{
	struct uarch_timing bt = b->tm;
	uarch_timing_settle(&bt);
	const struct uarch_timing *x = &a->tm, *y = &bt;
	return !memcmp(a->ev, b->ev, sizeof(a->ev)) && x->now == y->now && x->slots == y->slots &&
	       (x->slots == x->cfg.width || x->units == y->units) &&
	       x->fe_pending == y->fe_pending && same_regs(x, y) &&
	       at(x->ready_max, x->now) == at(y->ready_max, y->now) &&
	       at(x->div_free, x->now) == at(y->div_free, y->now) &&
	       at(x->fdiv_free, x->now) == at(y->fdiv_free, y->now) &&
	       a->fetch_line == b->fetch_line && same_memory(x, y);
}

/* a time of the memory system is after now (a dropped prefetch is) */
static int memory_busy(const struct uarch_timing *t)
{
	int busy = t->bus > t->now;
	for (unsigned j = 0; j < UARCH_MSHR_MAX; j++)
		busy |= t->mshr[j] > t->now;
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		busy |= t->pf[j] > t->now;
	return busy;
}

/* from ev to now, no cache, TLB or prefetch event (so no miss) and five
 * timing events but cycles (the SiFive 7 rules' stalls often are) */
static int five_events(const uint64_t *ev, const uint64_t *now)
{
	for (int i = 0; i < UARCH_EV_BRANCH_DIR_MISPREDICT; i++)
		if (now[i] != ev[i] && i != UARCH_EV_L1I_ACCESS && i != UARCH_EV_L1D_READ_ACCESS &&
		    i != UARCH_EV_L1D_WRITE_ACCESS && i != UARCH_EV_ITLB_ACCESS &&
		    i != UARCH_EV_DTLB_ACCESS && i != UARCH_EV_DTLB_WRITE_ACCESS)
			return 0;
	int n = 0;
	for (int i = UARCH_EV_CYCLES + 1; i < UARCH_EV_COUNT; i++)
		n += now[i] != ev[i];
	return n == 5;
}

/* the way out's latest record is this run's: its five events */
static int kept(const struct uarch_xc *x, const uint64_t *ev, const uint64_t *now)
{
	int n = 0;
	for (int i = 0; i < UARCH_XC_EV; i++)
		if (x->evn[i]) {
			if (now[x->ev[i]] - ev[x->ev[i]] != x->evn[i])
				return 0;
			n++;
		}
	return x->sin != UINT64_MAX && n == 5;
}

/* from ev to now, no cache or TLB miss */
static int no_miss(const uint64_t *ev, const uint64_t *now)
{
	for (int i = 0; i < UARCH_EV_BRANCH_DIR_MISPREDICT; i++)
		if (now[i] != ev[i] && i != UARCH_EV_L1I_ACCESS && i != UARCH_EV_L1D_READ_ACCESS &&
		    i != UARCH_EV_L1D_WRITE_ACCESS && i != UARCH_EV_ITLB_ACCESS &&
		    i != UARCH_EV_DTLB_ACCESS && i != UARCH_EV_DTLB_WRITE_ACCESS)
			return 0;
	return 1;
}

/* the way out's latest record is in u->xt too, where translated code
 * looks past the way out's own */
static int xt_kept(const struct uarch *u, const struct uarch_block *b, unsigned way)
{
	const struct uarch_xc *x = &b->xc[way][0];
	const uint64_t id = uarch_xt_id(b, way);
	if (!u->xt || x->sin == UINT64_MAX)
		return 0;
	const struct uarch_xt *s = &u->xt[uarch_xt_slot(id, x->sin)];
	return s->id == id && !memcmp(&s->x, x, sizeof(*x));
}

static void memo_run(const struct uarch_config *c, int sifive7)
{
	static struct blk blocks[NBLOCKS];
	struct uarch a, b;
	ut_init(&a, c);
	ut_init(&b, c);
	for (int i = 0; i < NBLOCKS; i++) {
		make_block(&blocks[i], 0x10000 + (uint64_t)i * 0x200 + (next() % 64));
		uarch_block_init(&b, &blocks[i].ub, blocks[i].r, blocks[i].ub.n);
	}
	uint64_t addr[64], stream = 0x2000000;
	int runs = 0, interned = 0, each = 0, busy_interned = 0, five = 0, five_kept = 0;
	int whole = 0, whole_xt = 0;   /* runs whole without a miss, memoised; kept in u->xt */
	/* records kept of runs whose misses the memory system timed from a
	 * form other than the idle one (MSTATE_IDLE, 1) */
	int still_kept = 0;
	for (; runs < 200000; runs++) {
		struct blk *k = &blocks[next() % NBLOCKS];
		uint32_t n = k->ub.n;
		if (next() % 10 == 0)
			n = 1 + (uint32_t)(next() % n);     /* left before instruction n */
		int seq = sifive7 && next() % 4 == 0;   /* a sequential stream, for the prefetcher */
		for (uint32_t i = 0; i < n; i++)          /* mostly a few hot lines */
			addr[i] = seq ? (stream += 24) :
				(next() % 16 == 0) + (next() % 4 ? 0x400000 + (next() % 4) * 0x1000 + (next() % 32) * 8
					     : 0x800000 + (next() % 64) * 0x1000 + (next() % 512) * 8);
		const struct retire_rec *l = &k->r[n - 1];
		int taken = n == k->ub.n && l->cls == UARCH_CLS_BRANCH && next() % 3 != 0;
		uint64_t np = l->pc + l->ilen;
		if (n == k->ub.n && (taken || l->cls == UARCH_CLS_JAL || l->cls == UARCH_CLS_JALR))
			np = l->cls == UARCH_CLS_JALR && next() % 4 == 0 ? k->target + 0x40 : k->target;
		retire_each(&a, k, n, addr, np, taken);
		if (next() % 16 == 0) {   /* as the step loop would: from a settled state */
			retire_each(&b, k, n, addr, np, taken);
			each++;
		} else {
			const int busy = memory_busy(&b.tm);
			const uint64_t miss = b.ev[UARCH_EV_L1D_READ_MISS] + b.ev[UARCH_EV_L1D_WRITE_MISS];
			uint64_t ev[UARCH_EV_COUNT];
			memcpy(ev, b.ev, sizeof(ev));
			const struct uarch_xm xm0 = k->ub.xm[n == k->ub.n && taken][0];
			uarch_retire_block(&b, &k->ub, n, addr, np, taken);
			interned += b.tm.skey != 0;
			if (n == k->ub.n)
				still_kept += k->ub.xm[taken][0].min > 1 && memcmp(&k->ub.xm[taken][0], &xm0, sizeof(xm0));
			if (n == k->ub.n && b.tm.skey && no_miss(ev, b.ev)) {
				whole++;
				whole_xt += xt_kept(&b, &k->ub, (unsigned)taken);
			}
			if (n == k->ub.n && b.tm.skey && five_events(ev, b.ev)) {
				five++;
				five_kept += kept(&k->ub.xc[taken][0], ev, b.ev);
			}
			/* memoised (so left interned) though its misses met a busy memory system */
			busy_interned += busy && b.tm.skey != 0 &&
					 b.ev[UARCH_EV_L1D_READ_MISS] + b.ev[UARCH_EV_L1D_WRITE_MISS] > miss;
		}
		if (!same_state(&a, &b)) {
			CHECK(0, "run %d (block of %u, %u retired%s): models differ, cycles %llu / %llu",
			      runs, k->ub.n, n, sifive7 ? ", SiFive 7 rules" : "",
			      (unsigned long long)a.tm.now, (unsigned long long)b.tm.now);
			break;
		}
	}
	/* most blocks leave an interned state; some too many pending registers */
	CHECK(interned > (runs - each) / 2 && interned < runs - each - 1000,
	      "%d of %d blocks left an interned state", interned, runs - each);
	CHECK(a.ev[UARCH_EV_L1D_READ_MISS] > 1000 && a.ev[UARCH_EV_STALL_LONG_LATENCY] > 1000 &&
	      a.ev[UARCH_EV_BRANCH_DIR_MISPREDICT] > 1000,
	      "the stream should miss, divide and mispredict (%llu %llu %llu)",
	      (unsigned long long)a.ev[UARCH_EV_L1D_READ_MISS],
	      (unsigned long long)a.ev[UARCH_EV_STALL_LONG_LATENCY],
	      (unsigned long long)a.ev[UARCH_EV_BRANCH_DIR_MISPREDICT]);
	CHECK(whole > 1000 && whole_xt > whole - whole / 10,
	      "%d of %d blocks run whole without a miss were kept where translated code "
	      "looks past the way out's records", whole_xt, whole);
	int timed_kept = 0;   /* records of runs whose misses the memory system timed */
	for (int i = 0; i < NBLOCKS; i++)
		for (int w = 0; w < 2; w++)
			for (int j = 0; j < UARCH_XM; j++) {
				timed_kept += blocks[i].ub.xm[w][j].min != 0;
			}
	CHECK(sifive7 ? timed_kept > 0 : timed_kept == 0,
	      "%d records of blocks with timed misses kept for translated code", timed_kept);
	if (sifive7) {
		/* translated code replays those from the block's records too */
		CHECK(five > 100 && five_kept > five / 2,
		      "%d of %d blocks run whole without a miss, raising five timing events, "
		      "were kept for translated code", five_kept, five);
		CHECK(a.ev[UARCH_EV_L2_PREFETCH_MISS] > 1000 && a.tm.late != 0,
		      "the stream should prefetch (%llu) and leave late values",
		      (unsigned long long)a.ev[UARCH_EV_L2_PREFETCH_MISS]);
		/* keyed by the memory system's form (mstate.c), not only from idle */
		CHECK(busy_interned > 1000, "%d blocks with misses were memoised from a busy "
		      "memory system", busy_interned);
		/* and from one whose only times are dropped prefetches, which
		 * stays itself as the idle one does */
		CHECK(still_kept > 0, "%d records of blocks with timed misses kept from a still "
		      "form other than the idle one", still_kept);
	}
	uarch_free(&a);
	uarch_free(&b);
}

/* One way out's states that differ only in their low bits (the penalty
 * pending, the UARCH_IB bit), as branchy's interpreter's do, take
 * different slots of u->xt, so that it keeps them all */
static void xt_spread(void)
{
	for (uint64_t id = 2; id < 66; id++) {
		uint8_t used[1u << UARCH_XT_BITS] = {0};
		unsigned n = 0, distinct = 0;
		for (uint64_t st = 1; st <= 8; st++)
			for (uint64_t bits = 0; bits < 2; bits++)
				for (uint64_t pen = 0; pen < 4; pen++, n++) {
					const uint32_t k = uarch_xt_slot(id, st << 32 | bits << UARCH_IB_SHIFT | pen);
					distinct += !used[k];
					used[k] = 1;
				}
		if (distinct < n - 2) {
			CHECK(0, "way out %llu: %u states in %u slots", (unsigned long long)id, n, distinct);
			return;
		}
	}
}

void test_block_memo(void)
{
	xt_spread();
	struct uarch_config c;
	uarch_config_default(&c);
	c.l1d.sets = 16;     /* small enough for misses */
	c.dtlb.entries = c.dtlb.ways = 8;
	memo_run(&c, 0);
	c.timing.pairing = UARCH_PAIR_PIPES;
	c.timing.late_alu = 1;
	c.timing.div32_lat = 11;
	c.timing.fp32_lat = 3;
	c.timing.fp32_div_lat = 13;
	c.timing.fp_move_lat = 2;
	c.timing.l1d_mshrs = 3;
	c.timing.l2_mshrs = 6;
	c.timing.bus_read = 7;
	c.timing.bus_write = 5;
	c.prefetch = (struct uarch_prefetch_config){ .streams = 4, .distance = 3, .window = 4 };
	memo_run(&c, 1);
}
