/* priv-modes: mret/sret and the mstatus stack, ecall causes from U/S/M,
 * medeleg of a U ecall to S, ebreak, wfi with TW=1, sstatus as a view of
 * mstatus. See docs/bare-tests.md. */
#include "rt.h"

#define ECALL ".option push\n.option norvc\necall\n.option pop"
#define SSTATUS_MASK ((1ul << 1) | (1ul << 5) | (1ul << 6) | (1ul << 8) | (3ul << 9) | \
		      (3ul << 13) | (3ul << 15) | (1ul << 18) | (1ul << 19) | (3ul << 32) | (1ul << 63))
/* mstatus fields with no S view: MIE MPIE MPP MPRV TVM TW TSR SXL SBE MBE */
#define MONLY_MASK ((1ul << 3) | (1ul << 7) | (3ul << 11) | (1ul << 17) | (7ul << 20) | \
		    (3ul << 34) | (3ul << 36))

static long s_ecall(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("ecall");
	rt_check_trap(2, "S: ecall -> cause 9 at the ecall", pc, 9, ~0ul);
	rt_eq(3, "S: ecall taken in M with MPP=S", rt_trap.level == 'M' ?
	      (rt_trap.status & MSTATUS_MPP) >> 11 : 99, PRV_S);
	TRY("csrr t0, sstatus");
	int s_ok = rt_trap.count == 0;
	TRY("csrr t0, mstatus");
	rt_check(4, "S: mret landed in S (sstatus ok, mstatus illegal)",
		 s_ok && rt_trap.count == 1 && rt_trap.cause == 2, rt_trap.count, 1);
	return 0;
}

static long u_ecall(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("ecall");
	rt_check_trap(5, "U: ecall -> cause 8 at the ecall", pc, 8, ~0ul);
	rt_eq(6, "U: ecall taken in M with MPP=U", rt_trap.level == 'M' ?
	      (rt_trap.status & MSTATUS_MPP) >> 11 : 99, PRV_U);
	pc = TRY("csrr t0, sstatus");
	rt_check_trap(7, "U: mret landed in U (sstatus illegal)", pc, 2, ~0ul);
	return 0;
}

static long u_deleg(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("ecall");
	rt_check_trap(9, "U: delegated ecall -> scause 8, sepc at the ecall", pc, 8, ~0ul);
	rt_eq(10, "U: delegated ecall taken in S", rt_trap.level, 'S');
	rt_eq(11, "U: at that trap sstatus.SPP = U", (rt_trap.status & MSTATUS_SPP) >> 8, 0);
	pc = TRY("csrr t0, sstatus");
	rt_check_trap(12, "U: sret returned to U (sstatus illegal, to M)", pc, 2, ~0ul);
	rt_eq(13, "U: that illegal instruction went to M", rt_trap.level, 'M');
	return 0x55;
}

static long s_ecall_deleg8(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("ecall");
	rt_check_trap(15, "S: ecall with medeleg[8] only -> cause 9 in M", pc, 9, ~0ul);
	return 0;
}

static long u_ebreak(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("ebreak");
	rt_check_trap(17, "U: ebreak -> cause 3 in M", pc, 3, ~0ul);
	pc = TRY("wfi");
	rt_check_trap(18, "U: wfi with TW=1 -> illegal", pc, 2, 0x10500073);
	return 0;
}

static long s_wfi(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("wfi");
	rt_check_trap(19, "S: wfi with TW=1 -> illegal", pc, 2, 0x10500073);
	return 0;
}

static long s_sret(long arg)
{
	u64 st;
	(void)arg;
	/* sret within S: SIE <- SPIE, SPIE <- 1, SPP <- U */
	csrc(sstatus, MSTATUS_SIE);
	csrs(sstatus, MSTATUS_SPIE | MSTATUS_SPP);
	asm volatile("la t0, 1f\n csrw sepc, t0\n sret\n1:" ::: "t0", "memory");
	st = csrr(sstatus);
	csrc(sstatus, MSTATUS_SIE);
	rt_eq(24, "sret: SIE = old SPIE", (st & MSTATUS_SIE) >> 1, 1);
	rt_eq(25, "sret: SPIE = 1, SPP = U", st & (MSTATUS_SPIE | MSTATUS_SPP), MSTATUS_SPIE);
	return 0;
}

static long s_nop(long arg)
{
	return arg;
}

int main(void)
{
	u64 pc, st, v;

	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);
	pc = TRY("ecall");
	rt_check_trap(1, "M: ecall -> cause 11 at the ecall", pc, 11, ~0ul);
	rt_run(PRV_S, s_ecall, 0);
	rt_run(PRV_U, u_ecall, 0);

	csrw(medeleg, 1ul << 8);
	rt_eq(8, "medeleg[8] is writable", csrr(medeleg) & (1ul << 8), 1ul << 8);
	rt_eq(14, "U with delegated ecall: rt_run result after sret", rt_run(PRV_U, u_deleg, 0), 0x55);
	rt_run(PRV_S, s_ecall_deleg8, 0);
	csrw(medeleg, 0);

	pc = TRY("ebreak");
	rt_check_trap(16, "M: ebreak -> cause 3 at the ebreak", pc, 3, ~0ul);
	csrs(mstatus, MSTATUS_TW);
	rt_run(PRV_U, u_ebreak, 0);
	rt_run(PRV_S, s_wfi, 0);
	/* wfi in M is not affected by TW; a pending enabled interrupt (even
	 * with MIE=0) makes it complete */
	csrw(mie, 1ul << 1);
	csrs(mip, 1ul << 1);
	TRY("wfi");
	rt_check_notrap(20, "M: wfi with TW=1 does not trap");
	csrc(mip, 1ul << 1);
	csrw(mie, 0);
	csrc(mstatus, MSTATUS_TW);

	/* mret within M: MIE <- MPIE, MPIE <- 1, MPP <- U (least privileged) */
	csrc(mstatus, MSTATUS_MIE);
	csrs(mstatus, MSTATUS_MPIE | MSTATUS_MPP);
	asm volatile("la t0, 1f\n csrw mepc, t0\n mret\n1:" ::: "t0", "memory");
	st = csrr(mstatus);
	csrc(mstatus, MSTATUS_MIE);
	rt_eq(21, "mret: MIE = old MPIE", (st & MSTATUS_MIE) >> 3, 1);
	rt_eq(22, "mret: MPIE = 1, MPP = U", st & (MSTATUS_MPIE | MSTATUS_MPP), MSTATUS_MPIE);
	/* trap entry: MPIE <- MIE, MIE <- 0, MPP <- M */
	csrs(mstatus, MSTATUS_MIE);
	TRY("ecall");
	csrc(mstatus, MSTATUS_MIE);
	rt_eq(23, "trap entry: MPIE = old MIE, MIE = 0, MPP = M",
	      rt_trap.status & (MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP), MSTATUS_MPIE | MSTATUS_MPP);
	rt_run(PRV_S, s_sret, 0);

	/* Priv 1.12: an mret to a mode below M clears MPRV */
	csrs(mstatus, MSTATUS_MPRV);
	rt_run(PRV_S, s_nop, 0);
	rt_eq(26, "mret to S clears MPRV", csrr(mstatus) & MSTATUS_MPRV, 0);
	csrc(mstatus, MSTATUS_MPRV);

	/* sstatus is a restricted view of mstatus */
	csrs(mstatus, MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR |
		      MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_TW);
	v = csrr(mstatus);
	st = csrr(sstatus);
	rt_eq(27, "sstatus = mstatus & sstatus fields", st, v & SSTATUS_MASK);
	rt_eq(28, "M-only fields read 0 in sstatus", st & MONLY_MASK, 0);
	csrw(sstatus, 0);
	st = csrr(mstatus);
	rt_eq(29, "sstatus=0 clears SIE SPIE SPP SUM MXR in mstatus",
	      st & (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR), 0);
	rt_eq(30, "sstatus=0 leaves M-only fields", st & MONLY_MASK, v & MONLY_MASK);
	csrw(sstatus, ~0ul);
	st = csrr(mstatus);
	rt_eq(31, "sstatus=~0 sets SIE SPIE SPP SUM MXR, FS=Dirty",
	      st & (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_FS),
	      MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_FS);
	rt_eq(32, "sstatus=~0 leaves M-only fields", st & MONLY_MASK, v & MONLY_MASK);
	csrc(mstatus, MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR |
		      MSTATUS_MIE | MSTATUS_TW);
	return rt_done();
}
