/* Floating-point code (F and D, libm) for the disassembly comparison. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>

volatile double vd = 1.5;
volatile float vf = 2.25f;

int main(void)
{
	double d = vd;
	float f = vf;
	fesetround(FE_TOWARDZERO);
	double r = fma(d, d, sqrt(d)) + sin(d) * exp(d) / log1p(d);
	float g = fmaf(f, f, sqrtf(f)) - cosf(f) + (float)d;
	long l = lrint(r) + (long)g + (unsigned)f;
	fesetround(FE_TONEAREST);
	int c = fpclassify(r) + isless(r, d) + (fabs(-r) == r) + signbit(copysign(g, -1.0));
	printf("%g %g %ld %d %d\n", r, (double)g, l, c, fetestexcept(FE_INEXACT) != 0);
	return 0;
}
