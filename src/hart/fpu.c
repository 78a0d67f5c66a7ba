/* IEEE-754 binary32/binary64 with RISC-V semantics (Unprivileged ISA,
 * "F" and "D" chapters).
 *
 * Two engines compute the same results:
 *  - the host's SSE unit for add/sub/mul/div/sqrt/fma in RNE, RTZ, RDN and
 *    RUP: x86 SSE rounds like IEEE 754, detects tininess after rounding
 *    like RISC-V and raises the same five flags; NaNs are handled here
 *    before and after so only canonical NaNs come out;
 *  - a software engine (exact integer arithmetic and one rounding routine)
 *    for RMM, which SSE lacks, for hosts without FMA3, and for every
 *    conversion, comparison and sign operation.
 * Build with -DFPU_SOFTONLY=1 to send every operation through software
 * (the differential test does, to check both engines against QEMU). */
#include <string.h>
#include "fpu.h"

/* the hardware path is x86-64 SSE; other hosts use software only */
#if !defined(__x86_64__)
#undef FPU_SOFTONLY
#define FPU_SOFTONLY 1
#elif !defined(FPU_SOFTONLY)
#define FPU_SOFTONLY 0
#endif

typedef unsigned __int128 u128;

/* A format: m fraction bits, eb exponent bits. */
#define F32_M 23
#define F32_EB 8
#define F64_M 52
#define F64_EB 11
#define F32_QNAN 0x7fc00000u
#define F64_QNAN 0x7ff8000000000000ull

enum { C_ZERO, C_FINITE, C_INF, C_QNAN, C_SNAN };

/* A nonzero finite value is (-1)^sign * sig * 2^exp with bit 63 of sig set. */
struct unp {
	int sign, exp;
	uint64_t sig;
};

static inline uint64_t fmask(int m) { return (1ull << m) - 1; }
static inline int emax_field(int eb) { return (1 << eb) - 1; }
static inline int bias_of(int eb) { return (1 << (eb - 1)) - 1; }

static inline int unpack(int m, int eb, uint64_t a, struct unp *u)
{
	int e = (int)(a >> m) & emax_field(eb);
	uint64_t f = a & fmask(m);
	u->sign = (int)(a >> (m + eb)) & 1;
	u->exp = 0;
	u->sig = 0;
	if (e == emax_field(eb)) {
		if (!f)
			return C_INF;
		return (f >> (m - 1)) & 1 ? C_QNAN : C_SNAN;
	}
	if (e == 0) {
		if (!f)
			return C_ZERO;
		e = 1;
	} else {
		f |= 1ull << m;
	}
	int sh = __builtin_clzll(f);
	u->sig = f << sh;
	u->exp = e - bias_of(eb) - m - sh;
	return C_FINITE;
}

static inline int is_nan(int m, int eb, uint64_t a)
{
	return ((a >> m) & emax_field(eb)) == (uint64_t)emax_field(eb) && (a & fmask(m));
}

static inline int is_snan(int m, int eb, uint64_t a)
{
	return is_nan(m, eb, a) && !((a >> (m - 1)) & 1);
}

static inline uint64_t canon_nan(int m) { return m == F32_M ? F32_QNAN : F64_QNAN; }
static inline uint64_t sign_bit(int m, int eb) { return 1ull << (m + eb); }
static inline uint64_t inf_bits(int m, int eb, int s)
{
	return ((uint64_t)s << (m + eb)) | ((uint64_t)emax_field(eb) << m);
}
static inline uint64_t zero_bits(int m, int eb, int s) { return (uint64_t)s << (m + eb); }

/* Round sig * 2^-s to an integer in mode rm (sign is the value's sign);
 * *inexact is set when bits were dropped. s may be 0 or exceed 64. */
static inline uint64_t shift_round(uint64_t sig, int s, int sign, int rm, int *inexact)
{
	uint64_t kept, rem, half;
	if (s == 0) {
		*inexact = 0;
		return sig;
	}
	if (s < 64) {
		kept = sig >> s;
		rem = sig & ((1ull << s) - 1);
		half = 1ull << (s - 1);
	} else {
		kept = 0;
		rem = sig;
		half = s == 64 ? 1ull << 63 : 0;
		if (s > 64) { /* below half but nonzero: compare as rem < half */
			rem = sig != 0;
			half = 2;
		}
	}
	*inexact = rem != 0;
	if (!rem)
		return kept;
	int up;
	switch (rm) {
	case RM_RTZ: up = 0; break;
	case RM_RDN: up = sign; break;
	case RM_RUP: up = !sign; break;
	case RM_RMM: up = rem >= half; break;
	default: up = rem > half || (rem == half && (kept & 1)); break;
	}
	return kept + up;
}

/* Round (-1)^sign * sig * 2^exp (sig != 0; bits lost by the caller are
 * ORed into bit 0 of a sig that has at least m+3 significant bits) into
 * format (m, eb): the one rounding step of IEEE 754 with RISC-V's
 * after-rounding tininess (Unprivileged ISA, "Floating-Point Control and
 * Status Register" / IEEE 754-2019 7.5). */
static uint64_t round_pack(int m, int eb, int sign, int exp, uint64_t sig, int rm, uint32_t *fl)
{
	int sh = __builtin_clzll(sig);
	sig <<= sh;
	exp -= sh;
	int bias = bias_of(eb), emin = 1 - bias;
	int e = exp + 63; /* value is 1.xxx * 2^e */
	int s = 63 - m, inexact, tiny = 0;
	uint64_t kept, bits;

	if (e > bias + 1)
		goto overflow;
	if (e < emin) {
		tiny = 1;
		if (e == emin - 1) {
			/* not tiny if rounding with unbounded exponent reaches 2^emin */
			int ix;
			if (shift_round(sig, s, sign, rm, &ix) >> (m + 1))
				tiny = 0;
		}
		s += emin - e;
		kept = shift_round(sig, s, sign, rm, &inexact);
		bits = kept; /* a carry into bit m makes it the smallest normal */
	} else {
		kept = shift_round(sig, s, sign, rm, &inexact);
		bits = ((uint64_t)(e + bias - 1) << m) + kept;
		if ((bits >> m) >= (uint64_t)emax_field(eb))
			goto overflow;
	}
	if (inexact) {
		*fl |= FFLAG_NX;
		if (tiny)
			*fl |= FFLAG_UF;
	}
	return ((uint64_t)sign << (m + eb)) | bits;
overflow:
	*fl |= FFLAG_OF | FFLAG_NX;
	if (rm == RM_RTZ || (rm == RM_RDN && !sign) || (rm == RM_RUP && sign))
		return inf_bits(m, eb, sign) - 1; /* largest finite */
	return inf_bits(m, eb, sign);
}

/* Reduce a nonzero 128-bit significand to 64 bits, the dropped bits
 * ORed into bit 0; value = v * 2^*exp before and after. */
static inline uint64_t jam128(u128 v, int *exp)
{
	uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
	if (!hi)
		return lo;
	int sh = __builtin_clzll(hi);
	v <<= sh;
	*exp += 64 - sh;
	return (uint64_t)(v >> 64) | ((uint64_t)v != 0);
}

static inline u128 shr_jam128(u128 v, int d)
{
	if (d <= 0)
		return v;
	if (d >= 127)
		return v != 0;
	return (v >> d) | ((v & (((u128)1 << d) - 1)) != 0);
}

/* Sum of (-1)^sx * x * 2^ex and (-1)^sy * y * 2^ey, x and y nonzero with
 * bit 126 their top bit, rounded once. */
static uint64_t soft_sum(int m, int eb, int sx, int ex, u128 x, int sy, int ey, u128 y,
	int rm, uint32_t *fl)
{
	if (ex < ey || (ex == ey && x < y)) {
		int t = sx; sx = sy; sy = t;
		t = ex; ex = ey; ey = t;
		u128 v = x; x = y; y = v;
	}
	y = shr_jam128(y, ex - ey);
	u128 r;
	if (sx == sy) {
		r = x + y; /* < 2^128: both are below 2^127 */
	} else {
		r = x - y;
		if (!r) /* exact cancellation: +0, or -0 when rounding down */
			return zero_bits(m, eb, rm == RM_RDN);
	}
	int e = ex;
	uint64_t sig = jam128(r, &e);
	return round_pack(m, eb, sx, e, sig, rm, fl);
}

static uint64_t soft_add(int m, int eb, uint64_t a, uint64_t b, int rm, uint32_t *fl)
{
	struct unp x, y;
	int ca = unpack(m, eb, a, &x), cb = unpack(m, eb, b, &y);
	if (ca >= C_QNAN || cb >= C_QNAN) {
		if (ca == C_SNAN || cb == C_SNAN)
			*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (ca == C_INF || cb == C_INF) {
		if (ca == C_INF && cb == C_INF && x.sign != y.sign) {
			*fl |= FFLAG_NV;
			return canon_nan(m);
		}
		return ca == C_INF ? a : b;
	}
	if (ca == C_ZERO && cb == C_ZERO)
		return x.sign == y.sign ? a : zero_bits(m, eb, rm == RM_RDN);
	if (ca == C_ZERO)
		return b;
	if (cb == C_ZERO)
		return a;
	return soft_sum(m, eb, x.sign, x.exp - 63, (u128)x.sig << 63,
		y.sign, y.exp - 63, (u128)y.sig << 63, rm, fl);
}

static uint64_t soft_mul(int m, int eb, uint64_t a, uint64_t b, int rm, uint32_t *fl)
{
	struct unp x, y;
	int ca = unpack(m, eb, a, &x), cb = unpack(m, eb, b, &y);
	int s = x.sign ^ y.sign;
	if (ca >= C_QNAN || cb >= C_QNAN) {
		if (ca == C_SNAN || cb == C_SNAN)
			*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (ca == C_INF || cb == C_INF) {
		if (ca == C_ZERO || cb == C_ZERO) {
			*fl |= FFLAG_NV;
			return canon_nan(m);
		}
		return inf_bits(m, eb, s);
	}
	if (ca == C_ZERO || cb == C_ZERO)
		return zero_bits(m, eb, s);
	int e = x.exp + y.exp;
	uint64_t sig = jam128((u128)x.sig * y.sig, &e);
	return round_pack(m, eb, s, e, sig, rm, fl);
}

static uint64_t soft_div(int m, int eb, uint64_t a, uint64_t b, int rm, uint32_t *fl)
{
	struct unp x, y;
	int ca = unpack(m, eb, a, &x), cb = unpack(m, eb, b, &y);
	int s = x.sign ^ y.sign;
	if (ca >= C_QNAN || cb >= C_QNAN) {
		if (ca == C_SNAN || cb == C_SNAN)
			*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if ((ca == C_INF && cb == C_INF) || (ca == C_ZERO && cb == C_ZERO)) {
		*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (ca == C_INF)
		return inf_bits(m, eb, s);
	if (cb == C_INF || ca == C_ZERO)
		return zero_bits(m, eb, s);
	if (cb == C_ZERO) {
		*fl |= FFLAG_DZ;
		return inf_bits(m, eb, s);
	}
	/* quotient of at least 64 bits; a nonzero remainder is sticky */
	u128 n = (u128)x.sig << 64;
	u128 q = n / y.sig;
	int e = x.exp - 64 - y.exp;
	uint64_t sig = jam128(q | (n % y.sig != 0), &e);
	return round_pack(m, eb, s, e, sig, rm, fl);
}

static uint64_t soft_sqrt(int m, int eb, uint64_t a, int rm, uint32_t *fl)
{
	struct unp x;
	int ca = unpack(m, eb, a, &x);
	if (ca >= C_QNAN) {
		if (ca == C_SNAN)
			*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (ca == C_ZERO)
		return a;
	if (x.sign) {
		*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (ca == C_INF)
		return a;
	/* n = sig * 2^k with exp - k even; the root has 64 bits */
	int k = (x.exp & 1) ? 63 : 64;
	u128 n = (u128)x.sig << k, rem = 0, root = 0;
	for (int i = 0; i < 64; i++) {
		rem = (rem << 2) | (uint64_t)(n >> 126);
		n <<= 2;
		root <<= 1;
		u128 t = (root << 1) | 1;
		if (rem >= t) {
			rem -= t;
			root |= 1;
		}
	}
	uint64_t sig = (uint64_t)root | (rem != 0);
	return round_pack(m, eb, 0, (x.exp - k) / 2, sig, rm, fl);
}

/* a*b+c with one rounding (Unprivileged ISA, "Single-Precision Floating-
 * Point Computational Instructions": FMADD/FMSUB/FNMSUB/FNMADD). */
static uint64_t soft_fma(int m, int eb, uint64_t a, uint64_t b, uint64_t c,
	int neg_prod, int neg_c, int rm, uint32_t *fl)
{
	struct unp x, y, z;
	int ca = unpack(m, eb, a, &x), cb = unpack(m, eb, b, &y), cc = unpack(m, eb, c, &z);
	int sp = x.sign ^ y.sign ^ (neg_prod != 0), sc = z.sign ^ (neg_c != 0);
	int infzero = (ca == C_INF && cb == C_ZERO) || (ca == C_ZERO && cb == C_INF);
	if (ca >= C_QNAN || cb >= C_QNAN || cc >= C_QNAN) {
		/* 0*inf is invalid even when c is a quiet NaN */
		if (ca == C_SNAN || cb == C_SNAN || cc == C_SNAN || infzero)
			*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (infzero) {
		*fl |= FFLAG_NV;
		return canon_nan(m);
	}
	if (ca == C_INF || cb == C_INF) {
		if (cc == C_INF && sc != sp) {
			*fl |= FFLAG_NV;
			return canon_nan(m);
		}
		return inf_bits(m, eb, sp);
	}
	if (cc == C_INF)
		return inf_bits(m, eb, sc);
	if (ca == C_ZERO || cb == C_ZERO) {
		if (cc == C_ZERO)
			return zero_bits(m, eb, sp == sc ? sp : rm == RM_RDN);
		return c ^ (neg_c ? sign_bit(m, eb) : 0);
	}
	int ep = x.exp + y.exp;
	u128 p = (u128)x.sig * y.sig; /* top bit 126 or 127; low 22+ bits zero */
	if (p >> 127) {
		p >>= 1;
		ep++;
	}
	if (cc == C_ZERO) {
		int e = ep;
		uint64_t sig = jam128(p, &e);
		return round_pack(m, eb, sp, e, sig, rm, fl);
	}
	return soft_sum(m, eb, sp, ep, p, sc, z.exp - 63, (u128)z.sig << 63, rm, fl);
}

/* ---- host SSE path ---- */

#if !FPU_SOFTONLY
#define MXCSR_BASE 0x1f80u /* all exceptions masked, RN, no FTZ/DAZ */
static const uint32_t mxcsr_rc[4] = { /* RNE RTZ RDN RUP */
	0u << 13, 3u << 13, 1u << 13, 2u << 13,
};

static inline void mx_load(uint32_t v) { __asm__ volatile("ldmxcsr %0" : : "m"(v)); }
static inline uint32_t mx_store(void)
{
	uint32_t v;
	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

/* The host's exception flags are sticky, like fflags, so they are not
 * cleared per operation (ldmxcsr is slow): each operation ORs all of them
 * into *fl. That is exact as long as the host flags are a subset of the
 * destination's flags, which fpu_reset_host_flags() establishes whenever
 * the destination is cleared (fflags written, a new run). */
static inline void hw_begin(int rm)
{
	if (rm != RM_RNE)
		mx_load((mx_store() & 0x3f) | MXCSR_BASE | mxcsr_rc[rm]);
}

/* End it: SSE IE/ZE/OE/UE/PE become NV/DZ/OF/UF/NX (DE has no RISC-V
 * counterpart); the host is left in round-to-nearest. */
static inline void hw_end(int rm, uint32_t *fl)
{
	uint32_t mx = mx_store();
	if (rm != RM_RNE)
		mx_load((mx & 0x3f) | MXCSR_BASE);
	*fl |= ((mx & 1) << 4) | ((mx & 4) << 1) | ((mx & 8) >> 1) |
		((mx & 16) >> 3) | ((mx & 32) >> 5);
}

void fpu_reset_host_flags(void)
{
	mx_load(MXCSR_BASE);
}

static int host_fma = -1;
static inline int have_fma(void)
{
	if (host_fma < 0) {
		__builtin_cpu_init();
		host_fma = __builtin_cpu_supports("fma") ? 1 : 0;
	}
	return host_fma;
}

#define HW_BIN(name, insn, T, F)                                               \
	static inline T name(T a, T b)                                         \
	{                                                                      \
		F x, y;                                                        \
		memcpy(&x, &a, sizeof x);                                      \
		memcpy(&y, &b, sizeof y);                                      \
		__asm__ volatile(insn " %1, %0" : "+x"(x) : "x"(y));           \
		memcpy(&a, &x, sizeof a);                                      \
		return a;                                                      \
	}
HW_BIN(hw_addf32, "addss", uint32_t, float)
HW_BIN(hw_subf32, "subss", uint32_t, float)
HW_BIN(hw_mulf32, "mulss", uint32_t, float)
HW_BIN(hw_divf32, "divss", uint32_t, float)
HW_BIN(hw_addf64, "addsd", uint64_t, double)
HW_BIN(hw_subf64, "subsd", uint64_t, double)
HW_BIN(hw_mulf64, "mulsd", uint64_t, double)
HW_BIN(hw_divf64, "divsd", uint64_t, double)
HW_BIN(hw_sqrtf32, "sqrtss", uint32_t, float) /* sqrt of b; a unused */
HW_BIN(hw_sqrtf64, "sqrtsd", uint64_t, double)

/* x = x*y + z */
#define HW_FMA(name, insn, T, F)                                               \
	static inline T name(T a, T b, T c)                                    \
	{                                                                      \
		F x, y, z;                                                     \
		memcpy(&x, &a, sizeof x);                                      \
		memcpy(&y, &b, sizeof y);                                      \
		memcpy(&z, &c, sizeof z);                                      \
		__asm__ volatile(insn " %2, %1, %0" : "+x"(x) : "x"(y), "x"(z)); \
		memcpy(&a, &x, sizeof a);                                      \
		return a;                                                      \
	}
HW_FMA(hw_fmaf32, "vfmadd213ss", uint32_t, float)
HW_FMA(hw_fmaf64, "vfmadd213sd", uint64_t, double)

#define USE_HW(rm) ((unsigned)(rm) < RM_RMM)

/* NaN inputs never reach the host: its NaN propagation differs. */
#define HW_OP2(P, m, eb, op, a, b, rm, fl)                                     \
	do {                                                                   \
		if (!is_nan(m, eb, a) && !is_nan(m, eb, b)) {                 \
			hw_begin(rm);                                          \
			uint64_t r_ = hw_##op##P(a, b);                        \
			hw_end(rm, fl);                                        \
			return is_nan(m, eb, r_) ? canon_nan(m) : r_;          \
		}                                                              \
	} while (0)

/* The product's sign is flipped on the (non-NaN) input, exactly. */
#define HW_FMA_OP(P, M, EB)                                                    \
	do {                                                                   \
		if (USE_HW(rm) && have_fma() && !is_nan(M, EB, a) &&          \
		    !is_nan(M, EB, b) && !is_nan(M, EB, c)) {                 \
			a ^= neg_prod ? (__typeof__(a))sign_bit(M, EB) : 0;   \
			c ^= neg_c ? (__typeof__(c))sign_bit(M, EB) : 0;      \
			hw_begin(rm);                                          \
			uint64_t r_ = hw_fma##P(a, b, c);                      \
			hw_end(rm, fl);                                        \
			return is_nan(M, EB, r_) ? canon_nan(M) : r_;          \
		}                                                              \
	} while (0)
#else
void fpu_reset_host_flags(void) { }
#define USE_HW(rm) 0
#define HW_OP2(P, m, eb, op, a, b, rm, fl) do { } while (0)
#define HW_FMA_OP(P, M, EB) do { } while (0)
#endif


/* ---- the interface, once per format ---- */

#define FPU_DEFINE(T, P, M, EB)                                                \
T P##_add(T a, T b, int rm, uint32_t *fl)                                      \
{                                                                              \
	if (USE_HW(rm))                                                        \
		HW_OP2(P, M, EB, add, a, b, rm, fl);                           \
	return (T)soft_add(M, EB, a, b, rm, fl);                               \
}                                                                              \
T P##_sub(T a, T b, int rm, uint32_t *fl)                                      \
{                                                                              \
	if (USE_HW(rm))                                                        \
		HW_OP2(P, M, EB, sub, a, b, rm, fl);                           \
	return (T)soft_add(M, EB, a, b ^ (T)sign_bit(M, EB), rm, fl);          \
}                                                                              \
T P##_mul(T a, T b, int rm, uint32_t *fl)                                      \
{                                                                              \
	if (USE_HW(rm))                                                        \
		HW_OP2(P, M, EB, mul, a, b, rm, fl);                           \
	return (T)soft_mul(M, EB, a, b, rm, fl);                               \
}                                                                              \
T P##_div(T a, T b, int rm, uint32_t *fl)                                      \
{                                                                              \
	if (USE_HW(rm))                                                        \
		HW_OP2(P, M, EB, div, a, b, rm, fl);                           \
	return (T)soft_div(M, EB, a, b, rm, fl);                               \
}                                                                              \
T P##_sqrt(T a, int rm, uint32_t *fl)                                          \
{                                                                              \
	if (USE_HW(rm))                                                        \
		HW_OP2(P, M, EB, sqrt, a, a, rm, fl);                          \
	return (T)soft_sqrt(M, EB, a, rm, fl);                                 \
}                                                                              \
T P##_fma(T a, T b, T c, int neg_prod, int neg_c, int rm, uint32_t *fl)       \
{                                                                              \
	HW_FMA_OP(P, M, EB);                                                   \
	return (T)soft_fma(M, EB, a, b, c, neg_prod, neg_c, rm, fl);           \
}                                                                              \
/* FMIN/FMAX: IEEE 754-2019 minimumNumber/maximumNumber, -0 < +0 */           \
static inline int P##_key_lt(T a, T b)                                         \
{                                                                              \
	T sb = (T)sign_bit(M, EB);                                             \
	T ka = (a & sb) ? (T)~a : (T)(a | sb), kb = (b & sb) ? (T)~b : (T)(b | sb); \
	return ka < kb;                                                        \
}                                                                              \
static inline int P##_minmax_nan(T a, T b, T *r, uint32_t *fl)                \
{                                                                              \
	int na = is_nan(M, EB, a), nb = is_nan(M, EB, b);                      \
	if (is_snan(M, EB, a) || is_snan(M, EB, b))                            \
		*fl |= FFLAG_NV;                                               \
	if (na && nb)                                                          \
		*r = (T)canon_nan(M);                                          \
	else if (na)                                                           \
		*r = b;                                                        \
	else if (nb)                                                           \
		*r = a;                                                        \
	return na || nb;                                                       \
}                                                                              \
T P##_min(T a, T b, uint32_t *fl)                                              \
{                                                                              \
	T r;                                                                   \
	if (P##_minmax_nan(a, b, &r, fl))                                      \
		return r;                                                      \
	return P##_key_lt(b, a) ? b : a;                                       \
}                                                                              \
T P##_max(T a, T b, uint32_t *fl)                                              \
{                                                                              \
	T r;                                                                   \
	if (P##_minmax_nan(a, b, &r, fl))                                      \
		return r;                                                      \
	return P##_key_lt(a, b) ? b : a;                                       \
}                                                                              \
/* FEQ is a quiet comparison; FLT/FLE signal on any NaN */                   \
int P##_eq(T a, T b, uint32_t *fl)                                             \
{                                                                              \
	if (is_nan(M, EB, a) || is_nan(M, EB, b)) {                            \
		if (is_snan(M, EB, a) || is_snan(M, EB, b))                    \
			*fl |= FFLAG_NV;                                       \
		return 0;                                                      \
	}                                                                      \
	return a == b || !((a | b) << 1);                                      \
}                                                                              \
int P##_lt(T a, T b, uint32_t *fl)                                             \
{                                                                              \
	if (is_nan(M, EB, a) || is_nan(M, EB, b)) {                            \
		*fl |= FFLAG_NV;                                               \
		return 0;                                                      \
	}                                                                      \
	return ((a | b) << 1) && P##_key_lt(a, b);                             \
}                                                                              \
int P##_le(T a, T b, uint32_t *fl)                                             \
{                                                                              \
	if (is_nan(M, EB, a) || is_nan(M, EB, b)) {                            \
		*fl |= FFLAG_NV;                                               \
		return 0;                                                      \
	}                                                                      \
	return !((a | b) << 1) || !P##_key_lt(b, a);                           \
}                                                                              \
/* FCLASS: bit 0 -inf ... 7 +inf, 8 sNaN, 9 qNaN */                          \
uint64_t P##_classify(T a)                                                     \
{                                                                              \
	struct unp u;                                                          \
	int c = unpack(M, EB, a, &u), s = (int)(a >> (M + EB)) & 1;            \
	int sub = ((a >> M) & (T)emax_field(EB)) == 0;                         \
	switch (c) {                                                           \
	case C_INF: return s ? 1 : 1 << 7;                                     \
	case C_ZERO: return s ? 1 << 3 : 1 << 4;                               \
	case C_SNAN: return 1 << 8;                                            \
	case C_QNAN: return 1 << 9;                                            \
	default: return sub ? (s ? 1 << 2 : 1 << 5) : (s ? 1 << 1 : 1 << 6);   \
	}                                                                      \
}                                                                              \
uint64_t P##_to_i32(T a, int rm, uint32_t *fl)                                 \
{                                                                              \
	return (uint64_t)(int64_t)(int32_t)to_int(M, EB, a, rm, 1, 32, fl);    \
}                                                                              \
uint64_t P##_to_u32(T a, int rm, uint32_t *fl)                                 \
{                                                                              \
	return (uint64_t)(int64_t)(int32_t)to_int(M, EB, a, rm, 0, 32, fl);    \
}                                                                              \
uint64_t P##_to_i64(T a, int rm, uint32_t *fl)                                 \
{                                                                              \
	return to_int(M, EB, a, rm, 1, 64, fl);                                \
}                                                                              \
uint64_t P##_to_u64(T a, int rm, uint32_t *fl)                                 \
{                                                                              \
	return to_int(M, EB, a, rm, 0, 64, fl);                                \
}                                                                              \
T P##_from_i32(int32_t v, int rm, uint32_t *fl)                                \
{                                                                              \
	return (T)from_int(M, EB, v < 0, v < 0 ? -(uint64_t)v : (uint64_t)v, rm, fl); \
}                                                                              \
T P##_from_u32(uint32_t v, int rm, uint32_t *fl)                               \
{                                                                              \
	return (T)from_int(M, EB, 0, v, rm, fl);                               \
}                                                                              \
T P##_from_i64(int64_t v, int rm, uint32_t *fl)                                \
{                                                                              \
	return (T)from_int(M, EB, v < 0, v < 0 ? -(uint64_t)v : (uint64_t)v, rm, fl); \
}                                                                              \
T P##_from_u64(uint64_t v, int rm, uint32_t *fl)                               \
{                                                                              \
	return (T)from_int(M, EB, 0, v, rm, fl);                               \
}

/* FCVT.{W,WU,L,LU}.{S,D}: round in rm, then saturate per the spec's
 * table (Unprivileged ISA, "Single-Precision Floating-Point Conversion and
 * Move Instructions"): NaN and too-large positive -> max, too-large
 * negative -> min (0 unsigned); out-of-range raises NV instead of NX. */
static uint64_t to_int(int m, int eb, uint64_t a, int rm, int is_signed, int width, uint32_t *fl)
{
	struct unp u;
	int c = unpack(m, eb, a, &u);
	uint64_t max = is_signed ? (1ull << (width - 1)) - 1 : ~0ull >> (64 - width);
	uint64_t min = is_signed ? -(1ull << (width - 1)) : 0;
	uint64_t mag;
	int inexact = 0;
	if (c >= C_QNAN)
		goto invalid_pos;
	if (c == C_ZERO)
		return 0;
	if (c == C_INF)
		goto invalid;
	if (u.exp > 0)
		goto invalid; /* at least 2^64 */
	mag = shift_round(u.sig, -u.exp, u.sign, rm, &inexact);
	/* no carry out of 64 bits: a dropped bit leaves kept < 2^63 */
	if (u.sign) {
		if (mag > (is_signed ? 1ull << (width - 1) : 0))
			goto invalid;
	} else if (mag > max) {
		goto invalid;
	}
	if (inexact)
		*fl |= FFLAG_NX;
	return u.sign ? -mag : mag;
invalid:
	if (u.sign) {
		*fl |= FFLAG_NV;
		return min;
	}
invalid_pos:
	*fl |= FFLAG_NV;
	return max;
}

/* FCVT.{S,D}.{W,WU,L,LU} */
static uint64_t from_int(int m, int eb, int sign, uint64_t mag, int rm, uint32_t *fl)
{
	if (!mag)
		return 0;
	return round_pack(m, eb, sign, 0, mag, rm, fl);
}

FPU_DEFINE(uint32_t, f32, F32_M, F32_EB)
FPU_DEFINE(uint64_t, f64, F64_M, F64_EB)

/* FCVT.D.S is exact; FCVT.S.D rounds. NaNs become canonical. */
uint64_t f32_to_f64(uint32_t a, uint32_t *fl)
{
	struct unp u;
	int c = unpack(F32_M, F32_EB, a, &u);
	switch (c) {
	case C_SNAN: *fl |= FFLAG_NV; /* fall through */
	case C_QNAN: return F64_QNAN;
	case C_INF: return inf_bits(F64_M, F64_EB, u.sign);
	case C_ZERO: return zero_bits(F64_M, F64_EB, u.sign);
	}
	return round_pack(F64_M, F64_EB, u.sign, u.exp, u.sig, RM_RNE, fl);
}

uint32_t f64_to_f32(uint64_t a, int rm, uint32_t *fl)
{
	struct unp u;
	int c = unpack(F64_M, F64_EB, a, &u);
	switch (c) {
	case C_SNAN: *fl |= FFLAG_NV; /* fall through */
	case C_QNAN: return F32_QNAN;
	case C_INF: return (uint32_t)inf_bits(F32_M, F32_EB, u.sign);
	case C_ZERO: return (uint32_t)zero_bits(F32_M, F32_EB, u.sign);
	}
	return (uint32_t)round_pack(F32_M, F32_EB, u.sign, u.exp, u.sig, rm, fl);
}
