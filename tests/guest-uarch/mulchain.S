/* REPS iterations of a chain of UNROLL dependent multiplies (each reads the
 * previous one's result, and the first reads the last of the previous
 * iteration), then the loop counter update and the loop-back branch, which
 * do not depend on the chain. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li a0, 3
	li a1, 5
	li s1, REPS
2:
	.rept UNROLL
	mul a0, a0, a1
	.endr
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
