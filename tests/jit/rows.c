/* Rows of accesses (src/hart/jit_row.c): loads, or stores, from one base
 * register in a block check their page once. Each case runs many times,
 * so that it runs translated, and prints what it saw:
 *   1. a row of loads and one of stores within a page, then across two;
 *   2. a load that replaces its base in mid-row: the accesses after it
 *      are from the new base, which is checked again (it points to
 *      another page, then to an unmapped one: SIGSEGV there);
 *   3. a row whose last load is in an unmapped page: SIGSEGV at that load
 *      (si_addr), with the store before the row done; and a load from
 *      the row's base past a jump, outside the row, into that page;
 *   4. a row of stores whose last store is in a read-only page: SIGSEGV
 *      there, the stores before it done, the page unchanged.
 * The output must equal qemu-riscv64's, translated and in the step loop. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RUNS 300

static sigjmp_buf env;
static volatile uintptr_t fault_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_addr = (uintptr_t)si->si_addr;
	siglongjmp(env, 1);
}

/* four loads from p: 0, 8, 16 and 24 bytes on */
static uint64_t load_row(const uint8_t *p)
{
	uint64_t a, b, c, d;
	__asm__ volatile("ld %0, 0(%4)\n\tld %1, 8(%4)\n\tld %2, 16(%4)\n\tld %3, 24(%4)"
			 : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d) : "r"(p) : "memory");
	return a ^ b << 1 ^ c << 2 ^ d << 3;
}

/* four stores of v to p: 0, 8, 16 and 24 bytes on */
static void store_row(uint8_t *p, uint64_t v)
{
	__asm__ volatile("sd %0, 0(%1)\n\tsd %0, 8(%1)\n\tsd %0, 16(%1)\n\tsd %0, 24(%1)"
			 : : "r"(v), "r"(p) : "memory");
}

/* a row from p whose second load replaces the base: the next two are
 * from *p, within the bytes the row from p had */
static uint64_t rebase_row(uint8_t *p)
{
	uint64_t q = (uint64_t)(uintptr_t)p, a, b, c;
	__asm__ volatile("ld %1, 8(%0)\n\tld %0, 0(%0)\n\tld %2, 0(%0)\n\tld %3, 8(%0)"
			 : "+r"(q), "=&r"(a), "=&r"(b), "=&r"(c) : : "memory");
	return a + 3 * b + 5 * c;
}

/* two loads from p, a jump (a row looks no further), and a third load
 * from p, 2040 bytes on: not in the row, checked on its own */
__attribute__((noinline)) static uint64_t jump_row(const uint8_t *p)
{
	uint64_t a, b, c;
	__asm__ volatile("ld %0, 0(%3)\n\tld %1, 8(%3)\n\tj 1f\n1:\tld %2, 2040(%3)"
			 : "=&r"(a), "=&r"(b), "=&r"(c) : "r"(p) : "memory");
	return a + b + c;
}

/* a store, then four loads from p; the stored value read back first */
static uint64_t store_then_loads(uint8_t *p, uint64_t v)
{
	uint64_t a, b, c, d;
	__asm__ volatile("sd %5, 0(%4)\n\tld %0, 0(%4)\n\tld %1, 8(%4)\n\tld %2, 16(%4)\n\t"
			 "ld %3, 24(%4)"
			 : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d) : "r"(p), "r"(v) : "memory");
	return a ^ b ^ c ^ d;
}

int main(void)
{
	const long pg = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, 4 * (size_t)pg, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	for (long i = 0; i < 2 * pg; i++)
		m[i] = (uint8_t)(i * 7 + 3);

	/* 1. within a page, then across pages */
	uint64_t sum = 0;
	for (int r = 0; r < RUNS; r++) {
		sum += load_row(m + 64 + (r & 7));
		sum += load_row(m + pg - 16 + (r & 7));
		store_row(m + 128 + 8 * (r & 3), (uint64_t)r);
		store_row(m + pg - 24 + (r & 7), (uint64_t)r * 3);
	}
	sum += load_row(m + 128) + load_row(m + pg - 24);
	printf("1. rows: %016llx\n", (unsigned long long)sum);

	/* 2. a base replaced in mid-row: m's first word points to page 1 */
	uint64_t *words = (uint64_t *)(m + pg);
	words[0] = 0x1111;
	words[1] = 0x2222;
	*(uint64_t *)(uintptr_t)m = (uint64_t)(uintptr_t)words;
	sum = 0;
	for (int r = 0; r < RUNS; r++)
		sum += rebase_row(m);
	printf("2. rebased: %llu\n", (unsigned long long)sum);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);

	/* 3. the row's last load in an unmapped page (page 3); the store
	 * before it done */
	munmap(m + 3 * pg, (size_t)pg);
	/* and a base replaced in mid-row by one into that page */
	*(uint64_t *)(uintptr_t)(m + 2 * pg) = (uint64_t)(uintptr_t)(m + 3 * pg);
	int faults = 0;
	for (volatile int r = 0; r < RUNS; r++) {
		fault_addr = 0;
		if (!sigsetjmp(env, 1))
			sum += rebase_row(m + 2 * pg);
		faults += fault_addr == (uintptr_t)(m + 3 * pg);
	}
	printf("2. rebased into an unmapped page: %d faults at the page\n", faults);
	uint8_t *edge = m + 3 * pg - 24;   /* loads at -24, -16, -8, +0 */
	faults = 0;
	for (volatile int r = 0; r < RUNS; r++) {
		fault_addr = 0;
		if (!sigsetjmp(env, 1))
			sum += store_then_loads(edge, (uint64_t)r + 5);
		faults += fault_addr == (uintptr_t)(m + 3 * pg);
	}
	printf("3. unmapped: %d faults at the page, stored %llu\n", faults,
	       (unsigned long long)*(uint64_t *)edge);
	faults = 0;
	for (volatile int r = 0; r < RUNS; r++) {
		fault_addr = 0;
		/* the first runs within page 2, so that it is translated; called
		 * through a pointer, so that a block starts at it */
		uint64_t (*volatile f)(const uint8_t *) = jump_row;
		if (!sigsetjmp(env, 1))
			sum += f(r < RUNS / 2 ? m + 2 * pg : m + 3 * pg - 16);
		faults += fault_addr == (uintptr_t)(m + 3 * pg - 16 + 2040);
	}
	printf("3. past a jump: %d faults at the page\n", faults);

	/* 4. stores whose last one is in a read-only page (page 1) */
	mprotect(m + pg, (size_t)pg, PROT_READ);
	uint64_t before = words[0];
	faults = 0;
	for (volatile int r = 0; r < RUNS; r++) {
		fault_addr = 0;
		if (!sigsetjmp(env, 1))
			store_row(m + pg - 24, (uint64_t)r + 9);
		faults += fault_addr == (uintptr_t)(m + pg);
	}
	printf("4. read-only: %d faults at the page, stored %llu %llu, page %s\n", faults,
	       (unsigned long long)*(uint64_t *)(m + pg - 24),
	       (unsigned long long)*(uint64_t *)(m + pg - 8),
	       words[0] == before ? "unchanged" : "WRITTEN");
	return 0;
}
