/* OpenMP (static libgomp): parallel-for reductions, a critical section
 * and a barrier, with checked results; the output does not depend on how
 * many threads ran. */
#include <omp.h>
#include <stdio.h>

static double a[200000];

int main(void)
{
	long s = 0;
	double d = 0;
	int crit = 0;
#pragma omp parallel for reduction(+ : s)
	for (int i = 0; i < 200000; i++) {
		a[i] = i * 0.5;
		s += i;
	}
#pragma omp parallel for reduction(+ : d)
	for (int i = 0; i < 200000; i++)
		d += a[i];
#pragma omp parallel
	{
#pragma omp critical
		crit++;
#pragma omp barrier
#pragma omp single
		printf("critical: every thread once: %d\n", crit == omp_get_num_threads());
	}
	printf("sum %ld (expected %ld), doubles %.1f (expected %.1f)\n", s, 200000L * 199999 / 2, d,
	       0.5 * 200000.0 * 199999 / 2);
	return s == 200000L * 199999 / 2 ? 0 : 1;
}
