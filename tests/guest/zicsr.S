/* Zicsr + Zicntr (unpriv ISA chs. "Zicsr", "Counters"): the user
 * counters are readable and never go backwards; the F-extension CSRs
 * fflags/frm/fcsr read back masked to their fields (fcsr bits 31:8 read
 * zero), every CSR instruction form returns the old value and updates as
 * specified, FP ops accrue flags, and frm drives dynamic rounding. */
#include "test.h"
	TEST_BEGIN

	/* counters: readable, monotonic (instret strictly: reads retire) */
	rdcycle a0
	rdtime a1
	rdinstret a2
	li t0, 100
1:	addi t0, t0, -1
	bnez t0, 1b
	rdcycle a3
	rdtime a4
	rdinstret a5
	CHECKB geu, a3, a0
	CHECKB geu, a4, a1
	CHECKB ltu, a2, a5
	sub t1, a5, a2
	li t2, 200
	CHECKB geu, t1, t2		/* at least the 200 loop instructions */
	/* the same CSRs by number; csrrs/csrrc with x0 and csrrsi/csrrci
	 * with 0 do not write, so they are legal on read-only counters */
	csrrs t0, 0xc02, x0
	csrrc t1, instret, x0
	csrrsi t2, 0xc02, 0
	csrrci t3, instret, 0
	CHECKB ltu, t0, t1
	CHECKB ltu, t1, t2
	CHECKB ltu, t2, t3
	csrr t0, 0xc00
	csrr t1, cycle
	CHECKB geu, t1, t0
	csrr t0, 0xc01
	csrr t1, time
	CHECKB geu, t1, t0

	/* fcsr = frm[7:5] | fflags[4:0]; bits above 7 read zero */
	li t0, -1
	csrw fcsr, t0
	csrr t1, fcsr
	CHECK t1, 0xff
	csrr t1, fflags
	CHECK t1, 0x1f
	csrr t1, frm
	CHECK t1, 7
	csrw fcsr, zero
	csrr t1, fcsr
	CHECK t1, 0
	li t0, 0xffffffe5
	csrw fflags, t0
	csrr t1, fflags
	CHECK t1, 0x05
	csrr t1, fcsr
	CHECK t1, 0x05
	li t0, 0xfa
	csrw frm, t0
	csrr t1, frm
	CHECK t1, 2
	csrr t1, fcsr
	CHECK t1, 0x45
	csrwi frm, 5			/* reserved value: writable, traps only when used */
	csrr t1, frm
	CHECK t1, 5
	csrwi frm, 0

	/* each CSR instruction form returns the old value */
	csrwi fflags, 0x3
	li t0, 0x1c
	csrrw t1, fflags, t0
	CHECK t1, 0x3
	csrr t1, fflags
	CHECK t1, 0x1c
	li t0, 0x3
	csrrs t1, fflags, t0
	CHECK t1, 0x1c
	csrr t1, fflags
	CHECK t1, 0x1f
	li t0, 0x11
	csrrc t1, fflags, t0
	CHECK t1, 0x1f
	csrr t1, fflags
	CHECK t1, 0x0e
	csrrwi t1, fflags, 0x10
	CHECK t1, 0x0e
	csrrsi t1, fflags, 0x01
	CHECK t1, 0x10
	csrrci t1, fflags, 0x10
	CHECK t1, 0x11
	csrr t1, fflags
	CHECK t1, 0x01
	csrrwi t1, frm, 3
	CHECK t1, 0
	csrrw t1, fcsr, zero
	CHECK t1, 0x61
	/* rd = x0: write only */
	csrrwi x0, fflags, 0x1f
	csrr t1, fflags
	CHECK t1, 0x1f
	csrwi fflags, 0

	/* FP operations accrue exception flags: NV=16 DZ=8 OF=4 UF=2 NX=1 */
	li t0, 0x3ff0000000000000	/* 1.0 */
	fmv.d.x fa0, t0
	fmv.d.x fa1, zero
	fdiv.d fa2, fa0, fa1
	csrr t1, fflags
	CHECK t1, 0x08
	csrwi fflags, 0
	li t0, 0x4008000000000000	/* 3.0 */
	fmv.d.x fa1, t0
	fdiv.d fa2, fa0, fa1
	csrr t1, fflags
	CHECK t1, 0x01
	csrwi fflags, 0
	li t0, 0xbff0000000000000	/* -1.0 */
	fmv.d.x fa1, t0
	fsqrt.d fa2, fa1
	csrrw t1, fflags, zero
	CHECK t1, 0x10
	li t0, 0x7fefffffffffffff	/* DBL_MAX */
	fmv.d.x fa1, t0
	fadd.d fa2, fa1, fa1
	csrrw t1, fflags, zero
	CHECK t1, 0x05
	fadd.d fa2, fa0, fa0		/* exact: no flags */
	csrr t1, fflags
	CHECK t1, 0

	/* frm drives dyn rounding: fcvt.w.d of +-2.5 */
	li t0, 0x4004000000000000	/* 2.5 */
	fmv.d.x fa0, t0
	li t0, 0xc004000000000000	/* -2.5 */
	fmv.d.x fa1, t0
	csrwi frm, 0			/* RNE */
	fcvt.w.d t1, fa0
	CHECK t1, 2
	csrwi frm, 1			/* RTZ */
	fcvt.w.d t1, fa1
	CHECK t1, -2
	csrwi frm, 2			/* RDN */
	fcvt.w.d t1, fa0
	CHECK t1, 2
	fcvt.w.d t1, fa1
	CHECK t1, -3
	csrwi frm, 3			/* RUP */
	fcvt.w.d t1, fa0
	CHECK t1, 3
	fcvt.w.d t1, fa1
	CHECK t1, -2
	csrwi frm, 4			/* RMM */
	fcvt.w.d t1, fa0
	CHECK t1, 3
	fcvt.w.d t1, fa1
	CHECK t1, -3
	/* a static rm overrides frm */
	csrwi frm, 3
	fcvt.w.d t1, fa0, rdn
	CHECK t1, 2
	fcvt.w.d t1, fa0, rne
	CHECK t1, 2
	/* the inexact conversions set NX */
	csrr t1, fflags
	CHECK t1, 0x01
	csrw fcsr, zero

	TEST_END
