/* smp's entry (linked first, -e smp_entry): hart 0 goes to the usual
 * runtime (tests/bare/crt0.S _start, then main); every other hart takes
 * a stack of its own in the S/U stack area (unused here), waits for
 * smp_go and runs smp_worker(hartid). */
	.section .text.init, "ax"
	.globl smp_entry
smp_entry:
	csrr t0, mhartid
	beqz t0, _start
	csrw mie, zero
	la t1, smp_hang
	csrw mtvec, t1
	la sp, __lower_stack_top
	addi t1, t0, -1
	slli t1, t1, 13
	sub sp, sp, t1
	la t1, smp_go
1:	ld t2, 0(t1)
	beqz t2, 1b
	fence rw, rw
	mv a0, t0
	call smp_worker
2:	wfi
	j 2b
	.balign 4
smp_hang:
	j smp_hang
