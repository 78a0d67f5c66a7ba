/* Sscofpmf: OF, LCOFI requests, scountovf, xINH, and the overflow horizon. */
#include "pmu_test.h"

#define LCOFIP 0x2000  /* mip bit 13 */
#define OF     0x8000000000000000
#define MINH   0x4000000000000000
#define SINH   0x2000000000000000
#define UINH   0x1000000000000000
#define VSINH  0x0800000000000000
#define VUINH  0x0400000000000000

static void fix_w8(struct pmu_config *c) { c->hpm_width = 8; }
static void fix_off(struct pmu_config *c) { c->sscofpmf = false; }

void test_of_lcofi(void)
{
	struct pmu p;
	pt_make(&p, NULL);
	pt_wrm(&p, 0x323, 2);  /* hpm3 counts instructions, OF = 0 */
	pt_wrm(&p, 0xb03, 0xfffffffffffffffe);
	CHECK_EQ(pmu_retire_n(&p, M, 1), 0, "no wrap yet");
	CHECK_EQ(pt_rdm(&p, 0xb03), 0xffffffffffffffff, "counter at 2^64-1");
	CHECK_EQ(pmu_take_mip(&p), 0, "no request before the wrap");
	CHECK_EQ(pmu_retire_n(&p, M, 1), 1u << 3, "wrap reports counter 3");
	CHECK_EQ(pt_rdm(&p, 0xb03), 0, "counter wrapped to 0 and keeps counting");
	CHECK_EQ(pt_rdm(&p, 0x323), OF | 2, "OF set by the wrap");
	CHECK_EQ(pmu_take_mip(&p), LCOFIP, "LCOFIP requested on OF 0->1");
	CHECK_EQ(pmu_take_mip(&p), 0, "request consumed");
	pmu_retire_n(&p, M, 3);
	CHECK_EQ(pt_rdm(&p, 0xb03), 3, "counts on after the wrap");
	/* second wrap with OF = 1: no request, OF stays (sticky) */
	pt_wrm(&p, 0xb03, 0xffffffffffffffff);
	CHECK_EQ(pt_rdm(&p, 0x323), OF | 2, "counter write leaves OF");
	CHECK_EQ(pmu_retire_n(&p, M, 1), 0, "wrap with OF=1 reports nothing");
	CHECK_EQ(pmu_take_mip(&p), 0, "no LCOFIP with OF=1");
	CHECK_EQ(pt_rdm(&p, 0x323), OF | 2, "OF sticky");
	/* software clears OF: the next wrap requests again */
	pt_wrm(&p, 0x323, 2);
	CHECK_EQ(pmu_take_mip(&p), 0, "clearing OF requests nothing");
	pt_wrm(&p, 0xb03, 0xffffffffffffffff);
	CHECK_EQ(pmu_retire_n(&p, M, 1), 1u << 3, "wrap after OF cleared");
	CHECK_EQ(pmu_take_mip(&p), LCOFIP, "LCOFIP again");
	/* software writing OF = 1 does not request LCOFI */
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0x323, OF | 2);
	CHECK_EQ(pt_rdm(&p, 0x323), OF | 2, "software set OF");
	CHECK_EQ(pmu_take_mip(&p), 0, "software OF=1 requests nothing");
	/* mcycle/minstret wrap: no OF exists, no request */
	pt_wrm(&p, 0x323, 0);
	pt_wrm(&p, 0xb00, 0xffffffffffffffff);
	pt_wrm(&p, 0xb02, 0xffffffffffffffff);
	CHECK_EQ(pmu_retire_n(&p, M, 2), 0, "mcycle/minstret wrap reports nothing");
	CHECK_EQ(pt_rdm(&p, 0xb02), 1, "minstret wrapped");
	CHECK_EQ(pmu_take_mip(&p), 0, "mcycle/minstret never request LCOFI");
	/* two counters wrapping in one batch: one request, both OF */
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0x324, 1);
	pt_wrm(&p, 0xb03, 0xfffffffffffffffa);
	pt_wrm(&p, 0xb04, 0xfffffffffffffffc);
	CHECK_EQ(pmu_retire_n(&p, U, 10), (1u << 3) | (1u << 4), "both wrapped");
	CHECK_EQ(pt_rdm(&p, 0xb03), 4, "hpm3 after wrap");
	CHECK_EQ(pt_rdm(&p, 0xb04), 6, "hpm4 after wrap");
	CHECK_EQ(pmu_take_mip(&p), LCOFIP, "LCOFIP");
	/* pmu_count overflows too */
	pt_wrm(&p, 0x325, 3);  /* loads */
	pt_wrm(&p, 0xb05, 0xffffffffffffffff);
	CHECK_EQ(pmu_count(&p, S, PMU_EV_LOAD, 1), 1u << 5, "pmu_count wrap");
	CHECK_EQ(pmu_take_mip(&p), LCOFIP, "LCOFIP from pmu_count");
}

/* overflow is the wrap of the implemented W bits */
void test_of_width(void)
{
	struct pmu p;
	pt_make(&p, fix_w8);
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0xb03, 0x1ff);  /* a write is masked and never overflows */
	CHECK_EQ(pt_rdm(&p, 0xb03), 0xff, "W=8 write masked");
	CHECK_EQ(pt_rdm(&p, 0x323), 2, "masked write set no OF");
	CHECK_EQ(pmu_take_mip(&p), 0, "masked write requested nothing");
	CHECK_EQ(pmu_retire_n(&p, U, 1), 1u << 3, "255 + 1 wraps at W=8");
	CHECK_EQ(pt_rdm(&p, 0xb03), 0, "wrapped to 0");
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0xb03, 0);
	CHECK_EQ(pmu_retire_n(&p, U, 1000), 1u << 3, "one batch of 1000 wraps");
	CHECK_EQ(pt_rdm(&p, 0xb03), 1000 % 256, "1000 mod 256");
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0xb03, 0);
	CHECK_EQ(pmu_retire_n(&p, U, 255), 0, "255 events from 0 do not wrap");
	CHECK_EQ(pmu_retire_n(&p, U, 1), 1u << 3, "the 256th does");
}

void test_scountovf(void)
{
	struct pmu p;
	uint64_t v;
	pt_make(&p, NULL);
	pt_wrm(&p, 0x323, OF | 2);
	pt_wrm(&p, 0x325, OF);
	pt_wrm(&p, 0x332, OF | 1);  /* mhpmevent18 */
	pt_wrm(&p, 0x306, (1u << 3) | (1u << 18) | 0x7);
	pt_wrm(&p, 0x106, 0);  /* scounteren plays no part */
	CHECK_EQ(pt_rdm(&p, 0xda0), (1u << 3) | (1u << 5) | (1u << 18), "M sees all OF bits");
	CHECK(pt_rd(&p, S, 0xda0, &v) == PMU_OK, "S read scountovf");
	CHECK_EQ(v, (1u << 3) | (1u << 18), "S sees OF masked by mcounteren");
	pt_wrm(&p, 0x106, 0xffffffff);
	pt_wrm(&p, 0x306, 1u << 5);
	CHECK(pt_rd(&p, S, 0xda0, &v) == PMU_OK && v == 1u << 5, "S mask follows mcounteren only");
	CHECK(pt_rd(&p, U, 0xda0, &v) == PMU_ILLEGAL, "U read scountovf");
	/* bits 2:0 read 0 even with every enable on */
	pt_wrm(&p, 0x306, 0xffffffff);
	CHECK(pt_rd(&p, S, 0xda0, &v) == PMU_OK && (v & 7) == 0, "bits 2:0 zero");
	/* it follows hardware overflow */
	pt_wrm(&p, 0x324, 2);
	pt_wrm(&p, 0xb04, 0xffffffffffffffff);
	pmu_retire_n(&p, S, 1);
	CHECK_EQ(pt_rdm(&p, 0xda0), (1u << 3) | (1u << 4) | (1u << 5) | (1u << 18), "after a wrap");
}

/* Sscofpmf: xINH set -> no counting in mode x; each bit exactly one mode */
void test_xinh_modes(void)
{
	static const unsigned privs[] = { M, S, U, PMU_PRIV_VS, PMU_PRIV_VU };
	static const uint64_t own[] = { MINH, SINH, UINH, VSINH, VUINH };  /* the bit of each mode */
	static const uint64_t bits[] = { 0, MINH, SINH, UINH, VSINH, VUINH,
					 MINH | SINH | UINH };
	struct pmu p;
	pt_make(&p, pt_fix_h);
	for (unsigned b = 0; b < sizeof bits / sizeof *bits; b++)
		for (unsigned m = 0; m < 5; m++) {
			pt_wrm(&p, 0x323, bits[b] | 2);
			pt_wrm(&p, 0xb03, 0);
			pmu_retire_n(&p, privs[m], 7);
			uint64_t want = bits[b] & own[m] ? 0 : 7;
			CHECK(pt_rdm(&p, 0xb03) == want, "inh 0x%llx priv %u: counted %llu, want %llu",
			      (unsigned long long)bits[b], privs[m],
			      (unsigned long long)pt_rdm(&p, 0xb03), (unsigned long long)want);
		}
	/* with H: all six bits stored */
	pt_wrm(&p, 0x323, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x323), 0xfcffffffffffffff, "mhpmevent all-ones with H");
	pt_make(&p, NULL);  /* no H: VSINH/VUINH RO 0 */
	pt_wrm(&p, 0x323, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x323), 0xf0ffffffffffffff, "mhpmevent all-ones without H");
	/* OpenSBI's initial OF|MINH: counts in S and U only */
	pt_wrm(&p, 0x323, OF | MINH | 2);
	pt_wrm(&p, 0xb03, 0);
	pmu_retire_n(&p, M, 4);
	pmu_retire_n(&p, S, 5);
	pmu_retire_n(&p, U, 6);
	CHECK_EQ(pt_rdm(&p, 0xb03), 11, "OF|MINH counts S+U");
}

/* The horizon: fewer steps cannot request LCOFI, exactly that many can
 * only in the last step. */
void test_horizon(void)
{
	struct pmu p;
	pt_make(&p, NULL);
	CHECK_EQ(pmu_horizon(&p, U), UINT64_MAX, "nothing armed");
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0xb03, 0xfffffffffffffffb);  /* 5 to the wrap */
	pmu_retire_n(&p, U, 0);
	CHECK_EQ(pmu_to_wrap(&p, 3), 5, "to_wrap");
	CHECK_EQ(pmu_horizon(&p, U), 5, "horizon of an instret counter");
	CHECK_EQ(pmu_retire_n(&p, U, 4), 0, "4 steps: no overflow");
	CHECK_EQ(pmu_horizon(&p, U), 1, "one step left");
	CHECK_EQ(pmu_retire_n(&p, U, 1), 1u << 3, "the 5th step overflows");
	CHECK_EQ(pmu_horizon(&p, U), UINT64_MAX, "OF=1: disarmed");
	/* two events per step at most: ceil(5/2) = 3 */
	pt_wrm(&p, 0x323, 3);  /* loads */
	pt_wrm(&p, 0x324, 4);  /* stores */
	pt_wrm(&p, 0xb03, 0xfffffffffffffffb);
	pt_wrm(&p, 0xb04, 0xfffffffffffffff0);
	pmu_retire_n(&p, U, 0);
	CHECK_EQ(pmu_horizon(&p, U), 5, "min over armed counters");
	/* inhibited in U, or by mcountinhibit: not armed there */
	pt_wrm(&p, 0x323, UINH | 3);
	CHECK_EQ(pmu_horizon(&p, U), 16, "UINH counter ignored in U");
	CHECK_EQ(pmu_horizon(&p, S), 5, "but armed in S");
	pt_wrm(&p, 0x320, 1u << 4);
	CHECK_EQ(pmu_horizon(&p, S), 5, "hpm4 inhibited");
	CHECK_EQ(pmu_horizon(&p, U), UINT64_MAX, "both out in U");
	pt_wrm(&p, 0x320, 0);
	/* selector 0 counts nothing: never armed */
	pt_wrm(&p, 0x323, 0);
	pt_wrm(&p, 0x324, 0);
	CHECK_EQ(pmu_horizon(&p, M), UINT64_MAX, "no event");
	/* weights from max_per_step; a pair decoder-free check with cycles */
	struct pmu_config c;
	pmu_config_default(&c);
	c.max_per_step[PMU_EV_CYCLES] = 4;
	CHECK(pmu_init(&p, &c) == 0, "init");
	pt_wrm(&p, 0x323, 1);  /* cycles */
	pt_wrm(&p, 0xb03, 0xfffffffffffffff6);  /* 10 to the wrap */
	CHECK_EQ(pmu_horizon(&p, U), 3, "ceil(10/4)");
	/* full-width counter at 0: 2^64 to go, saturates */
	pt_wrm(&p, 0xb03, 0);
	CHECK_EQ(pmu_horizon(&p, U), UINT64_MAX / 4 + 1, "ceil((2^64-1)/4) from saturated to_wrap");
	/* the split: a cycles-only counter leaves the step horizon for the
	 * exact cycle stop; a counter of anything else stays in it */
	uint64_t cyc = 0;
	pt_wrm(&p, 0xb03, 0xfffffffffffffff6);
	CHECK_EQ(pmu_horizon_cycles(&p, U, &cyc), UINT64_MAX, "cycles only: no step limit");
	CHECK_EQ(cyc, 10, "its cycles to the wrap");
	pt_wrm(&p, 0x324, 2);  /* instret, 7 to the wrap */
	pt_wrm(&p, 0xb04, 0xfffffffffffffff9);
	pt_wrm(&p, 0xb05, 0xfffffffffffffffe);  /* cycles, 2 to the wrap, unarmed */
	CHECK_EQ(pmu_horizon_cycles(&p, U, &cyc), 7, "the instret counter's steps");
	CHECK_EQ(cyc, 10, "hpm5 has no event: not armed");
	pt_wrm(&p, 0x325, 1);
	CHECK_EQ(pmu_horizon_cycles(&p, U, &cyc), 7, "steps unchanged");
	CHECK_EQ(cyc, 2, "the fewest cycles to a wrap");
	CHECK_EQ(pmu_horizon(&p, U), 1, "unsplit: ceil(2/4)");
	/* Sscofpmf off: nothing can request */
	pt_make(&p, fix_off);
	pt_wrm(&p, 0x323, 2);
	pt_wrm(&p, 0xb03, 0xffffffffffffffff);
	CHECK_EQ(pmu_horizon(&p, U), UINT64_MAX, "Sscofpmf off");
}

static uint64_t rng = 0x9e3779b97f4a7c15;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Simulated: steps raising the maximum of every event overflow exactly at
 * step horizon, never before; random widths, values and event sets. */
void test_horizon_sim(void)
{
	for (int trial = 0; trial < 300; trial++) {
		struct pmu_config c;
		struct pmu p;
		pmu_config_default(&c);
		c.hpm_width = 1 + rnd() % 12;
		for (unsigned e = 0; e < PMU_EV_COUNT; e++)
			c.max_per_step[e] = rnd() % 4;  /* 0 means 1 */
		if (pmu_init(&p, &c)) {
			CHECK(0, "init");
			return;
		}
		unsigned sel = 1 + rnd() % (PMU_EV_COUNT - 1);
		pt_wrm(&p, 0x323, sel);
		pt_wrm(&p, 0xb03, rnd());
		pmu_retire_n(&p, U, 0);
		uint64_t d = pmu_horizon(&p, U), steps = 0;
		uint64_t step[PMU_EV_MAX] = { 0 };
		for (unsigned e = 0; e < PMU_EV_COUNT; e++)
			step[e] = c.max_per_step[e] ? c.max_per_step[e] : 1;
		uint32_t ovf = 0;
		while (!ovf && steps < (UINT64_C(1) << 13))
			ovf = pmu_retire(&p, U, step), steps++;
		CHECK(ovf == 1u << 3 && steps == d,
		      "W=%u sel=%u: overflow after %llu max steps, horizon said %llu",
		      c.hpm_width, sel, (unsigned long long)steps, (unsigned long long)d);
	}
}

void test_sscofpmf_off(void)
{
	struct pmu p;
	pt_make(&p, fix_off);
	CHECK(pt_rd(&p, M, 0xda0, NULL) == PMU_ILLEGAL, "scountovf absent (M)");
	CHECK(pt_rd(&p, S, 0xda0, NULL) == PMU_ILLEGAL, "scountovf absent (S)");
	pt_wrm(&p, 0x323, ~UINT64_C(0));
	CHECK_EQ(pt_rdm(&p, 0x323), 0x00ffffffffffffff, "bits 63:56 RO 0");
	pt_wrm(&p, 0x323, 2 | MINH);
	CHECK_EQ(pt_rdm(&p, 0x323), 2, "MINH RO 0");
	pt_wrm(&p, 0xb03, 0xffffffffffffffff);
	CHECK_EQ(pmu_retire_n(&p, M, 1), 0, "wrap reports nothing");
	CHECK_EQ(pt_rdm(&p, 0xb03), 0, "wrapped");
	CHECK_EQ(pt_rdm(&p, 0x323), 2, "no OF");
	CHECK_EQ(pmu_take_mip(&p), 0, "no LCOFI");
}
