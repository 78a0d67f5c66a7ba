/* Exits with its argc (the word at sp on entry): shows which arguments
 * reach the guest. */
	.text
	.globl _start
_start:
	ld a0, 0(sp)
	li a7, 93
	ecall
