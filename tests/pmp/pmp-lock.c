/* pmp-lock: locked entries (L = 1) bind M-mode too and ignore later writes
 * to their pmpcfg and pmpaddr; a locked TOR entry also locks the
 * pmpaddr below it. Locks last until reset, so this is its own program.
 * See docs/pmp-tests.md. */
#include "pmp.h"

static int n;
#define E(what, mode, probe, addr, cause) expect(++n, what, mode, probe, addr, cause)

#define TB (TA + 0x2000)	/* the locked TOR region */

int main(void)
{
	pmp_hooks();
	pmp_reset();
	put_ret(TA + 0x100);
	*(volatile u64 *)TA = 0x77;

	/* entry 0: NAPOT TA + 4 KiB, R, locked */
	pmp_set(0, PMP_NAPOT | PMP_R | PMP_L, NAPOT(TA, 0x1000));
	rt_eq(++n, "locked entry 0 cfg reads back", pmp_cfg_get(0), PMP_NAPOT | PMP_R | PMP_L);
	E("locked R: M ld ok", PRV_M, probe_ld, TA, 0);
	E("locked R: M sd -> 7", PRV_M, probe_sd, TA, C_STORE);
	E("locked R: M sb -> 7", PRV_M, probe_sb, TA + 0xfff, C_STORE);
	E("locked R: M fetch -> 1", PRV_M, probe_jmp, TA + 0x100, C_FETCH);
	E("locked R: M amoadd.w -> 7", PRV_M, probe_amoadd_w, TA, C_STORE);
	E("locked R: M lr.d ok", PRV_M, probe_lr_d, TA, 0);
	E("locked R: S ld ok", PRV_S, probe_ld, TA, 0);
	E("locked R: S sd -> 7", PRV_S, probe_sd, TA, C_STORE);
	E("locked R: M sd just above ok (no match)", PRV_M, probe_sd, TA + 0x1000, 0);
	rt_eq(++n, "locked R: memory unchanged", *(volatile u64 *)TA, 0x77);

	/* later writes are ignored */
	pmp_cfg(0, PMP_NAPOT | PMP_R | PMP_W | PMP_X);
	rt_eq(++n, "locked: pmpcfg write ignored", pmp_cfg_get(0), PMP_NAPOT | PMP_R | PMP_L);
	csrc(pmpcfg0, PMP_L);
	rt_eq(++n, "locked: clearing L ignored", pmp_cfg_get(0), PMP_NAPOT | PMP_R | PMP_L);
	pmp_addr(0, NAPOT(TA + 0x4000, 0x1000));
	rt_eq(++n, "locked: pmpaddr write ignored", pmp_csrr(CSR_PMPADDR0), NAPOT(TA, 0x1000));
	E("locked: M sd still -> 7", PRV_M, probe_sd, TA + 8, C_STORE);
	E("locked: M sd to the would-be new region ok", PRV_M, probe_sd, TA + 0x4000, 0);

	/* entry 2: TOR [TB, TB + 0x100), R, locked; entry 1 off supplies TB */
	pmp_addr(1, TB >> 2);
	pmp_set(2, PMP_TOR | PMP_R | PMP_L, (TB + 0x100) >> 2);
	E("locked TOR: M sd at bottom -> 7", PRV_M, probe_sd, TB, C_STORE);
	E("locked TOR: M sd at top - 8 -> 7", PRV_M, probe_sd, TB + 0xf8, C_STORE);
	E("locked TOR: M sd at top ok", PRV_M, probe_sd, TB + 0x100, 0);
	E("locked TOR: M sd below ok", PRV_M, probe_sd, TB - 8, 0);
	E("locked TOR: M ld ok", PRV_M, probe_ld, TB, 0);
	pmp_addr(1, (TB + 0x80) >> 2);
	rt_eq(++n, "locked TOR: pmpaddr1 (its bottom) write ignored", pmp_csrr(CSR_PMPADDR0 + 1),
	      TB >> 2);
	pmp_addr(2, (TB + 0x200) >> 2);
	rt_eq(++n, "locked TOR: pmpaddr2 write ignored", pmp_csrr(CSR_PMPADDR0 + 2),
	      (TB + 0x100) >> 2);
	E("locked TOR: region unchanged: M sd at TB+0x80 -> 7", PRV_M, probe_sd, TB + 0x80,
	  C_STORE);
	/* entry 1's own cfg is not locked; made NA4 RW at TB it wins for M */
	pmp_cfg(1, PMP_NA4 | PMP_R | PMP_W);
	rt_eq(++n, "entry 1 cfg (not locked) writable", pmp_cfg_get(1), PMP_NA4 | PMP_R | PMP_W);
	E("unlocked entry 1 beats locked entry 2: M sw at TB ok", PRV_M, probe_sw, TB, 0);
	E("same: S sw at TB ok", PRV_S, probe_sw, TB, 0);
	E("M sw at TB + 4: entry 2 -> 7", PRV_M, probe_sw, TB + 4, C_STORE);
	E("M sd at TB: partial match of entry 1 -> 7", PRV_M, probe_sd, TB, C_STORE);
	pmp_cfg(1, 0);
	rt_eq(++n, "pmpcfg0: locked bytes kept, entry 1 off",
	      pmp_csrr(CSR_PMPCFG0) & 0xffffff,
	      ((u64)(PMP_TOR | PMP_R | PMP_L) << 16) | PMP_NAPOT | PMP_R | PMP_L);

	/* a locked entry with no permission: M cannot read it either */
	pmp_set(3, PMP_NA4 | PMP_L, (TB + 0x400) >> 2);
	E("locked none: M lw -> 5", PRV_M, probe_lw, TB + 0x400, C_LOAD);
	E("locked none: M lw next word ok", PRV_M, probe_lw, TB + 0x404, 0);
	E("locked none: M lr.w -> 5", PRV_M, probe_lr_w, TB + 0x400, C_LOAD);
	return rt_done();
}
