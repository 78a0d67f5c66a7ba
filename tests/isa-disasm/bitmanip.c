/* Code GCC compiles to Zba/Zbb/Zbs instructions (built with
 * -march=rv64gc_zba_zbb_zbs) for the disassembly comparison. */
#include <stdint.h>
#include <stdio.h>

volatile uint64_t in[8] = {0x0123456789abcdefull, 0xffull, 1, 0, 0x80000000ull, 7, 9, 12345};

static uint64_t rotl(uint64_t x, int n) { return x << (n & 63) | x >> (-n & 63); }
static uint32_t rotr32(uint32_t x, int n) { return x >> (n & 31) | x << (-n & 31); }

int main(void)
{
	uint64_t acc = 0;
	uint32_t idx[8];
	for (int i = 0; i < 8; i++) {
		uint64_t x = in[i];
		acc += (uint64_t)__builtin_popcountll(x) + (x ? __builtin_clzll(x) + __builtin_ctzll(x) : 0);
		acc ^= rotl(x, i) + rotr32((uint32_t)x, i) + __builtin_bswap64(x);
		acc += (x & ~acc) | (x | ~acc) | ~(x ^ acc);
		acc += (uint64_t)(int8_t)x + (uint64_t)(int16_t)x + (uint16_t)x + (uint32_t)x;
		acc |= 1ull << (x & 63);
		acc &= ~(1ull << (i * 3));
		acc ^= 1ull << (i + 40);
		acc += (x >> (i & 63)) & 1;
		acc += x > acc ? x : acc;
		acc += (int64_t)x < (int64_t)acc ? x : acc;
		idx[i] = (uint32_t)x;
	}
	for (int i = 0; i < 8; i++)
		acc += in[idx[i] & 7] + ((uint64_t)idx[i] << 3);
	printf("%llx\n", (unsigned long long)acc);
	return 0;
}
