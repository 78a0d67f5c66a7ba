/* Time and randomness calls succeed and behave sanely. Values are never
 * printed: rvpmu's clocks are modelled, qemu's are the host's. */
#include <stdio.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int le(struct timespec a, struct timespec b)
{
	return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec);
}

int main(void)
{
	struct timespec m0, m1, r0, res;
	int ok = clock_gettime(CLOCK_MONOTONIC, &m0) == 0;
	ok &= clock_gettime(CLOCK_REALTIME, &r0) == 0;
	volatile unsigned long x = 0;
	for (int i = 0; i < 100000; i++)
		x += (unsigned long)i;
	struct timespec d = { 0, 1000000 };
	int slept = nanosleep(&d, NULL) == 0;
	ok &= clock_gettime(CLOCK_MONOTONIC, &m1) == 0;
	printf("clock_gettime ok %d monotonic %d nsec in range %d\n", ok, le(m0, m1),
	       m0.tv_nsec >= 0 && m0.tv_nsec < 1000000000 && r0.tv_nsec < 1000000000);
	printf("nanosleep ok %d\n", slept);
	printf("getres ok %d\n", clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 && res.tv_nsec > 0);
	struct timeval tv;
	printf("gettimeofday ok %d usec in range %d\n", gettimeofday(&tv, NULL) == 0,
	       tv.tv_usec >= 0 && tv.tv_usec < 1000000);
	struct tm tm;
	time_t fixed = 1234567890;
	gmtime_r(&fixed, &tm);
	char buf[64];
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %j", &tm);
	printf("gmtime of a fixed time: %s\n", buf);
	unsigned char rnd[16];
	printf("getrandom %zd\n", getrandom(rnd, sizeof rnd, 0));
	printf("clock() non-negative %d\n", clock() >= 0);
	return 0;
}
