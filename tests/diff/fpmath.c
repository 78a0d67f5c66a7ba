/* Floating point: IEEE arithmetic in float/double/long double, libm,
 * rounding modes, exception flags, special values, conversions, strtod,
 * and printf of doubles in every format (%g %e %f %a with flags). */
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double vd[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 2.5, -2.5, 3.5,
	1e300, -1e-300, 4.9e-324, 2.2250738585072014e-308, DBL_MAX, 1.0 / 3.0,
	123456789.125, -0.000123, 6.02214076e23, M_PI };
#define ND (sizeof vd / sizeof vd[0])
static volatile float vf[] = { 0.0f, 1.5f, -3.25f, 1e-45f, FLT_MAX, 0.1f, 16777217.0f };
#define NF (sizeof vf / sizeof vf[0])

static uint64_t bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static void flags(const char *what)
{
	int f = fetestexcept(FE_ALL_EXCEPT);
	printf("%s flags:%s%s%s%s%s\n", what, f & FE_INVALID ? " NV" : "",
	       f & FE_DIVBYZERO ? " DZ" : "", f & FE_OVERFLOW ? " OF" : "",
	       f & FE_UNDERFLOW ? " UF" : "", f & FE_INEXACT ? " NX" : "");
	feclearexcept(FE_ALL_EXCEPT);
}

int main(void)
{
	volatile double zero = 0.0, one = 1.0, inf = INFINITY;

	for (unsigned i = 0; i < ND; i++) {
		double x = vd[i];
		printf("%g|%e|%f|%a|%.17g|%10.3f|%-12.4e|%+.0f|%#g|%G|%E|%.0e|%A\n",
		       x, x, x, x, x, x, x, x, x, x, x, x, x);
	}
	for (unsigned i = 0; i < NF; i++)
		printf("f %g %a %.9g %08" PRIx32 "\n", vf[i], vf[i], vf[i],
		       fbits(vf[i]));

	/* special values, incl. the sign of NaNs produced by the FPU */
	double nan1 = zero / zero, nan2 = inf - inf, nan3 = sqrt(-one);
	printf("nan %g %g %g %f %e inf %g %g %f\n", nan1, nan2, nan3, nan1, nan2, inf, -inf, -inf);
	printf("nan bits %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", bits(nan1), bits(nan2),
	       bits(nan3));
	float fn = (float)zero / (float)zero;
	printf("fnan %g bits %08" PRIx32 " %08" PRIx32 "\n", fn, fbits(fn), fbits(sqrtf(-(float)one)));
	printf("isnan %d isinf %d signbit(-0) %d copysign %g fmax(nan,1) %g fmin(-0,0) %g\n",
	       isnan(nan1), isinf(-inf), signbit(-zero), copysign(3.0, -zero), fmax(nan1, 1.0),
	       fmin(-zero, zero));

	/* arithmetic over all pairs, with the accrued flags */
	feclearexcept(FE_ALL_EXCEPT);
	double acc = 0;
	uint64_t h = 0;
	for (unsigned i = 0; i < ND; i++)
		for (unsigned j = 0; j < ND; j++) {
			double a = vd[i], b = vd[j];
			double r[] = { a + b, a - b, a * b, a / b, fma(a, b, a), fmin(a, b), fmax(a, b) };
			for (unsigned k = 0; k < sizeof r / sizeof r[0]; k++)
				h = h * 31 + bits(r[k]);
			if (isfinite(a * b))
				acc += a * b;
		}
	printf("pairs hash %016" PRIx64 " acc %.17g\n", h, acc);
	flags("pairs");

	/* libm */
	for (double x = -3.0; x <= 3.0; x += 0.375)
		printf("x=%g sin %.15g cos %.15g tan %.15g exp %.15g atan %.15g sinh %.15g erf %.15g "
		       "cbrt %.15g\n", x, sin(x), cos(x), tan(x), exp(x), atan(x), sinh(x), erf(x), cbrt(x));
	for (double x = 0.125; x < 100; x *= 1.7)
		printf("x=%g log %.15g log2 %.15g log10 %.15g sqrt %.17g pow %.15g lgamma %.15g\n",
		       x, log(x), log2(x), log10(x), sqrt(x), pow(x, 1.37), lgamma(x));
	printf("atan2 %.17g %.17g hypot %.17g fmod %.17g remainder %.17g\n",
	       atan2(1.0, -1.0), atan2(-zero, -1.0), hypot(3e200, 4e200), fmod(10.5, 3.0),
	       remainder(10.5, 3.0));
	printf("sqrtf %.9g expf %.9g logf %.9g powf %.9g\n", sqrtf(2.0f), expf(1.0f), logf(10.0f),
	       powf(2.0f, 0.5f));
	flags("libm");

	/* rounding functions and the dynamic rounding mode */
	const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	const char *mname[] = { "nearest", "zero", "down", "up" };
	for (int m = 0; m < 4; m++) {
		fesetround(modes[m]);
		printf("%s:", mname[m]);
		for (double x = -2.5; x <= 2.5; x += 0.5)
			printf(" %g/%g/%ld", rint(x), nearbyint(x), lrint(x));
		volatile double third = one / 3.0;
		volatile float ft = (float)third;
		printf(" 1/3=%a f=%a sum=%a\n", third, ft, (double)(0.1 + 0.2));
	}
	fesetround(FE_TONEAREST);
	for (double x = -2.5; x <= 2.5; x += 0.5)
		printf("%g: floor %g ceil %g round %g trunc %g lround %ld\n", x, floor(x), ceil(x),
		       round(x), trunc(x), lround(x));
	feclearexcept(FE_ALL_EXCEPT);

	/* conversions, incl. out-of-range via the well-defined libm ones */
	printf("cvt %d %u %lld %llu %d\n", (int)-2.9, (unsigned)2.9, (long long)-1e18,
	       (unsigned long long)1.8e19, (int)(float)16777217);
	printf("cvt %g %g %.17g %g\n", (double)INT64_MIN, (double)UINT64_MAX, (double)(INT64_MAX - 1),
	       (float)0x7fffffff);
	printf("llrint big %lld\n", llrint(1e30));
	flags("llrint");
	printf("frexp %g ldexp %g %g modf %g logb %g ilogb %d nextafter %a\n",
	       frexp(48.0, &(int){0}), ldexp(1.0, -1074), ldexp(1.0, 1024), modf(-3.75, &(double){0}),
	       logb(1e-310), ilogb(1e300), nextafter(1.0, 2.0));
	flags("misc");

	/* subnormal and overflow arithmetic */
	volatile double tiny = DBL_MIN;
	printf("sub %a %a %a\n", tiny / 3, tiny * 0x1p-52, tiny / 0x1p53);
	flags("subnormal");
	volatile double big = DBL_MAX;
	printf("ovf %g\n", big * 2);
	flags("overflow");
	printf("dz %g\n", one / zero);
	flags("divbyzero");

	/* strtod round trip */
	const char *in[] = { "0.1", "1e-400", "1e400", "-0", "0x1.8p3", "inf", "-nan", "123.456e-7",
		"2.2250738585072011e-308", "9007199254740993", "  42abc", "1.7976931348623158e308" };
	for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
		char *end;
		double d = strtod(in[i], &end);
		printf("strtod '%s' -> %.17g %a rest '%s'\n", in[i], d, d, end);
	}

	/* long double is IEEE binary128 in software */
	long double q = 1.0L / 3.0L;
	printf("ld %.30Lg %La %Lf %Le\n", q, q, q * 1e10L, sqrtl(2.0L));
	return 0;
}
