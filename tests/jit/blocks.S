/* Block translation (src/hart/jit.c): what the translator must keep
 * straight that single-instruction tests do not reach. Registers held in
 * host registers across long blocks, written back at every kind of exit;
 * accesses the translated code leaves to the step loop in the middle of a
 * block; x0 as every operand; code rewritten after it was translated; a
 * block running off the end of its page, and a 4-byte instruction that
 * straddles a page boundary. Runs under qemu too. */
#include "test.h"

	TEST_BEGIN
	/* 1. More live registers than the translator has host registers:
	 * 24 values made in one block, then all checked. */
	li x1, 0x101
	li x2, 0x202
	li x3, 0x303
	li x4, 0x404
	li x5, 0x505
	li x6, 0x606
	li x7, 0x707
	li x8, 0x808
	li x9, 0x909
	li x10, 0xa0a
	li x11, 0xb0b
	li x12, 0xc0c
	add x13, x1, x2
	add x14, x13, x3
	add x15, x14, x4
	add x16, x15, x5
	add x17, x16, x6
	add x18, x17, x7
	add x19, x18, x8
	add x20, x19, x9
	add x21, x20, x10
	add x22, x21, x11
	add x23, x22, x12
	sub x24, x23, x1
	xor x1, x1, x24
	CHECK x2, 0x202
	CHECK x12, 0xc0c
	CHECK x13, 0x303
	CHECK x18, 0x1c1c
	CHECK x23, 0x4e4e
	CHECK x24, 0x4d4d
	CHECK x1, 0x4c4c

	/* 2. A misaligned load in mid-block leaves for the step loop with
	 * dirty registers written back, and the block's rest runs after. */
	la s0, buf
	li t0, 0x1122334455667788
	sd t0, 0(s0)
	sd t0, 8(s0)
	li a0, 7
	li a1, 9
	add a2, a0, a1
	ld a3, 3(s0)		/* misaligned: the step loop does it */
	add a4, a2, a3
	li a5, 0x6677881122334455
	CHECK a2, 16
	CHECKR a3, a5
	addi a5, a5, 16
	CHECKR a4, a5
	/* the same with a misaligned store, then reading it back */
	li t1, 0xa5a5a5a5
	sw t1, 5(s0)
	lwu t2, 5(s0)
	CHECKR t2, t1

	/* 3. x0 everywhere: reads as 0, writes vanish, accesses still happen */
	li t0, 12345
	div t2, x0, t0
	CHECK t2, 0
	rem t2, t0, x0
	CHECK t2, 12345
	divw t2, t0, x0
	CHECK t2, -1
	divu t2, t0, x0
	CHECK t2, -1
	mulh t2, t0, x0
	CHECK t2, 0
	sub t2, x0, t0
	CHECK t2, -12345
	sll t2, t0, x0
	CHECK t2, 12345
	slt t2, x0, t0
	CHECK t2, 1
	sltu t2, t0, x0
	CHECK t2, 0
	add x0, t0, t0
	CHECK x0, 0
	ld x0, 0(s0)
	CHECK x0, 0
	sd x0, 0(s0)
	ld t2, 0(s0)
	CHECK t2, 0
	/* signed overflow and -1 divisors, 64 and 32 bits, rd == rs1 == rs2 */
	li t0, 0x8000000000000000
	li t1, -1
	div t2, t0, t1
	CHECKR t2, t0
	rem t2, t0, t1
	CHECK t2, 0
	li t0, 0xffffffff80000000
	divw t2, t0, t1
	CHECKR t2, t0
	remw t2, t0, t1
	CHECK t2, 0
	li t0, -7
	div t0, t0, t0
	CHECK t0, 1
	li t0, 0x100000007
	remuw t0, t0, t0
	CHECK t0, 0

	/* 3b. ALU forms computed in the destination's host register: the
	 * destination also a source (the second of a subtraction or shift
	 * takes another way), the W forms' sign extension, and mv, li and
	 * sext.w as moves; all in one block, checked after it */
	li a0, 3
	li a1, 10
	li a2, 2
	li a3, 1
	li a4, 5
	li a5, 0x7fffffff
	li a6, 1
	li a7, 0x123456789
	li s6, 4
	li s7, 0xf0
	li s9, 3
	sub a1, a0, a1		/* 3 - 10 */
	sll a2, a0, a2		/* 3 << 2 */
	subw a3, x0, a3
	mulw a4, a1, a4		/* -7 * 5 */
	addw a5, a5, a5
	sraw a6, a1, a6		/* -7 >> 1 */
	sext.w s2, a7
	mv s3, a7
	addi s4, x0, -5
	slliw s5, a7, 0
	sub s6, s6, s6
	xori s7, s7, 0
	slt s8, a1, a0
	srl s9, a1, s9
	CHECK a1, -7
	CHECK a2, 12
	CHECK a3, -1
	CHECK a4, -35
	CHECK a5, -2
	CHECK a6, -4
	CHECK s2, 0x23456789
	CHECK s3, 0x123456789
	CHECK s4, -5
	CHECK s5, 0x23456789
	CHECK s6, 0
	CHECK s7, 0xf0
	CHECK s8, 1
	CHECK s9, 0x1fffffffffffffff

	/* 4. Code rewritten after it ran: the new instruction must run */
	la a0, smc_page
	li a1, 4096
	li a2, 7		/* PROT_READ | PROT_WRITE | PROT_EXEC */
	li a7, 226		/* mprotect */
	ecall
	CHECK a0, 0
	call smc_fn
	CHECK a0, 1
	la t0, smc_fn
	li t1, 0x00200513	/* addi a0, x0, 2 */
	sw t1, 0(t0)
	fence.i
	call smc_fn
	CHECK a0, 2

	/* 5. Straight-line code across a page boundary, with a 4-byte
	 * instruction that straddles it */
	li a0, 0
	call cross_fn
	CHECK a0, 2047 + 5
	TEST_END

	.section .text.smc, "ax"
	.balign 4096
smc_page:
smc_fn:
	.option push
	.option norvc
	addi a0, x0, 1
	.option pop
	ret
	.balign 4096

	.text
	.balign 4096		/* cross_fn starts a page */
cross_fn:
	.option push
	.option rvc
	/* 2047 two-byte additions (c.addi), then a 4-byte addi at offset
	 * 4094 that straddles into the next page */
	.rept 2047
	c.addi a0, 1
	.endr
	.option norvc
	addi a0, a0, 5
	.option pop
	ret

	.data
	.balign 8
buf:	.skip 16
