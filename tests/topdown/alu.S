/* ALU loop: REPS iterations of 64 additions on four registers in turn, so
 * that each pair issues together on a dual-issue core and every result is
 * ready for its next use. Top-down: retiring. */
#include "../guest-uarch/exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, REPS
2:
	.rept 16
	addi t1, t1, 1
	addi t2, t2, 1
	addi t3, t3, 1
	addi t4, t4, 1
	.endr
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
