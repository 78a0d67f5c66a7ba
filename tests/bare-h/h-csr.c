/* h-csr: the hypervisor extension's CSRs and their WARL values, the
 * M-mode view (misa.H, mideleg/medeleg, mstatus.MPV/GVA, mtval2), who
 * may access them (illegal from U, virtual instruction from VS/VU), VS's
 * supervisor CSRs reaching the vs* registers, the virtual-instruction
 * rules of SRET/WFI/SFENCE.VMA/HLV/HFENCE, ecall causes from VS/VU,
 * VSSIP delivered to VS (as SSIP) or to HS, and Sstc's vstimecmp. See
 * docs/bare-tests.md. */
#include "h.h"

#define VIRT 22	/* virtual-instruction exception */
#define ILL 2
#define SSTATUS_SIE (1ul << 1)

extern char rt_s_trap_entry[];
static u64 word = 0x1122334455667788ul;

/* the one trap's cause, ~0 for none, 99 for more than one */
static u64 cause1(void)
{
	return rt_trap.count == 0 ? ~0ul : rt_trap.count == 1 ? rt_trap.cause : 99;
}

static long vs_csrs(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("csrr t0, 0x600");
	rt_check_trap(40, "VS: csrr hstatus -> virtual instruction, tval = the instruction",
		      pc, VIRT, ENC_CSR(2, 5, 0, 0x600));
	TRY("csrr t0, 0x200");
	rt_eq(41, "VS: csrr vsstatus -> virtual instruction", rt_trap.cause, VIRT);
	TRY("csrr t0, 0x606");
	rt_eq(42, "VS: csrr hcounteren -> virtual instruction", rt_trap.cause, VIRT);
	TRY("csrr t0, mstatus");
	rt_eq(43, "VS: csrr mstatus -> illegal instruction", rt_trap.cause, ILL);
	rt_eq(44, "VS: sstatus reads vsstatus", csrr(sstatus) & (MSTATUS_SUM | MSTATUS_SPP),
	      MSTATUS_SUM | MSTATUS_SPP);
	csrw(sscratch, 0xabcdul);
	pc = TRY("ecall");
	rt_check_trap(45, "VS: ecall -> cause 10", pc, 10, ~0ul);
	rt_eq(46, "VS: at the ecall mstatus.MPV = 1, MPP = S",
	      trap_status() & (MSTATUS_MPV | MSTATUS_MPP), MSTATUS_MPV | (1ul << 11));
	TRY(H_INSN("hlv.d t0, (sp)"));
	rt_eq(47, "VS: hlv.d -> virtual instruction", rt_trap.cause, VIRT);
	TRY(H_INSN("hfence.gvma"));
	rt_eq(48, "VS: hfence.gvma -> virtual instruction", rt_trap.cause, VIRT);
	TRY(H_INSN("hfence.vvma"));
	rt_eq(49, "VS: hfence.vvma -> virtual instruction", rt_trap.cause, VIRT);
	TRY("sfence.vma");
	rt_check_notrap(50, "VS: sfence.vma with VTVM = 0 runs");
	return 0;
}

static long vs_traps(long arg)
{
	(void)arg;
	/* M set hstatus.VTSR, VTW, VTVM */
	TRY("sret");
	rt_eq(52, "VS: sret with VTSR = 1 -> virtual instruction", cause1(), VIRT);
	TRY("wfi");
	rt_eq(53, "VS: wfi with VTW = 1 -> virtual instruction", cause1(), VIRT);
	TRY("sfence.vma");
	rt_eq(54, "VS: sfence.vma with VTVM = 1 -> virtual instruction", cause1(), VIRT);
	TRY("csrr t0, satp");
	rt_eq(55, "VS: csrr satp with VTVM = 1 -> virtual instruction", cause1(), VIRT);
	return 0;
}

static long vs_wfi(long arg)
{
	(void)arg;  /* mstatus.TW = 1 */
	TRY("wfi");
	rt_eq(57, "VS: wfi with mstatus.TW = 1 -> illegal instruction", cause1(), ILL);
	return 0;
}

static long vu_traps(long arg)
{
	u64 pc;
	(void)arg;
	TRY("csrr t0, sstatus");
	rt_eq(59, "VU: csrr sstatus -> virtual instruction", cause1(), VIRT);
	TRY("csrr t0, 0x600");
	rt_eq(60, "VU: csrr hstatus -> virtual instruction", cause1(), VIRT);
	TRY("csrr t0, mstatus");
	rt_eq(61, "VU: csrr mstatus -> illegal instruction", cause1(), ILL);
	TRY("sret");
	rt_eq(62, "VU: sret -> virtual instruction", cause1(), VIRT);
	TRY("wfi");
	rt_eq(63, "VU: wfi (TW = 0) -> virtual instruction", cause1(), VIRT);
	TRY("sfence.vma");
	rt_eq(64, "VU: sfence.vma -> virtual instruction", cause1(), VIRT);
	TRY(H_INSN("hlv.d t0, (sp)"));
	rt_eq(65, "VU: hlv.d with HU = 1 -> virtual instruction", cause1(), VIRT);
	pc = TRY("ecall");
	rt_check_trap(66, "VU: ecall -> cause 8", pc, 8, ~0ul);
	rt_eq(67, "VU: at the ecall mstatus.MPV = 1, MPP = U",
	      trap_status() & (MSTATUS_MPV | MSTATUS_MPP), MSTATUS_MPV);
	return 0;
}

static long u_hyp(long arg)
{
	u64 v = 0;
	(void)arg;
	TRY("csrr t0, 0x600");
	rt_eq(31, "U: csrr hstatus -> illegal instruction", cause1(), ILL);
	TRY(H_INSN("hlv.d t0, (%0)"), "r"(&word));
	rt_eq(32, "U: hlv.d with HU = 0 -> illegal instruction", cause1(), ILL);
	register u64 a7 asm("a7") = 0x4855;   /* M sets hstatus.HU */
	asm volatile("ecall" :: "r"(a7) : "memory");
	rt_trap_clear();
	asm volatile(H_INSN("hlv.d %0, (%1)") : "=r"(v) : "r"(&word) : "memory");
	rt_check(33, "U: hlv.d with HU = 1 (vsatp, hgatp Bare) reads", rt_trap.count == 0 && v == word, v, word);
	asm volatile(H_INSN("hsv.w %0, (%1)") :: "r"(0xfeedul), "r"(&word) : "memory");
	rt_eq(34, "U: hsv.w with HU = 1 writes the low word", word, 0x112233440000feedul);
	TRY(H_INSN("hfence.vvma"));
	rt_eq(35, "U: hfence.vvma even with HU = 1 -> illegal instruction", cause1(), ILL);
	return 0;
}

/* u_hyp's ecall with a7 = "HU": M sets hstatus.HU and returns */
static int h_hu_hook(u64 *f, u64 cause, u64 epc, char level)
{
	if (level == 'M' && cause == 8 && f[17] == 0x4855) {  /* a7 = "HU" */
		csrs(CSR_HSTATUS, HS_HU);
		csrw(mepc, epc + 4);
		return 1;
	}
	return h_hook(f, cause, epc, level);
}

static long s_hyp(long arg)
{
	(void)arg;
	TRY("csrr t0, 0x600");
	rt_check_notrap(36, "HS: csrr hstatus runs");
	rt_eq(37, "HS: csrr vsstatus reads what M wrote", csrr(CSR_VSSTATUS) & MSTATUS_SUM, MSTATUS_SUM);
	TRY(H_INSN("hfence.gvma"));
	rt_eq(38, "HS: hfence.gvma with mstatus.TVM = 1 -> illegal", cause1(), ILL);
	TRY(H_INSN("hfence.vvma"));
	rt_check_notrap(39, "HS: hfence.vvma with mstatus.TVM = 1 runs");
	TRY("csrr t0, 0x680");
	rt_eq(68, "HS: csrr hgatp with mstatus.TVM = 1 -> illegal", cause1(), ILL);
	return 0;
}

/* VSSIP taken in VS (hideleg) as supervisor software interrupt 1 */
static long vs_irq(long arg)
{
	(void)arg;
	h_s_is_vs = 1;
	rt_trap_clear();
	csrs(sie, 1ul << 1);            /* vsie.SSIE: mie.VSSIE */
	csrs(sstatus, SSTATUS_SIE);     /* vsstatus.SIE */
	asm volatile(NOPS(4));
	h_s_is_vs = 0;
	rt_eq(70, "VS: VSSIP taken in VS as scause = interrupt 1", rt_trap.cause, CAUSE_INT | 1);
	rt_eq(71, "VS: taken by the S-level handler (in VS)", rt_trap.level, 'S');
	return 0;
}

/* VSSIP not in hideleg: an HS-level interrupt 2, taken from VS at once */
static long vs_irq_hs(long arg)
{
	(void)arg;
	asm volatile(NOPS(4));
	return 0;
}

static int hs_irq_hook(u64 *f, u64 cause, u64 epc, char level)
{
	if (level == 'S' && cause == (CAUSE_INT | 2))
		csrc(CSR_HVIP, 1ul << 2);   /* sie has no VS bits: clear the source */
	return h_hook(f, cause, epc, level);
}

static long vs_stimecmp(long arg)
{
	rt_trap_clear();
	u64 v = csrr(0x14d);
	return rt_trap.count ? -(long)rt_trap.cause : (long)(v == (u64)arg);
}

/* Sstc with H: vstimecmp, henvcfg.STCE, VSTIP, VS's stimecmp */
static void sstc_v(void)
{
	const u64 stce = 1ul << 63;
	csrs(0x30a, stce);   /* menvcfg.STCE */
	csrw(CSR_HENVCFG, ~0ul);
	rt_eq(75, "henvcfg with menvcfg.STCE: FIOM and STCE", csrr(CSR_HENVCFG), stce | 1);
	csrw(0x24d, 0x123456789ul);
	rt_eq(76, "vstimecmp holds 64 bits", csrr(0x24d), 0x123456789ul);
	csrw(0x24d, 0);
	rt_eq(77, "vstimecmp <= time: hip.VSTIP = 1", (csrr(CSR_HIP) >> 6) & 1, 1);
	csrw(0x24d, ~0ul);
	rt_eq(78, "vstimecmp = ~0: hip.VSTIP = 0", (csrr(CSR_HIP) >> 6) & 1, 0);
	csrw(0x24d, csrr(time) + (1ul << 40));
	csrw(CSR_HTIMEDELTA, 1ul << 41);
	rt_eq(79, "time + htimedelta >= vstimecmp: VSTIP = 1", (csrr(CSR_HIP) >> 6) & 1, 1);
	csrw(CSR_HTIMEDELTA, 0);
	csrw(0x24d, 0x4242);
	csrw(mcounteren, ~0ul);
	csrw(CSR_HCOUNTEREN, ~0ul);
	rt_eq(80, "VS: stimecmp reads vstimecmp", (u64)rt_run(PRV_VS, vs_stimecmp, 0x4242), 1);
	csrw(CSR_HCOUNTEREN, ~2ul);
	rt_eq(81, "VS: hcounteren.TM = 0 -> virtual instruction", (u64)-rt_run(PRV_VS, vs_stimecmp, 0), VIRT);
	csrw(CSR_HCOUNTEREN, ~0ul);
	csrc(CSR_HENVCFG, stce);
	rt_eq(82, "VS: henvcfg.STCE = 0 -> virtual instruction", (u64)-rt_run(PRV_VS, vs_stimecmp, 0), VIRT);
	csrs(CSR_HENVCFG, stce);
	csrw(mcounteren, ~2ul);
	rt_eq(83, "VS: mcounteren.TM = 0 -> illegal instruction", (u64)-rt_run(PRV_VS, vs_stimecmp, 0), ILL);
	csrw(mcounteren, 0);
	csrw(CSR_HCOUNTEREN, 0);
	csrc(0x30a, stce);
	rt_eq(84, "menvcfg.STCE = 0: henvcfg.STCE reads 0", csrr(CSR_HENVCFG), 1);
	csrw(CSR_HENVCFG, 0);
}

int main(void)
{
	rt_trap_hook = h_hook;
	rt_eq(1, "misa.H is set", (csrr(misa) >> 7) & 1, 1);
	rt_eq(2, "the device tree's ISA string has h", rt_fdt_has_ext("h"), 1);
	csrw(CSR_HSTATUS, ~0ul);
	rt_eq(3, "hstatus: GVA SPV SPVP HU VTVM VTW VTSR writable, VSXL = 2, VGEIN = 0",
	      csrr(CSR_HSTATUS), 0x2007003c0ul);
	csrw(CSR_HSTATUS, 0);
	rt_eq(4, "hstatus = 0: VSXL still 2", csrr(CSR_HSTATUS), 2ul << 32);
	csrw(CSR_HEDELEG, ~0ul);
	rt_eq(5, "hedeleg: causes 0-8, 12, 13, 15 delegable", csrr(CSR_HEDELEG), 0xb1fful);
	csrw(CSR_HIDELEG, ~0ul);
	rt_eq(6, "hideleg: VSSI, VSTI, VSEI delegable", csrr(CSR_HIDELEG), 0x444ul);
	csrw(mideleg, 0);
	rt_eq(7, "mideleg: VSSI, VSTI, VSEI read-only one", csrr(mideleg) & 0x1444, 0x444ul);
	csrw(medeleg, ~0ul);
	rt_eq(8, "medeleg: also 10 (ecall from VS) and 20-23", csrr(medeleg), 0xf0b7fful);
	csrw(medeleg, 0);
	csrw(CSR_HEDELEG, 0);
	csrw(CSR_HIDELEG, 0);
	csrw(CSR_HVIP, ~0ul);
	/* bits 12:0 are the H extension's (13-63: the AIA's, tests/bare-aia) */
	rt_eq(9, "hvip: VSSIP, VSTIP, VSEIP writable", csrr(CSR_HVIP) & 0x1ffful, 0x444ul);
	rt_eq(10, "hip shows them (SGEIP 0)", csrr(CSR_HIP), 0x444ul);
	rt_eq(11, "mip shows them", csrr(mip) & 0x1444, 0x444ul);
	csrw(CSR_HIP, 0);
	rt_eq(12, "hip: only VSSIP writable", csrr(CSR_HVIP) & 0x1ffful, 0x440ul);
	csrw(CSR_HVIP, 0);
	csrw(CSR_HIE, ~0ul);
	rt_eq(13, "hie: VSSIE, VSTIE, VSEIE writable, SGEIE 0", csrr(CSR_HIE), 0x444ul);
	rt_eq(14, "mie shows them", csrr(mie) & 0x1444, 0x444ul);
	csrw(CSR_HIE, 0);
	csrw(CSR_HGEIE, ~0ul);
	rt_eq(15, "hgeie: GEILEN = 0, read-only zero", csrr(CSR_HGEIE), 0);
	rt_eq(16, "hgeip reads zero", csrr(CSR_HGEIP), 0);
	TRY("csrw 0xe12, zero");
	rt_eq(17, "hgeip is read-only: a write is illegal", cause1(), ILL);
	csrw(CSR_HCOUNTEREN, ~0ul);
	rt_eq(18, "hcounteren: 32 bits", csrr(CSR_HCOUNTEREN), 0xfffffffful);
	csrw(CSR_HCOUNTEREN, 0);
	csrw(CSR_HTIMEDELTA, 0x123456789abcdef0ul);
	rt_eq(19, "htimedelta holds 64 bits", csrr(CSR_HTIMEDELTA), 0x123456789abcdef0ul);
	csrw(CSR_HTIMEDELTA, 0);
	csrw(CSR_HTVAL, 0x1234);
	csrw(CSR_MTVAL2, 0x5678);
	rt_eq(20, "htval and mtval2 hold a value", csrr(CSR_HTVAL) << 16 | csrr(CSR_MTVAL2), 0x12345678ul);
	csrw(CSR_HENVCFG, ~0ul);
	rt_eq(21, "henvcfg: FIOM only (STCE needs menvcfg.STCE)", csrr(CSR_HENVCFG), 1);
	csrw(CSR_HENVCFG, 0);
	csrw(CSR_HGATP, ATP_SV39 | (0x3ffful << 44) | 0xffful);
	rt_eq(22, "hgatp Sv39x4: VMID 14 bits, PPN[1:0] read zero", csrr(CSR_HGATP),
	      ATP_SV39 | (0x3ffful << 44) | 0xffcul);
	csrw(CSR_HGATP, (1ul << 60) | 0x40);
	rt_eq(23, "hgatp: a write of mode 1 has no effect", csrr(CSR_HGATP),
	      ATP_SV39 | (0x3ffful << 44) | 0xffcul);
	csrw(CSR_HGATP, 0);
	csrw(CSR_VSSTATUS, ~0ul);
	rt_eq(24, "vsstatus: SIE SPIE SPP FS SUM MXR, UXL = 2, SD", csrr(CSR_VSSTATUS),
	      0x80000002000c6122ul);
	csrw(CSR_HIDELEG, 0x444);
	csrw(CSR_VSIE, ~0ul);
	rt_eq(25, "vsie: the delegated VS bits one place lower", csrr(CSR_VSIE), 0x222ul);
	csrw(CSR_VSIE, 0);
	csrw(CSR_VSIP, ~0ul);
	rt_eq(26, "vsip: only SSIP writable, VSSIP underneath", csrr(CSR_VSIP) << 12 | csrr(CSR_HVIP),
	      0x2004ul);
	csrw(CSR_HVIP, 0);
	csrw(CSR_HIDELEG, 0);
	csrw(CSR_VSATP, 0x8ffff00000012345ul);
	rt_eq(27, "vsatp Sv39 with ASID 16 bits", csrr(CSR_VSATP), 0x8ffff00000012345ul);
	csrw(CSR_VSATP, 1ul << 60);
	rt_eq(28, "vsatp: a write of mode 1 has no effect", csrr(CSR_VSATP), 0x8ffff00000012345ul);
	csrw(CSR_VSATP, 0);
	csrs(mstatus, MSTATUS_MPV | MSTATUS_GVA);
	rt_eq(29, "mstatus.MPV and GVA writable", csrr(mstatus) & (MSTATUS_MPV | MSTATUS_GVA),
	      MSTATUS_MPV | MSTATUS_GVA);
	csrc(mstatus, MSTATUS_MPV | MSTATUS_GVA);
	csrw(CSR_VSEPC, 0x1001);
	rt_eq(30, "vsepc: bit 0 reads zero", csrr(CSR_VSEPC), 0x1000);

	/* who may use them: U, HS, VS, VU */
	rt_trap_hook = h_hu_hook;
	rt_run(PRV_U, u_hyp, 0);
	csrc(CSR_HSTATUS, HS_HU);
	rt_trap_hook = h_hook;
	csrw(CSR_VSSTATUS, MSTATUS_SUM | MSTATUS_SPP);
	csrs(mstatus, 1ul << 20);  /* TVM */
	rt_run(PRV_S, s_hyp, 0);
	csrc(mstatus, 1ul << 20);
	csrw(sscratch, 0x5555);
	rt_run(PRV_VS, vs_csrs, 0);
	rt_eq(51, "VS's csrw sscratch wrote vsscratch, not sscratch",
	      csrr(CSR_VSSCRATCH) << 16 | csrr(sscratch), 0xabcd5555ul);
	csrs(CSR_HSTATUS, HS_VTSR | HS_VTW | HS_VTVM);
	rt_run(PRV_VS, vs_traps, 0);
	csrc(CSR_HSTATUS, HS_VTSR | HS_VTW | HS_VTVM);
	csrs(mstatus, MSTATUS_TW);
	rt_run(PRV_VS, vs_wfi, 0);
	csrc(mstatus, MSTATUS_TW);
	csrs(CSR_HSTATUS, HS_HU);
	rt_run(PRV_VU, vu_traps, 0);
	csrc(CSR_HSTATUS, HS_HU);

	/* VSSIP: to VS through hideleg, else to HS */
	csrw(CSR_VSTVEC, (u64)rt_s_trap_entry);
	csrw(CSR_HIDELEG, 1ul << 2);
	csrw(CSR_HVIP, 1ul << 2);
	rt_run(PRV_VS, vs_irq, 0);
	rt_eq(72, "VS took it: vscause", csrr(CSR_VSCAUSE), CAUSE_INT | 1);
	csrw(CSR_HIDELEG, 0);
	csrw(CSR_HVIP, 1ul << 2);
	csrw(CSR_HIE, 1ul << 2);
	rt_trap_hook = hs_irq_hook;
	rt_trap_clear();
	rt_run(PRV_VS, vs_irq_hs, 0);
	rt_eq(73, "VSSIP without hideleg: HS takes interrupt 2", rt_trap.cause, CAUSE_INT | 2);
	rt_eq(74, "taken in HS with hstatus.SPV = 1, SPVP = 1", rt_trap.level == 'S' ?
	      h_trap.hstatus & (HS_SPV | HS_SPVP) : 99, HS_SPV | HS_SPVP);
	csrw(CSR_HIE, 0);
	rt_trap_hook = h_hook;
	sstc_v();
	return rt_done();
}
