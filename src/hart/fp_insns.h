/* F and D arithmetic as one list, X(name, kind, expr), expanded by the
 * step loop (exec_ops.h: a handler each) and by the block translator's
 * helper (jit.c: a case each), so both compute exactly the same. kind is
 * where the result goes: S an f register (binary32, NaN-boxed), D an f
 * register, I an x register. The user defines RM() (the resolved rounding
 * mode; a reserved one leaves), and has d, f, x and h in scope. */
#ifndef RVPMU_HART_FP_INSNS_H
#define RVPMU_HART_FP_INSNS_H
#include <stdint.h>
#include "fpu.h"

static inline uint32_t unbox32(uint64_t f)
{
	return (f >> 32) == 0xffffffffu ? (uint32_t)f : 0x7fc00000u;
}
#define BOX32(v) (0xffffffff00000000ull | (uint32_t)(v))
#define W(v) ((uint64_t)(int64_t)(int32_t)(v))
#define FS1 unbox32(f[d->rs1])
#define FS2 unbox32(f[d->rs2])
#define FS3 unbox32(f[d->rs3])
#define DS1 f[d->rs1]
#define DS2 f[d->rs2]
#define DS3 f[d->rs3]
#define FL (&h->fflags)

#define FP_OPS(X) \
	X(FMADD_S, S, f32_fma(FS1, FS2, FS3, 0, 0, RM(), FL)) \
	X(FMSUB_S, S, f32_fma(FS1, FS2, FS3, 0, 1, RM(), FL)) \
	X(FNMSUB_S, S, f32_fma(FS1, FS2, FS3, 1, 0, RM(), FL)) \
	X(FNMADD_S, S, f32_fma(FS1, FS2, FS3, 1, 1, RM(), FL)) \
	X(FADD_S, S, f32_add(FS1, FS2, RM(), FL)) \
	X(FSUB_S, S, f32_sub(FS1, FS2, RM(), FL)) \
	X(FMUL_S, S, f32_mul(FS1, FS2, RM(), FL)) \
	X(FDIV_S, S, f32_div(FS1, FS2, RM(), FL)) \
	X(FSQRT_S, S, f32_sqrt(FS1, RM(), FL)) \
	X(FSGNJ_S, S, (FS1 & 0x7fffffffu) | (FS2 & 0x80000000u)) \
	X(FSGNJN_S, S, (FS1 & 0x7fffffffu) | (~FS2 & 0x80000000u)) \
	X(FSGNJX_S, S, FS1 ^ (FS2 & 0x80000000u)) \
	X(FMIN_S, S, f32_min(FS1, FS2, FL)) \
	X(FMAX_S, S, f32_max(FS1, FS2, FL)) \
	X(FCVT_W_S, I, f32_to_i32(FS1, RM(), FL)) \
	X(FCVT_WU_S, I, f32_to_u32(FS1, RM(), FL)) \
	X(FCVT_L_S, I, f32_to_i64(FS1, RM(), FL)) \
	X(FCVT_LU_S, I, f32_to_u64(FS1, RM(), FL)) \
	X(FMV_X_W, I, W(f[d->rs1])) \
	X(FCLASS_S, I, f32_classify(FS1)) \
	X(FEQ_S, I, (uint64_t)f32_eq(FS1, FS2, FL)) \
	X(FLT_S, I, (uint64_t)f32_lt(FS1, FS2, FL)) \
	X(FLE_S, I, (uint64_t)f32_le(FS1, FS2, FL)) \
	X(FCVT_S_W, S, f32_from_i32((int32_t)RS1, RM(), FL)) \
	X(FCVT_S_WU, S, f32_from_u32((uint32_t)RS1, RM(), FL)) \
	X(FCVT_S_L, S, f32_from_i64((int64_t)RS1, RM(), FL)) \
	X(FCVT_S_LU, S, f32_from_u64(RS1, RM(), FL)) \
	X(FMV_W_X, S, (uint32_t)RS1) \
	X(FMADD_D, D, f64_fma(DS1, DS2, DS3, 0, 0, RM(), FL)) \
	X(FMSUB_D, D, f64_fma(DS1, DS2, DS3, 0, 1, RM(), FL)) \
	X(FNMSUB_D, D, f64_fma(DS1, DS2, DS3, 1, 0, RM(), FL)) \
	X(FNMADD_D, D, f64_fma(DS1, DS2, DS3, 1, 1, RM(), FL)) \
	X(FADD_D, D, f64_add(DS1, DS2, RM(), FL)) \
	X(FSUB_D, D, f64_sub(DS1, DS2, RM(), FL)) \
	X(FMUL_D, D, f64_mul(DS1, DS2, RM(), FL)) \
	X(FDIV_D, D, f64_div(DS1, DS2, RM(), FL)) \
	X(FSQRT_D, D, f64_sqrt(DS1, RM(), FL)) \
	X(FSGNJ_D, D, (DS1 & ~(1ull << 63)) | (DS2 & (1ull << 63))) \
	X(FSGNJN_D, D, (DS1 & ~(1ull << 63)) | (~DS2 & (1ull << 63))) \
	X(FSGNJX_D, D, DS1 ^ (DS2 & (1ull << 63))) \
	X(FMIN_D, D, f64_min(DS1, DS2, FL)) \
	X(FMAX_D, D, f64_max(DS1, DS2, FL)) \
	X(FCVT_S_D, S, f64_to_f32(DS1, RM(), FL)) \
	X(FCVT_D_S, D, ((void)RM(), f32_to_f64(FS1, FL))) \
	X(FEQ_D, I, (uint64_t)f64_eq(DS1, DS2, FL)) \
	X(FLT_D, I, (uint64_t)f64_lt(DS1, DS2, FL)) \
	X(FLE_D, I, (uint64_t)f64_le(DS1, DS2, FL)) \
	X(FCLASS_D, I, f64_classify(DS1)) \
	X(FCVT_W_D, I, f64_to_i32(DS1, RM(), FL)) \
	X(FCVT_WU_D, I, f64_to_u32(DS1, RM(), FL)) \
	X(FCVT_L_D, I, f64_to_i64(DS1, RM(), FL)) \
	X(FCVT_LU_D, I, f64_to_u64(DS1, RM(), FL)) \
	X(FMV_X_D, I, DS1) \
	X(FCVT_D_W, D, f64_from_i32((int32_t)RS1, RM(), FL)) \
	X(FCVT_D_WU, D, f64_from_u32((uint32_t)RS1, RM(), FL)) \
	X(FCVT_D_L, D, f64_from_i64((int64_t)RS1, RM(), FL)) \
	X(FCVT_D_LU, D, f64_from_u64(RS1, RM(), FL)) \
	X(FMV_D_X, D, RS1)

#endif
