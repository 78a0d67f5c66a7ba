/* Loops for the SiFive 7-series timing rules (suite.sh "timing rules",
 * derive.py rules): REPS iterations of UNROLL copies of a unit of KIND,
 * then the loop's addi and bnez.
 * Chains (KIND 1-10): one instruction that reads its own previous result,
 * across iterations too, so each issues a result latency after the one
 * before and the loop's two instructions issue in that shadow: an
 * iteration takes UNROLL * latency cycles.
 * Pairs (KIND 20-24): two instructions, each pair independent of the one
 * before; what an iteration costs is UNROLL * the pair's cycles plus the
 * loop's own, which the suite cancels with a second UNROLL.
 * KIND 30: a walk of REPS dependent loads (UNROLL 1) down a list of nodes
 * STRIDE bytes apart, each on a line and page of its own and cold: every
 * load misses the L1D and the L2 and waits for memory. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	lla s2, self
	li s3, 1
	li a0, 1000
	fcvt.d.l f0, s3
	fcvt.d.l f1, s3
	fcvt.d.l f2, s3
#if KIND == 4 || KIND == 5 || KIND == 7
	fcvt.s.l f0, s3
	fcvt.s.l f1, s3
#endif
#if KIND == 10
	mv a0, s2
#elif KIND == 30
	lla a0, nodes
#elif KIND == 31
	lla a0, buf
#endif
#if KIND == 1
#define UNIT fadd.d f0, f0, f1
#elif KIND == 2
#define UNIT fmul.d f0, f0, f1
#elif KIND == 3
#define UNIT fmadd.d f0, f0, f1, f2
#elif KIND == 4
#define UNIT fadd.s f0, f0, f1
#elif KIND == 5
#define UNIT fmul.s f0, f0, f1
#elif KIND == 6
#define UNIT fdiv.d f0, f0, f1
#elif KIND == 7
#define UNIT fdiv.s f0, f0, f1
#elif KIND == 8
#define UNIT div a0, a0, s3
#elif KIND == 9
#define UNIT divw a0, a0, s3
#elif KIND == 10
#define UNIT ld a0, 0(a0)
#elif KIND == 11
#define UNIT fsgnj.d f0, f0, f1
#elif KIND == 20
#define UNIT ld a1, 0(s2); add a2, a2, a1
#elif KIND == 21
#define UNIT addi a1, a1, 1; addi a2, a2, 1
#elif KIND == 22
#define UNIT ld a1, 0(s2); ld a3, 8(s2)
#elif KIND == 23
#define UNIT mul a1, s3, s3; mul a3, s3, s3
#elif KIND == 24
#define UNIT ld a1, 0(s2); mul a3, s3, s3
#elif KIND == 30
#define UNIT ld a0, 0(a0)
#elif KIND == 31
#define UNIT sd zero, 0(a0); addi a0, a0, STRIDE
#endif
	li s1, REPS
	.balign 64
1:
	.rept UNROLL
	UNIT
	.endr
	addi s1, s1, -1
	bnez s1, 1b
	EXIT_0
	.data
	.balign 64
self:	.dword self
	.dword 0
#if KIND == 30
	.balign 4096
nodes:
	.rept REPS
	.dword . + STRIDE
	.skip STRIDE - 8
	.endr
#elif KIND == 31
	.bss
	.balign BUFALIGN
buf:	.skip BUFALIGN
#endif
