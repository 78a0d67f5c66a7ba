/* hot: the kernels of kernels.h in hot loops (translated blocks), in M
 * and in S (satp Bare, PMP allowing all), each checked against the value
 * the host computed (expect.h, made by the suite from expect.c); then
 * UART (MMIO) accesses inside hot loops, which leave translated code for
 * the step loop at each access. */
#include "rt.h"
#include "kernels.h"
#include "expect.h"

#define UART ((volatile unsigned char *)0x10000000ul)

static k64 buf[KWORDS] __attribute__((aligned(4096)));

static void info(const char *what, u64 v)
{
	rt_puts("info ");
	rt_puts(what);
	rt_puts(" ");
	rt_puthex(v);
	rt_puts("\n");
}

static long s_loadstore(long iters)
{
	return (long)k_loadstore(buf, (int)iters);
}

/* The UART's scratch register (SCR, offset 7) written and read back in a
 * hot loop, with arithmetic between: every access leaves the block. */
static u64 uart_scratch(int iters)
{
	u64 sum = 0;
	for (int i = 0; i < iters; i++) {
		UART[7] = (unsigned char)(i * 7 + (int)sum);
		sum = sum * 3 + UART[7] + (u64)i;
	}
	return sum;
}

static u64 uart_scratch_expected(int iters)
{
	u64 sum = 0;
	for (int i = 0; i < iters; i++)
		sum = sum * 3 + (unsigned char)(i * 7 + (int)sum) + (u64)i;
	return sum;
}

int main(void)
{
	k64 v;
	v = k_loadstore(buf, K_ITERS_LS);
	info("loadstore", v);
	rt_eq(1, "M: loads and stores of every width", v, EXP_LOADSTORE);
	v = k_atomic(buf, K_ITERS_AMO);
	info("atomic", v);
	rt_eq(2, "M: AMOs and LR/SC loops", v, EXP_ATOMIC);
	v = k_fp(K_ITERS_FP);
	info("fp", v);
	rt_eq(3, "M: double and float arithmetic", v, EXP_FP);
	v = k_muldiv(K_ITERS_MD);
	info("muldiv", v);
	rt_eq(4, "M: multiply and divide", v, EXP_MULDIV);
	v = k_bitmanip(buf, K_ITERS_BIT);
	info("bitmanip", v);
	rt_eq(5, "M: Zba/Zbb", v, EXP_BITMANIP);
	rt_trap_clear();
	v = (u64)rt_run(PRV_S, s_loadstore, K_ITERS_LS / 4);
	info("S loadstore", v);
	rt_eq(6, "S: loads and stores of every width", v, EXP_LOADSTORE_S);
	rt_check_notrap(7, "S: no trap on the way");
	v = uart_scratch(3000);
	info("uart scratch", v);
	rt_eq(8, "UART scratch register in a hot loop", v, uart_scratch_expected(3000));
	/* console output from a hot loop: 40 lines of 64 characters */
	for (int l = 0; l < 40; l++) {
		for (int c = 0; c < 64; c++)
			rt_putc("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/"[(l * 7 + c) & 63]);
		rt_putc('\n');
	}
	return rt_done();
}
