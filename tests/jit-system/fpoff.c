/* fpoff: a hot loop with an FP instruction it reaches only at iteration
 * K. With mstatus.FS on, the loop runs translated through it; with FS =
 * Off, the same loop runs K iterations (translated: no FP on the way),
 * then the FP instruction must raise illegal instruction (mcause 2) with
 * mepc at it, mtval its encoding (rvpmu writes the instruction bits, as
 * QEMU and OpenSBI's illegal-instruction emulation expect), the loop
 * counter at K, and FS still Off. Both in M and in S. */
#include "rt.h"

#define N 3000
#define K 2000

extern char fp_insn[], fp_out[];

static struct { u64 n, cause, epc, tval, a2, a5, fs; } got;

static int hook(u64 *f, u64 cause, u64 epc, char level)
{
	(void)level;
	got.n++;
	got.cause = cause;
	got.epc = epc;
	got.tval = csrr(mtval);
	got.a2 = f[12];
	got.a5 = f[15];
	got.fs = csrr(mstatus) & MSTATUS_FS;
	csrw(mepc, (u64)fp_out);
	return 1;
}

/* a2 counts iterations, a5 sums them; at a2 == K one fadd.d ft0 += ft1 */
static long loop(long arg)
{
	(void)arg;
	register u64 a2 asm("a2") = 0, a5 asm("a5") = 0;
	asm volatile(".option push\n.option norvc\n"
		     " li a3, %2\n li a4, %3\n"
		     "1: addi a2, a2, 1\n add a5, a5, a2\n bne a2, a4, 2f\n"
		     ".globl fp_insn\nfp_insn: fadd.d ft0, ft0, ft1\n"
		     "2: blt a2, a3, 1b\n"
		     ".globl fp_out\nfp_out:\n.option pop"
		     : "+r"(a2), "+r"(a5) : "i"(N), "i"(K) : "a3", "a4", "ft0", "memory");
	return (long)(a2 * 100000 + (a5 & 0xffff));
}

static double fp_get(void)
{
	double d;
	asm volatile("fmv.d %0, ft0" : "=f"(d));
	return d;
}

static void run(int first, int mode, const char *what)
{
	rt_puts("-- ");
	rt_puts(what);
	rt_puts("\n");
	/* FS on: the loop goes through the fadd once */
	csrs(mstatus, MSTATUS_FS);
	asm volatile("fcvt.d.l ft0, zero\n li t0, 3\n fcvt.d.l ft1, t0" ::: "t0", "ft0", "ft1");
	got.n = 0;
	long r = mode == PRV_M ? loop(0) : rt_run(mode, loop, 0);
	rt_eq(first, "FS on: no trap", got.n, 0);
	rt_eq(first + 1, "FS on: the loop ran to N", r, N * 100000ul + (((u64)N * (N + 1) / 2) & 0xffff));
	double d = fp_get();
	rt_eq(first + 2, "FS on: the fadd ran once", d == 3.0, 1);
	/* FS Off: the fadd traps at iteration K */
	csrc(mstatus, MSTATUS_FS);
	r = mode == PRV_M ? loop(0) : rt_run(mode, loop, 0);
	rt_eq(first + 3, "FS off: one trap", got.n, 1);
	rt_eq(first + 4, "FS off: illegal instruction", got.cause, 2);
	rt_eq(first + 5, "FS off: mepc at the fadd", got.epc, (u64)fp_insn);
	rt_eq(first + 6, "FS off: mtval the fadd's encoding", got.tval, *(volatile u32 *)fp_insn);
	rt_eq(first + 7, "FS off: the counter at K", got.a2, K);
	rt_eq(first + 8, "FS off: the sum of 1..K", got.a5, (u64)K * (K + 1) / 2);
	rt_eq(first + 9, "FS off: FS still Off", got.fs, 0);
	csrs(mstatus, MSTATUS_FS);
	rt_eq(first + 10, "FS off: ft0 unchanged", fp_get() == 3.0, 1);
}

int main(void)
{
	rt_trap_hook = hook;
	run(1, PRV_M, "M-mode");
	run(21, PRV_S, "S-mode");
	/* again in M, the translations of both modes made before */
	run(41, PRV_M, "M-mode again");
	return rt_done();
}
