/* Instruction-commit refinements: N iterations of a loop holding a known
 * number of instructions of every class (counts per iteration on the
 * right), with one integer and one FP load before it.
 *
 * Outside the loop: lla (auipc + addi) 2 ALU, ld 1 int load, fld 1 FP
 * load, li s1 1 ALU, and the exit's two li: 2 ALU. So 5 ALU, 1 int load,
 * 1 FP load in all. suite.sh holds the totals. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	lla s0, data
	ld t6, 0(s0)
	fld f1, 8(s0)
	li s1, N
1:
	/* integer loads: 7 */
	lb t0, 0(s0)
	lh t0, 0(s0)
	lw t0, 0(s0)
	ld t0, 0(s0)
	lbu t0, 0(s0)
	lhu t0, 0(s0)
	lwu t0, 0(s0)
	/* integer stores: 4 (to the scratch dword at 32) */
	sb t0, 32(s0)
	sh t0, 32(s0)
	sw t0, 32(s0)
	sd t0, 32(s0)
	/* FP loads 2, FP stores 2 */
	flw f2, 16(s0)
	fld f3, 8(s0)
	fsw f2, 40(s0)
	fsd f3, 40(s0)
	/* integer ALU: 9 here, +1 (addi t4) +2 (lla) +1 (addi s1) below = 13 */
	add t1, t0, t6
	sub t1, t1, t0
	xori t1, t1, 5
	slli t1, t1, 3
	lui t2, 0x12345
	auipc t2, 0
	sltu t1, t1, t2
	addiw t1, t1, 7
	sraw t1, t1, t0
	/* mul 1, div 1 */
	mul t3, t6, t6
	divu t3, t3, t6
	/* atomics 3: amoadd, lr, sc */
	addi t4, s0, 48
	amoadd.d t5, t6, (t4)
	lr.d t5, (t4)
	sc.d t5, t6, (t4)
	/* system: a CSR read 1 (csr-accesses) and a fence 1 (system-other) */
	frcsr t5
	fence
	/* jal 1 */
	j 2f
2:	/* jalr 1, through lla (2 ALU) */
	lla t5, 3f
	jr t5
3:	/* FP add/sub 2 */
	fadd.d f4, f1, f3
	fsub.s f5, f2, f2
	/* FP mul 2 */
	fmul.d f6, f1, f3
	fmul.s f7, f2, f2
	/* FP fused multiply-add 4 */
	fmadd.d f8, f1, f3, f4
	fmsub.s f9, f2, f2, f5
	fnmadd.d f10, f1, f3, f4
	fnmsub.s f11, f2, f2, f5
	/* FP divide/sqrt 2 */
	fdiv.d f12, f1, f3
	fsqrt.s f13, f2
	/* other FP 8: moves, conversions, compare, sign injection, min, classify */
	fmv.x.d t5, f1
	fmv.d.x f14, t5
	fcvt.d.l f15, t6
	fcvt.w.s t5, f2
	feq.d t5, f1, f3
	fmv.d f16, f1
	fmin.s f17, f2, f2
	fclass.d t5, f1
	/* loop: 1 ALU (counted above), 1 conditional branch */
	addi s1, s1, -1
	bnez s1, 1b
	EXIT_0
	.data
	.balign 8
data:	.dword 7
	.double 1.5
	.float 2.25
	.balign 8
	.dword 0, 0, 0, 0, 0
