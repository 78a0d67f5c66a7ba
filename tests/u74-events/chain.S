/* Dependent chains for the timing model's interlock events. With N, a loop
 * of N iterations, each: a chain of U operations of one KIND, then
 * `addi s1` and `bnez s1`. The chain's first operation reads only
 * registers set before the loop, so the chain restarts every iteration
 * and the loop's branch (and its mispredicts) never delays a dependent
 * operation; the other U - 1 each read the previous one's result.
 * Without N, the chain runs once, straight-line, with no control transfer.
 * The loop (or chain) and the exit's two li start a fresh L1I line, so no
 * fetch miss lands inside a chain after its first operation.
 * KIND: 1 ld (a self-pointer), 2 mul, 3 div, 4 fadd.d, 5 fdiv.d,
 * 6 a CSR read (frcsr) feeding an add, 7 fadd.s, 8 ld (from a fixed
 * address) feeding an add to a sum: each pair is independent of the one
 * before but for the sum. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
#if KIND == 1
	lla s2, self
#define FIRST ld a0, 0(s2)
#define NEXT ld a0, 0(a0)
#elif KIND == 2
	li s2, 3
	li s3, 5
#define FIRST mul a0, s2, s3
#define NEXT mul a0, a0, s3
#elif KIND == 3
	li s2, 1000
	li s3, 1
#define FIRST div a0, s2, s3
#define NEXT div a0, a0, s3
#elif KIND == 4 || KIND == 5 || KIND == 7
	li s3, 1
	fcvt.d.l f1, s3
	fcvt.d.l f2, s3
#if KIND == 4
#define FIRST fadd.d f0, f1, f2
#define NEXT fadd.d f0, f0, f1
#elif KIND == 7
#define FIRST fadd.s f0, f1, f2
#define NEXT fadd.s f0, f0, f1
#else
#define FIRST fdiv.d f0, f1, f2
#define NEXT fdiv.d f0, f0, f2
#endif
#elif KIND == 8
	lla s2, self
#define FIRST ld a0, 0(s2); add a1, a1, a0
#define NEXT FIRST
#elif KIND == 6
#define FIRST frcsr a0; add a1, a1, a0
#define NEXT FIRST
#endif
#ifdef N
	li s1, N
#endif
	.balign 64
1:
	FIRST
	.rept U - 1
	NEXT
	.endr
#ifdef N
	addi s1, s1, -1
	bnez s1, 1b
#endif
	EXIT_0
	.globl code_end
code_end = . - 4                /* the ecall, which does not retire */
	.data
	.balign 8
self:	.dword self
