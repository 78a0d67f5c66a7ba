/* Loads from address 0: fatal SIGSEGV. The faulting instruction is at the
 * symbol fault_pc, which suite.sh expects in the error message. */
	.text
	.globl _start
_start:
	li t0, 0
	li t1, 1
	.globl fault_pc
fault_pc:
	ld t1, 0(t0)
	li a0, 1
	li a7, 93
	ecall
