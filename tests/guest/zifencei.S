/* Zifencei (unpriv ISA ch. "Zifencei"): code written by stores becomes
 * visible to this hart's instruction fetch after fence.i. The code lives
 * in an anonymous RWX mapping; replacement instructions are copied from
 * templates assembled below, so no encodings are written by hand. */
#include "test.h"

/* copy the 32-bit word at label \src to offset \off of the code page */
.macro PATCH off, src
	la t0, \src
	lw t1, 0(t0)
	sw t1, \off(s0)
.endm

	TEST_BEGIN
	.option norvc
	/* mmap(NULL, 4096, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) */
	li a0, 0
	li a1, 4096
	li a2, 7
	li a3, 0x22
	li a4, -1
	li a5, 0
	li a7, 222
	ecall
	li t0, -4096
	CHECKB ltu, a0, t0		/* not an error return */
	mv s0, a0

	/* f() { a0 = 1; a0 += 1; a0 += 1; return } */
	PATCH 0, tpl_li1
	PATCH 4, tpl_inc1
	PATCH 8, tpl_inc1
	PATCH 12, tpl_ret
	fence.i
	jalr s0
	CHECK a0, 3
	/* run it again: the first run must not have frozen anything */
	jalr s0
	CHECK a0, 3

	/* replace an instruction in the middle of code already executed */
	PATCH 4, tpl_inc10
	fence.i
	jalr s0
	CHECK a0, 12

	/* replace the first instruction */
	PATCH 0, tpl_li5
	fence.i
	jalr s0
	CHECK a0, 16

	/* a replacement written as two halfword stores */
	la t0, tpl_inc100
	lhu t1, 0(t0)
	lhu t2, 2(t0)
	sh t1, 8(s0)
	sh t2, 10(s0)
	fence.i
	jalr s0
	CHECK a0, 115

	/* an early return patched in: the rest is not run */
	PATCH 4, tpl_ret
	fence.i
	jalr s0
	CHECK a0, 5

	/* grow the function: new code on the same page at a new address */
	PATCH 4, tpl_inc1
	PATCH 12, tpl_jump		/* j +4 to offset 16 */
	PATCH 16, tpl_inc1000
	PATCH 20, tpl_ret
	fence.i
	jalr s0
	CHECK a0, 1106

	/* code that rewrites itself on its own page: each store, AMO and
	 * compressed store drops the decoded instruction it overwrites,
	 * also its own, while it runs; tpl_self, copied to offset 64, runs
	 * with a3 = its address, a2 and a1 the words it stores */
	addi a3, s0, 64
	la t0, tpl_self
	la t2, tpl_self_end
	mv t3, a3
1:	lhu t1, 0(t0)
	sh t1, 0(t3)
	addi t0, t0, 2
	addi t3, t3, 2
	bltu t0, t2, 1b
	fence.i
	lw a2, 0(a3)		/* the first time, each writes what is there */
	lw a1, 4(a3)
	lw a4, 20(a3)
	li a0, 0
	jalr a3
	CHECK a0, 2
	la t0, tpl_inc100	/* the sw at 0 replaces itself */
	lw a2, 0(t0)
	la t0, tpl_inc10	/* the amoswap replaces the addi at 20 */
	lw a4, 0(t0)
	li a0, 0
	jalr a3
	CHECK a0, 11
	li a0, 0
	jalr a3		/* addi 100 at 0 */
	CHECK a0, 111

	TEST_END

	/* templates: copied, never executed here */
	.section .rodata
	.balign 4
tpl_li1:	li a0, 1
tpl_li5:	li a0, 5
tpl_inc1:	addi a0, a0, 1
tpl_inc10:	addi a0, a0, 10
tpl_inc100:	addi a0, a0, 100
tpl_inc1000:	addi a0, a0, 1000
tpl_ret:	ret
tpl_jump:	jal x0, .+4	/* pc-relative: valid at any address */
	.balign 4
tpl_self:
	sw a2, 0(a3)		/* 0: itself */
	.option rvc
	c.sw a1, 4(a3)		/* 4: itself and the c.nop after it */
	c.nop
	.option norvc
	addi a5, a3, 20		/* 8 */
	amoswap.w zero, a4, (a5)	/* 12: the addi at 20 */
	fence.i			/* 16 */
	addi a0, a0, 1		/* 20 */
	addi a0, a0, 1		/* 24 */
	ret
tpl_self_end:
