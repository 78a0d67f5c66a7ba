/* S-mode runtime for the SBI payloads (see rt.h). */
#include "rt.h"

u64 rt_hartid, rt_fdt;
int rt_use_dbcn = -1;	/* -1 until probed */
static int checks, first_fail;
volatile long rt_irq_count;
struct rt_irq rt_irq_log[RT_MAX_IRQ];
long (*lcofi_hook)(void);

/* SBI spec "Binary Encoding": a7 = EID, a6 = FID, a0..a5 in, a0/a1 out. */
struct sbiret sbi_ecall(long eid, long fid, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	register u64 r0 asm("a0") = a0;
	register u64 r1 asm("a1") = a1;
	register u64 r2 asm("a2") = a2;
	register u64 r3 asm("a3") = a3;
	register u64 r4 asm("a4") = a4;
	register u64 r5 asm("a5") = a5;
	register long r6 asm("a6") = fid;
	register long r7 asm("a7") = eid;
	asm volatile("ecall" : "+r"(r0), "+r"(r1)
		     : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7) : "memory");
	return (struct sbiret){ (long)r0, (long)r1 };
}

struct sbiret pmu_get_info(u64 idx)
{
	return sbi1(SBI_EXT_PMU, SBI_PMU_COUNTER_GET_INFO, idx);
}
struct sbiret pmu_cfg(u64 base, u64 mask, u64 flags, u64 event, u64 data)
{
	return sbi5(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, base, mask, flags, event, data);
}
struct sbiret pmu_start(u64 base, u64 mask, u64 flags, u64 ival)
{
	return sbi4(SBI_EXT_PMU, SBI_PMU_COUNTER_START, base, mask, flags, ival);
}
struct sbiret pmu_stop(u64 base, u64 mask, u64 flags)
{
	return sbi3(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, base, mask, flags);
}
struct sbiret pmu_fw_read(u64 idx)
{
	return sbi1(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ, idx);
}

long fw_counter(u64 idx)
{
	struct pmu_layout l;
	pmu_probe(&l);
	struct sbiret r = pmu_cfg(0, l.fw_mask, SBI_PMU_CFG_FLAG_AUTO_START |
				  SBI_PMU_CFG_FLAG_CLEAR_VALUE, idx, 0);
	return r.error ? -1 : r.value;
}

long fw_read(long ctr)
{
	struct sbiret r = pmu_fw_read((u64)ctr);
	return r.error ? -1000 + r.error : r.value;
}

void pmu_probe(struct pmu_layout *l)
{
	struct sbiret r = sbi0(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS);
	u64 i;

	l->num = r.error ? 0 : (u64)r.value;
	l->hw_mask = l->fw_mask = 0;
	for (i = 0; i < 64; i++) {
		l->info[i] = 0;
		l->err[i] = SBI_ERR_INVALID_PARAM;
		if (i >= l->num)
			continue;
		r = pmu_get_info(i);
		l->err[i] = r.error;
		if (r.error)
			continue;
		l->info[i] = r.value;
		if (CINFO_FW(l->info[i]))
			l->fw_mask |= 1ul << i;
		else
			l->hw_mask |= 1ul << i;
	}
}

/* csrr needs the CSR number as an immediate: one case per counter CSR */
#define RDC(n) case 0xc00 + n: return csrr(0xc00 + n)
u64 rt_read_counter(u32 csr, int *ok)
{
	*ok = 1;
	switch (csr) {
	RDC(0); RDC(1); RDC(2); RDC(3); RDC(4); RDC(5); RDC(6); RDC(7);
	RDC(8); RDC(9); RDC(10); RDC(11); RDC(12); RDC(13); RDC(14); RDC(15);
	RDC(16); RDC(17); RDC(18); RDC(19); RDC(20); RDC(21); RDC(22); RDC(23);
	RDC(24); RDC(25); RDC(26); RDC(27); RDC(28); RDC(29); RDC(30); RDC(31);
	}
	*ok = 0;
	return 0;
}

/* Console: DBCN (SBI 2.0) write when probed present, else the legacy
 * console_putchar (EID 0x01). Output is line-buffered for DBCN. */
static char line[128];
static unsigned line_len;

static void flush(void)
{
	if (!line_len)
		return;
	if (rt_use_dbcn) {
		unsigned off = 0;
		while (off < line_len) {
			struct sbiret r = sbi3(SBI_EXT_DBCN, 0, line_len - off,
					       (u64)(line + off), 0);
			if (r.error || r.value <= 0)
				break;
			off += r.value;
		}
	} else {
		for (unsigned i = 0; i < line_len; i++)
			sbi1(SBI_EXT_LEGACY_PUTCHAR, 0, (unsigned char)line[i]);
	}
	line_len = 0;
}

void rt_putc(int c)
{
	if (rt_use_dbcn < 0) {
		struct sbiret r = sbi1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_DBCN);
		rt_use_dbcn = !r.error && r.value != 0;
	}
	line[line_len++] = (char)c;
	if (c == '\n' || line_len == sizeof(line))
		flush();
}

void rt_puts(const char *s)
{
	while (*s)
		rt_putc(*s++);
}

void rt_puthex(u64 v)
{
	int i = 60;
	rt_puts("0x");
	while (i > 0 && !((v >> i) & 0xf))
		i -= 4;
	for (; i >= 0; i -= 4)
		rt_putc("0123456789abcdef"[(v >> i) & 0xf]);
}

void rt_putdec(long v)
{
	char buf[24];
	int n = 0;
	u64 u = v < 0 ? -(u64)v : (u64)v;
	if (v < 0)
		rt_putc('-');
	do {
		buf[n++] = '0' + u % 10;
		u /= 10;
	} while (u);
	while (n)
		rt_putc(buf[--n]);
}

void rt_info(const char *key, u64 v)
{
	rt_puts("info ");
	rt_puts(key);
	rt_putc(' ');
	rt_puthex(v);
	rt_putc('\n');
}

static void result(int n, const char *name, int ok)
{
	checks++;
	if (!ok && !first_fail)
		first_fail = n;
	rt_puts(ok ? "ok " : "FAIL ");
	rt_putdec(n);
	rt_putc(' ');
	rt_puts(name);
}

void rt_check(int n, const char *name, int ok, u64 got, u64 want)
{
	result(n, name, ok);
	if (!ok) {
		rt_puts(": got ");
		rt_puthex(got);
		rt_puts(" want ");
		rt_puthex(want);
	}
	rt_putc('\n');
}

void rt_eq(int n, const char *name, u64 got, u64 want)
{
	rt_check(n, name, got == want, got, want);
}

void rt_range(int n, const char *name, u64 got, u64 lo, u64 hi)
{
	int ok = got >= lo && got <= hi;
	result(n, name, ok);
	if (!ok) {
		rt_puts(": got ");
		rt_puthex(got);
		rt_puts(" want ");
		rt_puthex(lo);
		rt_puts("..");
		rt_puthex(hi);
	}
	rt_putc('\n');
}

/* SRST system_reset(shutdown, reason); without SRST, the sifive_test
 * finisher at 0x100000 (QEMU virt), which OpenSBI 1.1 leaves open to S. */
static void __attribute__((noreturn)) shutdown(int fail)
{
	struct sbiret r = sbi1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_SRST);
#ifndef RT_FORCE_FINISHER
	if (!r.error && r.value)
		sbi2(SBI_EXT_SRST, 0, 0, fail ? 1 : 0);
#endif
	(void)r;
	*(volatile u32 *)0x100000ul = fail ? (1u << 16) | 0x3333 : 0x5555;
	for (;;)
		asm volatile("wfi");
}

void rt_exit(void)
{
	rt_puts("checks ");
	rt_putdec(checks);
	if (first_fail) {
		rt_puts(", first failing ");
		rt_putdec(first_fail);
	} else {
		rt_puts(", all passed");
	}
	rt_putc('\n');
	shutdown(first_fail != 0 || checks == 0);
}

void rt_fatal(const char *why, u64 v)
{
	rt_puts("FATAL ");
	rt_puts(why);
	rt_putc(' ');
	rt_puthex(v);
	rt_putc('\n');
	if (!first_fail)
		first_fail = -1;
	rt_exit();
}

/* Only LCOFI is expected; anything else ends the payload. */
void rt_s_trap(u64 cause, u64 epc)
{
	if (cause == (CAUSE_INT | IRQ_LCOF)) {
		long n = rt_irq_count;
		struct rt_irq *e = &rt_irq_log[n < RT_MAX_IRQ ? n : RT_MAX_IRQ - 1];
		e->cause = cause;
		e->epc = epc;
		e->scountovf = csrr(CSR_SCOUNTOVF);
		e->hook_err = lcofi_hook ? lcofi_hook() : 0;
		csrc(sip, 1ul << IRQ_LCOF);
		rt_irq_count = n + 1;
		return;
	}
	rt_puts("FATAL unexpected trap scause ");
	rt_puthex(cause);
	rt_puts(" sepc ");
	rt_puthex(epc);
	rt_puts(" stval ");
	rt_puthex(csrr(stval));
	rt_putc('\n');
	rt_fatal("trap", cause);
}
