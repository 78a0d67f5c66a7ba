/* Translated code must come back after the two events that once sent hot
 * code to the step loop for good (the suite checks the share of
 * instructions run translated, from RVPMU_JIT_STATS):
 *  1. a side exit: a byte loop storing into fresh anonymous pages leaves
 *     its block at each page's first touch, and the step loop does that
 *     store; the loop must then run translated again;
 *  2. a flush: a store into a page holding translated code (a function
 *     written at run time) drops every block; the hot loop must be
 *     translated again, with the models on as well as without. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#define PAGES 64

/* noinline: the same loops run before and after the flush */
__attribute__((noinline)) static void fill(uint8_t *p, unsigned long n, unsigned long v)
{
	/* the store comes first: the block that reaches the loop from the
	 * entry holds it, and a page's first touch leaves from there */
	uint8_t *end = p + n;
	__asm__ volatile("1: sb %1, 0(%0)\n\taddi %0, %0, 1\n\taddi %1, %1, 1\n\tbne %0, %2, 1b"
			 : "+r"(p), "+r"(v) : "r"(end) : "memory");
}

__attribute__((noinline)) static uint64_t mix(const uint8_t *p, unsigned long n, uint64_t h)
{
	for (unsigned long i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

int main(void)
{
	/* 1: each page's first store is a side exit */
	uint8_t *dst = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (dst == MAP_FAILED || code == MAP_FAILED)
		return 2;
	for (int i = 0; i < PAGES; i++)
		fill(dst + i * 4096, 4096, (unsigned long)i);
	uint64_t h = mix(dst, PAGES * 4096ul, 1469598103934665603ull);
	/* 2: a function written at run time, run, rewritten */
	code[0] = 0x00150513;   /* addi a0, a0, 1 */
	code[1] = 0x00008067;   /* ret */
	__asm__ volatile("fence.i" ::: "memory");
	uint64_t (*f)(uint64_t) = (uint64_t (*)(uint64_t))(uintptr_t)code;
	h += f(h);
	code[0] = 0x00250513;   /* addi a0, a0, 2: its block and all others go */
	__asm__ volatile("fence.i" ::: "memory");
	h += f(h);
	for (int r = 0; r < 8; r++) {
		fill(dst, PAGES * 4096ul, (unsigned long)h);
		h = mix(dst, PAGES * 4096ul, h);
	}
	printf("restart %016llx\n", (unsigned long long)h);
	return 0;
}
