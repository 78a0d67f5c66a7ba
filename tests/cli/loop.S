/* Never terminates: for --max-insns. */
	.text
	.globl _start
_start:
1:	addi t0, t0, 1
	j 1b
