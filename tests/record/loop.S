/* A loop with a known path, no libc (every retired instruction is this
 * file's): N iterations, counting s0 down from N to 1, of
 *   loop_top: one load; pat_br branches to skip unless s0 % 4 == 0;
 *   skip: s0 -= 1; loop_br: back to loop_top while s0 != 0.
 * So exactly N loads; loop_br is taken N - 1 times, pat_br 3N/4 times
 * (N is a multiple of 4). tests/record/suite.sh reads the labels with nm. */
	.equ	N, 200000
	.text
	.globl	_start
	.type	_start, @function
_start:
	li	s0, N
	lla	s1, cell
	li	s2, 0
loop_top:
	ld	t0, 0(s1)
	andi	t1, s0, 3
pat_br:
	bnez	t1, skip
	add	s2, s2, t0
skip:
	addi	s0, s0, -1
loop_br:
	bnez	s0, loop_top
	li	a0, 0
	li	a7, 93		/* exit */
	ecall
	.size	_start, . - _start

	.data
	.p2align 3
cell:	.dword	1
