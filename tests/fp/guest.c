/* riscv64 guest of the FP differential test: reads struct fp_case records
 * from stdin, runs each one's instruction with the given static or dynamic
 * rounding mode, and prints "RESULT FFLAGS" in hex, one line per case.
 * fflags is cleared before and read after each instruction with csrrw.
 * Freestanding (raw read/write/exit syscalls) so that it needs nothing
 * from the emulator beyond the instructions under test. */
#include "fp_ops.h"

static long sys3(long n, long a, long b, long c)
{
	register long a0 __asm__("a0") = a, a1 __asm__("a1") = b, a2 __asm__("a2") = c;
	register long a7 __asm__("a7") = n;
	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return a0;
}

static char obuf[1 << 16];
static unsigned olen;

static void flush(void)
{
	unsigned off = 0;
	while (off < olen) {
		long n = sys3(64, 1, (long)(obuf + off), olen - off); /* write */
		if (n <= 0)
			sys3(93, 2, 0, 0);
		off += (unsigned)n;
	}
	olen = 0;
}

static void put_hex(uint64_t v, int digits)
{
	for (int i = digits - 1; i >= 0; i--)
		obuf[olen++] = "0123456789abcdef"[(v >> (4 * i)) & 15];
}

#define PRE "fmv.d.x ft0, %[a]\n\tfmv.d.x ft1, %[b]\n\tfmv.d.x ft3, %[c]\n\t" \
	"fsrm %[frm]\n\tcsrrw x0, fflags, x0\n\t"
#define POST_F "\n\tcsrrw %[fl], fflags, x0\n\tfmv.x.d %[r], ft2"
#define POST_X "\n\tcsrrw %[fl], fflags, x0"
#define ASM(body, post) __asm__ volatile(PRE body post \
	: [r] "=&r"(r), [fl] "=&r"(fl) \
	: [a] "r"(k->a), [b] "r"(k->b), [c] "r"(k->c), [frm] "r"((long)k->frm) \
	: "ft0", "ft1", "ft2", "ft3")

#define BODY_FFF(mn) mn " ft2, ft0, ft1"
#define BODY_FF(mn) mn " ft2, ft0"
#define BODY_FFFF(mn) mn " ft2, ft0, ft1, ft3"
#define BODY_XFF(mn) mn " %[r], ft0, ft1"
#define BODY_XF(mn) mn " %[r], ft0"
#define BODY_FX(mn) mn " ft2, %[a]"
#define POST_FFF POST_F
#define POST_FF POST_F
#define POST_FFFF POST_F
#define POST_XFF POST_X
#define POST_XF POST_X
#define POST_FX POST_F

#define CASES_RM(id, body, post) \
	case (id) * 8 + 0: ASM(body ", rne", post); break; \
	case (id) * 8 + 1: ASM(body ", rtz", post); break; \
	case (id) * 8 + 2: ASM(body ", rdn", post); break; \
	case (id) * 8 + 3: ASM(body ", rup", post); break; \
	case (id) * 8 + 4: ASM(body ", rmm", post); break; \
	case (id) * 8 + RM_DYN: ASM(body ", dyn", post); break;
#define CASES_NORM(id, body, post) \
	case (id) * 8 + RM_DYN: ASM(body, post); break;
#define CASE(name, mn, kind, rm, fmt) CASES_##rm(OP_##name, BODY_##kind(mn), POST_##kind)

static void run(const struct fp_case *k)
{
	uint64_t r = 0, fl = 0;
	switch (k->op * 8 + k->rm) {
	FP_OPS(CASE)
	default:
		r = ~0ull;
		fl = 0xff;
	}
	if (olen > sizeof obuf - 32)
		flush();
	put_hex(r, 16);
	obuf[olen++] = ' ';
	put_hex(fl, 2);
	obuf[olen++] = '\n';
}

static struct fp_case buf[2048];

static void main_loop(void)
{
	unsigned long have = 0;
	for (;;) {
		long n = sys3(63, 0, (long)((char *)buf + have), sizeof buf - have); /* read */
		if (n < 0)
			sys3(93, 3, 0, 0);
		have += (unsigned long)n;
		unsigned long whole = have / sizeof buf[0];
		for (unsigned long i = 0; i < whole; i++)
			run(&buf[i]);
		unsigned long rest = have - whole * sizeof buf[0];
		for (unsigned long i = 0; i < rest; i++)
			((char *)buf)[i] = ((char *)buf)[whole * sizeof buf[0] + i];
		have = rest;
		if (n == 0)
			break;
	}
	flush();
	sys3(93, have ? 4 : 0, 0, 0); /* exit: a partial record is an error */
}

__attribute__((naked, noreturn)) void _start(void)
{
	__asm__ volatile(
		".option push\n\t.option norelax\n\tla gp, __global_pointer$\n\t.option pop\n\t"
		"andi sp, sp, -16\n\tcall %0\n" : : "i"(main_loop));
}
