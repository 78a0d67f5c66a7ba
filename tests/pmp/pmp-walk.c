/* pmp-walk: Sv39 page-table accesses are checked by PMP as S-mode
 * accesses; a refused walk raises the access fault of the original access
 * type with mtval = the virtual address. See docs/pmp-tests.md. */
#include "pmp.h"

static int n;
#define E(what, mode, probe, addr, cause) expect(++n, what, mode, probe, addr, cause)

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_A 0x40
#define PTE_D 0x80
#define PTE(pa, flags) ((((u64)(pa) >> 12) << 10) | (flags))
#define SATP_SV39 (8ul << 60)

/* root table in the image (allowed); the level-1 table for VA 1-2 GiB at
 * L1, outside it */
static u64 root[512] __attribute__((aligned(4096)));
#define L1 (TA + 0x80000)
#define VA 0xc0000000ul		/* root[3] -> L1[0] -> 2 MiB page */
static volatile u64 target[2] = {0x5a5a5a5a5a5a5a5aul, 0};
static volatile u32 ret_insn = 0x00008067;	/* jalr x0, 0(ra) */

static void satp_on(void)
{
	csrw(satp, SATP_SV39 | ((u64)root >> 12));
	asm volatile("sfence.vma" ::: "memory");
}

int main(void)
{
	pmp_hooks();
	pmp_reset();
	/* VA 0x80000000 + 1 GiB: identity gigapage (code, data, stacks) */
	root[2] = PTE(0x80000000ul, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
	root[3] = PTE(L1, PTE_V);
	volatile u64 *l1 = (volatile u64 *)L1;
	for (int i = 0; i < 512; i++)
		l1[i] = 0;
	/* L1[0]: VA .. VA + 2 MiB -> the image's first 2 MiB, A and D set */
	l1[0] = PTE(IMAGE_BASE, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
	const u64 off = (u64)target - IMAGE_BASE;
	/* a "ret" in the image's data, fetched through VA */
	const u64 code_va = VA + ((u64)&ret_insn - IMAGE_BASE);
	satp_on();

	/* the L1 table is in no PMP entry: the walk's read of L1[0] fails */
	E("walk refused: S ld -> 5 at the VA", PRV_S, probe_ld, VA + off, C_LOAD);
	E("walk refused: S sd -> 7 at the VA", PRV_S, probe_sd, VA + off, C_STORE);
	E("walk refused: S fetch -> 1 at the VA", PRV_S, probe_jmp, code_va, C_FETCH);
	E("walk refused: S amoadd.w -> 7", PRV_S, probe_amoadd_w, VA + off, C_STORE);
	E("walk refused: S lr.d -> 5", PRV_S, probe_lr_d, VA + off, C_LOAD);
	E("identity gigapage (root allowed): S ld ok", PRV_S, probe_ld, (u64)target, 0);

	/* the table page readable (R) by S: the walk completes */
	pmp_set(0, PMP_NAPOT | PMP_R, NAPOT(L1, 0x1000));
	asm volatile("sfence.vma" ::: "memory");
	rt_trap_clear();
	long v = rt_run(PRV_S, probe_ld, (long)(VA + off));
	rt_check_notrap(++n, "table readable: S ld through it ok");
	rt_eq(++n, "table readable: the load read the image word", v, 0x5a5a5a5a5a5a5a5aul);
	E("table readable: S sd through it ok", PRV_S, probe_sd, VA + off + 8, 0);
	rt_eq(++n, "the store reached the image word", target[1], VA + off + 8);

	/* A = 0 in the leaf: the walk must write the PTE, which PMP refuses
	 * (table R only): access fault of the original type */
	l1[0] = PTE(IMAGE_BASE, PTE_V | PTE_R | PTE_W | PTE_X);
	asm volatile("sfence.vma" ::: "memory");
	E("A/D update refused (table R only): S ld -> 5", PRV_S, probe_ld, VA + off, C_LOAD);
	E("A/D update refused: S sd -> 7", PRV_S, probe_sd, VA + off, C_STORE);
	rt_eq(++n, "A/D update refused: PTE unchanged", l1[0],
	      PTE(IMAGE_BASE, PTE_V | PTE_R | PTE_W | PTE_X));
	/* table RW: the update happens */
	pmp_cfg(0, PMP_NAPOT | PMP_R | PMP_W);
	asm volatile("sfence.vma" ::: "memory");
	E("table RW: S ld ok", PRV_S, probe_ld, VA + off, 0);
	rt_eq(++n, "table RW: walk set A", l1[0] & (PTE_A | PTE_D), PTE_A);

	/* the root itself refused: entry 1 NA4 (no access) over root[3] */
	l1[0] = PTE(IMAGE_BASE, PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
	pmp_set(1, PMP_NA4, ((u64)&root[3]) >> 2);
	asm volatile("sfence.vma" ::: "memory");
	E("root PTE refused: S ld -> 5", PRV_S, probe_ld, VA + off, C_LOAD);
	E("root PTE refused: S sd -> 7", PRV_S, probe_sd, VA + off, C_STORE);
	/* root[2], beside it, still works */
	E("neighbouring root PTE allowed: S ld ok", PRV_S, probe_ld, (u64)target, 0);

	/* the walk succeeds but PMP refuses the page it leads to: the access
	 * fault still reports the virtual address in mtval */
	pmp_set(1, PMP_NA4, (IMAGE_BASE + off) >> 2);
	asm volatile("sfence.vma" ::: "memory");
	E("leaf data refused: S ld -> 5, mtval = the VA", PRV_S, probe_ld, VA + off, C_LOAD);
	E("leaf data refused: S sd -> 7, mtval = the VA", PRV_S, probe_sd, VA + off, C_STORE);

	csrw(satp, 0);
	asm volatile("sfence.vma" ::: "memory");
	return rt_done();
}
