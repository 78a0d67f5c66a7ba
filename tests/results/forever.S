/* rvpmu system --bios none: print "running" on the UART, then loop
 * forever (the interruption tests stop it with a signal). */
	.section .text.init
	.globl _start
_start:
	li	t0, 0x10000000          /* UART THR */
	la	a0, msg
1:	lbu	t1, 0(a0)
	beqz	t1, 2f
	sb	t1, 0(t0)
	addi	a0, a0, 1
	j	1b
2:	addi	t2, t2, 1
	j	2b

	.section .rodata
msg:	.asciz "running\n"
