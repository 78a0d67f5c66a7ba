/* In-order pipeline timing model.
 *
 * Time advances in issue groups: `now` is the cycle of the current group,
 * which holds up to `width` (1 or 2) instructions. The machine starts with
 * an empty cycle 0 that is closed, so the first instruction issues in cycle
 * 1 and `cycles` is the cycle of the last issue.
 *
 * For each retired instruction, in program order:
 *  1. Earliest cycle e: the current group if it has a free slot and the
 *     instruction can pair (below), else now + 1.
 *  2. Frontend: fetch misses of this instruction (L1I miss: l2_lat, plus
 *     mem_lat on an L2 miss; ITLB miss: l2tlb_lat, plus walk_lat on an L2
 *     TLB miss) and the redirect penalty left by the previous instruction
 *     (mispredict_penalty for a direction, RAS or indirect-target miss,
 *     redirect_penalty for a direct target missing from the BTB) delay it:
 *     such an instruction never pairs, and e grows by those cycles, counted
 *     as stall_frontend.
 *  3. Backend: it issues at i = max(e, ready[rs1], ready[rs2], divider
 *     free); a CSR or system instruction also waits for every outstanding
 *     result (it serialises). i - e is counted as stall_backend.
 *  4. Its result is ready at i + latency: 1 (ALU, jumps, CSR), load_use
 *     (loads, atomics), mul_lat, div_lat, fp_lat, fp_div_lat. Dividers are
 *     unpipelined: the next divide of the same kind waits until then.
 *  5. Data misses block the pipe (no hit-under-miss): a load, store or
 *     atomic whose L1D access misses freezes issue for l2_lat (+ mem_lat on
 *     an L2 miss), a DTLB miss for l2tlb_lat (+ walk_lat); those cycles
 *     are stall_backend and delay its result by as much.
 * Pairing (width 2): at most one memory op, one control transfer, one
 * mul/div and one FP op per group; CSR/system instructions issue alone. A
 * taken control transfer, a blocking miss or a serialising instruction
 * closes its group. Dependent instructions cannot pair (an ALU result is
 * ready one cycle after issue), which counts as one backend stall cycle.
 *
 * Hence, exactly: cycles = (instructions that could not join the group
 * open before them) + stall_frontend + stall_backend.
 * The stalls are also split by cause, as the SiFive microarchitectural
 * class counts them: a wait for a load's result is load-use, for a mul's
 * int-mul, for an FP result FP, for a CSR read's CSR-read, for a divide
 * (its result or its busy unit) long-latency; fetch misses are I-cache
 * busy and blocking data misses D-cache busy. Waits on an ALU result or
 * for serialisation, and redirect penalties, have no finer cause. A CSR
 * write and a system instruction (xRET, fences, WFI) flush the pipe.
 * Writebacks are absorbed by a write buffer (free); no two misses overlap. */
#include <string.h>
#include "rvpmu/uarch.h"

#include "timing_impl.h"

int uarch_timing_init(struct uarch_timing *t, const struct uarch_timing_config *cfg)
{
	memset(t, 0, sizeof *t);
	if (cfg->width < 1 || cfg->width > 2 || !cfg->load_use || !cfg->mul_lat ||
	    !cfg->div_lat || !cfg->fp_lat || !cfg->fp_div_lat ||
	    cfg->mispredict_penalty >> UARCH_IB_SHIFT || cfg->redirect_penalty >> UARCH_IB_SHIFT)
		return -1;
	t->cfg = *cfg;
	uint32_t *l = t->lat;
	l[UARCH_CLS_ALU] = l[UARCH_CLS_JAL] = l[UARCH_CLS_JALR] = 1;
	l[UARCH_CLS_CSR] = l[UARCH_CLS_SYSTEM] = 1;
	l[UARCH_CLS_LOAD] = l[UARCH_CLS_ATOMIC] = cfg->load_use;
	l[UARCH_CLS_MUL] = cfg->mul_lat;
	l[UARCH_CLS_DIV] = cfg->div_lat;
	l[UARCH_CLS_FP] = cfg->fp_lat;
	l[UARCH_CLS_FP_DIV] = cfg->fp_div_lat;
	uarch_timing_reset(t);
	return 0;
}

/* From the rules above: an instruction adds 1 cycle, its frontend cycles
 * (two fetch blocks, each an ITLB and an L1I miss, plus the larger
 * redirect penalty), its backend wait (every result and divider is free by
 * the issue cycle of its producer plus the longest latency, and no
 * producer issues after it) and its blocking data misses (two lines, each
 * a DTLB and an L1D miss). A miss costs at most l2_lat + mem_lat, a TLB
 * miss l2tlb_lat plus walk_lat, or with page tables (pte_walks) the larger
 * of that and UARCH_WALK_MAX PTE reads (load_use plus an L1 miss each).
 * The stall events are parts of those cycles. The counted events are
 * smaller: L2 accesses, the largest, are at most the four walks' PTE fills
 * and writebacks plus four L1 fills and two writebacks. Absent caches and
 * TLBs only lower each term. */
uint64_t uarch_timing_max_per_insn(const struct uarch_timing_config *c, int pte_walks)
{
	const uint64_t miss = (uint64_t)c->l2_lat + c->mem_lat;
	uint64_t walk = pte_walks ? UARCH_WALK_MAX * (c->load_use + miss) : 0;
	if (walk < c->walk_lat)
		walk = c->walk_lat;
	const uint64_t access = c->l2tlb_lat + walk + miss;   /* a TLB and a cache miss */
	uint64_t lat = 1;
	const uint32_t l[] = {c->load_use, c->mul_lat, c->div_lat, c->fp_lat, c->fp_div_lat};
	for (unsigned i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		lat = l[i] > lat ? l[i] : lat;
	const uint64_t redirect = c->mispredict_penalty > c->redirect_penalty
		? c->mispredict_penalty : c->redirect_penalty;
	const uint64_t cycles = 1 + 2 * access + redirect + lat + 2 * access;
	const uint64_t counts = 4 * 2 * UARCH_WALK_MAX + 4 + 2;
	return cycles > counts ? cycles : counts;
}

void uarch_timing_reset(struct uarch_timing *t)
{
	t->now = 0;
	t->slots = t->cfg.width;        /* cycle 0 is closed */
	t->units = 0;
	memset(t->ready, 0, sizeof t->ready);
	memset(t->why, 0, sizeof t->why);
	t->ready_max = t->div_free = t->fdiv_free = 0;
	t->fe_pending = 0;
	t->pend = 0;
	t->skey = 0;   /* the interned states stay: they are relative */
}

uint32_t uarch_timing_penalty(const struct uarch_timing *t, unsigned bp)
{
	return timing_penalty(t, bp, 0);
}

void uarch_timing_issue(struct uarch_timing *t, const struct retire_rec *r,
			uint32_t fe, uint32_t be, unsigned bp, uint64_t *ev)
{
	timing_issue(t, r, fe, be, bp, ev);
}
