/* /init of the bench's Linux boot: says it has started, then powers the
 * machine off at once, so that a boot's CPU time is the boot to init
 * (plus the kernel's power-off path). No libc: raw riscv64 syscalls. */
#define SYS_write 64
#define SYS_exit 93
#define SYS_reboot 142
/* reboot(2)'s magic numbers and LINUX_REBOOT_CMD_POWER_OFF */
#define REBOOT_MAGIC1 0xfee1deadl
#define REBOOT_MAGIC2 672274793l
#define REBOOT_POWER_OFF 0x4321fedcl

static long sys4(long n, long a, long b, long c, long d)
{
	register long a0 asm("a0") = a, a1 asm("a1") = b, a2 asm("a2") = c, a3 asm("a3") = d;
	register long a7 asm("a7") = n;
	asm volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a3), "r"(a7) : "memory");
	return a0;
}

void _start(void)
{
	static const char msg[] = "==== rvpmu bench init ====\n";
	sys4(SYS_write, 1, (long)msg, sizeof msg - 1, 0);
	sys4(SYS_reboot, REBOOT_MAGIC1, REBOOT_MAGIC2, REBOOT_POWER_OFF, 0);
	static const char bad[] = "reboot(POWER_OFF) failed\n";
	sys4(SYS_write, 1, (long)bad, sizeof bad - 1, 0);
	sys4(SYS_exit, 1, 0, 0, 0);
	for (;;)
		;
}
