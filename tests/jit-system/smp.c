/* smp (--smp 2): both harts add to shared counters in hot loops, with
 * amoadd (64 and 32 bits) and with LR/SC loops; the totals must be
 * exact. Each hart's count of failed SCs is printed: the harts take
 * turns deterministically (src/platform/sched.c), so the translated and
 * step-loop runs must print the same. Entry: smp-entry.S. */
#include "rt.h"

#define N 30000
#define HARTS 2

/* in .data (hart 0 clears .bss while hart 1 waits), on a page with no
 * code (a store to a page with code leaves translated code) */
volatile u64 smp_go __attribute__((section(".data")));
static volatile struct {
	u64 amo64 __attribute__((aligned(64)));
	u32 amo32 __attribute__((aligned(64)));
	u64 lrsc __attribute__((aligned(64)));
	u64 done, sc_failed[HARTS];
} sh __attribute__((section(".data"), aligned(4096)));
#define amo64 sh.amo64
#define amo32 sh.amo32
#define lrsc sh.lrsc
#define done sh.done
#define sc_failed sh.sc_failed

void smp_worker(u64 hart)
{
	u64 fails = 0;
	for (int i = 0; i < N; i++) {
		asm volatile("amoadd.d zero, %1, (%0)" :: "r"(&amo64), "r"(1ul) : "memory");
		asm volatile("amoadd.w zero, %1, (%0)" :: "r"(&amo32), "r"(3u) : "memory");
		u64 v, bad;
		asm volatile("1: lr.d %0, (%3)\n addi %0, %0, 1\n sc.d %1, %0, (%3)\n"
			     " beqz %1, 2f\n addi %2, %2, 1\n j 1b\n2:"
			     : "=&r"(v), "=&r"(bad), "+r"(fails) : "r"(&lrsc) : "memory");
	}
	sc_failed[hart] = fails;
	asm volatile("amoadd.d zero, %1, (%0)" :: "r"(&done), "r"(1ul) : "memory");
}

int main(void)
{
	smp_go = 1;
	smp_worker(0);
	while (done != HARTS)
		;
	for (int h = 0; h < HARTS; h++) {
		rt_puts("info hart ");
		rt_putdec(h);
		rt_puts(" failed SCs ");
		rt_putdec((long)sc_failed[h]);
		rt_puts("\n");
	}
	rt_eq(1, "amoadd.d total", amo64, (u64)HARTS * N);
	rt_eq(2, "amoadd.w total", amo32, (u32)(3u * HARTS * N));
	rt_eq(3, "LR/SC total", lrsc, (u64)HARTS * N);
	return rt_done();
}
