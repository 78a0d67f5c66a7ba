/* h-vm: two-stage address translation. A G-stage Sv39x4 table maps guest
 * physical to physical addresses (identity gigapages for the image and
 * the devices, 4 KiB pages with chosen permissions), a VS-stage Sv39
 * table maps guest virtual addresses. HLV/HLVX/HSV from M, and code in
 * VS, check guest-page faults 20/21/23 with their tval, mtval2/htval (GPA
 * >> 2), mtinst/htinst and GVA, the implicit accesses of the VS-stage
 * walk, G-stage A/D updating, U/MXR/execute rules, and delegation of the
 * faults to HS and VS. See docs/bare-tests.md. */
#include "h.h"

#define PG 4096
#define ALL (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)
#define GPA_RO 0xc0000000ul     /* gl0[0]: U R (read-only) */
#define GPA_NOU 0xc0001000ul    /* gl0[1]: R W, no U */
#define GPA_XO 0xc0002000ul     /* gl0[2]: U X (execute-only) */
#define GPA_PTRO 0xc0003000ul   /* gl0[3]: U R, holding a VS-stage table */
#define GPA_NONE 0x100000000ul  /* groot[4] = 0: unmapped */
#define GPA_NOAD 0x200000000ul  /* groot[8]: gigapage onto 0x80000000, A = D = 0 */
#define VA_DATA 0x40000000ul    /* VS: -> data_page (S page) */
#define VA_RO 0x40001000ul      /* VS: writable -> GPA_RO */
#define VA_UNMAPPED 0x50000000ul

extern char rt_s_trap_entry[];
static u64 groot[2048] __attribute__((aligned(16384)));
static u64 gl1[512] __attribute__((aligned(PG)));
static u64 gl0[512] __attribute__((aligned(PG)));
static u64 vsroot[512] __attribute__((aligned(PG)));
static u64 vsl1[512] __attribute__((aligned(PG)));
static u64 vsl0[512] __attribute__((aligned(PG)));
static u64 data_page[512] __attribute__((aligned(PG)));
static u64 ro_page[512] __attribute__((aligned(PG)));
static u64 nou_page[512] __attribute__((aligned(PG)));
static u64 xo_page[512] __attribute__((aligned(PG)));
static u64 ptro_page[512] __attribute__((aligned(PG)));
static u64 word = 0x0123456789abcdeful;

/* before each access: no trap, no H values seen */
static void clear(void)
{
	rt_trap_clear();
	h_trap.tval2 = h_trap.tinst = h_trap.hstatus = ~0ul;
}

/* a load instruction INSN (HLV.D, HLVX.WU) of address a, from M */
#define HLOAD(insn, a) ({ u64 v_ = 0; clear(); \
	asm volatile(".option push\n.option norvc\n" H_INSN(insn " %0, (%1)") "\n.option pop" \
		     : "+r"(v_) : "r"((u64)(a)) : "memory"); v_; })
#define hlv_d(a) HLOAD("hlv.d", a)
#define hlvx_wu(a) HLOAD("hlvx.wu", a)

static void hsv_d(u64 a, u64 v)
{
	clear();
	asm volatile(".option push\n.option norvc\n" H_INSN("hsv.d %0, (%1)") "\n.option pop"
		     :: "r"(v), "r"(a) : "memory");
}

/* ld in M with mstatus.MPRV = 1, MPP = S, MPV = 1 (a trap's mret comes
 * back with MPP = M, so the handler's own accesses are M's) */
static u64 mprv_ld(u64 a)
{
	u64 v = 0, ms = csrr(mstatus);
	clear();
	csrw(mstatus, (ms & ~MSTATUS_MPP) | (1ul << 11) | MSTATUS_MPV);
	asm volatile(".option push\n.option norvc\ncsrs mstatus, %2\n ld %0, 0(%1)\n csrc mstatus, %2\n.option pop"
		     : "+r"(v) : "r"(a), "r"(MSTATUS_MPRV) : "memory");
	csrw(mstatus, ms);
	return v;
}

/* Checks n..n+3: one trap in M with cause, tval, mtval2, mtinst */
static void guest_fault(int n, const char *what, u64 cause, u64 tval, u64 tval2, u64 tinst)
{
	rt_check(n, what, rt_trap.count == 1 && rt_trap.cause == cause, rt_trap.cause, cause);
	rt_eq(n + 1, "  tval = the guest virtual address", rt_trap.tval, tval);
	rt_eq(n + 2, "  mtval2 = the guest physical address >> 2", h_trap.tval2, tval2);
	rt_eq(n + 3, "  mtinst", h_trap.tinst, tinst);
}

static void g_tables(void)
{
	groot[0] = PTE(0, ALL | PTE_U);
	groot[2] = PTE(0x80000000ul, ALL | PTE_U);
	groot[3] = PTE(gl1, PTE_V);
	groot[8] = PTE(0x80000000ul, PTE_V | PTE_R | PTE_W | PTE_X | PTE_U);
	gl1[0] = PTE(gl0, PTE_V);
	gl0[0] = PTE(ro_page, PTE_V | PTE_R | PTE_U | PTE_A | PTE_D);
	gl0[1] = PTE(nou_page, ALL & ~PTE_X);
	gl0[2] = PTE(xo_page, PTE_V | PTE_X | PTE_U | PTE_A);
	gl0[3] = PTE(ptro_page, PTE_V | PTE_R | PTE_U | PTE_A | PTE_D);
	ro_page[1] = 0x1111;
	nou_page[0] = 0x2222;
	xo_page[0] = 0x33333333;
	data_page[0] = 0x4444;
	/* VS-stage: VA_DATA, VA_RO (4 KiB), the image at 0x80000000 and a
	 * gigapage whose guest physical addresses the G-stage lacks */
	vsroot[0] = PTE(0, ALL);   /* the devices (the UART for the checks) */
	vsroot[1] = PTE(vsl1, PTE_V);
	vsroot[2] = PTE(0x80000000ul, ALL);
	vsroot[4] = PTE(GPA_NONE, ALL);
	vsl1[0] = PTE(vsl0, PTE_V);
	vsl0[0] = PTE(data_page, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
	vsl0[1] = PTE(GPA_RO, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
	/* in a page the G-stage makes read-only: a leaf without A */
	ptro_page[1] = PTE(0x80000000ul, PTE_V | PTE_R | PTE_W | PTE_X);
}

/* VS code under both stages */
static long vs_code(long arg)
{
	u64 v;
	(void)arg;
	v = *(volatile u64 *)VA_DATA;
	rt_eq(40, "VS: a load through both stages", v, 0x4444);
	clear();
	*(volatile u64 *)(VA_RO + 8) = 5;
	rt_eq(41, "VS: store to a G-stage read-only page -> 23 in M", rt_trap.cause, 23);
	rt_eq(42, "  tval = the guest virtual address", rt_trap.tval, VA_RO + 8);
	rt_eq(43, "  mtval2 = GPA >> 2", h_trap.tval2, (GPA_RO + 8) >> 2);
	rt_eq(44, "  mstatus.MPV = 1, GVA = 1", trap_status() & (MSTATUS_MPV | MSTATUS_GVA),
	      MSTATUS_MPV | MSTATUS_GVA);
	clear();
	v = *(volatile u64 *)VA_UNMAPPED;
	rt_eq(45, "VS: a VS-stage page fault -> 13 in M", rt_trap.cause, 13);
	rt_eq(46, "  with GVA = 1 and mtval2 = 0", (trap_status() & MSTATUS_GVA) | h_trap.tval2,
	      MSTATUS_GVA);
	clear();
	asm volatile("li t0, %0\n jalr t0" :: "i"(GPA_NONE) : "t0", "ra", "memory");
	rt_eq(47, "VS: a fetch from a page the G-stage lacks -> 20", rt_trap.cause, 20);
	rt_eq(48, "  at the target, tval = it, mtval2 = GPA >> 2",
	      (rt_trap.epc == GPA_NONE) + (rt_trap.tval == GPA_NONE) + (h_trap.tval2 == GPA_NONE >> 2), 3);
	return 0;
}

/* the same faults delegated: 23 to HS (medeleg), 13 on to VS (hedeleg) */
static long vs_deleg(long arg)
{
	u64 v;
	(void)arg;
	clear();
	*(volatile u64 *)(VA_RO + 8) = 5;
	rt_eq(50, "VS: store guest-page fault delegated -> HS, scause 23", rt_trap.level == 'S' ?
	      rt_trap.cause : 99, 23);
	rt_eq(51, "  stval = GVA, htval = GPA >> 2, htinst = 0",
	      (rt_trap.tval == VA_RO + 8) + (h_trap.tval2 == (GPA_RO + 8) >> 2) + (h_trap.tinst == 0), 3);
	rt_eq(52, "  hstatus.SPV = 1, SPVP = 1, GVA = 1", h_trap.hstatus & (HS_SPV | HS_SPVP | HS_GVA),
	      HS_SPV | HS_SPVP | HS_GVA);
	h_s_is_vs = 1;
	clear();
	v = *(volatile u64 *)VA_UNMAPPED;
	h_s_is_vs = 0;
	(void)v;
	rt_eq(53, "VS: load page fault with hedeleg[13] -> VS's handler, scause 13",
	      rt_trap.level == 'S' ? rt_trap.cause : 99, 13);
	rt_eq(54, "  stval (vstval) = the address", rt_trap.tval, VA_UNMAPPED);
	return 0;
}

int main(void)
{
	rt_trap_hook = h_hook;
	g_tables();
	u64 off = (u64)&word - 0x80000000ul;
	csrw(CSR_HGATP, ATP_SV39 | ((u64)groot >> 12));
	/* from M, vsatp Bare: HLV's address is guest physical */
	rt_eq(1, "hlv.d through the G-stage identity map", hlv_d((u64)&word), word);
	rt_check_notrap(2, "  no trap");
	hlv_d(GPA_NONE + 0x18);
	guest_fault(3, "hlv.d of an unmapped GPA -> load guest-page fault 21", 21,
		    GPA_NONE + 0x18, (GPA_NONE + 0x18) >> 2, 0);
	rt_eq(7, "  mstatus.GVA = 1, MPV = 0 (from M)", trap_status() & (MSTATUS_GVA | MSTATUS_MPV),
	      MSTATUS_GVA);
	hsv_d(GPA_RO + 8, 1);
	guest_fault(8, "hsv.d to a G-stage read-only page -> store guest-page fault 23", 23,
		    GPA_RO + 8, (GPA_RO + 8) >> 2, 0);
	rt_eq(12, "hlv.d of that page reads", hlv_d(GPA_RO + 8), 0x1111);
	hlv_d(GPA_NOU);
	guest_fault(13, "hlv.d of a G-stage leaf without U -> 21", 21, GPA_NOU, GPA_NOU >> 2, 0);
	rt_eq(17, "hlvx.wu of an execute-only page reads", hlvx_wu(GPA_XO), 0x33333333);
	rt_check_notrap(18, "  no trap");
	hlv_d(GPA_XO);
	rt_eq(19, "hlv.d of an execute-only page, MXR = 0 -> 21", rt_trap.cause, 21);
	csrs(mstatus, MSTATUS_MXR);
	rt_eq(20, "with mstatus.MXR = 1 it reads", hlv_d(GPA_XO), 0x33333333);
	csrc(mstatus, MSTATUS_MXR);
	hlvx_wu(GPA_RO);
	rt_eq(21, "hlvx.wu of a readable, not executable page -> 21", rt_trap.cause, 21);
	hlv_d(1ul << 41);
	guest_fault(22, "hlv.d of a GPA above 41 bits (Sv39x4) -> 21", 21, 1ul << 41, 1ul << 39, 0);
	/* G-stage A/D */
	rt_eq(26, "hlv.d through a G-stage leaf with A = 0 reads", hlv_d(GPA_NOAD + off), word);
	rt_eq(27, "  and sets A, not D", groot[8] & (PTE_A | PTE_D), PTE_A);
	hsv_d(GPA_NOAD + off, word);
	rt_eq(28, "hsv.d sets D", groot[8] & (PTE_A | PTE_D), PTE_A | PTE_D);

	/* VS-stage too */
	csrw(CSR_VSATP, ATP_SV39 | ((u64)vsroot >> 12));
	csrs(CSR_HSTATUS, HS_SPVP);
	rt_eq(29, "hlv.d as VS through both stages", hlv_d(VA_DATA), 0x4444);
	csrc(CSR_HSTATUS, HS_SPVP);
	hlv_d(VA_DATA);
	guest_fault(30, "hlv.d as VU of a VS-stage S page -> load page fault 13", 13, VA_DATA, 0, 0);
	rt_eq(34, "  mstatus.GVA = 1", trap_status() & MSTATUS_GVA, MSTATUS_GVA);
	csrs(CSR_HSTATUS, HS_SPVP);
	hsv_d(VA_RO + 8, 1);
	guest_fault(35, "hsv.d: VS-stage writable, G-stage read-only -> 23", 23, VA_RO + 8,
		    (GPA_RO + 8) >> 2, 0);

	rt_run(PRV_VS, vs_code, 0);
	csrs(medeleg, 1ul << 13 | 1ul << 23);
	csrs(CSR_HEDELEG, 1ul << 13);
	csrw(CSR_VSTVEC, (u64)rt_s_trap_entry);
	rt_run(PRV_VS, vs_deleg, 0);
	csrw(medeleg, 0);
	csrw(CSR_HEDELEG, 0);
	rt_eq(55, "vscause = 13, vsepc in VS's code, scause untouched by it",
	      (csrr(CSR_VSCAUSE) == 13) + (csrr(scause) == 23), 2);

	/* the VS-stage walk's own accesses, through the G-stage */
	csrw(CSR_VSATP, ATP_SV39 | (GPA_NONE >> 12));
	hlv_d(VA_DATA);
	guest_fault(56, "VS-stage root at an unmapped GPA: hlv.d -> 21 (its implicit read)", 21,
		    VA_DATA, (GPA_NONE + 8) >> 2, 0x3000);
	rt_eq(60, "  mstatus.GVA = 1", trap_status() & MSTATUS_GVA, MSTATUS_GVA);
	csrw(CSR_VSATP, ATP_SV39 | (GPA_PTRO >> 12));
	hlv_d(VA_DATA + off);
	guest_fault(61, "VS-stage leaf without A in a G-stage read-only page: the A update faults -> 21",
		    21, VA_DATA + off, (GPA_PTRO + 8) >> 2, 0x3020);
	csrw(CSR_VSATP, 0);

	/* M's loads with mstatus.MPRV = 1, MPP = S, MPV = 1: as VS's */
	rt_eq(65, "MPRV with MPV: ld goes through the G-stage", mprv_ld(GPA_NOAD + off), word);
	rt_check_notrap(66, "  no trap");
	mprv_ld(GPA_NONE + 0x20);
	guest_fault(67, "MPRV with MPV: ld of an unmapped GPA -> 21", 21, GPA_NONE + 0x20,
		    (GPA_NONE + 0x20) >> 2, 0);
	rt_eq(71, "  mstatus.GVA = 1", trap_status() & MSTATUS_GVA, MSTATUS_GVA);
	csrw(CSR_HGATP, 0);
	return rt_done();
}
