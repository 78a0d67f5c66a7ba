/* aia-vs: the AIA at VS level without an IMSIC ("Interrupts for Virtual
 * Machines (VS Level)"): vsip/vsie bits 13-63 through hvien/hvip and
 * hideleg, vstopi's candidates and encodings under hvictl (VTI, IID,
 * DPR, IPRIOM, IPRIO), an LCOFI injected into VS through hvien/hvip (as
 * Linux KVM does for a guest's counter overflow) and a real counter
 * overflow delegated to VS by hideleg, both taken in VS with vscause =
 * interrupt 13, and the virtual-instruction cases (stopei, vstopei,
 * vsireg's inaccessible numbers, sip/sie and stimecmp writes under VTI). See
 * docs/bare-tests.md. */
#include "aia.h"

static long vs_try(long what)
{
	switch (what) {
	case 0: TRY("csrr t0, 0x15c"); break;   /* stopei */
	case 1: TRY("csrr t0, 0x25c"); break;   /* vstopei */
	case 2: TRY("csrr t0, 0xeb0"); break;   /* vstopi */
	case 3: TRY("csrr t0, 0x608"); break;   /* hvien */
	case 4: TRY("csrr t0, 0x151"); break;   /* sireg: vsireg */
	case 5: TRY("csrr t0, 0x144"); break;   /* sip: vsip */
	case 6: TRY("csrr t0, 0x104"); break;   /* sie: vsie */
	case 7: TRY("csrr t0, 0x251"); break;   /* vsireg */
	case 8: TRY("csrr t0, 0xdb0"); break;   /* stopi: vstopi */
	case 9: TRY("csrw 0x150, %1", "r"(0x1a5ul)); break;   /* siselect: vsiselect */
	case 10: TRY("csrw 0x14d, %1", "r"(~0ul)); break;     /* stimecmp: vstimecmp */
	}
	return (long)cause1();
}

static long vs_read(long csr)
{
	return (long)(csr == 0x144 ? csrr(sip) : csr == 0x104 ? csrr(sie) : csrr(CSR_STOPI));
}

static long vs_clear_lcofip(long arg)
{
	(void)arg;
	csrc(sip, LCOF);
	return (long)csrr(sip);
}

/* VS with vsstatus.SIE and vsie.LCOFIE: the interrupt is taken here */
static long vs_wait(long nops)
{
	h_s_is_vs = 1;
	rt_trap_clear();
	csrs(sie, LCOF);
	csrs(sstatus, SSTATUS_SIE);
	if (nops)
		asm volatile(NOPS(400));
	else
		asm volatile(NOPS(8));
	csrc(sstatus, SSTATUS_SIE);
	h_s_is_vs = 0;
	return rt_trap.count == 1 && rt_trap.level == 'S' ? (long)rt_trap.cause : -1;
}

int main(void)
{
	rt_trap_hook = h_hook;
	csrw(CSR_VSTVEC, (u64)rt_s_trap_entry);

	/* vsip/vsie bits 13-63: read-only zero without hideleg or hvien */
	csrw(CSR_HVIP, LCOF);
	rt_eq(1, "hvien = 0: vsip.LCOFIP read-only 0", csrr(CSR_VSIP), 0);
	csrw(CSR_VSIE, ~0ul);
	rt_eq(2, "hvien = 0, hideleg = 0: vsie reads 0", csrr(CSR_VSIE), 0);
	csrw(CSR_HVIEN, LCOF);
	rt_eq(3, "hvien.LCOFI: vsip.LCOFIP = hvip's", csrr(CSR_VSIP), LCOF);
	csrw(CSR_VSIE, ~0ul);
	rt_eq(4, "vsie: bit 13 its own, writable", csrr(CSR_VSIE), LCOF);
	rt_eq(5, "mie.LCOFIE stays 0", csrr(mie) & LCOF, 0);
	rt_eq(6, "mip.LCOFIP stays 0", csrr(mip) & LCOF, 0);

	/* vstopi */
	rt_eq(7, "vstopi: LCOFI, IPRIO 1 (IPRIOM = 0)", csrr(CSR_VSTOPI), TOPI(13, 1));
	rt_eq(8, "stopi: not HS's", csrr(CSR_STOPI), 0);
	csrw(CSR_HVICTL, HVICTL_IPRIOM);
	rt_eq(9, "IPRIOM = 1: priority 0 below SEI -> IPRIO 255", csrr(CSR_VSTOPI), TOPI(13, 255));
	csrw(CSR_HVICTL, HVICTL_VTI | HVICTL_IID(9));
	rt_eq(10, "VTI = 1, IID = 9: vsip's LCOFI is no candidate", csrr(CSR_VSTOPI), 0);
	csrw(CSR_HVICTL, HVICTL_VTI | HVICTL_IID(5) | HVICTL_IPRIOM | 0x40);
	rt_eq(11, "VTI = 1, IID = 5, IPRIO 0x40", csrr(CSR_VSTOPI), TOPI(5, 0x40));
	csrw(CSR_HVICTL, HVICTL_VTI | HVICTL_IID(30) | HVICTL_IPRIOM);
	rt_eq(12, "VTI = 1, IID = 30, IPRIO 0, DPR = 0 -> IPRIO 0", csrr(CSR_VSTOPI), TOPI(30, 0));
	csrw(CSR_HVICTL, HVICTL_VTI | HVICTL_IID(30) | HVICTL_DPR | HVICTL_IPRIOM);
	rt_eq(13, "same with DPR = 1 -> IPRIO 255", csrr(CSR_VSTOPI), TOPI(30, 255));
	/* a VS external interrupt: hvip.VSEIP delegated, vsie.SEIE */
	csrw(CSR_HIDELEG, 1ul << 10);
	csrw(CSR_HVIP, LCOF | (1ul << 10));
	csrw(CSR_VSIE, LCOF | (1ul << 9));
	rt_eq(14, "VTI = 1, DPR = 1, IPRIO 0: SEI (256) first", csrr(CSR_VSTOPI), TOPI(9, 255));
	csrw(CSR_HVICTL, HVICTL_VTI | HVICTL_IID(30) | HVICTL_IPRIOM | 7);
	rt_eq(15, "VTI = 1, IPRIO 7 beats SEI's 256", csrr(CSR_VSTOPI), TOPI(30, 7));
	csrw(CSR_HVICTL, 0);
	rt_eq(16, "SEI above LCOFI", csrr(CSR_VSTOPI), TOPI(9, 1));
	csrw(CSR_HVICTL, HVICTL_IID(9) | HVICTL_IPRIOM | 7);
	rt_eq(17, "IID = 9, IPRIO 7: SEI's priority", csrr(CSR_VSTOPI), TOPI(9, 7));
	csrw(CSR_HVICTL, HVICTL_IID(9) | 1);
	rt_eq(18, "KVM's hvictl (IID 9, IPRIO 1): IPRIO 1", csrr(CSR_VSTOPI), TOPI(9, 1));
	csrw(CSR_HVICTL, HVICTL_IPRIOM);
	rt_eq(19, "IID = 0: SEI's priority 256 -> IPRIO 255", csrr(CSR_VSTOPI), TOPI(9, 255));
	csrw(CSR_HVICTL, 0);
	rt_eq(20, "vsip in VS: SEIP (9) and LCOFIP", rt_run(PRV_VS, vs_read, 0x144), LCOF | (1ul << 9));
	rt_eq(21, "stopi in VS is vstopi", rt_run(PRV_VS, vs_read, 0xdb0), TOPI(9, 1));
	csrw(CSR_HVIP, LCOF);
	csrw(CSR_HIDELEG, 0);
	csrw(CSR_VSIE, 0);

	/* hvien/hvip injection, as KVM does it: vsip.LCOFIP is hvip's; the
	 * guest's clear of sip.LCOFIP clears hvip bit 13 */
	rt_eq(22, "VS clears sip.LCOFIP", rt_run(PRV_VS, vs_clear_lcofip, 0), 0);
	rt_eq(23, "which clears hvip bit 13", csrr(CSR_HVIP), 0);
	csrw(CSR_HVIP, LCOF);
	csrw(CSR_VSCAUSE, 0);
	csrw(scause, 0);
	rt_eq(24, "VS takes the injected LCOFI: scause in VS", rt_run(PRV_VS, vs_wait, 0),
	      CAUSE_INT | 13);
	rt_eq(25, "vscause = interrupt 13", csrr(CSR_VSCAUSE), CAUSE_INT | 13);
	rt_eq(26, "HS took nothing: scause", csrr(scause), 0);
	csrw(CSR_HVIEN, 0);
	rt_eq(27, "hvien = 0: nothing is taken in VS", rt_run(PRV_VS, vs_wait, 0), -1);
	csrw(CSR_HVIP, 0);

	/* a real overflow (Sscofpmf) of mhpmcounter3, LCOFI delegated by
	 * mideleg and on to VS by hideleg */
	csrw(mideleg, LCOF);
	csrw(CSR_HIDELEG, ~0ul);
	rt_eq(28, "hideleg: bit 13 writable with mideleg.LCOFI", csrr(CSR_HIDELEG), 0x2444);
	csrw(CSR_HIDELEG, LCOF);
	csrw(CSR_VSCAUSE, 0);
	csrw(scause, 0);
	csrw(CSR_MCOUNTINHIBIT, 0);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	csrw(CSR_MHPMCOUNTER3, -200ul);
	rt_eq(29, "the overflow is taken in VS: scause in VS", rt_run(PRV_VS, vs_wait, 1),
	      CAUSE_INT | 13);
	rt_eq(30, "vscause = interrupt 13", csrr(CSR_VSCAUSE), CAUSE_INT | 13);
	rt_eq(31, "HS took nothing: scause", csrr(scause), 0);
	rt_eq(32, "mhpmevent3.OF set", csrr(CSR_MHPMEVENT3) >> 63, 1);
	rt_eq(33, "mip.LCOFIP set (vsip's alias of sip)", csrr(mip) & LCOF, LCOF);
	csrw(CSR_MHPMEVENT3, 0);
	csrc(mip, LCOF);
	csrw(CSR_HIDELEG, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);

	/* virtual instruction from VS (no IMSIC: VGEIN is 0) */
	rt_eq(34, "VS: stopei -> virtual", rt_run(PRV_VS, vs_try, 0), VIRT);
	rt_eq(35, "VS: vstopei -> virtual", rt_run(PRV_VS, vs_try, 1), VIRT);
	rt_eq(36, "VS: vstopi -> virtual", rt_run(PRV_VS, vs_try, 2), VIRT);
	rt_eq(37, "VS: hvien -> virtual", rt_run(PRV_VS, vs_try, 3), VIRT);
	csrw(CSR_VSISELECT, 0x30);
	rt_eq(38, "VS: sireg at vsiselect 0x30 -> virtual", rt_run(PRV_VS, vs_try, 4), VIRT);
	csrw(CSR_VSISELECT, 0x70);
	rt_eq(39, "VS: sireg at vsiselect 0x70 -> virtual", rt_run(PRV_VS, vs_try, 4), VIRT);
	rt_eq(40, "VS: vsireg -> virtual", rt_run(PRV_VS, vs_try, 7), VIRT);
	rt_eq(41, "VU: stopi -> virtual", rt_run(PRV_VU, vs_try, 8), VIRT);
	rt_eq(42, "VU: sireg -> virtual", rt_run(PRV_VU, vs_try, 4), VIRT);
	rt_eq(43, "VS: siselect writes vsiselect", rt_run(PRV_VS, vs_try, 9), 0);
	rt_eq(44, "vsiselect holds it", csrr(CSR_VSISELECT), 0x1a5);
	csrw(CSR_VSISELECT, 0);
	rt_eq(45, "VS: sip with VTI = 0 reads", rt_run(PRV_VS, vs_try, 5), 0);
	csrw(CSR_HVICTL, HVICTL_VTI | HVICTL_IID(9));
	rt_eq(46, "VS: sip with VTI = 1 -> virtual", rt_run(PRV_VS, vs_try, 5), VIRT);
	rt_eq(47, "VS: sie with VTI = 1 -> virtual", rt_run(PRV_VS, vs_try, 6), VIRT);
	/* Sstc on for VS: a write of vstimecmp may clear vsip.STIP, so VTI
	 * makes it virtual */
	csrs(0x30a, 1ul << 63);          /* menvcfg.STCE */
	csrs(CSR_HENVCFG, 1ul << 63);
	csrw(mcounteren, ~0ul);
	csrw(CSR_HCOUNTEREN, ~0ul);
	rt_eq(48, "VS: stimecmp write with VTI = 1 -> virtual", rt_run(PRV_VS, vs_try, 10), VIRT);
	csrw(CSR_HVICTL, 0);
	rt_eq(49, "VS: stimecmp write with VTI = 0 runs", rt_run(PRV_VS, vs_try, 10), 0);
	csrc(CSR_HENVCFG, 1ul << 63);
	csrc(0x30a, 1ul << 63);
	/* the counter window from VS (Smcdeleg: not virtualized): sireg at
	 * vsiselect 0x40-0x5F is illegal while menvcfg.CDE = 0 and a
	 * virtual instruction with CDE = 1, for a hypervisor to emulate */
	csrw(CSR_VSISELECT, 0x42);
	csrc(0x30a, 1ul << 60);
	rt_eq(50, "VS: sireg at vsiselect 0x42, CDE = 0 -> illegal", rt_run(PRV_VS, vs_try, 4), 2);
	csrs(0x30a, 1ul << 60);
	rt_eq(51, "VS: sireg at vsiselect 0x42, CDE = 1 -> virtual", rt_run(PRV_VS, vs_try, 4), VIRT);
	csrc(0x30a, 1ul << 60);
	return rt_done();
}
