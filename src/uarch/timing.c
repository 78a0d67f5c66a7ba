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
 *     With a late stage (late_alu > 0, the SiFive 7 series' ALUs in M2):
 *     a value from the late stage (a load's, or a late ALU op's) reaches
 *     an ALU op or a branch, and a store's data, late_alu cycles before
 *     it reaches address generation (ready[]), so those may issue that
 *     much sooner; an ALU op that issues before its operands are ready
 *     for address generation executes late, and its own result reaches
 *     address generation late_alu cycles after the late ALUs.
 *  4. Its result is ready at i + latency: 1 (ALU, jumps, CSR), load_use
 *     (loads, atomics), mul_lat, div_lat, fp_lat, fp_div_lat, and their
 *     variants by the record's UARCH_RF_LAT bits: div32_lat (32-bit
 *     divides), fp32_lat and fp32_div_lat (single precision), fp_move_lat
 *     (FP moves, conversions, compares). Dividers are unpipelined: the
 *     next divide of the same kind waits until then.
 *  5. Data misses: a load, store or atomic whose DTLB or L1D access misses
 *     stalls issue for what timing_mem.c works out: with no MSHRs, channel
 *     or prefetcher configured, l2_lat (+ mem_lat on an L2 miss) for the
 *     L1D and l2tlb_lat (+ walk_lat) for the DTLB; a store with an MSHR
 *     only for the wait for one. Those cycles are stall_backend and delay
 *     its result by as much.
 * Pairing (width 2): with `pairing` UARCH_PAIR_UNITS at most one memory
 * op, one control transfer, one mul/div and one FP op per group; with
 * UARCH_PAIR_PIPES one memory op (pipe A) and one control transfer, mul/div
 * or FP op (pipe B), ALU ops in either. CSR/system instructions issue alone.
 * A taken control transfer, a stalling miss or a serialising instruction
 * closes its group. Dependent instructions cannot pair (an ALU result is
 * ready one cycle after issue), which counts as one backend stall cycle.
 *
 * Hence, exactly: cycles = (instructions that could not join the group
 * open before them) + stall_frontend + stall_backend.
 * For the top-down view (docs/topdown.md) the stalls are split further,
 * each exactly: stall_frontend = stall_icache_busy (fetch misses) +
 * stall_mispredict (mispredict_penalty) + stall_redirect
 * (redirect_penalty), told apart by their lengths, which must differ;
 * stall_flush is the part of stall_backend that a flushing instruction
 * (below) waits for the pipe to drain.
 * The stalls are also split by cause, as the SiFive microarchitectural
 * class counts them: a wait for a load's result (or for a late ALU op's,
 * by address generation) is load-use, for a mul's int-mul, for an FP
 * result FP, for a CSR read's CSR-read, for a divide (its result or its
 * busy unit) long-latency; fetch misses are I-cache busy and data misses
 * D-cache busy. Waits on an ALU result or for serialisation, and redirect
 * penalties, have no finer cause. A CSR write and a system instruction
 * (xRET, fences, WFI) flush the pipe. */
#include <string.h>
#include "rvpmu/uarch.h"

#include "timing_impl.h"

int uarch_timing_init(struct uarch_timing *t, const struct uarch_timing_config *cfg)
{
	memset(t, 0, sizeof *t);
	if (cfg->width < 1 || cfg->width > 2 || !cfg->load_use || !cfg->mul_lat ||
	    !cfg->div_lat || !cfg->fp_lat || !cfg->fp_div_lat || cfg->pairing > UARCH_PAIR_PIPES ||
	    cfg->late_alu >= cfg->load_use || cfg->l1d_mshrs > UARCH_MSHR_MAX ||
	    ((cfg->bus_read || cfg->bus_write) && !cfg->l2_mshrs) ||
	    cfg->mispredict_penalty >> UARCH_IB_SHIFT || cfg->redirect_penalty >> UARCH_IB_SHIFT ||
	    (cfg->mispredict_penalty && cfg->redirect_penalty == cfg->mispredict_penalty))
		return -1;
	/* two lines' TLB and cache misses, PTE walks included, fit UARCH_MC_CYCLES */
	const uint64_t miss = (uint64_t)cfg->l2_lat + cfg->mem_lat,
		       walk = UARCH_WALK_MAX * (cfg->load_use + miss);
	if (2 * (cfg->l2tlb_lat + (walk > cfg->walk_lat ? walk : cfg->walk_lat) + miss) > UARCH_MC_CYCLES)
		return -1;
	t->cfg = *cfg;
	/* the variants (UARCH_RF_W32 = 1, UARCH_RF_FP_MOVE = 2), as the base
	 * latency when not given */
	const uint32_t div[4] = { cfg->div_lat, cfg->div32_lat ? cfg->div32_lat : cfg->div_lat,
				  cfg->div_lat, cfg->div_lat };
	const uint32_t move = cfg->fp_move_lat ? cfg->fp_move_lat : cfg->fp_lat;
	const uint32_t fp[4] = { cfg->fp_lat, cfg->fp32_lat ? cfg->fp32_lat : cfg->fp_lat, move, move };
	const uint32_t fdiv[4] = { cfg->fp_div_lat, cfg->fp32_div_lat ? cfg->fp32_div_lat : cfg->fp_div_lat,
				   cfg->fp_div_lat, cfg->fp_div_lat };
	for (unsigned v = 0; v < 4; v++) {
		uint32_t (*l)[4] = t->lat;
		l[UARCH_CLS_ALU][v] = l[UARCH_CLS_JAL][v] = l[UARCH_CLS_JALR][v] = 1;
		l[UARCH_CLS_CSR][v] = l[UARCH_CLS_SYSTEM][v] = 1;
		l[UARCH_CLS_LOAD][v] = l[UARCH_CLS_ATOMIC][v] = cfg->load_use;
		l[UARCH_CLS_MUL][v] = cfg->mul_lat;
		l[UARCH_CLS_DIV][v] = div[v];
		l[UARCH_CLS_FP][v] = fp[v];
		l[UARCH_CLS_FP_DIV][v] = fdiv[v];
	}
	static const uint8_t units[UARCH_CLS_COUNT] = {
		[UARCH_CLS_LOAD] = U_LSU, [UARCH_CLS_STORE] = U_LSU, [UARCH_CLS_ATOMIC] = U_LSU,
		[UARCH_CLS_BRANCH] = U_BRU, [UARCH_CLS_JAL] = U_BRU, [UARCH_CLS_JALR] = U_BRU,
		[UARCH_CLS_MUL] = U_MDU, [UARCH_CLS_DIV] = U_MDU,
		[UARCH_CLS_FP] = U_FPU, [UARCH_CLS_FP_DIV] = U_FPU,
		[UARCH_CLS_CSR] = U_SER, [UARCH_CLS_SYSTEM] = U_SER,
	};
	for (unsigned c = 0; c < UARCH_CLS_COUNT; c++)   /* pipe B: one unit for all of its own */
		t->unit_of[c] = cfg->pairing == UARCH_PAIR_PIPES && (units[c] & (U_BRU | U_MDU | U_FPU))
			? U_BRU : units[c];
	t->memory_timed = cfg->l1d_mshrs || cfg->bus_read || cfg->bus_write || cfg->prefetcher;
	uarch_timing_reset(t);
	return 0;
}

/* From the rules above: an instruction adds 1 cycle, its frontend cycles
 * (two fetch blocks, each an ITLB and an L1I miss, plus the larger
 * redirect penalty), its backend wait (every result and divider is free by
 * the issue cycle of its producer plus the longest latency, and no
 * producer issues after it; a late ALU op's result is ready late_alu + 1
 * cycles after it, less than load_use) and its data misses (two lines,
 * each a DTLB and an L1D miss). A miss costs at most l2_lat + mem_lat, a
 * TLB miss l2tlb_lat plus walk_lat, or with page tables (pte_walks) the
 * larger of that and UARCH_WALK_MAX PTE reads (load_use plus an L1 miss
 * each). With the memory system's timing (timing_mem.c), at an issue i
 * the channel is free by i + Q + X (X the longer transfer) and every
 * prefetch arrives by i + Q + X + a miss; an access's own wait past the
 * MSHR it takes is then at most W = its fixed cycles (two misses, more
 * than a prefetch's arrival) + two reads (Q + X each) + its writebacks
 * (at most 15, and 2 + the prefetch distance per line) moving it X each,
 * and the MSHR it waits for was taken by an access at or before i, free by
 * i + W. The stall events are parts of those cycles.
 * The counted events are smaller: L2 accesses, the largest, are at most
 * the four walks' PTE fills and writebacks plus four L1 fills and two
 * writebacks (prefetches, 2 * UARCH_PF_DIST_MAX, fewer still). Absent
 * caches and TLBs only lower each term. */
uint64_t uarch_timing_max_per_insn(const struct uarch_timing_config *c, int pte_walks)
{
	const uint64_t miss = (uint64_t)c->l2_lat + c->mem_lat;
	uint64_t walk = pte_walks ? UARCH_WALK_MAX * (c->load_use + miss) : 0;
	if (walk < c->walk_lat)
		walk = c->walk_lat;
	const uint64_t access = c->l2tlb_lat + walk + miss;   /* a TLB and a cache miss */
	uint64_t data = 2 * access;
	if (c->l1d_mshrs || c->bus_read || c->bus_write || c->prefetcher) {
		const uint64_t x = c->bus_read > c->bus_write ? c->bus_read : c->bus_write;
		const uint64_t q = (uint64_t)c->l2_mshrs * x;
		const uint64_t wb = 2 * (2 + (uint64_t)c->prefetcher);   /* per fill, both lines */
		data = 2 * (data + 2 * (q + x) + (wb < 15 ? wb : 15) * x);
	}
	uint64_t lat = 1;
	const uint32_t l[] = {c->load_use, c->mul_lat, c->div_lat, c->fp_lat, c->fp_div_lat,
			      c->div32_lat, c->fp32_lat, c->fp32_div_lat, c->fp_move_lat};
	for (unsigned i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		lat = l[i] > lat ? l[i] : lat;
	const uint64_t redirect = c->mispredict_penalty > c->redirect_penalty
		? c->mispredict_penalty : c->redirect_penalty;
	const uint64_t cycles = 1 + 2 * access + redirect + lat + data;
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
	t->late = 0;
	t->bus = 0;
	memset(t->mshr, 0, sizeof t->mshr);
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		t->pf[j] = 0;   /* none in flight */
	t->ready_max = t->div_free = t->fdiv_free = 0;
	t->fe_pending = 0;
	t->pend = 0;
	t->skey = 0;   /* the interned states stay: they are relative */
	t->mform = 0;
	t->mform_still = 0;
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
