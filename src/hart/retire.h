/* The retire stream between the step loop and the models (retire.c). */
#ifndef RVPMU_RETIRE_H
#define RVPMU_RETIRE_H
#include "rvpmu/hart.h"

/* Build the per-instruction tables (once; before the first run). */
void retire_init(void);
/* Instruction id -> its SiFive-style commit refinement event (0: none),
 * raised by the counting variant of the step loop. */
extern uint8_t retire_refine[];

/* The previous instruction retired and execution is now at pc: the
 * models (or CTR) observe it. */
void retire_finish(struct hart *h, uint64_t pc);
/* retire_finish(h, pc), then record d, the instruction about to execute
 * (fetched from physical fetch_pa), when it is a real one: the counting
 * variant's one call per instruction. */
void retire_step(struct hart *h, const struct dinsn *d, uint64_t pc, uint64_t fetch_pa,
		 const uint64_t *x);
/* A translated block as the retire stream sees it: its instructions'
 * records without the fields known only when they run (addr, paddr,
 * next_pc, taken) in ub, the class events the counting step loop raises
 * for each (0: none; a branch's "taken" is added at run time), and their
 * sums over the whole block. */
struct retire_jblock {
	struct uarch_block ub;
	const uint8_t (*ev)[3];
	uint8_t nsum;
	struct { uint8_t ev, n; } sum[PMU_EV_MAX];
};
/* Instruction d at pc of a block being translated (user mode). */
void retire_static(struct retire_rec *r, uint8_t ev[3], const struct dinsn *d, uint64_t pc);
/* The block of the n instructions so recorded, for the models u (or NULL). */
void retire_jblock_init(struct retire_jblock *b, const struct uarch *u, const struct retire_rec *r,
			const uint8_t (*ev)[3], uint32_t n);
/* The first n instructions of block b retired, the last one going on to
 * next_pc, taken when it is a taken branch; the memory addresses are in
 * h->jit_addr[]. Raises what the counting step loop would for them. */
void retire_block(struct hart *h, struct retire_jblock *b, uint32_t n, uint64_t next_pc,
		  uint32_t taken);
/* Add the models' events since the last fold to h->evc. */
void retire_fold(struct hart *h);
/* The models' events (a mask of UARCH_EV_*) that PMU events in_use (a
 * mask of PMU_EV_*) count, and those retire_fold() needs for them. */
uint64_t retire_observed(struct hart *h, pmu_evset in_use);

#endif
