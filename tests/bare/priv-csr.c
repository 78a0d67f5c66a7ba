/* priv-csr: machine-level CSRs (misa, mhartid, mstatus WARL fields, mtvec
 * direct/vectored, scratch registers) and illegal CSR accesses: mcause 2,
 * mtval = the instruction bits. See docs/bare-tests.md. */
#include "rt.h"

#define CLINT_MSIP ((volatile u32 *)0x2000000ul)
#define CLINT_MTIMECMP ((volatile u64 *)0x2004000ul)

static u64 set_field(u64 v, u64 mask, u64 f)
{
	return (v & ~mask) | ((f * (mask & -mask)) & mask);
}

static u64 mpp_after_write(u64 mpp)
{
	csrw(mstatus, set_field(csrr(mstatus), MSTATUS_MPP, mpp));
	return (csrr(mstatus) & MSTATUS_MPP) >> 11;
}

static void spin(void)
{
	for (volatile int i = 0; i < 50; i++)
		;
}

static long s_probe(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("csrr t0, mstatus");
	rt_check_trap(29, "S: csrr mstatus -> illegal, mtval = insn", pc, 2,
		      ENC_CSR(2, 5, 0, 0x300));
	rt_eq(30, "S: that trap went to M with MPP=S", (rt_trap.status & MSTATUS_MPP) >> 11, PRV_S);
	TRY("csrr t0, sstatus");
	rt_check_notrap(31, "S: csrr sstatus does not trap");
	pc = TRY("csrw mscratch, t1");
	rt_check_trap(32, "S: csrw mscratch -> illegal", pc, 2, ENC_CSR(1, 0, 6, 0x340));
	return 0;
}

static long u_probe(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("csrr t0, sstatus");
	rt_check_trap(33, "U: csrr sstatus -> illegal, mtval = insn", pc, 2,
		      ENC_CSR(2, 5, 0, 0x100));
	rt_eq(34, "U: that trap went to M with MPP=U", (rt_trap.status & MSTATUS_MPP) >> 11, PRV_U);
	pc = TRY("csrr t0, mscratch");
	rt_check_trap(35, "U: csrr mscratch -> illegal", pc, 2, ENC_CSR(2, 5, 0, 0x340));
	pc = TRY("csrw sscratch, t1");
	rt_check_trap(36, "U: csrw sscratch -> illegal", pc, 2, ENC_CSR(1, 0, 6, 0x140));
	return 0;
}

int main(void)
{
	u64 misa = csrr(misa), v, pc, want;
	/* A=0 C=2 D=3 F=5 I=8 M=12 S=18 U=20 */
	u64 ext = (1ul << 0) | (1ul << 2) | (1ul << 3) | (1ul << 5) | (1ul << 8) |
		  (1ul << 12) | (1ul << 18) | (1ul << 20);

	rt_eq(1, "misa.MXL = 2 (RV64)", misa >> 62, 2);
	rt_eq(2, "misa has I M A F D C S U", misa & ext, ext);
	rt_eq(3, "mhartid = 0", csrr(mhartid), 0);
	TRY("csrr t0, mvendorid\n csrr t0, marchid\n csrr t0, mimpid");
	rt_check_notrap(4, "mvendorid/marchid/mimpid readable");

	rt_eq(5, "mstatus.MPP holds M", mpp_after_write(3), 3);
	rt_eq(6, "mstatus.MPP holds S", mpp_after_write(1), 1);
	rt_eq(7, "mstatus.MPP holds U", mpp_after_write(0), 0);
	v = mpp_after_write(2);
	rt_check(8, "mstatus.MPP=2 (reserved) reads a legal mode", v != 2, v, 3);

	csrc(mstatus, MSTATUS_FS);
	rt_eq(9, "FS=Off: SD = 0", csrr(mstatus) >> 63, 0);
	pc = TRY("fmv.d.x f0, zero");
	rt_check_trap(10, "FS=Off: fmv.d.x traps illegal", pc, 2, 0xf2000053);
	csrs(mstatus, 1ul << 13);
	v = csrr(mstatus);
	rt_eq(11, "FS=Initial: SD = 0", v >> 63, 0);
	asm volatile("fmv.d.x f0, zero");
	v = csrr(mstatus);
	rt_eq(12, "FP write with FS=Initial makes FS=Dirty", (v & MSTATUS_FS) >> 13, 3);
	rt_eq(13, "FS=Dirty: SD = 1", v >> 63, 1);

	want = (u64)rt_vec_table;
	csrw(mtvec, want | 1);
	rt_eq(14, "mtvec vectored mode reads back", csrr(mtvec), want | 1);
	rt_vec_count = 0;
	asm volatile(".option push\n.option norvc\necall\n.option pop");
	rt_eq(15, "vectored: ecall lands at BASE", rt_vec_count == 1 ? rt_vec_slot : ~0ul, 0);
	rt_eq(16, "vectored: ecall from M mcause = 11", rt_vec_cause, 11);

	csrw(mideleg, 0);
	csrw(mie, 1ul << 1);			/* SSIE */
	rt_vec_count = 0;
	csrs(mstatus, MSTATUS_MIE);
	csrs(mip, 1ul << 1);			/* SSIP: software-writable in mip */
	spin();
	csrc(mstatus, MSTATUS_MIE);
	csrc(mip, 1ul << 1);
	rt_eq(17, "vectored: SSI (1) lands at BASE+4", rt_vec_count == 1 ? rt_vec_slot : ~0ul, 1);
	rt_eq(18, "vectored: SSI mcause", rt_vec_cause, CAUSE_INT | 1);

	csrw(mie, 1ul << 3);			/* MSIE */
	rt_vec_count = 0;
	csrs(mstatus, MSTATUS_MIE);
	*CLINT_MSIP = 1;
	spin();
	csrc(mstatus, MSTATUS_MIE);
	*CLINT_MSIP = 0;
	rt_eq(19, "vectored: MSI (3) lands at BASE+12", rt_vec_count == 1 ? rt_vec_slot : ~0ul, 3);

	csrw(mie, 1ul << 7);			/* MTIE */
	rt_vec_count = 0;
	csrs(mstatus, MSTATUS_MIE);
	*CLINT_MTIMECMP = 0;
	spin();
	csrc(mstatus, MSTATUS_MIE);
	*CLINT_MTIMECMP = ~0ul;
	rt_eq(20, "vectored: MTI (7) lands at BASE+28", rt_vec_count == 1 ? rt_vec_slot : ~0ul, 7);
	csrw(mie, 0);

	extern char rt_m_trap_entry[];
	csrw(mtvec, (u64)rt_m_trap_entry);
	rt_eq(21, "mtvec direct mode reads back", csrr(mtvec), (u64)rt_m_trap_entry);

	csrw(mscratch, 0xdeadbeefcafef00dul);
	rt_eq(22, "mscratch read/write", csrr(mscratch), 0xdeadbeefcafef00dul);
	csrw(sscratch, 0x0123456789abcdeful);
	rt_eq(23, "sscratch read/write", csrr(sscratch), 0x0123456789abcdeful);

	pc = TRY("csrr t0, 0x0ff");
	rt_check_trap(24, "M: csrr of unallocated CSR 0x0ff -> illegal", pc, 2, ENC_CSR(2, 5, 0, 0x0ff));
	pc = TRY("csrw mvendorid, t1");
	rt_check_trap(25, "M: csrw mvendorid (read-only) -> illegal", pc, 2, ENC_CSR(1, 0, 6, 0xf11));
	pc = TRY("csrw cycle, zero");
	rt_check_trap(26, "M: csrw cycle (read-only) -> illegal", pc, 2, ENC_CSR(1, 0, 0, 0xc00));
	pc = TRY("li t1, 0\n.Lz%=: csrrs t0, cycle, t1");
	rt_check_trap(27, "M: csrrs cycle with rs1!=x0 holding 0 -> illegal", pc + 4, 2,
		      ENC_CSR(2, 5, 6, 0xc00));
	TRY("csrrs t0, mvendorid, zero\n csrrsi t0, mhartid, 0\n csrrc t0, cycle, zero");
	rt_check_notrap(28, "M: csrrs/csrrsi/csrrc with no write do not trap on read-only CSRs");

	csrw(medeleg, 0);
	rt_run(PRV_S, s_probe, 0);
	rt_run(PRV_U, u_probe, 0);

	pc = TRY("csrrci t0, mhartid, 1");
	rt_check_trap(37, "M: csrrci mhartid, 1 -> illegal", pc, 2, (0xf14u << 20) | (1u << 15) | (7u << 12) | (5u << 7) | 0x73u);

	/* mip.SEIP reads as the PLIC's S-context line ORed with the software
	 * bit, but a CSRRS/CSRRC of mip writes back only the software bit
	 * (Privileged ISA, "Machine Interrupt Registers"): with the line high
	 * (the UART's THR-empty interrupt, source 10, enabled for context 1),
	 * setting and clearing STIP must not latch SEIP */
	volatile u32 *plic = (volatile u32 *)0xc000000ul;
	volatile unsigned char *uart_ier = (volatile unsigned char *)0x10000001ul;
	plic[10] = 1;                        /* source 10's priority */
	plic[(0x2000 + 0x80) / 4] = 1u << 10; /* enabled for context 1 (S) */
	plic[(0x200000 + 0x1000) / 4] = 0;   /* context 1's threshold */
	*uart_ier = 2;                       /* THR empty: the line goes high */
	u64 seip_high = csrr(mip) & (1ul << 9);
	csrs(mip, 1ul << 5);
	csrc(mip, 1ul << 5);
	*uart_ier = 0;                       /* the line goes low */
	u64 seip_low = csrr(mip) & (1ul << 9);
	plic[(0x2000 + 0x80) / 4] = 0;
	rt_eq(38, "mip.SEIP follows the PLIC's S line while it is high", seip_high, 1ul << 9);
	rt_eq(39, "csrs/csrc mip did not latch that line into SEIP", seip_low, 0);
	return rt_done();
}
