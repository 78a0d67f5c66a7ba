/* Host unit tests of src/pmu/ctr.c, part 2: recording, filters, traps,
 * freeze, cycle counts, RASEMU, SCTRCLR, read-out. Expected values are
 * derived by hand from the digest (../shared/spec/ctr.md). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/ctr.h"

#include "ctr_test.h"

#define INTR(code) ((UINT64_C(1) << 63) | (code))
#define CCV (UINT64_C(1) << 15)

/* default config with mctrctl = ctl (the write resets the cycle counter) */
static void mk(struct ctr *c, void (*fix)(struct ctr_config *), uint64_t ctl)
{
	ct_make(c, fix);
	ct_wrm(c, CTR_CSR_MCTRCTL, ctl);
}

/* a same-mode transfer */
static int tx(struct ctr *c, unsigned priv, enum ctr_type t, uint64_t from,
	      uint64_t to, uint64_t now)
{
	return ctr_transfer(c, priv, priv, from, to, t, 0, now);
}

static unsigned wrptr(struct ctr *c)
{
	return (unsigned)(ct_rdm(c, CTR_CSR_SCTRSTATUS) & 0xff);
}

static void no_misp(struct ctr_config *f) { f->misp = false; }

/* §5, §7: the fields of one record; WRPTR increments */
void test_record_basic(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_M);
	CHECK_EQ(ctr_transfer(&c, U, U, 0x1000, 0x2000, CTR_TYPE_TKBR, 1, 100), 1, "recorded");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x1001, "ctrsource = pc | V");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x2001, "ctrtarget = target | MISP");
	CHECK_EQ(ct_ent(&c, 0, 3), 0x5, "ctrdata: TYPE 5, CCV 0 after the mctrctl write");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 1, "WRPTR 1");
	/* not-taken branch: off by default, but its 30 cycles still count */
	CHECK_EQ(tx(&c, U, CTR_TYPE_NTBR, 0x2000, 0x2004, 130), 0, "NTBR off by default");
	CHECK_EQ(wrptr(&c), 1, "WRPTR unchanged");
	CHECK_EQ(tx(&c, U, CTR_TYPE_DIRCALL, 0x2004, 0x3000, 160), 1, "call recorded");
	/* TYPE 9 | CCV | CC 60 (0x3C) << 16 */
	CHECK_EQ(ct_ent(&c, 0, 3), 0x3C8009, "ctrdata of the call");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x3000, "MISP 0");
	CHECK_EQ(ct_ent(&c, 1, 1), 0x1001, "older record moved to logical 1");
	/* bit 0 of a target is never taken for MISP */
	tx(&c, U, CTR_TYPE_DIRJMP, 0x3000, 0x4001, 170);
	CHECK_EQ(ct_ent(&c, 0, 2), 0x4000, "target bit 0 dropped");
	/* types 0, 6, 7 do not exist as transfers */
	CHECK_EQ(tx(&c, U, CTR_TYPE_NONE, 1, 2, 180), 0, "type 0");
	CHECK_EQ(tx(&c, U, (enum ctr_type)6, 1, 2, 180), 0, "type 6");
	CHECK_EQ(tx(&c, U, (enum ctr_type)7, 1, 2, 180), 0, "type 7");
	CHECK_EQ(wrptr(&c), 3, "WRPTR after 3 records");
	/* §7: mstateen0.CTR gates software only */
	ctr_set_stateen(&c, 0, 0);
	CHECK_EQ(tx(&c, S, CTR_TYPE_TKBR, 0x10, 0x20, 190), 1, "recorded with mstateen0.CTR=0");
	mk(&c, no_misp, CTRCTL_M);
	ctr_transfer(&c, M, M, 0x10, 0x20, CTR_TYPE_TKBR, 1, 0);
	CHECK_EQ(ct_ent(&c, 0, 2), 0x20, "MISP unimplemented");
}

/* §4, §7: depth+3 records keep the last depth, WRPTR = 3 */
void test_wrap(void)
{
	static const unsigned encs[3] = { 0, 1, 4 };
	for (unsigned k = 0; k < 3; k++) {
		struct ctr c;
		mk(&c, NULL, CTRCTL_M);
		ct_wrm(&c, CTR_CSR_SCTRDEPTH, encs[k]);
		unsigned d = 16u << encs[k];
		for (unsigned i = 0; i < d + 3; i++)
			tx(&c, M, CTR_TYPE_TKBR, 0x10000 + 0x10 * i, 0x20000 + 0x10 * i, i);
		CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 3, "WRPTR after depth+3");
		for (unsigned x = 0; x < d; x++) {
			unsigned i = d + 2 - x;
			CHECK_EQ(ct_ent(&c, x, 1), 0x10001 + 0x10 * i, "logical x source");
			CHECK_EQ(ct_ent(&c, x, 2), 0x20000 + 0x10 * i, "logical x target");
		}
		CHECK_EQ(c.e[0].source, 0x10001 + 0x10 * d, "physical 0 = transfer depth");
		CHECK_EQ(c.e[2].source, 0x10001 + 0x10 * (d + 2), "physical 2 = newest");
		CHECK_EQ(c.e[3].source, 0x10001 + 0x10 * 3, "physical 3 = oldest kept");
		if (d < 256)
			CHECK_EQ(c.e[d].source, 0, "nothing recorded beyond depth");
	}
}

/* §2, §6: each filter bit drops exactly its type; NTBREN adds type 4 */
void test_filters(void)
{
	static const enum ctr_type types[13] = { 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };
	/* the digest §6 table: filter bit of each type */
	static const unsigned bit_of[16] = {
		[1] = 33, [2] = 34, [3] = 35, [4] = 36, [5] = 37, [8] = 40, [9] = 41,
		[10] = 42, [11] = 43, [12] = 44, [13] = 45, [14] = 46, [15] = 47 };
	for (int b = -1; b < 64; b++) {
		for (unsigned i = 0; i < 13; i++) {
			enum ctr_type t = types[i];
			struct ctr c;
			mk(&c, NULL, CTRCTL_M | (b < 0 ? 0 : UINT64_C(1) << b));
			if (b >= 0 && b < 32)
				continue;   /* not filter bits (covered elsewhere) */
			int rec = tx(&c, M, t, 0x100, 0x200, 1);
			int want = t == CTR_TYPE_NTBR ? b == 36 : b != (int)bit_of[t];
			if (b >= 48)
				want = t != CTR_TYPE_NTBR;   /* WPRI/custom: no effect */
			CHECK(rec == want, "type %d with bit %d: recorded %d, want %d", t, b, rec, want);
			CHECK_EQ(wrptr(&c), (unsigned)want, "WRPTR");
			if (want)
				CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, t, "TYPE field");
		}
	}
	/* all inhibits at once: only a not-taken branch (with NTBREN) remains */
	struct ctr c;
	mk(&c, NULL, CTRCTL_M | (UINT64_C(0xFFFF) << 32));
	for (unsigned i = 0; i < 13; i++)
		CHECK_EQ(tx(&c, M, types[i], 0x100, 0x200, 1), types[i] == CTR_TYPE_NTBR,
			 "all filter bits");
}

/* §7 rule 1: the current mode's enable */
void test_modes(void)
{
	static const unsigned privs[3] = { U, S, M };
	static const uint64_t bit[3] = { CTRCTL_U, CTRCTL_S, CTRCTL_M };
	for (uint64_t ctl = 0; ctl < 8; ctl++)
		for (unsigned p = 0; p < 3; p++) {
			struct ctr c;
			mk(&c, NULL, ctl);
			int want = (ctl & bit[p]) != 0;
			CHECK(tx(&c, privs[p], CTR_TYPE_DIRJMP, 0x40, 0x80, 1) == want,
			      "mctrctl 0x%llx priv %u", (unsigned long long)ctl, privs[p]);
		}
	/* S sets its modes through sctrctl; M stays as M left it */
	struct ctr c;
	mk(&c, NULL, 0);
	ct_wr(&c, S, CTR_CSR_SCTRCTL, CTRCTL_U | CTRCTL_S | CTRCTL_M);
	CHECK_EQ(tx(&c, U, CTR_TYPE_DIRJMP, 0x40, 0x80, 1), 1, "U via sctrctl");
	CHECK_EQ(tx(&c, S, CTR_TYPE_DIRJMP, 0x40, 0x80, 1), 1, "S via sctrctl");
	CHECK_EQ(tx(&c, M, CTR_TYPE_DIRJMP, 0x40, 0x80, 1), 0, "M not via sctrctl");
}

/* §8 traps and trap returns between enabled/disabled modes */
void test_traps(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_U | CTRCTL_S);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 1, "ecall U->S");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x1001, "source = epc");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x8000, "target = handler");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 1, "TYPE exception");
	CHECK_EQ(ctr_trap(&c, U, S, 0x1004, 0x8000, INTR(5), 2), 1, "timer U->S");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 2, "TYPE interrupt");
	CHECK_EQ(ctr_transfer(&c, S, U, 0x8100, 0x1004, CTR_TYPE_TRET, 0, 3), 1, "sret");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x1004, "sret target");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 3, "TYPE trap return");
	/* EXCINH / INTRINH / TRETINH */
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_EXCINH);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 0, "EXCINH drops exceptions");
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, INTR(9), 1), 1, "EXCINH keeps interrupts");
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_INTRINH);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, INTR(9), 1), 0, "INTRINH drops interrupts");
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 2, 1), 1, "INTRINH keeps exceptions");
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_TRETINH);
	CHECK_EQ(ctr_transfer(&c, S, U, 0x8100, 0x1004, CTR_TYPE_TRET, 0, 3), 0, "TRETINH");
	/* source disabled, target enabled: recorded with source PC 0 */
	mk(&c, NULL, CTRCTL_S);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 1, "U (off) -> S (on)");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x1, "source PC 0, V 1");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x8000, "target kept");
	mk(&c, NULL, CTRCTL_S | CTRCTL_EXCINH);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 0, "filter applies to it");
	/* trap return to a disabled mode: recorded with target 0 */
	mk(&c, NULL, CTRCTL_S);
	CHECK_EQ(ctr_transfer(&c, S, U, 0x8100, 0x1004, CTR_TYPE_TRET, 0, 3), 1, "sret to off U");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x8101, "source kept");
	CHECK_EQ(ct_ent(&c, 0, 2), 0x0, "target PC 0");
	/* trap return from a disabled mode: never */
	mk(&c, NULL, CTRCTL_U | CTRCTL_STE | CTRCTL_MTE);
	CHECK_EQ(ctr_transfer(&c, S, U, 0x8100, 0x1004, CTR_TYPE_TRET, 0, 3), 0, "sret from off S");
	CHECK_EQ(ctr_transfer(&c, M, U, 0x8100, 0x1004, CTR_TYPE_TRET, 0, 3), 0, "mret from off M");
	/* both disabled */
	mk(&c, NULL, CTRCTL_M);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 0, "U (off) -> S (off)");
	/* M <-> S with both on */
	mk(&c, NULL, CTRCTL_M | CTRCTL_S);
	CHECK_EQ(ctr_trap(&c, S, M, 0x8000, 0x80000000, 9, 1), 1, "S->M");
	CHECK_EQ(ctr_transfer(&c, M, S, 0x80000100, 0x8004, CTR_TYPE_TRET, 0, 2), 1, "mret");
	CHECK_EQ(wrptr(&c), 2, "two records");
}

/* §8 external traps: source on, target off */
void test_ext_traps(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_U);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 0, "U->S without STE");
	mk(&c, NULL, CTRCTL_U | CTRCTL_STE);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 1, "U->S with STE");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x1001, "source = epc");
	CHECK_EQ(ct_ent(&c, 0, 2), 0, "external trap: target PC 0");
	/* U->M needs MTE and STE */
	static const uint64_t te[4] = { 0, CTRCTL_MTE, CTRCTL_STE, CTRCTL_MTE | CTRCTL_STE };
	for (unsigned i = 0; i < 4; i++) {
		mk(&c, NULL, CTRCTL_U | te[i]);
		CHECK_EQ(ctr_trap(&c, U, M, 0x1000, 0x80000000, INTR(7), 1), i == 3,
			 "U->M enables");
		/* S->M needs MTE only */
		mk(&c, NULL, CTRCTL_S | te[i]);
		CHECK_EQ(ctr_trap(&c, S, M, 0x8000, 0x80000000, 9, 1), (i & 1) != 0,
			 "S->M enables");
	}
	/* EXCINH/INTRINH do not apply to external traps */
	mk(&c, NULL, CTRCTL_U | CTRCTL_STE | CTRCTL_EXCINH | CTRCTL_INTRINH);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 1, "external exception, EXCINH");
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, INTR(9), 1), 1, "external interrupt, INTRINH");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 2, "TYPE interrupt");
	/* STE set through sctrctl by S */
	mk(&c, NULL, 0);
	ct_wr(&c, S, CTR_CSR_SCTRCTL, CTRCTL_U | CTRCTL_STE);
	CHECK_EQ(ctr_trap(&c, U, S, 0x1000, 0x8000, 8, 1), 1, "STE via sctrctl");
}

/* §11: LCOFI trap with LCOFIFRZ freezes, is not recorded; buffer kept */
void test_freeze_lcofi(void)
{
	struct ctr c;
	struct ctr_entry snap[256];
	uint64_t all = CTRCTL_U | CTRCTL_S | CTRCTL_M | CTRCTL_LCOFIFRZ;
	mk(&c, NULL, all);
	for (unsigned i = 0; i < 3; i++)
		tx(&c, U, CTR_TYPE_TKBR, 0x100 + 4 * i, 0x200, i);
	memcpy(snap, c.e, sizeof snap);
	CHECK_EQ(ctr_trap(&c, U, S, 0x108, 0x8000, INTR(13), 10), 0, "LCOFI not recorded");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000003, "FROZEN, WRPTR 3");
	CHECK_EQ(tx(&c, S, CTR_TYPE_TKBR, 0x8000, 0x8010, 11), 0, "frozen: branch");
	CHECK_EQ(tx(&c, S, CTR_TYPE_DIRCALL, 0x8010, 0x9000, 12), 0, "frozen: call");
	CHECK_EQ(ctr_trap(&c, S, M, 0x9000, 0x80000000, 9, 13), 0, "frozen: trap");
	CHECK_EQ(ctr_transfer(&c, S, U, 0x8100, 0x108, CTR_TYPE_TRET, 0, 14), 0, "frozen: sret");
	CHECK(memcmp(snap, c.e, sizeof snap) == 0, "frozen buffer changed");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000003, "still frozen");
	/* software unfreezes: recording resumes, first count not claimed valid */
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 3);
	CHECK_EQ(tx(&c, U, CTR_TYPE_TKBR, 0x300, 0x400, 100), 1, "recording after unfreeze");
	CHECK_EQ(ct_ent(&c, 0, 3) & CCV, 0, "CCV 0 after unfreeze");
	/* LCOFI to M freezes too, and regardless of the source mode's enable */
	mk(&c, NULL, CTRCTL_M | CTRCTL_LCOFIFRZ);
	CHECK_EQ(ctr_trap(&c, U, M, 0x100, 0x80000000, INTR(13), 1), 0, "LCOFI to M");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000000, "frozen by LCOFI to M");
	/* without LCOFIFRZ the LCOFI is an ordinary interrupt record */
	mk(&c, NULL, CTRCTL_U | CTRCTL_S);
	CHECK_EQ(ctr_trap(&c, U, S, 0x108, 0x8000, INTR(13), 10), 1, "LCOFI recorded");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 2, "as an interrupt");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 1, "not frozen");
	/* only interrupt 13 freezes: timer interrupt, exception 13 do not */
	mk(&c, NULL, all);
	CHECK_EQ(ctr_trap(&c, U, S, 0x108, 0x8000, INTR(5), 1), 1, "timer recorded");
	CHECK_EQ(ctr_trap(&c, U, S, 0x108, 0x8000, 13, 2), 1, "load page fault recorded");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 2, "not frozen");
	/* direct call and software freeze */
	CHECK_EQ(ctr_freeze_lcofi(&c), true, "ctr_freeze_lcofi with LCOFIFRZ");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000002, "frozen");
	mk(&c, NULL, CTRCTL_U);
	CHECK_EQ(ctr_freeze_lcofi(&c), false, "ctr_freeze_lcofi without LCOFIFRZ");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 0x80000000);
	CHECK_EQ(tx(&c, U, CTR_TYPE_TKBR, 0x100, 0x200, 1), 0, "software freeze");
}

/* §11: breakpoint exception (cause 3) with BPFRZ */
void test_freeze_bp(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_BPFRZ);
	tx(&c, U, CTR_TYPE_TKBR, 0x100, 0x200, 1);
	CHECK_EQ(ctr_trap(&c, U, S, 0x200, 0x8000, 3, 2), 0, "ebreak not recorded");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000001, "FROZEN");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x101, "buffer kept");
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_BPFRZ);
	CHECK_EQ(ctr_trap(&c, U, S, 0x200, 0x8000, INTR(3), 2), 1, "interrupt 3 is no breakpoint");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 1, "not frozen");
	mk(&c, NULL, CTRCTL_U | CTRCTL_S);
	CHECK_EQ(ctr_trap(&c, U, S, 0x200, 0x8000, 3, 2), 1, "ebreak without BPFRZ");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 1, "as an exception");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 1, "not frozen");
	CHECK_EQ(ctr_freeze_bp(&c), false, "ctr_freeze_bp without BPFRZ");
}

static void cce0(struct ctr_config *f) { f->cce_bits = 0; }
static void no_cycles(struct ctr_config *f) { f->cycles = false; f->cce_bits = 0; }

/* §10: CC = active cycles since the previous record; CCV rules */
void test_cycles(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_M);
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 1000);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x5, "first after mctrctl write: CCV 0");
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 1050);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x328005, "50 cycles: CCM 0x32");
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 6050);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x13888005, "5000 cycles: CC 0x1388");
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 1006050);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x8E848005, "1000000 cycles: CC 0x8E84");
	/* cycles in a disabled mode are not counted: 100 in U, S time skipped, 20 in U */
	mk(&c, NULL, CTRCTL_U);
	tx(&c, U, CTR_TYPE_TKBR, 0x100, 0x200, 100);
	CHECK_EQ(ctr_trap(&c, U, S, 0x200, 0x8000, 8, 200), 0, "ecall not recorded");
	CHECK_EQ(ctr_transfer(&c, S, U, 0x8100, 0x204, CTR_TYPE_TRET, 0, 5000), 0,
		 "sret not recorded");
	tx(&c, U, CTR_TYPE_TKBR, 0x204, 0x300, 5020);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x788005, "120 active cycles (0x78)");
	/* writes to sctrctl, SCTRCLR: next CCV 0; a WRPTR-only status write: not */
	tx(&c, U, CTR_TYPE_TKBR, 0x204, 0x300, 5030);
	CHECK_EQ(ct_ent(&c, 0, 3), 0xA8005, "10 cycles");
	ct_wr(&c, S, CTR_CSR_SCTRCTL, CTRCTL_U);
	tx(&c, U, CTR_TYPE_TKBR, 0x204, 0x300, 5040);
	CHECK_EQ(ct_ent(&c, 0, 3) & CCV, 0, "after an sctrctl write");
	tx(&c, U, CTR_TYPE_TKBR, 0x204, 0x300, 5050);
	CHECK_EQ(ct_ent(&c, 0, 3), 0xA8005, "valid again");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 7);
	tx(&c, U, CTR_TYPE_TKBR, 0x204, 0x300, 5060);
	CHECK_EQ(ct_ent(&c, 0, 3), 0xA8005, "WRPTR write keeps CCV");
	CHECK_EQ(ctr_sctrclr(&c, M), CTR_OK, "SCTRCLR");
	tx(&c, U, CTR_TYPE_TKBR, 0x204, 0x300, 5070);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x5, "after SCTRCLR: CCV 0, CC 0");
	/* no CCE bits: 5000 saturates CCM */
	mk(&c, cce0, CTRCTL_M);
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 0);
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 5000);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x0FFF8005, "saturated with 0 CCE bits");
	mk(&c, no_cycles, CTRCTL_M);
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 0);
	tx(&c, M, CTR_TYPE_TKBR, 0x100, 0x200, 5000);
	CHECK_EQ(ct_ent(&c, 0, 3), 0x5, "no cycle counting");
}

/* §9: calls push, returns pop, swaps overwrite, the rest inhibited */
void test_rasemu(void)
{
	struct ctr c;
	/* DIRCALLINH and NTBREN are set to show filters are ignored */
	mk(&c, NULL, CTRCTL_U | CTRCTL_S | CTRCTL_M | CTRCTL_RASEMU |
	   CTRCTL_DIRCALLINH | CTRCTL_NTBREN);
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);
	CHECK_EQ(tx(&c, M, CTR_TYPE_DIRCALL, 0x100, 0x1000, 1), 1, "call A");
	CHECK_EQ(tx(&c, M, CTR_TYPE_INDCALL, 0x1010, 0x2000, 2), 1, "call B");
	CHECK_EQ(wrptr(&c), 2, "two pushed");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x1011, "logical 0 = B");
	CHECK_EQ(ct_ent(&c, 1, 1), 0x101, "logical 1 = A");
	static const enum ctr_type others[9] = { 3, 4, 5, 10, 11, 14, 15, 1, 2 };
	for (unsigned i = 0; i < 9; i++)
		CHECK(tx(&c, M, others[i], 0x2000, 0x2100, 3) == 0, "type %d inhibited", others[i]);
	CHECK_EQ(ctr_trap(&c, M, M, 0x2000, 0x80000000, 8, 3), 0, "trap inhibited");
	CHECK_EQ(wrptr(&c), 2, "nothing else recorded");
	CHECK_EQ(tx(&c, M, CTR_TYPE_RET, 0x2010, 0x1014, 4), 1, "return pops");
	CHECK_EQ(wrptr(&c), 1, "WRPTR decremented");
	CHECK_EQ(c.e[1].source, 0x1010, "popped entry V cleared, PC kept");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x101, "logical 0 = A");
	CHECK_EQ(ct_ent(&c, 15, 1), 0x1010, "old logical 0 is logical depth-1");
	CHECK_EQ(tx(&c, M, CTR_TYPE_CORSWAP, 0x1020, 0x3000, 5), 1, "swap");
	CHECK_EQ(wrptr(&c), 1, "swap keeps WRPTR");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x1021, "swap overwrote logical 0");
	CHECK_EQ(ct_ent(&c, 0, 3) & 0xf, 12, "TYPE co-routine swap");
	/* mode enables still apply */
	mk(&c, NULL, CTRCTL_M | CTRCTL_RASEMU);
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);
	tx(&c, M, CTR_TYPE_DIRCALL, 0x100, 0x1000, 1);
	CHECK_EQ(tx(&c, U, CTR_TYPE_RET, 0x1010, 0x104, 2), 0, "return in an off mode");
	CHECK_EQ(tx(&c, U, CTR_TYPE_DIRCALL, 0x1010, 0x104, 2), 0, "call in an off mode");
	CHECK_EQ(wrptr(&c), 1, "stack unchanged");
	/* overflow: 18 calls in 16 entries lose the 2 oldest; 18 returns wrap
	 * WRPTR back to 0 (2 - 18 = -16 = 0 mod 16) and leave all invalid */
	mk(&c, NULL, CTRCTL_M | CTRCTL_RASEMU);
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);
	for (unsigned i = 0; i < 18; i++)
		tx(&c, M, CTR_TYPE_DIRCALL, 0x10000 + 0x100 * i, 0x20000, i);
	CHECK_EQ(wrptr(&c), 2, "WRPTR after 18 pushes");
	for (unsigned x = 0; x < 16; x++)
		CHECK_EQ(ct_ent(&c, x, 1), 0x10001 + 0x100 * (17 - x), "stack contents");
	tx(&c, M, CTR_TYPE_RET, 0x30000, 0x20004, 20);
	tx(&c, M, CTR_TYPE_RET, 0x30000, 0x20004, 21);
	CHECK_EQ(wrptr(&c), 0, "after 2 pops");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x10001 + 0x100 * 15, "logical 0 = call 15");
	for (unsigned i = 2; i < 18; i++)
		tx(&c, M, CTR_TYPE_RET, 0x30000, 0x20004, 20 + i);
	CHECK_EQ(wrptr(&c), 0, "WRPTR after 18 pops");
	for (unsigned p = 0; p < 16; p++)
		CHECK_EQ(c.e[p].source & 1, 0, "all entries invalid");
	/* external trap enables are ignored too */
	mk(&c, NULL, CTRCTL_U | CTRCTL_RASEMU | CTRCTL_STE | CTRCTL_MTE);
	CHECK_EQ(ctr_trap(&c, U, M, 0x100, 0x80000000, 8, 1), 0, "no external trap record");
}

/* §9 cycle counts: a pop adds the popped call's CC to the counter */
void test_rasemu_cycles(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_M | CTRCTL_RASEMU);
	tx(&c, M, CTR_TYPE_DIRCALL, 0x100, 0x1000, 10);          /* A: CCV 0 */
	CHECK_EQ(ct_ent(&c, 0, 3), 0x9, "A: first record, CCV 0");
	tx(&c, M, CTR_TYPE_DIRCALL, 0x1010, 0x2000, 30);         /* B: 20 */
	CHECK_EQ(ct_ent(&c, 0, 3), 0x148009, "B: 20 cycles (0x14)");
	tx(&c, M, CTR_TYPE_RET, 0x2010, 0x1014, 100);            /* pop B: 70 + 20 */
	tx(&c, M, CTR_TYPE_DIRCALL, 0x1020, 0x3000, 110);        /* C: 90 + 10 */
	CHECK_EQ(ct_ent(&c, 0, 3), 0x648009, "C: 100 cycles since A (0x64)");
	tx(&c, M, CTR_TYPE_RET, 0x3010, 0x1024, 120);            /* pop C */
	tx(&c, M, CTR_TYPE_RET, 0x1030, 0x104, 130);             /* pop A: its CCV 0 */
	tx(&c, M, CTR_TYPE_DIRCALL, 0x110, 0x4000, 140);
	CHECK_EQ(ct_ent(&c, 0, 3) & CCV, 0, "D after popping a CCV 0 entry");
	/* swap = pop + push: CC is the popped CC plus cycles since it */
	mk(&c, NULL, CTRCTL_M | CTRCTL_RASEMU);
	tx(&c, M, CTR_TYPE_DIRCALL, 0x100, 0x1000, 0);
	tx(&c, M, CTR_TYPE_DIRCALL, 0x1010, 0x2000, 50);         /* 50 */
	tx(&c, M, CTR_TYPE_CORSWAP, 0x2010, 0x3000, 80);         /* 50 + 30 */
	CHECK_EQ(ct_ent(&c, 0, 3), 0x50800C, "swap: 80 cycles (0x50), TYPE 12");
	CHECK_EQ(wrptr(&c), 2, "WRPTR");
}

/* §12: SCTRCLR zeroes entries of every depth, keeps WRPTR and FROZEN */
void test_sctrclr(void)
{
	struct ctr c;
	mk(&c, NULL, CTRCTL_M);
	for (unsigned i = 0; i < 5; i++)
		tx(&c, M, CTR_TYPE_TKBR, 0x100 + 4 * i, 0x200, i);
	ct_went(&c, 200, 1, 0x7777);
	ct_went(&c, 200, 3, 0x5);
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 0);
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 0x80000005);
	CHECK_EQ(ctr_sctrclr(&c, U), CTR_ILLEGAL, "U");
	CHECK_EQ(ct_ent(&c, 0, 1), 0x111, "illegal SCTRCLR cleared nothing");
	CHECK_EQ(ctr_sctrclr(&c, S), CTR_OK, "S");
	CHECK_EQ(ct_rdm(&c, CTR_CSR_SCTRSTATUS), 0x80000005, "WRPTR and FROZEN unchanged");
	ct_wrm(&c, CTR_CSR_SCTRDEPTH, 4);
	for (unsigned x = 0; x < 256; x++)
		for (unsigned n = 1; n <= 3; n++)
			CHECK_EQ(ct_ent(&c, x, n), 0, "entry cleared");
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, 5);
	tx(&c, M, CTR_TYPE_TKBR, 0x300, 0x400, 100);
	CHECK_EQ(ct_ent(&c, 0, 1), 0x301, "records after SCTRCLR");
	CHECK_EQ(ct_ent(&c, 0, 3), 0x5, "first record CCV 0");
	CHECK_EQ(ct_ent(&c, 1, 1), 0, "older entries still 0");
}

/* the host tool's read-out: valid entries, newest first */
void test_read_records(void)
{
	struct ctr c;
	struct ctr_record r[8];
	mk(&c, NULL, CTRCTL_M);
	ctr_transfer(&c, M, M, 0x100, 0x200, CTR_TYPE_TKBR, 1, 0);
	ctr_transfer(&c, M, M, 0x204, 0x400, CTR_TYPE_DIRCALL, 0, 40);
	ctr_transfer(&c, M, M, 0x410, 0x208, CTR_TYPE_RET, 0, 5040);
	ct_wrm(&c, CTR_CSR_SCTRSTATUS, CTRSTATUS_FROZEN | 3);
	CHECK_EQ(ctr_read_records(&c, r, 8), 3, "three records");
	CHECK(r[0].from == 0x410 && r[0].to == 0x208 && r[0].type == CTR_TYPE_RET &&
	      !r[0].misp && r[0].ccv && r[0].cycles == 5000, "newest record");
	CHECK(r[1].from == 0x204 && r[1].to == 0x400 && r[1].type == CTR_TYPE_DIRCALL &&
	      r[1].ccv && r[1].cycles == 40, "second record");
	CHECK(r[2].from == 0x100 && r[2].to == 0x200 && r[2].type == CTR_TYPE_TKBR &&
	      r[2].misp && !r[2].ccv, "oldest record");
	CHECK_EQ(ctr_read_records(&c, r, 2), 2, "limited to max");
	CHECK_EQ(r[1].from, 0x204, "max keeps the newest");
	/* RASEMU: the popped entry is skipped */
	mk(&c, NULL, CTRCTL_M | CTRCTL_RASEMU);
	tx(&c, M, CTR_TYPE_DIRCALL, 0x100, 0x1000, 0);
	tx(&c, M, CTR_TYPE_DIRCALL, 0x1010, 0x2000, 1);
	tx(&c, M, CTR_TYPE_RET, 0x2010, 0x1014, 2);
	CHECK_EQ(ctr_read_records(&c, r, 8), 1, "one live call");
	CHECK_EQ(r[0].from, 0x100, "call A");
}
