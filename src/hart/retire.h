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
/* Add the models' events since the last fold to h->evc. */
void retire_fold(struct hart *h);

#endif
