/* Integer arithmetic and its printing: 64/128-bit products, division
 * corner cases, shifts, bit tricks, a prime sieve, integer printf formats. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t lcg = 0x243f6a8885a308d3u;
static uint64_t rnd(void)
{
	lcg = lcg * 6364136223846793005u + 1442695040888963407u;
	return lcg ^ (lcg >> 29);
}

/* volatile keeps the compiler from folding the interesting operations */
static volatile int64_t vs[] = { 0, 1, -1, 2, -2, 7, -7, 1000003, -1000003,
	INT64_MAX, INT64_MIN, INT32_MAX, INT32_MIN, 0x123456789abcdefLL };
#define NV (sizeof vs / sizeof vs[0])

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) { uint64_t t = a % b; a = b; b = t; }
	return a;
}

int main(void)
{
	for (unsigned i = 0; i < NV; i++)
		for (unsigned j = 0; j < NV; j++) {
			int64_t a = vs[i], b = vs[j];
			uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
			printf("%" PRId64 " %" PRId64 ": mul %" PRIu64, a, b, ua * ub);
			__int128 p = (__int128)a * b;
			unsigned __int128 up = (unsigned __int128)ua * ub;
			printf(" hi %" PRIx64 " uhi %" PRIx64, (uint64_t)(p >> 64),
			       (uint64_t)(up >> 64));
			if (b != 0 && !(a == INT64_MIN && b == -1))
				printf(" div %" PRId64 " rem %" PRId64, a / b, a % b);
			if (ub != 0)
				printf(" udiv %" PRIu64 " urem %" PRIu64, ua / ub, ua % ub);
			int32_t a32 = (int32_t)a, b32 = (int32_t)b;
			if (b32 != 0 && !(a32 == INT32_MIN && b32 == -1))
				printf(" w %d %d", a32 / b32, a32 % b32);
			printf(" sh %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", ua << (ub & 63),
			       ua >> (ub & 63), (uint64_t)(a >> (ub & 63)));
		}

	uint64_t h = 1469598103934665603u, acc = 0;
	for (int i = 0; i < 20000; i++) {
		uint64_t x = rnd(), y = rnd() | 1;
		h = (h ^ x) * 1099511628211u;
		acc += x / y + x % y + (uint64_t)__builtin_popcountll(x) +
		       (uint64_t)__builtin_clzll(y) + (uint64_t)__builtin_ctzll(x | 1u << 20);
		acc ^= (uint64_t)((int64_t)x >> (y & 63));
		acc += (uint32_t)x * (uint32_t)y;
		acc += (uint64_t)(int32_t)((int32_t)x / ((int32_t)y | 1));
	}
	printf("fnv %016" PRIx64 " acc %016" PRIx64 "\n", h, acc);

	/* sieve of Eratosthenes */
	enum { N = 200000 };
	static unsigned char comp[N];
	unsigned count = 0, last = 0;
	for (unsigned i = 2; i < N; i++) {
		if (comp[i])
			continue;
		count++, last = i;
		for (unsigned j = 2 * i; j < N; j += i)
			comp[j] = 1;
	}
	printf("primes below %d: %u, largest %u\n", N, count, last);

	uint64_t f0 = 0, f1 = 1;
	for (int i = 0; i < 93; i++) { uint64_t t = f0 + f1; f0 = f1; f1 = t; }
	printf("fib(93) %" PRIu64 "\n", f0);
	printf("gcd %" PRIu64 " %" PRIu64 "\n", gcd(1071u * 1000003u, 462u * 1000003u),
	       gcd(UINT64_MAX, 3u * 5 * 17 * 257 * 641));

	unsigned long long steps = 0;
	for (unsigned long long n = 1; n < 30000; n++)
		for (unsigned long long m = n; m != 1; steps++)
			m = (m & 1) ? 3 * m + 1 : m / 2;
	printf("collatz steps %llu\n", steps);

	/* printf integer formats */
	printf("[%d] [%5d] [%-5d] [%+d] [%05d] [% d]\n", 42, 42, 42, 42, -42, 42);
	printf("[%x] [%X] [%#x] [%#o] [%o] [%#X]\n", 3054, 3054, 3054, 8, 8, 0);
	printf("[%lld] [%llu] [%llx]\n", (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
	       (unsigned long long)INT64_MIN);
	printf("[%hhd] [%hd] [%hu] [%ld] [%zu] [%jd]\n", (signed char)200, (short)40000,
	       (unsigned short)70000, LONG_MIN, (size_t)-1, (intmax_t)-3);
	printf("[%.3d] [%8.3d] [%-8.3x|] [%c%c] [%%]\n", 7, -7, 255, 'o', 'k');
	char buf[64];
	volatile size_t lim = 8;
	int n = snprintf(buf, lim, "%d", 123456789);
	printf("snprintf %d '%s'\n", n, buf);
	printf("strtoll %lld %lld %llu %ld\n", strtoll("-9223372036854775808", NULL, 10),
	       strtoll("777", NULL, 8), strtoull("ffffffffffffffff", NULL, 16), strtol("z", NULL, 36));
	printf("abs %d labs %ld div %d %d\n", abs(-5), labs(-7L), div(-7, 2).quot, div(-7, 2).rem);
	return 0;
}
