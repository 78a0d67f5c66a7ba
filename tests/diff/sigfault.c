/* Synchronous signals caught by the guest: SIGSEGV with si_addr and
 * si_code, left by siglongjmp; SIGILL and SIGTRAP resumed by advancing
 * the pc in the ucontext (the Linux riscv signal frame layout); a handler
 * on an alternate signal stack. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static sigjmp_buf jb;
static volatile uintptr_t fault_addr;
static volatile int fault_code, hits, on_alt;
static volatile long seen_t0;
static char altstack[64 * 1024];

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	fault_addr = (uintptr_t)si->si_addr;
	fault_code = si->si_code;
	siglongjmp(jb, sig);
}

/* resume after the trapping instruction: 2 or 4 bytes long */
static void skip(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uintptr_t pc = uc->uc_mcontext.__gregs[REG_PC];
	uint16_t half = *(const uint16_t *)pc;
	uc->uc_mcontext.__gregs[REG_PC] = pc + ((half & 3) == 3 ? 4 : 2);
	fault_code = si->si_code;
	hits += sig == si->si_signo;
	char here;
	on_alt = &here >= altstack && &here < altstack + sizeof altstack;
	/* the frame holds the interrupted registers, and sigreturn reloads them */
	seen_t0 = (long)uc->uc_mcontext.__gregs[5];
	uc->uc_mcontext.__gregs[10] += 1;	/* a0 */
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

int main(void)
{
	handle(SIGSEGV, on_segv, 0);
	int r = sigsetjmp(jb, 1);
	volatile int *volatile bad = (volatile int *)16;
	if (r == 0)
		*bad = 1;
	printf("segv: sig %d addr %#lx code %s\n", r, (unsigned long)fault_addr,
	       fault_code == SEGV_MAPERR ? "MAPERR" : "other");

	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r = sigsetjmp(jb, 1);
	if (r == 0)
		ro[100] = 1;
	printf("write to read-only: sig %d offset %ld code %s\n", r, (long)(fault_addr - (uintptr_t)ro),
	       fault_code == SEGV_ACCERR ? "ACCERR" : "other");
	/* the handler ran with SIGSEGV blocked; siglongjmp(.., 1) restored the mask */
	r = sigsetjmp(jb, 1);
	if (r == 0)
		*(volatile char *)ro = 2;
	printf("again: sig %d\n", r);

	handle(SIGILL, skip, 0);
	hits = 0;
	__asm__ volatile(".4byte 0" ::: "memory");	/* two c.illegal halves: 2 traps */
	__asm__ volatile(".2byte 0" ::: "memory");
	__asm__ volatile("csrw cycle, zero" ::: "memory");
	printf("sigill resumed %d code %s\n", hits, fault_code == ILL_ILLOPC ? "ILLOPC" : "other");

	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
	printf("sigaltstack %d\n", sigaltstack(&ss, NULL));
	handle(SIGTRAP, skip, SA_ONSTACK);
	hits = 0;
	register long a0 __asm__("a0") = 0x1111;
	register long t0 __asm__("t0") = 0x5678;
	__asm__ volatile("ebreak" : "+r"(a0) : "r"(t0) : "memory");
	printf("sigtrap resumed %d on altstack %d code %s t0 %#lx a0 %#lx\n", hits, on_alt,
	       fault_code == TRAP_BRKPT ? "BRKPT" : "other", seen_t0, a0);
	return 0;
}
