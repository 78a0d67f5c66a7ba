/* The retire stream between the step loop and the models (retire.c). */
#ifndef RVPMU_RETIRE_H
#define RVPMU_RETIRE_H
#include "rvpmu/hart.h"

/* Build the per-instruction tables (once; before the first run). */
void retire_init(void);
/* Instruction id -> its SiFive-style commit refinement event (0: none),
 * raised by the counting variant of the step loop. */
extern uint8_t retire_refine[];

/* Record the instruction about to execute (in the counting variant). */
void retire_prepare(struct hart *h, const struct dinsn *d, uint64_t pc, const uint64_t *x);
/* retire_finish(h, pc), then retire_prepare() of d when it is a real
 * instruction: the counting variant's one call per instruction. */
void retire_step(struct hart *h, const struct dinsn *d, uint64_t pc, const uint64_t *x);
/* The prepared instruction retired: the models observe it. */
void retire_observe(struct hart *h);
/* Add the models' events since the last fold to h->evc. */
void retire_fold(struct hart *h);

/* The previous instruction retired and execution is now at pc. */
static inline void retire_finish(struct hart *h, uint64_t pc)
{
	if (!h->rr_pending)
		return;
	h->rr.next_pc = pc;
	if (h->rr.cls == UARCH_CLS_BRANCH)
		h->rr.taken |= pc != h->rr.pc + h->rr.ilen;
	retire_observe(h);
	h->rr_pending = 0;
	if (h->trace) {
		retire_fold(h);
		h->trace(h->trace_ctx, h);
	}
}

#endif
