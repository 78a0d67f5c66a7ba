/* Signals delivered to the guest: handlers via sigaction with SA_SIGINFO,
 * blocking and pending, raise/kill to self, and setjmp/longjmp. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got, code, depth;
static sigjmp_buf jb;

static void on_usr(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got = sig;
	code = si->si_signo == sig;
	depth++;
}

static void on_jump(int sig)
{
	siglongjmp(jb, sig);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0 || sigaction(SIGUSR2, &sa, NULL) < 0)
		return 1;
	raise(SIGUSR1);
	printf("raise: got %d siginfo ok %d count %d\n", got, code, depth);
	kill(getpid(), SIGUSR2);
	printf("kill: got %d count %d\n", got, depth);

	sigset_t set, old, pend;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	got = 0;
	raise(SIGUSR1);
	sigpending(&pend);
	printf("blocked: got %d pending %d\n", got, sigismember(&pend, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("unblocked: got %d count %d\n", got, depth);

	signal(SIGUSR1, SIG_IGN);
	got = 0;
	raise(SIGUSR1);
	printf("ignored: got %d\n", got);

	signal(SIGALRM, on_jump);
	int r = sigsetjmp(jb, 1);
	if (r == 0) {
		raise(SIGALRM);
		printf("not reached\n");
	}
	printf("longjmp from handler: %d\n", r);

	jmp_buf j2;
	volatile int n = 0;
	if (setjmp(j2) < 5) {
		n++;
		if (n < 5)
			longjmp(j2, n);
	}
	printf("setjmp loop %d\n", n);
	return 0;
}
