/* pmp-match: address matching (OFF, TOR, NA4, NAPOT), permissions from S
 * and U, priority, partial matches, sub-page holes, MPRV, fetches and
 * AMOs. No entry is locked. See docs/pmp-tests.md. */
#include "pmp.h"

static int n;
#define E(what, mode, probe, addr, cause) expect(++n, what, mode, probe, addr, cause)

static volatile u64 image_word = 0x1122334455667788ul;

/* no entry matches TA: S and U fail, M succeeds */
static void no_match(void)
{
	pmp_reset();
	put_ret(TA);
	E("no match: S ld -> 5", PRV_S, probe_ld, TA, C_LOAD);
	E("no match: U ld -> 5", PRV_U, probe_ld, TA, C_LOAD);
	E("no match: S sd -> 7", PRV_S, probe_sd, TA + 8, C_STORE);
	E("no match: U sw -> 7", PRV_U, probe_sw, TA + 8, C_STORE);
	E("no match: S fetch -> 1", PRV_S, probe_jmp, TA, C_FETCH);
	E("no match: M ld ok", PRV_M, probe_ld, TA + 8, 0);
	E("no match: M sd ok", PRV_M, probe_sd, TA + 8, 0);
	E("image entry: S ld ok", PRV_S, probe_ld, (u64)&image_word, 0);
	E("image entry: U ld ok", PRV_U, probe_ld, (u64)&image_word, 0);
	rt_eq(++n, "image word kept", image_word, 0x1122334455667788ul);
}

/* one permission at a time on NAPOT TA + 4 KiB, from S and from U */
static void perms(void)
{
	static const int modes[] = {PRV_S, PRV_U};
	for (int m = 0; m < 2; m++) {
		int md = modes[m];
		int s = md == PRV_S;
		pmp_reset();
		put_ret(TA + 0x100);
		pmp_set(0, PMP_NAPOT | PMP_R, NAPOT(TA, 0x1000));
		E(s ? "R: S ld ok" : "R: U ld ok", md, probe_ld, TA + 0x10, 0);
		E(s ? "R: S sd -> 7" : "R: U sd -> 7", md, probe_sd, TA + 0x10, C_STORE);
		E(s ? "R: S fetch -> 1" : "R: U fetch -> 1", md, probe_jmp, TA + 0x100, C_FETCH);
		pmp_cfg(0, PMP_NAPOT | PMP_X);
		E(s ? "X: S ld -> 5" : "X: U ld -> 5", md, probe_ld, TA + 0x10, C_LOAD);
		E(s ? "X: S sd -> 7" : "X: U sd -> 7", md, probe_sd, TA + 0x10, C_STORE);
		E(s ? "X: S fetch ok" : "X: U fetch ok", md, probe_jmp, TA + 0x100, 0);
		/* W alone is reserved: it reads back, and acts, as no access */
		pmp_cfg(0, PMP_NAPOT | PMP_W);
		rt_eq(++n, "W alone: pmpcfg reads back with R and W clear", pmp_cfg_get(0),
		      PMP_NAPOT);
		E(s ? "W alone: S ld -> 5" : "W alone: U ld -> 5", md, probe_ld, TA + 0x10,
		  C_LOAD);
		E(s ? "W alone: S sd -> 7" : "W alone: U sd -> 7", md, probe_sd, TA + 0x10,
		  C_STORE);
		pmp_cfg(0, PMP_NAPOT | PMP_R | PMP_W);
		E(s ? "RW: S sd ok" : "RW: U sd ok", md, probe_sd, TA + 0x10, 0);
		E(s ? "RW: S ld ok" : "RW: U ld ok", md, probe_ld, TA + 0x10, 0);
		E(s ? "RW: S fetch -> 1" : "RW: U fetch -> 1", md, probe_jmp, TA + 0x100,
		  C_FETCH);
		pmp_cfg(0, PMP_NAPOT);
		E(s ? "none: S ld -> 5" : "none: U ld -> 5", md, probe_ld, TA + 0x10, C_LOAD);
	}
	/* an unlocked entry does not restrict M */
	E("none: M ld ok", PRV_M, probe_ld, TA + 0x10, 0);
	E("none: M sd ok", PRV_M, probe_sd, TA + 0x10, 0);
	E("none: M fetch ok", PRV_M, probe_jmp, TA + 0x100, 0);
}

static void tor(void)
{
	/* entry 0 TOR: [0, TA + 0x1000); it covers the image too, so RX */
	pmp_reset();
	pmp_set(0, PMP_TOR | PMP_R | PMP_X, (TA + 0x1000) >> 2);
	E("TOR entry 0 from 0: S ld at TA ok", PRV_S, probe_ld, TA, 0);
	E("TOR entry 0 from 0: S ld at top - 8 ok", PRV_S, probe_ld, TA + 0xff8, 0);
	E("TOR entry 0 from 0: S ld at top -> 5 (no match)", PRV_S, probe_ld, TA + 0x1000,
	  C_LOAD);
	E("TOR entry 0 from 0: S sd -> 7 (no W)", PRV_S, probe_sd, TA + 0x800, C_STORE);
	E("TOR entry 0 from 0: U ld low address in image ok", PRV_U, probe_ld,
	  (u64)&image_word, 0);
	E("TOR entry 0 from 0: M sd ok", PRV_M, probe_sd, TA + 0x800, 0);
	/* entry 1 TOR above an OFF entry 0: [pmpaddr0, pmpaddr1) */
	pmp_reset();
	pmp_addr(0, (TA + 0x100) >> 2);
	pmp_set(1, PMP_TOR | PMP_R | PMP_W, (TA + 0x200) >> 2);
	E("TOR [TA+0x100, TA+0x200): S ld at bottom ok", PRV_S, probe_ld, TA + 0x100, 0);
	E("TOR: S sd at top - 8 ok", PRV_S, probe_sd, TA + 0x1f8, 0);
	E("TOR: S ld at bottom - 8 -> 5", PRV_S, probe_ld, TA + 0xf8, C_LOAD);
	E("TOR: S ld at top -> 5", PRV_S, probe_ld, TA + 0x200, C_LOAD);
	E("TOR: U lw at bottom - 4 -> 5", PRV_U, probe_lw, TA + 0xfc, C_LOAD);
	/* a top that is 4 but not 8 aligned: an aligned ld straddles it */
	pmp_addr(1, (TA + 0x204) >> 2);
	E("TOR top TA+0x204: S lw at TA+0x200 ok", PRV_S, probe_lw, TA + 0x200, 0);
	E("TOR top TA+0x204: S lw at TA+0x204 -> 5", PRV_S, probe_lw, TA + 0x204, C_LOAD);
	E("TOR top TA+0x204: S ld at TA+0x200 straddles -> 5", PRV_S, probe_ld, TA + 0x200,
	  C_LOAD);
	E("TOR top TA+0x204: S sd at TA+0x200 straddles -> 7", PRV_S, probe_sd, TA + 0x200,
	  C_STORE);
	/* pmpaddr(i-1) >= pmpaddr(i): the entry matches nothing */
	pmp_addr(0, (TA + 0x200) >> 2);
	pmp_addr(1, (TA + 0x100) >> 2);
	E("TOR with bottom >= top matches nothing: S ld -> 5", PRV_S, probe_ld, TA + 0x100,
	  C_LOAD);
	pmp_addr(0, (TA + 0x100) >> 2);
	E("TOR with bottom = top matches nothing: S ld -> 5", PRV_S, probe_ld, TA + 0x100,
	  C_LOAD);
}

static void na4(void)
{
	pmp_reset();
	pmp_set(0, PMP_NA4 | PMP_R, (TA + 0x40) >> 2);
	rt_eq(++n, "NA4: pmpaddr0 reads back", pmp_csrr(CSR_PMPADDR0), (TA + 0x40) >> 2);
	E("NA4 TA+0x40: S lw ok", PRV_S, probe_lw, TA + 0x40, 0);
	E("NA4: S lb at last byte ok", PRV_S, probe_lb, TA + 0x43, 0);
	E("NA4: S lw below -> 5", PRV_S, probe_lw, TA + 0x3c, C_LOAD);
	E("NA4: S lw above -> 5", PRV_S, probe_lw, TA + 0x44, C_LOAD);
	E("NA4: S lb above -> 5", PRV_S, probe_lb, TA + 0x44, C_LOAD);
	E("NA4: S ld covering it and 4 more bytes -> 5", PRV_S, probe_ld, TA + 0x40, C_LOAD);
	E("NA4: S sw -> 7 (R only)", PRV_S, probe_sw, TA + 0x40, C_STORE);
	E("NA4: U lw ok", PRV_U, probe_lw, TA + 0x40, 0);
}

static void napot_sizes(void)
{
	static const u64 bases[] = {TA + 0x80, TA + 0x100, TA + 0x1000, TA + 0x10000,
				    TA + 0x100000};
	static const u64 sizes[] = {8, 32, 0x1000, 0x10000, 0x100000};
	static const char *const names[][5] = {
		{"NAPOT 8: pmpaddr reads back", "NAPOT 8: S ld at base ok",
		 "NAPOT 8: S ld at end - 8 ok", "NAPOT 8: S ld at base - 8 -> 5",
		 "NAPOT 8: S ld at end -> 5"},
		{"NAPOT 32: pmpaddr reads back", "NAPOT 32: S ld at base ok",
		 "NAPOT 32: S ld at end - 8 ok", "NAPOT 32: S ld at base - 8 -> 5",
		 "NAPOT 32: S ld at end -> 5"},
		{"NAPOT 4K: pmpaddr reads back", "NAPOT 4K: S ld at base ok",
		 "NAPOT 4K: S ld at end - 8 ok", "NAPOT 4K: S ld at base - 8 -> 5",
		 "NAPOT 4K: S ld at end -> 5"},
		{"NAPOT 64K: pmpaddr reads back", "NAPOT 64K: S ld at base ok",
		 "NAPOT 64K: S ld at end - 8 ok", "NAPOT 64K: S ld at base - 8 -> 5",
		 "NAPOT 64K: S ld at end -> 5"},
		{"NAPOT 1M: pmpaddr reads back", "NAPOT 1M: S ld at base ok",
		 "NAPOT 1M: S ld at end - 8 ok", "NAPOT 1M: S ld at base - 8 -> 5",
		 "NAPOT 1M: S ld at end -> 5"},
	};
	for (int i = 0; i < 5; i++) {
		u64 b = bases[i], s = sizes[i];
		pmp_reset();
		pmp_set(0, PMP_NAPOT | PMP_R, NAPOT(b, s));
		rt_eq(++n, names[i][0], pmp_csrr(CSR_PMPADDR0), NAPOT(b, s));
		E(names[i][1], PRV_S, probe_ld, b, 0);
		E(names[i][2], PRV_S, probe_ld, b + s - 8, 0);
		E(names[i][3], PRV_S, probe_ld, b - 8, C_LOAD);
		E(names[i][4], PRV_S, probe_ld, b + s, C_LOAD);
	}
}

static void priority(void)
{
	pmp_reset();
	/* entry 0 NA4 no access inside entry 1 NAPOT RW */
	pmp_set(0, PMP_NA4, (TA + 0x20) >> 2);
	pmp_set(1, PMP_NAPOT | PMP_R | PMP_W, NAPOT(TA, 0x1000));
	E("priority: entry 0 (none) beats entry 1 (RW): S lw -> 5", PRV_S, probe_lw, TA + 0x20,
	  C_LOAD);
	E("priority: next word only in entry 1: S lw ok", PRV_S, probe_lw, TA + 0x24, 0);
	/* entry 0 R over entry 1 RW at the same word */
	pmp_set(0, PMP_NAPOT | PMP_R, NAPOT(TA, 0x1000));
	pmp_set(1, PMP_NA4 | PMP_R | PMP_W, (TA + 0x20) >> 2);
	E("priority: entry 0 (R) beats entry 1 (RW): S sw -> 7", PRV_S, probe_sw, TA + 0x20,
	  C_STORE);
	E("priority: S lw ok", PRV_S, probe_lw, TA + 0x20, 0);
	/* entry 0 RW matching half of an ld, entry 1 RW all of it: fails */
	pmp_set(0, PMP_NA4 | PMP_R | PMP_W, (TA + 0x30) >> 2);
	pmp_set(1, PMP_NAPOT | PMP_R | PMP_W, NAPOT(TA, 0x1000));
	E("partial match of entry 0 fails though entry 1 allows: S ld -> 5", PRV_S, probe_ld,
	  TA + 0x30, C_LOAD);
	E("same: S sd -> 7", PRV_S, probe_sd, TA + 0x30, C_STORE);
	E("same: U ld -> 5", PRV_U, probe_ld, TA + 0x30, C_LOAD);
	/* irrespective of L: M fails a partial match too */
	E("partial match: M ld -> 5", PRV_M, probe_ld, TA + 0x30, C_LOAD);
	E("partial match: M sd -> 7", PRV_M, probe_sd, TA + 0x30, C_STORE);
	E("full match of entry 0: S lw ok", PRV_S, probe_lw, TA + 0x34, 0);
	E("full match of entry 0: M lw ok", PRV_M, probe_lw, TA + 0x30, 0);
	/* a NAPOT boundary inside an aligned 8-byte word cannot happen (NAPOT
	 * >= 8); a TOR bottom can: entry 0 TOR [TA+0x44, TA+0x80) below
	 * entry 1 */
	pmp_reset();
	pmp_addr(0, (TA + 0x44) >> 2);
	pmp_set(1, PMP_TOR | PMP_R | PMP_W, (TA + 0x80) >> 2);
	E("TOR bottom TA+0x44: S ld at TA+0x40 straddles -> 5", PRV_S, probe_ld, TA + 0x40,
	  C_LOAD);
	E("TOR bottom TA+0x44: S lw at TA+0x44 ok", PRV_S, probe_lw, TA + 0x44, 0);
	E("TOR bottom TA+0x44: S ld at TA+0x48 ok", PRV_S, probe_ld, TA + 0x48, 0);
}

/* a 4-byte hole (no access) in an RW page, exact on both sides (fetches:
 * pmp-fetch) */
static void hole(void)
{
	const u64 h = TA + 0x810;
	pmp_reset();
	pmp_set(0, PMP_NA4, h >> 2);
	pmp_set(1, PMP_NAPOT | PMP_R | PMP_W, NAPOT(TA, 0x1000));
	E("hole: S lw just below ok", PRV_S, probe_lw, h - 4, 0);
	E("hole: S lb last byte below ok", PRV_S, probe_lb, h - 1, 0);
	E("hole: S lw -> 5", PRV_S, probe_lw, h, C_LOAD);
	E("hole: S lb last byte -> 5", PRV_S, probe_lb, h + 3, C_LOAD);
	E("hole: S sw -> 7", PRV_S, probe_sw, h, C_STORE);
	E("hole: S sb -> 7", PRV_S, probe_sb, h + 2, C_STORE);
	E("hole: S lw just above ok", PRV_S, probe_lw, h + 4, 0);
	E("hole: S sb just above ok", PRV_S, probe_sb, h + 4, 0);
	E("hole: S ld ending below ok", PRV_S, probe_ld, h - 8, 0);
	E("hole: S ld covering it -> 5", PRV_S, probe_ld, h, C_LOAD);
	E("hole: U lw -> 5", PRV_U, probe_lw, h, C_LOAD);
	E("hole: U sw just above ok", PRV_U, probe_sw, h + 4, 0);
	E("hole: M lw ok (unlocked)", PRV_M, probe_lw, h, 0);
}

static void mprv(void)
{
	pmp_reset();
	pmp_set(0, PMP_NAPOT | PMP_R, NAPOT(TA, 0x1000));
	const u64 ld_at = (u64)probe_mprv_ld_at, sd_at = (u64)probe_mprv_sd_at;
	rt_trap_clear();
	probe_mprv_ld((long)TA, PRV_S);
	rt_check_notrap(++n, "MPRV MPP=S: M ld from R entry ok");
	rt_trap_clear();
	probe_mprv_sd((long)TA, PRV_S);
	rt_check_trap(++n, "MPRV MPP=S: M sd to R entry -> 7", sd_at, C_STORE, TA);
	rt_trap_clear();
	probe_mprv_sd((long)TA, PRV_U);
	rt_check_trap(++n, "MPRV MPP=U: M sd to R entry -> 7", sd_at, C_STORE, TA);
	rt_trap_clear();
	probe_mprv_ld((long)(TA + 0x1000), PRV_S);
	rt_check_trap(++n, "MPRV MPP=S: M ld with no match -> 5", ld_at, C_LOAD, TA + 0x1000);
	rt_trap_clear();
	probe_mprv_sd((long)TA, PRV_M);
	rt_check_notrap(++n, "MPRV MPP=M: M sd ok");
	rt_eq(++n, "MPRV cleared afterwards", csrr(mstatus) & MSTATUS_MPRV, 0);
	E("MPRV=0: M sd ok", PRV_M, probe_sd, TA, 0);
}

static void amo(void)
{
	pmp_reset();
	pmp_set(0, PMP_NAPOT | PMP_R, NAPOT(TA, 0x1000));
	E("R: S amoadd.w -> 7", PRV_S, probe_amoadd_w, TA, C_STORE);
	E("R: S amoswap.d -> 7", PRV_S, probe_amoswap_d, TA + 8, C_STORE);
	E("R: U amoadd.w -> 7", PRV_U, probe_amoadd_w, TA, C_STORE);
	E("R: S lr.w ok", PRV_S, probe_lr_w, TA, 0);
	E("R: S lr.d ok", PRV_S, probe_lr_d, TA + 8, 0);
	pmp_cfg(0, PMP_NAPOT | PMP_X);
	E("X: S lr.w -> 5", PRV_S, probe_lr_w, TA, C_LOAD);
	E("X: U lr.d -> 5", PRV_U, probe_lr_d, TA + 8, C_LOAD);
	E("X: S amoadd.w -> 7", PRV_S, probe_amoadd_w, TA, C_STORE);
	pmp_cfg(0, PMP_NAPOT | PMP_R | PMP_W);
	*(volatile u32 *)TA = 5;
	E("RW: S amoadd.w ok", PRV_S, probe_amoadd_w, TA, 0);
	rt_eq(++n, "RW: amoadd.w added its address", *(volatile u32 *)TA, (u32)(5 + TA));
	E("RW: S lr.d ok", PRV_S, probe_lr_d, TA + 8, 0);
	/* SC with a valid reservation (lr.w just before) */
	rt_trap_clear();
	long r = rt_run(PRV_S, probe_lrsc_w, (long)TA);
	rt_check_notrap(++n, "RW: S lr.w + sc.w ok");
	rt_eq(++n, "RW: sc.w succeeded", r, 0);
	pmp_cfg(0, PMP_NAPOT | PMP_R);
	rt_trap_clear();
	rt_run(PRV_S, probe_lrsc_w, (long)TA);
	rt_check_trap(++n, "R: S lr.w ok, then sc.w -> 7", (u64)probe_lrsc_w_sc, C_STORE, TA);
	rt_trap_clear();
	rt_run(PRV_U, probe_lrsc_w, (long)TA);
	rt_check_trap(++n, "R: U lr.w ok, then sc.w -> 7", (u64)probe_lrsc_w_sc, C_STORE, TA);
}

int main(void)
{
	pmp_hooks();
	no_match();
	perms();
	tor();
	na4();
	napot_sizes();
	priority();
	hole();
	mprv();
	amo();
	return rt_done();
}
