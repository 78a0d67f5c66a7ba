/* Instruction forms the block translator (jit.c) emits from files of
 * their own: Zba/Zbb/Zbs and mulhsu (jit_bitmanip.c). jit.c gives them
 * host registers; these emit the operation, with rax, rcx and rdx as
 * scratch (x86emit.h's numbering), exactly as the step loop computes it
 * (exec_ops.h). */
#ifndef RVPMU_HART_JIT_OPS_H
#define RVPMU_HART_JIT_OPS_H
#include <stdint.h>
#include "rvpmu/isa.h"
#include "x86emit.h"

/* How many source registers bit-manipulation instruction id reads (1:
 * rs1, with an immediate or none; 2: rs1 and rs2); 0 when it is not one
 * jit_bitmanip() does. */
int jit_bitmanip_srcs(unsigned id);
/* rd = d's operation on a (rs1) and b (rs2, or -1): host registers; a
 * may be rax and b rdx (a zeroed scratch for x0), rd may be either
 * source's. */
void jit_bitmanip(struct em *e, const struct dinsn *d, int a, int b, int rd);

#endif
