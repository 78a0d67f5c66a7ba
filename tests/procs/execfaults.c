/* Page faults across fork and exec, as getrusage gives them: a child
 * execs this program again to touch PAGES fresh pages, the parent waits
 * for it and then execs itself too; that last image reads its own
 * faults (RUSAGE_SELF, kept across its exec, as Linux's) and its reaped
 * children's (RUSAGE_CHILDREN, the exec'd child's included) and prints
 * their sum: every first touch of the run, so `rvpmu stat -e
 * page-faults` must count the same. The kernel's own touches as it
 * loads an exec'd image are the exec's faults in both.
 *
 *   execfaults          fork, exec "touch", wait, exec "sum"
 *   execfaults touch    touch PAGES pages, exit
 *   execfaults sum      print "faults N child M" (riscv64 only: it ends
 *                       with its own ecalls)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 40
#define FMT "faults %ld child %ld\n"

static long minflt(int who)
{
	struct rusage ru;
	return getrusage(who, &ru) ? -1 : ru.ru_minflt + ru.ru_majflt;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "touch")) {
		char *m = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return 1;
		for (int i = 0; i < PAGES; i++)
			m[i * 4096] = 1;
		_exit(0);
	}
	if (argc > 1 && !strcmp(argv[1], "sum")) {
		/* nothing after the count may touch a page not touched before:
		 * snprintf's code and data are touched once beforehand, the
		 * write and the exit are ecalls in main's own code */
		char buf[80];
		snprintf(buf, sizeof(buf), FMT, 1234567l, 1234567l);
		long self = minflt(RUSAGE_SELF), child = minflt(RUSAGE_CHILDREN);
		long n = snprintf(buf, sizeof(buf), FMT, self + child, child);
		register long a0 asm("a0") = 1, a1 asm("a1") = (long)buf, a2 asm("a2") = n;
		register long a7 asm("a7") = 64;   /* write */
		asm volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
		a0 = a0 != n;
		a7 = 94;                           /* exit_group */
		asm volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
	}
	pid_t c = fork();
	if (c == 0) {
		execl("/proc/self/exe", argv[0], "touch", (char *)NULL);
		_exit(127);
	}
	int st;
	if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
		return 2;
	execl("/proc/self/exe", argv[0], "sum", (char *)NULL);
	return 3;
}
