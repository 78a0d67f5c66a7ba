/* Smcdeleg/Ssccfg: scountinhibit (0x120) and the siselect 0x40-0x5F window. */
#include "pmu_test.h"

#define MINH  0x4000000000000000
#define SINH  0x2000000000000000

static void fix_off(struct pmu_config *c) { c->smcdeleg = false; }
static void fix_no_cntr(struct pmu_config *c) { c->smcntrpmf = false; }

static int sird(struct pmu *p, unsigned priv, unsigned sel, unsigned n, uint64_t *v)
{
	uint64_t t = 0;
	int r = pmu_sireg_access(p, priv, sel, n, PMU_CSR_SET, 0, 0, &t, NULL);
	if (v)
		*v = t;
	return r;
}

static int siwr(struct pmu *p, unsigned priv, unsigned sel, unsigned n, uint64_t v,
		unsigned *f)
{
	static const uint64_t none[PMU_EV_MAX];
	uint64_t old;
	int r = pmu_sireg_access(p, priv, sel, n, PMU_CSR_WRITE, v, 1, &old, f);
	pmu_retire(p, priv, none);  /* the writer retires */
	return r;
}

void test_scountinhibit(void)
{
	struct pmu p;
	uint64_t v;
	pt_make(&p, NULL);
	CHECK_EQ(pmu_menvcfg_mask(&p), 1ull << 60, "menvcfg.CDE writable");
	CHECK(pt_rd(&p, S, 0x120, &v) == PMU_ILLEGAL, "CDE=0: S read illegal");
	CHECK(pt_wr(&p, S, 0x120, 0) == PMU_ILLEGAL, "CDE=0: S write illegal");
	CHECK(pt_rd(&p, M, 0x120, &v) == PMU_ILLEGAL, "CDE=0: M read illegal");
	pmu_set_cde(&p, true);
	pt_wrm(&p, 0x306, (1u << 0) | (1u << 3) | (1u << 5));
	pt_wrm(&p, 0x320, (1u << 2) | (1u << 3) | (1u << 4));
	CHECK(pt_rd(&p, S, 0x120, &v) == PMU_OK, "CDE=1: S read");
	CHECK_EQ(v, 1u << 3, "only delegated bits visible");
	CHECK(pt_rd(&p, U, 0x120, &v) == PMU_ILLEGAL, "U read");
	CHECK(pt_wr(&p, S, 0x120, 0xffffffff) == PMU_OK, "S write all-ones");
	CHECK_EQ(pt_rdm(&p, 0x320), 0x3d, "undelegated bits kept, delegated set");
	CHECK(pt_wr(&p, S, 0x120, 0) == PMU_OK, "S write 0");
	CHECK_EQ(pt_rdm(&p, 0x320), 0x14, "delegated bits cleared only");
	/* a delegated counter beyond the implemented ones stays RO 0 */
	pt_wrm(&p, 0x306, 1u << 20);
	CHECK(pt_wr(&p, S, 0x120, 1u << 20) == PMU_OK, "write absent counter bit");
	CHECK_EQ(pt_rdm(&p, 0x320), 0x14, "absent counter bit RO 0");
	/* it stops counting like mcountinhibit does */
	pt_wrm(&p, 0x306, 1u << 3);
	pt_wrm(&p, 0x323, 2);
	pt_wr(&p, S, 0x120, 1u << 3);
	pmu_retire_n(&p, S, 5);
	CHECK_EQ(pt_rdm(&p, 0xb03), 0, "inhibited via scountinhibit");
	pt_wr(&p, S, 0x120, 0);
	pmu_retire_n(&p, S, 5);
	CHECK_EQ(pt_rdm(&p, 0xb03), 5, "resumed via scountinhibit");
}

void test_sireg(void)
{
	struct pmu p;
	uint64_t v;
	unsigned f;
	pt_make(&p, NULL);
	pt_wrm(&p, 0x306, (1u << 0) | (1u << 2) | (1u << 3));
	pt_wrm(&p, 0xb03, 777);
	pt_wrm(&p, 0x323, MINH | 2);
	CHECK(sird(&p, S, 0x43, 1, &v) == PMU_ILLEGAL, "CDE=0: sireg illegal");
	pmu_set_cde(&p, true);
	CHECK(sird(&p, S, 0x43, 1, &v) == PMU_OK && v == 777, "sireg at 0x43 = hpmcounter3");
	CHECK(sird(&p, M, 0x43, 1, &v) == PMU_OK && v == 777, "sireg from M");
	CHECK(sird(&p, U, 0x43, 1, &v) == PMU_ILLEGAL, "sireg from U");
	CHECK(sird(&p, S, 0x43, 2, &v) == PMU_OK && v == 2, "sireg2: hpmevent3, MINH hidden");
	for (unsigned n = 3; n <= 6; n++)
		CHECK(sird(&p, S, 0x43, n, &v) == PMU_ILLEGAL, "sireg%u in the window", n);
	CHECK(sird(&p, S, 0x41, 1, &v) == PMU_ILLEGAL, "0x41 (time)");
	pt_wrm(&p, 0x306, 0xffffffff & ~(1u << 4));
	CHECK(sird(&p, S, 0x44, 1, &v) == PMU_ILLEGAL, "undelegated counter 4");
	CHECK(sird(&p, M, 0x44, 1, &v) == PMU_ILLEGAL, "undelegated counter 4 from M");
	CHECK(sird(&p, S, 0x3f, 1, &v) == PMU_NOT_PMU, "0x3f outside the window");
	CHECK(sird(&p, S, 0x60, 1, &v) == PMU_NOT_PMU, "0x60 outside the window");
	CHECK(sird(&p, S, 0x5f, 1, &v) == PMU_OK && v == 0, "0x5f: absent counter 31 reads 0");
	/* writes: the counter (replacing the writer's increment) */
	CHECK(siwr(&p, S, 0x43, 1, 5000, &f) == PMU_OK, "sireg write");
	CHECK_EQ(f, PMU_F_WROTE | PMU_F_REPLACE, "sireg counter write flags");
	CHECK_EQ(pt_rdm(&p, 0xb03), 5000, "mhpmcounter3 written via sireg");
	pmu_retire_n(&p, S, 0);
	/* sireg2 keeps M's MINH and cannot set it */
	CHECK(siwr(&p, S, 0x43, 2, SINH | 3, &f) == PMU_OK && f == PMU_F_WROTE, "sireg2 write");
	CHECK_EQ(pt_rdm(&p, 0x323), MINH | SINH | 3, "MINH kept");
	pt_wrm(&p, 0x323, 2);
	CHECK(siwr(&p, S, 0x43, 2, MINH | 2, &f) == PMU_OK, "sireg2 write MINH");
	CHECK_EQ(pt_rdm(&p, 0x323), 2, "MINH not settable via sireg2");
	/* the delegated SINH filters counting */
	CHECK(siwr(&p, S, 0x43, 2, SINH | 2, &f) == PMU_OK, "sireg2 SINH");
	pt_wrm(&p, 0xb03, 0);
	pmu_retire_n(&p, S, 4);
	pmu_retire_n(&p, U, 3);
	CHECK_EQ(pt_rdm(&p, 0xb03), 3, "SINH via sireg2");
	/* 0x40 / 0x42: mcycle, minstret and their cfg (Smcntrpmf) */
	pt_wrm(&p, 0xb00, 11);
	pt_wrm(&p, 0xb02, 22);
	pt_wrm(&p, 0x321, MINH | SINH);
	CHECK(sird(&p, S, 0x40, 1, &v) == PMU_OK && v == 11, "sireg 0x40 = cycle");
	CHECK(sird(&p, S, 0x42, 1, &v) == PMU_OK && v == 22, "sireg 0x42 = instret");
	CHECK(sird(&p, S, 0x40, 2, &v) == PMU_OK && v == SINH, "cyclecfg, MINH hidden");
	CHECK(siwr(&p, S, 0x42, 2, ~UINT64_C(0), &f) == PMU_OK, "instretcfg write");
	CHECK_EQ(pt_rdm(&p, 0x322), SINH | 0x1000000000000000, "instretcfg: S/U INH, MINH not set");
	CHECK(siwr(&p, S, 0x42, 1, 99, &f) == PMU_OK && (f & PMU_F_REPLACE), "instret write via sireg");
	CHECK_EQ(pt_rdm(&p, 0xb02), 99, "minstret via sireg");
	pt_make(&p, fix_no_cntr);
	pmu_set_cde(&p, true);
	pt_wrm(&p, 0x306, 0xffffffff);
	CHECK(sird(&p, S, 0x40, 2, &v) == PMU_ILLEGAL, "cyclecfg without Smcntrpmf");
	CHECK(sird(&p, S, 0x42, 2, &v) == PMU_ILLEGAL, "instretcfg without Smcntrpmf");
	CHECK(sird(&p, S, 0x40, 1, &v) == PMU_OK, "cycle without Smcntrpmf");
	CHECK(sird(&p, S, 0x43, 2, &v) == PMU_OK, "hpmevent3 without Smcntrpmf");
}

void test_smcdeleg_off(void)
{
	struct pmu p;
	uint64_t v;
	pt_make(&p, fix_off);
	CHECK_EQ(pmu_menvcfg_mask(&p), 0, "menvcfg.CDE RO 0");
	pmu_set_cde(&p, true);
	CHECK(!p.cde, "CDE stuck at 0");
	pt_wrm(&p, 0x306, 0xffffffff);
	CHECK(pt_rd(&p, M, 0x120, &v) == PMU_ILLEGAL, "scountinhibit absent (M)");
	CHECK(pt_rd(&p, S, 0x120, &v) == PMU_ILLEGAL, "scountinhibit absent (S)");
	CHECK(sird(&p, S, 0x43, 1, &v) == PMU_ILLEGAL, "window absent");
	CHECK(sird(&p, M, 0x40, 1, &v) == PMU_ILLEGAL, "window absent from M");
}
