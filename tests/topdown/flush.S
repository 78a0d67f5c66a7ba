/* CSR writes after divides: REPS iterations of 8 times a divide and a write
 * of fcsr. A CSR write flushes the pipe, so it first waits for the divide
 * to finish (drains): top-down bad speculation, at level 2 machine clears,
 * not branch mispredicts. */
#include "../guest-uarch/exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, REPS
	li t1, 1000
	li t2, 7
2:
	.rept 8
	div t0, t1, t2
	csrw fcsr, zero
	.endr
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
