/* rt_sigreturn whose frame sends it back to itself: the same ecall again
 * and again with no instruction retired in between (a frame on the
 * stack as rvpmu's and Linux's riscv64 rt_sigframe lay it out: siginfo
 * 128 bytes, then the ucontext, whose mcontext at 176 holds pc, x1..x31). */
	.text
	.globl _start
_start:
	addi sp, sp, -1536
	la t0, 1f
	sd t0, 304(sp)		/* 128 + 176: mcontext pc */
	sd sp, 320(sp)		/* x2: the same sp */
	li t1, 139
	sd t1, 440(sp)		/* x17 (a7): rt_sigreturn */
	li a7, 139
1:	ecall
