/* ctr-csr: the Smctr/Ssctr CSRs and entry registers as software sees
 * them: which mctrctl/sctrctl bits exist, sctrdepth and sctrstatus WARL
 * rules, entry access through siselect 0x200-0x2FF, SCTRCLR, access from
 * S and U (illegal instruction, cause 2, where the spec forbids it). See
 * docs/ctr-coverage.md "Bare-metal checks". */
#include "ctr.h"

static int ck;			/* check number */
#define CHK(what, got, want) rt_eq(++ck, what, got, want)
#define CHK_TRAP(what, pc, cause, tval) rt_check_trap(++ck, what, pc, cause, tval)
#define CHK_NOTRAP(what) rt_check_notrap(++ck, what)

/* CSR instruction encodings for mtval (Zicsr): csrrs rd, csr, x0 and
 * csrrw x0, csr, t1 as TRY writes them */
#define RD_T0(csr) ENC_CSR(2, 5, 0, csr)
#define WR_T1(csr) ENC_CSR(1, 0, 6, csr)

static u64 entry_marks;		/* what M wrote into logical 0 for S to read */

static long s_access(long arg)
{
	(void)arg;
	u64 pc = TRY("csrr t0, 0x34e");
	CHK_TRAP("S: csrr mctrctl -> illegal instruction", pc, 2, RD_T0(0x34e));
	pc = TRY("csrw 0x34e, t1", "r"(0ul));
	CHK_TRAP("S: csrw mctrctl -> illegal instruction", pc, 2, WR_T1(0x34e));
	TRY("csrr t0, 0x24e");
	CHK_NOTRAP("HS: csrr vsctrctl allowed (the virt core has H)");
	/* without Smstateen nothing gates S (ratified Smctr: state enable
	 * applies "when Smstateen is implemented") */
	TRY("csrr t0, 0x14e");
	CHK_NOTRAP("S: csrr sctrctl allowed");
	csrw(CSR_SCTRCTL, C_U | C_STE);
	TRY("csrr t0, 0x14f");
	CHK_NOTRAP("S: csrr sctrstatus allowed");
	TRY("csrr t0, 0x15f");
	CHK_NOTRAP("S: csrr sctrdepth allowed");
	csrw(CSR_SISELECT, 0x200);
	TRY("csrr t0, 0x151");
	CHK_NOTRAP("S: sireg at siselect 0x200 allowed");
	CHK("S: sireg at 0x200 reads the ctrsource M wrote", ent(0, 1), entry_marks);
	asm volatile(SCTRCLR ::: "memory");
	CHK("S: SCTRCLR executes in S and clears logical 0", ent(0, 1), 0);
	return (long)csrr(CSR_SCTRCTL);
}

static long u_access(long arg)
{
	(void)arg;
	static const u32 csrs_[] = {0x14e, 0x14f, 0x15f, 0x34e, 0x150, 0x151, 0x152, 0x153};
	static const char *const names[] = {
		"U: csrr sctrctl -> illegal", "U: csrr sctrstatus -> illegal",
		"U: csrr sctrdepth -> illegal", "U: csrr mctrctl -> illegal",
		"U: csrr siselect -> illegal", "U: csrr sireg -> illegal",
		"U: csrr sireg2 -> illegal", "U: csrr sireg3 -> illegal",
	};
	for (unsigned i = 0; i < sizeof(csrs_) / sizeof(csrs_[0]); i++) {
		u64 pc;
		switch (i) {
		case 0: pc = TRY("csrr t0, 0x14e"); break;
		case 1: pc = TRY("csrr t0, 0x14f"); break;
		case 2: pc = TRY("csrr t0, 0x15f"); break;
		case 3: pc = TRY("csrr t0, 0x34e"); break;
		case 4: pc = TRY("csrr t0, 0x150"); break;
		case 5: pc = TRY("csrr t0, 0x151"); break;
		case 6: pc = TRY("csrr t0, 0x152"); break;
		default: pc = TRY("csrr t0, 0x153"); break;
		}
		CHK_TRAP(names[i], pc, 2, RD_T0(csrs_[i]));
	}
	u64 pc = TRY("csrw 0x14e, t1", "r"(C_U));
	CHK_TRAP("U: csrw sctrctl -> illegal", pc, 2, WR_T1(0x14e));
	pc = TRY(SCTRCLR);
	CHK_TRAP("U: SCTRCLR -> illegal", pc, 2, SCTRCLR_INSN);
	return 0;
}

static void mctrctl_fields(void)
{
	/* each bit alone: exactly the implemented fields are writable; WPRI
	 * and Custom[3:0] read 0 */
	u64 bad = 0, got_all;
	for (int b = 0; b < 64; b++) {
		csrw(CSR_MCTRCTL, 1ul << b);
		if (csrr(CSR_MCTRCTL) != ((1ul << b) & C_ALL))
			bad |= 1ul << b;
	}
	CHK("mctrctl: each bit alone reads back iff it is a field (mask of wrong bits)", bad, 0);
	csrw(CSR_MCTRCTL, ~0ul);
	got_all = csrr(CSR_MCTRCTL);
	CHK("mctrctl: write ~0 reads the field mask", got_all, C_ALL);
	CHK("mctrctl: mandatory U, S, M, BPFRZ writable", got_all & (C_U | C_S | C_M | C_BPFRZ),
	    C_U | C_S | C_M | C_BPFRZ);
	CHK("mctrctl: LCOFIFRZ writable (required with Sscofpmf)", got_all & C_LCOFIFRZ, C_LCOFIFRZ);
	CHK("mctrctl: WPRI 6:3, 10, 32:13, 39:38, 59:48 read 0",
	    got_all & (0x78ul | 0x400ul | 0x1ffffe000ul | (3ul << 38) | (0xffful << 48)), 0);
	CHK("mctrctl: Custom[3:0] (63:60) read 0 (no custom extension)", got_all >> 60, 0);
	csrc(CSR_MCTRCTL, C_S | C_NTBREN);
	CHK("mctrctl: csrc clears only the given bits", csrr(CSR_MCTRCTL), C_ALL & ~(C_S | C_NTBREN));
	csrw(CSR_MCTRCTL, 0);
	csrs(CSR_MCTRCTL, C_M | C_RASEMU);
	CHK("mctrctl: csrs sets only the given bits", csrr(CSR_MCTRCTL), C_M | C_RASEMU);

	/* sctrctl: the same register with M (2) and MTE (9) read-only 0 */
	csrw(CSR_MCTRCTL, 0);
	csrw(CSR_SCTRCTL, ~0ul);
	CHK("sctrctl: write ~0 reads the fields except M and MTE", csrr(CSR_SCTRCTL), C_ALL & ~(C_M | C_MTE));
	CHK("sctrctl: the write reached mctrctl, M and MTE untouched (0)", csrr(CSR_MCTRCTL),
	    C_ALL & ~(C_M | C_MTE));
	csrw(CSR_MCTRCTL, C_M | C_MTE | C_U);
	CHK("sctrctl: M and MTE of mctrctl read 0 through sctrctl", csrr(CSR_SCTRCTL), C_U);
	csrw(CSR_SCTRCTL, 0);
	CHK("sctrctl: writing 0 keeps mctrctl.M and MTE", csrr(CSR_MCTRCTL), C_M | C_MTE);
	csrw(CSR_MCTRCTL, 0);
	TRY("csrr t0, 0x24e");
	CHK_NOTRAP("vsctrctl (H) readable in M");
}

static void depth_status(void)
{
	/* sctrdepth: every depth 16..256 exists on virt (docs: depths
	 * 0..4); reserved 5..7 legalise to 4 (largest depth not above) */
	static const u64 want[8] = {0, 1, 2, 3, 4, 4, 4, 4};
	u64 bad = 0;
	for (int v = 0; v < 8; v++) {
		csrw(CSR_SCTRDEPTH, v);
		if (csrr(CSR_SCTRDEPTH) != want[v])
			bad |= 1ul << v;
	}
	CHK("sctrdepth: 0..4 kept, reserved 5..7 -> 4 (mask of wrong values)", bad, 0);
	csrw(CSR_SCTRDEPTH, ~0ul & ~7ul);
	CHK("sctrdepth: bits 63:3 read 0 (write ~7 -> DEPTH 0)", csrr(CSR_SCTRDEPTH), 0);
	csrw(CSR_SCTRDEPTH, 0xfffffff8ul | 2);
	CHK("sctrdepth: WPRI 31:3 read 0", csrr(CSR_SCTRDEPTH), 2);

	/* sctrstatus: WRPTR bits above depth-1 read-only 0 */
	bad = 0;
	for (int e = 0; e <= 4; e++) {
		csrw(CSR_SCTRDEPTH, e);
		csrw(CSR_SCTRSTATUS, 0xff);
		if (csrr(CSR_SCTRSTATUS) != (16ul << e) - 1)
			bad |= 1ul << e;
	}
	CHK("sctrstatus: WRPTR = 0xff reads depth-1 at each depth (mask of wrong depths)", bad, 0);
	csrw(CSR_SCTRDEPTH, 4);
	csrw(CSR_SCTRSTATUS, 0x7fffff00ul | (0xfffffffful << 32));
	CHK("sctrstatus: bits 30:8 and 63:32 read 0", csrr(CSR_SCTRSTATUS), 0);
	csrw(CSR_SCTRSTATUS, ST_FROZEN | 0xab);
	CHK("sctrstatus: FROZEN and WRPTR writable", csrr(CSR_SCTRSTATUS), ST_FROZEN | 0xab);
	csrw(CSR_SCTRDEPTH, 0);
	CHK("sctrstatus: after a depth change WRPTR is legal (< 16)", csrr(CSR_SCTRSTATUS) & ~ST_FROZEN & ~0xful, 0);
	csrw(CSR_SCTRSTATUS, 0);
}

static void entries(void)
{
	ctr_reset(4);
	ent_write(0, ~0ul, ~0ul, ~0ul);
	CHK("ctrsource: all 64 bits writable (PC and V)", ent(0, 1), ~0ul);
	CHK("ctrtarget: all 64 bits writable (PC and MISP)", ent(0, 2), ~0ul);
	CHK("ctrdata: TYPE, CCV, CC[15:0] writable, WPRI 14:4 and 63:32 read 0", ent(0, 3),
	    D_TYPE | D_CCV | 0xffff0000ul);
	ent_write(0, 0, 0, 6);
	CHK("ctrdata: reserved TYPE 6 -> 0", ent(0, 3), 0);
	ent_write(0, 0, 0, 7 | D_CCV);
	CHK("ctrdata: reserved TYPE 7 -> 0", ent(0, 3), D_CCV);
	csrw(CSR_SISELECT, 0x200);
	csrw(CSR_SIREG4, ~0ul);
	csrw(CSR_SIREG5, ~0ul);
	csrw(CSR_SIREG6, ~0ul);
	CHK("sireg4/5/6 at 0x200 read 0 (no trap)", csrr(CSR_SIREG4) | csrr(CSR_SIREG5) | csrr(CSR_SIREG6), 0);

	/* logical X = physical (WRPTR - X - 1) mod depth: write at WRPTR 5,
	 * read at WRPTR 6, so logical X now shows what was logical X-1 */
	ctr_reset(0);
	csrw(CSR_SCTRSTATUS, 5);
	for (unsigned x = 0; x < 16; x++)
		ent_write(x, 0x80001000ul + 8 * x, 0x80002000ul + 8 * x, (u64)x << 16);
	csrw(CSR_SCTRSTATUS, 6);
	u64 bad = 0;
	for (unsigned x = 0; x < 16; x++) {
		unsigned was = (x + 15) % 16;
		if (ent(x, 1) != 0x80001000ul + 8 * was || ent(x, 2) != 0x80002000ul + 8 * was ||
		    ent(x, 3) != (u64)was << 16)
			bad |= 1ul << x;
	}
	CHK("logical entries rotate with WRPTR (mask of wrong entries)", bad, 0);
	/* entries at or above depth: read 0, writes ignored */
	bad = 0;
	static const unsigned far[] = {16, 17, 100, 255};
	for (unsigned i = 0; i < 4; i++) {
		ent_write(far[i], ~0ul, ~0ul, 5);
		if (ent(far[i], 1) | ent(far[i], 2) | ent(far[i], 3))
			bad |= 1ul << i;
	}
	CHK("depth 16: logical 16, 17, 100, 255 read 0 after writes", bad, 0);
	bad = 0;
	for (unsigned x = 0; x < 16; x++)
		if (ent(x, 3) != (u64)((x + 15) % 16) << 16)
			bad |= 1ul << x;
	CHK("depth 16: those writes did not reach entries 0..15", bad, 0);

	/* SCTRCLR zeroes every entry for all depths; WRPTR and FROZEN kept */
	ctr_reset(4);
	for (unsigned x = 0; x < 256; x++)
		ent_write(x, 0x80000000ul + 4 * x, 0x90000000ul + 4 * x, 5);
	csrw(CSR_SCTRDEPTH, 0);
	csrw(CSR_SCTRSTATUS, ST_FROZEN | 7);
	asm volatile(SCTRCLR ::: "memory");
	CHK("SCTRCLR: WRPTR and FROZEN unchanged (model choice)", csrr(CSR_SCTRSTATUS), ST_FROZEN | 7);
	csrw(CSR_SCTRDEPTH, 4);
	bad = 0;
	for (unsigned x = 0; x < 256; x++)
		if (ent(x, 1) | ent(x, 2) | ent(x, 3))
			bad++;
	CHK("SCTRCLR at depth 16: all 256 entries read 0 at depth 256 (count nonzero)", bad, 0);
	csrw(CSR_SCTRSTATUS, 0);
}

int main(void)
{
	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);
	CHK("device tree lists smctr", rt_fdt_has_ext("smctr"), 1);
	CHK("device tree lists ssctr", rt_fdt_has_ext("ssctr"), 1);
	CHK("misa.H = 1 (vsctrctl exists)", (csrr(misa) >> 7) & 1, 1);
	mctrctl_fields();
	depth_status();
	entries();

	/* S and U access */
	ctr_reset(0);
	entry_marks = 0x80004444ul | CTR_V;
	ent_write(0, entry_marks, 0, 0);
	CHK("S: sctrctl written in S reached mctrctl", (u64)rt_run(PRV_S, s_access, 0), C_U | C_STE);
	csrw(CSR_MCTRCTL, 0);
	rt_run(PRV_U, u_access, 0);

	/* Smstateen: rvpmu has none, so mstateen0.CTR gating cannot apply */
	u64 pc = TRY("csrr t0, 0x30c");
	int no_stateen = rt_trap.count == 1 && rt_trap.cause == 2;
	CHK_TRAP("mstateen0 in M -> illegal (no Smstateen)", pc, 2, RD_T0(0x30c));
	if (no_stateen)
		rt_puts("SKIP mstateen0.CTR gating of S access: no Smstateen on this hart\n");

	/* a CTR CSR access retires like any CSR instruction, losing none of
	 * the instructions before it: read, 10 nops, csrr sctrctl, read */
	u64 a, b;
	asm volatile("csrr %0, minstret\n" NOPS(10) "csrr zero, 0x14e\n csrr %1, minstret"
		     : "=&r"(a), "=&r"(b) :: "memory");
	CHK("minstret across 10 nops and a CTR CSR read -> 12", b - a, 12);
	return rt_done();
}
