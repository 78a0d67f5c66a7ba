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

/* In S, through Smcdeleg's sireg2 (siselect 0x42: instretcfg), checks
 * 43-46: S sets and clears its own SINH */
static long s_instretcfg_edges(long arg)
{
	(void)arg;
	csrw(0x150, 0x42);
	EDGE(43, "S: csrw sireg2 (instretcfg) SINH=1 counts itself", instret, 0x152, HPM_SINH, 2, 0);
	EDGE(45, "S: csrw sireg2 SINH=0 does not count itself", instret, 0x152, 0, 0, 1);
	return 0;
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
	EDGE(23, "csrw minstretcfg MINH=1 counts itself", minstret, CSR_MINSTRETCFG, HPM_MINH, 2, 0);
	EDGE(25, "csrw minstretcfg MINH=0 does not count itself", minstret, CSR_MINSTRETCFG, 0, 0, 1);
	EDGE(27, "csrw mcyclecfg MINH=1 counts its cycle", mcycle, CSR_MCYCLECFG, HPM_MINH, 2, 0);
	EDGE(29, "csrw mcyclecfg MINH=0 does not count its cycle", mcycle, CSR_MCYCLECFG, 0, 0, 1);
	EDGE(31, "csrw minstretcfg SINH=UINH=1 in M: M counts on", minstret, CSR_MINSTRETCFG, HPM_SINH | HPM_UINH, 2, 1);
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
		rt_run(PRV_S, s_instretcfg_edges, 0);
		csrc(0x30a, 1ul << 60);
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
