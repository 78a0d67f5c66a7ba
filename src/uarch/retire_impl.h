/* The facade's per-instruction path (rules: the top of uarch.c), inline so
 * that the step loop's retire stream (src/hart/retire.c) runs the models
 * without calls on hits; misses take the cold functions in uarch.c.
 * Private to the models and the retire stream. */
#ifndef RVPMU_UARCH_RETIRE_IMPL_H
#define RVPMU_UARCH_RETIRE_IMPL_H
#include "rvpmu/uarch.h"
#include "timing_impl.h"
#include "bpred_impl.h"

#define COLD __attribute__((noinline, cold))
#define HOT_INLINE inline __attribute__((always_inline))

COLD uint32_t uarch_tlb_refill(struct uarch *u, uint64_t addr);  /* cost of an L1 TLB miss */
COLD uint32_t uarch_l2_fill(struct uarch *u, uint64_t addr);     /* cycles of an L1I miss (or a PTE's) */
/* an L1D miss's cost (UARCH_MC_*), and a dirty L1D victim to L2: its memory writes */
COLD uint32_t uarch_l2_data(struct uarch *u, uint64_t addr, int write);
COLD uint32_t uarch_writeback(struct uarch *u, uint64_t victim);
COLD uint32_t uarch_mc_add(uint32_t a, uint32_t b);   /* two lines' costs as one access's */
void uarch_l2_count(struct uarch *u, unsigned res);              /* an L2 access's events */
/* prefetch.c: the prefetcher trained on the L2 demand access to a line, the
 * traffic of what it sends (UARCH_MC_PF, UARCH_MC_WB); and 1 + the age of
 * the prefetch that sent a line a demand access hits, first (0: none) */
uint32_t uarch_prefetch_train(struct uarch *u, uint64_t line);
unsigned uarch_prefetch_used(struct uarch_prefetcher *p, uint64_t line);
/* coherence.c: the other harts' L1Ds on an L1D miss or upgrade (res) of
 * u; 1 when the access is settled there (an upgrade, or another L1D gave
 * the line), its cycles in *cost; 0: the line comes from below as alone */
COLD int uarch_snoop(struct uarch *u, uint64_t pa, int write, unsigned res, uint32_t *cost);

/* The cycles of a page-table read's L1D miss (res), the other harts' L1Ds
 * kept coherent when there are others. */
static inline uint32_t uarch_l1d_fill(struct uarch *u, uint64_t pa, int write, unsigned res)
{
	uint32_t c;
	return u->dom && uarch_snoop(u, pa, write, res, &c) ? c : uarch_l2_fill(u, pa);
}

/* The same for a data access, as UARCH_MC_*: a line from another L1D (or
 * an upgrade) is a fixed cost, outside the MSHRs and the memory channel. */
static inline uint32_t uarch_l1d_data(struct uarch *u, uint64_t pa, int write, unsigned res)
{
	uint32_t c;
	return u->dom && uarch_snoop(u, pa, write, res, &c) ? c : uarch_l2_data(u, pa, write);
}

/* the record's instruction bytes (ilen 0 means 4) */
static HOT_INLINE uint32_t rec_ilen(const struct retire_rec *r)
{
	return r->ilen ? r->ilen : 4;
}

/* The four parts of the accesses, each counting its events and returning
 * what its misses cost: the ITLB and L1I lookups of a fetch block, the
 * DTLB and L1D lookups of a data line (cycles; the L1D's as UARCH_MC_*). (Translated code does their
 * hits inline and calls uarch_block_slow() for the others, which pass
 * missed: the line is known not to be there.) */
static HOT_INLINE uint32_t itlb_part(struct uarch *u, uint64_t va, int missed)
{
	u->ev[UARCH_EV_ITLB_ACCESS]++;
	if (missed)
		uarch_cache_miss(&u->itlb.c, va >> u->itlb.c.line_shift, 0, NULL);
	else if (uarch_tlb_access(&u->itlb, va))
		return 0;
	u->ev[UARCH_EV_ITLB_MISS]++;
	return uarch_tlb_refill(u, va);
}

static HOT_INLINE uint32_t l1i_part(struct uarch *u, uint64_t pa, int missed)
{
	u->ev[UARCH_EV_L1I_ACCESS]++;
	if (missed)
		uarch_cache_miss(&u->l1i, pa >> u->l1i.line_shift, 0, NULL);
	else if (!(uarch_cache_access(&u->l1i, pa, 0, NULL) & UARCH_MISS))
		return 0;
	u->ev[UARCH_EV_L1I_MISS]++;
	return uarch_l2_fill(u, pa);
}

static HOT_INLINE uint32_t dtlb_part(struct uarch *u, uint64_t va, int write, int missed)
{
	u->ev[UARCH_EV_DTLB_ACCESS]++;
	u->ev[UARCH_EV_DTLB_WRITE_ACCESS] += (unsigned)write;  /* also in the totals */
	if (missed)
		uarch_cache_miss(&u->dtlb.c, va >> u->dtlb.c.line_shift, 0, NULL);
	else if (uarch_tlb_access(&u->dtlb, va))
		return 0;
	u->ev[UARCH_EV_DTLB_MISS]++;
	u->ev[UARCH_EV_DTLB_WRITE_MISS] += (unsigned)write;
	return uarch_tlb_refill(u, va);
}

static HOT_INLINE uint32_t l1d_part(struct uarch *u, uint64_t pa, int write, int missed)
{
	uint64_t victim = 0;
	uint32_t c = 0;
	u->ev[write ? UARCH_EV_L1D_WRITE_ACCESS : UARCH_EV_L1D_READ_ACCESS]++;
	unsigned res = missed ? uarch_cache_miss(&u->l1d, pa >> u->l1d.line_shift, write, &victim)
			      : uarch_cache_access(&u->l1d, pa, write, &victim);
	if (__builtin_expect(res & (UARCH_MISS | UARCH_UPGRADE), 0)) {
		u->ev[write ? UARCH_EV_L1D_WRITE_MISS : UARCH_EV_L1D_READ_MISS] += res & UARCH_MISS;
		c = uarch_l1d_data(u, pa, write, res);
	}
	if (res & UARCH_WB)
		c += uarch_writeback(u, victim);
	return c;
}

/* the fetch block at virtual va, physical pa; bare: untranslated */
static HOT_INLINE uint32_t fetch_block(struct uarch *u, uint64_t va, uint64_t pa, int bare)
{
	uint32_t c = 0;
	if (u->itlb.c.present && !bare)
		c = itlb_part(u, va, 0);
	if (u->l1i.present)
		c += l1i_part(u, pa, 0);
	return c;
}

static HOT_INLINE uint32_t data_line(struct uarch *u, uint64_t va, uint64_t addr, int write,
				     unsigned flags)
{
	uint32_t c = 0;
	if (u->dtlb.c.present && !(flags & UARCH_RF_BARE_DATA))
		c = dtlb_part(u, va, write, 0);
	if (u->l1d.present && !(flags & UARCH_RF_UNCACHED))   /* device memory is not cacheable */
		c += l1d_part(u, addr, write, 0);
	return c;
}

/* An access crossing a line touches both; the second's physical address
 * is taken as contiguous (a crossing into another page is rarer still). */
static HOT_INLINE uint32_t data_access_at(struct uarch *u, uint64_t a, uint64_t pa, unsigned size,
				  unsigned flags, int write)
{
	uint64_t last = (size ? size : 1) - 1;
	uint32_t c = data_line(u, a, pa, write, flags);
	if (__builtin_expect(((a + last) >> u->dline_shift) != (a >> u->dline_shift), 0))
		c = uarch_mc_add(c, data_line(u, a + last, pa + last, write, flags));
	return c;
}

static HOT_INLINE uint32_t data_access(struct uarch *u, const struct retire_rec *r, int write)
{
	return data_access_at(u, r->addr, r->paddr, r->size, r->flags, write);
}

/* The predictor on a control transfer r to next_pc, a taken branch when
 * taken (0 for any other instruction):
 * its UARCH_BP_* result, counted as mispredict events; *redirect is set
 * when fetch redirects after it. */
static HOT_INLINE unsigned predict(struct uarch *u, const struct retire_rec *r, uint64_t next_pc,
				   int taken, int *redirect)
{
	switch (r->cls) {
	case UARCH_CLS_BRANCH:
		*redirect |= taken;
		break;
	case UARCH_CLS_JAL:
	case UARCH_CLS_JALR:
		*redirect = 1;           /* a jump is taken even to pc + ilen */
		break;
	default:
		return 0;
	}
	unsigned bp = r->cls == UARCH_CLS_BRANCH ? bpred_branch(&u->bp, r->pc, next_pc, taken != 0)
						 : uarch_bpred_retire(&u->bp, r, next_pc, taken);
	u->ev[UARCH_EV_BRANCH_DIR_MISPREDICT] += (bp & UARCH_BP_DIR) != 0;
	u->ev[UARCH_EV_BRANCH_TARGET_MISPREDICT] += (bp & UARCH_BP_TARGET) != 0;
	u->ev[UARCH_EV_RAS_MISPREDICT] += (bp & UARCH_BP_RAS) != 0;
	return bp;
}

static HOT_INLINE void uarch_retire_inline(struct uarch *u, const struct retire_rec *rp)
{
	const struct retire_rec *r = rp;
	uint32_t ilen = rec_ilen(r), fe = 0, be = 0;
	unsigned bp = 0;
	/* blocks by physical address; one straddling into the next page is
	 * taken as physically contiguous */
	const unsigned fs = u->fetch_shift;
	const int bare = r->flags & UARCH_RF_BARE_FETCH;
	uint64_t first = r->fetch_pa >> fs, last = (r->fetch_pa + ilen - 1) >> fs;
	if (first != u->fetch_line)
		fe = fetch_block(u, r->pc >> fs << fs, first << fs, bare);
	if (__builtin_expect(last != first, 0))
		fe += fetch_block(u, (r->pc + ilen - 1) >> fs << fs, last << fs, bare);
	u->fetch_line = last;
	int redirect = r->next_pc != r->pc + ilen;

	switch (r->cls) {
	case UARCH_CLS_LOAD:
		be = data_access(u, r, 0);
		break;
	case UARCH_CLS_STORE:
	case UARCH_CLS_ATOMIC:
		be = data_access(u, r, 1);
		break;
	default:
		bp = predict(u, rp, r->next_pc, r->taken != 0, &redirect);
		break;
	}
	if (redirect)
		u->fetch_line = UARCH_NO_LINE;
	timing_issue(&u->tm, r, fe, be, bp | (redirect ? UARCH_BP_REDIRECT : 0), u->ev);
}

#endif
