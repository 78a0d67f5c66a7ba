/* Known software-event counts: touch PAGES fresh anonymous pages (one
 * page fault each), then SLEEPS times sleep MS modelled milliseconds and
 * spin ITERS loop iterations. With a fifth argument, print ru_minflt and
 * ru_nvcsw as getrusage sees them. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

int main(int argc, char **argv)
{
	if (argc < 5)
		return 2;
	long pages = atol(argv[1]), sleeps = atol(argv[2]), ms = atol(argv[3]), iters = atol(argv[4]);
	volatile char *p = pages ? mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
	for (long i = 0; i < pages; i++)
		p[i * 4096] = 1;
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	volatile long sink = 0;
	for (long s = 0; s < sleeps; s++) {
		nanosleep(&ts, NULL);
		for (long i = 0; i < iters; i++)
			sink += i;
	}
	if (argc > 5) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("%ld %ld\n", ru.ru_minflt, ru.ru_nvcsw);
	}
	return 0;
}
