/* Bare metal, M-mode: MMIO accesses on the u74 counter selector for class
 * 2 (memory system) bit 9, DCACHE_MISSES_OR_MMIO: L1D read misses, L1D
 * write misses and device accesses. Measured loops, each between a zeroing
 * of mhpmcounter3 and its read, with no other data access: N UART LSR
 * reads, 2N LSR reads, N UART SCR writes, and N loads of one RAM dword
 * whose line was loaded just before (L1D hits). The counts go out on the
 * UART as "mmio R1 W H R2" in hex; then the test finisher ends the run
 * with exit status 0. */
#define UART 0x10000000
#define FINISHER 0x100000
	.option norvc
	.section .text.init
	.globl _start
_start:
	li t0, 0x202            /* class 2 | (1 << 9) << 8 */
	csrw mhpmevent3, t0
	li a0, UART
	la a2, data
	/* device reads: N, then 2N */
	li a1, N
	csrw mhpmcounter3, zero
1:	lbu t1, 5(a0)
	addi a1, a1, -1
	bnez a1, 1b
	csrr s3, mhpmcounter3
	li a1, 2 * N
	csrw mhpmcounter3, zero
1:	lbu t1, 5(a0)
	addi a1, a1, -1
	bnez a1, 1b
	csrr s6, mhpmcounter3
	/* device writes */
	li a1, N
	csrw mhpmcounter3, zero
1:	sb a1, 7(a0)
	addi a1, a1, -1
	bnez a1, 1b
	csrr s4, mhpmcounter3
	/* RAM loads of a line already in the L1D */
	ld t1, 0(a2)
	li a1, N
	csrw mhpmcounter3, zero
1:	ld t1, 0(a2)
	addi a1, a1, -1
	bnez a1, 1b
	csrr s5, mhpmcounter3

	la a3, msg
	call puts
	mv a4, s3
	call puthex
	mv a4, s4
	call puthex
	mv a4, s5
	call puthex
	mv a4, s6
	call puthex
	li t1, '\n'
	sb t1, 0(a0)
	li t0, FINISHER
	li t1, 0x5555
	sw t1, 0(t0)
1:	j 1b

/* puts(a3): NUL-terminated string to the UART THR (the model never backs up) */
puts:	lbu t1, 0(a3)
	beqz t1, 2f
	sb t1, 0(a0)
	addi a3, a3, 1
	j puts
2:	ret

/* puthex(a4): a space and a4 in hex, 16 digits */
puthex:	li t1, ' '
	sb t1, 0(a0)
	li t2, 60
1:	srl t1, a4, t2
	andi t1, t1, 15
	addi t1, t1, '0'
	li t3, '9'
	ble t1, t3, 2f
	addi t1, t1, 'a' - '9' - 1
2:	sb t1, 0(a0)
	addi t2, t2, -4
	bgez t2, 1b
	ret

	.data
	.balign 64
data:	.dword 42
msg:	.asciz "mmio"
