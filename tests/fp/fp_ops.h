/* The operations the FP differential test covers, shared by the case
 * generator, the riscv64 guest and the host harness (tests/unit/fpu_test.c).
 * X(name, mnemonic, kind, rm, fmt): kind is the operand shape (F = FP
 * register, X = integer register, destination first), rm is RM when the
 * instruction takes a static rounding mode, NORM when it has none (or the
 * assembler accepts none because it is exact), fmt the source format. */
#ifndef FP_OPS_H
#define FP_OPS_H
#include <stdint.h>

#define FP_OPS(X) \
	X(FADD_S, "fadd.s", FFF, RM, S) \
	X(FSUB_S, "fsub.s", FFF, RM, S) \
	X(FMUL_S, "fmul.s", FFF, RM, S) \
	X(FDIV_S, "fdiv.s", FFF, RM, S) \
	X(FSQRT_S, "fsqrt.s", FF, RM, S) \
	X(FMADD_S, "fmadd.s", FFFF, RM, S) \
	X(FMSUB_S, "fmsub.s", FFFF, RM, S) \
	X(FNMSUB_S, "fnmsub.s", FFFF, RM, S) \
	X(FNMADD_S, "fnmadd.s", FFFF, RM, S) \
	X(FMIN_S, "fmin.s", FFF, NORM, S) \
	X(FMAX_S, "fmax.s", FFF, NORM, S) \
	X(FSGNJ_S, "fsgnj.s", FFF, NORM, S) \
	X(FSGNJN_S, "fsgnjn.s", FFF, NORM, S) \
	X(FSGNJX_S, "fsgnjx.s", FFF, NORM, S) \
	X(FEQ_S, "feq.s", XFF, NORM, S) \
	X(FLT_S, "flt.s", XFF, NORM, S) \
	X(FLE_S, "fle.s", XFF, NORM, S) \
	X(FCLASS_S, "fclass.s", XF, NORM, S) \
	X(FCVT_W_S, "fcvt.w.s", XF, RM, S) \
	X(FCVT_WU_S, "fcvt.wu.s", XF, RM, S) \
	X(FCVT_L_S, "fcvt.l.s", XF, RM, S) \
	X(FCVT_LU_S, "fcvt.lu.s", XF, RM, S) \
	X(FMV_X_W, "fmv.x.w", XF, NORM, S) \
	X(FCVT_S_W, "fcvt.s.w", FX, RM, W) \
	X(FCVT_S_WU, "fcvt.s.wu", FX, RM, WU) \
	X(FCVT_S_L, "fcvt.s.l", FX, RM, L) \
	X(FCVT_S_LU, "fcvt.s.lu", FX, RM, LU) \
	X(FMV_W_X, "fmv.w.x", FX, NORM, W) \
	X(FCVT_S_D, "fcvt.s.d", FF, RM, D) \
	X(FADD_D, "fadd.d", FFF, RM, D) \
	X(FSUB_D, "fsub.d", FFF, RM, D) \
	X(FMUL_D, "fmul.d", FFF, RM, D) \
	X(FDIV_D, "fdiv.d", FFF, RM, D) \
	X(FSQRT_D, "fsqrt.d", FF, RM, D) \
	X(FMADD_D, "fmadd.d", FFFF, RM, D) \
	X(FMSUB_D, "fmsub.d", FFFF, RM, D) \
	X(FNMSUB_D, "fnmsub.d", FFFF, RM, D) \
	X(FNMADD_D, "fnmadd.d", FFFF, RM, D) \
	X(FMIN_D, "fmin.d", FFF, NORM, D) \
	X(FMAX_D, "fmax.d", FFF, NORM, D) \
	X(FSGNJ_D, "fsgnj.d", FFF, NORM, D) \
	X(FSGNJN_D, "fsgnjn.d", FFF, NORM, D) \
	X(FSGNJX_D, "fsgnjx.d", FFF, NORM, D) \
	X(FEQ_D, "feq.d", XFF, NORM, D) \
	X(FLT_D, "flt.d", XFF, NORM, D) \
	X(FLE_D, "fle.d", XFF, NORM, D) \
	X(FCLASS_D, "fclass.d", XF, NORM, D) \
	X(FCVT_W_D, "fcvt.w.d", XF, RM, D) \
	X(FCVT_WU_D, "fcvt.wu.d", XF, RM, D) \
	X(FCVT_L_D, "fcvt.l.d", XF, RM, D) \
	X(FCVT_LU_D, "fcvt.lu.d", XF, RM, D) \
	X(FMV_X_D, "fmv.x.d", XF, NORM, D) \
	X(FCVT_D_W, "fcvt.d.w", FX, NORM, W) \
	X(FCVT_D_WU, "fcvt.d.wu", FX, NORM, WU) \
	X(FCVT_D_L, "fcvt.d.l", FX, RM, L) \
	X(FCVT_D_LU, "fcvt.d.lu", FX, RM, LU) \
	X(FMV_D_X, "fmv.d.x", FX, NORM, L) \
	X(FCVT_D_S, "fcvt.d.s", FF, NORM, S)

enum {
#define FP_OP_ENUM(name, mn, kind, rm, fmt) OP_##name,
	FP_OPS(FP_OP_ENUM)
#undef FP_OP_ENUM
	OP_COUNT
};

/* rm field of a case: 0-4 a static mode, RM_DYN the dynamic one (frm) */
#define RM_DYN 7

/* One case of the binary table: 32 bytes, host and guest little-endian. */
struct fp_case {
	uint16_t op;
	uint8_t rm, frm;
	uint32_t pad;
	uint64_t a, b, c;  /* register values: f regs as 64-bit (NaN-boxed) */
};

#endif
