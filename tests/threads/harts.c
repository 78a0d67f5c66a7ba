/* What a program sees of the modelled harts (rvpmu run --cpus N, N in
 * argv[1]): the processor counts glibc reads, the affinity mask, getcpu
 * on a thread pinned to each hart, a pin outside the harts refused,
 * membarrier's commands. One "ok NAME" or "not ok NAME: why" line per
 * check, then "ALL OK" when every check passed. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fails;
#define CHECK(name, cond, ...) do { \
	if (cond) printf("ok %s\n", name); \
	else { fails++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

static void *where(void *a)
{
	long want = (long)a;
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(want, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		return (void *)-2L;
	return (void *)(long)sched_getcpu();
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	CHECK("nprocs-online", get_nprocs() == n, "get_nprocs %d", get_nprocs());
	CHECK("nprocs-conf", get_nprocs_conf() == n, "get_nprocs_conf %d", get_nprocs_conf());
	CHECK("sysconf", sysconf(_SC_NPROCESSORS_ONLN) == n, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	cpu_set_t s;
	CHECK("getaffinity", !sched_getaffinity(0, sizeof(s), &s) && CPU_COUNT(&s) == n, "count %d", CPU_COUNT(&s));
	int bad = 0;
	for (long i = 0; i < n; i++) {
		pthread_t t;
		void *r;
		pthread_create(&t, NULL, where, (void *)i);
		pthread_join(t, &r);
		if ((long)r != i) {
			printf("# pinned to %ld, getcpu says %ld\n", i, (long)r);
			bad++;
		}
	}
	CHECK("pinned-getcpu", !bad, "%d threads off their hart", bad);
	CPU_ZERO(&s);
	CPU_SET(n, &s);
	CHECK("pin-outside", sched_setaffinity(0, sizeof(s), &s) == -1 && errno == EINVAL, "errno %d", errno);
	CPU_ZERO(&s);
	CPU_SET(n - 1, &s);
	CHECK("pin-self", !sched_setaffinity(0, sizeof(s), &s) && sched_getcpu() == n - 1, "cpu %d", sched_getcpu());
	long q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
	CHECK("membarrier-query", q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED), "%ld", q);
	CHECK("membarrier-unregistered", syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == -1 &&
	      errno == EPERM, "errno %d", errno);
	CHECK("membarrier-registered", !syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) &&
	      !syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0), "errno %d", errno);
	CHECK("membarrier-global", !syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0), "errno %d", errno);
	if (!fails)
		printf("ALL OK\n");
	return fails != 0;
}
