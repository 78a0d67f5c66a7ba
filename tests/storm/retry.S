/* Bare metal (M-mode at 0x80000000): a load from address 0 (no device
 * there: load access fault) whose trap handler returns to the load with
 * mret, unchanged, until its Nth call makes the base register valid; then
 * the program passes through the sifive_test finisher. The handler
 * retires instructions each time, but none retires at the load in
 * between: with N = 10000 that is a trap storm, with N = 9999 it is not. */
	.text
	.globl _start
_start:
	la t0, handler
	csrw mtvec, t0
	li s0, 0		/* the handler's calls */
	li s1, N
	li a1, 0
fault:	lw t1, 0(a1)
	li t0, 0x100000
	li t1, 0x5555
	sw t1, 0(t0)
1:	j 1b

	.balign 4
handler:
	addi s0, s0, 1
	bne s0, s1, 2f
	la a1, data
2:	mret

	.balign 4
data:	.word 0		/* read only: it can stay in .text */
