/* smc: self-modifying code, as a JIT that patches its own code does. A
 * small function on an RWX page is rewritten before every call (the
 * immediate of one instruction, then FENCE.I); the rest of the program,
 * and a second function on the same page, stay unchanged. Both are
 * copied from an assembled template, so no encoding is written by hand
 * but the I-type immediate field; each call's result is checked against
 * the same computation in C. Usage: smc [scale-percent] */
#include "common.h"
#include <string.h>
#include <sys/mman.h>

/* f(a0): 16 rounds of a0 = a0 * 3 + IMM, where IMM is the immediate of
 * the addi at tpl_imm; a second, never rewritten function g follows it
 * on the page (a0 ^ a0 >> 7, 16 times) */
__asm__(".section .rodata\n"
	".balign 4\n"
	".option push\n"
	".option norvc\n"
	"tpl:\n"
	"	li t0, 16\n"
	"1:	slli t1, a0, 1\n"
	"	add a0, a0, t1\n"
	"tpl_imm:\n"
	"	addi a0, a0, 0\n"
	"	addi t0, t0, -1\n"
	"	bnez t0, 1b\n"
	"	ret\n"
	"tpl_g:\n"
	"	li t0, 16\n"
	"2:	srli t1, a0, 7\n"
	"	xor a0, a0, t1\n"
	"	addi t0, t0, -1\n"
	"	bnez t0, 2b\n"
	"	ret\n"
	"tpl_end:\n"
	".option pop\n"
	".text\n");
extern const uint32_t tpl[], tpl_imm[], tpl_g[], tpl_end[];

typedef uint64_t fn(uint64_t);

static inline void fence_i(void)
{
	__asm__ volatile("fence.i" ::: "memory");
}

/* what f and g compute, for the self-check */
static uint64_t f_ref(uint64_t x, int64_t imm)
{
	for (int k = 0; k < 16; k++)
		x = x * 3 + (uint64_t)imm;
	return x;
}

static uint64_t g_ref(uint64_t x)
{
	for (int k = 0; k < 16; k++)
		x ^= x >> 7;
	return x;
}

int main(int argc, char **argv)
{
	uint64_t n = scaled(400000, bench_scale(argc, argv));
	uint32_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		perror("smc: mmap");
		return 1;
	}
	memcpy(page, tpl, (size_t)((const char *)tpl_end - (const char *)tpl));
	fence_i();
	uint32_t *imm = page + (tpl_imm - tpl);
	fn *f = (fn *)(void *)page, *g = (fn *)(void *)(page + (tpl_g - tpl));
	uint64_t h = 0, s = 1;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t v = (uint32_t)rng_below(&s, 4096);
		*imm = (*imm & 0xfffffu) | v << 20;  /* addi's imm[11:0]: bits 31:20 */
		fence_i();
		uint64_t a = f(i), b = g(h);
		if (a != f_ref(i, v < 2048 ? v : (int64_t)v - 4096) || b != g_ref(h)) {
			printf("FAIL smc: call %llu ran old code\n", (unsigned long long)i);
			return 1;
		}
		h = mix(mix(h, a), b);
	}
	printf("smc: %llu rewrites\nsmc checksum %016llx\n", (unsigned long long)n,
	       (unsigned long long)h);
	return 0;
}
