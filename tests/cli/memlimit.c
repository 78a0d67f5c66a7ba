/* The memory bound as the program meets it.
 *   memlimit rlimit     prints RLIMIT_AS in MiB, or "unlimited"
 *   memlimit reserve N  maps N MiB without touching them (MAP_NORESERVE):
 *                       prints "mapped" or the error
 *   memlimit loop       mallocs 1 MiB blocks, writing each, until malloc
 *                       fails: prints "ENOMEM after N MiB" */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "rlimit")) {
		struct rlimit rl;
		if (getrlimit(RLIMIT_AS, &rl))
			return 1;
		if (rl.rlim_cur == RLIM_INFINITY)
			printf("unlimited\n");
		else
			printf("%llu\n", (unsigned long long)(rl.rlim_cur >> 20));
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "reserve")) {
		size_t n = (size_t)strtoull(argv[2], NULL, 10) << 20;
		void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		printf("%s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "loop")) {
		unsigned long mb = 0;
		for (;;) {
			char *p = malloc(1 << 20);
			if (!p)
				break;
			memset(p, 1, 1 << 20);
			mb++;
		}
		printf("%s after %lu MiB\n", errno == ENOMEM ? "ENOMEM" : "other error", mb);
		return 0;
	}
	return 2;
}
