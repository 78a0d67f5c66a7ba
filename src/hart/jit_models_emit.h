/* What the models' emitters share (jit_models.c: the lookups, the LRU
 * stamps and the timing; jit_predict.c: the branch predictor): the
 * registers and addressing of the models' code and the helpers both
 * use. Private to src/hart/jit_models.c and jit_predict.c; jit.c uses
 * jit_models.h. */
#ifndef RVPMU_HART_JIT_MODELS_EMIT_H
#define RVPMU_HART_JIT_MODELS_EMIT_H
#include <stddef.h>
#include <stdint.h>
#include "jit_models.h"
#include "rvpmu/hart.h"

/* the models' base register, u + BIAS (no SIB byte as r12 would need,
 * no REX prefix for 32-bit operands), the lookup subroutine's part, and
 * the LRU stamps' base (jm_stamp_sync()) */
#define MB RBP
#define PART R11
#define BASE R12
/* rbp points this far into struct uarch: amid the TLBs' filters, which
 * most lookups read or write, so they take a disp8 */
#define BIAS ((int32_t)(offsetof(struct uarch, itlb.c.f_key) + \
			offsetof(struct uarch, dtlb.c.f_slot[UARCH_CACHE_FILTER])) / 2)
#define U(f) ((int32_t)offsetof(struct uarch, f) - BIAS)
#define EV(e) (U(ev) + 8 * (int32_t)(e))
#define XC(f) ((int32_t)offsetof(struct uarch_xc, f))
#define HART(f) ((int32_t)offsetof(struct hart, f))

/* event ev += 1 (or += register by, when by >= 0), when it is one to count */
void jm_count(struct jm *m, unsigned ev, int by);
/* Where array p (n bytes) is for op_mem(): when all of it is within a
 * disp32 of the models, *base = rbp and the distance returned (no pointer
 * to load); else reg, loaded with the pointer at [rbp + field], and 0 */
int32_t jm_arr(struct jm *m, const void *p, size_t n, int32_t field, int reg, int *base);
/* the LRU clock at stamp number stamp (after: BASE from the clock, past
 * it), around code that counts on the clock itself */
void jm_stamp_sync(struct jm *m, uint32_t stamp, int after);

/* jit_predict.c: the predictor at a way out or at a branch or jump the
 * block went on past (ib >= 0: its index, else the block's last) */
void jm_branch(struct jm *m, const struct retire_rec *r, uint64_t next, int taken, int ib);
void jm_jal(struct jm *m, const struct retire_rec *r, uint64_t next, int ib);
void jm_jalr(struct jm *m, const struct retire_rec *r);
/* r14d = 0: no redirect penalty (no control transfer) */
void jm_right(struct em *e);
/* BTB site i's out-of-line path (jm_exit_stubs()) */
void jm_btb_stub(struct jm *m, unsigned i);

#endif
