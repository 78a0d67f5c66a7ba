/* Instruction forms the block translator (jit.c) emits from files of
 * their own: Zba/Zbb/Zbs and mulhsu (jit_bitmanip.c), the A extension's
 * AMOs and LR/SC (jit_atomic.c), the M extension's high multiplies and
 * divides (jit_muldiv.c). jit.c gives them host registers and
 * checks the access; these emit the operation, with rax, rcx and rdx as
 * scratch (x86emit.h's numbering), exactly as the step loop computes it
 * (exec_ops.h). */
#ifndef RVPMU_HART_JIT_OPS_H
#define RVPMU_HART_JIT_OPS_H
#include <stdint.h>
#include "rvpmu/hart.h"
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

/* Whether id is mulh, mulhu, a divide or a remainder (jit_muldiv()) */
int jit_muldiv_is(unsigned id);
/* rd = d's operation on a (rs1) and b (rs2): host registers; a may be
 * rax and b rcx (scratch, zeroed for x0), rd may be a source's. */
void jit_muldiv(struct em *e, const struct dinsn *d, int a, int b, int rd);

/* The access size of A-extension instruction id (4 or 8); 0 when it is
 * not one. */
unsigned jit_atomic_size(unsigned id);
/* Whether id writes memory when it can (an AMO or SC: its access needs
 * the page writable and free of decoded code, as the step loop's
 * amo_ptr() does) */
int jit_atomic_writes(unsigned id);
/* d's operation at guest address rax (aligned, and allowed: checked),
 * guest memory's host base in r15, the hart in rbx: v is the host
 * register of rs2 (-1: x0), rd rd's (-1: x0); an LR's or SC's
 * reservation address is in resv (rax, or with paging rdx = rs1). */
void jit_atomic(struct em *e, const struct dinsn *d, int v, int rd, int resv);

/* The hart's TLB entry (rbx: the hart) of the page of virtual address va
 * (a host register), under the key at hart offset key, allowing access
 * acc (enum mmu_access) without an A/D update, as mmu_translate() looks
 * first: t = its physical page number, or a jump to each of the miss
 * sites returned (how many); t and i are scratch, neither va. */
unsigned jit_tlb_lookup(struct em *e, int va, int t, int i, int32_t key, unsigned acc, uint8_t **miss);

/* d = the instruction at guest address at, when it lies wholly in pc's
 * page, whose host bytes are page (else 0) */
int jit_decode_in_page(const uint8_t *page, uint64_t pc, uint64_t at, struct dinsn *d);
/* Rows of accesses (jit_row.c). The size of load or store id, store set
 * for a store; 0 when it is neither. */
unsigned jit_access_size(unsigned id, int *store);
/* Whether d may write x register r (conservative: any rd but a store's
 * or a branch's) */
int jit_may_write_x(const struct dinsn *d, unsigned r);
/* [lo, hi): the bytes around base rs1 that access d at pc (of size) and
 * the accesses of its kind ahead of it in the block read or write, until
 * the base may change or a jump; page: the host bytes of pc's page */
void jit_row(const uint8_t *page, uint64_t pc, const struct dinsn *d, unsigned size, int store,
	     int32_t *lo, int32_t *hi);
/* Checks that guest address a (a host register; rdx and rcx are
 * clobbered) is below the bound at hart offset size_at and that its
 * page's flags (at pflags_at) have need under mask: the jumps to take
 * when not are put in fail[] (returns how many: 2) */
unsigned jit_page_check(struct em *e, int a, unsigned mask, unsigned need, int32_t size_at,
			int32_t pflags_at, uint8_t **fail);
/* The same for a row's bytes [base + lo, base + hi), rax holding the
 * access's address base + imm: one page's in e, two pages' out of line
 * in cold (fail[] takes up to 6) */
unsigned jit_row_check(struct em *e, struct em *cold, int32_t imm, int32_t lo, int32_t hi,
		       unsigned mask, unsigned need, int32_t size_at, int32_t pflags_at,
		       uint8_t **fail);

/* Whether id is an F/D operation jit_fp_op() does (FP_OPS) */
int jit_fp_is(unsigned id);
/* d's F/D operation on h's registers, as the step loop computes it: 0;
 * 1, having changed nothing, when it is the step loop's to do (a
 * reserved rounding mode, an illegal instruction there, or FP state not
 * Dirty). Called from translated code, every register written back. */
uint64_t jit_fp_op(struct hart *h, const struct dinsn *d);

#endif
