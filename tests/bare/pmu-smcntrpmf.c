/* pmu-smcntrpmf: mode filtering of mcycle/minstret through mcyclecfg
 * (0x321) and minstretcfg (0x322), when the boot device tree advertises
 * Smcntrpmf; otherwise both CSRs must not exist (illegal instruction).
 * See docs/bare-tests.md. */
#include "rt.h"

#define CFG_INH (HPM_MINH | HPM_SINH | HPM_UINH | HPM_VSINH | HPM_VUINH)

static long lower_instret(long arg)
{
	(void)arg;
	return (long)DELTA_NOPS(instret, 10);
}

/* In S, through Smcdeleg's sireg2 (siselect 0x42: instretcfg): the
 * SINH edges of EDGE (rt.h), packed a byte each: set d1, d2, clear d1, d2. */
static long s_instretcfg_edges(long arg)
{
	u64 d1, d2, d3, d4;
	(void)arg;
	csrw(0x150, 0x42);
	EDGE(instret, 0x152, HPM_SINH, d1, d2);
	EDGE(instret, 0x152, 0, d3, d4);
	return (long)((d1 & 0xff) | (d2 & 0xff) << 8 | (d3 & 0xff) << 16 | (d4 & 0xff) << 24);
}

static void absent(void)
{
	u64 pc = TRY("csrr t0, 0x321");
	rt_check_trap(20, "not advertised: csrr mcyclecfg -> illegal", pc, 2, ENC_CSR(2, 5, 0, 0x321));
	pc = TRY("csrr t0, 0x322");
	rt_check_trap(21, "not advertised: csrr minstretcfg -> illegal", pc, 2, ENC_CSR(2, 5, 0, 0x322));
	pc = TRY("csrw 0x322, t1");
	rt_check_trap(22, "not advertised: csrw minstretcfg -> illegal", pc, 2, ENC_CSR(1, 0, 6, 0x322));
}

static void present(void)
{
	int h = (csrr(misa) >> 7) & 1;
	u64 want = HPM_MINH | HPM_SINH | HPM_UINH | (h ? HPM_VSINH | HPM_VUINH : 0);

	csrw(CSR_MCYCLECFG, HPM_OF | CFG_INH);
	rt_eq(2, "mcyclecfg: bit 63 RO 0, xINH writable", csrr(CSR_MCYCLECFG), want);
	csrw(CSR_MINSTRETCFG, HPM_OF | CFG_INH);
	rt_eq(3, "minstretcfg: bit 63 RO 0, xINH writable", csrr(CSR_MINSTRETCFG), want);

	csrw(CSR_MINSTRETCFG, HPM_MINH);
	rt_eq(4, "minstretcfg.MINH: no counting in M", DELTA_NOPS(minstret, 10), 0);
	rt_eq(5, "minstretcfg.MINH: S counts exactly", rt_run(PRV_S, lower_instret, 0), 11);
	csrw(CSR_MINSTRETCFG, HPM_SINH);
	rt_eq(6, "minstretcfg.SINH: no counting in S", rt_run(PRV_S, lower_instret, 0), 0);
	rt_eq(7, "minstretcfg.SINH: U counts exactly", rt_run(PRV_U, lower_instret, 0), 11);
	csrw(CSR_MINSTRETCFG, HPM_UINH);
	rt_eq(8, "minstretcfg.UINH: no counting in U", rt_run(PRV_U, lower_instret, 0), 0);
	rt_eq(9, "minstretcfg.UINH: M counts exactly", DELTA_NOPS(minstret, 10), 11);
	csrw(CSR_MINSTRETCFG, 0);

	csrw(CSR_MCYCLECFG, HPM_MINH);
	rt_eq(10, "mcyclecfg.MINH: mcycle stands still in M", DELTA_NOPS(mcycle, 10), 0);
	csrw(CSR_MCYCLECFG, 0);
	u64 d = DELTA_NOPS(mcycle, 10);
	rt_check(11, "mcyclecfg=0: mcycle counts in M", d >= 1, d, 1);

	/* whether an instruction counts is decided before it executes: the
	 * csrw that sets MINH counts, the one that clears it does not */
	u64 d1, d2;
	EDGE(minstret, CSR_MINSTRETCFG, HPM_MINH, d1, d2);
	rt_eq(23, "csrw minstretcfg MINH=1 counts itself: read, csrw, read -> 2", d1, 2);
	rt_eq(24, "MINH=1: the next read -> 0", d2, 0);
	EDGE(minstret, CSR_MINSTRETCFG, 0, d1, d2);
	rt_eq(25, "csrw minstretcfg MINH=0 does not count itself -> 0", d1, 0);
	rt_eq(26, "MINH=0: the next read -> 1", d2, 1);
	EDGE(mcycle, CSR_MCYCLECFG, HPM_MINH, d1, d2);
	rt_eq(27, "csrw mcyclecfg MINH=1 counts its cycle: read, csrw, read -> 2", d1, 2);
	rt_eq(28, "MINH=1: the next read -> 0", d2, 0);
	EDGE(mcycle, CSR_MCYCLECFG, 0, d1, d2);
	rt_eq(29, "csrw mcyclecfg MINH=0 does not count its cycle -> 0", d1, 0);
	rt_eq(30, "MINH=0: the next read -> 1", d2, 1);
	EDGE(minstret, CSR_MINSTRETCFG, HPM_SINH | HPM_UINH, d1, d2);
	rt_eq(31, "csrw minstretcfg SINH=UINH=1 in M: M counts on -> 2", d1, 2);
	rt_eq(32, "SINH=UINH=1: the next read in M -> 1", d2, 1);
	/* the mode an instruction counts in: an mret in M, the ecall nowhere
	 * (rt_probe_*: read in M, mret, 10 nops in S or U, ecall) */
	rt_eq(33, "minstret M only: read and mret count, S nops and the ecall not -> 2",
	      rt_probe_minstret(PRV_S), 2);
	rt_eq(34, "minstret M only: read and mret count, U nops and the ecall not -> 2",
	      rt_probe_minstret(PRV_U), 2);
	csrw(CSR_MINSTRETCFG, HPM_MINH | HPM_UINH);
	rt_eq(35, "minstret S only: the mret counts in M (not), the 10 S nops do -> 10",
	      rt_probe_minstret(PRV_S), 10);
	csrw(CSR_MINSTRETCFG, HPM_MINH | HPM_SINH);
	rt_eq(36, "minstret U only: the 10 U nops count, the ecall from U does not -> 10",
	      rt_probe_minstret(PRV_U), 10);
	csrw(CSR_MINSTRETCFG, 0);
	rt_eq(37, "minstret, no filter: read, mret, 10 U nops -> 12", rt_probe_minstret(PRV_U), 12);
	csrw(CSR_MCYCLECFG, HPM_SINH | HPM_UINH);
	rt_eq(38, "mcycle M only, to S -> 2", rt_probe_mcycle(PRV_S), 2);
	rt_eq(39, "mcycle M only, to U -> 2", rt_probe_mcycle(PRV_U), 2);
	csrw(CSR_MCYCLECFG, HPM_MINH | HPM_UINH);
	rt_eq(40, "mcycle S only -> 10", rt_probe_mcycle(PRV_S), 10);
	csrw(CSR_MCYCLECFG, HPM_MINH | HPM_SINH);
	rt_eq(41, "mcycle U only -> 10", rt_probe_mcycle(PRV_U), 10);
	csrw(CSR_MCYCLECFG, 0);
	rt_eq(42, "mcycle, no filter -> 12", rt_probe_mcycle(PRV_U), 12);

	/* S changes its own filter through Smcdeleg (menvcfg.CDE = 1) */
	if (rt_fdt_has_ext("smcdeleg") > 0) {
		csrs(0x30a, 1ul << 60);
		u64 e = (u64)rt_run(PRV_S, s_instretcfg_edges, 0);
		csrc(0x30a, 1ul << 60);
		rt_eq(43, "S: csrw sireg2 (instretcfg) SINH=1 counts itself: read, csrw, read -> 2",
		      e & 0xff, 2);
		rt_eq(44, "S: SINH=1: the next read -> 0", (e >> 8) & 0xff, 0);
		rt_eq(45, "S: csrw sireg2 SINH=0 does not count itself -> 0", (e >> 16) & 0xff, 0);
		rt_eq(46, "S: SINH=0: the next read -> 1", (e >> 24) & 0xff, 1);
	} else {
		rt_puts("info Smcdeleg not advertised: checks 43-46 not run\n");
	}
}

int main(void)
{
	int adv = rt_fdt_has_ext("smcntrpmf");

	csrw(medeleg, 0);
	csrw(CSR_MCOUNTINHIBIT, 0);
	csrw(mcounteren, ~0ul);
	csrw(scounteren, ~0ul);
	rt_check(1, "boot device tree (a1) has riscv,isa", adv >= 0, rt_boot_fdt, 0xd00dfeed);
	rt_puts(adv > 0 ? "info Smcntrpmf advertised\n" : "info Smcntrpmf not advertised\n");
	rt_puts(rt_fdt_has_ext("sscofpmf") > 0 ? "info Sscofpmf advertised\n" : "info Sscofpmf not advertised\n");
	if (adv > 0)
		present();
	else if (adv == 0)
		absent();
	return rt_done();
}
