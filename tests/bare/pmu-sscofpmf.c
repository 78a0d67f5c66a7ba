/* pmu-sscofpmf: mhpmevent OF and xINH bits, overflow of a counter preset
 * to -N, LCOFI (interrupt 13) in M and delegated to S, scountovf, mode
 * filtering, skid bound. See docs/bare-tests.md. */
#include "rt.h"

#define LCOF (1ul << IRQ_LCOF)
#define N 20			/* events to overflow in the M-mode checks */
#define SKID_MAX 8		/* bound until the core profile gives one */

/* sled_m(preset): write mhpmcounter3 = preset, then count retired addis in
 * a1; an interrupt's frame shows how many had retired. sled_lower(): read
 * hpmcounter3 (returned) then the same sled. */
extern char sled_m[], sled_m_start[], sled_lower[], sled_lower_start[];
asm(".text\n.balign 4\n.option push\n.option norvc\n"
    ".globl sled_m\nsled_m:\n li a1, 0\n csrw 0xb03, a0\n"
    ".globl sled_m_start\nsled_m_start:\n.rept 64\naddi a1, a1, 1\n.endr\n mv a0, a1\n ret\n"
    ".globl sled_lower\nsled_lower:\n li a1, 0\n csrr t1, 0xc03\n"
    ".globl sled_lower_start\nsled_lower_start:\n.rept 320\naddi a1, a1, 1\n.endr\n mv a0, t1\n ret\n"
    ".option pop\n");

static u64 mask;		/* implemented counter bits */

static u64 run_sled_m(u64 preset)
{
	register u64 a0 asm("a0") = preset;
	asm volatile("jalr %1" : "+r"(a0) : "r"(sled_m) : "ra", "a1", "memory");
	return a0;
}

static u64 run_sled_lower(void)
{
	register u64 a0 asm("a0");
	asm volatile("jalr %1" : "=r"(a0) : "r"(sled_lower) : "ra", "a1", "t1", "memory");
	return a0;
}

/* preset counter 3, N nops past the wrap, read: must be exactly after - N */
static u64 overflow_run(void)
{
	u64 v;
	asm volatile("csrw 0xb03, %1\n" NOPS(40) "csrr %0, 0xb03" : "=&r"(v) : "r"((-(u64)N) & mask) : "memory");
	return v;
}

static long s_lcofi(long arg)
{
	(void)arg;
	csrs(sie, LCOF);
	csrs(sstatus, MSTATUS_SIE);
	rt_trap_clear();
	u64 v = run_sled_lower();
	csrc(sstatus, MSTATUS_SIE);
	u64 r = (-v) & mask;		/* events left to the wrap at the read */
	rt_eq(18, "S: LCOFI delegated: taken in S with scause = INT|13",
	      rt_trap.level == 'S' ? rt_trap.cause : 0, CAUSE_INT | IRQ_LCOF);
	u64 k = rt_trap.regs[11];	/* addis retired before the trap */
	rt_puts("info S-mode LCOFI skid = ");
	rt_putdec((long)k - (long)r + 1);
	rt_puts("\n");
	rt_check(19, "S: LCOFI within SKID_MAX of the overflow (ideal: R-1 addis)",
		 r >= 1 && r < 300 && k >= r - 1 && k <= r - 1 + SKID_MAX, k, r - 1);
	rt_eq(20, "S: sip.LCOFIP is pending", csrr(sip) & LCOF, LCOF);
	csrc(sip, LCOF);
	return 0;
}

static long s_scountovf(long arg)
{
	(void)arg;
	u64 pc = TRY("csrw 0xda0, t1");
	rt_check_trap(22, "S: csrw scountovf -> illegal", pc, 2, ENC_CSR(1, 0, 6, 0xda0));
	return (long)csrr(0xda0);
}

static long u_scountovf(long arg)
{
	(void)arg;
	u64 pc = TRY("csrr t0, 0xda0");
	rt_check_trap(25, "U: csrr scountovf -> illegal", pc, 2, ENC_CSR(2, 5, 0, 0xda0));
	return 0;
}

static long lower_delta(long arg)
{
	(void)arg;
	return (long)DELTA_NOPS(hpmcounter3, 10);
}

int main(void)
{
	u64 v, want;
	int h = (csrr(misa) >> 7) & 1;

	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);
	csrw(CSR_MCOUNTINHIBIT, 0);
	csrw(mcounteren, ~0ul);
	csrw(scounteren, ~0ul);

	csrw(CSR_MHPMEVENT3, HPM_OF | HPM_MINH | HPM_SINH | HPM_UINH | HPM_VSINH | HPM_VUINH | EV_INSTRET);
	want = HPM_OF | HPM_MINH | HPM_SINH | HPM_UINH | (h ? HPM_VSINH | HPM_VUINH : 0) | EV_INSTRET;
	rt_eq(1, "mhpmevent3 bits 63:58 (VSINH/VUINH only with H)", csrr(CSR_MHPMEVENT3), want);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	rt_eq(2, "mhpmevent3 bits clear again", csrr(CSR_MHPMEVENT3), EV_INSTRET);

	csrw(CSR_MHPMEVENT3, 0);
	csrw(CSR_MHPMCOUNTER3, ~0ul);
	mask = csrr(CSR_MHPMCOUNTER3);
	rt_check(3, "mhpmcounter3 implements the low W bits", mask != 0 && (mask & (mask + 1)) == 0, mask, ~0ul);

	csrc(mip, LCOF);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	rt_eq(4, "preset -N, 40 events: counter wraps and keeps counting (40-N)", overflow_run(), 40 - N);
	rt_eq(5, "overflow sets OF", csrr(CSR_MHPMEVENT3), HPM_OF | EV_INSTRET);
	rt_eq(6, "overflow sets mip.LCOFIP", csrr(mip) & LCOF, LCOF);
	csrc(mip, LCOF);
	rt_eq(7, "software clears mip.LCOFIP", csrr(mip) & LCOF, 0);
	rt_eq(8, "OF=1: second wrap, counter still exact", overflow_run(), 40 - N);
	rt_eq(9, "OF=1: second wrap does not pend LCOFIP", csrr(mip) & LCOF, 0);
	rt_eq(10, "OF stays 1", csrr(CSR_MHPMEVENT3), HPM_OF | EV_INSTRET);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	overflow_run();
	rt_eq(11, "clearing OF re-arms: OF and LCOFIP set again",
	      (csrr(CSR_MHPMEVENT3) & HPM_OF) | (csrr(mip) & LCOF), HPM_OF | LCOF);

	csrc(mip, LCOF);
	csrw(CSR_MHPMEVENT3, HPM_OF | EV_INSTRET);
	asm volatile(NOPS(20));
	rt_eq(12, "software write OF=1 does not pend LCOFIP", csrr(mip) & LCOF, 0);
	csrw(CSR_MHPMEVENT3, 0);
	csrw(CSR_MHPMCOUNTER3, mask);
	csrw(CSR_MHPMCOUNTER3, 0);
	asm volatile(NOPS(20));
	rt_eq(13, "a write that wraps the value is no overflow",
	      (csrr(CSR_MHPMEVENT3) & HPM_OF) | (csrr(mip) & LCOF), 0);

	/* LCOFI taken in M */
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	csrw(mie, LCOF);
	rt_trap_clear();
	csrs(mstatus, MSTATUS_MIE);
	run_sled_m((-(u64)N) & mask);
	csrc(mstatus, MSTATUS_MIE);
	rt_eq(14, "M: LCOFI taken in M, mcause = INT|13",
	      rt_trap.level == 'M' && rt_trap.count == 1 ? rt_trap.cause : 0, CAUSE_INT | IRQ_LCOF);
	v = rt_trap.regs[11];
	rt_check(15, "M: LCOFI within SKID_MAX of the overflow (ideal: N addis)", v >= N && v <= N + SKID_MAX, v, N);
	rt_puts("info M-mode LCOFI skid = ");
	rt_putdec((long)v - N);
	rt_puts("\n");
	rt_eq(16, "M: mepc = the next sled instruction", rt_trap.epc, (u64)sled_m_start + 4 * v);
	csrw(mie, 0);
	csrc(mip, LCOF);

	/* LCOFI delegated to S */
	csrs(mideleg, LCOF);
	if (rt_eq(17, "mideleg[13] is writable", csrr(mideleg) & LCOF, LCOF)) {
		csrw(CSR_MHPMEVENT3, EV_INSTRET);
		csrw(CSR_MHPMCOUNTER3, (-(u64)200) & mask);
		rt_run(PRV_S, s_lcofi, 0);
		rt_eq(21, "S cleared sip.LCOFIP: mip.LCOFIP reads 0", csrr(mip) & LCOF, 0);
	}
	csrw(mideleg, 0);
	csrw(mie, 0);

	/* scountovf: S sees OF bit X iff mcounteren[X]; M sees all */
	csrw(CSR_MHPMEVENT3, HPM_OF);
	csrw(CSR_MHPMEVENT4, HPM_OF);
	csrw(0x325, 0);
	csrw(mcounteren, ~(1ul << 4));
	rt_eq(23, "S: scountovf = OF bits masked by mcounteren", rt_run(PRV_S, s_scountovf, 0), 1ul << 3);
	rt_eq(24, "M: scountovf shows every OF bit", csrr(0xda0) & 0x38, (1ul << 3) | (1ul << 4));
	rt_run(PRV_U, u_scountovf, 0);
	csrw(mcounteren, ~0ul);
	csrw(CSR_MHPMEVENT4, 0);

	/* mode filtering */
	csrw(CSR_MHPMEVENT3, HPM_MINH | EV_INSTRET);
	rt_eq(26, "MINH: no counting in M", DELTA_NOPS(0xb03, 10), 0);
	rt_eq(27, "MINH: S still counts exactly", rt_run(PRV_S, lower_delta, 0), 11);
	csrw(CSR_MHPMEVENT3, HPM_SINH | EV_INSTRET);
	rt_eq(28, "SINH: no counting in S", rt_run(PRV_S, lower_delta, 0), 0);
	rt_eq(29, "SINH: U still counts exactly", rt_run(PRV_U, lower_delta, 0), 11);
	csrw(CSR_MHPMEVENT3, HPM_UINH | EV_INSTRET);
	rt_eq(30, "UINH: no counting in U", rt_run(PRV_U, lower_delta, 0), 0);
	rt_eq(31, "UINH: M still counts exactly", DELTA_NOPS(0xb03, 10), 11);
	/* an overflow with LCOFIE=0 only pends */
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	csrw(mie, 0);
	csrc(mip, LCOF);
	rt_trap_clear();
	csrs(mstatus, MSTATUS_MIE);
	overflow_run();
	csrc(mstatus, MSTATUS_MIE);
	rt_eq(32, "mie.LCOFIE=0: overflow pends LCOFIP but no trap",
	      (csrr(mip) & LCOF) | (u64)rt_trap.count, LCOF);
	csrc(mip, LCOF);

	/* whether an instruction counts is decided before it executes: the
	 * csrw that sets MINH counts, the one that clears it does not */
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	EDGE(33, "csrw mhpmevent3 MINH=1 counts itself", 0xb03, CSR_MHPMEVENT3, HPM_MINH | EV_INSTRET, 2, 0);
	EDGE(35, "csrw mhpmevent3 MINH=0 does not count itself", 0xb03, CSR_MHPMEVENT3, EV_INSTRET, 0, 1);
	/* the mode an instruction counts in: an mret in M, the ecall nowhere
	 * (rt_probe_hpm3: read in M, mret, 10 nops in S or U, ecall) */
	csrw(CSR_MHPMEVENT3, HPM_SINH | HPM_UINH | EV_INSTRET);
	rt_eq(37, "M only: read and mret count, S nops and the ecall not -> 2", rt_probe_hpm3(PRV_S), 2);
	rt_eq(38, "M only: read and mret count, U nops and the ecall not -> 2", rt_probe_hpm3(PRV_U), 2);
	csrw(CSR_MHPMEVENT3, HPM_MINH | HPM_UINH | EV_INSTRET);
	rt_eq(39, "S only: the mret to S counts in M (not), the 10 S nops do -> 10", rt_probe_hpm3(PRV_S), 10);
	csrw(CSR_MHPMEVENT3, HPM_MINH | HPM_SINH | EV_INSTRET);
	rt_eq(40, "U only: the 10 U nops count, the ecall from U does not -> 10", rt_probe_hpm3(PRV_U), 10);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	rt_eq(41, "no filter: read, mret, 10 U nops -> 12", rt_probe_hpm3(PRV_U), 12);
	csrw(CSR_MHPMEVENT3, 0);
	return rt_done();
}
