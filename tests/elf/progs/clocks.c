/* Prints what a program reads from its clocks and random sources: under
 * rvpmu two runs must print the same (modelled time, fixed seed). */
#include <stdio.h>
#include <sys/random.h>
#include <sys/time.h>
#include <sys/auxv.h>
#include <time.h>
int main(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	volatile double x = 1;
	for (int i = 0; i < 100000; i++)
		x = x * 1.0000001;
	clock_gettime(CLOCK_REALTIME, &b);
	struct timeval tv;
	gettimeofday(&tv, NULL);
	unsigned char r[8];
	getrandom(r, sizeof(r), 0);
	const unsigned char *ar = (const unsigned char *)getauxval(AT_RANDOM);
	printf("mono %lld.%09ld real %lld.%09ld tv %lld.%06ld\n", (long long)a.tv_sec, a.tv_nsec,
	       (long long)b.tv_sec, b.tv_nsec, (long long)tv.tv_sec, (long)tv.tv_usec);
	printf("random %02x%02x%02x%02x%02x%02x%02x%02x auxv %02x%02x\n", r[0], r[1], r[2], r[3],
	       r[4], r[5], r[6], r[7], ar[0], ar[1]);
	return 0;
}
