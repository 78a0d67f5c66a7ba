/* aia-csr: the AIA's machine- and supervisor-level CSRs without an
 * IMSIC (Smaia/Ssaia v1.0): reset values, writable masks of mvien, mvip,
 * hvien, hvictl, hviprio1/2, the iprio windows (read-only zero here, as
 * the spec allows), mtopi/stopi encodings in the default priority order,
 * interrupt filtering (mvien/mvip) with a virtual S-level LCOFI taken in
 * S, and the illegal-instruction cases (mtopei, stopei, vstopei, odd
 * iprio numbers, IMSIC selects). See docs/bare-tests.md. */
#include "aia.h"

static long try_s(long what)
{
	switch (what) {
	case 0: TRY("csrr t0, 0xfb0"); break;            /* mtopi */
	case 1: TRY("csrr t0, 0xdb0"); break;            /* stopi */
	case 2: TRY("csrr t0, 0x15c"); break;            /* stopei */
	case 3: TRY("csrr t0, 0x251"); break;            /* vsireg */
	case 4: TRY("csrr t0, 0x151"); break;            /* sireg */
	}
	return (long)cause1();
}

/* S-mode with sstatus.SIE: a virtual LCOFI (mvien/mvip) is taken here */
static long s_wait(long arg)
{
	(void)arg;
	rt_trap_clear();
	csrs(sstatus, SSTATUS_SIE);
	asm volatile(NOPS(8));
	csrc(sstatus, SSTATUS_SIE);
	return 0;
}

int main(void)
{
	rt_trap_hook = h_hook;
	rt_eq(1, "device tree lists smaia", rt_fdt_has_ext("smaia"), 1);
	rt_eq(2, "device tree lists ssaia", rt_fdt_has_ext("ssaia"), 1);

	/* reset values */
	rt_eq(3, "mtopi = 0 at reset (mie = 0)", csrr(CSR_MTOPI), 0);
	rt_eq(4, "stopi = 0 at reset", csrr(CSR_STOPI), 0);
	rt_eq(5, "mvien = 0 at reset", csrr(CSR_MVIEN), 0);
	rt_eq(6, "mvip = 0 at reset", csrr(CSR_MVIP), 0);
	rt_eq(7, "hvien = 0 at reset", csrr(CSR_HVIEN), 0);
	rt_eq(8, "hvictl = 0 at reset", csrr(CSR_HVICTL), 0);

	/* writable masks */
	csrw(CSR_MVIEN, ~0ul);
	rt_eq(9, "mvien: bits 1, 9, 13 writable", csrr(CSR_MVIEN), 0x2202);
	csrw(CSR_MVIEN, 0);
	csrw(CSR_HVIEN, ~0ul);
	rt_eq(10, "hvien: bit 13 writable", csrr(CSR_HVIEN), LCOF);
	csrw(CSR_HVIEN, 0);
	csrw(CSR_HVICTL, ~0ul);
	rt_eq(11, "hvictl: VTI, IID (12 bits), DPR, IPRIOM, IPRIO", csrr(CSR_HVICTL), 0x4fff03ff);
	csrw(CSR_HVICTL, 0);
	csrw(CSR_HVIPRIO1, ~0ul);
	rt_eq(12, "hviprio1 read-only zero", csrr(CSR_HVIPRIO1), 0);
	csrw(CSR_HVIPRIO2, ~0ul);
	rt_eq(13, "hviprio2 read-only zero", csrr(CSR_HVIPRIO2), 0);
	csrw(CSR_HVIP, ~0ul);
	rt_eq(14, "hvip: VSSIP, VSTIP, VSEIP and 13 writable", csrr(CSR_HVIP), 0x2444);
	csrw(CSR_HVIP, 0);
	csrw(CSR_VSISELECT, 0x1ff);
	rt_eq(15, "vsiselect holds 0x1ff", csrr(CSR_VSISELECT), 0x1ff);
	csrw(CSR_VSISELECT, 0);

	/* mvip with mvien = 0: bits 1, 5, 9 are mip's SSIP, STIP, SEIP; 13 its own */
	csrw(CSR_MVIP, ~0ul);
	rt_eq(16, "mvip: bits 1, 5, 9, 13 writable", csrr(CSR_MVIP), 0x2222);
	rt_eq(17, "mip.SSIP, STIP, SEIP set through mvip, not LCOFIP", csrr(mip) & 0x2222, 0x222);
	csrw(CSR_MVIP, 0);
	rt_eq(18, "mvip = 0 clears them in mip", csrr(mip) & 0x2222, 0);

	/* the iprio arrays: read-only zero; odd numbers do not exist in RV64 */
	csrw(CSR_MISELECT, 0x30);
	TRY("csrw 0x351, %1", "r"(~0ul));
	rt_eq(19, "mireg at 0x30: write ignored", cause1(), 0);
	rt_eq(20, "mireg at 0x30 (iprio0) reads 0", csrr(CSR_MIREG), 0);
	csrw(CSR_MISELECT, 0x3e);
	rt_eq(21, "mireg at 0x3e (iprio14) reads 0", csrr(CSR_MIREG), 0);
	csrw(CSR_MIREG, 0);   /* default order (for a hart whose array is writable) */
	csrw(CSR_MISELECT, 0x30);
	csrw(CSR_MIREG, 0);
	csrw(CSR_MISELECT, 0x31);
	TRY("csrr t0, 0x351");
	rt_eq(22, "mireg at 0x31 (odd) -> illegal", cause1(), ILL);
	csrw(CSR_MISELECT, 0x30);
	TRY("csrr t0, 0x352");
	rt_eq(23, "mireg2 at 0x30 -> illegal", cause1(), ILL);
	csrw(CSR_MISELECT, 0x70);
	TRY("csrr t0, 0x351");
	rt_eq(24, "mireg at 0x70 (IMSIC, none) -> illegal", cause1(), ILL);
	csrw(CSR_SISELECT, 0x30);
	TRY("csrr t0, 0x151");
	rt_eq(25, "sireg at 0x30 reads (no trap)", cause1(), 0);
	csrw(CSR_SISELECT, 0x3f);
	TRY("csrr t0, 0x151");
	rt_eq(26, "sireg at 0x3f -> illegal", cause1(), ILL);
	csrw(CSR_SISELECT, 0xff);
	TRY("csrr t0, 0x151");
	rt_eq(27, "sireg at 0xff (IMSIC, none) -> illegal", cause1(), ILL);
	csrw(CSR_SISELECT, 0);
	csrw(CSR_MISELECT, 0);

	/* the *topei CSRs and the VS window's inaccessible numbers */
	TRY("csrr t0, 0x35c");
	rt_eq(28, "mtopei (no IMSIC) -> illegal", cause1(), ILL);
	TRY("csrr t0, 0x15c");
	rt_eq(29, "stopei from M (no IMSIC) -> illegal", cause1(), ILL);
	TRY("csrr t0, 0x25c");
	rt_eq(30, "vstopei from M (VGEIN = 0) -> illegal", cause1(), ILL);
	csrw(CSR_VSISELECT, 0x30);
	TRY("csrr t0, 0x251");
	rt_eq(31, "vsireg at 0x30 from M (inaccessible) -> illegal", cause1(), ILL);
	csrw(CSR_VSISELECT, 0x70);
	TRY("csrr t0, 0x251");
	rt_eq(32, "vsireg at 0x70 from M -> illegal", cause1(), ILL);
	rt_eq(33, "HS: mtopi -> illegal", rt_run(PRV_S, try_s, 0), ILL);
	rt_eq(34, "HS: stopi reads", rt_run(PRV_S, try_s, 1), 0);
	rt_eq(35, "HS: stopei -> illegal", rt_run(PRV_S, try_s, 2), ILL);
	rt_eq(36, "HS: vsireg at 0x70 -> illegal", rt_run(PRV_S, try_s, 3), ILL);
	csrw(CSR_SISELECT, 0x30);
	rt_eq(37, "HS: sireg at 0x30 reads", rt_run(PRV_S, try_s, 4), 0);
	csrw(CSR_SISELECT, 0);
	csrw(CSR_VSISELECT, 0);

	/* mtopi: the highest pending-and-enabled M-level interrupt, MIE
	 * aside (MIE is 0 here), IPRIO 1 (the iprio array is zero) */
	csrw(mie, 0x2222);
	csrs(mip, 1ul << 5);
	rt_eq(38, "mtopi: STIP -> IID 5, IPRIO 1", csrr(CSR_MTOPI), TOPI(5, 1));
	csrs(mip, 1ul << 1);
	rt_eq(39, "mtopi: SSIP above STIP", csrr(CSR_MTOPI), TOPI(1, 1));
	csrs(mip, 1ul << 9);
	rt_eq(40, "mtopi: SEIP above SSIP", csrr(CSR_MTOPI), TOPI(9, 1));
	csrc(mip, 0x222);
	csrs(mip, LCOF);
	rt_eq(41, "mtopi: LCOFIP -> IID 13", csrr(CSR_MTOPI), TOPI(13, 1));
	csrs(mip, 1ul << 5);
	rt_eq(42, "mtopi: STIP above LCOFIP", csrr(CSR_MTOPI), TOPI(5, 1));
	csrw(mie, 0x2000);
	rt_eq(43, "mtopi: STIP not enabled -> LCOFIP", csrr(CSR_MTOPI), TOPI(13, 1));
	/* delegated: stopi has them, mtopi not */
	csrw(mideleg, 0x2222);
	rt_eq(44, "mideleg.LCOFI: mtopi = 0", csrr(CSR_MTOPI), 0);
	rt_eq(45, "stopi: LCOFIP -> IID 13, IPRIO 1", csrr(CSR_STOPI), TOPI(13, 1));
	csrs(mie, 1ul << 5);
	rt_eq(46, "stopi: STIP above LCOFIP", csrr(CSR_STOPI), TOPI(5, 1));
	csrc(mip, 0x2222);
	rt_eq(47, "stopi = 0 once none is pending", csrr(CSR_STOPI), 0);
	csrw(mie, 0);
	csrw(mideleg, 0);

	/* interrupt filtering: mideleg.LCOFI = 0, mvien.LCOFI = 1: sip.LCOFIP
	 * is mvip's bit, sie.LCOFIE sie's own */
	rt_eq(48, "mvien = 0: sip.LCOFIP read-only 0", csrr(sip) & LCOF, 0);
	csrs(sie, LCOF);
	rt_eq(49, "mvien = 0: sie.LCOFIE read-only 0", csrr(sie) & LCOF, 0);
	csrw(CSR_MVIEN, LCOF);
	csrw(CSR_MVIP, LCOF);
	rt_eq(50, "mvien.LCOFI: sip.LCOFIP = mvip's", csrr(sip) & LCOF, LCOF);
	rt_eq(51, "mip.LCOFIP stays 0", csrr(mip) & LCOF, 0);
	csrs(sie, LCOF);
	rt_eq(52, "sie.LCOFIE writable", csrr(sie) & LCOF, LCOF);
	rt_eq(53, "mie.LCOFIE stays 0", csrr(mie) & LCOF, 0);
	rt_eq(54, "stopi: the virtual LCOFI", csrr(CSR_STOPI), TOPI(13, 1));
	rt_eq(55, "mtopi: not M's", csrr(CSR_MTOPI), 0);
	csrw(scause, 0);
	rt_run(PRV_S, s_wait, 0);
	rt_eq(56, "S took the virtual LCOFI: scause", csrr(scause), CAUSE_INT | 13);
	rt_eq(57, "once, in S", rt_trap.count == 1 ? rt_trap.level : 0, 'S');
	csrc(sip, LCOF);
	rt_eq(58, "sip.LCOFIP clear writes mvip", csrr(CSR_MVIP), 0);
	csrw(CSR_MVIEN, 0);
	rt_eq(59, "mvien = 0 again: sie.LCOFIE read-only 0", csrr(sie) & LCOF, 0);

	/* mvien.SEI: mip.SEIP is the line alone; mvip.SEIP a virtual SEI */
	csrw(CSR_MVIEN, 1ul << 9);
	csrs(mip, 1ul << 9);
	rt_eq(60, "mvien.SEI: mip.SEIP read-only (no line)", csrr(mip) & (1ul << 9), 0);
	csrs(CSR_MVIP, 1ul << 9);
	rt_eq(61, "mvip.SEIP writable", csrr(CSR_MVIP) & (1ul << 9), 1ul << 9);
	rt_eq(62, "sip.SEIP = mvip.SEIP", csrr(sip) & (1ul << 9), 1ul << 9);
	rt_eq(63, "mip.SEIP still 0", csrr(mip) & (1ul << 9), 0);
	csrw(CSR_MVIP, 0);
	csrw(CSR_MVIEN, 0);
	return rt_done();
}
