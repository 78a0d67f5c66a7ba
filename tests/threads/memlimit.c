/* Threads pinned to different harts map 1 MiB at a time until mmap
 * fails: under rvpmu --max-mem the bound holds for the process as a
 * whole, whichever hart's thread maps (one count of mapped bytes), so
 * the total is the same on any number of harts. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

static _Atomic long total;
static _Atomic int failed;

static void *grab(void *a)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET((long)a % get_nprocs(), &s);
	sched_setaffinity(0, sizeof(s), &s);
	while (!failed) {
		void *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			failed = 1;
		else
			total++;
		sched_yield();
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, grab, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("mapped %ld MiB\n", (long)total);
	return 0;
}
