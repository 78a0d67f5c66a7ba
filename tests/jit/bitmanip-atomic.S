/* Zba, Zbb, Zbs, mulhsu, AMOs and LR/SC in a loop that block translation
 * (src/hart/jit_bitmanip.c, jit_atomic.c) runs whole: tests/jit/suite.sh
 * asserts that nearly every instruction ran translated (each of these
 * ended a block before), the same count as the step loop, and the checks
 * below: the ratified results at the awkward operands (zero, all ones,
 * the sign bit alone; ctzw of a zero low word is 32, the spec's number,
 * which QEMU 7.2 does not give: the last check), a counter that amoadd.w, amoadd.d and an
 * lr/sc retry loop each add one to per iteration, and an sc that fails
 * after another sc took the reservation. Runs under qemu too (exit 0
 * means every check passed, as tests/guest's; QEMU 7.2 fails the last). */
#include "test.h"
	.option arch, +zba, +zbb, +zbs

#define N 4000

	TEST_BEGIN
	la s0, data
	li s1, N
	li s2, 0x8000000000000000
	li s3, -1
	li s4, 0x0100000000000080
	li s5, 0x123456789abcdef0
	li s6, 1
	li s7, 0x7fffffff
1:
	ctzw a0, s2
	ctz a1, s2
	clz a2, x0
	clzw a3, s7
	cpop a4, s3
	cpopw a5, s5
	orc.b a6, s4
	rev8 a7, s5
	sh3add.uw t0, s3, s6
	add.uw t1, s3, x0
	slli.uw t2, s3, 63
	andn t3, s5, s3
	orn t4, x0, s5
	xnor t5, s5, s3
	max s8, s2, s6
	minu s9, s2, s6
	rolw s10, s7, s6
	rori tp, s5, 4
	bext gp, s2, s3
	bseti ra, x0, 63
	binvi ra, ra, 0
	bclr ra, ra, s3
	sext.b sp, s4
	zext.h sp, sp
	mulhsu t6, s3, s3
	/* the counters: +1 by amoadd.w and .d and an lr/sc retry loop; the
	 * last iteration's count by amoswap, the largest by amomaxu */
	li t6, 1
	amoadd.w.aqrl x0, t6, (s0)
	addi t6, s0, 8
	amoadd.d x0, s6, (t6)
	addi t6, s0, 16
	amoswap.d.aq x0, s1, (t6)
	addi t6, s0, 24
	amomaxu.w.rl x0, s1, (t6)
	addi t6, s0, 32
2:	lr.d.aq sp, (t6)
	addi sp, sp, 1
	sc.d.rl sp, sp, (t6)   /* sp = 0 when it stored */
	bnez sp, 2b
	addi s1, s1, -1
	bnez s1, 1b
	CHECK a1, 63
	CHECK a2, 64
	CHECK a3, 1
	CHECK a4, 64
	CHECK a5, 19
	CHECK a6, 0xff000000000000ff
	CHECK a7, 0xf0debc9a78563412
	CHECK t0, 0x7fffffff9
	CHECK t1, 0xffffffff
	CHECK t2, 0x8000000000000000
	CHECK t3, 0
	CHECK t4, 0xedcba9876543210f
	CHECK t5, 0x123456789abcdef0
	CHECK s8, 1
	CHECK s9, 1
	CHECK s10, -2
	CHECK tp, 0x0123456789abcdef
	CHECK gp, 1
	CHECK ra, 0x1
	mulhsu t6, s3, s3
	CHECK t6, -1
	sext.b sp, s4
	CHECK sp, -128
	zext.h sp, sp
	CHECK sp, 0xff80
	lw t6, 0(s0)
	CHECK t6, N
	ld t6, 8(s0)
	CHECK t6, N
	ld t6, 16(s0)
	CHECK t6, 1
	lw t6, 24(s0)
	CHECK t6, N
	ld t6, 32(s0)
	CHECK t6, N
	/* an sc after another sc (which took the reservation) fails, and
	 * writes nothing; lr.w sign-extends */
	addi t0, s0, 40
	li t1, 0x80000000
	sw t1, 0(t0)
	lr.w t2, (t0)
	CHECK t2, 0xffffffff80000000
	sc.w t3, x0, (t0)
	CHECK t3, 0
	sc.w t3, s3, (t0)
	CHECK t3, 1
	lw t2, 0(t0)
	CHECK t2, 0
	/* last, as QEMU 7.2 counts on past the low word: suite.sh takes
	 * its failing this check alone */
	CHECK a0, 32
	TEST_END

	.data
	.balign 64
data:	.skip 64
