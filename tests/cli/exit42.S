/* Exits with status 42 through exit_group. */
	.text
	.globl _start
_start:
	li a0, 42
	li a7, 94		/* exit_group */
	ecall
