/* What perf's software events see across threads and processes: a
 * worker thread's first touches of fresh pages (page-faults) and its
 * sleeps (context-switches) are its own, whichever hart it runs on; a
 * fork child finds the pages its parent never touched still untouched
 * (a fault at its own first touch) and those its parent touched present
 * (none). Prints what the program itself can see (getrusage). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGES 64
#define PAGE 4096

static char *region;

static long minflt(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < PAGES; i++)
		region[i * PAGE] = (char)i;   /* first touches: PAGES faults */
	for (int i = 0; i < 3; i++) {     /* three sleeps: three switches */
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(void)
{
	region = mmap(NULL, 2 * PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return 1;
	pthread_t t;
	long before = minflt();
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 2;
	long after = minflt();
	printf("worker touched %d pages: at least %d faults: %s\n", PAGES, PAGES,
	       after - before >= PAGES ? "yes" : "no");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		long a = minflt();
		int sum = 0;
		for (int i = 0; i < PAGES; i++)   /* touched by the parent: present */
			sum += region[i * PAGE];
		long b = minflt();
		for (int i = PAGES; i < 2 * PAGES; i++)   /* never touched: absent */
			region[i * PAGE] = 1;
		long c = minflt();
		printf("child: sum %d, no fault on the parent's pages: %s, one on each untouched "
		       "page: %s\n", sum, b == a ? "yes" : "no", c - b >= PAGES ? "yes" : "no");
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}
