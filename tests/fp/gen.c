/* Case generator of the FP differential test: writes the binary table
 * (struct fp_case records) to argv[1] and a text description, one
 * "GROUP MNEMONIC RM FRM A B C" line per case, to argv[2]. Deterministic:
 * a fixed-seed xorshift. Special operands: signed zeros, subnormals,
 * min/max normals, infinities, quiet and signalling NaNs, integer
 * conversion limits and their neighbours, ties, values near the underflow
 * and overflow thresholds; every rounding-mode instruction gets every
 * static mode plus the dynamic one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fp_ops.h"

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed * 0x2545f4914f6cdd1dull;
}
static unsigned below(unsigned n) { return (unsigned)(rnd() % n); }

static const char *mn[] = {
#define MN(name, m, kind, rm, fmt) m,
	FP_OPS(MN)
#undef MN
};
static const int has_rm[] = {
#define HR(name, m, kind, rm, fmt) HR_##rm,
#define HR_RM 1
#define HR_NORM 0
	FP_OPS(HR)
#undef HR
};
enum { K_FFF, K_FF, K_FFFF, K_XFF, K_XF, K_FX };
static const int kind[] = {
#define KD(name, m, k, rm, fmt) K_##k,
	FP_OPS(KD)
#undef KD
};

static FILE *fbin, *ftxt;
static long ncases;

static void emit1(const char *group, int op, int rm, int frm, uint64_t a, uint64_t b, uint64_t c)
{
	struct fp_case k = { (uint16_t)op, (uint8_t)rm, (uint8_t)frm, 0, a, b, c };
	fwrite(&k, sizeof k, 1, fbin);
	fprintf(ftxt, "%s %s %d %d %016llx %016llx %016llx\n", group, mn[op], rm, frm,
		(unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
	ncases++;
}

/* A tuple of operands: every static mode and the dynamic one. */
static void emit(int op, uint64_t a, uint64_t b, uint64_t c)
{
	if (!has_rm[op]) {
		emit1(mn[op], op, RM_DYN, below(5), a, b, c);
		return;
	}
	for (int rm = 0; rm < 5; rm++)
		emit1(mn[op], op, rm, below(5), a, b, c); /* frm must not matter */
	emit1(mn[op], op, RM_DYN, below(5), a, b, c);
}

static uint32_t f2b(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t d2b(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static float b2f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static double b2d(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
#define BOX(x) (0xffffffff00000000ull | (uint32_t)(x))

/* Values around which both formats get special attention. */
static const double keys[] = {
	0, 1, 0.5, 1.5, 2.5, 3.5, 0.25, 0.75, 0.3, 0.7, 1.0 / 3, 2, 3, 10,
	2147483648.0, 2147483647.0, 4294967296.0, 4294967295.0,
	9223372036854775808.0, 18446744073709551616.0, 8388608.0, 16777216.0,
	33554432.0, 9007199254740992.0, 18014398509481984.0, 65536.0, 1e10, 1e30,
};

static uint32_t pool32[256];
static uint64_t pool64[256];
static int npool32, npool64, nspec32, nspec64;

static void build_pools(void)
{
	static const uint32_t s32[] = {
		0x00000000, 0x00000001, 0x00000002, 0x007fffff, 0x00400000, 0x00800000,
		0x00800001, 0x00ffffff, 0x01000000, 0x7f7fffff, 0x7f7ffffe, 0x7f000000,
		0x7f800000, 0x7fc00000, 0x7fc00001, 0x7fffffff, 0x7f800001, 0x7fa00000,
		0x7fbfffff, 0x34000000, 0x33800000, 0x3f7fffff, 0x3f800001,
	};
	static const uint64_t s64[] = {
		0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000002ull,
		0x000fffffffffffffull, 0x0008000000000000ull, 0x0010000000000000ull,
		0x0010000000000001ull, 0x001fffffffffffffull, 0x7fefffffffffffffull,
		0x7feffffffffffffeull, 0x7fe0000000000000ull, 0x7ff0000000000000ull,
		0x7ff8000000000000ull, 0x7ff8000000000001ull, 0x7fffffffffffffffull,
		0x7ff0000000000001ull, 0x7ff4000000000000ull, 0x7ff7ffffffffffffull,
		0x3ca0000000000000ull, 0x3c90000000000000ull, 0x3fefffffffffffffull,
		0x3ff0000000000001ull,
		/* f32 limits as doubles, for fcvt.s.d */
		0x47efffffe0000000ull, 0x47effffff0000000ull, 0x47f0000000000000ull,
		0x3810000000000000ull, 0x380fffffe0000000ull, 0x36a0000000000000ull,
		0x3690000000000000ull, 0x3680000000000000ull,
		0x380ffffff0000000ull, 0x380ffffff8000000ull, 0x380fffffe8000000ull,
	};
	for (unsigned i = 0; i < sizeof s32 / 4; i++) {
		pool32[npool32++] = s32[i];
		pool32[npool32++] = s32[i] | 0x80000000u;
	}
	for (unsigned i = 0; i < sizeof s64 / 8; i++) {
		pool64[npool64++] = s64[i];
		pool64[npool64++] = s64[i] | 0x8000000000000000ull;
	}
	nspec32 = npool32;
	nspec64 = npool64;
	for (unsigned i = 1; i < sizeof keys / sizeof keys[0]; i++) {
		for (int s = 0; s < 2; s++) {
			double d = s ? -keys[i] : keys[i];
			float f = (float)d;
			pool32[npool32++] = f2b(f);
			pool32[npool32++] = f2b(nextafterf(f, INFINITY));
			pool32[npool32++] = f2b(nextafterf(f, -INFINITY));
			pool64[npool64++] = d2b(d);
			pool64[npool64++] = d2b(nextafter(d, INFINITY));
			pool64[npool64++] = d2b(nextafter(d, -INFINITY));
		}
	}
}

/* Random operands with a bias to interesting exponents and to short
 * significands (exact results and ties). */
static uint32_t rand32(void)
{
	uint32_t s = (uint32_t)(rnd() & 0x80000000u), f = (uint32_t)rnd() & 0x7fffff, e;
	switch (below(10)) {
	case 0: case 1: case 2: return (uint32_t)rnd();
	case 3: e = below(4); break;                          /* subnormal area */
	case 4: e = 251 + below(4); break;                    /* near overflow */
	case 5: e = 127 - 30 + below(60); f &= ~0u << below(23); break;
	case 6: return pool32[below(npool32)];
	default: e = 127 - 30 + below(60); break;
	}
	return s | e << 23 | f;
}

static uint64_t rand64(void)
{
	uint64_t s = rnd() & 0x8000000000000000ull, f = rnd() & 0xfffffffffffffull, e;
	switch (below(10)) {
	case 0: case 1: case 2: return rnd();
	case 3: e = below(4); break;
	case 4: e = 2043 + below(4); break;
	case 5: e = 1023 - 70 + below(140); f &= ~0ull << below(52); break;
	case 6: return pool64[below(npool64)];
	default: e = 1023 - 70 + below(140); break;
	}
	return s | e << 52 | f;
}

/* value to integer conversion inputs: fractions around integer limits */
static double rand_conv(void)
{
	int bits = (int)below(66);
	double v = ldexp((double)(rnd() >> 11), bits - 53);
	static const double fr[] = { 0, 0.25, 0.5, 0.75, 0.5, -0.5 };
	v = floor(v) + fr[below(6)];
	return below(2) ? -v : v;
}

static uint64_t rand_int(void)
{
	static const uint64_t spec[] = {
		0, 1, ~0ull, 0x7fffffff, 0x80000000, 0xffffffff, 0x80000000ull << 32,
		0x7fffffffffffffffull, 0x1000001, 0x1000003, 0x2000001, 0x2000002,
		0x2000003, 0x20000000000001ull, 0x40000000000001ull, 0x40000000000002ull,
		0x40000000000003ull, 0xffffff80, 0xffffffc0, 0xffffffffffffff00ull,
		0xfffffffffffffc00ull, 0xfffffffffffff800ull,
	};
	if (below(4) == 0) {
		uint64_t v = spec[below(sizeof spec / 8)];
		return below(2) ? v : -v;
	}
	uint64_t v = rnd() >> below(64);
	if (below(3) == 0)
		v &= ~0ull << below(40); /* short significands: exact or ties */
	if (below(2) == 0)
		v |= rnd() << 32; /* upper half must not matter to .w/.wu */
	return v;
}

static int is_s(int op)
{
	switch (op) {
#define ISS(name, m, k, rm, fmt) case OP_##name: return ISS_##fmt;
#define ISS_S 1
#define ISS_D 0
#define ISS_W 0
#define ISS_WU 0
#define ISS_L 0
#define ISS_LU 0
	FP_OPS(ISS)
	}
	return 0;
}

static int arity(int op)
{
	switch (kind[op]) {
	case K_FFF: case K_XFF: return 2;
	case K_FFFF: return 3;
	default: return 1;
	}
}

/* Operands near the boundaries particular operations care about. */
static void targeted(int op, int n)
{
	int s = is_s(op);
	for (int i = 0; i < n; i++) {
		uint64_t a, b, c = 0;
		if (s) {
			uint32_t x = rand32() & 0x807fffff, y = rand32() & 0x807fffff, z = rand32();
			int ex = 1 + (int)below(253), ey;
			switch (op) {
			case OP_FADD_S: case OP_FSUB_S: /* ties and cancellation */
				ey = ex - 22 - (int)below(4);
				if (ey < 1) ey = 1;
				if (below(2)) { y = (x & 0x807fffff) ^ (uint32_t)below(4); ey = ex; }
				break;
			case OP_FMUL_S: /* product near the underflow or overflow threshold */
				ey = (below(2) ? 127 - 126 + 127 : 127 + 127 + 127) - ex + (int)below(5) - 2;
				break;
			case OP_FDIV_S:
				ey = ex + (below(2) ? 126 : -127) + (int)below(5) - 2;
				break;
			default:
				ey = 1 + (int)below(253);
			}
			if (ey < 1) ey = 1;
			if (ey > 254) ey = 254;
			x |= (uint32_t)ex << 23;
			y |= (uint32_t)ey << 23;
			if (kind[op] == K_FFFF) { /* c cancels most of a*b */
				float p = b2f(x) * b2f(y);
				z = f2b(p) ^ 0x80000000u ^ (uint32_t)below(3);
				if (op == OP_FMSUB_S || op == OP_FNMADD_S) z ^= 0x80000000u;
			}
			a = BOX(x); b = BOX(y); c = BOX(z);
			if (kind[op] == K_XF && op != OP_FCLASS_S && op != OP_FMV_X_W)
				a = BOX(f2b((float)rand_conv()));
			if (kind[op] == K_FX)
				a = rand_int();
			if (op == OP_FCVT_S_D) /* doubles near f32 ties and limits */
				a = (rand64() & 0x800fffffe0000000ull) | ((uint64_t)(896 + below(260)) << 52) |
					(below(2) ? 0x10000000ull : rnd() & 0x1fffffff);
		} else {
			uint64_t x = rand64() & 0x800fffffffffffffull, y = rand64() & 0x800fffffffffffffull;
			uint64_t z = rand64();
			int ex = 1 + (int)below(2045), ey;
			switch (op) {
			case OP_FADD_D: case OP_FSUB_D:
				ey = ex - 51 - (int)below(4);
				if (below(2)) { y = x ^ below(4); ey = ex; }
				break;
			case OP_FMUL_D:
				ey = (below(2) ? 1 + 1023 : 1023 + 2046) - ex + (int)below(5) - 2;
				break;
			case OP_FDIV_D:
				ey = ex + (below(2) ? 1022 : -1023) + (int)below(5) - 2;
				break;
			default:
				ey = 1 + (int)below(2045);
			}
			if (ey < 1) ey = 1;
			if (ey > 2046) ey = 2046;
			x |= (uint64_t)ex << 52;
			y |= (uint64_t)ey << 52;
			if (kind[op] == K_FFFF) {
				double p = b2d(x) * b2d(y);
				z = d2b(p) ^ 0x8000000000000000ull ^ below(3);
				if (op == OP_FMSUB_D || op == OP_FNMADD_D) z ^= 0x8000000000000000ull;
			}
			a = x; b = y; c = z;
			if (kind[op] == K_XF && op != OP_FCLASS_D && op != OP_FMV_X_D)
				a = d2b(rand_conv());
			if (kind[op] == K_FX)
				a = rand_int();
			if (op == OP_FCVT_D_S)
				a = BOX(rand32());
		}
		emit(op, a, b, c);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen CASES.bin CASES.txt\n");
		return 2;
	}
	fbin = fopen(argv[1], "wb");
	ftxt = fopen(argv[2], "w");
	if (!fbin || !ftxt) {
		perror("gen");
		return 1;
	}
	build_pools();
	for (int op = 0; op < OP_COUNT; op++) {
		int s = is_s(op) || op == OP_FCVT_D_S;
		int fx = kind[op] == K_FX, ar = arity(op);
		int np = s ? npool32 : npool64;
		/* tuples per op: rounding ops get 6 cases per tuple */
		int tuples = has_rm[op] ? 500 : 2500;
		uint64_t pa, pb, pc;
#define PV(i) (s ? BOX(pool32[(i) % npool32]) : pool64[(i) % npool64])
#define RV() (s ? BOX(rand32()) : rand64())
		if (fx) {
			for (int i = 0; i < tuples; i++)
				emit(op, rand_int(), 0, 0);
		} else if (ar == 1) {
			for (int i = 0; i < np; i++)
				emit(op, PV(i), 0, 0);
			for (int i = 0; i < tuples / 2; i++)
				emit(op, RV(), 0, 0);
			if (op == OP_FCVT_S_D)
				for (int i = 0; i < npool32; i++)
					emit(op, d2b((double)b2f(pool32[i])), 0, 0);
		} else {
			/* all pairs of special values (every 3rd for rounding
			 * ops, which emit 6 cases each), then a sample of the pool */
			int ns = s ? nspec32 : nspec64, step = has_rm[op] ? 3 : 1;
			for (int i = 0; i < ns * ns; i += step) {
				pa = PV(i / ns);
				pb = PV(i % ns);
				pc = PV(below(np));
				emit(op, pa, pb, pc);
			}
			for (int i = 0; i < tuples / 2; i++)
				emit(op, PV(below(np)), PV(below(np)), PV(below(np)));
			for (int i = 0; i < tuples / 2; i++)
				emit(op, RV(), RV(), RV());
			if (ar == 2 && !has_rm[op]) /* equal and sign-differing pairs */
				for (int i = 0; i < 300; i++) {
					pa = RV();
					emit(op, pa, below(2) ? pa : pa ^ (s ? 0x80000000ull : 1ull << 63), 0);
				}
		}
		if (op == OP_FMADD_S || op == OP_FMADD_D) { /* 0*inf + qNaN */
			uint64_t z = s ? BOX(0) : 0, inf = s ? BOX(0x7f800000) : 0x7ff0000000000000ull;
			uint64_t q = s ? BOX(0x7fc00000) : 0x7ff8000000000000ull;
			emit(op, z, inf, q);
			emit(op, inf, z, q);
		}
		targeted(op, tuples / 2);
	}
	/* NaN boxing: f32 instructions reading f registers whose upper half
	 * is not all ones see the canonical NaN (fmv.x.w moves bits as is) */
	static const uint64_t unboxed[] = {
		0x000000003f800000ull, 0xfffffffe3f800000ull, 0x7fffffff40000000ull,
		0x3ff0000000000000ull, 0x00000000ffffffffull, 0xffffffff00000000ull,
		0x0000000000000000ull, 0x7ff8000000000000ull,
	};
	for (int op = 0; op < OP_COUNT; op++) {
		if (!is_s(op) || kind[op] == K_FX)
			continue;
		for (unsigned i = 0; i < 48; i++) {
			uint64_t a = unboxed[i % 8], b = BOX(rand32()), c = BOX(rand32());
			if (i & 8) { uint64_t t = a; a = b; b = t; }
			if (i & 16) { uint64_t t = c; c = a; a = t; }
			if (i & 32) c = unboxed[(i + 3) % 8];
			emit1("nanbox", op, has_rm[op] ? (int)below(5) : RM_DYN, below(5), a, b, c);
		}
	}
	if (fclose(fbin) || fclose(ftxt)) {
		perror("gen");
		return 1;
	}
	fprintf(stderr, "gen: %ld cases\n", ncases);
	return 0;
}
