/* RV64C (unpriv ISA ch. "C" Extension): every RV64 compressed form,
 * written with explicit c.* mnemonics so each is a 16-bit encoding.
 * Checks immediates at their range ends (sign extension, scaling),
 * the 3-bit register fields (x8-x15), link values pc+2. */
#include "test.h"
	TEST_BEGIN
	mv s10, sp

	/* c.li / c.addi / c.addiw / c.nop */
	c.li a0, -32
	CHECK a0, -32
	c.li a0, 31
	CHECK a0, 31
	c.addi a0, -32
	CHECK a0, -1
	c.addi a0, 31
	CHECK a0, 30
	li a1, 0x7fffffff
	c.addiw a1, 1
	CHECK a1, 0xffffffff80000000
	li a1, 0x1ffffffff
	c.addiw a1, 0			/* sext.w */
	CHECK a1, -1
	li a2, 5
	c.nop
	CHECK a2, 5

	/* c.lui: nzimm[17:12], sign-extended from bit 17 */
	c.lui a0, 0x1f
	CHECK a0, 0x1f000
	c.lui a0, 0xfffe0
	CHECK a0, 0xfffffffffffe0000
	c.lui t0, 0xfffff
	CHECK t0, 0xfffffffffffff000
	c.lui t0, 1
	CHECK t0, 0x1000

	/* c.mv / c.add use full register numbers */
	li t1, 0x123456789abcdef0
	c.mv t0, t1
	CHECKR t0, t1
	li t0, 0x0f0f0f0f0f0f0f0f
	c.add t0, t1
	CHECK t0, 0x21436587a9cbedff
	li t2, -1
	c.add t2, t2
	CHECK t2, -2

	/* shifts and c.andi */
	li a0, 1
	c.slli a0, 63
	CHECK a0, 0x8000000000000000
	li t3, 3
	c.slli t3, 1
	CHECK t3, 6
	li a0, 0x8000000000000000
	c.srli a0, 63
	CHECK a0, 1
	li a0, 0x8000000000000000
	c.srli a0, 1
	CHECK a0, 0x4000000000000000
	li a0, 0x8000000000000000
	c.srai a0, 63
	CHECK a0, -1
	li a0, 0x8000000000000000
	c.srai a0, 32
	CHECK a0, 0xffffffff80000000
	li a0, 0x123456789abcdeff
	c.andi a0, -32
	CHECK a0, 0x123456789abcdee0
	li a0, 0x123456789abcdeff
	c.andi a0, 31
	CHECK a0, 0x1f
	li a0, 0x55
	c.andi a0, 0
	CHECK a0, 0

	/* CA format: rd'/rs2' in x8-x15 */
	li s0, 10
	li s1, 3
	c.sub s0, s1
	CHECK s0, 7
	li a4, 0
	li a5, 1
	c.sub a4, a5
	CHECK a4, -1
	li a0, 0xff00ff00ff00ff00
	li a1, 0x0ff00ff00ff00ff0
	c.xor a0, a1
	CHECK a0, 0xf0f0f0f0f0f0f0f0
	li a0, 0xff00ff00ff00ff00
	c.or a0, a1
	CHECK a0, 0xfff0fff0fff0fff0
	li a0, 0xff00ff00ff00ff00
	c.and a0, a1
	CHECK a0, 0x0f000f000f000f00
	li a2, 0x80000000
	li a3, 1
	c.subw a2, a3
	CHECK a2, 0x7fffffff
	li a2, 0
	c.subw a2, a3
	CHECK a2, -1
	li a2, 0x7fffffff
	c.addw a2, a3
	CHECK a2, 0xffffffff80000000
	li a2, 0x1ffffffff
	li a3, 0x100000001
	c.addw a2, a3
	CHECK a2, 0

	/* stack-pointer forms */
	c.addi16sp sp, -512
	addi t0, s10, -512
	CHECKR sp, t0
	c.addi16sp sp, 496
	addi t0, s10, -16
	CHECKR sp, t0
	c.addi16sp sp, -496		/* sp = s10 - 512 */
	c.addi4spn a0, sp, 1020
	addi t0, sp, 1020
	CHECKR a0, t0
	c.addi4spn s1, sp, 4
	addi t0, sp, 4
	CHECKR s1, t0

	li t0, 0x80000000deadbeef
	c.sdsp t0, 504(sp)
	ld t1, 504(sp)
	CHECKR t1, t0
	c.ldsp t2, 504(sp)
	CHECKR t2, t0
	c.swsp t0, 252(sp)
	lwu t1, 252(sp)
	CHECK t1, 0xdeadbeef
	c.lwsp t2, 252(sp)
	CHECK t2, 0xffffffffdeadbeef
	li t0, 0x7eadbeef
	c.swsp t0, 0(sp)
	c.lwsp t2, 0(sp)
	CHECK t2, 0x7eadbeef
	c.sdsp zero, 8(sp)
	c.ldsp t2, 8(sp)
	CHECK t2, 0

	/* CL/CS: c.lw/c.ld/c.sw/c.sd with offsets at their maxima */
	la s0, buf
	li a5, 0x0123456789abcdef
	c.sd a5, 248(s0)
	ld t0, 248(s0)
	CHECKR t0, a5
	c.ld a4, 248(s0)
	CHECKR a4, a5
	c.sw a5, 124(s0)
	lwu t0, 124(s0)
	CHECK t0, 0x89abcdef
	c.lw a3, 124(s0)
	CHECK a3, 0xffffffff89abcdef
	c.sw a5, 0(s0)
	c.lw a3, 0(s0)
	CHECK a3, 0xffffffff89abcdef

	/* FP loads/stores: bit patterns pass through unchanged */
	li t0, 0x400921fb54442d18	/* pi */
	sd t0, 16(s0)
	c.fld fa0, 16(s0)
	fmv.x.d t1, fa0
	CHECKR t1, t0
	c.fsd fa0, 248(s0)
	ld t1, 248(s0)
	CHECKR t1, t0
	li t0, 0xfff8000000000001	/* a NaN: must not be canonicalised */
	sd t0, 0(s0)
	c.fld fa1, 0(s0)
	c.fsd fa1, 8(s0)
	ld t1, 8(s0)
	CHECKR t1, t0
	li t0, 0xc000000000000000	/* -2.0 */
	sd t0, 504(sp)
	c.fldsp ft3, 504(sp)
	fmv.x.d t1, ft3
	CHECKR t1, t0
	c.fsdsp ft3, 0(sp)
	ld t1, 0(sp)
	CHECKR t1, t0

	c.addi16sp sp, 256
	c.addi16sp sp, 256
	CHECKR sp, s10

	/* c.beqz / c.bnez, taken and not taken */
	li a0, 0
	li t2, 1
	c.beqz a0, 1f
	li t2, 0
1:	CHECK t2, 1
	li a0, -1
	li t2, 1
	c.beqz a0, 2f
	li t2, 0
2:	CHECK t2, 0
	li a0, 0x8000000000000000
	li t2, 1
	c.bnez a0, 3f
	li t2, 0
3:	CHECK t2, 1
	li a0, 0
	li t2, 1
	c.bnez a0, 4f
	li t2, 0
4:	CHECK t2, 0
	/* backward c.bnez loop */
	li a1, 5
	li a2, 0
5:	c.addi a2, 2
	c.addi a1, -1
	c.bnez a1, 5b
	CHECK a2, 10

	/* c.j */
	li t2, 0
	c.j 6f
	li t2, 1
6:	CHECK t2, 0

	/* c.jr: no link; c.jalr: ra = pc + 2 */
	la t0, 7f
	li t2, 0
	c.jr t0
	li t2, 1
7:	CHECK t2, 0
	la t0, 9f
	li t2, 0
8:	c.jalr t0
	li t2, 1
9:	la t1, 8b
	addi t1, t1, 2
	CHECKR ra, t1
	CHECK t2, 0
	/* c.jalr with rs1 = ra: target is the old ra */
	la ra, 11f
10:	c.jalr ra
	li t2, 1
11:	la t1, 10b
	addi t1, t1, 2
	CHECKR ra, t1
	CHECK t2, 0
	/* a subroutine called by c.jalr returning through c.jr ra */
	la t0, triple
	li a0, 7
	c.jalr t0
	CHECK a0, 21

	TEST_END

triple:
	c.mv a1, a0
	c.add a0, a1
	c.add a0, a1
	c.jr ra

	.bss
	.balign 16
buf:	.skip 512
