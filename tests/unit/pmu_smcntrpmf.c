/* Smcntrpmf: mcyclecfg (0x321) and minstretcfg (0x322). */
#include "pmu_test.h"

#define MINH  0x4000000000000000
#define SINH  0x2000000000000000
#define UINH  0x1000000000000000

static void fix_no_s(struct pmu_config *c)
{
	c->has_s = false;
	c->sscofpmf = c->smcdeleg = false;
}
static void fix_off(struct pmu_config *c) { c->smcntrpmf = false; }

/* Digest §9: bit 63 RO 0, xINH of absent modes RO 0, 57:0 WPRI */
void test_cfg_fields(void)
{
	struct pmu p;
	pt_make(&p, NULL);
	pt_wrm(&p, 0x321, ~UINT64_C(0));
	pt_wrm(&p, 0x322, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x321), 0x7000000000000000, "mcyclecfg all-ones (no H)");
	CHECK_EQ(pt_rdm(&p, 0x322), 0x7000000000000000, "minstretcfg all-ones (no H)");
	pt_make(&p, pt_fix_h);
	pt_wrm(&p, 0x321, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x321), 0x7c00000000000000, "mcyclecfg all-ones with H");
	pt_make(&p, fix_no_s);
	pt_wrm(&p, 0x322, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x322), 0x5000000000000000, "minstretcfg without S: SINH RO 0");
	CHECK(pt_rd(&p, S, 0x321, NULL) == PMU_ILLEGAL, "mcyclecfg from S");
}

/* Smcntrpmf: xINH stops mcycle/minstret in mode x exactly; mcountinhibit
 * applies on top; hpm counters of the same event are unaffected. */
void test_cfg_inh(void)
{
	static const unsigned privs[] = { M, S, U };
	static const uint64_t own[] = { MINH, SINH, UINH };
	static const uint64_t bits[] = { 0, MINH, SINH, UINH, MINH | UINH };
	struct pmu p;
	uint64_t c[PMU_EV_MAX] = { 0 };
	c[PMU_EV_CYCLES] = 3;
	c[PMU_EV_INSTRET] = 2;
	for (unsigned b = 0; b < sizeof bits / sizeof *bits; b++)
		for (unsigned m = 0; m < 3; m++) {
			pt_make(&p, NULL);
			pt_wrm(&p, 0x321, bits[b]);
			pt_wrm(&p, 0x322, bits[(b + 1) % 5]);  /* a different filter */
			pt_wrm(&p, 0x323, 1);  /* hpm3 counts cycles, unfiltered */
			pmu_retire(&p, privs[m], c);
			pmu_retire(&p, privs[m], c);
			uint64_t wc = bits[b] & own[m] ? 0 : 6;
			uint64_t wi = bits[(b + 1) % 5] & own[m] ? 0 : 4;
			CHECK(pt_rdm(&p, 0xb00) == wc, "mcycle cfg 0x%llx priv %u: %llu, want %llu",
			      (unsigned long long)bits[b], privs[m],
			      (unsigned long long)pt_rdm(&p, 0xb00), (unsigned long long)wc);
			CHECK(pt_rdm(&p, 0xb02) == wi, "minstret cfg 0x%llx priv %u: %llu, want %llu",
			      (unsigned long long)bits[(b + 1) % 5], privs[m],
			      (unsigned long long)pt_rdm(&p, 0xb02), (unsigned long long)wi);
			CHECK_EQ(pt_rdm(&p, 0xb03), 6, "hpm3 cycles ignore mcyclecfg");
		}
	pt_make(&p, NULL);
	pt_wrm(&p, 0x320, 1);  /* CY inhibited, cfg allows everything */
	pmu_retire(&p, U, c);
	CHECK_EQ(pt_rdm(&p, 0xb00), 0, "mcountinhibit.CY on top of cfg");
	CHECK_EQ(pt_rdm(&p, 0xb02), 2, "minstret still counts");
	/* bit 63 is RO 0: mcycle wraps without an OF or a request */
	pt_wrm(&p, 0x320, 0);
	pt_wrm(&p, 0x321, 0x8000000000000000);
	CHECK_EQ(pt_rdm(&p, 0x321), 0, "cfg OF RO 0");
	pt_wrm(&p, 0xb00, 0xfffffffffffffffe);
	CHECK_EQ(pmu_retire(&p, U, c), 0, "mcycle wrap reports nothing");
	CHECK_EQ(pmu_take_mip(&p), 0, "mcycle wrap requests nothing");
}

void test_smcntrpmf_off(void)
{
	struct pmu p;
	pt_make(&p, fix_off);
	CHECK(pt_rd(&p, M, 0x321, NULL) == PMU_ILLEGAL, "mcyclecfg absent");
	CHECK(pt_rd(&p, M, 0x322, NULL) == PMU_ILLEGAL, "minstretcfg absent");
	CHECK(pt_wr(&p, M, 0x321, MINH) == PMU_ILLEGAL, "mcyclecfg write absent");
	pmu_retire_n(&p, M, 2);
	pmu_retire_n(&p, S, 3);
	pmu_retire_n(&p, U, 4);
	CHECK_EQ(pt_rdm(&p, 0xb00), 9, "mcycle counts in every mode");
	CHECK_EQ(pt_rdm(&p, 0xb02), 9, "minstret counts in every mode");
}
