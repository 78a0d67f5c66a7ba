/* sstc: the supervisor timer compare (Sstc, priv "Supervisor Timer
 * Compare"): menvcfg.STCE, who may reach stimecmp (STCE and
 * mcounteren.TM gate S), STIP following time >= stimecmp, mip.STIP
 * read-only while STCE = 1, and a timer interrupt taken in S. Needs a
 * core with Sstc (rvpmu --profile virt; QEMU 7.2's rv64). */
#include "rt.h"

#define CSR_MENVCFG 0x30a
#define CSR_STIMECMP 0x14d
#define STCE (1ul << 63)
#define STIP (1ul << 5)

static long s_read(long arg)
{
	(void)arg;
	u64 pc = TRY("csrr t0, 0x14d");
	if (rt_trap.count == 0)
		return 0;
	return rt_trap.count == 1 && rt_trap.cause == 2 && rt_trap.epc == pc &&
	       rt_trap.tval == ENC_CSR(2, 5, 0, CSR_STIMECMP) ? 1 : 2;
}

static long s_write_read(long v)
{
	csrw(CSR_STIMECMP, v);
	return (long)csrr(CSR_STIMECMP);
}

/* enable the S timer interrupt and wait for it */
static long s_wait_timer(long arg)
{
	(void)arg;
	csrs(sie, STIP);
	csrs(sstatus, 2);   /* SIE */
	for (long i = 0; i < 100000 && rt_trap.count == 0; i++)
		asm volatile("wfi");
	csrc(sstatus, 2);
	return rt_trap.count;
}

int main(void)
{
	rt_check(1, "the device tree lists sstc", rt_fdt_has_ext("sstc") == 1, (u64)rt_fdt_has_ext("sstc"), 1);
	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(CSR_MENVCFG, 0);
	csrs(CSR_MENVCFG, STCE);
	rt_eq(2, "menvcfg.STCE is writable", csrr(CSR_MENVCFG) & STCE, STCE);
	csrw(CSR_STIMECMP, 0x123456789abcdefull);
	rt_eq(3, "stimecmp holds 64 bits (M)", csrr(CSR_STIMECMP), 0x123456789abcdefull);

	/* S access: STCE = 0 or mcounteren.TM = 0 -> illegal instruction */
	csrw(mcounteren, 2);
	csrc(CSR_MENVCFG, STCE);
	rt_eq(4, "S: stimecmp with STCE = 0 -> illegal", rt_run(PRV_S, s_read, 0), 1);
	csrs(CSR_MENVCFG, STCE);
	csrw(mcounteren, 0);
	rt_eq(5, "S: stimecmp with mcounteren.TM = 0 -> illegal", rt_run(PRV_S, s_read, 0), 1);
	csrw(mcounteren, 2);
	rt_eq(6, "S: stimecmp with STCE and TM -> readable", rt_run(PRV_S, s_read, 0), 0);
	rt_eq(7, "S: stimecmp written and read back", rt_run(PRV_S, s_write_read, 0x5555), 0x5555);
	rt_eq(8, "U: stimecmp -> illegal", rt_run(PRV_U, s_read, 0), 1);

	/* STIP follows the compare while STCE = 1 */
	csrw(CSR_STIMECMP, ~0ul);
	rt_eq(9, "stimecmp = ~0: STIP clear", csrr(mip) & STIP, 0);
	csrs(mip, STIP);
	rt_eq(10, "STCE = 1: a write of mip.STIP is ignored", csrr(mip) & STIP, 0);
	csrw(CSR_STIMECMP, 0);
	rt_eq(11, "stimecmp = 0 <= time: STIP set", csrr(mip) & STIP, STIP);
	csrc(mip, STIP);
	rt_eq(12, "STCE = 1: clearing mip.STIP is ignored too", csrr(mip) & STIP, STIP);
	csrw(CSR_STIMECMP, csrr(time) + 1000000000ul);
	rt_eq(13, "stimecmp in the future: STIP clear", csrr(mip) & STIP, 0);
	csrc(CSR_MENVCFG, STCE);
	csrw(CSR_STIMECMP, 0);
	rt_eq(14, "STCE = 0: the compare does not drive STIP", csrr(mip) & STIP, 0);
	csrs(mip, STIP);
	rt_eq(15, "STCE = 0: M may write mip.STIP", csrr(mip) & STIP, STIP);
	csrc(mip, STIP);

	/* the interrupt: delegated, taken in S once time passes stimecmp */
	csrs(CSR_MENVCFG, STCE);
	csrw(CSR_STIMECMP, ~0ul);
	csrw(mideleg, STIP);
	csrw(CSR_STIMECMP, csrr(time) + 2000);
	rt_trap_clear();
	long n = rt_run(PRV_S, s_wait_timer, 0);
	rt_eq(16, "one interrupt taken while waiting", n, 1);
	rt_eq(17, "... the supervisor timer interrupt", rt_trap.cause, CAUSE_INT | 5);
	rt_eq(18, "... taken in S", rt_trap.level, 'S');
	csrw(CSR_STIMECMP, ~0ul);
	csrw(mideleg, 0);
	return rt_done();
}
