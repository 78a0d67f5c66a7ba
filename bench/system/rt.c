/* Bare-metal runtime for the bench workloads under `rvpmu system --bios
 * none` and `qemu-system-riscv64 -M virt -bios none`: picolibc's crt0 sets
 * the stack, gp, mstatus.FS, .data, .bss and TLS and calls main(0, NULL)
 * in M mode with the MMU off; this file gives picolibc its stdout (the
 * ns16550a UART at 0x10000000, both machines have it) and its _exit (the
 * sifive_test device at 0x100000), and runs the workload with the scale
 * it was built for (argv[1] of the Linux build). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef BENCH_SCALE
#define BENCH_SCALE "100"
#endif

#define UART ((volatile uint8_t *)0x10000000ul)
#define UART_LSR_THRE 0x20
#define FINISHER ((volatile uint32_t *)0x100000ul)

int bench_main(int argc, char **argv);

static int uart_putc(char c, FILE *f)
{
	(void)f;
	while (!(UART[5] & UART_LSR_THRE))
		;
	UART[0] = (uint8_t)c;
	return (unsigned char)c;
}

static FILE uart = FDEV_SETUP_STREAM(uart_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &uart;
FILE *const stderr = &uart;

/* sifive_test: 0x5555 = exit 0, (code << 16) | 0x3333 = exit with code */
void _exit(int code)
{
	*FINISHER = code ? ((uint32_t)code << 16) | 0x3333u : 0x5555u;
	for (;;)
		;
}

/* An unexpected trap (the workloads take none) says where and exits 3,
 * rather than looping at mtvec's reset value until the timeout. */
static void __attribute__((interrupt("machine"), aligned(4))) trap(void)
{
	uint64_t cause, epc, tval;
	asm volatile("csrr %0, mcause; csrr %1, mepc; csrr %2, mtval"
		     : "=r"(cause), "=r"(epc), "=r"(tval));
	printf("trap: mcause=%#llx mepc=%#llx mtval=%#llx\n", (unsigned long long)cause,
	       (unsigned long long)epc, (unsigned long long)tval);
	_exit(3);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char *args[] = { "bench", BENCH_SCALE, NULL };
	asm volatile("csrw mtvec, %0" :: "r"(trap));
	/* picolibc's plain crt0 spins when main returns: exit here */
	exit(bench_main(2, args));
}
