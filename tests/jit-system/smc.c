/* smc: self-modifying code under translation. A hot loop's addi is
 * rewritten (store, fence.i) between runs, and by the loop itself
 * halfway through; the new instruction must take effect exactly from the
 * fence.i on. Also a routine copied to a data page, run hot, rewritten
 * and run again. Each loop starts a page of its own, so that the first
 * rewrite of each hits translated code (after it, rvpmu runs a page the
 * guest rewrote in the step loop: exec.c page_changed). */
#include "rt.h"

#define N 4000
#define K 1500

extern char patch[], self_patch[], self_loop[];

/* a0 += (the patched addi's immediate) per iteration, N iterations */
__attribute__((noinline, aligned(4096))) static u64 plain_loop(void)
{
	register u64 a0 asm("a0") = 0;
	asm volatile(".option push\n.option norvc\n li a2, %1\n"
		     "1:\n.globl patch\npatch: addi a0, a0, 1\n addi a2, a2, -1\n bnez a2, 1b\n.option pop"
		     : "+r"(a0) : "i"(N) : "a2", "memory");
	return a0;
}

/* the loop rewrites its own addi (a4 = the new word, a5 = its address)
 * at iteration K, before reaching it, with a fence.i between */
__attribute__((noinline, aligned(4096))) static u64 self_modifying(u32 word)
{
	register u64 a0 asm("a0") = 0;
	asm volatile(".option push\n.option norvc\n li a2, 0\n li a3, %3\n"
		     ".globl self_loop\nself_loop: addi a2, a2, 1\n bne a2, a3, 2f\n sw %1, 0(%2)\n fence.i\n"
		     "2:\n.globl self_patch\nself_patch: addi a0, a0, 1\n li t0, %4\n blt a2, t0, self_loop\n.option pop"
		     : "+r"(a0) : "r"(word), "r"(self_patch), "i"(K), "i"(N) : "a2", "a3", "t0", "memory");
	return a0;
}

static u32 addi_a0(int imm)
{
	return ((u32)imm << 20) | (10u << 15) | (10u << 7) | 0x13u;   /* addi a0, a0, imm */
}

/* a copy of routine_src (below: a0 = N * the addi's immediate) on a page
 * of its own, its addi set to IMM */
extern const u32 routine_src[], routine_addi[], routine_end[];
asm(".text\n.balign 4\n.option push\n.option norvc\n.globl routine_src\nroutine_src:\n"
    " li a0, 0\n li a1, " STR(N) "\n.globl routine_addi\nroutine_addi: addi a0, a0, 1\n"
    " addi a1, a1, -1\n bnez a1, routine_addi\n ret\n.globl routine_end\nroutine_end:\n.option pop");
static u32 code[1024] __attribute__((aligned(4096)));
#define ROUTINE_ADDI (routine_addi - routine_src)

static void make_routine(int imm)
{
	for (int i = 0; i < routine_end - routine_src; i++)
		code[i] = routine_src[i];
	code[ROUTINE_ADDI] = addi_a0(imm);
	asm volatile("fence.i" ::: "memory");
}

static u64 call_routine(void)
{
	register u64 a0 asm("a0");
	asm volatile("jalr %1" : "=r"(a0) : "r"(code) : "ra", "a1", "memory");
	return a0;
}

int main(void)
{
	rt_eq(1, "plain loop, addi 1", plain_loop(), N);
	rt_eq(2, "plain loop again (translated)", plain_loop(), N);
	*(volatile u32 *)patch = addi_a0(3);
	asm volatile("fence.i" ::: "memory");
	rt_eq(3, "plain loop rewritten to addi 3", plain_loop(), 3ul * N);
	*(volatile u32 *)patch = addi_a0(-2);
	asm volatile("fence.i" ::: "memory");
	rt_eq(4, "plain loop rewritten to addi -2", plain_loop(), (u64)(-2l * N));
	*(volatile u32 *)patch = addi_a0(1);
	asm volatile("fence.i" ::: "memory");

	/* iterations 1..K-1 add 1, K..N add 5 */
	rt_eq(5, "loop rewriting itself at K", self_modifying(addi_a0(5)), (K - 1) + 5ul * (N - K + 1));
	/* now it starts with addi 5 and rewrites it to addi 7 at K */
	rt_eq(6, "again, from addi 5 to addi 7", self_modifying(addi_a0(7)), 5ul * (K - 1) + 7ul * (N - K + 1));
	*(volatile u32 *)self_patch = addi_a0(1);
	asm volatile("fence.i" ::: "memory");

	make_routine(1);
	rt_eq(7, "routine on a data page", call_routine(), N);
	rt_eq(8, "and again", call_routine(), N);
	make_routine(9);
	rt_eq(9, "rewritten to addi 9", call_routine(), 9ul * N);
	code[ROUTINE_ADDI] = addi_a0(4);   /* only the one word */
	asm volatile("fence.i" ::: "memory");
	rt_eq(10, "one word rewritten to addi 4", call_routine(), 4ul * N);
	return rt_done();
}
