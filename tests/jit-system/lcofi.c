/* lcofi: counter-overflow interrupts (Sscofpmf) during a hot loop.
 * mhpmcounter3 counts retired instructions (event 2) from -P; each
 * overflow raises LCOFI (interrupt 13), whose handler (lc_vec, using only
 * t2-t6, which the loop leaves alone) records minstret on entry, mepc,
 * mcause and mhpmevent3 (OF must be set), then re-arms the counter at -P
 * and clears OF and mip.LCOFIP. Every interrupt must come the same number
 * of instructions after the overflow (the core's skid, printed), at an
 * instruction of the loop, and the counter at the end must agree with the
 * last re-arm. Skipped (one line) on a core without Sscofpmf (the U74). */
#include "rt.h"

#define P 997
#define ITERS 25000
#define MAXREC 256
#define LCOF (1ul << IRQ_LCOF)

struct rec { u64 instret, epc, cause, event; };
struct rec lc_rec[MAXREC];
u64 lc_count;
static u64 buf[256] __attribute__((aligned(4096)));
extern char lc_vec[], lc_loop_start[], lc_loop_end[];

asm(".text\n.balign 4\n.globl lc_vec\nlc_vec:\n"
    " csrr t6, minstret\n csrw 0xb03, t2\n csrr t5, mepc\n"
    " la t4, lc_count\n ld t3, 0(t4)\n addi t3, t3, 1\n sd t3, 0(t4)\n"
    " li t4, " STR(MAXREC) "\n bgtu t3, t4, 1f\n"
    " slli t3, t3, 5\n la t4, lc_rec - 32\n add t4, t4, t3\n sd t6, 0(t4)\n sd t5, 8(t4)\n"
    " csrr t5, mcause\n sd t5, 16(t4)\n csrr t5, 0x323\n sd t5, 24(t4)\n"
    "1: li t5, 2\n csrw 0x323, t5\n li t5, " STR(LCOF) "\n csrc mip, t5\n mret\n");

/* The hot loop with the counter armed (returned: minstret before the
 * arming csrw's read, as in the loop's first lines); at the end, with
 * LCOFI off, minstret (end[0]) and mhpmcounter3 (end[1]) read in a row */
static u64 hot(u64 *end)
{
	register u64 a0 asm("a0") = (u64)buf;
	register u64 a6 asm("a6"), a7 asm("a7");
	asm volatile(".option push\n.option norvc\n"
		     " li t2, -" STR(P) "\n li a1, " STR(ITERS) "\n mv a2, a0\n"
		     " csrsi mstatus, 8\n csrr a6, minstret\n csrw 0xb03, t2\n"
		     ".globl lc_loop_start\nlc_loop_start:\n"
		     "1: ld a3, 0(a2)\n xor a3, a3, a1\n sd a3, 0(a2)\n addi a2, a2, 8\n"
		     " andi a4, a1, 127\n bnez a4, 2f\n mv a2, a0\n"
		     "2: addi a1, a1, -1\n bnez a1, 1b\n"
		     ".globl lc_loop_end\nlc_loop_end:\n"
		     " li a5, " STR(LCOF) "\n csrc mie, a5\n csrr a7, minstret\n csrr a0, 0xb03\n"
		     " csrci mstatus, 8\n"
		     ".option pop"
		     : "+r"(a0), "=r"(a6), "=r"(a7) :: "a1", "a2", "a3", "a4", "a5",
		       "t2", "t3", "t4", "t5", "t6", "memory");
	end[0] = a7;
	end[1] = a0;
	return a6;
}

int main(void)
{
	if (rt_fdt_has_ext("sscofpmf") != 1) {
		rt_puts("skip lcofi: no Sscofpmf in the device tree's ISA\n");
		return 0;
	}
	u64 old_tvec = csrr(mtvec);
	csrw(mtvec, (u64)lc_vec);
	csrw(CSR_MCOUNTINHIBIT, 0);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	csrs(mie, LCOF);
	u64 end[2];
	u64 start = hot(end);
	csrw(mtvec, old_tvec);
	csrw(CSR_MHPMEVENT3, 0);

	u64 n = lc_count, bad_gap = 0, outside = 0, wrong = 0, no_of = 0;
	/* the first overflow: the csrr and the arming csrw retire, then P
	 * counted instructions; each later one: the handler's csrr and csrw,
	 * then P */
	u64 skid = n ? lc_rec[0].instret - (start + 2 + P) : ~0ul;
	rt_puts("info skid ");
	rt_putdec((long)skid);
	rt_puts("\n");
	for (u64 k = 0; k < n && k < MAXREC; k++) {
		const struct rec *p = &lc_rec[k];
		rt_puts("lcofi ");
		rt_putdec((long)k);
		rt_puts(" minstret ");
		rt_puthex(p->instret);
		rt_puts(" mepc loop+");
		rt_puthex(p->epc - (u64)lc_loop_start);
		rt_puts("\n");
		if (k)
			bad_gap += p->instret - lc_rec[k - 1].instret != 2 + P + skid;
		outside += p->epc < (u64)lc_loop_start || p->epc >= (u64)lc_loop_end;
		wrong += p->cause != (CAUSE_INT | IRQ_LCOF);
		no_of += !(p->event & HPM_OF) || (p->event & 0xff) != EV_INSTRET;
	}
	rt_puts("info interrupts ");
	rt_putdec((long)n);
	rt_puts("\n");
	rt_eq(1, "more than 100 interrupts, at most MAXREC", n > 100 && n <= MAXREC, 1);
	rt_eq(2, "skid at most 8 instructions", skid <= 8, 1);
	rt_eq(3, "each one P + 2 + skid instructions after the one before", bad_gap, 0);
	rt_eq(4, "each at an instruction of the loop", outside, 0);
	rt_eq(5, "each with mcause = interrupt 13", wrong, 0);
	rt_eq(6, "each with mhpmevent3.OF set", no_of, 0);
	/* the last re-arm (its csrw retired at instret + 2): the counter
	 * counted every instruction from there to the read */
	if (n && n <= MAXREC)
		rt_eq(7, "the counter at the end", end[1] + P, end[0] + 1 - (lc_rec[n - 1].instret + 2));
	return rt_done();
}
