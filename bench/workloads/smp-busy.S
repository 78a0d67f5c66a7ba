/* Bare-metal busy harts for the bench's multi-hart row: every hart that
 * starts here (QEMU virt's reset: all of them, in M-mode) runs the same
 * endless loop over its own 4 KiB of data (loads, stores, ALU work and a
 * branch; no line shared with another hart), and `--max-insns` ends the
 * run. The same instruction budget on 1 or 4 harts measures what the
 * round-robin of harts costs. Built with -nostdlib, linked at 0x80000000. */
	.option norelax
	.section .text
	.globl _start
_start:
	csrr a0, mhartid
	la a1, data
	slli t0, a0, 12
	add a1, a1, t0          /* this hart's page */
	li a2, 0
	li a3, 0x9e3779b9
outer:
	mv a4, a1
	li a5, 512              /* 512 doublewords: the page */
inner:
	ld t1, 0(a4)
	add t1, t1, a2
	xor t1, t1, a3
	slli t2, t1, 3
	sd t1, 0(a4)
	add a2, a2, t2
	addi a4, a4, 8
	addi a5, a5, -1
	bnez a5, inner
	j outer

	.section .bss
	.balign 4096
data:	.skip 4096 * 8
