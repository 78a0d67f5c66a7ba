/* Bare-metal runtime: ns16550a console, sifive_test finisher, trap
 * recording, M->S/U calls, device-tree ISA string lookup. */
#include "rt.h"

#define UART ((volatile unsigned char *)0x10000000ul)
#define FINISHER ((volatile u32 *)0x100000ul)

struct rt_trap rt_trap;
int (*rt_trap_hook)(u64 *frame, u64 cause, u64 epc, char level);
volatile u64 rt_vec_slot, rt_vec_cause, rt_vec_count;
u64 rt_boot_fdt;
static int first_fail, nchecks;
static volatile int in_trap;
static long total_traps;

long rt_setjmp(u64 *ctx);
void rt_longjmp(u64 *ctx, long v) __attribute__((noreturn));
extern char rt_lower_entry[], __lower_stack_top[];
static u64 mode_ctx[14];
static volatile long mode_ret;

void *memset(void *d, int c, unsigned long n)
{
	unsigned char *p = d;
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, unsigned long n)
{
	unsigned char *p = d;
	const unsigned char *q = s;
	while (n--)
		*p++ = *q++;
	return d;
}

void rt_putc(int c)
{
	while (!(UART[5] & 0x20))	/* LSR.THRE */
		;
	UART[0] = (unsigned char)c;
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
	while (i > 0 && !(v >> i))
		i -= 4;
	for (; i >= 0; i -= 4)
		rt_putc("0123456789abcdef"[(v >> i) & 15]);
}

void rt_putdec(long v)
{
	char b[24];
	int i = 0;
	u64 u = v < 0 ? -(u64)v : (u64)v;
	if (v < 0)
		rt_putc('-');
	do
		b[i++] = (char)('0' + u % 10);
	while (u /= 10);
	while (i)
		rt_putc(b[--i]);
}

/* sifive_test: 0x5555 = pass, (code << 16) | 0x3333 = fail with code */
void rt_exit(long code)
{
	*FINISHER = code ? ((u32)code << 16) | 0x3333u : 0x5555u;
	for (;;)
		asm volatile("wfi");
}

void rt_trap_clear(void)
{
	rt_trap.count = 0;
	rt_trap.cause = rt_trap.epc = rt_trap.tval = rt_trap.status = ~0ul;
	rt_trap.level = 0;
}

int rt_check(int n, const char *what, int ok, u64 got, u64 want)
{
	nchecks++;
	if (ok) {
		rt_puts("ok ");
		rt_putdec(n);
		rt_puts(" ");
		rt_puts(what);
		rt_puts("\n");
		return 1;
	}
	if (!first_fail)
		first_fail = n;
	rt_puts("FAIL ");
	rt_putdec(n);
	rt_puts(" ");
	rt_puts(what);
	rt_puts(": got ");
	rt_puthex(got);
	rt_puts(" want ");
	rt_puthex(want);
	rt_puts("\n");
	return 0;
}

int rt_check_trap(int n, const char *what, u64 pc, u64 cause, u64 tval)
{
	int ok = rt_trap.count == 1 && rt_trap.cause == cause && rt_trap.epc == pc &&
		 (tval == ~0ul || rt_trap.tval == tval);
	if (!ok && rt_trap.count == 1 && rt_trap.cause == cause && rt_trap.epc == pc)
		return rt_check(n, what, 0, rt_trap.tval, tval);	/* wrong mtval */
	if (!ok && rt_trap.count == 1 && rt_trap.cause == cause)
		return rt_check(n, what, 0, rt_trap.epc, pc);		/* wrong mepc */
	if (!ok && rt_trap.count == 1)
		return rt_check(n, what, 0, rt_trap.cause, cause);	/* wrong cause */
	return rt_check(n, what, ok, rt_trap.count, 1);		/* trap count */
}

int rt_check_notrap(int n, const char *what)
{
	return rt_check(n, what, rt_trap.count == 0, rt_trap.cause, ~0ul);
}

int rt_done(void)
{
	rt_puts("checks ");
	rt_putdec(nchecks);
	rt_puts(first_fail ? ", first failing " : ", all passed");
	if (first_fail)
		rt_putdec(first_fail);
	rt_puts("\n");
	return first_fail;
}

static u64 insn_len(u64 pc)
{
	return (*(volatile unsigned short *)pc & 3) == 3 ? 4 : 2;
}

static void record(u64 *f, u64 cause, u64 epc, u64 tval, u64 status, char level)
{
	rt_trap.count++;
	rt_trap.cause = cause;
	rt_trap.epc = epc;
	rt_trap.tval = tval;
	rt_trap.status = status;
	rt_trap.level = level;
	for (int i = 0; i < 32; i++)
		rt_trap.regs[i] = f[i];
}

static void guard(void)
{
	if (in_trap) {
		rt_puts("FATAL trap inside the trap handler\n");
		rt_exit(251);
	}
	if (++total_traps > 100000) {
		rt_puts("FATAL trap storm\n");
		rt_exit(252);
	}
	in_trap = 1;
}

/* Default policy: record; skip a faulting instruction; for an interrupt,
 * clear its enable bit so it is taken once. */
void rt_m_trap(u64 *f)
{
	u64 cause = csrr(mcause), epc = csrr(mepc), tval = csrr(mtval);
	u64 status = csrr(mstatus);

	if ((cause == 8 || cause == 9 || cause == 10) && f[17] == RT_MAGIC) {
		mode_ret = (long)f[10];   /* from U, S, VU or VS (10) */
		in_trap = 0;
		rt_longjmp(mode_ctx, 1);
	}
	guard();
	if (!rt_trap_hook || !rt_trap_hook(f, cause, epc, 'M')) {
		record(f, cause, epc, tval, status, 'M');
		if (cause & CAUSE_INT)
			csrc(mie, 1ul << (cause & 63));
		else
			csrw(mepc, epc + insn_len(epc));
	}
	in_trap = 0;
}

void rt_s_trap(u64 *f)
{
	u64 cause = csrr(scause), epc = csrr(sepc), tval = csrr(stval);
	u64 status = csrr(sstatus);

	if ((cause == 8 || cause == 9) && f[17] == RT_MAGIC) {
		/* rt_run's closing ecall was delegated: pass it on to M */
		register u64 a0 asm("a0") = f[10];
		register u64 a7 asm("a7") = RT_MAGIC;
		asm volatile("ecall" :: "r"(a0), "r"(a7));
	}
	guard();
	if (!rt_trap_hook || !rt_trap_hook(f, cause, epc, 'S')) {
		record(f, cause, epc, tval, status, 'S');
		if (cause & CAUSE_INT)
			csrc(sie, 1ul << (cause & 63));
		else
			csrw(sepc, epc + insn_len(epc));
	}
	in_trap = 0;
}

long rt_run(int mode, long (*fn)(long), long arg)
{
	if (rt_setjmp(mode_ctx) == 0) {
		u64 ms = csrr(mstatus);
		ms = (ms & ~(MSTATUS_MPP | MSTATUS_MPV)) | ((u64)(mode & 3) << 11) |
		     (mode & PRV_V ? MSTATUS_MPV : 0);
		csrw(mstatus, ms);
		csrw(mepc, (u64)rt_lower_entry);
		register u64 a0 asm("a0") = (u64)arg;
		register u64 a1 asm("a1") = (u64)fn;
		asm volatile("mv sp, %2\n mret" :: "r"(a0), "r"(a1), "r"(__lower_stack_top));
		__builtin_unreachable();
	}
	return mode_ret;
}

extern char rt_csrr_0xb00[], rt_csrw_0xb00[], rt_csrr_0x320[], rt_csrw_0x320[];
extern char rt_csrr_0xc00[], rt_csrw_0xc00[];

static char *dyn_entry(u32 csr, int write)
{
	char *t;
	switch (csr & ~31u) {
	case 0xb00: t = write ? rt_csrw_0xb00 : rt_csrr_0xb00; break;
	case 0x320: t = write ? rt_csrw_0x320 : rt_csrr_0x320; break;
	case 0xc00: t = write ? rt_csrw_0xc00 : rt_csrr_0xc00; break;
	default: rt_puts("FATAL bad dynamic CSR\n"); rt_exit(253);
	}
	return t + 8 * (csr & 31);
}

u64 csr_read_dyn(u32 csr)
{
	register u64 a0 asm("a0");
	asm volatile("jalr %1" : "=r"(a0) : "r"(dyn_entry(csr, 0)) : "ra", "memory");
	return a0;
}

void csr_write_dyn(u32 csr, u64 v)
{
	register u64 a0 asm("a0") = v;
	asm volatile("jalr %1" : "+r"(a0) : "r"(dyn_entry(csr, 1)) : "ra", "memory");
}

/* Flattened device tree (devicetree spec v0.4 ch. 5): big-endian tokens */
static u32 be32(const void *p)
{
	const unsigned char *b = p;
	return ((u32)b[0] << 24) | ((u32)b[1] << 16) | ((u32)b[2] << 8) | b[3];
}

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static u64 slen(const char *s)
{
	u64 n = 0;
	while (s[n])
		n++;
	return n;
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* NAME as an underscore-separated token of a riscv,isa string, or a
 * single-letter NAME among the letters after "rv64" */
static int isa_has(const char *isa, const char *name)
{
	if (name[0] && !name[1] && slen(isa) > 4)
		for (const char *p = isa + 4; *p && *p != '_'; p++)
			if (lower(*p) == name[0])
				return 1;
	for (const char *p = isa; *p; p++) {
		if (*p != '_')
			continue;
		const char *a = p + 1, *b = name;
		while (*b && lower(*a) == *b)
			a++, b++;
		if (!*b && (*a == 0 || *a == '_'))
			return 1;
	}
	return 0;
}

int rt_fdt_has_ext(const char *name)
{
	const char *fdt = (const char *)rt_boot_fdt;
	if (!fdt || ((u64)fdt & 3) || be32(fdt) != 0xd00dfeed)
		return -1;
	const char *p = fdt + be32(fdt + 8), *strs = fdt + be32(fdt + 12);
	int found = 0;
	for (;;) {
		u32 tok = be32(p);
		p += 4;
		if (tok == 1) {			/* FDT_BEGIN_NODE */
			while (*p++)
				;
			p = (const char *)(((u64)p + 3) & ~3ul);
		} else if (tok == 3) {		/* FDT_PROP */
			u32 len = be32(p), off = be32(p + 4);
			const char *v = p + 8, *pn = strs + off;
			if (streq(pn, "riscv,isa")) {
				found = 1;
				if (isa_has(v, name))
					return 1;
			} else if (streq(pn, "riscv,isa-extensions")) {
				found = 1;
				for (const char *s = v; s < v + len; s += 1 + slen(s))
					if (streq(s, name))
						return 1;
			}
			p = (const char *)(((u64)(v + len) + 3) & ~3ul);
		} else if (tok == 2 || tok == 4) {
			;
		} else {
			break;			/* FDT_END or garbage */
		}
	}
	return found ? 0 : -1;
}
