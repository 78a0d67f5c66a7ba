/* IEEE-754 binary32/binary64 arithmetic with RISC-V semantics (F and D
 * chapters of the Unprivileged ISA): raw bit patterns in and out, rm is a
 * resolved rounding mode (RNE=0 RTZ=1 RDN=2 RUP=3 RMM=4), and exception
 * flags are ORed into *fl using the fflags bit layout (NX=1 UF=2 OF=4
 * DZ=8 NV=16). NaN results are the canonical NaN. */
#ifndef RVPMU_FPU_H
#define RVPMU_FPU_H
#include <stdint.h>

enum { FFLAG_NX = 1, FFLAG_UF = 2, FFLAG_OF = 4, FFLAG_DZ = 8, FFLAG_NV = 16 };
enum { RM_RNE, RM_RTZ, RM_RDN, RM_RUP, RM_RMM };

#define FPU_DECLARE(T, P)                                                     \
	T P##_add(T a, T b, int rm, uint32_t *fl);                            \
	T P##_sub(T a, T b, int rm, uint32_t *fl);                            \
	T P##_mul(T a, T b, int rm, uint32_t *fl);                            \
	T P##_div(T a, T b, int rm, uint32_t *fl);                            \
	T P##_sqrt(T a, int rm, uint32_t *fl);                                \
	/* a*b+c with one rounding; neg_prod negates a*b, neg_c negates c */  \
	T P##_fma(T a, T b, T c, int neg_prod, int neg_c, int rm, uint32_t *fl); \
	T P##_min(T a, T b, uint32_t *fl);                                    \
	T P##_max(T a, T b, uint32_t *fl);                                    \
	int P##_eq(T a, T b, uint32_t *fl);                                   \
	int P##_lt(T a, T b, uint32_t *fl);                                   \
	int P##_le(T a, T b, uint32_t *fl);                                   \
	uint64_t P##_classify(T a);                                           \
	/* conversions to integers saturate and raise NV as the spec says;   \
	 * 32-bit results are returned sign-extended to 64 bits */            \
	uint64_t P##_to_i32(T a, int rm, uint32_t *fl);                       \
	uint64_t P##_to_u32(T a, int rm, uint32_t *fl);                       \
	uint64_t P##_to_i64(T a, int rm, uint32_t *fl);                       \
	uint64_t P##_to_u64(T a, int rm, uint32_t *fl);                       \
	T P##_from_i32(int32_t v, int rm, uint32_t *fl);                      \
	T P##_from_u32(uint32_t v, int rm, uint32_t *fl);                     \
	T P##_from_i64(int64_t v, int rm, uint32_t *fl);                      \
	T P##_from_u64(uint64_t v, int rm, uint32_t *fl);

FPU_DECLARE(uint32_t, f32)
FPU_DECLARE(uint64_t, f64)
#undef FPU_DECLARE

/* Call before operations whose *fl starts empty (a cleared fflags, a new
 * run, each case of a test): the host-assisted path ORs in the host's
 * sticky flags. */
void fpu_reset_host_flags(void);

uint64_t f32_to_f64(uint32_t a, uint32_t *fl);
uint32_t f64_to_f32(uint64_t a, int rm, uint32_t *fl);

#endif
