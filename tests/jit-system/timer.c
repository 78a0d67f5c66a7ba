/* timer: machine-timer interrupts arriving during a hot loop. The
 * handler (timer_vec, which uses only t3-t6, registers the loop leaves
 * alone) records minstret on entry, mepc and mcause, and moves mtimecmp
 * on by D ticks. Time follows retired instructions, R per tick (100 on
 * the default core, 120 on the 1.2 GHz U74; found from the first and
 * last interrupts) and nothing waits, so the k-th interrupt is due when
 * minstret reaches (cmp0 + k*D) * R. It must be taken there, with
 * minstret at the handler's first instruction exactly that (0 past the
 * deadline), at an instruction of the loop, and their number must be the
 * count of deadlines passed by the loop's end.
 * Then two mtime reads around a loop must differ by its instructions'
 * ticks. Every record is printed: the translated and step-loop runs must
 * print the same. */
#include "rt.h"

#define MTIMECMP ((volatile u64 *)0x2004000ul)
#define D 37
#define ITERS 60000
#define MAXREC 256
#define MTIE (1ul << 7)

struct rec { u64 instret, epc, cause, pad; };
struct rec tm_rec[MAXREC];
u64 tm_count, tm_cmp, tm_step = D;
static u64 buf[256] __attribute__((aligned(4096)));
extern char timer_vec[], loop_start[], loop_end[];

asm(".text\n.balign 4\n.globl timer_vec\ntimer_vec:\n"
    " csrr t6, minstret\n csrr t5, mepc\n"
    " la t4, tm_count\n ld t3, 0(t4)\n addi t3, t3, 1\n sd t3, 0(t4)\n"
    " li t4, " STR(MAXREC) "\n bgtu t3, t4, 1f\n"
    " slli t3, t3, 5\n la t4, tm_rec - 32\n add t4, t4, t3\n sd t6, 0(t4)\n sd t5, 8(t4)\n"
    " csrr t5, mcause\n sd t5, 16(t4)\n"
    "1: la t4, tm_cmp\n ld t3, 0(t4)\n la t5, tm_step\n ld t5, 0(t5)\n add t3, t3, t5\n sd t3, 0(t4)\n"
    " li t4, 0x2004000\n sd t3, 0(t4)\n mret\n");

/* the hot loop, interrupts on; returns minstret read just after it
 * disabled the timer interrupt (so, one more than the instructions
 * retired before that csrc) */
static u64 hot(void)
{
	register u64 a0 asm("a0") = (u64)buf;
	asm volatile(".option push\n.option norvc\n"
		     " li a1, " STR(ITERS) "\n mv a2, a0\n csrsi mstatus, 8\n"
		     ".globl loop_start\nloop_start:\n"
		     "1: ld a3, 0(a2)\n add a3, a3, a1\n sd a3, 0(a2)\n addi a2, a2, 8\n"
		     " andi a4, a1, 127\n bnez a4, 2f\n mv a2, a0\n"
		     "2: addi a1, a1, -1\n bnez a1, 1b\n"
		     ".globl loop_end\nloop_end:\n"
		     " li a5, " STR(MTIE) "\n csrc mie, a5\n csrr a0, minstret\n csrci mstatus, 8\n"
		     ".option pop"
		     : "+r"(a0) :: "a1", "a2", "a3", "a4", "a5", "t3", "t4", "t5", "t6", "memory");
	return a0;
}

int main(void)
{
	u64 old_tvec = csrr(mtvec);
	csrw(mtvec, (u64)timer_vec);
	/* ~2000 ticks ahead at 100 or 120 instructions per tick */
	tm_cmp = csrr(minstret) / 100 + 2000;
	u64 cmp0 = tm_cmp;
	*MTIMECMP = cmp0;
	csrs(mie, MTIE);
	u64 end = hot() - 1;
	*MTIMECMP = ~0ul;
	csrw(mtvec, old_tvec);

	u64 n = tm_count, late = 0, outside = 0, wrong = 0;
	/* over all the records: each interrupt at its deadline's instruction */
	u64 m = n < MAXREC ? n : MAXREC;
	u64 r = m >= 2 ? (tm_rec[m - 1].instret - tm_rec[0].instret + (m - 1) * D / 2) / ((m - 1) * D) : 0;
	rt_puts("info instructions per tick ");
	rt_putdec((long)r);
	rt_puts("\n");
	rt_eq(1, "time follows instructions: 100 or 120 per tick", r == 100 || r == 120, 1);
	for (u64 k = 0; k < n && k < MAXREC; k++) {
		const struct rec *p = &tm_rec[k];
		rt_puts("irq ");
		rt_putdec((long)k);
		rt_puts(" minstret ");
		rt_puthex(p->instret);
		rt_puts(" past the deadline ");
		rt_putdec((long)(p->instret - (cmp0 + k * D) * r));
		rt_puts(" mepc loop+");
		rt_puthex(p->epc - (u64)loop_start);
		rt_puts("\n");
		late += p->instret != (cmp0 + k * D) * r;
		outside += p->epc < (u64)loop_start || p->epc >= (u64)loop_end;
		wrong += p->cause != (CAUSE_INT | 7);
	}
	/* deadlines cmp0 + k*D with (cmp0 + k*D) * r <= end */
	u64 want = end / r >= cmp0 ? (end / r - cmp0) / D + 1 : 0;
	rt_puts("info interrupts ");
	rt_putdec((long)n);
	rt_puts("\n");
	rt_eq(2, "more than 50 interrupts, at most MAXREC", n > 50 && n <= MAXREC, 1);
	rt_eq(3, "as many as deadlines passed", n, want);
	rt_eq(4, "each taken at the instruction its deadline falls on", late, 0);
	rt_eq(5, "each at an instruction of the loop", outside, 0);
	rt_eq(6, "each with mcause = interrupt 7", wrong, 0);
	u64 sum = 0;
	for (int i = 0; i < 128; i++)
		sum += buf[i];
	/* word i got a1 = ITERS - i - 128*m for each m */
	u64 s2 = 0;
	for (u64 a1 = ITERS; a1 > 0; a1--)
		s2 += a1;
	rt_eq(7, "the loop's stores all done", sum, s2);
	/* an mtime read sees the time of the instruction that reads it: two
	 * reads around a loop differ by its instructions' ticks (within a
	 * tick either side) */
	volatile u64 *mtime = (volatile u64 *)0x200bff8ul;
	u64 t0 = *mtime, i0 = csrr(minstret);
	for (volatile int i = 0; i < 20000; i++)
		;
	u64 t1 = *mtime, i1 = csrr(minstret);
	u64 dt = (t1 - t0) * r, di = i1 - i0;
	rt_puts("info mtime moved ");
	rt_putdec((long)(t1 - t0));
	rt_puts(" ticks over ");
	rt_putdec((long)di);
	rt_puts(" instructions\n");
	rt_eq(8, "mtime read mid-run follows the instructions retired", dt + 2 * r > di && dt < di + 2 * r, 1);
	return rt_done();
}
