/* Host unit tests of src/pmu/ctr.c, part 1: the harness, and the CSR,
 * entry-register, access-control, classification and CC-encoding groups.
 * Each group prints one "PASS ctr <group>" or "FAIL ctr <group>: why".
 * Expected values come from the digest (../shared/spec/ctr.md), worked
 * out by hand in the comments, not from the model. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/ctr.h"

#include "ctr_test.h"
#define ALL_ON (UINT64_C(1) << 54)   /* mstateen0.CTR */

static int fails;
static char first[512];

void ct_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "  %s:%d: %s\n", file, line, msg);
	if (!fails++)
		snprintf(first, sizeof first, "%s:%d: %s", file, line, msg);
}

/* default config (after fix edits it), mstateen0.CTR = 1 */
void ct_make(struct ctr *c, void (*fix)(struct ctr_config *))
{
	struct ctr_config cfg;
	ctr_config_default(&cfg);
	if (fix)
		fix(&cfg);
	CHECK(ctr_init(c, &cfg) == 0, "ctr_init refused the test's config");
	ctr_set_stateen(c, ALL_ON, 0);
}

int ct_rd(struct ctr *c, unsigned priv, unsigned csr, uint64_t *v)
{
	uint64_t t = 0xdeadbeef;
	int r = ctr_csr_access(c, priv, csr, CTR_CSR_SET, 0, 0, &t);
	if (v)
		*v = t;
	return r;
}

int ct_wr(struct ctr *c, unsigned priv, unsigned csr, uint64_t v)
{
	uint64_t old;
	return ctr_csr_access(c, priv, csr, CTR_CSR_WRITE, v, 1, &old);
}

uint64_t ct_rdm(struct ctr *c, unsigned csr)
{
	uint64_t v = 0;
	int r = ct_rd(c, M, csr, &v);
	CHECK(r == CTR_OK, "M read of 0x%03x: status %d", csr, r);
	return v;
}

void ct_wrm(struct ctr *c, unsigned csr, uint64_t v)
{
	int r = ct_wr(c, M, csr, v);
	CHECK(r == CTR_OK, "M write of 0x%03x: status %d", csr, r);
}

/* logical entry x, register n (1 source, 2 target, 3 data), from M */
uint64_t ct_ent(struct ctr *c, unsigned x, unsigned n)
{
	uint64_t v = 0xdeadbeef;
	int r = ctr_ireg_access(c, M, 0x200 + x, n, CTR_CSR_SET, 0, 0, &v);
	CHECK(r == CTR_OK, "entry %u reg %u read: status %d", x, n, r);
	return v;
}

void ct_went(struct ctr *c, unsigned x, unsigned n, uint64_t v)
{
	uint64_t old;
	int r = ctr_ireg_access(c, M, 0x200 + x, n, CTR_CSR_WRITE, v, 1, &old);
	CHECK(r == CTR_OK, "entry %u reg %u write: status %d", x, n, r);
}

/* mctrctl writable bits from the digest §2 table: U S M (0-2), RASEMU 7,
 * STE 8, MTE 9, BPFRZ 11, LCOFIFRZ 12 -> 0x1B87; 33..37 -> 0x3E << 32;
 * 40..47 -> 0xFF << 40 */
#define ALL_CTL UINT64_C(0x0000FF3E00001B87)
/* without M (bit 2) and MTE (bit 9) */
#define ALL_SCTL UINT64_C(0x0000FF3E00001983)

static void no_ctr(struct ctr_config *f) { f->present = false; }
static void no_opt(struct ctr_config *f) { f->ctl_optional = 0; }
static void with_h(struct ctr_config *f) { f->has_h = true; }

/* §1: exactly five CSR numbers are CTR's; absent CTR owns none */
static void test_csr_map(void)
{
	struct ctr c;
	ct_make(&c, NULL);
	for (unsigned n = 0; n < 4096; n++) {
		uint64_t v;
		int r = ct_rd(&c, M, n, &v);
		int want = n == 0x14E || n == 0x14F || n == 0x15F || n == 0x34E ? CTR_OK
			 : n == 0x24E ? CTR_ILLEGAL : CTR_NOT_CTR;
		CHECK(r == want, "csr 0x%03x from M: status %d, want %d", n, r, want);
	}
	ct_make(&c, with_h);
	CHECK_EQ(ct_rd(&c, M, 0x24E, NULL), CTR_OK, "vsctrctl with H");
	ct_make(&c, no_ctr);
	for (unsigned n = 0; n < 4096; n++)
		CHECK(ct_rd(&c, M, n, NULL) == CTR_NOT_CTR, "absent CTR owns 0x%03x", n);
	uint64_t v;
	CHECK_EQ(ctr_ireg_access(&c, M, 0x200, 1, CTR_CSR_SET, 0, 0, &v),
		 (uint64_t)CTR_NOT_CTR, "absent: sireg at 0x200");
	CHECK_EQ(ctr_sctrclr(&c, M), (uint64_t)CTR_NOT_CTR, "absent: SCTRCLR");
	CHECK_EQ(ctr_transfer(&c, M, M, 0x100, 0x200, CTR_TYPE_TKBR, 0, 5), 0,
		 "absent: transfer");
	CHECK_EQ(c.e[0].source, 0, "absent: nothing recorded");
}

/* §2: implemented fields writable, WPRI and Custom RO 0 */
static void test_mctrctl_warl(void)
{
	struct ctr c;
	ct_make(&c, NULL);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0, "reset value");
	ct_wrm(&c, CTR_CSR_MCTRCTL, ~UINT64_C(0));
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), ALL_CTL, "all ones written");
	for (unsigned b = 0; b < 64; b++) {
		ct_wrm(&c, CTR_CSR_MCTRCTL, UINT64_C(1) << b);
		CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), (ALL_CTL >> b & 1) << b,
			 "single bit");
	}
	/* CSRRS / CSRRC */
	uint64_t old;
	ct_wrm(&c, CTR_CSR_MCTRCTL, CTRCTL_U);
	ctr_csr_access(&c, M, CTR_CSR_MCTRCTL, CTR_CSR_SET, CTRCTL_S | (UINT64_C(1) << 62), 1, &old);
	CHECK_EQ(old, CTRCTL_U, "CSRRS old");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0x3, "after CSRRS");
	ctr_csr_access(&c, M, CTR_CSR_MCTRCTL, CTR_CSR_CLEAR, CTRCTL_U, 1, &old);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0x2, "after CSRRC");
	/* writes = 0 never writes */
	ctr_csr_access(&c, M, CTR_CSR_MCTRCTL, CTR_CSR_WRITE, 0, 0, &old);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0x2, "writes=0");
	/* only the mandatory U, S, M, BPFRZ (bits 0, 1, 2, 11) */
	ct_make(&c, no_opt);
	ct_wrm(&c, CTR_CSR_MCTRCTL, ~UINT64_C(0));
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0x807, "mandatory fields only");
}

/* §2: sctrctl = mctrctl with M and MTE hidden and kept */
static void test_sctrctl_view(void)
{
	struct ctr c;
	ct_make(&c, NULL);
	ct_wrm(&c, CTR_CSR_MCTRCTL, ~UINT64_C(0));
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRCTL), ALL_SCTL, "view of all ones");
	CHECK_EQ(ct_wr(&c, S, CTR_CSR_SCTRCTL, 0), CTR_OK, "S write");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0x204, "M and MTE survive an sctrctl write");
	ct_wrm(&c, CTR_CSR_MCTRCTL, 0);
	CHECK_EQ(ct_wr(&c, S, CTR_CSR_SCTRCTL, ~UINT64_C(0)), CTR_OK, "S write");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), ALL_SCTL, "sctrctl cannot set M or MTE");
	uint64_t v;
	ct_rd(&c, S, CTR_CSR_SCTRCTL, &v);
	CHECK_EQ(v, ALL_SCTL, "S read");
}

/* §2: vsctrctl is its own register (its V-mode use: ctr_virt.c) */
static void test_vsctrctl(void)
{
	struct ctr c;
	ct_make(&c, with_h);
	CHECK_EQ(ct_wr(&c, S, CTR_CSR_VSCTRCTL, ~UINT64_C(0)), CTR_OK, "HS write");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_VSCTRCTL), ALL_SCTL, "vsctrctl fields (no M, MTE)");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0, "mctrctl untouched");
	CHECK_EQ(ct_wr(&c, U, CTR_CSR_VSCTRCTL, 0), CTR_ILLEGAL, "U access");
	ctr_set_stateen(&c, 0, 0);
	CHECK_EQ(ct_wr(&c, S, CTR_CSR_VSCTRCTL, 0), CTR_ILLEGAL, "HS with mstateen0.CTR=0");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_VSCTRCTL), ALL_SCTL, "illegal write wrote nothing");
	ct_make(&c, NULL);
	CHECK_EQ(ct_wr(&c, M, CTR_CSR_VSCTRCTL, 1), CTR_ILLEGAL, "no H: absent");
}

static void depths_32_64(struct ctr_config *f) { f->depths = 0x06; }
static void depths_16_256(struct ctr_config *f) { f->depths = 0x11; }

/* §3: DEPTH WARL over the configured depths; our legalisation rounds down
 * to a supported depth (reserved 5..7 as above 256), else the smallest */
static void test_sctrdepth_warl(void)
{
	struct ctr c;
	ct_make(&c, NULL);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRDEPTH), 4, "reset: largest");
	CHECK_EQ(ctr_depth(&c), 256, "reset depth");
	static const unsigned want_all[8] = { 0, 1, 2, 3, 4, 4, 4, 4 };
	static const unsigned depth_of[5] = { 16, 32, 64, 128, 256 };
	for (unsigned w = 0; w < 8; w++) {
		ct_wrm(&c, CTR_CSR_SCTRDEPTH, w);
		CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRDEPTH), want_all[w], "all depths");
		CHECK_EQ(ctr_depth(&c), depth_of[want_all[w]], "depth entries");
	}
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0xFFFFFFF9);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRDEPTH), 1, "bits 31:3 RO 0");
	ct_make(&c, depths_32_64);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRDEPTH), 2, "reset {32,64}");
	static const unsigned want_3264[8] = { 1, 1, 2, 2, 2, 2, 2, 2 };
	for (unsigned w = 0; w < 8; w++) {
		ct_wrm(&c, CTR_CSR_SCTRDEPTH, w);
		CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRDEPTH), want_3264[w], "{32,64}");
	}
	ct_make(&c, depths_16_256);
	static const unsigned want_16256[8] = { 0, 0, 0, 0, 4, 4, 4, 4 };
	for (unsigned w = 0; w < 8; w++) {
		ct_wrm(&c, CTR_CSR_SCTRDEPTH, w);
		CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRDEPTH), want_16256[w], "{16,256}");
	}
}

/* §4: WRPTR bits above depth-1 RO 0, 30:8 RO 0, FROZEN bit 31 */
static void test_sctrstatus_warl(void)
{
	struct ctr c;
	ct_make(&c, NULL);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0, "reset");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, ~UINT64_C(0));
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x800000FF, "depth 256, all ones");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 0x7FFFFF05);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x05, "30:8 RO 0");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 0xA7);
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x07, "depth change keeps a legal WRPTR");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, ~UINT64_C(0));
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x8000000F, "depth 16: WRPTR 3:0");
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 1);
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 0x3F);
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x1F, "depth 32: WRPTR 4:0");
}

static void no_stateen(struct ctr_config *f) { f->smstateen = false; }

/* §13 without V modes: M always; U never; S iff mstateen0 bit 54 (or no
 * Smstateen); mctrctl M only. Same for sireg* at 0x200 and SCTRCLR. */
static void test_access_control(void)
{
	static const unsigned s_csrs[3] = { 0x14E, 0x14F, 0x15F };
	struct ctr c;
	uint64_t v;
	ct_make(&c, NULL);
	for (unsigned bit = 0; bit < 64; bit++) {
		ctr_set_stateen(&c, UINT64_C(1) << bit, 0);
		int want_s = bit == 54 ? CTR_OK : CTR_ILLEGAL;
		for (unsigned i = 0; i < 3; i++) {
			CHECK(ct_rd(&c, S, s_csrs[i], NULL) == want_s,
			      "S 0x%03x with mstateen0 bit %u", s_csrs[i], bit);
			CHECK(ct_rd(&c, M, s_csrs[i], NULL) == CTR_OK, "M 0x%03x", s_csrs[i]);
			CHECK(ct_rd(&c, U, s_csrs[i], NULL) == CTR_ILLEGAL, "U 0x%03x", s_csrs[i]);
			CHECK(ct_rd(&c, 2, s_csrs[i], NULL) == CTR_ILLEGAL, "priv 2 0x%03x", s_csrs[i]);
		}
		CHECK(ctr_ireg_access(&c, S, 0x2FF, 3, CTR_CSR_SET, 0, 0, &v) == want_s,
		      "S sireg3 with bit %u", bit);
		CHECK(ctr_ireg_access(&c, S, 0x200, 5, CTR_CSR_SET, 0, 0, &v) == want_s,
		      "S sireg5 with bit %u", bit);
		CHECK(ctr_sctrclr(&c, S) == want_s, "S SCTRCLR with bit %u", bit);
		CHECK(ctr_ireg_access(&c, U, 0x200, 1, CTR_CSR_SET, 0, 0, &v) == CTR_ILLEGAL,
		      "U sireg");
		CHECK(ctr_ireg_access(&c, M, 0x200, 1, CTR_CSR_SET, 0, 0, &v) == CTR_OK,
		      "M sireg");
		CHECK(ctr_sctrclr(&c, U) == CTR_ILLEGAL, "U SCTRCLR");
		CHECK(ctr_sctrclr(&c, M) == CTR_OK, "M SCTRCLR");
		CHECK(ct_rd(&c, S, CTR_CSR_MCTRCTL, NULL) == CTR_ILLEGAL, "S mctrctl");
		CHECK(ct_rd(&c, U, CTR_CSR_MCTRCTL, NULL) == CTR_ILLEGAL, "U mctrctl");
	}
	/* a refused write changes nothing */
	ctr_set_stateen(&c, 0, 0);
	CHECK_EQ(ct_wr(&c, S, CTR_CSR_SCTRCTL, 3), CTR_ILLEGAL, "S write refused");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_MCTRCTL), 0, "refused write wrote nothing");
	/* without Smstateen S needs nothing */
	ct_make(&c, no_stateen);
	ctr_set_stateen(&c, 0, 0);
	for (unsigned i = 0; i < 3; i++)
		CHECK(ct_rd(&c, S, s_csrs[i], NULL) == CTR_OK, "no Smstateen: S 0x%03x", s_csrs[i]);
	CHECK_EQ(ctr_sctrclr(&c, S), CTR_OK, "no Smstateen: S SCTRCLR");
	CHECK_EQ(ctr_sctrclr(&c, U), CTR_ILLEGAL, "no Smstateen: U SCTRCLR");
}

/* a legal value for logical entry x, register n (ctrdata: CCM = x + 1,
 * CCV, TYPE 5, all implemented fields) */
static uint64_t entry_val(unsigned x, unsigned n)
{
	return n == 3 ? (uint64_t)(x + 1) << 16 | 0x8005 : 0x1000 * n + 0x10 * x + 1;
}

/* §1, §13: window bounds, sireg4..6 RO 0, entries >= depth RO 0 */
static void test_ireg_window(void)
{
	struct ctr c;
	uint64_t v;
	ct_make(&c, NULL);
	CHECK_EQ(ctr_ireg_access(&c, M, 0x1FF, 1, CTR_CSR_SET, 0, 0, &v),
		 (uint64_t)CTR_NOT_CTR, "siselect 0x1FF");
	CHECK_EQ(ctr_ireg_access(&c, M, 0x300, 1, CTR_CSR_SET, 0, 0, &v),
		 (uint64_t)CTR_NOT_CTR, "siselect 0x300");
	CHECK_EQ(ctr_ireg_access(&c, M, 0x200, 0, CTR_CSR_SET, 0, 0, &v),
		 (uint64_t)CTR_NOT_CTR, "n = 0");
	CHECK_EQ(ctr_ireg_access(&c, M, 0x200, 7, CTR_CSR_SET, 0, 0, &v),
		 (uint64_t)CTR_NOT_CTR, "n = 7");
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);   /* 16 */
	for (unsigned x = 0; x < 16; x++)
		for (unsigned n = 1; n <= 3; n++)
			ct_went(&c, x, n, entry_val(x, n));
	for (unsigned x = 0; x < 256; x++)
		for (unsigned n = 4; n <= 6; n++) {
			ct_went(&c, x, n, ~UINT64_C(0));
			CHECK_EQ(ct_ent(&c, x, n), 0, "sireg4..6 read 0");
		}
	for (unsigned x = 16; x < 256; x++)
		for (unsigned n = 1; n <= 3; n++) {
			ct_went(&c, x, n, 0x5555);
			CHECK_EQ(ct_ent(&c, x, n), 0, "entry beyond depth reads 0");
		}
	for (unsigned x = 0; x < 16; x++)
		for (unsigned n = 1; n <= 3; n++)
			CHECK_EQ(ct_ent(&c, x, n), entry_val(x, n),
				 "entries within depth unchanged");
	/* nothing reached physical entries 16..255 */
	for (unsigned p = 16; p < 256; p++)
		CHECK(c.e[p].source == 0 && c.e[p].target == 0 && c.e[p].data == 0,
		      "physical entry %u written", p);
}

/* §4: logical X lives in physical (WRPTR - X - 1) mod depth. Expected
 * physical indices worked by hand for WRPTR = 5, depth 16. */
static void test_ireg_logical(void)
{
	static const unsigned phys_of[16] = {
		4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5 };
	struct ctr c;
	ct_make(&c, NULL);
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 5);
	for (unsigned x = 0; x < 16; x++)
		ct_went(&c, x, 1, 0x100 + 2 * x);
	for (unsigned x = 0; x < 16; x++)
		CHECK_EQ(c.e[phys_of[x]].source, 0x100 + 2 * x, "physical entry of logical x");
	/* WRPTR = 0 at depth 256: logical 0 is physical 255 */
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 4);
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 0);
	ct_went(&c, 0, 2, 0xabc0);
	CHECK_EQ(c.e[255].target, 0xabc0, "logical 0 at WRPTR 0");
	ct_went(&c, 255, 2, 0xdef0);
	CHECK_EQ(c.e[0].target, 0xdef0, "logical 255 at WRPTR 0");
}

static void no_fields(struct ctr_config *f)
{
	f->misp = false;
	f->type_field = false;
	f->cycles = false;
	f->cce_bits = 0;
}
static void cce3(struct ctr_config *f) { f->cce_bits = 3; }

/* §5: ctrsource all bits, MISP optional, ctrdata fields optional,
 * reserved TYPEs 6/7 legalised to 0 (our WARL choice) */
static void test_entry_warl(void)
{
	struct ctr c;
	ct_make(&c, NULL);
	ct_went(&c, 3, 1, ~UINT64_C(0));
	CHECK_EQ(ct_ent(&c, 3, 1), ~UINT64_C(0), "ctrsource all bits");
	ct_went(&c, 3, 2, ~UINT64_C(0));
	CHECK_EQ(ct_ent(&c, 3, 2), ~UINT64_C(0), "ctrtarget with MISP");
	/* TYPE 0xF, CCV bit 15, CCM 27:16, CCE 31:28 */
	ct_went(&c, 3, 3, ~UINT64_C(0));
	CHECK_EQ(ct_ent(&c, 3, 3), 0xFFFF800F, "ctrdata all fields");
	for (unsigned t = 0; t < 16; t++) {
		ct_went(&c, 3, 3, t);
		CHECK_EQ(ct_ent(&c, 3, 3), t == 6 || t == 7 ? 0 : t, "TYPE WARL");
	}
	ct_make(&c, cce3);
	ct_went(&c, 0, 3, ~UINT64_C(0));
	CHECK_EQ(ct_ent(&c, 0, 3), 0x7FFF800F, "3 CCE bits");
	ct_make(&c, no_fields);
	ct_went(&c, 0, 2, ~UINT64_C(0));
	CHECK_EQ(ct_ent(&c, 0, 2), ~UINT64_C(1), "MISP RO 0");
	ct_went(&c, 0, 3, ~UINT64_C(0));
	CHECK_EQ(ct_ent(&c, 0, 3), 0, "no ctrdata fields");
	/* CSRRS on an entry */
	uint64_t old;
	ct_make(&c, NULL);
	ct_went(&c, 1, 1, 0x1000);
	ctr_ireg_access(&c, M, 0x201, 1, CTR_CSR_SET, 1, 1, &old);
	CHECK_EQ(old, 0x1000, "CSRRS old");
	CHECK_EQ(ct_ent(&c, 1, 1), 0x1001, "CSRRS sets V");
}

/* §6 jump table, row by row, then every rd/rs1 pair against the table's
 * wording ("link" = x1 or x5) */
static void test_classify(void)
{
	struct { enum ctr_insn k; unsigned rd, rs1; bool tk; enum ctr_type want; } rows[] = {
		{ CTR_INSN_BRANCH, 0, 0, true, CTR_TYPE_TKBR },
		{ CTR_INSN_BRANCH, 0, 0, false, CTR_TYPE_NTBR },
		{ CTR_INSN_JALR, 1, 10, 1, CTR_TYPE_INDCALL },   /* jalr x1, a0 */
		{ CTR_INSN_JALR, 1, 1, 1, CTR_TYPE_INDCALL },    /* jalr x1, x1 */
		{ CTR_INSN_JALR, 5, 6, 1, CTR_TYPE_INDCALL },    /* jalr x5, t1 */
		{ CTR_INSN_JALR, 5, 5, 1, CTR_TYPE_INDCALL },
		{ CTR_INSN_JAL, 1, 0, 1, CTR_TYPE_DIRCALL },
		{ CTR_INSN_JAL, 5, 0, 1, CTR_TYPE_DIRCALL },
		{ CTR_INSN_CM_JALT, 0, 0, 1, CTR_TYPE_DIRCALL },
		{ CTR_INSN_JALR, 0, 10, 1, CTR_TYPE_INDJMP },    /* jr a0 */
		{ CTR_INSN_JAL, 0, 0, 1, CTR_TYPE_DIRJMP },      /* j */
		{ CTR_INSN_CM_JT, 0, 0, 1, CTR_TYPE_DIRJMP },
		{ CTR_INSN_JALR, 1, 5, 1, CTR_TYPE_CORSWAP },
		{ CTR_INSN_JALR, 5, 1, 1, CTR_TYPE_CORSWAP },
		{ CTR_INSN_JALR, 0, 1, 1, CTR_TYPE_RET },        /* ret */
		{ CTR_INSN_JALR, 0, 5, 1, CTR_TYPE_RET },
		{ CTR_INSN_JALR, 7, 1, 1, CTR_TYPE_RET },        /* jalr t2, ra */
		{ CTR_INSN_CM_POPRET, 0, 0, 1, CTR_TYPE_RET },
		{ CTR_INSN_JALR, 7, 10, 1, CTR_TYPE_INDLJMP },
		{ CTR_INSN_JAL, 31, 0, 1, CTR_TYPE_DIRLJMP },
	};
	for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++)
		CHECK(ctr_classify(rows[i].k, rows[i].rd, rows[i].rs1, rows[i].tk) == rows[i].want,
		      "row %u: got %d want %d", i,
		      ctr_classify(rows[i].k, rows[i].rd, rows[i].rs1, rows[i].tk), rows[i].want);
	for (unsigned rd = 0; rd < 32; rd++) {
		bool rdl = rd == 1 || rd == 5;
		enum ctr_type jal = rdl ? CTR_TYPE_DIRCALL : rd == 0 ? CTR_TYPE_DIRJMP
						       : CTR_TYPE_DIRLJMP;
		CHECK(ctr_classify(CTR_INSN_JAL, rd, 0, true) == jal, "jal x%u", rd);
		for (unsigned rs = 0; rs < 32; rs++) {
			bool rsl = rs == 1 || rs == 5;
			enum ctr_type w;
			if ((rd == 1 && rs == 5) || (rd == 5 && rs == 1))
				w = CTR_TYPE_CORSWAP;
			else if ((rd == 1 && rs != 5) || (rd == 5 && rs != 1))
				w = CTR_TYPE_INDCALL;
			else if (rsl)
				w = CTR_TYPE_RET;           /* rd not a link */
			else if (rd == 0)
				w = CTR_TYPE_INDJMP;
			else
				w = CTR_TYPE_INDLJMP;
			CHECK(ctr_classify(CTR_INSN_JALR, rd, rs, true) == w,
			      "jalr x%u, x%u", rd, rs);
		}
	}
}

/* §10 encoding; each expected value is worked out by hand:
 *  5000 = 0b1_0011_1000_1000: msb 12 -> CCE 1, CCM = bits 11:0 = 904 (0x388)
 *  10000: msb 13 -> CCE 2, CCM = bits 12:1 = 5000 & 0xFFF = 904; 10001 the same
 *  1000000: msb 19 -> CCE 8, CCM = (1000000 >> 7) & 0xFFF = 7812 - 4096 = 3716
 *  (0xE84), decoding to 7812 << 7 = 999936
 *  saturation: the digest's max-cycles column (4095, 8191, 32764, 524224,
 *  134201344) for 0..4 CCE bits */
static void test_cc_encoding(void)
{
	struct { uint64_t c; unsigned k; uint32_t cc; uint64_t back; } v[] = {
		{ 0, 4, 0x0000, 0 },
		{ 1, 4, 0x0001, 1 },
		{ 4095, 4, 0x0FFF, 4095 },
		{ 4096, 4, 0x1000, 4096 },
		{ 5000, 4, 0x1388, 5000 },
		{ 8191, 4, 0x1FFF, 8191 },
		{ 8192, 4, 0x2000, 8192 },
		{ 10000, 4, 0x2388, 10000 },
		{ 10001, 4, 0x2388, 10000 },
		{ 1000000, 4, 0x8E84, 999936 },
		{ 1000000, 3, 0x7FFF, 524224 },
		{ 134201344, 4, 0xFFFF, 134201344 },
		{ UINT64_C(1) << 27, 4, 0xFFFF, 134201344 },
		{ ~UINT64_C(0), 4, 0xFFFF, 134201344 },
		{ 4096, 0, 0x0FFF, 4095 },
		{ 4095, 0, 0x0FFF, 4095 },
		{ 8191, 1, 0x1FFF, 8191 },
		{ 8192, 1, 0x1FFF, 8191 },
		{ 32764, 2, 0x3FFF, 32764 },
		{ 32767, 2, 0x3FFF, 32764 },
		{ 32768, 2, 0x3FFF, 32764 },
		{ 524224, 3, 0x7FFF, 524224 },
		{ 524288, 3, 0x7FFF, 524224 },
	};
	for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
		uint32_t cc = ctr_cc_encode(v[i].c, v[i].k);
		CHECK(cc == v[i].cc, "encode(%llu, %u bits) = 0x%x, want 0x%x",
		      (unsigned long long)v[i].c, v[i].k, cc, v[i].cc);
		CHECK(ctr_cc_decode(v[i].cc) == v[i].back, "decode(0x%x) = %llu, want %llu",
		      v[i].cc, (unsigned long long)ctr_cc_decode(v[i].cc),
		      (unsigned long long)v[i].back);
	}
}

/* invalid configurations are refused */
static void test_config(void)
{
	struct ctr c;
	struct ctr_config f;
	ctr_config_default(&f);
	CHECK_EQ(ctr_init(&c, &f), 0, "default accepted");
	f.depths = 0;
	CHECK_EQ(ctr_init(&c, &f), (uint64_t)-1, "no depth");
	f.depths = 0x20;
	CHECK_EQ(ctr_init(&c, &f), (uint64_t)-1, "depth 512");
	ctr_config_default(&f);
	f.ctl_optional &= ~CTRCTL_STE;
	CHECK_EQ(ctr_init(&c, &f), (uint64_t)-1, "MTE without STE");
	ctr_config_default(&f);
	f.ctl_optional |= CTRCTL_M;
	CHECK_EQ(ctr_init(&c, &f), (uint64_t)-1, "mandatory bit as optional");
	ctr_config_default(&f);
	f.cce_bits = 5;
	CHECK_EQ(ctr_init(&c, &f), (uint64_t)-1, "5 CCE bits");
	ctr_config_default(&f);
	f.cycles = false;
	CHECK_EQ(ctr_init(&c, &f), (uint64_t)-1, "CCE bits without cycles");
}

/* groups of ctr_record.c */
void test_record_basic(void);
void test_wrap(void);
void test_filters(void);
void test_modes(void);
void test_traps(void);
void test_ext_traps(void);
void test_freeze_lcofi(void);
void test_freeze_bp(void);
void test_cycles(void);
void test_rasemu(void);
void test_rasemu_cycles(void);
void test_sctrclr(void);
void test_read_records(void);
/* groups of ctr_virt.c */
void test_virt_modes(void);
void test_virt_transitions(void);
void test_virt_ext_traps(void);
void test_virt_freeze(void);
void test_virt_cycles(void);
void test_virt_access(void);

static const struct { const char *name; void (*fn)(void); } groups[] = {
#define G(n) { #n, test_##n },
	G(config) G(csr_map) G(mctrctl_warl) G(sctrctl_view) G(vsctrctl)
	G(sctrdepth_warl) G(sctrstatus_warl) G(access_control) G(ireg_window)
	G(ireg_logical) G(entry_warl) G(classify) G(cc_encoding)
	G(record_basic) G(wrap) G(filters) G(modes) G(traps) G(ext_traps)
	G(freeze_lcofi) G(freeze_bp) G(cycles) G(rasemu) G(rasemu_cycles)
	G(sctrclr) G(read_records) G(virt_modes) G(virt_transitions) G(virt_ext_traps)
	G(virt_freeze) G(virt_cycles) G(virt_access)
#undef G
};

int main(void)
{
	int bad = 0;
	for (unsigned i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		fails = 0;
		first[0] = 0;
		fprintf(stderr, "ctr %s\n", groups[i].name);
		groups[i].fn();
		if (fails) {
			printf("FAIL ctr %s: %s (%d failed checks)\n", groups[i].name, first, fails);
			bad = 1;
		} else {
			printf("PASS ctr %s\n", groups[i].name);
		}
	}
	return bad;
}
