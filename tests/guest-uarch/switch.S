/* A switch-dispatch loop, REPS iterations: each jumps through a table with
 * jalr x0, 0(t1) (not a return) to case (s1 mod 4), s1 counting down, so
 * the targets follow the fixed sequence ... 3 2 1 0 3 2 1 0 .... Case k
 * runs two conditional branches whose outcomes are the bits of k (beq
 * zero, zero: taken; blt zero, zero: not taken), then j next. So the three
 * branch outcomes before each dispatch (case bits, then the taken loop
 * bnez) name the previous case, which fixes the next target. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, REPS
	la s3, table
loop:
	andi t0, s1, 3
	slli t0, t0, 3
	add t0, t0, s3
	ld t1, 0(t0)
	jalr x0, 0(t1)
case0:
	blt zero, zero, 1f
1:	blt zero, zero, 2f
2:	j next
case1:
	blt zero, zero, 1f
1:	beq zero, zero, 2f
2:	j next
case2:
	beq zero, zero, 1f
1:	blt zero, zero, 2f
2:	j next
case3:
	beq zero, zero, 1f
1:	beq zero, zero, 2f
2:	j next
next:
	addi s1, s1, -1
	bnez s1, loop
	EXIT_0
	.section .rodata
	.balign 8
table:
	.dword case0, case1, case2, case3
