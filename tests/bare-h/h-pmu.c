/* h-pmu: the PMU in VS and VU. The counter-access table's V rows
 * (mcounteren clear: illegal; mcounteren set, hcounteren clear: virtual
 * instruction; VU also scounteren), time = mtime + htimedelta with V=1,
 * scountovf masked by hcounteren in VS, and exact counts under the
 * VSINH/VUINH bits of mhpmevent (Sscofpmf) and minstretcfg (Smcntrpmf),
 * which the S and U bits do not reach. See docs/bare-tests.md. */
#include "h.h"

#define VIRT 22
#define ILL 2

static long read_ctr(long csr)
{
	rt_trap_clear();
	u64 v = csr_read_dyn((u32)csr);
	return rt_trap.count ? -(long)rt_trap.cause : (long)(v & 0x7fffffffffffffff);
}

/* Check n: csr read in mode gives cause want (0: reads) */
static void access(int n, const char *what, int mode, u32 csr, long want)
{
	long r = rt_run(mode, read_ctr, csr);
	rt_eq(n, what, r < 0 ? (u64)-r : 0, (u64)want);
}

static long read_time(long arg)
{
	(void)arg;
	return (long)csrr(time);
}

static long read_ovf(long arg)
{
	(void)arg;
	return (long)csrr(CSR_SCOUNTOVF);
}

int main(void)
{
	rt_trap_hook = h_hook;
	/* the counter-access table, V rows (cycle, time, instret, hpmcounter3) */
	static const u32 ctrs[] = {0xc00, 0xc01, 0xc02, 0xc03};
	for (int i = 0; i < 4; i++) {
		u32 c = ctrs[i], bit = 1u << (c & 31);
		int n = 1 + 6 * i;
		csrw(mcounteren, ~0ul & ~(u64)bit);
		csrw(CSR_HCOUNTEREN, ~0ul);
		csrw(scounteren, ~0ul);
		access(n, "VS: mcounteren clear -> illegal", PRV_VS, c, ILL);
		access(n + 1, "VU: mcounteren clear -> illegal", PRV_VU, c, ILL);
		csrw(mcounteren, ~0ul);
		csrw(CSR_HCOUNTEREN, ~0ul & ~(u64)bit);
		access(n + 2, "VS: hcounteren clear -> virtual instruction", PRV_VS, c, VIRT);
		access(n + 3, "VU: hcounteren clear -> virtual instruction", PRV_VU, c, VIRT);
		csrw(CSR_HCOUNTEREN, ~0ul);
		csrw(scounteren, ~0ul & ~(u64)bit);
		access(n + 4, "VS: m and h set, scounteren clear -> reads", PRV_VS, c, 0);
		access(n + 5, "VU: scounteren clear -> virtual instruction", PRV_VU, c, VIRT);
		csrw(scounteren, ~0ul);
	}
	/* time with V=1 adds htimedelta */
	csrw(CSR_HTIMEDELTA, 1ul << 40);
	u64 t0 = csrr(time);
	u64 tv = (u64)rt_run(PRV_VS, read_time, 0);
	u64 t1 = csrr(time);
	rt_check(25, "VS: time = mtime + htimedelta", tv >= t0 + (1ul << 40) && tv <= t1 + (1ul << 40),
		 tv - (1ul << 40), t0);
	csrw(CSR_HTIMEDELTA, 0);
	/* scountovf in VS: mcounteren and hcounteren mask it */
	csrw(CSR_MHPMEVENT3, HPM_OF);
	csrw(CSR_MHPMEVENT4, HPM_OF);
	csrw(CSR_HCOUNTEREN, 1ul << 4);
	rt_eq(26, "VS: scountovf shows only what hcounteren allows", (u64)rt_run(PRV_VS, read_ovf, 0),
	      1ul << 4);
	csrw(CSR_HCOUNTEREN, ~0ul);
	csrw(CSR_MHPMEVENT4, 0);

	/* exact counts: "csrr in M; mret to VS/VU; 10 nops; ecall" (the
	 * read and the mret count in M, the nops in the V mode) */
	u64 M = HPM_MINH;
	struct { u64 inh; int mode; u64 want; const char *what; } c[] = {
		{M, PRV_S, 10, "mhpmevent3 MINH: the 10 VS nops count"},
		{M | HPM_VSINH, PRV_S, 0, "MINH VSINH: the VS nops do not"},
		{M | HPM_SINH | HPM_UINH, PRV_S, 10, "MINH SINH UINH: VS still counts"},
		{M, PRV_U, 10, "MINH: the 10 VU nops count"},
		{M | HPM_VUINH, PRV_U, 0, "MINH VUINH: the VU nops do not"},
		{M | HPM_VSINH, PRV_U, 10, "MINH VSINH: VU still counts"},
		{HPM_VSINH | HPM_VUINH, PRV_S, 2, "VSINH VUINH: only the read and the mret in M"},
		{0, PRV_S, 12, "no filter: read, mret, 10 nops"},
	};
	for (int i = 0; i < 8; i++) {
		csrw(CSR_MHPMEVENT3, EV_INSTRET | c[i].inh);
		csrs(mstatus, MSTATUS_MPV);
		rt_eq(27 + i, c[i].what, rt_probe_hpm3((u64)c[i].mode), c[i].want);
	}
	csrw(CSR_MINSTRETCFG, HPM_MINH | HPM_VSINH);
	csrs(mstatus, MSTATUS_MPV);
	rt_eq(35, "minstretcfg MINH VSINH: VS nops do not count", rt_probe_minstret(PRV_S), 0);
	csrw(CSR_MINSTRETCFG, HPM_MINH | HPM_SINH);
	csrs(mstatus, MSTATUS_MPV);
	rt_eq(36, "minstretcfg MINH SINH: VS nops count", rt_probe_minstret(PRV_S), 10);
	csrw(CSR_MCYCLECFG, HPM_MINH | HPM_VUINH);
	csrs(mstatus, MSTATUS_MPV);
	rt_eq(37, "mcyclecfg MINH VUINH: VU nops do not count", rt_probe_mcycle(PRV_U), 0);
	csrw(CSR_MINSTRETCFG, 0);
	csrw(CSR_MCYCLECFG, 0);
	csrc(mstatus, MSTATUS_MPV);

	/* HLV/HLVX and HSV are loads and stores: from M, with vsatp and
	 * hgatp Bare, three HLVs and two HSVs between two counter reads
	 * (the virt profile's LOADS and STORES, 0x1000003 and 0x1000004) */
	u64 word = 42, l0, l1, s0, s1;
	csrw(CSR_HGATP, 0);
	csrw(CSR_VSATP, 0);
	csrw(CSR_MHPMEVENT3, 0x1000003ul);
	csrw(CSR_MHPMEVENT4, 0x1000004ul);
	asm volatile("csrr %0, mhpmcounter3\n\tcsrr %2, mhpmcounter4\n\t"
		     H_INSN("hlv.d t0, (%4)\n\thlv.wu t0, (%4)\n\thlv.b t0, (%4)\n\t"
			    "hsv.d t0, (%4)\n\thsv.b t0, (%4)")
		     "\n\tcsrr %1, mhpmcounter3\n\tcsrr %3, mhpmcounter4"
		     : "=&r"(l0), "=&r"(l1), "=&r"(s0), "=&r"(s1) : "r"(&word) : "t0", "memory");
	rt_eq(38, "M: three HLVs count as three loads", l1 - l0, 3);
	rt_eq(39, "M: two HSVs count as two stores", s1 - s0, 2);
	csrw(CSR_MHPMEVENT3, 0);
	csrw(CSR_MHPMEVENT4, 0);
	return rt_done();
}
