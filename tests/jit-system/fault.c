/* fault: precise access faults from translated code. S-mode (satp Bare)
 * runs a hot loop storing a word a step further each time, towards a
 * page PMP leaves read-only (and another it denies entirely, for loads):
 * the store (load) that reaches it must trap with mcause 7 (5), mepc at
 * that instruction, mtval its address, the registers as the instructions
 * before it left them and every store before it in memory. Then an M-mode
 * loop whose load is misaligned at iteration K only: on the U74
 * (mvendorid 0x489, misaligned accesses trap) a load address misaligned
 * trap (mcause 4) at the load with mtval the address; on the default
 * core, no trap and the misaligned value in the sum. */
#include "rt.h"

#define K 500   /* stores (loads) that succeed before the faulting one */
#define PAGE 4096

/* three pages: RW (the loop's run-up), read-only, no access */
static u64 area[3 * PAGE / 8] __attribute__((aligned(4 * PAGE)));
#define RW ((u64)area)
#define RO (RW + PAGE)
#define NA (RW + 2 * PAGE)

extern char st_insn[], st_out[], ld_insn[], ld_out[], mis_insn[], mis_out[];

static struct { u64 n, cause, epc, tval, a0, a1, mpp; } got;

/* the first fault ends the loop: continue after it (st_out / ld_out) */
static int hook(u64 *f, u64 cause, u64 epc, char level)
{
	(void)level;
	got.n++;
	got.cause = cause;
	got.epc = epc;
	got.tval = csrr(mtval);
	got.a0 = f[10];
	got.a1 = f[11];
	got.mpp = (csrr(mstatus) >> 11) & 3;
	csrw(mepc, (u64)(cause == 7 ? st_out : cause == 5 ? ld_out : mis_out));
	return 1;
}

/* a0 walks up to the read-only page; a1 = sum of (word at RO) + 1 per
 * iteration, stored at a0 */
static long store_loop(long start)
{
	register u64 a0 asm("a0") = (u64)start;
	register u64 a1 asm("a1") = 0;
	asm volatile(".option push\n.option norvc\n"
		     "1: ld t0, 0(%2)\n add a1, a1, t0\n addi a1, a1, 1\n"
		     ".globl st_insn\nst_insn: sd a1, 0(a0)\n addi a0, a0, 8\n j 1b\n"
		     ".globl st_out\nst_out:\n.option pop"
		     : "+r"(a0), "+r"(a1) : "r"(RO + 8) : "t0", "memory");
	return (long)a1;
}

/* a0 walks through the read-only page into the one with no access,
 * adding up what it loads */
static long load_loop(long start)
{
	register u64 a0 asm("a0") = (u64)start;
	register u64 a1 asm("a1") = 0;
	asm volatile(".option push\n.option norvc\n"
		     ".globl ld_insn\n1: addi a1, a1, 2\nld_insn: ld t0, 0(a0)\n add a1, a1, t0\n addi a0, a0, 8\n j 1b\n"
		     ".globl ld_out\nld_out:\n.option pop"
		     : "+r"(a0), "+r"(a1) :: "t0", "memory");
	return (long)a1;
}

/* a2 counts down from 2K; at a2 == K the load's address is a0 + 1 */
static u64 misaligned_loop(u64 base)
{
	register u64 a0 asm("a0") = base;
	register u64 a1 asm("a1") = 0;
	asm volatile(".option push\n.option norvc\n li a2, %2\n li a4, %3\n"
		     "1: sub t1, a2, a4\n seqz t1, t1\n add t1, t1, a0\n"
		     ".globl mis_insn\nmis_insn: ld t0, 0(t1)\n add a1, a1, t0\n addi a2, a2, -1\n bnez a2, 1b\n"
		     ".globl mis_out\nmis_out:\n.option pop"
		     : "+r"(a0), "+r"(a1) : "i"(2 * K), "i"(K) : "a2", "a4", "t0", "t1", "memory");
	return a1;
}

static u64 napot(u64 base, u64 size)
{
	return (base + size / 2 - 1) >> 2;
}

int main(void)
{
	for (int i = 0; i < 3 * PAGE / 8; i++)
		area[i] = 3;   /* what the loops load */
	/* entry 0: RO read-only; 1: NA nothing; 2: everything (for S) */
	csrw(pmpaddr0, napot(RO, PAGE));
	csrw(pmpaddr1, napot(NA, PAGE));
	csrw(pmpaddr2, -1ul);
	csrw(pmpcfg0, (0x1ful << 16) | (0x18ul << 8) | 0x19ul);
	rt_trap_hook = hook;

	long r = rt_run(PRV_S, store_loop, (long)(RO - 8 * K));
	rt_eq(1, "store fault: one trap", got.n, 1);
	rt_eq(2, "store fault: mcause store access fault", got.cause, 7);
	rt_eq(3, "store fault: mepc at the store", got.epc, (u64)st_insn);
	rt_eq(4, "store fault: mtval the read-only page", got.tval, RO);
	rt_eq(5, "store fault: a0 there", got.a0, RO);
	rt_eq(6, "store fault: a1 after K+1 adds", got.a1, 4ul * (K + 1));
	rt_eq(7, "store fault: taken from S (MPP)", got.mpp, PRV_S);
	rt_eq(8, "store fault: the loop's result", r, 4ul * (K + 1));
	rt_eq(9, "store fault: the last store before it done", area[PAGE / 8 - 1], 4ul * K);
	rt_eq(10, "store fault: the first store done", area[PAGE / 8 - K], 4);
	rt_eq(11, "store fault: the read-only page unchanged", area[PAGE / 8], 3);

	got.n = 0;
	r = rt_run(PRV_S, load_loop, (long)(NA - 8 * K));
	rt_eq(12, "load fault: one trap", got.n, 1);
	rt_eq(13, "load fault: mcause load access fault", got.cause, 5);
	rt_eq(14, "load fault: mepc at the load", got.epc, (u64)ld_insn);
	rt_eq(15, "load fault: mtval the page with no access", got.tval, NA);
	rt_eq(16, "load fault: a0 there", got.a0, NA);
	rt_eq(17, "load fault: a1 after K loads and K+1 addis", got.a1, 5ul * K + 2);
	rt_eq(18, "load fault: the loop's result", r, 5ul * K + 2);

	/* the misaligned load at RW + 1 reads bytes 1-7 of word 0 (zero)
	 * and byte 0 of word 1 (0x11): 0x11 << 56; the others read 3 */
	area[1] = 0x11 | 3ul << 8;
	area[0] = 3;
	got.n = 0;
	u64 sum = misaligned_loop(RW);
	u64 mis = (area[1] & 0xff) << 56;
	if (csrr(mvendorid) == 0x489) {
		rt_eq(19, "misaligned (U74): one trap", got.n, 1);
		rt_eq(20, "misaligned (U74): mcause load address misaligned", got.cause, 4);
		rt_eq(21, "misaligned (U74): mepc at the load", got.epc, (u64)mis_insn);
		rt_eq(22, "misaligned (U74): mtval the address", got.tval, RW + 1);
		rt_eq(23, "misaligned (U74): the K loads before it", got.a1, 3ul * K);
	} else {
		rt_eq(19, "misaligned (default core): no trap", got.n, 0);
		rt_eq(20, "misaligned (default core): the sum", sum, 3ul * (2 * K - 1) + mis);
	}

	return rt_done();
}
