/* Code fetch: PASSES passes over NOPS 4-byte nops from a 64-byte aligned
 * start; the only control transfer is the loop-back bnez. With PASSES = 1
 * the bnez falls through, so all fetch is sequential. */
#include "exit.h"
	.option norvc
	.text
	.balign 64
	.globl _start
_start:
	li s1, PASSES
	.globl loop_start
loop_start:
1:	.rept NOPS
	nop
	.endr
	addi s1, s1, -1
	bnez s1, 1b
	EXIT_0
	.globl code_end
code_end = . - 4                /* the ecall, which does not retire */
