/* REPS iterations of UNROLL copies of: advance a 64-bit LCG (Knuth's MMIX
 * constants) and branch forward on its sign bit. The sign bit is the LCG's
 * highest-quality bit, so the branches are unpredictable; the loop-back
 * branch is 1 in UNROLL+1 conditional branches. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, REPS
	li s2, SEED
	li s3, 6364136223846793005
	li s4, 1442695040888963407
2:
	.rept UNROLL
	mul s2, s2, s3
	add s2, s2, s4
	bltz s2, 1f
	addi s5, s5, 1
1:
	.endr
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
