/* pmu-smcntrpmf: mode filtering of mcycle/minstret through mcyclecfg
 * (0x321) and minstretcfg (0x322), when the boot device tree advertises
 * Smcntrpmf; otherwise both CSRs must not exist (illegal instruction).
 * See docs/bare-tests.md. */
#include "rt.h"

#define NOPS(n) ".rept " #n "\nnop\n.endr\n"
#define DELTA_NOPS(csr, n) ({ u64 a_, b_; \
	asm volatile("csrr %0, " STR(csr) "\n" NOPS(n) "csrr %1, " STR(csr) : "=&r"(a_), "=&r"(b_) :: "memory"); \
	b_ - a_; })
#define CFG_INH (HPM_MINH | HPM_SINH | HPM_UINH | HPM_VSINH | HPM_VUINH)

static long lower_instret(long arg)
{
	(void)arg;
	return (long)DELTA_NOPS(instret, 10);
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
