/* rvpmu system --bios none: print "go", count down 300 million times (600
 * million instructions: a run long enough to show the progress line),
 * print "done", stop through the sifive_test finisher. */
	.section .text.init
	.globl _start
_start:
	li	t0, 0x10000000          /* UART THR */
	la	a0, go
	call	puts
	li	t2, 300000000
1:	addi	t2, t2, -1
	bnez	t2, 1b
	la	a0, done
	call	puts
	li	t0, 0x100000            /* finisher: pass */
	li	t1, 0x5555
	sw	t1, 0(t0)
2:	j	2b

puts:	lbu	t1, 0(a0)
	beqz	t1, 3f
	sb	t1, 0(t0)
	addi	a0, a0, 1
	j	puts
3:	ret

	.section .rodata
go:	.asciz "go\n"
done:	.asciz "done\n"
