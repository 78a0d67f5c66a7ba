/* Microbenchmarks for calibrating the core profiles against published
 * silicon figures (bench/calibrate.py, docs/calibration.md).
 *
 *   ubench KERNEL N [BYTES]
 *
 * runs KERNEL N times (N iterations of a fixed unrolled body, or N passes
 * over BYTES of memory) and prints a checksum. What one iteration costs
 * comes from two runs with different N under `rvpmu stat -e cycles`: the
 * difference of the cycle counts over the difference of N, so that setup
 * (page faults, building a chase) cancels out. Each unrolled kernel's
 * body is UNROLL operations (inline assembly: the compiler cannot reorder
 * or fold them), plus the loop's own addi/bnez; KERNEL:2 has twice UNROLL,
 * so that one operation's cost is the difference of the two (the loop's
 * own cost cancels out too).
 *
 * Kernels:
 *   load-load   ld a0, 0(a0): the L1D load-to-load (address) latency
 *   load-alu    independent loads, each followed by an add of its value
 *               to a sum: whether an ALU op waits for a load's latency
 *   mul, div    dependent 64-bit mul / div
 *   fadd.d fmul.d fmadd.d fadd.s fmul.s fdiv.d fdiv.s   dependent FP ops
 *   alu-pairs   independent adds: issue width on ALU ops
 *   branch-same, branch-random   a conditional branch over an add on a
 *               64 KiB table's bytes: alternating (learnt) or random (half
 *               of them mispredicted)
 *   chase       a dependent walk around a random cycle of 64-byte nodes
 *               spread over BYTES (Sattolo's algorithm): load latency
 *               at that footprint, TLB misses included, as tinymembench
 *               and ramlat measure it
 *   chase2      two such walks at once (tinymembench's "dual random read")
 *   memset, memchr, fill, copy   libc memset / memchr (for a byte that
 *               is not there) and plain C loops of 64-bit stores / copies
 *               over BYTES (in-place, two buffers for copy) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNROLL 64
#define STR_(x) #x
#define STR(x) STR_(x)
#define REP(insn) ".rept " STR(UNROLL) "\n\t" insn "\n\t.endr\n\t"
static int twice;   /* KERNEL:2: each iteration runs the body twice over */
/* n iterations of a body, or of the body twice (two loops alike but for that) */
#define LOOP(n, body)                                          \
	do {                                                   \
		if (twice)                                     \
			for (uint64_t i_ = 0; i_ < (n); i_++) { \
				body;                          \
				body;                          \
			}                                      \
		else                                           \
			for (uint64_t i_ = 0; i_ < (n); i_++) { \
				body;                          \
			}                                      \
	} while (0)

static uint64_t seed = 0x9e3779b97f4a7c15;
static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* one iteration: UNROLL dependent ops on x (and y for FP), in asm */
#define CHAIN(name, setup, insn)                                                 \
	static uint64_t name(uint64_t n, uint64_t x)                             \
	{                                                                        \
		double d = 1.0, e = 0.5;                                         \
		float f = 1.0f, g = 0.5f;                                        \
		setup;                                                           \
		const uint64_t y = x | 1;                                        \
		LOOP(n, __asm__ volatile(REP(insn)                               \
					 : "+r"(x), "+f"(d), "+f"(f)             \
					 : "f"(e), "f"(g), "r"(y)));             \
		return x + (uint64_t)d + (uint64_t)f;                            \
	}

CHAIN(k_mul, , "mul %0, %0, %5")
CHAIN(k_div, x = ~UINT64_C(0), "div %0, %0, %5")
CHAIN(k_faddd, , "fadd.d %1, %1, %3")
CHAIN(k_fmuld, , "fmul.d %1, %1, %3")
CHAIN(k_fmaddd, , "fmadd.d %1, %1, %3, %3")
CHAIN(k_fdivd, , "fdiv.d %1, %1, %3")
CHAIN(k_fadds, , "fadd.s %2, %2, %4")
CHAIN(k_fmuls, , "fmul.s %2, %2, %4")
CHAIN(k_fdivs, , "fdiv.s %2, %2, %4")

static uint64_t self_ptr[8] __attribute__((aligned(64)));

static uint64_t k_load_load(uint64_t n)
{
	uint64_t p = (uint64_t)(uintptr_t)self_ptr;
	self_ptr[0] = p;
	LOOP(n, __asm__ volatile(REP("ld %0, 0(%0)") : "+r"(p)));
	return p;
}

/* UNROLL pairs of an independent load and an add of its value to a sum:
 * an add that waits the load's whole latency lets the next load issue only
 * with it (in order), one that may issue the next cycle does not */
static uint64_t k_load_alu(uint64_t n)
{
	uint64_t p = (uint64_t)(uintptr_t)self_ptr, t, sum = 0;
	LOOP(n, __asm__ volatile(REP("ld %1, 0(%2)\n\tadd %0, %0, %1") : "+r"(sum), "=&r"(t) : "r"(p)));
	return sum;
}

static uint64_t k_alu_pairs(uint64_t n)
{
	uint64_t a = 1, b = 2, c = 3, d = 4;
	LOOP(n, __asm__ volatile(".rept " STR(UNROLL / 4) "\n\t"
				 "addi %0, %0, 1\n\taddi %1, %1, 1\n\taddi %2, %2, 1\n\taddi %3, %3, 1\n\t"
				 ".endr"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d)));
	return a + b + c + d;
}

/* UNROLL conditional branches over an add, at one site in a loop (the
 * BTB holds it), each on a byte of a 64 KiB table read in order (again
 * from its start every 1024 iterations): random bits (half of them
 * mispredicted: the global history cannot learn the table) or alternating
 * ones (which it learns). Half are taken either way. */
static uint64_t k_branches(uint64_t n, int random)
{
	static uint8_t bits[65536] __attribute__((aligned(64)));
	uint64_t t = 0, sum = 0, k = 0;
	for (size_t i = 0; i < sizeof(bits); i++)
		bits[i] = random ? (uint8_t)(rnd() >> 63) : (uint8_t)(i & 1);
	const uint8_t *p = bits;
	LOOP(n, __asm__ volatile("li %3, " STR(UNROLL) "\n"
				 "1:\tlbu %1, 0(%0)\n\taddi %0, %0, 1\n\tbeqz %1, 2f\n\t"
				 "addi %2, %2, 1\n2:\taddi %3, %3, -1\n\tbnez %3, 1b"
				 : "+r"(p), "=&r"(t), "+r"(sum), "=&r"(k));
		p = bits + ((size_t)(p - bits) & (sizeof(bits) - 1)));
	return sum;
}

/* a random cycle of 64-byte nodes over bytes */
static uint64_t *make_chase(size_t bytes)
{
	size_t n = bytes / 64;
	uint64_t *buf = aligned_alloc(4096, n * 64);
	size_t *order = malloc(n * sizeof(*order));
	if (!buf || !order || n < 2) {
		fprintf(stderr, "ubench: cannot make a chase of %zu bytes\n", bytes);
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {   /* Sattolo: one cycle through all */
		size_t j = rnd() % i, t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		buf[order[i] * 8] = (uint64_t)(uintptr_t)&buf[order[(i + 1) % n] * 8];
	free(order);
	return buf;
}

static uint64_t k_chase(uint64_t n, size_t bytes, int two)
{
	uint64_t *buf = make_chase(bytes);
	uint64_t p = (uint64_t)(uintptr_t)buf, q = (uint64_t)(uintptr_t)&buf[(bytes / 128) * 8];
	q = *(uint64_t *)(uintptr_t)q;   /* on the cycle, away from p */
	/* a lap first, so that every run starts from a warm footprint */
	for (size_t i = 0; i < bytes / 64; i++)
		p = *(uint64_t *)(uintptr_t)p;
	for (uint64_t i = 0; i < n; i++) {
		if (two)
			__asm__ volatile(REP("ld %0, 0(%0)\n\tld %1, 0(%1)") : "+r"(p), "+r"(q));
		else
			__asm__ volatile(REP("ld %0, 0(%0)") : "+r"(p));
	}
	return p + q;
}

static uint64_t k_mem(const char *k, uint64_t n, size_t bytes)
{
	uint64_t *a = aligned_alloc(4096, bytes), *b = aligned_alloc(4096, bytes), s = 0;
	if (!a || !b) {
		fprintf(stderr, "ubench: no memory for %zu bytes\n", bytes);
		exit(1);
	}
	memset(a, 1, bytes);   /* fault every page in, before the passes */
	memset(b, 2, bytes);
	for (uint64_t i = 0; i < n; i++) {
		if (!strcmp(k, "memset")) {
			memset(a, (int)i, bytes);
		} else if (!strcmp(k, "memchr")) {
			s += (uintptr_t)memchr(a, 0xff, bytes);
		} else if (!strcmp(k, "fill")) {
			for (size_t j = 0; j < bytes / 8; j++)
				a[j] = i;
		} else {   /* copy */
			for (size_t j = 0; j < bytes / 8; j++)
				b[j] = a[j];
		}
		__asm__ volatile("" ::: "memory");
	}
	return s + a[bytes / 16] + b[bytes / 16];
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: ubench KERNEL N [BYTES]\n");
		return 2;
	}
	char k[32];
	snprintf(k, sizeof k, "%s", argv[1]);
	char *colon = strchr(k, ':');
	if (colon && !strcmp(colon, ":2")) {
		twice = 1;
		*colon = 0;
	}
	uint64_t n = strtoull(argv[2], NULL, 0), r;
	size_t bytes = argc > 3 ? (size_t)strtoull(argv[3], NULL, 0) : 0;
	static const struct { const char *name; uint64_t (*f)(uint64_t, uint64_t); } chains[] = {
		{"mul", k_mul}, {"div", k_div}, {"fadd.d", k_faddd}, {"fmul.d", k_fmuld},
		{"fmadd.d", k_fmaddd}, {"fdiv.d", k_fdivd}, {"fadd.s", k_fadds},
		{"fmul.s", k_fmuls}, {"fdiv.s", k_fdivs},
	};
	for (size_t i = 0; i < sizeof(chains) / sizeof(chains[0]); i++)
		if (!strcmp(k, chains[i].name)) {
			printf("%s %llu\n", k, (unsigned long long)chains[i].f(n, 3));
			return 0;
		}
	if (!strcmp(k, "load-load"))
		r = k_load_load(n);
	else if (!strcmp(k, "load-alu"))
		r = k_load_alu(n);
	else if (!strcmp(k, "alu-pairs"))
		r = k_alu_pairs(n);
	else if (!strcmp(k, "branch-same") || !strcmp(k, "branch-random"))
		r = k_branches(n, k[7] == 'r');
	else if ((!strcmp(k, "chase") || !strcmp(k, "chase2")) && bytes)
		r = k_chase(n, bytes, k[5] == '2');
	else if ((!strcmp(k, "memset") || !strcmp(k, "memchr") || !strcmp(k, "fill") ||
		  !strcmp(k, "copy")) && bytes)
		r = k_mem(k, n, bytes);
	else {
		fprintf(stderr, "ubench: unknown kernel %s (or BYTES missing)\n", k);
		return 2;
	}
	printf("%s %llu\n", k, (unsigned long long)r);
	return 0;
}
