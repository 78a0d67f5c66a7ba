/* The models' hit paths in translated code.
 *
 * A counting block that ran whole tells the models at its way out what it
 * retired. With the models on, that way out does it inline, in the order
 * uarch_retire_block() does:
 *  - each fetch block and data access (TLB, then cache) is looked up as
 *    uarch_cache_hit() and uarch_cache_find() do: its set's most recent
 *    line inline (with one set, the line touched last), the filter's
 *    other lines and the ways of a narrow set out of line, a wide set in
 *    C; a miss is uarch_block_slow()'s, which notes the miss cycles in
 *    u->jmiss;
 *  - a conditional branch is predicted and trained (jit_predict.c) as
 *    bpred_branch() does when the BTB way its hint names holds it, a jump as
 *    uarch_bpred_retire() does; for one the block went on past (not
 *    taken) before its last, whether it was mispredicted selects the
 *    timing records (its UARCH_IB bit);
 *  - without misses, the timing is replayed from the way out's uarch_xc
 *    when the pipeline is in the state it started from last time (block.c
 *    fills it in); after one or two misses, from one of its uarch_xm
 *    when the misses and the state are those of a run before.
 * A BTB hint that is wrong is uarch_btb_predict()'s, the timing otherwise
 * uarch_block_resume()'s. Each part counts its own events,
 * so the counts and every model's state are exactly uarch_retire_block()'s
 * (LRU stamps: their order, jm_stamp_sync()) (tests/jit counting-*,
 * tests/fuzz/fuzz_jit.c).
 *
 * Registers: rbx is the hart, rbp the models (struct uarch + BIAS, for all
 * of a translation cache's code: the guest registers' pool leaves it),
 * r14 the redirect penalty the predictor leaves, r13 the UARCH_IB bits,
 * r12 the LRU stamps' base (jm_stamp_sync()); the calls, to C, keep those. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "jit.h"
#include "jit_models_emit.h"

/* cmp qword [rbp + disp], v (through rcx when v is not an imm32) */
static void cmp_mi(struct em *e, int32_t disp, uint64_t v)
{
	if (v == (uint64_t)(int32_t)v) {
		alu_mi(e, G1_CMP, MB, disp, (int32_t)v);
	} else {
		mov_ri(e, RCX, v);
		op_mem(e, 0, 1, 0, 0x3b, RCX, MB, -1, 0, disp);
	}
}

/* event ev += 1 (or += register by, when by >= 0), when it is one to count */
void jm_count(struct jm *m, unsigned ev, int by)
{
	if (!(m->uev >> ev & 1))
		return;
	if (by >= 0)
		op_mem(m->e, 0, 1, 0, 0x01, by, MB, -1, 0, EV(ev));   /* add [ev], by */
	else
		alu_mi(m->e, G1_ADD, MB, EV(ev), 1);
}

/* Where array p (n bytes) is for op_mem(): when all of it is within a
 * disp32 of the models, as the small arrays malloc() puts in the heap
 * beside them are, *base = rbp and the distance returned (no pointer to
 * load); else reg, loaded with the pointer at [rbp + field], and 0 */
int32_t jm_arr(struct jm *m, const void *p, size_t n, int32_t field, int reg, int *base)
{
	const intptr_t d = (intptr_t)((uintptr_t)p - ((uintptr_t)m->u + BIAS));
	if (d >= INT32_MIN && d <= INT32_MAX - (intptr_t)n) {
		*base = MB;
		return (int32_t)d;
	}
	op_mem(m->e, 0, 1, 0, 0x8b, reg, MB, -1, 0, field);
	*base = reg;
	return 0;
}

#define C(f) (co + (int32_t)offsetof(struct uarch_cache, f))
#define SLOTS(c) ((size_t)(c)->sets * (c)->ways)
/* the cache at offset co in struct uarch */
static const struct uarch_cache *cache_at(const struct jm *m, int32_t co)
{
	return (const struct uarch_cache *)(const void *)((const char *)m->u + BIAS + co);
}

/* [base + d + line's set * size]'s operands for op_mem(): the set is in
 * rdx (dyn) or a constant */
#define AT_SET(size, d) (dyn ? RDX : -1), (size) == 8 ? 3u : 2u, \
	(d) + (dyn ? 0 : (int32_t)(set * (size)))

/* a set's lookup of a known line compares its key as an imm32 */
static int key_imm(uint64_t line)
{
	return line != ~0ull && line + 1 <= INT32_MAX;
}

/* dirty[slot eax] |= 1 */
static void dirty(struct jm *m, int32_t co)
{
	const struct uarch_cache *c = cache_at(m, co);
	int b;
	const int32_t d = jm_arr(m, c->dirty, SLOTS(c), C(dirty), RSI, &b);
	op_mem(m->e, 0, 0, 0, 0x80, G1_OR, b, RAX, 0, d);
	b1(m->e, 1);
}

static void touch(struct jm *m, int32_t co, int dyn, uint32_t set, int write, uint32_t stamp);

/* cmp [tag + rax * 8], the key (an imm32 when it fits, else rcx) */
static void cmp_tag(struct jm *m, int32_t co, uint64_t line)
{
	const struct uarch_cache *c = cache_at(m, co);
	int base;
	const int32_t dt = jm_arr(m, c->tag, SLOTS(c) * sizeof(*c->tag), C(tag), RSI, &base);
	if (key_imm(line)) {
		op_mem(m->e, 0, 1, 0, 0x81, G1_CMP, base, RAX, 3, dt);
		d4(m->e, (uint32_t)(line + 1));
	} else {
		op_mem(m->e, 0, 1, 0, 0x3b, RCX, base, RAX, 3, dt);
	}
}

/* The index of the cache at co in struct jm_hints */
static unsigned cache_k(int32_t co)
{
	return co == U(itlb.c) ? 0 : co == U(l1i) ? 1 : co == U(dtlb.c) ? 2 : 3;
}

/* A new lookup site's hint, of the cache at co (struct jm_hints) */
static uint32_t *new_hint(struct jm *m, int32_t co)
{
	return &m->hints->slot[cache_k(co)][m->hints->next++ % JM_HINTS];
}

/* The cache or TLB at offset co looks line up (uarch_cache_hit()),
 * inline:
 *  - with sets, as its set's most recent line (a store then dirties it),
 *    which the line touched last always is;
 *  - with one set (a TLB), as the line touched last (first in the
 *    filter), else as the slot this site found last time (its hint),
 *    which is then touched and put first;
 * the rest out of line. The part's events follow (ev, and ev2 unless 0;
 * by: jm_count(), for a hit inline). line: its number, or ~0 when it is in
 * rdx and the key, line + 1, in rcx. part: the op's (uarch_block_slow()). */
static void lookup(struct jm *m, int32_t co, uint64_t line, int write, uint32_t part,
		   unsigned ev, unsigned ev2, int by)
{
	struct em *e = m->e;
	const struct uarch_cache *c = cache_at(m, co);
	const int dyn = line == ~0ull && c->set_mask;
	const uint32_t set = line == ~0ull ? 0 : (uint32_t)line & c->set_mask;
	struct jm_stub *s = &m->look[m->nlook++];
	s->cache = co;
	s->k = cache_k(co);
	s->line = line;
	s->write = (uint8_t)write;
	s->part = part;
	s->hint = NULL;
	s->stamp = ++m->nstamp;
	/* a key that fits an imm32 is compared as one (lookup_stub() then
	 * puts it in rcx) */
	if (line != ~0ull && !key_imm(line))
		mov_ri(e, RCX, line + 1);
	if (!c->set_mask) {
		if (key_imm(line))
			alu_mi(e, G1_CMP, MB, C(f_key[0]), (int32_t)(line + 1));
		else
			op_mem(e, 0, 1, 0, 0x3b, RCX, MB, -1, 0, C(f_key[0]));
		uint8_t *last = jcc32(e, CC_E);
		s->hint = new_hint(m, co);
		b1(e, 0xa1);                                   /* mov eax, [hint] */
		d8(e, (uint64_t)(uintptr_t)s->hint);
		cmp_tag(m, co, line);
		s->at = jcc32(e, CC_NE);
		touch(m, co, 0, 0, 0, s->stamp);
		if (key_imm(line)) {
			op_mem(e, 0, 1, 0, 0xc7, 0, MB, -1, 0, C(f_key[0]));
			d4(e, (uint32_t)(line + 1));
		} else {
			op_mem(e, 0, 1, 0, 0x89, RCX, MB, -1, 0, C(f_key[0]));
		}
		op_mem(e, 0, 0, 0, 0x89, RAX, MB, -1, 0, C(f_slot[0]));
		patch32(last, e->p);
		if (write)
			op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, C(f_slot[0]));
	} else {              /* the set's most recent line's key */
		if (dyn)   /* rdx = the line (data_key()) */
			alu_ri(e, 0, G1_AND, RDX, (int32_t)c->set_mask);
		int b;
		const int32_t dk = jm_arr(m, c->mkey, c->sets * sizeof(*c->mkey), C(mkey), RAX, &b);
		if (key_imm(line)) {
			op_mem(e, 0, 1, 0, 0x81, G1_CMP, b, AT_SET(8, dk));
			d4(e, (uint32_t)(line + 1));
		} else {
			op_mem(e, 0, 1, 0, 0x3b, RCX, b, AT_SET(8, dk));
		}
		s->at = jcc32(e, CC_NE);
		if (write) {   /* eax = its slot */
			const int32_t dm = jm_arr(m, c->mru, c->sets * sizeof(*c->mru), C(mru), RAX, &b);
			op_mem(e, 0, 0, 0, 0x8b, RAX, b, AT_SET(4, dm));
		}
	}
	if (write)   /* dirty[slot] |= 1 */
		dirty(m, co);
	s->hit = e->p;
	jm_count(m, ev, by);
	if (ev2)
		jm_count(m, ev2, by);
	s->back = e->p;
}

/* fetch op i: the fetch block of instruction r's byte off (fetch_block());
 * by: as lookup()'s */
static void fetch(struct jm *m, const struct retire_rec *r, uint64_t off, unsigned i, int by)
{
	const struct uarch *u = m->u;
	const uint64_t va = (r->pc + off) >> u->fetch_shift << u->fetch_shift;
	const uint64_t pa = (r->fetch_pa + off) >> u->fetch_shift << u->fetch_shift;
	const uint64_t page = va >> u->itlb.c.line_shift;
	/* after op 0, a fetch in its page finds it first in the ITLB's
	 * filter (only fetches look the ITLB up): a hit changing nothing */
	if (u->itlb.c.present && !m->bare) {
		if (i && page == m->page)
			jm_count(m, UARCH_EV_ITLB_ACCESS, by);
		else
			lookup(m, U(itlb.c), page, 0, i << 1, UARCH_EV_ITLB_ACCESS, 0, by);
	}
	if (!i)
		m->page = page;
	if (u->l1i.present)
		lookup(m, U(l1i), pa >> u->l1i.line_shift, 0, i << 1 | 1, UARCH_EV_L1I_ACCESS, 0, by);
}

/* rcx = the key of data address k's line under shift, and rdx = that
 * line (lookup() takes its set from it); physical: its physical address
 * (UARCH_RF_PADDR) */
static void data_key(struct em *e, unsigned k, unsigned shift, int physical)
{
	if (physical)
		k += HART_JIT_INSNS;
	op_mem(e, 0, 1, 0, 0x8b, RDX, RBX, -1, 0, HART(jit_addr) + 8 * (int32_t)k);
	shift_ri(e, 1, SH_SHR, RDX, shift);
	op_mem(e, 0, 1, 0, 0x8d, RCX, RDX, -1, 0, 1);         /* lea rcx, [rdx+1] */
}

/* fn(u, the block, h->jit_addr, arg) in C (uarch_block_slow(),
 * uarch_block_cross()), the LRU clock at stamp number stamp around it */
static void call_block(struct jm *m, void (*fn)(struct uarch *, const struct uarch_block *,
						const uint64_t *, uint32_t),
		       uint32_t arg, uint32_t stamp)
{
	struct em *e = m->e;
	jm_stamp_sync(m, stamp, 0);
	op_mem(e, 0, 1, 0, 0x8d, RDI, MB, -1, 0, -BIAS);          /* lea rdi, [u] */
	mov_ri(e, RSI, (uint64_t)(uintptr_t)m->ub);
	op_mem(e, 0, 1, 0, 0x8d, RDX, RBX, -1, 0, HART(jit_addr));
	mov_ri(e, RCX, arg);
	mov_ri(e, RAX, (uint64_t)(uintptr_t)fn);
	b1(e, 0xff); b1(e, 0xd0);                               /* call rax */
	jm_stamp_sync(m, stamp, 1);
}

/* With other harts (u->dom), the L1D part of a store, op part, in C
 * whole (uarch_block_slow()): its line may be Shared, and the store then
 * an upgrade that reaches the other harts' L1Ds. A hart alone does its
 * hits inline. */
static void store_in_c(struct jm *m, uint32_t part)
{
	call_block(m, uarch_block_slow, part, ++m->nstamp);
}

/* data op i: instruction k's access (data_line(); one across two lines,
 * its first, and cross() the second) */
static void data(struct jm *m, unsigned k, int write, unsigned i)
{
	const struct uarch *u = m->u;
	struct em *e = m->e;
	if (u->dtlb.c.present && !m->bare) {
		data_key(e, k, u->dtlb.c.line_shift, 0);
		lookup(m, U(dtlb.c), ~0ull, 0, i << 1, UARCH_EV_DTLB_ACCESS,
		       write ? UARCH_EV_DTLB_WRITE_ACCESS : 0, -1);
	}
	if (u->l1d.present && write && u->dom) {
		store_in_c(m, i << 1 | 1);
		return;
	}
	if (u->l1d.present) {
		data_key(e, k, u->l1d.line_shift, (m->ub->r[k].flags & UARCH_RF_PADDR) != 0);
		lookup(m, U(l1d), ~0ull, write, i << 1 | 1,
		       write ? UARCH_EV_L1D_WRITE_ACCESS : UARCH_EV_L1D_READ_ACCESS, 0, -1);
	}
}

/* data op i, instruction k's access, right after data op i - 1's
 * (instruction pk's), and not a store after a load: when both are in one
 * line, that op left the line and its page where lookup() finds them
 * first, changing nothing (hit or filled, the DTLB part before the
 * L1D's), and a store's dirty bit is set already: the events only.
 * Else data(). */
static void data_after(struct jm *m, unsigned k, unsigned pk, int write, unsigned i)
{
	const struct uarch *u = m->u;
	struct em *e = m->e;
	unsigned shift = 63;
	if (u->dtlb.c.present && !m->bare)
		shift = u->dtlb.c.line_shift;
	if (u->l1d.present && u->l1d.line_shift < shift)
		shift = u->l1d.line_shift;
	if (shift == 63)
		return;   /* no lookups */
	op_mem(e, 0, 1, 0, 0x8b, RDX, RBX, -1, 0, HART(jit_addr) + 8 * (int32_t)k);
	op_mem(e, 0, 1, 0, 0x33, RDX, RBX, -1, 0, HART(jit_addr) + 8 * (int32_t)pk);   /* xor */
	alu_ri(e, 1, G1_CMP, RDX, (int32_t)((1u << shift) - 1));
	uint8_t *same = jcc32(e, CC_BE);
	data(m, k, write, i);
	const uint64_t ev = UINT64_C(1) << UARCH_EV_DTLB_ACCESS | UINT64_C(1) << UARCH_EV_DTLB_WRITE_ACCESS |
			    UINT64_C(1) << UARCH_EV_L1D_READ_ACCESS | UINT64_C(1) << UARCH_EV_L1D_WRITE_ACCESS;
	uint8_t *done = NULL;
	if (m->uev & ev)
		done = jmp32(e);
	patch32(same, e->p);
	if (u->dtlb.c.present && !m->bare) {
		jm_count(m, UARCH_EV_DTLB_ACCESS, -1);
		if (write)
			jm_count(m, UARCH_EV_DTLB_WRITE_ACCESS, -1);
	}
	if (u->l1d.present)
		jm_count(m, write ? UARCH_EV_L1D_WRITE_ACCESS : UARCH_EV_L1D_READ_ACCESS, -1);
	if (done)
		patch32(done, e->p);
}

/* After data op i, instruction k's, when translated code found it across
 * two L1D lines (its bit in h->jit_xmask, cleared here): the second line
 * in C (uarch_block_cross()), out of line. The ops after it may still
 * take data_after()'s way: the second line is in another set, and within
 * the page, so the first line and its page are still found first. */
static void cross(struct jm *m, unsigned k, unsigned i)
{
	struct em *e = m->e;
	const uint32_t stamp = ++m->nstamp;
	bt_mi(e, BT, RBX, HART(jit_xmask), k);
	uint8_t *crossed = jcc32(e, CC_B);
	uint8_t *back = e->p;
	e = m->e = m->cold;
	patch32(crossed, e->p);
	bt_mi(e, BTR, RBX, HART(jit_xmask), k);
	call_block(m, uarch_block_cross, i, stamp);
	patch32(jmp32(e), back);
	m->e = m->hot;
}

/* LRU stamps. A touch stamps its line or BTB entry with the next count of
 * u->lru_clock, which every LRU structure shares; their order is all that
 * LRU compares. Counting on the clock in memory would chain each touch to
 * the one before (a store, then its load), so translated code stamps from
 * a base: BASE = the clock when the block's models code began (jm_begin()),
 * and each lookup or BTB site has a number fixed at translation, rising
 * in the order the sites run; its stamp is BASE + its number, and a way
 * out puts the clock past the block's numbers (jm_exit()). Around code
 * that counts on the clock itself (the subroutines, C) a stub puts the
 * clock at its site's number and takes BASE back from it after
 * (jm_stamp_sync()), so the stamps keep rising. */

/* the clock at stamp number stamp (after: BASE from the clock, past it) */
void jm_stamp_sync(struct jm *m, uint32_t stamp, int after)
{
	if (after) {
		op_mem(m->e, 0, 1, 0, 0x8b, BASE, MB, -1, 0, U(lru_clock));
		alu_ri(m->e, 1, G1_SUB, BASE, (int32_t)stamp);
	} else {
		op_mem(m->e, 0, 1, 0, 0x8d, RSI, BASE, -1, 0, (int32_t)stamp);
		op_mem(m->e, 0, 1, 0, 0x89, RSI, MB, -1, 0, U(lru_clock));
	}
}

/* rsi = the stamp of number stamp, or with stamp 0 the clock counted on
 * in memory (the subroutines: no site's) */
static void stamp_rsi(struct jm *m, uint32_t stamp)
{
	if (stamp) {
		op_mem(m->e, 0, 1, 0, 0x8d, RSI, BASE, -1, 0, (int32_t)stamp);   /* lea rsi, [base + stamp] */
	} else {
		alu_mi(m->e, G1_ADD, MB, U(lru_clock), 1);
		op_mem(m->e, 0, 1, 0, 0x8b, RSI, MB, -1, 0, U(lru_clock));
	}
}

/* uarch_cache_touch() of slot eax in the line's set, and a store's dirty
 * bit; an LRU stamp as stamp_rsi()'s */
static void touch(struct jm *m, int32_t co, int dyn, uint32_t set, int write, uint32_t stamp)
{
	struct em *e = m->e;
	const struct uarch_cache *c = cache_at(m, co);
	int b;
	int32_t d;
	if (c->repl == UARCH_REPL_LRU) {
		stamp_rsi(m, stamp);
		d = jm_arr(m, c->age, SLOTS(c) * sizeof(*c->age), C(age), RDI, &b);
		op_mem(e, 0, 1, 0, 0x89, RSI, b, RAX, 3, d);
	} else {   /* rsi = plru + the way's 16 bytes */
		mov_rr32(e, RSI, RAX);
		alu_ri(e, 0, G1_AND, RSI, (int32_t)(c->ways - 1));
		shift_ri(e, 0, SH_SHL, RSI, 4);
		d = jm_arr(m, c->plru, 2 * c->ways * sizeof(*c->plru), C(plru), RDI, &b);
		op_mem(e, 0, 1, 0, 0x8d, RSI, b, RSI, 0, d);           /* lea rsi, [plru+rsi] */
		d = jm_arr(m, c->age, c->sets * sizeof(*c->age), C(age), RDI, &b);
		op_mem(e, 0, 1, 0, 0x8b, R8, b, AT_SET(8, d));
		op_mem(e, 0, 1, 0, 0x23, R8, RSI, -1, 0, 0);          /* and r8, [rsi] */
		op_mem(e, 0, 1, 0, 0x0b, R8, RSI, -1, 0, 8);          /* or r8, [rsi+8] */
		op_mem(e, 0, 1, 0, 0x89, R8, b, AT_SET(8, d));
	}
	if (c->set_mask) {   /* with one set, the filter's first line is its most recent */
		d = jm_arr(m, c->mru, c->sets * sizeof(*c->mru), C(mru), RSI, &b);
		op_mem(e, 0, 0, 0, 0x89, RAX, b, AT_SET(4, d));
		d = jm_arr(m, c->mkey, c->sets * sizeof(*c->mkey), C(mkey), RSI, &b);
		op_mem(e, 0, 1, 0, 0x89, RCX, b, AT_SET(8, d));   /* the key */
	}
	if (write)
		dirty(m, co);
}

/* filter_front(): the key in rcx, slot eax first in the filter, entry
 * drop (the key's) dropped */
static void to_front(struct jm *m, int32_t co, unsigned drop)
{
	struct em *e = m->e;
	for (unsigned k = drop; k > 0; k--) {
		op_mem(e, 0, 1, 0, 0x8b, RSI, MB, -1, 0, C(f_key[k - 1]));
		op_mem(e, 0, 1, 0, 0x89, RSI, MB, -1, 0, C(f_key[k]));
		op_mem(e, 0, 0, 0, 0x8b, RSI, MB, -1, 0, C(f_slot[k - 1]));
		op_mem(e, 0, 0, 0, 0x89, RSI, MB, -1, 0, C(f_slot[k]));
	}
	op_mem(e, 0, 1, 0, 0x89, RCX, MB, -1, 0, C(f_key[0]));
	op_mem(e, 0, 0, 0, 0x89, RAX, MB, -1, 0, C(f_slot[0]));
}

/* A hit of slot eax in the subroutine: touched, first in the filter
 * (entry drop, the key's, dropped), and eax = 0 returned */
static void hit_ret(struct jm *m, int32_t co, int dyn, int write, unsigned drop)
{
	touch(m, co, dyn, 0, write, 0);
	to_front(m, co, drop);
	xor_zero(m->e, RAX);
	b1(m->e, 0xc3);                                         /* ret */
}

enum { SEARCH_WAYS = 16 };   /* set_search() for sets this narrow or narrower */

/* uarch_cache_find()'s search of a narrow set, without a branch on the
 * way: rcx holds the key, rdx the set, and no line of the filter is the
 * key's. A hit is touched and goes first in the filter, dropping the
 * last entry, and returns eax = 0. */
static void set_search(struct jm *m, int32_t co, int write)
{
	struct em *e = m->e;
	const struct uarch_cache *c = cache_at(m, co);
	int b;
	const int32_t d = jm_arr(m, c->tag, SLOTS(c) * sizeof(*c->tag), C(tag), RSI, &b);
	op_rr(e, 0, 0x69, RAX, RDX);                           /* imul eax, edx, ways */
	d4(e, c->ways);
	op_mem(e, 0, 1, 0, 0x8d, RSI, b, RAX, 3, d);          /* lea rsi, [tag+rax*8] */
	mov_ri(e, R8, c->ways);                                /* the way: none yet */
	for (uint32_t w = 0; w < c->ways; w++) {
		op_mem(e, 0, 1, 0, 0x3b, RCX, RSI, -1, 0, (int32_t)(8 * w));
		mov_ri(e, R9, w);
		op0f_rr(e, 0, 0x44, R8, R9);                   /* cmove r8d, r9d */
	}
	alu_ri(e, 0, G1_CMP, R8, (int32_t)c->ways);
	uint8_t *none = jcc32(e, CC_E);
	alu_rr(e, 0, G1_ADD, RAX, R8);                         /* the slot */
	hit_ret(m, co, 1, write, UARCH_CACHE_FILTER - 1);      /* the set in rdx */
	patch32(none, e->p);
}

/* The rest of the lookups of cache co, writes when write, as a
 * subroutine that all blocks share: uarch_cache_hit() past the set's
 * most recent line, then uarch_cache_find() (or set_search()), then
 * uarch_block_slow(). In: the key in rcx, the set in rdx (when the cache
 * has more than one, else the lookup's hint at rdi, set to where the
 * line is found), the op's part in r11d, its block in r10.
 * Out: eax = 0 for a hit (to count), 1 when uarch_block_slow() did it. */
static void lookup_sub(struct jm *m, int32_t co, int write)
{
	struct em *e = m->e;
	const struct uarch_cache *c = cache_at(m, co);
	const int dyn = c->set_mask != 0;
	/* narrow sets are searched here (set_search()), not in C */
	const int search = c->set_mask && c->ways <= SEARCH_WAYS;
	/* the filter's other lines: all of them with one set (a TLB: pages
	 * taking turns); with sets lookup_stub() did the second, and the
	 * rest come before a set search (a wide set's are C's) */
	const unsigned first = c->set_mask ? 2 : 1;
	const unsigned nf = search || !c->set_mask ? UARCH_CACHE_FILTER : first;
	for (unsigned k = first; k < nf; k++) {
		op_mem(e, 0, 1, 0, 0x3b, RCX, MB, -1, 0, C(f_key[k]));
		uint8_t *other = jcc32(e, CC_NE);
		op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, C(f_slot[k]));
		if (!dyn)
			op_mem(e, 0, 0, 0, 0x89, RAX, RDI, -1, 0, 0);   /* the hint */
		hit_ret(m, co, dyn, write, k);
		patch32(other, e->p);
	}
	if (search)
		set_search(m, co, write);
	/* anything else: in C, a hit first (unless searched: a miss); the
	 * line is then first in the filter */
	push(e, RDI);
	push(e, R10);
	push(e, PART);                                          /* and rsp % 16 = 0 for calls */
	uint8_t *found = NULL;
	if (!search) {
		op_mem(e, 0, 1, 0, 0x8d, RDI, MB, -1, 0, co);  /* lea rdi, [rbp+co] */
		op_mem(e, 0, 1, 0, 0x8d, RSI, RCX, -1, 0, -1);  /* lea rsi, [rcx-1] */
		mov_ri(e, RDX, (uint64_t)write);
		mov_ri(e, RAX, (uint64_t)(uintptr_t)uarch_cache_find);
		b1(e, 0xff); b1(e, 0xd0);                       /* call rax */
		alu_rr(e, 0, G1_AND, RAX, RAX);
		found = jcc8(e, CC_NE);
	}
	op_mem(e, 0, 1, 0, 0x8d, RDI, MB, -1, 0, -BIAS);          /* lea rdi, [u] */
	op_mem(e, 0, 1, 0, 0x8b, RSI, RSP, -1, 0, 8);             /* the block */
	op_mem(e, 0, 1, 0, 0x8d, RDX, RBX, -1, 0, HART(jit_addr));
	op_mem(e, 0, 0, 0, 0x8b, RCX, RSP, -1, 0, 0);             /* the part */
	mov_ri(e, RAX, (uint64_t)(uintptr_t)uarch_block_slow);
	b1(e, 0xff); b1(e, 0xd0);                               /* call rax */
	mov_ri(e, RAX, 1);
	uint8_t *done = jmp8(e);
	if (found) {
		patch8(found, e->p);
		xor_zero(e, RAX);
	}
	patch8(done, e->p);
	alu_ri(e, 1, G1_ADD, RSP, 16);
	pop(e, RDI);
	if (!dyn) {   /* the hint */
		op_mem(e, 0, 0, 0, 0x8b, RSI, MB, -1, 0, C(f_slot[0]));
		op_mem(e, 0, 0, 0, 0x89, RSI, RDI, -1, 0, 0);
	}
	b1(e, 0xc3);
}

/* lookup s's out-of-line path: the subroutine at sub with its inputs;
 * with sets, the filter's second line first (two lines of a set in turn,
 * as uarch_cache_hit() has them) */
static void lookup_stub(struct jm *m, const struct jm_stub *s, uint8_t *sub)
{
	struct em *e = m->e;
	const int32_t co = s->cache;
	const struct uarch_cache *c = cache_at(m, co);
	if (key_imm(s->line))
		mov_ri(e, RCX, s->line + 1);   /* lookup() compared it as an immediate */
	if (s->line != ~0ull && c->set_mask)
		mov_ri(e, RDX, s->line & c->set_mask);
	if (c->set_mask) {
		op_mem(e, 0, 1, 0, 0x3b, RCX, MB, -1, 0, C(f_key[1]));
		uint8_t *other = jcc32(e, CC_NE);
		op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, C(f_slot[1]));
		touch(m, co, 1, 0, s->write, s->stamp);
		to_front(m, co, 1);
		patch32(jmp32(e), s->hit);
		patch32(other, e->p);
	}
	jm_stamp_sync(m, s->stamp, 0);
	mov_ri(e, PART, s->part);
	mov_ri(e, R10, (uint64_t)(uintptr_t)m->ub);
	if (s->hint)
		mov_ri(e, RDI, (uint64_t)(uintptr_t)s->hint);
	patch32(call32(e), sub);
	jm_stamp_sync(m, s->stamp, 1);
	alu_rr(e, 0, G1_AND, RAX, RAX);
	patch32(jcc32(e, CC_E), s->hit);
	patch32(jmp32(e), s->back);
}
#undef AT_SET
#undef SLOTS
#undef C

static void replay(struct jm *m);

/* rax = the timing state's key at [rbp + at] with the block's UARCH_IB
 * bits (jm_begin() left them in r13), as its uarch_xc's sin has them */
static void state_key(struct jm *m, int32_t at)
{
	op_mem(m->e, 0, 1, 0, 0x8b, RAX, MB, -1, 0, at);
	if (m->ub->nib)
		alu_rr(m->e, 1, G1_OR, RAX, R13);
}

/* The timing replayed from xc[0] or xc[1] (see struct uarch_xc) when the
 * state is its sin, leaving the penalty in r14 (else resume_at, the state
 * in rax). After a miss it is not (uarch->jskey): the timing is C's. */
static void timing(struct jm *m, const struct uarch_xc *xc)
{
	struct em *e = m->e;
	state_key(m, U(tm.skey));
	mov_ri(e, RSI, (uint64_t)(uintptr_t)xc);
	op_mem(e, 0, 1, 0, 0x3b, RAX, RSI, -1, 0, XC(sin));
	b1(e, 0x48); b1(e, 0x0f); b1(e, 0x45); b1(e, 0x35);  /* cmovne rsi, [rip + disp32]: &xc[1] */
	m->xc1_at = e->p;
	d4(e, 0);
	op_mem(e, 0, 1, 0, 0x3b, RAX, RSI, -1, 0, XC(sin));
	m->resume_at = jcc32(e, CC_NE);
	replay(m);
}

/* The replay of the uarch_xc in rsi */
static void replay(struct jm *m)
{
	struct em *e = m->e;
	op_mem(e, 0, 0, 0, 0x8b, RAX, RSI, -1, 0, XC(dnow));
	op_mem(e, 0, 1, 0, 0x01, RAX, MB, -1, 0, U(tm.now));   /* and cycles */
	/* the timing's other events, when one of them is counted */
	for (int i = 0; i < UARCH_XC_EV && m->uev >> (UARCH_EV_CYCLES + 1); i++) {
		op_mem(e, 0, 0, 1, 0xb6, RAX, RSI, -1, 0, XC(ev) + i);        /* movzx eax, byte */
		op_mem(e, 0, 0, 1, 0xb7, RCX, RSI, -1, 0, XC(evn) + 2 * i);   /* movzx ecx, word */
		op_mem(e, 0, 1, 0, 0x01, RCX, MB, RAX, 3, EV(0));
	}
	op_mem(e, 0, 1, 0, 0x0b, R14, RSI, -1, 0, XC(sout));   /* or: the penalty, zero-extended */
	op_mem(e, 0, 1, 0, 0x89, R14, MB, -1, 0, U(tm.skey));
}

/* movups: xmm register x from or (store) to [rsi + disp] */
static void movups(struct em *e, int store, int x, int32_t disp)
{
	op_mem(e, 0, 0, 1, store ? 0x11 : 0x10, x, RSI, -1, 0, disp);
}

/* the 40-byte uarch_xc at rsi + from: loaded into xmm x, x + 1 and
 * register r (store 0), or stored from them to rsi + from */
static void xc_io(struct em *e, int store, int32_t from, int x, int r)
{
	movups(e, store, x, from);
	movups(e, store, x + 1, from + 16);
	op_mem(e, 0, 1, 0, store ? 0x89 : 0x8b, r, RSI, -1, 0, from + 32);
}

/* the uarch_xc at rsi + from to rsi + to, through xmm2, xmm3 and rcx */
static void xc_move(struct em *e, int32_t from, int32_t to)
{
	xc_io(e, 0, from, 2, RCX);
	xc_io(e, 1, to, 2, RCX);
}

_Static_assert(UARCH_XC == 4 && sizeof(struct uarch_xc) == 40,
	       "xc_rest() moves four 40-byte records");

/* timing()'s checks failed, the state in rax: when it is the sin of
 * xc[2] or xc[3], that record is moved first (the order block.c's
 * keep_xc() keeps) and replayed, going on at cont; else on past this
 * code. */
static void xc_rest(struct jm *m)
{
	struct em *e = m->e;
	const int32_t sz = (int32_t)sizeof(struct uarch_xc);
	mov_ri(e, RSI, (uint64_t)(uintptr_t)m->xc);
	op_mem(e, 0, 1, 0, 0x3b, RAX, RSI, -1, 0, 2 * sz + XC(sin));
	uint8_t *at2 = jcc8(e, CC_E);
	op_mem(e, 0, 1, 0, 0x3b, RAX, RSI, -1, 0, 3 * sz + XC(sin));
	uint8_t *none = jcc32(e, CC_NE);
	xc_io(e, 0, 3 * sz, 0, RAX);             /* xmm0:1, rax = xc[3], xc[2] one down */
	xc_move(e, 2 * sz, 3 * sz);
	uint8_t *down = jmp8(e);
	patch8(at2, e->p);
	xc_io(e, 0, 2 * sz, 0, RAX);             /* xmm0:1, rax = xc[2] */
	patch8(down, e->p);
	xc_move(e, sz, 2 * sz);                  /* xc[1] and xc[0] one down */
	xc_move(e, 0, sz);
	xc_io(e, 1, 0, 0, RAX);                  /* xc[0] = the state's */
	replay(m);
	patch32(jmp32(e), m->cont);
	patch32(none, e->p);
}

/* xc_rest() found none, the state in rax: the way out's record for it
 * in u->xt (block.c keeps every record it makes there), replayed, going
 * on at cont; else on past this code. The slot is uarch_xt_slot()'s. */
static void xt_look(struct jm *m)
{
	struct em *e = m->e;
	if (!m->u->xt)
		return;
	const unsigned way = m->xc == m->ub->xc[1];
	const uint64_t id = uarch_xt_id(m->ub, way);
	_Static_assert(sizeof(struct uarch_xt) == 64, "an entry is 1 << 6 bytes");
	mov_ri(e, RCX, id * UARCH_XT_MIX);
	alu_rr(e, 1, G1_XOR, RCX, RAX);
	mov_ri(e, RSI, UARCH_XT_MUL);
	imul_rr(e, 1, RCX, RSI);
	shift_ri(e, 1, SH_SHR, RCX, 64 - UARCH_XT_BITS);
	shift_ri(e, 1, SH_SHL, RCX, 6);
	const int32_t x = (int32_t)offsetof(struct uarch_xt, x);
	mov_ri(e, RSI, (uint64_t)(uintptr_t)m->u->xt + (uint64_t)x);
	alu_rr(e, 1, G1_ADD, RSI, RCX);                           /* rsi = &entry.x */
	op_mem(e, 0, 1, 0, 0x3b, RAX, RSI, -1, 0, XC(sin));
	uint8_t *other = jcc32(e, CC_NE);
	mov_ri(e, RCX, id);
	op_mem(e, 0, 1, 0, 0x3b, RCX, RSI, -1, 0, (int32_t)offsetof(struct uarch_xt, id) - x);
	uint8_t *other2 = jcc32(e, CC_NE);
	replay(m);
	patch32(jmp32(e), m->cont);
	patch32(other, e->p);
	patch32(other2, e->p);
}

uintptr_t jm_base(const struct uarch *u)
{
	return (uintptr_t)u + BIAS;
}

int jm_ok(const struct uarch *u, const struct uarch_block *ub)
{
	if (!u || !ub->n || !ub->tag ||
	    (u->bp.ind_entries & (u->bp.ind_entries - 1)) ||           /* indexed by a mask */
	    3 * (uint64_t)(u->bp.btb_set_mask + 1) * u->bp.btb_ways * 8 > INT32_MAX)   /* by a disp32 */
		return 0;
	/* nothing uncached (translated code leaves device accesses to the
	 * step loop); untranslated (system mode, the MMU off: no TLB
	 * lookups) all of it or none */
	const unsigned bare = UARCH_RF_BARE_FETCH | UARCH_RF_BARE_DATA;
	for (uint32_t k = 0; k < ub->n; k++)
		if ((ub->r[k].flags & UARCH_RF_UNCACHED) ||
		    (ub->r[k].flags & bare) != (ub->r[0].flags & bare) ||
		    (ub->r[k].flags & bare && (ub->r[k].flags & bare) != bare))
			return 0;
	return 1;
}

/* whether instructions pk and k (after it) address from the same base
 * register, none of pk..k-1 writing it */
static int same_base(const struct retire_rec *r, unsigned pk, unsigned k)
{
	if (r[pk].rs1 != r[k].rs1)
		return 0;
	for (unsigned j = pk; j < k; j++)
		if (r[j].rd == r[k].rs1 && r[k].rs1)
			return 0;
	return 1;
}

void jm_begin(struct jm *m, struct em *e, struct em *cold, const struct uarch *u, uint64_t uev,
	      struct uarch_block *ub, struct jm_hints *hints)
{
	m->e = m->hot = e;
	m->cold = cold;
	m->u = u;
	m->uev = uev;
	m->ub = ub;
	m->hints = hints;
	m->bare = (ub->r[0].flags & UARCH_RF_BARE_FETCH) != 0;   /* jm_ok(): all of it */
	m->nlook = 0;
	m->nbtb = 0;
	m->nstamp = 0;
	op_mem(e, 0, 1, 0, 0x8b, BASE, MB, -1, 0, U(lru_clock));   /* the stamps' base */
	const struct retire_rec *r = ub->r;
	/* op 0, the first fetch: only when the last instruction before ended
	 * in another fetch block, or a redirect came between. Else that block
	 * is the one ITLB and L1I touched last (SFENCE.VMA and FENCE.I
	 * forget the block), so the lookups hit changing nothing: they are made all the same,
	 * without a branch that would follow the guest's, and r14 = 0 counts
	 * none of it (when their events are counted at all). */
	if (uev >> UARCH_EV_ITLB_ACCESS & 1 || uev >> UARCH_EV_L1I_ACCESS & 1) {
		xor_zero(e, R14);
		cmp_mi(e, U(fetch_line), r->fetch_pa >> u->fetch_shift);
		setcc(e, CC_NE, R14);
	}
	fetch(m, r, 0, 0, R14);
	for (unsigned i = 1; i < ub->nops; i++) {
		unsigned k = ub->ops[i] >> 2, kind = ub->ops[i] & 3;
		const unsigned pk = ub->ops[i - 1] >> 2, pkind = ub->ops[i - 1] & 3;
		if (kind == UARCH_OP_LOAD || kind == UARCH_OP_STORE) {
			/* one line as the access before it: likely when from
			 * the same base */
			if ((pkind == UARCH_OP_STORE || (pkind == UARCH_OP_LOAD && kind == UARCH_OP_LOAD)) &&
			    same_base(r, pk, k))
				data_after(m, k, pk, kind == UARCH_OP_STORE, i);
			else
				data(m, k, kind == UARCH_OP_STORE, i);
			if (m->cross >> k & 1)
				cross(m, k, i);
		} else
			fetch(m, &r[k], kind == UARCH_OP_FETCH2 ? (r[k].ilen ? r[k].ilen : 4u) - 1 : 0, i, -1);
	}
	/* its branches and jumps before the last, which it went on past:
	 * their predictions come before the last one's, which both ways out
	 * make */
	for (unsigned i = 0; i < ub->nib; i++) {
		const struct retire_rec *x = &r[ub->ib[i]];
		if (x->cls == UARCH_CLS_JAL)
			jm_jal(m, x, x[1].pc, (int)i);
		else
			jm_branch(m, x, x->pc + (x->ilen ? x->ilen : 4), 0, (int)i);
	}
	m->nbtb0 = m->nbtb;
	m->nstamp0 = m->nstamp;
}

void jm_exit(struct jm *m, uint64_t next, int next_in_pc, int taken)
{
	struct em *e = m->e;
	const struct uarch_block *ub = m->ub;
	const struct retire_rec *l = &ub->r[ub->n - 1];
	m->next = next;
	m->next_in_pc = next_in_pc;
	m->taken = taken;
	m->nbtb = m->nbtb0;
	m->nstamp = m->nstamp0;
	const int jump = l->cls == UARCH_CLS_JAL || l->cls == UARCH_CLS_JALR;
	const int redirect = jump || taken || next_in_pc || next != l->pc + (l->ilen ? l->ilen : 4);
	const uint64_t line = redirect ? UARCH_NO_LINE
				       : (l->fetch_pa + (l->ilen ? l->ilen : 4) - 1) >> m->u->fetch_shift;
	if (line == (uint64_t)(int32_t)line) {
		op_mem(e, 0, 1, 0, 0xc7, 0, MB, -1, 0, U(fetch_line));   /* mov qword [], imm32 */
		d4(e, (uint32_t)line);
	} else {
		mov_ri(e, RAX, line);
		op_mem(e, 0, 1, 0, 0x89, RAX, MB, -1, 0, U(fetch_line));
	}
	switch (l->cls) {
	case UARCH_CLS_BRANCH:
		jm_branch(m, l, next, taken, -1);
		break;
	case UARCH_CLS_JAL:
		jm_jal(m, l, next, -1);
		break;
	case UARCH_CLS_JALR:
		jm_jalr(m, l);
		break;
	default:
		jm_right(e);   /* no control transfer */
		break;
	}
	jm_stamp_sync(m, m->nstamp, 0);   /* the clock past the block's stamps */
	const unsigned way = l->cls == UARCH_CLS_BRANCH && taken;   /* xc[], xm[] */
	m->xc = ub->xc[way];
	m->xm = ub->xm[way];
	timing(m, m->xc);
	m->cont = e->p;
}

void jm_exit_stubs(struct jm *m)
{
	struct em *e = m->e = m->cold;
	/* timing()'s pointer to xc[1], where no code runs */
	while ((uintptr_t)e->p & 7)
		b1(e, 0xcc);
	const int32_t rel = (int32_t)(e->p - (m->xc1_at + 4));
	memcpy(m->xc1_at, &rel, 4);
	d8(e, (uint64_t)(uintptr_t)(m->xc + 1));
	for (unsigned i = m->nbtb0; i < m->nbtb; i++)
		jm_btb_stub(m, i);
	m->nbtb = m->nbtb0;
	patch32(m->resume_at, e->p);
	/* after a miss (tm.skey 0) no uarch_xc is the state's: to the xm */
	op_mem(e, 0, 0, 0, 0x83, G1_CMP, MB, -1, 0, U(jmiss.n));
	b1(e, 0);
	uint8_t *missed = jcc32(e, CC_NE);
	xc_rest(m);
	xt_look(m);
	patch32(missed, e->p);
	/* after one or two misses, the replay of an xm of the way out's when
	 * it is those misses' from the same state (uarch_block_slow() kept
	 * it in jskey): rdx, rdi = the misses' words, 0 past the second */
	op_mem(e, 0, 0, 0, 0x8b, RCX, MB, -1, 0, U(jmiss.n));
	op_mem(e, 0, 0, 0, 0x8d, RDX, RCX, -1, 0, -2);           /* lea edx, [rcx-2] */
	alu_ri(e, 0, G1_AND, RDX, ~2);
	uint8_t *none = jcc32(e, CC_NE);                           /* n is neither 2 nor 4 */
	op_mem(e, 0, 1, 0, 0x8b, RDX, MB, -1, 0, U(jmiss.m));     /* m[0] | m[1] << 32 */
	xor_zero(e, RDI);
	alu_ri(e, 0, G1_CMP, RCX, 4);
	op_mem(e, 0, 1, 1, 0x44, RDI, MB, -1, 0, U(jmiss.m) + 8); /* cmove rdi, m[2] | m[3] << 32 */
	state_key(m, U(jskey));
	mov_ri(e, RSI, (uint64_t)(uintptr_t)m->xm);
	for (unsigned i = 0; i < UARCH_XM; i++) {   /* a mismatch tries the next */
		const int32_t at = (int32_t)(i * sizeof(struct uarch_xm));
		const int32_t mw = at + (int32_t)offsetof(struct uarch_xm, m);
		const int32_t mf = (int32_t)offsetof(struct uarch_xm, min);
		const int32_t mo = (int32_t)offsetof(struct uarch_xm, mout);
		const int32_t ms = (int32_t)offsetof(struct uarch_xm, still);
		uint8_t *other[5];
		op_mem(e, 0, 1, 0, 0x3b, RAX, RSI, -1, 0, at + XC(sin));
		other[0] = jcc32(e, CC_NE);
		op_mem(e, 0, 1, 0, 0x3b, RDX, RSI, -1, 0, mw);
		other[1] = jcc32(e, CC_NE);
		op_mem(e, 0, 1, 0, 0x3b, RDI, RSI, -1, 0, mw + 8);
		other[2] = jcc32(e, CC_NE);
		/* misses the memory system times: from its form min only, a
		 * still one (mstate.c): the form left last, or the one that
		 * becomes once its times passed */
		op_mem(e, 0, 0, 0, 0x8b, RCX, RSI, -1, 0, at + mf);
		op_rr(e, 0, 0x85, RCX, RCX);                               /* test ecx, ecx */
		uint8_t *untimed = jcc8(e, CC_E);
		op_mem(e, 0, 0, 0, 0x3b, RCX, MB, -1, 0, U(tm.mform));
		uint8_t *same = jcc8(e, CC_E);
		op_mem(e, 0, 0, 0, 0x3b, RCX, MB, -1, 0, U(tm.mform_still));
		other[3] = jcc32(e, CC_NE);
		op_mem(e, 0, 0, 0, 0x8b, RCX, MB, -1, 0, U(tm.mform_hold));   /* zero-extended */
		op_mem(e, 0, 1, 0, 0x03, RCX, MB, -1, 0, U(tm.mform_at));
		op_mem(e, 0, 1, 0, 0x3b, RCX, MB, -1, 0, U(tm.now));
		other[4] = jcc32(e, CC_A);                                 /* not yet */
		patch8(untimed, e->p);
		patch8(same, e->p);
		if (i)
			alu_ri(e, 1, G1_ADD, RSI, at);
		replay(m);
		/* leaving form mout at the new now (mstate_apply()) */
		op_mem(e, 0, 0, 0, 0x8b, RCX, RSI, -1, 0, mo);
		op_rr(e, 0, 0x85, RCX, RCX);
		untimed = jcc8(e, CC_E);
		op_mem(e, 0, 0, 0, 0x89, RCX, MB, -1, 0, U(tm.mform));
		op_mem(e, 0, 1, 0, 0x8b, RAX, MB, -1, 0, U(tm.now));
		op_mem(e, 0, 1, 0, 0x89, RAX, MB, -1, 0, U(tm.mform_at));
		_Static_assert(offsetof(struct uarch_xm, hold) == offsetof(struct uarch_xm, still) + 4 &&
			       offsetof(struct uarch_timing, mform_hold) ==
			       offsetof(struct uarch_timing, mform_still) + 4, "still and hold as one word");
		op_mem(e, 0, 1, 0, 0x8b, RCX, RSI, -1, 0, ms);
		op_mem(e, 0, 1, 0, 0x89, RCX, MB, -1, 0, U(tm.mform_still));
		patch8(untimed, e->p);
		_Static_assert(offsetof(struct uarch_misses, op) == 4, "n and op clear as one");
		op_mem(e, 0, 1, 0, 0xc7, 0, MB, -1, 0, U(jmiss));       /* jmiss.n = op = 0 */
		d4(e, 0);
		patch32(jmp32(e), m->cont);
		for (unsigned k = 0; k < 5; k++)
			patch32(other[k], e->p);
	}
	patch32(none, e->p);
	/* else uarch_block_resume(), the predictor done: its penalty in r14d,
	 * the UARCH_IB bits in r13d */
	mov_rr32(e, R8, R14);
	if (m->ub->nib)
		alu_rr(e, 0, G1_OR, R8, R13);
	op_mem(e, 0, 1, 0, 0x8d, RDI, MB, -1, 0, -BIAS);          /* lea rdi, [u] */
	mov_ri(e, RSI, (uint64_t)(uintptr_t)m->ub);
	if (m->next_in_pc)
		op_mem(e, 0, 1, 0, 0x8b, RDX, RBX, -1, 0, HART(pc));
	else
		mov_ri(e, RDX, m->next);
	mov_ri(e, RCX, (uint64_t)m->taken);
	mov_ri(e, RAX, (uint64_t)(uintptr_t)uarch_block_resume);
	b1(e, 0xff); b1(e, 0xd0);                                        /* call rax */
	patch32(jmp32(e), m->cont);
	m->e = m->hot;
}

void jm_end(struct jm *m)
{
	m->e = m->cold;
	for (unsigned i = 0; i < m->nlook; i++) {
		const struct jm_stub *s = &m->look[i];
		uint8_t **sub = &m->hints->sub[s->k][s->write];
		if (!*sub) {
			struct em se = { m->hints->sub_free };
			m->e = &se;
			*sub = se.p;
			lookup_sub(m, s->cache, s->write);
			if (se.p > m->hints->sub_end)
				abort();   /* SUB_ROOM is too small: blocks' code overwritten */
			m->hints->sub_free = se.p;
			jit_perf_map_sub(*sub, (size_t)(se.p - *sub), s->k, s->write);
			m->e = m->cold;
		}
	}
	for (unsigned i = 0; i < m->nlook; i++) {
		const struct jm_stub *s = &m->look[i];
		patch32(s->at, m->e->p);
		lookup_stub(m, s, m->hints->sub[s->k][s->write]);
	}
	m->nlook = 0;
	for (unsigned i = 0; i < m->nbtb0; i++)
		jm_btb_stub(m, i);
	m->e = m->hot;
}
