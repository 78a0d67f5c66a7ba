/* sbi-hfence: the RFENCE extension's hypervisor functions (SBI spec 3.0,
 * "RFENCE Extension", FIDs 3-6) on a 2-hart machine, run in HS-mode.
 * Built with -DHAS_H=1 for a core with H and -DHAS_H=0 for one without,
 * where every hypervisor fence answers SBI_ERR_NOT_SUPPORTED. With H:
 * the return values, the firmware events they count (SBI PMU "Firmware
 * Events", codes 14-21, read with counter_fw_read) on the calling hart
 * and on the other, and that a changed G-stage (hgatp) or VS-stage
 * (vsatp) mapping is seen by VS-mode after the fence, on the calling hart
 * and on the other one (hart 1, fenced alone). docs/sbi-tests.md
 * lists the checks. */
#include "rt.h"

#ifndef HAS_H
#error "build with -DHAS_H=0 or 1"
#endif

#define NHARTS 2
#define H(k) ((rt_hartid + (k)) % NHARTS)
#define SELF (1ul << H(0))
#define BOTH (SELF | 1ul << H(1))

/* RFENCE FIDs */
#define HFENCE_GVMA_VMID 3
#define HFENCE_GVMA 4
#define HFENCE_VVMA_ASID 5
#define HFENCE_VVMA 6

/* firmware event_idx: type 15, code */
#define FW(code) (0xf0000ul | (code))
#define FW_IPI_SENT FW(6)
#define FW_IPI_RECEIVED FW(7)
#define FW_GVMA_SENT FW(14)
#define FW_GVMA_RCVD FW(15)
#define FW_GVMA_VMID_SENT FW(16)
#define FW_GVMA_VMID_RCVD FW(17)
#define FW_VVMA_SENT FW(18)
#define FW_VVMA_RCVD FW(19)
#define FW_VVMA_ASID_SENT FW(20)
#define FW_VVMA_ASID_RCVD FW(21)

static struct sbiret rfence(long fid, u64 mask, u64 base, u64 start, u64 size, u64 id)
{
	return sbi5(SBI_EXT_RFENCE, fid, mask, base, start, size, id);
}

#if !HAS_H
int main(void)
{
	rt_info("has_h", 0);
	struct sbiret r = sbi1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_RFENCE);
	rt_eq(1, "probe_extension(RFENCE) = 1", r.value, 1);
	r = rfence(HFENCE_GVMA_VMID, SELF, 0, 0, 0, 0);
	rt_eq(2, "remote_hfence_gvma_vmid without H -> NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = rfence(HFENCE_GVMA, SELF, 0, 0, 0, 0);
	rt_eq(3, "remote_hfence_gvma without H -> NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = rfence(HFENCE_VVMA_ASID, SELF, 0, 0, 0, 0);
	rt_eq(4, "remote_hfence_vvma_asid without H -> NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = rfence(HFENCE_VVMA, SELF, 0, 0, 0, 0);
	rt_eq(5, "remote_hfence_vvma without H -> NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = rfence(HFENCE_GVMA, 1, NHARTS, 0, 0, 0);
	rt_eq(6, "... checked before the hart mask (base = NHARTS)", r.error, SBI_ERR_NOT_SUPPORTED);
	r = rfence(1, SELF, 0, 0, 0, 0);
	rt_eq(7, "remote_sfence_vma still succeeds", r.error, 0);
	return 0;
}
#else

#define CSR_HSTATUS 0x600
#define CSR_HGATP 0x680
#define CSR_VSATP 0x280
#include "../bare-h/sv39.h"
#define VMID 1ul
#define ASID 5ul
#define GPA 0x100000000ul      /* a guest-physical page outside RAM's range */
#define GVA 0x40000000ul       /* a guest-virtual page mapped by VS-stage */

/* G-stage (Sv39x4: 16 KiB root) and VS-stage tables; data pages */
static u64 g_root[2048] __attribute__((aligned(16384)));
static u64 g_l1[512] __attribute__((aligned(4096)));
static u64 g_l0[512] __attribute__((aligned(4096)));
static u64 vs_root[512] __attribute__((aligned(4096)));
static u64 vs_l1[512] __attribute__((aligned(4096)));
static u64 vs_l0[512] __attribute__((aligned(4096)));
static u64 page_a[512] __attribute__((aligned(4096)));
static u64 page_b[512] __attribute__((aligned(4096)));
static u64 page_c[512] __attribute__((aligned(4096)));

/* enter_vs(pc, arg): run pc in VS-mode with a0 = arg until it traps to
 * HS; returns its a0, vs_cause gets scause and vs_htval htval. vs_load
 * loads a0's doubleword
 * and ecalls. */
u64 enter_vs(void (*pc)(void), u64 arg);
void vs_load(void);
volatile u64 vs_cause, vs_htval, vs_saved_stvec;
asm(".option push\n.option norelax\n"
    ".balign 4\n.globl enter_vs\nenter_vs:\n"
    "\tcsrr t0, stvec\n\tla t1, vs_saved_stvec\n\tsd t0, 0(t1)\n"
    "\tla t0, 1f\n\tcsrw stvec, t0\n"
    "\tcsrw sepc, a0\n"
    "\tli t0, 0x100\n\tcsrs sstatus, t0\n"     /* SPP = S */
    "\tli t0, 0x80\n\tcsrs 0x600, t0\n"        /* hstatus.SPV = 1 */
    "\tmv a0, a1\n\tsret\n"
    ".balign 4\n1:\n"
    "\tla t1, vs_saved_stvec\n\tld t0, 0(t1)\n\tcsrw stvec, t0\n"
    "\tli t0, 0x80\n\tcsrc 0x600, t0\n"
    "\tcsrr t0, scause\n\tla t1, vs_cause\n\tsd t0, 0(t1)\n"
    "\tcsrr t0, 0x643\n\tla t1, vs_htval\n\tsd t0, 0(t1)\n"
    "\tret\n"
    ".balign 4\n.globl vs_load\nvs_load:\n\tld a0, 0(a0)\n\tecall\n"
    ".option pop\n");

/* VS loads addr; the value, or the trap cause + 0xdead0000 when its trap
 * was not its ecall (10) */
static u64 vs_read(u64 addr)
{
	u64 v = enter_vs(vs_load, addr);
	return vs_cause == 10 ? v : 0xdead0000ul + vs_cause;
}

/* hart 1's state for hart 0 */
static volatile long h1_rcvd[5];   /* GVMA, GVMA_VMID, VVMA, VVMA_ASID, IPI_RECEIVED */
static volatile u64 h1_hgatp, h1_read[2];
static volatile int step, h1_done;
u64 h1_stack[512] __attribute__((aligned(16)));

void h1_entry(void);
asm(".option push\n.option norelax\n"
    ".balign 4\n.globl h1_entry\nh1_entry:\n"
    "\tla sp, h1_stack + 4096\n"
    "\tcall h1_main\n"
    "1:\tj 1b\n"
    ".option pop\n");

void h1_main(void)
{
	static const u64 ev[5] = {FW_GVMA_RCVD, FW_GVMA_VMID_RCVD, FW_VVMA_RCVD,
				  FW_VVMA_ASID_RCVD, FW_IPI_RECEIVED};
	long c[5];
	for (int i = 0; i < 5; i++)
		c[i] = fw_counter(ev[i]);
	h1_done = 1;
	while (step < 2)
		;
	for (int i = 0; i < 5; i++)
		h1_rcvd[i] = c[i] < 0 ? -1 : fw_read(c[i]);
	h1_done = 2;
	/* G-stage through hart 0's tables: a read, then another after hart
	 * 0 has changed the mapping and fenced this hart alone */
	while (step < 3)
		;
	asm volatile("csrw 0x680, %0\n\tcsrw 0x280, zero" :: "r"(h1_hgatp) : "memory");
	h1_read[0] = vs_read(GPA);
	h1_done = 3;
	while (step < 4)
		;
	h1_read[1] = vs_read(GPA);
	h1_done = 4;
	sbi0(SBI_EXT_HSM, 1);   /* hart_stop */
	for (;;)
		;
}

static void wait_h1(int d)
{
	for (long i = 0; i < 100000000 && h1_done != d; i++)
		;
}

int main(void)
{
	rt_info("has_h", 1);
	static const u64 ev[10] = {
		FW_GVMA_SENT, FW_GVMA_RCVD, FW_GVMA_VMID_SENT, FW_GVMA_VMID_RCVD,
		FW_VVMA_SENT, FW_VVMA_RCVD, FW_VVMA_ASID_SENT, FW_VVMA_ASID_RCVD,
		FW_IPI_SENT, FW_IPI_RECEIVED,
	};
	long c[10];
	int got = 1;
	for (int i = 0; i < 10; i++)
		got &= (c[i] = fw_counter(ev[i])) >= 0;
	rt_check(1, "firmware counters for events 14-21, IPI_SENT, IPI_RECEIVED", got, 0, 0);

	/* each fence on this hart alone: done in place */
	struct sbiret r = rfence(HFENCE_GVMA_VMID, SELF, 0, 0, 0, VMID);
	rt_eq(2, "remote_hfence_gvma_vmid(self) succeeds", r.error, 0);
	r = rfence(HFENCE_GVMA, SELF, 0, 0, 0, 0);
	rt_eq(3, "remote_hfence_gvma(self) succeeds", r.error, 0);
	r = rfence(HFENCE_VVMA_ASID, SELF, 0, 0, 0, ASID);
	rt_eq(4, "remote_hfence_vvma_asid(self) succeeds", r.error, 0);
	r = rfence(HFENCE_VVMA, SELF, 0, 0, 0, 0);
	rt_eq(5, "remote_hfence_vvma(self) succeeds", r.error, 0);
	for (int i = 0; i < 8; i++)
		rt_eq(6 + i, "event 14+i on self after one self fence each = 1", fw_read(c[i]), 1);
	rt_eq(14, "IPI_SENT = 0 (self fences need no IPI)", fw_read(c[8]), 0);
	rt_eq(15, "IPI_RECEIVED = 0", fw_read(c[9]), 0);

	/* the hart list */
	r = rfence(HFENCE_GVMA, 1, NHARTS, 0, 0, 0);
	rt_eq(16, "remote_hfence_gvma(hart_mask_base = NHARTS) -> INVALID_PARAM", r.error,
	      SBI_ERR_INVALID_PARAM);
	r = rfence(HFENCE_VVMA, 1ul << NHARTS, 0, 0, 0, 0);
	rt_eq(17, "remote_hfence_vvma(hart NHARTS in the mask) -> INVALID_PARAM", r.error,
	      SBI_ERR_INVALID_PARAM);
	/* ..._SENT counts every call, the hart list checked after it (as
	 * OpenSBI's sbi_tlb_request) */
	rt_eq(18, "HFENCE_GVMA_SENT counts the call with a bad hart list: 2", fw_read(c[0]), 2);
	rt_eq(19, "HFENCE_VVMA_SENT counts the call with a bad hart list: 2", fw_read(c[4]), 2);
	r = rfence(7, SELF, 0, 0, 0, 0);
	rt_eq(20, "RFENCE FID 7 -> NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = rfence(HFENCE_GVMA_VMID, 0, 0, 0, 0, VMID);
	rt_eq(21, "remote_hfence_gvma_vmid(empty mask) succeeds", r.error, 0);

	/* both harts: one request each, the other hart's by IPI */
	r = sbi3(SBI_EXT_HSM, 0, H(1), (u64)h1_entry, 0);
	rt_eq(22, "hart_start(hart 1) succeeds", r.error, 0);
	wait_h1(1);
	u64 before[10];
	for (int i = 0; i < 10; i++)
		before[i] = (u64)fw_read(c[i]);
	r = rfence(HFENCE_GVMA_VMID, BOTH, 0, 0, 0, VMID);
	rt_eq(23, "remote_hfence_gvma_vmid(both) succeeds", r.error, 0);
	r = rfence(HFENCE_GVMA, BOTH, 0, GPA, 4096, 0);
	rt_eq(24, "remote_hfence_gvma(both) succeeds", r.error, 0);
	r = rfence(HFENCE_VVMA_ASID, BOTH, 0, GVA, 4096, ASID);
	rt_eq(25, "remote_hfence_vvma_asid(both) succeeds", r.error, 0);
	r = rfence(HFENCE_VVMA, ~0ul, ~0ul, 0, 0, 0);
	rt_eq(26, "remote_hfence_vvma(hart_mask_base = -1: all) succeeds", r.error, 0);
	step = 2;
	wait_h1(2);
	for (int i = 0; i < 8; i++)
		rt_eq(27 + i, "event 14+i on self: one more each", fw_read(c[i]) - before[i], 1);
	rt_eq(35, "IPI_SENT on self: one per remote fence = 4", fw_read(c[8]) - before[8], 4);
	rt_eq(36, "HFENCE_GVMA_RECEIVED on hart 1 = 1", h1_rcvd[0], 1);
	rt_eq(37, "HFENCE_GVMA_VMID_RECEIVED on hart 1 = 1", h1_rcvd[1], 1);
	rt_eq(38, "HFENCE_VVMA_RECEIVED on hart 1 = 1", h1_rcvd[2], 1);
	rt_eq(39, "HFENCE_VVMA_ASID_RECEIVED on hart 1 = 1", h1_rcvd[3], 1);
	rt_eq(40, "IPI_RECEIVED on hart 1 = 4", h1_rcvd[4], 4);

	/* G-stage: RAM identity-mapped by a gigapage, GPA -> page_a */
	page_a[0] = 0xaaaa0001;
	page_b[0] = 0xbbbb0002;
	page_c[0] = 0xcccc0003;
	g_root[2] = PTE(0x80000000ul, PTE_V | PTE_R | PTE_W | PTE_X | PTE_U | PTE_A | PTE_D);
	g_root[GPA >> 30] = PTE(g_l1, PTE_V);
	g_l1[0] = PTE(g_l0, PTE_V);
	g_l0[0] = PTE(page_a, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
	asm volatile("csrw 0x680, %0" :: "r"(ATP_SV39 | VMID << 44 | (u64)g_root >> 12) : "memory");
	asm volatile("csrw 0x280, zero" ::: "memory");
	r = rfence(HFENCE_GVMA_VMID, SELF, 0, 0, 0, VMID);
	rt_eq(41, "G-stage set up: remote_hfence_gvma_vmid(self) succeeds", r.error, 0);
	rt_eq(42, "VS reads GPA through G-stage: page A", vs_read(GPA), 0xaaaa0001);
	g_l0[0] = PTE(page_b, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
	rt_info("gstage_before_fence", vs_read(GPA));   /* A or B: the spec allows either */
	r = rfence(HFENCE_GVMA, SELF, 0, GPA, 4096, 0);
	rt_eq(43, "remote_hfence_gvma(self, GPA page) succeeds", r.error, 0);
	rt_eq(44, "after it VS reads page B", vs_read(GPA), 0xbbbb0002);
	g_l0[0] = PTE(page_c, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
	rt_info("gstage_vmid_before_fence", vs_read(GPA));
	r = rfence(HFENCE_GVMA_VMID, SELF, 0, GPA, 4096, VMID);
	rt_eq(45, "remote_hfence_gvma_vmid(self, GPA page, VMID) succeeds", r.error, 0);
	rt_eq(46, "after it VS reads page C", vs_read(GPA), 0xcccc0003);

	/* VS-stage: GVA -> page_a's address (guest-physical = physical in
	 * the identity gigapage), RAM identity-mapped for VS's own code */
	vs_root[2] = PTE(0x80000000ul, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
	vs_root[GVA >> 30] = PTE(vs_l1, PTE_V);
	vs_l1[0] = PTE(vs_l0, PTE_V);
	vs_l0[0] = PTE(page_a, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
	asm volatile("csrw 0x280, %0" :: "r"(ATP_SV39 | ASID << 44 | (u64)vs_root >> 12) : "memory");
	r = rfence(HFENCE_VVMA, SELF, 0, 0, 0, 0);
	rt_eq(47, "VS-stage set up: remote_hfence_vvma(self) succeeds", r.error, 0);
	rt_eq(48, "VS reads GVA through both stages: page A", vs_read(GVA), 0xaaaa0001);
	vs_l0[0] = PTE(page_b, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
	rt_info("vsstage_before_fence", vs_read(GVA));
	r = rfence(HFENCE_VVMA, SELF, 0, GVA, 4096, 0);
	rt_eq(49, "remote_hfence_vvma(self, GVA page) succeeds", r.error, 0);
	rt_eq(50, "after it VS reads page B", vs_read(GVA), 0xbbbb0002);
	vs_l0[0] = PTE(page_c, PTE_V | PTE_R | PTE_W | PTE_A | PTE_D);
	rt_info("vsstage_asid_before_fence", vs_read(GVA));
	r = rfence(HFENCE_VVMA_ASID, SELF, 0, GVA, 4096, ASID);
	rt_eq(51, "remote_hfence_vvma_asid(self, GVA page, ASID) succeeds", r.error, 0);
	rt_eq(52, "after it VS reads page C", vs_read(GVA), 0xcccc0003);

	/* a guest-page fault reaches HS (the firmware delegates it, as
	 * OpenSBI does, or passes it on) with htval = the guest-physical
	 * address >> 2 */
	asm volatile("csrw 0x280, zero" ::: "memory");
	rt_eq(53, "VS load from an unmapped guest-physical page: load guest-page fault (21) in HS",
	      vs_read(GPA + 4096), 0xdead0000ul + 21);
	rt_eq(54, "... with htval = that address >> 2", vs_htval, (GPA + 4096) >> 2);

	/* a remote fence: hart 1 reads GPA through the same G-stage (page C),
	 * the leaf moves to page A, remote_hfence_gvma names hart 1 alone,
	 * and hart 1 then reads page A */
	h1_hgatp = ATP_SV39 | VMID << 44 | (u64)g_root >> 12;
	step = 3;
	wait_h1(3);
	rt_eq(55, "hart 1 reads GPA through the G-stage: page C", h1_read[0], 0xcccc0003);
	g_l0[0] = PTE(page_a, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D);
	r = rfence(HFENCE_GVMA, 1ul << H(1), 0, GPA, 4096, 0);
	rt_eq(56, "remote_hfence_gvma(hart 1 alone, GPA page) succeeds", r.error, 0);
	step = 4;
	wait_h1(4);
	rt_eq(57, "after it hart 1 reads page A", h1_read[1], 0xaaaa0001);
	asm volatile("csrw 0x680, zero" ::: "memory");
	return 0;
}
#endif
