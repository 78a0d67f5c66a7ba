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
COLD uint32_t uarch_l2_fill(struct uarch *u, uint64_t addr);     /* cost of an L1 miss */
COLD void uarch_writeback(struct uarch *u, uint64_t victim);     /* dirty L1D victim to L2 */

/* the record's instruction bytes (ilen 0 means 4) */
static HOT_INLINE uint32_t rec_ilen(const struct retire_rec *r)
{
	return r->ilen ? r->ilen : 4;
}

/* the fetch block at virtual va, physical pa; bare: untranslated;
 * tlb_done: its ITLB access was made (translated code) */
static HOT_INLINE uint32_t fetch_block(struct uarch *u, uint64_t va, uint64_t pa, int bare,
				       int tlb_done)
{
	uint32_t c = 0;
	if (u->itlb.c.present && !bare && !tlb_done) {
		u->ev[UARCH_EV_ITLB_ACCESS]++;
		if (!uarch_tlb_access(&u->itlb, va)) {
			u->ev[UARCH_EV_ITLB_MISS]++;
			c += uarch_tlb_refill(u, va);
		}
	}
	if (u->l1i.present) {
		u->ev[UARCH_EV_L1I_ACCESS]++;
		if (uarch_cache_access(&u->l1i, pa, 0, NULL) & UARCH_MISS) {
			u->ev[UARCH_EV_L1I_MISS]++;
			c += uarch_l2_fill(u, pa);
		}
	}
	return c;
}

static HOT_INLINE uint32_t data_line(struct uarch *u, uint64_t va, uint64_t addr, int write,
				     unsigned flags, int tlb_done)
{
	uint32_t c = 0;
	int uncached = flags & UARCH_RF_UNCACHED;
	if (u->dtlb.c.present && !(flags & UARCH_RF_BARE_DATA) && !tlb_done) {
		u->ev[UARCH_EV_DTLB_ACCESS]++;
		u->ev[UARCH_EV_DTLB_WRITE_ACCESS] += (unsigned)write;  /* also in the totals */
		if (!uarch_tlb_access(&u->dtlb, va)) {
			u->ev[UARCH_EV_DTLB_MISS]++;
			u->ev[UARCH_EV_DTLB_WRITE_MISS] += (unsigned)write;
			c += uarch_tlb_refill(u, va);
		}
	}
	if (u->l1d.present && !uncached) {   /* device memory is not cacheable */
		uint64_t victim = 0;
		u->ev[write ? UARCH_EV_L1D_WRITE_ACCESS : UARCH_EV_L1D_READ_ACCESS]++;
		unsigned res = uarch_cache_access(&u->l1d, addr, write, &victim);
		if (__builtin_expect(res & UARCH_MISS, 0)) {
			u->ev[write ? UARCH_EV_L1D_WRITE_MISS : UARCH_EV_L1D_READ_MISS]++;
			c += uarch_l2_fill(u, addr);
		}
		if (res & UARCH_WB)
			uarch_writeback(u, victim);
	}
	return c;
}

/* An access crossing a line touches both; the second's physical address
 * is taken as contiguous (a crossing into another page is rarer still).
 * tlb_done: the first line's DTLB access was made (translated code). */
static HOT_INLINE uint32_t data_access_at(struct uarch *u, uint64_t a, uint64_t pa, unsigned size,
				  unsigned flags, int write, int tlb_done)
{
	uint64_t last = (size ? size : 1) - 1;
	uint32_t c = data_line(u, a, pa, write, flags, tlb_done);
	if (((a + last) >> u->dline_shift) != (a >> u->dline_shift))
		c += data_line(u, a + last, pa + last, write, flags, 0);
	return c;
}

static HOT_INLINE uint32_t data_access(struct uarch *u, const struct retire_rec *r, int write)
{
	return data_access_at(u, r->addr, r->paddr, r->size, r->flags, write, 0);
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
	if (first != u->fetch_line || u->redirect)
		fe = fetch_block(u, r->pc >> fs << fs, first << fs, bare, 0);
	if (__builtin_expect(last != first, 0))
		fe += fetch_block(u, (r->pc + ilen - 1) >> fs << fs, last << fs, bare, 0);
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
	u->redirect = (uint8_t)redirect;
	timing_issue(&u->tm, r, fe, be, bp | (redirect ? UARCH_BP_REDIRECT : 0), u->ev);
}

#endif
