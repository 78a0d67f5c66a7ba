/* RV64A (unpriv ISA ch. "A" Extension): LR/SC outcomes that the spec
 * makes definite (an SC without a reservation fails with code 1 and does
 * not write; LR then SC succeeds, writes 0; any SC invalidates the
 * reservation so a second SC fails), and every AMO: the old value in rd,
 * the combined value in memory, signed vs unsigned min/max, W forms
 * sign-extending the loaded word and leaving the neighbour word alone.
 * suite: march rv64g */
#include "test.h"

/* AMO on the doubleword at a0: mem = init, rd = op(mem, rs2).
 * Checks the returned old value and the stored result. */
.macro TAMOD op, init, src, newmem
	li t0, \init
	sd t0, 0(a0)
	li t1, \src
	\op t2, t1, (a0)
	CHECK t2, \init
	ld t3, 0(a0)
	CHECK t3, \newmem
.endm

/* W form on the word at a0 (a0+4 holds a guard word): returned value is
 * the sign-extended old word, memory word = newmem, guard untouched. */
.macro TAMOW op, init, src, ret, newmem
	li t0, \init
	sw t0, 0(a0)
	li t0, 0x5a5a5a5a
	sw t0, 4(a0)
	li t1, \src
	\op t2, t1, (a0)
	CHECK t2, \ret
	lwu t3, 0(a0)
	CHECK t3, \newmem
	lwu t3, 4(a0)
	CHECK t3, 0x5a5a5a5a
.endm

	TEST_BEGIN
	la a0, cell

	/* SC with no reservation ever taken: fails with 1, no write */
	li t0, 111
	sd t0, 0(a0)
	li t1, 222
	sc.d t2, t1, (a0)
	CHECK t2, 1
	ld t3, 0(a0)
	CHECK t3, 111

	/* LR then SC: succeeds (0) and stores */
	lr.d t2, (a0)
	CHECK t2, 111
	li t1, 333
	sc.d t2, t1, (a0)
	CHECK t2, 0
	ld t3, 0(a0)
	CHECK t3, 333
	/* the SC consumed the reservation: another SC fails */
	li t1, 444
	sc.d t2, t1, (a0)
	CHECK t2, 1
	ld t3, 0(a0)
	CHECK t3, 333

	/* a failed SC also consumes it */
	sc.d t2, t1, (a0)
	CHECK t2, 1

	/* word forms: LR.W sign-extends, SC.W stores the low word only */
	li t0, 0x80000000
	sw t0, 0(a0)
	li t0, 0x5a5a5a5a
	sw t0, 4(a0)
	lr.w t2, (a0)
	CHECK t2, 0xffffffff80000000
	li t1, 0x123456789
	sc.w t2, t1, (a0)
	CHECK t2, 0
	lwu t3, 0(a0)
	CHECK t3, 0x23456789
	lwu t3, 4(a0)
	CHECK t3, 0x5a5a5a5a
	sc.w t2, t1, (a0)
	CHECK t2, 1

	/* the aq/rl variants are the same operations here */
	lr.d.aqrl t2, (a0)
	li t1, 7
	sc.d.rl t2, t1, (a0)
	CHECK t2, 0
	ld t3, 0(a0)
	CHECK t3, 7

	/* a loop retrying LR/SC until success: an atomic increment */
	li t0, 41
	sd t0, 0(a0)
1:	lr.d t2, (a0)
	addi t2, t2, 1
	sc.d t3, t2, (a0)
	bnez t3, 1b
	ld t3, 0(a0)
	CHECK t3, 42

	/* doubleword AMOs */
	TAMOD amoswap.d, 0x1111, 0x2222, 0x2222
	TAMOD amoadd.d, 0x7fffffffffffffff, 1, 0x8000000000000000
	TAMOD amoadd.d, -5, 3, -2
	TAMOD amoxor.d, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xf0f0f0f0f0f0f0f0
	TAMOD amoand.d, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0x0f000f000f000f00
	TAMOD amoor.d, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xfff0fff0fff0fff0
	TAMOD amomin.d, -1, 1, -1
	TAMOD amomin.d, 5, 3, 3
	TAMOD amomax.d, -1, 1, 1
	TAMOD amomax.d, 0x8000000000000000, 0x7fffffffffffffff, 0x7fffffffffffffff
	TAMOD amominu.d, -1, 1, 1
	TAMOD amominu.d, 0x7fffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff
	TAMOD amomaxu.d, -1, 1, -1
	TAMOD amomaxu.d, 3, 5, 5
	TAMOD amoadd.d.aqrl, 10, 20, 30

	/* word AMOs */
	TAMOW amoswap.w, 0x80000000, 0x123456789, 0xffffffff80000000, 0x23456789
	TAMOW amoadd.w, 0x7fffffff, 1, 0x7fffffff, 0x80000000
	TAMOW amoadd.w, 0xffffffff, 1, -1, 0
	TAMOW amoxor.w, 0xf0f0f0f0, 0xffffffff0ff00ff0, 0xfffffffff0f0f0f0, 0xff00ff00
	TAMOW amoand.w, 0xf0f0f0f0, 0x0ff00ff0, 0xfffffffff0f0f0f0, 0x00f000f0
	TAMOW amoor.w, 0x80000000, 0x00000001, 0xffffffff80000000, 0x80000001
	TAMOW amomin.w, 0x80000000, 1, 0xffffffff80000000, 0x80000000
	TAMOW amomin.w, 5, 0xffffffff, 5, 0xffffffff
	TAMOW amomax.w, 0x80000000, 1, 0xffffffff80000000, 1
	TAMOW amomax.w, 0, 0xffffffff00000001, 0, 1	/* rs2 upper bits ignored */
	TAMOW amominu.w, 0x80000000, 1, 0xffffffff80000000, 1
	TAMOW amominu.w, 5, 0x00000001ffffffff, 5, 5
	TAMOW amomaxu.w, 0x80000000, 1, 0xffffffff80000000, 0x80000000
	TAMOW amomaxu.w, 1, 0xffffffff, 1, 0xffffffff

	/* rd = x0 still updates memory; rd == rs2 returns the old value */
	li t0, 10
	sd t0, 0(a0)
	li t1, 5
	amoadd.d x0, t1, (a0)
	ld t3, 0(a0)
	CHECK t3, 15
	CHECK x0, 0
	li t1, 99
	amoswap.d t1, t1, (a0)
	CHECK t1, 15
	ld t3, 0(a0)
	CHECK t3, 99

	TEST_END

	.data
	.balign 64
cell:	.dword 0, 0
