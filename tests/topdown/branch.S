/* Random branches: WORDS xorshift64 numbers (Marsaglia's 13, 7, 17), and a
 * conditional branch on each of their 64 bits, taken or not as the bit
 * says: half of them mispredict whatever the predictor learns. Both ways
 * lead to the next instruction, so that the branches are most of the
 * instructions.
 * Top-down: bad speculation (branch mispredicts). */
#include "../guest-uarch/exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, WORDS
	li s2, 88172645463325252
2:	slli t0, s2, 13
	xor s2, s2, t0
	srli t0, s2, 7
	xor s2, s2, t0
	slli t0, s2, 17
	xor s2, s2, t0
	.irp k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63
	slli t0, s2, \k         /* bit 63 - k to the sign */
	bltz t0, 1f             /* taken or not, on to the next instruction */
1:
	.endr
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
