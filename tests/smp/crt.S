/* Bare-metal SMP entry: every hart starts here in M-mode (as QEMU's reset
 * vector starts them), takes its own stack by mhartid and calls
 * hart_main(hartid). Harts beyond NHARTS park. RAM is zero at reset, so
 * .bss needs no clearing (which would race with the harts using it). An
 * unexpected trap ends the run with code 200 + mcause. */
	.option norelax
	.section .text.init, "ax"
	.globl _start
_start:
	csrw mie, zero
	la t0, trap
	csrw mtvec, t0
	csrr a0, mhartid
	li t0, NHARTS
	bgeu a0, t0, park
	la sp, __stacks_top
	slli t1, a0, 13			/* 8 KiB each */
	sub sp, sp, t1
	li t0, (1 << 13)		/* mstatus.FS = Initial */
	csrs mstatus, t0
	call hart_main
park:	wfi
	j park

	.balign 4
trap:
	csrr t0, mcause
	addi t0, t0, 200
	slli t0, t0, 16
	li t1, 0x3333
	or t0, t0, t1
	li t1, 0x100000
	sw t0, 0(t1)
1:	j 1b
