/* Code footprint: PASSES passes over LINES 64-byte lines of code (64 KiB:
 * twice the profiles' 32 KiB L1I), each two ALU ops and a jump to the
 * next line. Every line's fetch misses the L1I, and the jumps outnumber
 * the BTB's entries. Top-down: frontend bound. */
#include "../guest-uarch/exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, PASSES
2:
	.rept LINES
	addi t1, t1, 1
	addi t2, t2, 1
	j 1f
	.balign 64
1:
	.endr
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
