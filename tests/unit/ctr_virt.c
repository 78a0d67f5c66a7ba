/* Host unit tests of src/pmu/ctr.c, part 3: the V modes (H extension):
 * vsctrctl's enables, external traps through VS/VU, the control register
 * of a virtualization transition, freeze into VS, and the §13 access
 * rules from VS and VU. Expected values are worked out by hand from the
 * digest (../shared/spec/ctr.md §7, §8, §11, §13) and smctr.adoc. */
#include <stddef.h>
#include <stdint.h>
#include "rvpmu/ctr.h"

#include "ctr_test.h"

#define VS CTR_PRIV_VS
#define VU CTR_PRIV_VU
#define INTR(code) ((UINT64_C(1) << 63) | (code))
#define STATEEN_CTR (UINT64_C(1) << 54)

static void with_h(struct ctr_config *f) { f->has_h = true; }
static void h_no_stateen(struct ctr_config *f) { f->has_h = true; f->smstateen = false; }

/* H, mctrctl = mctl, vsctrctl = vctl, mstateen0.CTR = hstateen0.CTR = 1 */
static void mkv(struct ctr *c, uint64_t mctl, uint64_t vctl)
{
	ct_make(c, with_h);
	ctr_set_stateen(c, STATEEN_CTR, STATEEN_CTR);
	ct_wrm(c, CTR_CSR_MCTRCTL, mctl);
	ct_wrm(c, CTR_CSR_VSCTRCTL, vctl);
}

static unsigned wrptr(struct ctr *c)
{
	return (unsigned)(ct_rdm(c, CTR_CSR_SCTRSTATUS) & 0xff);
}

/* §7 rule 1: VS records by vsctrctl.S, VU by vsctrctl.U; mctrctl's S and
 * U say nothing about them, nor vsctrctl's about HS and U */
void test_virt_modes(void)
{
	struct ctr c;
	mkv(&c, CTRCTL_U | CTRCTL_S | CTRCTL_M, 0);
	CHECK_EQ(ctr_transfer(&c, VS, VS, 0x10, 0x20, CTR_TYPE_TKBR, 0, 1), 0, "VS, vsctrctl.S = 0");
	CHECK_EQ(ctr_transfer(&c, VU, VU, 0x10, 0x20, CTR_TYPE_TKBR, 0, 2), 0, "VU, vsctrctl.U = 0");
	CHECK(ctr_enabled(&c), "enabled by mctrctl");
	mkv(&c, 0, CTRCTL_S);
	CHECK(ctr_enabled(&c), "enabled by vsctrctl.S alone");
	CHECK_EQ(ctr_transfer(&c, VS, VS, 0x10, 0x20, CTR_TYPE_TKBR, 0, 1), 1, "VS with vsctrctl.S");
	CHECK_EQ(ctr_transfer(&c, VU, VU, 0x10, 0x20, CTR_TYPE_TKBR, 0, 2), 0, "VU without vsctrctl.U");
	CHECK_EQ(ctr_transfer(&c, S, S, 0x10, 0x20, CTR_TYPE_TKBR, 0, 3), 0, "HS: vsctrctl.S is not sctrctl.S");
	CHECK_EQ(ctr_transfer(&c, U, U, 0x10, 0x20, CTR_TYPE_TKBR, 0, 4), 0, "U");
	mkv(&c, 0, CTRCTL_U);
	CHECK_EQ(ctr_transfer(&c, VU, VU, 0x30, 0x40, CTR_TYPE_DIRCALL, 0, 1), 1, "VU with vsctrctl.U");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x31, "its source");
	/* within V=1 the filters are vsctrctl's: TKBRINH there drops VU's
	 * taken branches although mctrctl has none */
	mkv(&c, 0, CTRCTL_U | CTRCTL_TKBRINH);
	CHECK_EQ(ctr_transfer(&c, VU, VU, 0x10, 0x20, CTR_TYPE_TKBR, 0, 1), 0, "vsctrctl.TKBRINH");
	mkv(&c, CTRCTL_U | CTRCTL_TKBRINH, CTRCTL_U);
	CHECK_EQ(ctr_transfer(&c, VU, VU, 0x10, 0x20, CTR_TYPE_TKBR, 0, 1), 1, "mctrctl.TKBRINH not for VU");
	ct_make(&c, NULL);
	CHECK(!ctr_enabled(&c), "reset: nothing enabled");
}

/* §8 "Virtualization Mode Transitions": enables from each side's register,
 * every other field (here EXCINH, TRETINH) from vsctrctl; the spec's note:
 * VU -> HS with vsctrctl.U = sctrctl.S = 1 is decided by vsctrctl's filters */
void test_virt_transitions(void)
{
	struct ctr c;
	mkv(&c, CTRCTL_S | CTRCTL_EXCINH, CTRCTL_U);
	CHECK_EQ(ctr_trap(&c, VU, S, 0x100, 0x8000, 8, 10), 1,
		 "VU -> HS ecall: both enabled, vsctrctl has no EXCINH");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x101, "source");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x8000, "target");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, CTR_TYPE_EXC, "type 1");
	mkv(&c, CTRCTL_S, CTRCTL_U | CTRCTL_EXCINH);
	CHECK_EQ(ctr_trap(&c, VU, S, 0x100, 0x8000, 8, 10), 0, "vsctrctl.EXCINH drops it");
	/* SRET from HS back to VU: TRETINH of vsctrctl applies */
	mkv(&c, CTRCTL_S, CTRCTL_U);
	CHECK_EQ(ctr_transfer(&c, S, VU, 0x8004, 0x104, CTR_TYPE_TRET, 0, 20), 1, "HS -> VU sret");
	mkv(&c, CTRCTL_S, CTRCTL_U | CTRCTL_TRETINH);
	CHECK_EQ(ctr_transfer(&c, S, VU, 0x8004, 0x104, CTR_TYPE_TRET, 0, 20), 0, "vsctrctl.TRETINH");
	mkv(&c, CTRCTL_S | CTRCTL_TRETINH, CTRCTL_U);
	CHECK_EQ(ctr_transfer(&c, S, VU, 0x8004, 0x104, CTR_TYPE_TRET, 0, 20), 1, "sctrctl.TRETINH not used");
	/* trap return from an enabled HS to a disabled VS: target pc 0 */
	mkv(&c, CTRCTL_S, 0);
	CHECK_EQ(ctr_transfer(&c, S, VS, 0x8004, 0x200, CTR_TYPE_TRET, 0, 30), 1, "HS -> disabled VS");
	CHECK_EQ(ct_ent(&c, 0, 2), 0, "ctrtarget.PC 0");
	/* trap from a disabled VS into an enabled HS: source pc 0 */
	CHECK_EQ(ctr_trap(&c, VS, S, 0x200, 0x8000, INTR(9), 40), 1, "disabled VS -> HS");
	CHECK_EQ(ct_ent(&c, 0, 1), 1, "ctrsource.PC 0 (V set)");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, CTR_TYPE_INTR, "interrupt");
}

/* §8 external-trap table, V rows: the target's and every intervening
 * mode's xTE; ctrtarget.PC 0 */
void test_virt_ext_traps(void)
{
	static const struct {
		unsigned from, to;
		uint64_t mctl, vctl;   /* besides the source's enable */
		int want;
		const char *what;
	} t[] = {
		{VU, VS, 0, CTRCTL_STE, 1, "VU -> VS with vsctrctl.STE"},
		{VU, VS, CTRCTL_STE, 0, 0, "VU -> VS needs vsctrctl.STE, not sctrctl's"},
		{VU, S, CTRCTL_STE, CTRCTL_STE, 1, "VU -> HS: sctrctl.STE and vsctrctl.STE"},
		{VU, S, CTRCTL_STE, 0, 0, "VU -> HS without vsctrctl.STE"},
		{VU, S, 0, CTRCTL_STE, 0, "VU -> HS without sctrctl.STE"},
		{VU, M, CTRCTL_MTE | CTRCTL_STE, CTRCTL_STE, 1, "VU -> M: all three"},
		{VU, M, CTRCTL_MTE | CTRCTL_STE, 0, 0, "VU -> M without vsctrctl.STE"},
		{VU, M, CTRCTL_MTE, CTRCTL_STE, 0, "VU -> M without sctrctl.STE"},
		{VS, S, CTRCTL_STE, 0, 1, "VS -> HS: sctrctl.STE"},
		{VS, S, 0, CTRCTL_STE, 0, "VS -> HS: vsctrctl.STE is not asked"},
		{VS, M, CTRCTL_MTE | CTRCTL_STE, 0, 1, "VS -> M: MTE and STE"},
		{VS, M, CTRCTL_MTE, 0, 0, "VS -> M without sctrctl.STE"},
	};
	for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct ctr c;
		uint64_t ven = t[i].from == VS ? CTRCTL_S : CTRCTL_U;
		mkv(&c, t[i].mctl, ven | t[i].vctl);
		CHECK(ctr_trap(&c, t[i].from, t[i].to, 0x500, 0x9000, 2, 10) == t[i].want,
		      "%s: want %d", t[i].what, t[i].want);
		if (t[i].want)
			CHECK(ct_ent(&c, 0, 2) == 0 && ct_ent(&c, 0, 1) == 0x501,
			      "%s: source kept, target 0", t[i].what);
	}
}

/* §11: an LCOFI or breakpoint trap into VS freezes by vsctrctl's bits; into
 * HS, from V=1 or not, by sctrctl's; the freezing trap is not recorded */
void test_virt_freeze(void)
{
	struct ctr c;
	mkv(&c, CTRCTL_S | CTRCTL_LCOFIFRZ, CTRCTL_S | CTRCTL_U);
	CHECK_EQ(ctr_trap(&c, VU, VS, 0x10, 0x20, INTR(13), 1), 1,
		 "LCOFI into VS: sctrctl.LCOFIFRZ does not apply, recorded");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS) >> 31, 0, "not frozen");
	mkv(&c, CTRCTL_S, CTRCTL_S | CTRCTL_U | CTRCTL_LCOFIFRZ);
	CHECK_EQ(ctr_trap(&c, VU, VS, 0x10, 0x20, INTR(13), 1), 0, "LCOFI into VS with vsctrctl.LCOFIFRZ");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000000, "FROZEN, nothing recorded");
	mkv(&c, CTRCTL_S, CTRCTL_S | CTRCTL_BPFRZ);
	CHECK_EQ(ctr_trap(&c, VS, VS, 0x10, 0x20, 3, 1), 0, "breakpoint into VS with vsctrctl.BPFRZ");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS) >> 31, 1, "FROZEN");
	/* into HS: sctrctl's bits, vsctrctl's ignored */
	mkv(&c, CTRCTL_S, CTRCTL_S | CTRCTL_LCOFIFRZ);
	CHECK_EQ(ctr_trap(&c, VS, S, 0x10, 0x20, INTR(13), 1), 1, "LCOFI VS -> HS, sctrctl.LCOFIFRZ = 0");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS) >> 31, 0, "not frozen");
	mkv(&c, CTRCTL_S | CTRCTL_LCOFIFRZ, CTRCTL_S);
	CHECK_EQ(ctr_trap(&c, VS, S, 0x10, 0x20, INTR(13), 1), 0, "LCOFI VS -> HS with sctrctl.LCOFIFRZ");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS) >> 31, 1, "FROZEN");
	/* frozen: nothing in VS is recorded */
	CHECK_EQ(ctr_transfer(&c, VS, VS, 0x10, 0x20, CTR_TYPE_TKBR, 0, 2), 0, "frozen");
	CHECK_EQ(wrptr(&c), 0, "WRPTR");
}

/* §10: CtrCycleCounter counts the cycles spent in an enabled V mode */
void test_virt_cycles(void)
{
	struct ctr c;
	mkv(&c, 0, CTRCTL_S);
	ctr_transfer(&c, VS, VS, 0x10, 0x20, CTR_TYPE_TKBR, 0, 100);  /* CCV 0 */
	ctr_transfer(&c, VS, VS, 0x20, 0x30, CTR_TYPE_TKBR, 0, 150);
	CHECK_EQ(ct_ent(&c, 0, 3), (UINT64_C(50) << 16) | (1 << 15) | CTR_TYPE_TKBR,
		 "50 active cycles in VS, CCV 1");
	/* 40 cycles in VU (disabled) are not counted */
	ctr_transfer(&c, VS, VU, 0x30, 0x40, CTR_TYPE_TRET, 0, 160);
	ctr_trap(&c, VU, VS, 0x40, 0x50, 8, 200);
	CHECK_EQ(ct_ent(&c, 0, 3) >> 16, 0, "trap from disabled VU: CC 0 (its cycles inactive)");
	CHECK_EQ(ct_ent(&c, 1, 3) >> 16, 10, "the sret: 10 cycles in VS");
}

/* §13, from VS and VU, with Smstateen: mstateen0.CTR = 0 makes every access
 * illegal; hstateen0.CTR = 0 makes VS's virtual; sctrdepth is virtual from
 * VS always; VU is always virtual; vsctrctl by its own number is virtual
 * (an H rule), mctrctl illegal; sctrctl from VS is vsctrctl */
void test_virt_access(void)
{
	struct ctr c;
	uint64_t v;
	mkv(&c, CTRCTL_S, 0);
	CHECK_EQ(ct_wr(&c, VS, CTR_CSR_SCTRCTL, ~UINT64_C(0)), CTR_OK, "VS writes sctrctl");
	/* U S RASEMU STE BPFRZ LCOFIFRZ (0x1983) and the filters 47:40, 37:33 */
	CHECK_EQ(ct_rdm(&c, CTR_CSR_VSCTRCTL), 0xFF3E00001983, "vsctrctl: its fields, no M, MTE");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), CTRCTL_S, "mctrctl untouched by VS's sctrctl write");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRCTL, &v), CTR_OK, "VS reads sctrctl");
	CHECK_EQ(v, ct_rdm(&c, CTR_CSR_VSCTRCTL), "and sees vsctrctl");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRSTATUS, NULL), CTR_OK, "VS sctrstatus");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRDEPTH, NULL), CTR_VIRTUAL, "VS sctrdepth");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_VSCTRCTL, NULL), CTR_VIRTUAL, "VS vsctrctl by number");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_MCTRCTL, NULL), CTR_ILLEGAL, "VS mctrctl");
	CHECK_EQ(ct_rd(&c, VU, CTR_CSR_SCTRCTL, NULL), CTR_VIRTUAL, "VU sctrctl");
	CHECK_EQ(ct_rd(&c, VU, CTR_CSR_SCTRSTATUS, NULL), CTR_VIRTUAL, "VU sctrstatus");
	CHECK_EQ(ct_rd(&c, VU, CTR_CSR_SCTRDEPTH, NULL), CTR_VIRTUAL, "VU sctrdepth");
	CHECK_EQ(ctr_ireg_access(&c, VS, 0x200, 1, CTR_CSR_SET, 0, 0, &v), CTR_OK, "VS sireg (vsireg)");
	CHECK_EQ(ctr_ireg_access(&c, VU, 0x200, 1, CTR_CSR_SET, 0, 0, &v), CTR_VIRTUAL, "VU sireg");
	CHECK_EQ(ctr_sctrclr(&c, VS), CTR_OK, "SCTRCLR in VS");
	CHECK_EQ(ctr_sctrclr(&c, VU), CTR_VIRTUAL, "SCTRCLR in VU");
	/* hstateen0.CTR = 0 */
	ctr_set_stateen(&c, STATEEN_CTR, 0);
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRCTL, NULL), CTR_VIRTUAL, "hstateen0.CTR=0: VS sctrctl");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRSTATUS, NULL), CTR_VIRTUAL, "hstateen0.CTR=0: VS sctrstatus");
	CHECK_EQ(ctr_ireg_access(&c, VS, 0x200, 1, CTR_CSR_SET, 0, 0, &v), CTR_VIRTUAL,
		 "hstateen0.CTR=0: VS sireg");
	CHECK_EQ(ctr_sctrclr(&c, VS), CTR_VIRTUAL, "hstateen0.CTR=0: SCTRCLR in VS");
	CHECK_EQ(ct_rd(&c, S, CTR_CSR_SCTRCTL, NULL), CTR_OK, "HS unaffected by hstateen0");
	/* mstateen0.CTR = 0 */
	ctr_set_stateen(&c, 0, STATEEN_CTR);
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRCTL, NULL), CTR_ILLEGAL, "mstateen0.CTR=0: VS sctrctl");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRDEPTH, NULL), CTR_ILLEGAL, "mstateen0.CTR=0: VS sctrdepth");
	CHECK_EQ(ct_rd(&c, VU, CTR_CSR_SCTRCTL, NULL), CTR_ILLEGAL, "mstateen0.CTR=0: VU sctrctl");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_VSCTRCTL, NULL), CTR_ILLEGAL, "mstateen0.CTR=0: VS vsctrctl");
	CHECK_EQ(ctr_sctrclr(&c, VU), CTR_ILLEGAL, "mstateen0.CTR=0: SCTRCLR in VU");
	/* without Smstateen nothing gates: VS normal, VU and sctrdepth virtual */
	ct_make(&c, h_no_stateen);
	ctr_set_stateen(&c, 0, 0);
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRCTL, NULL), CTR_OK, "no Smstateen: VS sctrctl");
	CHECK_EQ(ct_rd(&c, VS, CTR_CSR_SCTRDEPTH, NULL), CTR_VIRTUAL, "no Smstateen: VS sctrdepth");
	CHECK_EQ(ct_rd(&c, VU, CTR_CSR_SCTRCTL, NULL), CTR_VIRTUAL, "no Smstateen: VU sctrctl");
}
