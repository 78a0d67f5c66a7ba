/* The step loop: decode once per instruction address into a per-page
 * cache, then dispatch with computed goto. One decrement-and-branch per
 * instruction counts retirement; everything else is out of the hot path. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/hart.h"
#include "csr.h"
#include "fp_insns.h"
#include "jit.h"
#include "mmu.h"
#include "pmp.h"
#include "retire.h"
#include "rvpmu/ctr.h"
#include "rvpmu/profile.h"
#include "trap.h"
#include "hyp.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

enum { OP_PAGE_END = INSN_COUNT };  /* sentinel slots past a page's end */

/* Everything of hart_init but the memory. */
static void hart_init_state(struct hart *h)
{
	memset(h, 0, sizeof(*h));
	retire_init();   /* the per-instruction tables the counting variant reads */
	h->resv_addr = ~0ull;
	h->time_hz = 10000000;      /* 10 MHz timebase, as QEMU virt */
	h->insn_hz = 1000000000;    /* 1 instruction per ns until a timing model */
	/* User mode: the program runs in U with every counter readable, as
	 * qemu-user allows; system mode resets this (hart_reset_system). */
	struct pmu_config cfg;
	pmu_config_default(&cfg);
	hart_pmu_init(h, &cfg);
	uint64_t old;
	pmu_csr_access(&h->pmu, PRIV_M, PMU_CSR_MCOUNTEREN, PMU_CSR_WRITE, ~0ull, 1, &old, NULL);
	pmu_csr_access(&h->pmu, PRIV_M, PMU_CSR_SCOUNTEREN, PMU_CSR_WRITE, ~0ull, 1, &old, NULL);
	h->priv = PRIV_U;
}

int hart_init(struct hart *h)
{
	hart_init_state(h);
	return gmem_init(&h->mem);
}

void hart_init_sharing(struct hart *h, struct hart *owner)
{
	hart_init_state(h);
	h->mem = owner->mem;
	h->mem_borrowed = 1;
	h->sharer = owner->sharer ? owner->sharer : owner;
	owner->sharer = h;
}

void hart_free(struct hart *h)
{
	for (int i = 0; i < DCACHE_SIZE; i++)
		free(h->dcache[i]);
	jit_free(h->jit);
	h->jit = NULL;
	free(h->jprof);
	h->jprof = NULL;
	if (!h->mem_borrowed)
		gmem_free(&h->mem);
}

/* Every hart of h's memory, h first. */
#define FOR_SHARERS(s, h) for (struct hart *s = (h); s; s = s->sharer == (h) ? NULL : s->sharer)

uint64_t hart_time(const struct hart *h)
{
	return (uint64_t)((unsigned __int128)h->instret * h->time_hz / h->insn_hz) + h->time_offset;
}

/* Does page p hold translated blocks now? */
static int has_blocks(const struct hart *h, const struct dpage *p)
{
	return h->jit && p->jit_gen == jit_generation(h->jit);
}

/* Translated blocks may hold the page's code or slots: they go too. */
static void dpage_clear(struct hart *h, struct dpage *p)
{
	if (has_blocks(h, p))
		jit_flush(h->jit);
	memset(p->s, 0, sizeof(p->s));  /* handler 0: decode on first use */
	p->s[DPAGE_SLOTS].id = p->s[DPAGE_SLOTS + 1].id = OP_PAGE_END;
	p->live = 0;
	p->jit_gen = ~0ull;
}

static struct dpage *dpage_of(const struct hart *h, uint64_t vpn)
{
	struct dpage *p = h->dcache[vpn % DCACHE_SIZE];
	return p && p->vpn == vpn ? p : NULL;
}

/* Drop slot d's instruction, if decoded. Only its handler and id are
 * reset: an instruction whose slot goes while it runs (it wrote its own
 * bytes, or a page walk for its access did) completes with the operands
 * it was decoded with, and the step loop decodes afresh next time. */
static void slot_drop(struct dpage *p, struct dinsn *d)
{
	if (d->id) {
		d->id = INSN_NONE;
		d->handler = 0;
		p->live--;
	}
}

/* The 4-byte instruction decoded at the end of page prev, which reads the
 * next page's first two bytes; NULL if none. */
static struct dinsn *straddler(struct dpage *prev)
{
	struct dinsn *d = prev ? &prev->s[DPAGE_SLOTS - 1] : NULL;
	return d && d->id && d->len == 4 ? d : NULL;
}

/* Bytes [lo, hi) of page vpn changed: h drops what it decoded from them
 * (what was decoded from the rest stays). Translated blocks go when
 * their instructions overlap; when the guest wrote them (guest), the
 * page is not translated again: code that rewrites itself would be
 * translated and flushed at each change, far slower than the step loop.
 * Returns whether h still has code decoded from the page. */
static int page_changed(struct hart *h, uint64_t vpn, unsigned lo, unsigned hi, int guest)
{
	struct dpage *p = dpage_of(h, vpn), *prev = vpn ? dpage_of(h, vpn - 1) : NULL;
	struct dinsn *d = straddler(prev);
	if (d && lo < 2)
		slot_drop(prev, d);
	if (p) {
		if (has_blocks(h, p) && lo < p->jit_hi && hi > p->jit_lo) {
			jit_flush(h->jit);
			p->no_jit |= (uint8_t)guest;
		}
		/* a 4-byte instruction may start 2 bytes before lo */
		for (unsigned o = lo >= 2 ? (lo & ~1u) - 2 : 0; o < hi; o += 2)
			slot_drop(p, &p->s[o >> 1]);
	}
	return (p && (p->live || has_blocks(h, p))) || straddler(prev);
}

/* Every hart sharing the memory drops what it decoded from bytes [lo,
 * hi) of page vpn: a store by one hart reaches the others' instruction
 * fetches at once (more than the ISA asks, which leaves remote harts to
 * FENCE.I or SBI remote fences). */
static void range_changed(struct hart *h, uint64_t vpn, unsigned lo, unsigned hi, int guest)
{
	int held = 0;
	FOR_SHARERS(s, h)
		held |= page_changed(s, vpn, lo, hi, guest);
	/* nothing decoded reads the page: its stores take the fast path */
	if (!held)
		h->mem.pflags[vpn] &= (uint8_t)~GP_CODE;
}

/* [a, a + n) changed; guest: the hart wrote it, so only pages marked
 * GP_CODE can hold anything decoded from it (the host's changes to the
 * memory map may have reset the bit). */
static void code_changed(struct hart *h, uint64_t a, uint64_t n, int guest)
{
	if (!n || a >= h->mem.size)
		return;
	if (n > h->mem.size - a)
		n = h->mem.size - a;
	uint64_t first = a >> GPAGE_SHIFT, last = (a + n - 1) >> GPAGE_SHIFT;
	if (last - first >= DCACHE_SIZE) {  /* a large range: the pages cached */
		FOR_SHARERS(s, h)
			for (int i = 0; i < DCACHE_SIZE; i++) {
				struct dpage *p = s->dcache[i];
				if (p && p->vpn >= first && p->vpn <= last)
					range_changed(h, p->vpn, 0, GPAGE_SIZE, guest);
			}
		range_changed(h, first, 0, GPAGE_SIZE, guest);  /* the page before's straddler */
		return;
	}
	for (uint64_t v = first; v <= last; v++)
		if (!guest || (h->mem.pflags[v] & GP_CODE))
			range_changed(h, v, v == first ? (unsigned)(a & (GPAGE_SIZE - 1)) : 0,
				      v == last ? (unsigned)((a + n - 1) & (GPAGE_SIZE - 1)) + 1 : GPAGE_SIZE, guest);
}

void hart_invalidate_code(struct hart *h, uint64_t addr, uint64_t len)
{
	code_changed(h, addr, len, 0);
}

void hart_code_written(struct hart *h, uint64_t addr, uint64_t len)
{
	code_changed(h, addr, len, 1);
}

void hart_switch_mem(struct hart *h, const struct gmem *m)
{
	if (h->mem.base == m->base)
		return;
	/* every translated block goes, once: the pages below then hold none
	 * (was a flush for the first page with blocks and one more here) */
	if (h->jit)
		jit_flush(h->jit);
	for (int i = 0; i < DCACHE_SIZE; i++)
		if (h->dcache[i]) {
			dpage_clear(h, h->dcache[i]);
			h->dcache[i]->vpn = ~0ull;
		}
	hart_sfence_vma(h);
	h->mem = *m;
	h->resv_addr = ~0ull;
}

/* A translated block was made in page p */
static void dpage_add_block(struct hart *h, struct dpage *p, const struct jit_block *b)
{
	uint64_t gen = jit_generation(h->jit);
	if (p->jit_gen != gen) {
		p->jit_gen = gen;
		p->jit_lo = b->lo;
		p->jit_hi = b->hi;
	}
	p->jit_lo = b->lo < p->jit_lo ? b->lo : p->jit_lo;
	p->jit_hi = b->hi > p->jit_hi ? b->hi : p->jit_hi;
}

void hart_jit_stats(const struct hart *h, struct hart_jit_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (h->jit)
		jit_stats(h->jit, s);
}

/* Must fetches from the page at pa be checked by PMP parcel by parcel?
 * Not when PMP lets this privilege execute the whole page. */
static int fetch_pmp_partial(const struct hart *h, uint64_t pa)
{
	if (!h->system)
		return 0;
	if (h->priv == PRIV_M)
		return h->pmp_locked;
	return !(h->mem.pflags[pa >> GPAGE_SHIFT] & PMP_PAGE_X);
}

/* PMP on a fetch of the 2-byte parcel at physical pa. */
static int fetch_refused(const struct hart *h, uint64_t pa)
{
	return fetch_pmp_partial(h, pa) && pmp_check(h, pa, 2, MMU_FETCH, h->priv) != 0;
}

/* The decoded page holding pc (cached by physical page), or NULL with
 * h->cause and h->tval set when pc cannot be fetched. */
static struct dpage *dpage_get(struct hart *h, uint64_t pc)
{
	uint64_t pa = pc;
	if (h->vm_fetch) {
		int c = mmu_translate(h, &pa, MMU_FETCH, hart_mode(h));
		if (c) {
			h->cause = (uint64_t)c;
			h->tval = pc;
			return NULL;
		}
	}
	uint64_t vpn = pa >> GPAGE_SHIFT;
	if (pa >= h->mem.size || (!(h->mem.pflags[vpn] & GP_X) && !gmem_touch(&h->mem, pa, GP_X)) ||
	    fetch_refused(h, pa)) {
		h->cause = h->system ? CAUSE_FETCH_ACCESS : CAUSE_FETCH_PAGE_FAULT;
		h->tval = pc;
		return NULL;
	}
	struct dpage **slot = &h->dcache[vpn % DCACHE_SIZE], *p = *slot;
	/* a page only partly executable is decoded afresh on each entry, so
	 * fetch() checks every instruction this visit runs */
	if (p && p->vpn == vpn && !fetch_pmp_partial(h, pa))
		return p;
	if (!p) {
		p = malloc(sizeof(*p));
		if (!p)
			abort();
		p->vpn = ~0ull;
		p->jit_gen = ~0ull;
		*slot = p;
	}
	dpage_clear(h, p);
	if (p->vpn != vpn)
		p->no_jit = 0;
	p->vpn = vpn;
	return p;
}

/* Fetch the instruction at pc, whose first half lies in the decoded page
 * pg (physical page pg->vpn). */
static int fetch(struct hart *h, const struct dpage *pg, uint64_t pc, uint32_t *raw)
{
	uint16_t lo;
	uint64_t pa = (pg->vpn << GPAGE_SHIFT) + (pc & (GPAGE_SIZE - 1));
	if (fetch_refused(h, pa)) {
		h->cause = CAUSE_FETCH_ACCESS;
		h->tval = pc;
		return -1;
	}
	memcpy(&lo, h->mem.base + pa, 2);
	*raw = lo;
	if (insn_length(lo) == 2)
		return 0;
	uint64_t hi_addr = pc + 2;
	if ((hi_addr & (GPAGE_SIZE - 1)) == 0 && h->vm_fetch) {
		int c = mmu_translate(h, &hi_addr, MMU_FETCH, hart_mode(h));
		if (c) {
			h->cause = (uint64_t)c;
			h->tval = pc + 2;
			return -1;
		}
	} else if ((hi_addr & (GPAGE_SIZE - 1)) != 0) {
		hi_addr = pa + 2;
		if (fetch_refused(h, hi_addr)) {
			h->cause = CAUSE_FETCH_ACCESS;
			h->tval = pc + 2;
			return -1;
		}
	}
	if ((hi_addr & (GPAGE_SIZE - 1)) == 0) {
		uint8_t *f = &h->mem.pflags[hi_addr >> GPAGE_SHIFT];
		if (hi_addr >= h->mem.size || (!(*f & GP_X) && !gmem_touch(&h->mem, hi_addr, GP_X)) ||
		    fetch_refused(h, hi_addr)) {
			h->cause = h->system ? CAUSE_FETCH_ACCESS : CAUSE_FETCH_PAGE_FAULT;
			h->tval = hi_addr;
			return -1;
		}
		*f |= GP_CODE;
	}
	uint16_t hi;
	memcpy(&hi, h->mem.base + hi_addr, 2);
	*raw |= (uint32_t)hi << 16;
	return 0;
}

/* Misaligned or otherwise unusual accesses. Linux user mode completes
 * misaligned accesses, so they succeed when every byte is accessible. */
/* System mode: does PMP refuse this load or store (physical address)? */
static int pmp_refuses(const struct hart *h, uint64_t a, unsigned size, enum mmu_access acc)
{
	return h->system && pmp_check(h, a, size, acc, mmu_data_priv(h));
}

/* The slow load at physical a (virtual va, for mtval). */
static int load_slow(struct hart *h, uint64_t a, uint64_t va, unsigned size, uint64_t *v)
{
	*v = 0;
	if (h->misaligned_trap && (a & (size - 1))) {
		h->cause = CAUSE_MISALIGNED_LOAD;
		h->tval = va;
		return -1;
	}
	if (pmp_refuses(h, a, size, MMU_LOAD)) {
		h->cause = CAUSE_LOAD_ACCESS;
		h->tval = va;
		return -1;
	}
	if (!gmem_read(&h->mem, a, v, size))
		return 0;
	/* system mode: a device, or an access fault (no MMU yet) */
	if (h->system && h->mmio && !h->mmio(h->mmio_ctx, a, size, v, 0)) {
		h->evc[PROF_EV_MMIO_ACCESS]++;
		h->rr.flags |= UARCH_RF_UNCACHED;  /* the models skip the caches */
		return 0;
	}
	h->cause = h->system ? CAUSE_LOAD_ACCESS : CAUSE_LOAD_PAGE_FAULT;
	h->tval = va;
	return -1;
}

/* Returns -1 on a fault, 1 after a device write (which may change
 * interrupts: the run ends), else 0. */
static int store_slow(struct hart *h, uint64_t a, uint64_t va, unsigned size, uint64_t v)
{
	if (h->misaligned_trap && (a & (size - 1))) {
		h->cause = CAUSE_MISALIGNED_STORE;
		h->tval = va;
		return -1;
	}
	if (pmp_refuses(h, a, size, MMU_STORE)) {
		h->cause = CAUSE_STORE_ACCESS;
		h->tval = va;
		return -1;
	}
	if (!gmem_write(&h->mem, a, &v, size)) {
		hart_code_written(h, a, size);
		return 0;
	}
	if (h->system && h->mmio && !h->mmio(h->mmio_ctx, a, size, &v, 1)) {
		h->evc[PROF_EV_MMIO_ACCESS]++;
		h->rr.flags |= UARCH_RF_UNCACHED;
		return 1;
	}
	h->cause = h->system ? CAUSE_STORE_ACCESS : CAUSE_STORE_PAGE_FAULT;
	h->tval = va;
	return -1;
}

/* Host address for an AMO/LR/SC (A chapter: misaligned is an exception). */
static void *amo_ptr(struct hart *h, uint64_t a, unsigned size, int need_write)
{
	if (a & (size - 1)) {
		h->cause = need_write ? CAUSE_MISALIGNED_STORE : CAUSE_MISALIGNED_LOAD;
		h->tval = a;
		return NULL;
	}
	if (h->vm_data) {
		uint64_t va = a;
		int c = mmu_translate(h, &a, need_write ? MMU_STORE : MMU_LOAD, mmu_data_mode(h));
		if (c) {
			h->cause = (uint64_t)c;
			h->tval = va;
			return NULL;
		}
		h->rr.paddr = a;  /* for the models */
	}
	unsigned need = need_write ? GP_R | GP_W : GP_R;
	if (!gmem_check(&h->mem, a, size, need) ||
	    pmp_refuses(h, a, size, need_write ? MMU_STORE : MMU_LOAD)) {
		h->cause = need_write ? (h->system ? CAUSE_STORE_ACCESS : CAUSE_STORE_PAGE_FAULT)
				      : (h->system ? CAUSE_LOAD_ACCESS : CAUSE_LOAD_PAGE_FAULT);
		h->tval = a;
		return NULL;
	}
	if (need_write && (h->mem.pflags[a >> GPAGE_SHIFT] & GP_CODE))
		hart_code_written(h, a, size);  /* before the write: nothing decodes in between */
	return h->mem.base + a;
}

static int64_t mulh(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
static uint64_t mulhu(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static int64_t mulhsu(int64_t a, uint64_t b) { return (int64_t)(((__int128)a * (__int128)b) >> 64); }

static uint64_t rev8(uint64_t v) { return __builtin_bswap64(v); }
static uint64_t orc_b(uint64_t v)
{
	uint64_t r = 0;
	for (int i = 0; i < 64; i += 8)
		if ((v >> i) & 0xff)
			r |= 0xffull << i;
	return r;
}

enum hart_stop hart_run(struct hart *h, uint64_t budget_in)
{
	/* Handler addresses as offsets from do_NONE, so that a zeroed cache
	 * slot means "not decoded yet". */
#define L(name) (int32_t)(&&do_##name - &&do_NONE)
	static const int32_t handlers[INSN_COUNT][2] = {  /* [id][len == 4] */
		[INSN_NONE] = {0, 0},
		[INSN_ILLEGAL] = {L(ILLEGAL), L(ILLEGAL)},
#define X(id, name, match, mask, fmt) [INSN_##id] = {L(id##_2), L(id##_4)},
		INSN_LIST(X)
#undef X
	};
	/* The counting variant of each handler, used while a counter is
	 * programmed with an instruction-class event (decode stays shared). */
	static const int32_t handlers_ev[INSN_COUNT + 1] = {
		[INSN_NONE] = 0,
		[INSN_ILLEGAL] = L(ILLEGAL),
#define X(id, name, match, mask, fmt) [INSN_##id] = L(id##_ev),
		INSN_LIST(X)
#undef X
		[OP_PAGE_END] = 0,
	};
	const int32_t jit_handler = L(JIT);
#undef L
	/* the models see every instruction: cycles come from their timing */
	h->ctr_on = h->ctr && ctr_enabled(h->ctr);
	/* fetches translated from now on, or no longer: the next fetch is a
	 * new block, looked up in the ITLB as it now is (or not at all) */
	const uint8_t vm_fetch = (uint8_t)mmu_fetch_on(h);
	if (h->uarch && vm_fetch != h->vm_fetch)
		uarch_redirect(h->uarch);
	h->vm_fetch = vm_fetch;
	h->vm_data = (uint8_t)mmu_data_on(h);
	/* system mode without translation: the model TLBs are not consulted */
	h->rr_bare = (uint8_t)(h->system ? (h->vm_fetch ? 0 : UARCH_RF_BARE_FETCH) |
				     (h->vm_data ? 0 : UARCH_RF_BARE_DATA) : 0);
#ifdef RVPMU_NO_PMU  /* the bench's baseline: no counting at all */
	const pmu_evset in_use = 0;
	const pmu_evset class_events = (h->uarch != NULL) | h->ctr_on | h->vm_fetch | h->vm_data |
		(h->trace != NULL);
#else
	const pmu_evset in_use = pmu_events_in_use(&h->pmu, hart_mode(h)) | h->observed;
	const pmu_evset class_events = (in_use &
		~(PMU_EV_BIT(PMU_EV_CYCLES) | PMU_EV_BIT(PMU_EV_INSTRET))) |
		(h->uarch != NULL) | h->ctr_on | h->vm_fetch | h->vm_data | (h->trace != NULL);
#endif
	/* below M in system mode, a page's PMP summary bits let an access take
	 * the fast path; with a locked PMP entry every M access is checked */
	const int pmp_below_m = h->system && mmu_data_priv(h) < PRIV_M;
	const uint8_t rmask = pmp_below_m ? PMP_PAGE_R : GP_R;
	const uint8_t wmask = pmp_below_m ? PMP_PAGE_W : GP_W;
	const int pmp_all = h->system && h->pmp_locked && (h->priv == PRIV_M || !pmp_below_m);
	const uint64_t limit = pmp_all && !pmp_below_m ? 0 : h->mem.size;
	/* blocks are translated in user mode, and in system mode without
	 * virtualization (V=0) while PMP needs no check per access; while
	 * something counts per instruction they are counting blocks, which
	 * feed the retire stream (not CTR's nor a trace's, which stay in the
	 * step loop) */
	const int can_jit = !h->system || (!h->virt && !pmp_all);
	if (!h->jit && can_jit && !h->no_jit && !(h->jit = jit_new()))
		h->no_jit = 1;
	h->jit_classes = (class_events & ~PMU_EV_BIT(PMU_EV_NONE)) != 0;
	struct jit *const jit = !can_jit || h->ctr_on || h->trace || !h->jit ||
		!jit_set_counting(h->jit, h->uarch || h->jit_classes, h->uarch, h->jit_classes,
				  retire_observed(h, in_use)) ? NULL : h->jit;
	/* a block runs in the mode it was made for: its fetches were allowed
	 * there, its accesses are checked and translated as there, and its
	 * FP instructions need no check of mstatus.FS */
	if (jit && h->system) {
		jit_set_mode(jit, 1u | h->priv << 1 | (unsigned)pmp_below_m << 3 |
			     (unsigned)h->fp_slow << 4 | (unsigned)h->vm_fetch << 5 |
			     (unsigned)h->vm_data << 6, rmask, wmask, h->vm_data, h->vm_fetch);
		if (h->vm_data)
			h->jit_dkey = mmu_tlb_key(h, mmu_data_mode(h));
		if (h->vm_fetch)
			h->jit_fkey = mmu_tlb_key(h, hart_mode(h));
	}
	/* a cycle stop within 2^32 cycles is sampling on cycles: from then
	 * on, no superblocks (not back and forth, each change a flush) */
	if (jit && h->uarch && h->cycle_stop - h->uarch->tm.now <= UINT32_MAX)
		jit_no_superblocks(jit);
	/* the next decode must not start a block (the step loop does the
	 * access a block left for it); its slot, reset once past it */
	int jit_skip = 0;
	struct dinsn *skipped = NULL;
	/* with the models: stop once their cycles reach cstop (hart_horizon),
	 * blocks running only as far as cmax cycles per instruction allow */
	static const uint64_t no_cycles;
	const uint64_t *const cyc = h->uarch ? &h->uarch->tm.now : &no_cycles;
	const uint64_t cstop = h->uarch ? h->cycle_stop : UINT64_MAX;
	const uint64_t cmax = h->pmu.cfg.max_per_step[PMU_EV_CYCLES] ? h->pmu.cfg.max_per_step[PMU_EV_CYCLES] : 1;
	uint64_t *restrict x = h->x;
	uint64_t *restrict f = h->f;
	uint8_t *const base = h->mem.base;
	const uint8_t *const pf = h->mem.pflags;
	if (budget_in > INT64_MAX)
		budget_in = INT64_MAX;
	int64_t budget = (int64_t)budget_in;
	uint64_t pc = h->pc;
	fpu_reset_host_flags();  /* host code may have raised host flags */
	struct dpage *pg;
	struct dinsn *d;
	enum hart_stop stop = STOP_TRAP;

#define GO_FAST() goto *(&&do_NONE + d->handler)
#define GO_EV() do {                                                    \
		if (jit && d->handler == jit_handler)                   \
			goto do_JIT;                                    \
		/* a slot a flush or a skip (below) reset: a block may  \
		 * start there again */                                 \
		if (jit && unlikely(d->handler == 0))                   \
			goto do_NONE;                                   \
		GO_EV_STEP();                                           \
	} while (0)
#define GO_EV_STEP() do {                                               \
		h->evc[retire_refine[d->id]]++;  /* undone if it traps */ \
		if (unlikely(h->jprof))                                 \
			h->jprof->step[d->id]++;                        \
		if (h->uarch || h->ctr_on || h->trace) {                \
			/* CTR's time stamps read instret mid-run */    \
			SYNC_INSTRET();                                 \
			retire_step(h, d, pc, (pg->vpn << GPAGE_SHIFT) | \
				    (pc & (GPAGE_SIZE - 1)), x);        \
			if (unlikely(*cyc >= cstop))                    \
				goto cycle_stop;                        \
		}                                                       \
		goto *(&&do_NONE + handlers_ev[d->id]);                 \
	} while (0)
#define GO() do { if (class_events) GO_EV(); GO_FAST(); } while (0)
/* run the instruction at d in the step loop, never a block from there */
#define STEP() do {                                                     \
		if (class_events)                                       \
			GO_EV_STEP();                                   \
		goto *(&&do_NONE + handlers[d->id][d->len == 4]);       \
	} while (0)
#define DISPATCH() do { if (unlikely(--budget < 0)) goto out_budget; VGO(); } while (0)
#define NEXT() do { pc += ILEN; d += ILEN / 2; DISPATCH(); } while (0)
#define OPE(name, e, expr) LBL(name): RD = (expr); EV(e); NEXT();
#define JUMP(target) do {                                               \
		uint64_t t_ = (target);                                 \
		if (likely(((t_ ^ pc) >> GPAGE_SHIFT) == 0)) {          \
			d += (int64_t)(t_ - pc) >> 1;                   \
			pc = t_;                                        \
			DISPATCH();                                     \
		}                                                       \
		pc = t_;                                                \
		goto lookup;                                            \
	} while (0)
#define TRAP(c, t) do { h->cause = (c); h->tval = (t); goto trap; } while (0)
#define RS1 x[d->rs1]
#define RS2 x[d->rs2]
#define RD  x[d->rd]
#define IMM d->imm
#define OP(name, expr) LBL(name): RD = (expr); NEXT();
#define W(v) ((uint64_t)(int64_t)(int32_t)(v))
#define MEM_PRE() do { } while (0)

/* h->instret as the instructions before this one leave it (a device
 * reads the time from it: hart_time()) */
#define SYNC_INSTRET() do {                                             \
		h->instret += budget_in - (uint64_t)budget - 1;         \
		budget_in = (uint64_t)budget + 1;                       \
	} while (0)
#define LOAD(name, T) LBL(name): {                                      \
		MEM_PRE();                                              \
		uint64_t a_ = RS1 + (uint64_t)IMM, va_ld_ = a_; T v_;  \
		XLATE(a_, MMU_LOAD, sizeof(T));                         \
		if (likely(!(a_ & (sizeof(T) - 1)) && a_ < limit && \
			   (pf[a_ >> GPAGE_SHIFT] & rmask))) {          \
			memcpy(&v_, base + a_, sizeof(T));              \
		} else {                                                \
			uint64_t t_;                                    \
			SYNC_INSTRET();  /* a device may read the time */ \
			if (load_slow(h, a_, va_ld_, sizeof(T), &t_))   \
				goto trap;                              \
			v_ = (T)t_;                                     \
		}                                                       \
		STORE_LOADED(v_);                                       \
		EV(PMU_EV_LOAD);                                        \
		NEXT();                                                 \
	}
#define STORE(name, T, val) LBL(name): {                                \
		MEM_PRE();                                              \
		uint64_t a_ = RS1 + (uint64_t)IMM, va_st_ = a_;        \
		T v_ = (T)(val);                                        \
		XLATE(a_, MMU_STORE, sizeof(T));                        \
		if (likely(!(a_ & (sizeof(T) - 1)) && a_ < limit && \
			   (pf[a_ >> GPAGE_SHIFT] & (wmask | GP_CODE)) == wmask)) { \
			memcpy(base + a_, &v_, sizeof(T));              \
			EV(PMU_EV_STORE);                               \
			NEXT();                                         \
		}                                                       \
		SYNC_INSTRET();                                         \
		int r_ = store_slow(h, a_, va_st_, sizeof(T), (uint64_t)v_); \
		if (r_ < 0)                                             \
			goto trap;                                      \
		EV(PMU_EV_STORE);                                       \
		if (r_ > 0) {                                           \
			pc += ILEN;                                     \
			stop = STOP_SYNC;                               \
			goto out;                                       \
		}                                                       \
		NEXT();                                                 \
	}

/* the physical address of pc, in page pg */
#define PC_PA() ((pg->vpn << GPAGE_SHIFT) | (pc & (GPAGE_SIZE - 1)))
/* the slot of pc, charged to the budget */
#define LOOKUP() do {                                                   \
		pg = dpage_get(h, pc);                                  \
		if (unlikely(!pg))                                      \
			goto trap_nocount;                              \
		d = &pg->s[(pc & (GPAGE_SIZE - 1)) >> 1];               \
		if (unlikely(--budget < 0))                             \
			goto out_budget;                                \
	} while (0)
lookup:
	LOOKUP();
	GO();

do_NONE: {
		if (unlikely(d->id == OP_PAGE_END)) {
			/* fell off the end of the page: continue on the next */
			pg = dpage_get(h, pc);
			if (unlikely(!pg))
				goto trap;
			d = &pg->s[(pc & (GPAGE_SIZE - 1)) >> 1];
			GO();
		}
		if (skipped && skipped != d) {
			skipped->handler = 0;
			skipped = NULL;
		}
		uint32_t raw;
		if (fetch(h, pg, pc, &raw))
			goto trap;
		if (!d->id && !pg->live++)  /* stores into the page now check */
			h->mem.pflags[pg->vpn] |= GP_CODE;
		insn_decode(raw, d);
		d->handler = handlers[d->id][d->len == 4];
		struct jit_block *b;
		if (jit && !jit_skip && !pg->no_jit &&
		    !fetch_pmp_partial(h, pg->vpn << GPAGE_SHIFT) &&
		    (b = jit_compile(jit, h, pc, PC_PA(), d, 0))) {
			d->handler = jit_handler;
			dpage_add_block(h, pg, b);
		} else if (jit && unlikely(h->jprof)) {
			h->jprof->no_jit_page += pg->no_jit != 0;
			h->jprof->untranslated += !jit_skip && !pg->no_jit;
		}
		if (jit_skip)
			skipped = d;
		jit_skip = 0;
		GO();
	}

do_JIT: {
		/* a translated block starts here; without translation in
		 * this mode (system mode with the MMU on), the instruction */
		if (unlikely(!jit))
			STEP();
		struct jit_block *b = jit_find(jit, pc, PC_PA());
		if (unlikely(!b)) {  /* cannot be: a block's slot is reset with it */
			d->handler = 0;
			goto do_NONE;
		}
		/* a slot stepped once for a side exit: a block may start
		 * there next time, so that code around it is not given back
		 * (each block that exits into a stepped slot is, in time) */
		if (skipped) {
			skipped->handler = 0;
			skipped = NULL;
		}
		if (class_events)   /* the step loop's last instruction first */
			retire_finish(h, pc);
		int64_t cap = budget + 1;   /* what blocks may retire from here */
		if (cstop != UINT64_MAX) {  /* none of them the one reaching cstop */
			uint64_t room = *cyc < cstop ? (cstop - *cyc) / cmax : 0;
			if ((uint64_t)cap > room)
				cap = (int64_t)room;
		}
		if (unlikely(cap < (int64_t)b->n)) {  /* not all of it fits */
			if (unlikely(h->jprof))
				h->jprof->short_budget++;
			STEP();
		}
		const int64_t spare = budget + 1 - cap;
		h->jit_budget = cap;
		int side;
		struct jit_block *last = jit_run(jit, h, b, &side);
		if (unlikely(h->jprof)) {
			h->jprof->block_runs++;
			h->jprof->in_blocks += (uint64_t)(cap - h->jit_budget);
			h->jprof->side_exits += side != 0;
		}
		budget = h->jit_budget + spare;
		pc = h->pc;
		LOOKUP();
		if (unlikely(h->jit_promote)) {   /* it left at its entry, pc */
			struct jit_block *nb = jit_promote(jit, h);
			if (nb)
				dpage_add_block(h, pg, nb);
		}
		if (side) {
			/* the access it left before is the step loop's to do */
			jit_skip = d->handler == 0;
			STEP();
		}
		/* a block that keeps leaving into the step loop costs more than
		 * it saves: its first instruction goes back to the step loop */
		if (d->handler != jit_handler && d->handler != 0 && ++last->exits_out == 16) {
			last->slot->handler = handlers[last->slot->id][last->slot->len == 4];
			if (unlikely(h->jprof))
				h->jprof->given_back++;
		}
		GO();
	}

do_ILLEGAL:
illegal: {
		uint32_t raw = 0;
		if (fetch(h, pg, pc, &raw))
			goto trap;
		TRAP(CAUSE_ILLEGAL_INSN, raw);
	}
virtual_insn: {  /* the hypervisor extension's virtual instruction */
		uint32_t raw = 0;
		if (fetch(h, pg, pc, &raw))
			goto trap;
		TRAP(CAUSE_VIRTUAL_INSN, raw);
	}

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define LBL(name) CAT(CAT(do_, name), SFX)
#define VGO() GO_FAST()
#define EV(e) do { } while (0)
#define XLATE(a, acc, size) do { } while (0)
#define ILEN 4
#define SFX _4
#include "exec_ops.h"
#undef ILEN
#undef SFX
#define ILEN 2
#define SFX _2
#include "exec_ops.h"
#undef ILEN
#undef SFX
#undef VGO
#undef EV
#undef XLATE
/* the general variant: one body for both lengths; counts events, feeds
 * the models, and translates addresses when virtual memory is on */
#define VGO() GO_EV()
#define EV(e) (h->evc[e]++)
#define XLATE(a, acc, size) do {                                        \
		if (unlikely(h->vm_data)) {                             \
			uint64_t va_ = (a);                             \
			int c_ = ((va_ & (GPAGE_SIZE - 1)) + (size) > GPAGE_SIZE || \
				  (h->misaligned_trap && (va_ & ((size) - 1)))) ? \
				((acc) == MMU_LOAD ? CAUSE_MISALIGNED_LOAD : CAUSE_MISALIGNED_STORE) : \
				mmu_translate(h, &(a), (acc), mmu_data_mode(h)); \
			if (c_) {                                       \
				h->cause = (uint64_t)c_;                \
				h->tval = va_;                          \
				goto trap;                              \
			}                                               \
			h->rr.paddr = (a);                              \
		}                                                       \
	} while (0)
#define ILEN d->len
#define SFX _ev
#include "exec_ops.h"
#undef ILEN
#undef SFX
#undef VGO
#undef EV

trap:
	budget++;           /* the trapping instruction did not retire */
	if (class_events)
		h->evc[retire_refine[d->id]]--;
	h->rr_pending = 0;
trap_nocount:
	/* a fetch fault at pc: the instruction before it retired and went
	 * there (the models and CTR see it before the trap) */
	retire_finish(h, pc);
	stop = STOP_TRAP;
	goto out;
cycle_stop:
	/* the instruction before d brought the models' cycles to cstop: d has
	 * not run (as at a trap, its record and class event are dropped) */
	budget++;
	h->evc[retire_refine[d->id]]--;
	h->rr_pending = 0;
	stop = STOP_BUDGET;
	goto out;
out_budget:
	budget = 0;
	stop = STOP_BUDGET;
out:
	if (skipped)
		skipped->handler = 0;
	if (stop != STOP_TRAP)
		retire_finish(h, pc);
	h->pc = pc;
	h->instret += budget_in - (uint64_t)budget;
	return stop;
}
