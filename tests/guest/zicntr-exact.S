/* Exact instret (Zicntr; Zicsr: a CSR read returns the value before the
 * reading instruction executes). Between two rdinstret the count grows by
 * the first rdinstret plus every instruction between them.
 * suite: rvpmu-only (qemu-user's instret is the host cycle counter) */
#include "test.h"
	TEST_BEGIN
	.option norvc

	/* straight line: 1 (rdinstret) + 5 */
	rdinstret a0
	addi t0, zero, 1
	addi t0, t0, 1
	slli t0, t0, 3
	xor t1, t0, t0
	add t1, t1, t0
	rdinstret a1
	sub a2, a1, a0
	CHECK a2, 6

	/* back to back: just the first read */
	rdinstret a0
	rdinstret a1
	sub a2, a1, a0
	CHECK a2, 1

	/* a loop: 1 + 1 (addi) + 7 x (addi, bnez) */
	rdinstret a0
	addi t0, zero, 7
1:	addi t0, t0, -1
	bnez t0, 1b
	rdinstret a1
	sub a2, a1, a0
	CHECK a2, 16

	/* loads, stores, a taken and a not-taken branch, jal, jalr */
	la a3, slot
	rdinstret a0
	sd a0, 0(a3)
	ld t0, 0(a3)
	beq t0, zero, 2f		/* not taken */
	beq t0, t0, 2f			/* taken */
	nop				/* skipped: not counted */
2:	jal t1, 3f
	nop				/* skipped */
3:	auipc t2, 0
	jalr zero, 12(t2)
	nop				/* skipped */
	rdinstret a1			/* 1 + sd ld beq beq jal auipc jalr = 8 */
	sub a2, a1, a0
	CHECK a2, 8

	/* compressed instructions retire as one each */
	.option rvc
	rdinstret a0
	c.li a4, 3
	c.addi a4, 1
	c.nop
	c.mv a5, a4
	rdinstret a1
	sub a2, a1, a0
	CHECK a2, 5

	TEST_END
	.bss
	.balign 8
slot:	.skip 8
