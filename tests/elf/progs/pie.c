/* A libc-free static-pie: the loader must place it at a non-zero base and
 * start it at its relocated entry. Exits 0 when its own code runs above
 * the link address 0 (so it was relocated), 1 otherwise; prints one line. */
static long sys3(long n, long a, long b, long c)
{
	register long a0 __asm__("a0") = a, a1 __asm__("a1") = b, a2 __asm__("a2") = c;
	register long a7 __asm__("a7") = n;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return a0;
}

void _start(void)
{
	static const char msg[] = "static-pie ok\n";
	unsigned long here;
	__asm__ volatile("auipc %0, 0" : "=r"(here));
	sys3(64, 1, (long)msg, sizeof(msg) - 1);
	sys3(94, here >= 0x100000 ? 0 : 1, 0, 0);
	for (;;)
		;
}
