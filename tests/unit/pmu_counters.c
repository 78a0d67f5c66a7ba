/* Zicntr/Zihpm counters, mcountinhibit, counteren gating, CSR map, the
 * selector decoder and write-replaces-increment. Expected values come from
 * the digest's tables (../shared/spec/pmu-csrs.md), not from the code. */
#include <string.h>
#include "pmu_test.h"

static void fix_no_s(struct pmu_config *c)
{
	c->has_s = false;
	c->sscofpmf = c->smcdeleg = false;
}

static void fix_m_only(struct pmu_config *c)
{
	fix_no_s(c);
	c->has_u = false;
}

static void fix_hpm4(struct pmu_config *c) { c->n_hpm = 4; }
static void fix_w48(struct pmu_config *c) { c->hpm_width = 48; }

static uint64_t fake_time(void *ctx) { return *(uint64_t *)ctx; }
static uint64_t the_time = 12345;
static void fix_time(struct pmu_config *c)
{
	c->time_read = fake_time;
	c->time_ctx = &the_time;
}

void test_config(void)
{
	struct pmu_config c;
	struct pmu p;
	pmu_config_default(&c);
	CHECK(pmu_init(&p, &c) == 0, "default config refused");
	c.n_hpm = 30;
	CHECK(pmu_init(&p, &c) == -1, "30 hpm counters accepted (max is 29)");
	pmu_config_default(&c);
	c.hpm_width = 0;
	CHECK(pmu_init(&p, &c) == -1, "width 0 accepted");
	c.hpm_width = 65;
	CHECK(pmu_init(&p, &c) == -1, "width 65 accepted");
	pmu_config_default(&c);
	c.has_s = false;  /* Sscofpmf/Smcdeleg still on: they need S */
	CHECK(pmu_init(&p, &c) == -1, "Sscofpmf without S accepted");
	pmu_config_default(&c);
	c.has_u = false;
	CHECK(pmu_init(&p, &c) == -1, "S without U accepted");
	pmu_config_default(&c);
	c.n_hpm = 29;
	c.hpm_width = 1;
	CHECK(pmu_init(&p, &c) == 0, "29 counters of 1 bit refused");
}

/* Digest §1: which numbers exist on RV64 (read from M) */
void test_csr_map(void)
{
	struct pmu p;
	pt_make(&p, fix_time);
	for (unsigned csr = 0; csr < 0x1000; csr++) {
		int want = PMU_NOT_PMU;
		if (csr == 0x106 || csr == 0x120 || csr == 0x306 || csr == 0x320 ||
		    csr == 0x321 || csr == 0x322 || (csr >= 0x323 && csr <= 0x33f) ||
		    csr == 0xb00 || (csr >= 0xb02 && csr <= 0xb1f) ||
		    (csr >= 0xc00 && csr <= 0xc1f) || csr == 0xda0)
			want = PMU_OK;
		/* RV32-only high halves, and 0xB01 (no mtime CSR) */
		if ((csr >= 0xb80 && csr <= 0xb9f) || (csr >= 0xc80 && csr <= 0xc9f) ||
		    (csr >= 0x721 && csr <= 0x73f) || csr == 0xb01)
			want = PMU_ILLEGAL;
		if (csr == 0x120)
			want = PMU_ILLEGAL;  /* scountinhibit: menvcfg.CDE = 0 at reset */
		int r = pt_rd(&p, M, csr, NULL);
		CHECK(r == want, "csr 0x%03x read from M: status %d, want %d", csr, r, want);
	}
	pmu_set_cde(&p, true);
	CHECK(pt_rd(&p, M, 0x120, NULL) == PMU_OK, "scountinhibit with CDE=1 from M");
}

/* Priv "CSR Address Mapping Conventions": csr[9:8] is the lowest privilege */
void test_csr_priv(void)
{
	struct pmu p;
	pt_make(&p, fix_time);
	pmu_set_cde(&p, true);
	pt_wrm(&p, 0x306, 0xffffffff);
	pt_wrm(&p, 0x106, 0xffffffff);
	static const unsigned mcsrs[] = { 0x306, 0x320, 0x321, 0x322, 0x323, 0x33f,
					  0xb00, 0xb02, 0xb03, 0xb1f };
	for (unsigned k = 0; k < sizeof mcsrs / sizeof *mcsrs; k++) {
		CHECK(pt_rd(&p, S, mcsrs[k], NULL) == PMU_ILLEGAL, "S read of M csr 0x%03x", mcsrs[k]);
		CHECK(pt_rd(&p, U, mcsrs[k], NULL) == PMU_ILLEGAL, "U read of M csr 0x%03x", mcsrs[k]);
		CHECK(pt_wr(&p, S, mcsrs[k], 0) == PMU_ILLEGAL, "S write of M csr 0x%03x", mcsrs[k]);
	}
	static const unsigned scsrs[] = { 0x106, 0x120, 0xda0 };
	for (unsigned k = 0; k < 3; k++) {
		CHECK(pt_rd(&p, S, scsrs[k], NULL) == PMU_OK, "S read of S csr 0x%03x", scsrs[k]);
		CHECK(pt_rd(&p, U, scsrs[k], NULL) == PMU_ILLEGAL, "U read of S csr 0x%03x", scsrs[k]);
	}
	CHECK(pt_wr(&p, S, 0x106, 5) == PMU_OK, "S write scounteren");
	CHECK_EQ(pt_rdm(&p, 0x106), 5, "scounteren after S write");
	CHECK(pt_rd(&p, 2, 0xc00, NULL) == PMU_ILLEGAL, "reserved privilege 2 accepted");
}

void test_counter_rw(void)
{
	struct pmu p;
	pt_make(&p, fix_w48);
	/* mcycle/minstret are 64 bits on RV64 whatever the hpm width */
	pt_wrm(&p, 0xb00, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0xb00), 0xffffffffffffffff, "mcycle all-ones");
	pt_wrm(&p, 0xb02, 0x8000000000000001);
	CHECK_EQ(pt_rdm(&p, 0xb02), 0x8000000000000001, "minstret");
	/* implemented hpm counter of width 48: bits 63:48 read 0 */
	for (unsigned i = 3; i <= 18; i++) {
		pt_wrm(&p, 0xb00 + i, ~UINT64_C(0));
		CHECK_EQ(pt_rdm(&p, 0xb00 + i), 0x0000ffffffffffff, "mhpmcounter all-ones, W=48");
	}
	pt_wrm(&p, 0xb05, 0x123456789abcdef0);
	CHECK_EQ(pt_rdm(&p, 0xb05), 0x000056789abcdef0, "mhpmcounter5 W=48");
	/* user shadows read the same counters (enabled from M) */
	pt_wrm(&p, 0x306, 0xffffffff);
	pt_wrm(&p, 0x106, 0xffffffff);
	uint64_t v;
	CHECK(pt_rd(&p, U, 0xc05, &v) == PMU_OK && v == 0x000056789abcdef0, "hpmcounter5 from U");
	CHECK(pt_rd(&p, S, 0xc02, &v) == PMU_OK && v == 0x8000000000000001, "instret from S");
	/* CSRRS / CSRRC semantics */
	uint64_t old;
	pt_wrm(&p, 0xb04, 0xf0);
	CHECK(pmu_csr_access(&p, M, 0xb04, PMU_CSR_SET, 0x0f, 1, &old, NULL) == PMU_OK && old == 0xf0,
	      "csrrs old value");
	CHECK_EQ(pt_rdm(&p, 0xb04), 0xff, "after csrrs");
	CHECK(pmu_csr_access(&p, M, 0xb04, PMU_CSR_CLEAR, 0x3c, 1, &old, NULL) == PMU_OK && old == 0xff,
	      "csrrc old value");
	CHECK_EQ(pt_rdm(&p, 0xb04), 0xc3, "after csrrc");
	/* counteren registers are 32 bits, every bit writable (TM included) */
	pt_wrm(&p, 0x306, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x306), 0xffffffff, "mcounteren");
	pt_wrm(&p, 0x106, 0x2);
	CHECK_EQ(pt_rdm(&p, 0x106), 0x2, "scounteren TM");
}

void test_unimplemented(void)
{
	struct pmu p;
	pt_make(&p, fix_hpm4);  /* counters 3..6 exist */
	pt_wrm(&p, 0x306, 0xffffffff);
	pt_wrm(&p, 0x106, 0xffffffff);
	for (unsigned i = 3; i < 32; i++) {
		uint64_t want = i <= 6 ? 0x5a5a : 0;
		CHECK(pt_wr(&p, M, 0xb00 + i, 0x5a5a) == PMU_OK, "write mhpmcounter%u traps", i);
		CHECK_EQ(pt_rdm(&p, 0xb00 + i), want, "mhpmcounter");
		CHECK(pt_wr(&p, M, 0x320 + i, 2) == PMU_OK, "write mhpmevent%u traps", i);
		CHECK_EQ(pt_rdm(&p, 0x320 + i), i <= 6 ? 2 : 0, "mhpmevent");
		uint64_t v = 1;
		CHECK(pt_rd(&p, U, 0xc00 + i, &v) == PMU_OK && v == want, "hpmcounter%u from U", i);
	}
	/* an unimplemented counter never counts, even with an event written */
	pmu_retire_n(&p, M, 10);
	CHECK_EQ(pt_rdm(&p, 0xb07), 0, "mhpmcounter7 after retire");
	CHECK_EQ(pt_rdm(&p, 0xb06), 0x5a5a + 10, "mhpmcounter6 after retire");
}

void test_mcountinhibit(void)
{
	struct pmu p;
	pt_make(&p, NULL);  /* 16 counters: 3..18 */
	pt_wrm(&p, 0x320, 0xffffffff);
	/* bit 1 (time) RO 0; bits 19..31 (absent counters) RO 0 */
	CHECK_EQ(pt_rdm(&p, 0x320), 0x7fffd, "mcountinhibit all-ones");
	pt_wrm(&p, 0x320, 0);
	pt_wrm(&p, 0x323, 2);  /* hpm3: instructions */
	pt_wrm(&p, 0x324, 1);  /* hpm4: cycles */
	pmu_retire_n(&p, U, 3);
	CHECK_EQ(pt_rdm(&p, 0xb00), 3, "mcycle");
	CHECK_EQ(pt_rdm(&p, 0xb02), 3, "minstret");
	CHECK_EQ(pt_rdm(&p, 0xb03), 3, "hpm3");
	CHECK_EQ(pt_rdm(&p, 0xb04), 3, "hpm4");
	pt_wrm(&p, 0x320, 0x1 | 0x8);  /* CY, HPM3 */
	pmu_retire_n(&p, U, 4);
	CHECK_EQ(pt_rdm(&p, 0xb00), 3, "mcycle inhibited");
	CHECK_EQ(pt_rdm(&p, 0xb02), 7, "minstret counting");
	CHECK_EQ(pt_rdm(&p, 0xb03), 3, "hpm3 inhibited");
	CHECK_EQ(pt_rdm(&p, 0xb04), 7, "hpm4 counting");
	pt_wrm(&p, 0x320, 0x4);  /* IR */
	pmu_retire_n(&p, M, 5);
	CHECK_EQ(pt_rdm(&p, 0xb00), 8, "mcycle resumed");
	CHECK_EQ(pt_rdm(&p, 0xb02), 7, "minstret inhibited");
	/* a write while inhibited is kept and counting resumes from it */
	pt_wrm(&p, 0xb02, 1000);
	pmu_retire_n(&p, M, 2);
	CHECK_EQ(pt_rdm(&p, 0xb02), 1000, "minstret held at written value");
	pt_wrm(&p, 0x320, 0);
	pmu_retire_n(&p, M, 2);
	CHECK_EQ(pt_rdm(&p, 0xb02), 1002, "minstret resumed from written value");
	/* inhibit does not affect access */
	pt_wrm(&p, 0x306, 0xffffffff);
	pt_wrm(&p, 0x320, 0x7fffd);
	CHECK(pt_rd(&p, S, 0xc00, NULL) == PMU_OK, "inhibited cycle readable from S");
}

/* Digest §6 rows for S: allowed iff mcounteren[i] = 1 */
void test_counteren_s(void)
{
	struct pmu p;
	pt_make(&p, fix_time);
	for (unsigned i = 0; i < 32; i++)
		for (unsigned m = 0; m < 2; m++) {
			uint32_t bit = UINT32_C(1) << i;
			pt_wrm(&p, 0x306, m ? bit : ~bit);  /* only bit i matters */
			pt_wrm(&p, 0x106, 0);               /* scounteren plays no part for S */
			int want = m ? PMU_OK : PMU_ILLEGAL;
			int r = pt_rd(&p, S, 0xc00 + i, NULL);
			CHECK(r == want, "S read 0xc%02x m=%u: status %d, want %d", i, m, r, want);
			CHECK(pt_rd(&p, M, 0xc00 + i, NULL) == PMU_OK, "M read 0xc%02x m=%u", i, m);
		}
}

/* Digest §6 rows for U on a hart with S: allowed iff m = 1 and s = 1 */
void test_counteren_u(void)
{
	struct pmu p;
	pt_make(&p, fix_time);
	for (unsigned i = 0; i < 32; i++)
		for (unsigned m = 0; m < 2; m++)
			for (unsigned s = 0; s < 2; s++) {
				uint32_t bit = UINT32_C(1) << i;
				pt_wrm(&p, 0x306, m ? bit : ~bit);
				pt_wrm(&p, 0x106, s ? bit : ~bit);
				int want = m && s ? PMU_OK : PMU_ILLEGAL;
				int r = pt_rd(&p, U, 0xc00 + i, NULL);
				CHECK(r == want, "U read 0xc%02x m=%u s=%u: status %d, want %d",
				      i, m, s, r, want);
			}
}

/* Digest §6, VS and VU rows: mcounteren clear -> illegal; then hcounteren
 * (VS, VU) and scounteren (VU) clear -> virtual instruction */
void test_counteren_v(void)
{
	struct pmu p;
	pt_make(&p, pt_fix_h);
	for (unsigned i = 0; i < 32; i++)
		for (unsigned k = 0; k < 8; k++) {
			unsigned m = k & 1, h = (k >> 1) & 1, s = k >> 2;
			uint32_t bit = UINT32_C(1) << i;
			pt_wrm(&p, 0x306, m ? bit : ~bit);
			pt_wrm(&p, 0x606, h ? bit : ~bit);
			pt_wrm(&p, 0x106, s ? bit : ~bit);
			int vs = !m ? PMU_ILLEGAL : !h ? PMU_VIRTUAL : PMU_OK;
			int vu = vs == PMU_OK && !s ? PMU_VIRTUAL : vs;
			if (i == 1) {  /* time, allowed: no hook here, the hart's value */
				vs = vs == PMU_OK ? PMU_NOT_PMU : vs;
				vu = vu == PMU_OK ? PMU_NOT_PMU : vu;
			}
			int r = pt_rd(&p, PMU_PRIV_VS, 0xc00 + i, NULL);
			CHECK(r == vs, "VS read 0xc%02x m=%u h=%u s=%u: status %d, want %d", i, m, h, s, r, vs);
			r = pt_rd(&p, PMU_PRIV_VU, 0xc00 + i, NULL);
			CHECK(r == vu, "VU read 0xc%02x m=%u h=%u s=%u: status %d, want %d", i, m, h, s, r, vu);
		}
	/* hcounteren: HS and M only; from VS a virtual instruction */
	CHECK(pt_rd(&p, S, 0x606, NULL) == PMU_OK, "hcounteren from HS");
	CHECK(pt_rd(&p, U, 0x606, NULL) == PMU_ILLEGAL, "hcounteren from U");
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0x606, NULL) == PMU_VIRTUAL, "hcounteren from VS");
	CHECK(pt_rd(&p, PMU_PRIV_VU, 0x106, NULL) == PMU_VIRTUAL, "scounteren from VU");
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0x106, NULL) == PMU_OK, "scounteren from VS");
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0x306, NULL) == PMU_ILLEGAL, "mcounteren from VS");
	/* Smcdeleg with V=1: scountinhibit illegal with CDE = 0, else
	 * virtual; scountovf virtual from VS only with CDE = 1 */
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0x120, NULL) == PMU_ILLEGAL, "scountinhibit from VS, CDE=0");
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0xda0, NULL) == PMU_OK, "scountovf from VS, CDE=0");
	CHECK(pt_rd(&p, PMU_PRIV_VU, 0xda0, NULL) == PMU_VIRTUAL, "scountovf from VU");
	pmu_set_cde(&p, true);
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0x120, NULL) == PMU_VIRTUAL, "scountinhibit from VS, CDE=1");
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0xda0, NULL) == PMU_VIRTUAL, "scountovf from VS, CDE=1");
	pt_make(&p, NULL);  /* without H: no hcounteren, no V modes */
	CHECK(pt_rd(&p, M, 0x606, NULL) == PMU_NOT_PMU, "hcounteren without H");
	CHECK(pt_rd(&p, PMU_PRIV_VS, 0xc00, NULL) == PMU_ILLEGAL, "VS without H");
}

/* Digest §5/§6: no S -> mcounteren alone gates U; no U -> no mcounteren */
void test_counteren_no_s(void)
{
	struct pmu p;
	pt_make(&p, fix_no_s);
	CHECK(pt_rd(&p, M, 0x106, NULL) == PMU_ILLEGAL, "scounteren exists without S");
	CHECK(pt_rd(&p, M, 0x306, NULL) == PMU_OK, "mcounteren missing with U");
	CHECK(pt_rd(&p, M, 0xda0, NULL) == PMU_ILLEGAL, "scountovf without Sscofpmf");
	CHECK(pt_rd(&p, S, 0xc00, NULL) == PMU_ILLEGAL, "S access on a hart without S");
	for (unsigned i = 0; i < 32; i++)
		for (unsigned m = 0; m < 2; m++) {
			if (i == 1)
				continue;  /* time: no hook in this config */
			uint32_t bit = UINT32_C(1) << i;
			pt_wrm(&p, 0x306, m ? bit : ~bit);
			int want = m ? PMU_OK : PMU_ILLEGAL;
			int r = pt_rd(&p, U, 0xc00 + i, NULL);
			CHECK(r == want, "U (no S) read 0xc%02x m=%u: status %d", i, m, r);
		}
	pt_make(&p, fix_m_only);
	CHECK(pt_rd(&p, M, 0x306, NULL) == PMU_ILLEGAL, "mcounteren exists without U");
	CHECK(pt_rd(&p, U, 0xc00, NULL) == PMU_ILLEGAL, "U access on an M-only hart");
	CHECK(pt_rd(&p, M, 0xc00, NULL) == PMU_OK, "cycle from M on an M-only hart");
}

/* Digest §6: 0xC00-0xC1F are read-only in every mode; scountovf too */
void test_counter_writes_ro(void)
{
	struct pmu p;
	pt_make(&p, fix_time);
	pt_wrm(&p, 0x306, 0xffffffff);
	pt_wrm(&p, 0x106, 0xffffffff);
	static const unsigned privs[] = { M, S, U };
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 32; i++) {
			uint64_t old;
			unsigned csr = 0xc00 + i;
			CHECK(pt_wr(&p, privs[k], csr, 0) == PMU_ILLEGAL, "csrrw 0x%03x priv %u", csr, privs[k]);
			CHECK(pmu_csr_access(&p, privs[k], csr, PMU_CSR_SET, 0, 1, &old, NULL) == PMU_ILLEGAL,
			      "csrrs with rs1!=x0 0x%03x priv %u", csr, privs[k]);
			CHECK(pmu_csr_access(&p, privs[k], csr, PMU_CSR_CLEAR, 0, 0, &old, NULL) == PMU_OK,
			      "csrrc with rs1=x0 0x%03x priv %u", csr, privs[k]);
		}
	CHECK(pt_wr(&p, M, 0xda0, 0) == PMU_ILLEGAL, "scountovf write from M");
	CHECK(pt_wr(&p, S, 0xda0, 0) == PMU_ILLEGAL, "scountovf write from S");
}

void test_time_hook(void)
{
	struct pmu p;
	uint64_t v = 0;
	pt_make(&p, fix_time);
	pt_wrm(&p, 0x306, 0x2);
	pt_wrm(&p, 0x106, 0x2);
	CHECK(pt_rd(&p, S, 0xc01, &v) == PMU_OK && v == 12345, "time via hook from S");
	CHECK(pt_rd(&p, U, 0xc01, &v) == PMU_OK && v == 12345, "time via hook from U");
	pt_wrm(&p, 0x106, 0);
	CHECK(pt_rd(&p, U, 0xc01, &v) == PMU_ILLEGAL, "time from U with scounteren.TM=0");
	pt_wrm(&p, 0x306, 0);
	CHECK(pt_rd(&p, S, 0xc01, &v) == PMU_ILLEGAL, "time from S with mcounteren.TM=0");
	pt_make(&p, NULL);  /* no hook: gated here, valued by the hart */
	CHECK(pt_rd(&p, S, 0xc01, &v) == PMU_ILLEGAL, "time without hook, TM=0");
	pt_wrm(&p, 0x306, 0x2);
	CHECK(pt_rd(&p, S, 0xc01, &v) == PMU_NOT_PMU, "time without hook, TM=1");
	CHECK(pt_rd(&p, M, 0xc01, &v) == PMU_NOT_PMU, "time without hook from M");
}

static pmu_evset pair_decoder(void *ctx, uint64_t sel)
{
	(void)ctx;
	return sel == 0x42 ? PMU_EV_BIT(PMU_EV_LOAD) | PMU_EV_BIT(PMU_EV_STORE) : 0;
}

static void fix_pair(struct pmu_config *c) { c->decode = pair_decoder; }

void test_decoder(void)
{
	struct pmu p;
	/* virt: selector = event number; raise n = 10*e of every event e */
	for (unsigned sel = 0; sel < PMU_EV_COUNT + 3; sel++) {
		pt_make(&p, NULL);
		pt_wrm(&p, 0x323, sel);
		uint64_t c[PMU_EV_MAX] = { 0 };
		for (unsigned e = 0; e < PMU_EV_COUNT; e++)
			c[e] = 10 * e;
		pmu_retire(&p, U, c);
		uint64_t want = sel >= 1 && sel < PMU_EV_COUNT ? 10 * sel : 0;
		CHECK_EQ(pt_rdm(&p, 0xb03), want, pmu_event_name(sel));
		for (unsigned e = 1; e < PMU_EV_COUNT; e++)
			pmu_count(&p, U, e, 1);
		CHECK_EQ(pt_rdm(&p, 0xb03), want + (want != 0), "pmu_count one of each");
	}
	CHECK(strcmp(pmu_event_name(PMU_EV_INSTRET), "instructions") == 0, "event name");
	/* a profile's decoder: one selector, two events, counted as a sum */
	pt_make(&p, fix_pair);
	pt_wrm(&p, 0x323, 0x42);
	pt_wrm(&p, 0x324, 2);
	uint64_t c[PMU_EV_MAX] = { 0 };
	c[PMU_EV_LOAD] = 3;
	c[PMU_EV_STORE] = 4;
	c[PMU_EV_INSTRET] = 9;
	pmu_retire(&p, U, c);
	CHECK_EQ(pt_rdm(&p, 0xb03), 7, "loads+stores");
	CHECK_EQ(pt_rdm(&p, 0xb04), 0, "selector 2 under the pair decoder");
	CHECK_EQ(pmu_events_in_use(&p, U),
		 PMU_EV_BIT(PMU_EV_CYCLES) | PMU_EV_BIT(PMU_EV_INSTRET) |
		 PMU_EV_BIT(PMU_EV_LOAD) | PMU_EV_BIT(PMU_EV_STORE), "events in use");
	pt_wrm(&p, 0x320, 0x5);
	CHECK_EQ(pmu_events_in_use(&p, U), PMU_EV_BIT(PMU_EV_LOAD) | PMU_EV_BIT(PMU_EV_STORE),
		 "events in use with CY, IR inhibited");
}

/* Zicsr: a CSR write to minstret replaces the writing instruction's
 * increment; Priv: mcycle/mhpmcounter writes take effect after it. */
void test_write_replaces(void)
{
	struct pmu p;
	uint64_t old;
	unsigned f = 99;
	pt_make(&p, NULL);
	pt_wrm(&p, 0x323, 2);  /* hpm3: instructions, not written below */
	pt_wrm(&p, 0x324, 2);  /* hpm4: instructions, written below */
	pmu_retire_n(&p, M, 5);
	CHECK(pmu_csr_access(&p, M, 0xb02, PMU_CSR_WRITE, 100, 1, &old, &f) == PMU_OK, "write minstret");
	CHECK_EQ(old, 5, "minstret before the write");
	CHECK_EQ(f, PMU_F_WROTE | PMU_F_REPLACE, "flags of a counter write");
	CHECK(pmu_csr_access(&p, M, 0xb00, PMU_CSR_WRITE, 200, 1, &old, &f) == PMU_OK, "write mcycle");
	CHECK(pmu_csr_access(&p, M, 0xb04, PMU_CSR_WRITE, 300, 1, &old, &f) == PMU_OK, "write hpm4");
	pmu_retire_n(&p, M, 1);  /* the writing instruction itself */
	CHECK_EQ(pt_rdm(&p, 0xb02), 100, "minstret = written value after the writer retires");
	CHECK_EQ(pt_rdm(&p, 0xb00), 200, "mcycle = written value");
	CHECK_EQ(pt_rdm(&p, 0xb04), 300, "hpm4 = written value");
	CHECK_EQ(pt_rdm(&p, 0xb03), 6, "hpm3 counted the writer");
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 101, "minstret counts on from the written value");
	CHECK_EQ(pt_rdm(&p, 0xb00), 201, "mcycle counts on");
	CHECK_EQ(pt_rdm(&p, 0xb04), 301, "hpm4 counts on");
	/* a read or a non-counter write replaces nothing */
	CHECK(pmu_csr_access(&p, M, 0xb02, PMU_CSR_SET, 0, 0, &old, &f) == PMU_OK && f == 0,
	      "read flags");
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 102, "read then retire");
	CHECK(pmu_csr_access(&p, M, 0x320, PMU_CSR_WRITE, 0, 1, &old, &f) == PMU_OK &&
	      f == PMU_F_WROTE, "mcountinhibit write flags");
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 103, "mcountinhibit write then retire");
	/* pmu_count belongs to the current instruction: the replace holds */
	CHECK(pmu_csr_access(&p, M, 0xb03, PMU_CSR_WRITE, 50, 1, &old, &f) == PMU_OK, "write hpm3");
	pmu_count(&p, M, PMU_EV_INSTRET, 1);
	CHECK_EQ(pt_rdm(&p, 0xb03), 50, "pmu_count during the writer");
	pmu_retire_n(&p, M, 0);
	pmu_count(&p, M, PMU_EV_INSTRET, 1);
	CHECK_EQ(pt_rdm(&p, 0xb03), 51, "pmu_count after the writer retired");
}

/* What counts is decided before each instruction (Sail's should_inc_*):
 * the writing instruction counts as the counters stood before its first
 * write; pmu_retire ends that, and pmu_count during it sees the same. */
void test_state_before(void)
{
	struct pmu p;
	uint64_t old;
	static const uint64_t none[PMU_EV_MAX];
	pt_make(&p, NULL);
	pt_wrm(&p, 0x323, 2);  /* hpm3: instructions */
	pt_wrm(&p, 0x324, 3);  /* hpm4: loads */
	CHECK(!pmu_held(&p), "nothing held after a whole CSR instruction");
	pmu_csr_access(&p, M, 0x320, PMU_CSR_WRITE, (1u << 2) | (1u << 3), 1, &old, NULL);
	CHECK(pmu_held(&p), "a write holds the state before it");
	CHECK_EQ(pmu_events_in_use(&p, M) & PMU_EV_BIT(PMU_EV_INSTRET), 0,
		 "what comes after sees the write");
	pmu_retire_n(&p, M, 1);
	CHECK(!pmu_held(&p), "pmu_retire ends the instruction");
	CHECK_EQ(pt_rdm(&p, 0xb02), 1, "the csrw that inhibits IR counts in minstret");
	CHECK_EQ(pt_rdm(&p, 0xb03), 1, "and in hpm3 (HPM3 inhibited by the same write)");
	pmu_retire_n(&p, M, 5);
	CHECK_EQ(pt_rdm(&p, 0xb02), 1, "inhibited after it");
	pmu_csr_access(&p, M, 0x320, PMU_CSR_WRITE, 0, 1, &old, NULL);
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 1, "the csrw that releases IR does not count");
	CHECK_EQ(pt_rdm(&p, 0xb03), 1, "nor in hpm3");
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 2, "counting after it");
	/* a selector change: several writes by one instruction hold the
	 * state from before the first; its own events count by it */
	CHECK(pmu_sireg_access(&p, M, 0x42, 2, PMU_CSR_WRITE, PMU_MINH, 1, &old, NULL) == PMU_ILLEGAL &&
	      !pmu_held(&p), "an illegal write (CDE = 0) holds nothing");
	pmu_csr_access(&p, M, 0x324, PMU_CSR_WRITE, 2, 1, &old, NULL);     /* hpm4: loads -> insns */
	pmu_csr_access(&p, M, 0x323, PMU_CSR_WRITE, 3, 1, &old, NULL);     /* hpm3: insns -> loads */
	uint64_t c[PMU_EV_MAX] = {0};
	c[PMU_EV_INSTRET] = c[PMU_EV_CYCLES] = c[PMU_EV_LOAD] = 1;
	pmu_count(&p, M, PMU_EV_LOAD, 1);
	pmu_retire(&p, M, c);
	CHECK_EQ(pt_rdm(&p, 0xb03), 3, "hpm3 counted the writer's instruction, as its old selector said");
	CHECK_EQ(pt_rdm(&p, 0xb04), 2, "hpm4 counted the writer's two loads, as its old selector said");
	pmu_retire(&p, M, c);
	CHECK_EQ(pt_rdm(&p, 0xb03), 4, "then hpm3 counts loads");
	CHECK_EQ(pt_rdm(&p, 0xb04), 3, "then hpm4 counts instructions");
	/* Smcntrpmf and xINH: the mode filter before the write */
	pt_wrm(&p, 0x323, 2);
	pmu_csr_access(&p, M, 0x322, PMU_CSR_WRITE, PMU_MINH, 1, &old, NULL);
	pmu_csr_access(&p, M, 0x323, PMU_CSR_WRITE, PMU_MINH | 2, 1, &old, NULL);
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 4 + 1, "minstretcfg.MINH: the csrw setting it counts");
	pmu_retire_n(&p, M, 3);
	pmu_csr_access(&p, M, 0x322, PMU_CSR_WRITE, 0, 1, &old, NULL);
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb02), 5, "the csrw clearing it does not");
	uint64_t h3 = pt_rdm(&p, 0xb03);
	pmu_csr_access(&p, M, 0x323, PMU_CSR_WRITE, 2, 1, &old, NULL);
	pmu_retire_n(&p, M, 1);
	CHECK_EQ(pt_rdm(&p, 0xb03), h3, "mhpmevent3.MINH: the csrw clearing it does not count");
	/* a firmware access retires no instruction: an empty retire ends it */
	pmu_csr_access(&p, M, 0x320, PMU_CSR_WRITE, 1u << 2, 1, &old, NULL);
	pmu_retire(&p, M, none);
	pmu_retire_n(&p, M, 2);
	CHECK_EQ(pt_rdm(&p, 0xb02), 6, "after an empty retire the new state (IR inhibited) counts");
}
