/* A SIGSEGV handler that returns to the load that faulted, which faults
 * again: Linux loops forever on this. With an argument N the handler
 * makes the load's base register valid on its Nth call, so the program
 * ends (exit 0, after printing how many faults it took). The handler
 * also makes a system call of its own each time (getpid). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>
#include <unistd.h>

static volatile long faults, fix_at;
static int target;

static void handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	(void)sig, (void)si;
	getpid();
	if (++faults == fix_at)
		uc->uc_mcontext.__gregs[11] = (unsigned long)&target;   /* a1 */
}

int main(int argc, char **argv)
{
	struct sigaction sa = {0};
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	fix_at = argc > 1 ? atol(argv[1]) : 0;
	long v;
	register unsigned long a1 asm("a1") = 0;
	asm volatile("lw %0, 0(%1)" : "=r"(v) : "r"(a1) : "memory");
	printf("faults %ld\n", faults);
	return (int)v;
}
