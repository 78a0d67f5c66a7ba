/* Host test of src/hart/fpu.c.
 *
 *   fpu_test              spec-table checks, one PASS/FAIL line each
 *   fpu_test CASES.bin    run the FP differential test's cases (see
 *                         tests/fp/) through fpu.c and print what the
 *                         riscv64 guest prints: "RESULT FFLAGS" per case
 *
 * Build: gcc -Iinclude -Isrc/hart -Itests/fp tests/unit/fpu_test.c
 * src/hart/fpu.c (add -DFPU_SOFTONLY=1 to both for the software engine).
 * The harness adds what the hart does around fpu.c: NaN-boxing of f32
 * values, dynamic rounding, and moves/sign injection, which fpu.c leaves
 * to the interpreter. */
#include <stdio.h>
#include <string.h>
#include "fpu.h"
#include "fp_ops.h"

#define BOX(x) (0xffffffff00000000ull | (uint32_t)(x))

/* f32 operands are NaN-boxed; anything else reads as the canonical NaN */
static uint32_t unbox(uint64_t v)
{
	return (v >> 32) == 0xffffffffu ? (uint32_t)v : 0x7fc00000u;
}

static uint64_t run(const struct fp_case *k, uint32_t *fl)
{
	int rm = k->rm == RM_DYN ? k->frm : k->rm;
	uint32_t sa = unbox(k->a), sb = unbox(k->b), sc = unbox(k->c);
	uint64_t a = k->a, b = k->b, c = k->c;
	const uint32_t S = 0x80000000u;
	const uint64_t D = 0x8000000000000000ull;
	switch (k->op) {
	case OP_FADD_S: return BOX(f32_add(sa, sb, rm, fl));
	case OP_FSUB_S: return BOX(f32_sub(sa, sb, rm, fl));
	case OP_FMUL_S: return BOX(f32_mul(sa, sb, rm, fl));
	case OP_FDIV_S: return BOX(f32_div(sa, sb, rm, fl));
	case OP_FSQRT_S: return BOX(f32_sqrt(sa, rm, fl));
	case OP_FMADD_S: return BOX(f32_fma(sa, sb, sc, 0, 0, rm, fl));
	case OP_FMSUB_S: return BOX(f32_fma(sa, sb, sc, 0, 1, rm, fl));
	case OP_FNMSUB_S: return BOX(f32_fma(sa, sb, sc, 1, 0, rm, fl));
	case OP_FNMADD_S: return BOX(f32_fma(sa, sb, sc, 1, 1, rm, fl));
	case OP_FMIN_S: return BOX(f32_min(sa, sb, fl));
	case OP_FMAX_S: return BOX(f32_max(sa, sb, fl));
	case OP_FSGNJ_S: return BOX((sa & ~S) | (sb & S));
	case OP_FSGNJN_S: return BOX((sa & ~S) | (~sb & S));
	case OP_FSGNJX_S: return BOX(sa ^ (sb & S));
	case OP_FEQ_S: return (uint64_t)f32_eq(sa, sb, fl);
	case OP_FLT_S: return (uint64_t)f32_lt(sa, sb, fl);
	case OP_FLE_S: return (uint64_t)f32_le(sa, sb, fl);
	case OP_FCLASS_S: return f32_classify(sa);
	case OP_FCVT_W_S: return f32_to_i32(sa, rm, fl);
	case OP_FCVT_WU_S: return f32_to_u32(sa, rm, fl);
	case OP_FCVT_L_S: return f32_to_i64(sa, rm, fl);
	case OP_FCVT_LU_S: return f32_to_u64(sa, rm, fl);
	case OP_FMV_X_W: return (uint64_t)(int64_t)(int32_t)(uint32_t)a;
	case OP_FCVT_S_W: return BOX(f32_from_i32((int32_t)a, rm, fl));
	case OP_FCVT_S_WU: return BOX(f32_from_u32((uint32_t)a, rm, fl));
	case OP_FCVT_S_L: return BOX(f32_from_i64((int64_t)a, rm, fl));
	case OP_FCVT_S_LU: return BOX(f32_from_u64(a, rm, fl));
	case OP_FMV_W_X: return BOX(a);
	case OP_FCVT_S_D: return BOX(f64_to_f32(a, rm, fl));
	case OP_FADD_D: return f64_add(a, b, rm, fl);
	case OP_FSUB_D: return f64_sub(a, b, rm, fl);
	case OP_FMUL_D: return f64_mul(a, b, rm, fl);
	case OP_FDIV_D: return f64_div(a, b, rm, fl);
	case OP_FSQRT_D: return f64_sqrt(a, rm, fl);
	case OP_FMADD_D: return f64_fma(a, b, c, 0, 0, rm, fl);
	case OP_FMSUB_D: return f64_fma(a, b, c, 0, 1, rm, fl);
	case OP_FNMSUB_D: return f64_fma(a, b, c, 1, 0, rm, fl);
	case OP_FNMADD_D: return f64_fma(a, b, c, 1, 1, rm, fl);
	case OP_FMIN_D: return f64_min(a, b, fl);
	case OP_FMAX_D: return f64_max(a, b, fl);
	case OP_FSGNJ_D: return (a & ~D) | (b & D);
	case OP_FSGNJN_D: return (a & ~D) | (~b & D);
	case OP_FSGNJX_D: return a ^ (b & D);
	case OP_FEQ_D: return (uint64_t)f64_eq(a, b, fl);
	case OP_FLT_D: return (uint64_t)f64_lt(a, b, fl);
	case OP_FLE_D: return (uint64_t)f64_le(a, b, fl);
	case OP_FCLASS_D: return f64_classify(a);
	case OP_FCVT_W_D: return f64_to_i32(a, rm, fl);
	case OP_FCVT_WU_D: return f64_to_u32(a, rm, fl);
	case OP_FCVT_L_D: return f64_to_i64(a, rm, fl);
	case OP_FCVT_LU_D: return f64_to_u64(a, rm, fl);
	case OP_FMV_X_D: return a;
	case OP_FCVT_D_W: return f64_from_i32((int32_t)a, rm, fl);
	case OP_FCVT_D_WU: return f64_from_u32((uint32_t)a, rm, fl);
	case OP_FCVT_D_L: return f64_from_i64((int64_t)a, rm, fl);
	case OP_FCVT_D_LU: return f64_from_u64(a, rm, fl);
	case OP_FMV_D_X: return a;
	case OP_FCVT_D_S: return f32_to_f64(sa, fl);
	}
	*fl = 0xff;
	return ~0ull;
}

static int run_cases(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	struct fp_case k;
	while (fread(&k, sizeof k, 1, f) == 1) {
		uint32_t fl = 0;
		fpu_reset_host_flags();
		uint64_t r = run(&k, &fl);
		printf("%016llx %02x\n", (unsigned long long)r, fl);
	}
	fclose(f);
	return 0;
}

/* Spot checks whose expected values come straight from the spec's text
 * (conversion table, canonical NaN, fmin/fmax, comparisons, fclass). */
static int failures;
static void check(const char *name, uint64_t got, uint64_t want, uint32_t gotfl, uint32_t wantfl)
{
	if (got == want && gotfl == wantfl) {
		printf("PASS fpu.c %s\n", name);
	} else {
		printf("FAIL fpu.c %s: got %llx/%x, want %llx/%x\n", name,
			(unsigned long long)got, gotfl, (unsigned long long)want, wantfl);
		failures++;
	}
}

#define CHK(name, expr, want, wantfl) do { uint32_t fl = 0; fpu_reset_host_flags(); \
	uint64_t got = (uint64_t)(expr); check(name, got, want, fl, wantfl); } while (0)

static void spec_checks(void)
{
	const uint32_t qnan = 0x7fc00000, snan = 0x7f800001, inf = 0x7f800000;
	const uint64_t dqnan = 0x7ff8000000000000ull, dsnan = 0x7ff0000000000001ull;
	/* FCVT.W.S of NaN is 2^31-1 and invalid; of -inf is -2^31 */
	CHK("fcvt.w.s NaN", f32_to_i32(qnan, RM_RNE, &fl), 0x7fffffff, FFLAG_NV);
	CHK("fcvt.w.s -inf", f32_to_i32(inf | 0x80000000u, RM_RNE, &fl), 0xffffffff80000000ull, FFLAG_NV);
	CHK("fcvt.wu.s NaN", f32_to_u32(qnan, RM_RNE, &fl), ~0ull, FFLAG_NV);
	CHK("fcvt.wu.s -1.0", f32_to_u32(0xbf800000, RM_RNE, &fl), 0, FFLAG_NV);
	CHK("fcvt.wu.s -0.25 rtz", f32_to_u32(0xbe800000, RM_RTZ, &fl), 0, FFLAG_NX);
	CHK("fcvt.lu.d NaN", f64_to_u64(dqnan, RM_RNE, &fl), ~0ull, FFLAG_NV);
	CHK("fcvt.l.d 2^63", f64_to_i64(0x43e0000000000000ull, RM_RNE, &fl), 0x7fffffffffffffffull, FFLAG_NV);
	CHK("fcvt.l.d -2^63", f64_to_i64(0xc3e0000000000000ull, RM_RNE, &fl), 0x8000000000000000ull, 0);
	CHK("fcvt.w.d 2.5 rne", f64_to_i32(0x4004000000000000ull, RM_RNE, &fl), 2, FFLAG_NX);
	CHK("fcvt.w.d 2.5 rmm", f64_to_i32(0x4004000000000000ull, RM_RMM, &fl), 3, FFLAG_NX);
	CHK("fcvt.w.d -2.5 rmm", f64_to_i32(0xc004000000000000ull, RM_RMM, &fl), (uint64_t)-3, FFLAG_NX);
	/* arithmetic NaNs are canonical; sNaN inputs are invalid */
	CHK("fadd.s sNaN", f32_add(snan, 0x3f800000, RM_RNE, &fl), qnan, FFLAG_NV);
	CHK("fadd.d qNaN payload", f64_add(dqnan | 5, 0, RM_RNE, &fl), dqnan, 0);
	CHK("fsqrt.d -1", f64_sqrt(0xbff0000000000000ull, RM_RNE, &fl), dqnan, FFLAG_NV);
	CHK("fsqrt.s -0", f32_sqrt(0x80000000u, RM_RNE, &fl), 0x80000000u, 0);
	CHK("fdiv.s 1/0", f32_div(0x3f800000, 0, RM_RNE, &fl), inf, FFLAG_DZ);
	CHK("fmadd.s 0*inf+qNaN", f32_fma(0, inf, qnan, 0, 0, RM_RNE, &fl), qnan, FFLAG_NV);
	/* 1 + 2^-24 is a tie: RNE keeps 1, RMM goes away */
	CHK("fadd.s tie rne", f32_add(0x3f800000, 0x33800000, RM_RNE, &fl), 0x3f800000, FFLAG_NX);
	CHK("fadd.s tie rmm", f32_add(0x3f800000, 0x33800000, RM_RMM, &fl), 0x3f800001, FFLAG_NX);
	CHK("fmul.s overflow rtz", f32_mul(0x7f7fffff, 0x40000000, RM_RTZ, &fl), 0x7f7fffff, FFLAG_OF | FFLAG_NX);
	CHK("fmul.d overflow rdn", f64_mul(0x7fefffffffffffffull, 0xc000000000000000ull, RM_RDN, &fl),
		0xfff0000000000000ull, FFLAG_OF | FFLAG_NX);
	/* minimumNumber: the non-NaN operand wins; sNaN still invalid */
	CHK("fmin.s qNaN,1", f32_min(qnan, 0x3f800000, &fl), 0x3f800000, 0);
	CHK("fmax.d sNaN,1", f64_max(dsnan, 0x3ff0000000000000ull, &fl), 0x3ff0000000000000ull, FFLAG_NV);
	CHK("fmin.s NaN,NaN", f32_min(snan, qnan | 1, &fl), qnan, FFLAG_NV);
	CHK("fmin.s -0,+0", f32_min(0, 0x80000000u, &fl), 0x80000000u, 0);
	CHK("fmax.d -0,+0", f64_max(1ull << 63, 0, &fl), 0, 0);
	/* FEQ is quiet on qNaN; FLT/FLE signal */
	CHK("feq.s qNaN", f32_eq(qnan, qnan, &fl), 0, 0);
	CHK("feq.s sNaN", f32_eq(snan, 0, &fl), 0, FFLAG_NV);
	CHK("flt.d qNaN", f64_lt(dqnan, 0, &fl), 0, FFLAG_NV);
	CHK("fle.s -0,+0", f32_le(0x80000000u, 0, &fl), 1, 0);
	CHK("flt.s -0,+0", f32_lt(0x80000000u, 0, &fl), 0, 0);
	CHK("feq.d -0,+0", f64_eq(1ull << 63, 0, &fl), 1, 0);
	/* FCLASS bits */
	CHK("fclass.s -inf", f32_classify(0xff800000u), 1, 0);
	CHK("fclass.s +subnormal", f32_classify(1), 1 << 5, 0);
	CHK("fclass.d sNaN", f64_classify(dsnan), 1 << 8, 0);
	CHK("fclass.d qNaN", f64_classify(dqnan), 1 << 9, 0);
	CHK("fclass.s -0", f32_classify(0x80000000u), 1 << 3, 0);
	/* conversions between formats: NaN becomes canonical */
	CHK("fcvt.d.s sNaN", f32_to_f64(snan, &fl), dqnan, FFLAG_NV);
	CHK("fcvt.s.d qNaN payload", f64_to_f32(dqnan | 0xabc, RM_RNE, &fl), qnan, 0);
	CHK("fcvt.s.d 1+2^-24 rmm", f64_to_f32(0x3ff0000010000000ull, RM_RMM, &fl), 0x3f800001, FFLAG_NX);
	/* tininess after rounding (IEEE 754 7.5): 2^-126 - 2^-151 is a tie in
	 * RNE that rounds to 2^-126 even with unbounded exponent: not tiny;
	 * in RTZ it stays below 2^-126: tiny and inexact */
	CHK("fcvt.s.d tiny after rounding", f64_to_f32(0x380ffffff0000000ull, RM_RNE, &fl), 0x00800000, FFLAG_NX);
	CHK("fcvt.s.d tiny rtz", f64_to_f32(0x380ffffff0000000ull, RM_RTZ, &fl), 0x007fffff, FFLAG_NX | FFLAG_UF);
	/* 2^-126 * (1 - 2^-24) is exact with unbounded exponent, so tiny */
	CHK("fmul.s tiny rne", f32_mul(0x00800000, 0x3f7fffff, RM_RNE, &fl), 0x00800000, FFLAG_NX | FFLAG_UF);
	CHK("fcvt.s.lu 2^64-1", f32_from_u64(~0ull, RM_RNE, &fl), 0x5f800000, FFLAG_NX);
	CHK("fcvt.d.l -2^63", f64_from_i64(INT64_MIN, RM_RNE, &fl), 0xc3e0000000000000ull, 0);
}

int main(int argc, char **argv)
{
	if (argc == 2)
		return run_cases(argv[1]);
	spec_checks();
	return failures != 0;
}
