/* compute: integer-only mix — FNV-1a and a multiply-rotate hash over a
 * buffer, CRC-32 both table-driven and bitwise, a small integer matrix
 * multiply and a gcd/division loop. Almost no cache misses: this measures
 * raw ALU/M-extension throughput. Usage: compute [scale-percent] */
#include "common.h"
#include <string.h>

#define BUF_BYTES (256u * 1024u)
#define MAT_N 96

static uint8_t buf[BUF_BYTES] __attribute__((aligned(64)));
static uint32_t crc_table[256];
static uint32_t ma[MAT_N][MAT_N], mb[MAT_N][MAT_N], mc[MAT_N][MAT_N];

static NOINLINE uint64_t fnv1a64(const uint8_t *p, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static inline uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* xxhash-style lanes: four accumulators, multiply-rotate-multiply. */
static NOINLINE uint64_t mrhash(const uint8_t *p, size_t n, uint64_t seed)
{
	const uint64_t P1 = 0x9e3779b185ebca87ull, P2 = 0xc2b2ae3d27d4eb4full;
	uint64_t a = seed + P1, b = seed ^ P2, c = seed, d = seed - P1;
	for (size_t i = 0; i + 32 <= n; i += 32) {
		uint64_t w[4];
		memcpy(w, p + i, sizeof w);
		a = rotl64(a + w[0] * P2, 31) * P1;
		b = rotl64(b + w[1] * P2, 31) * P1;
		c = rotl64(c + w[2] * P2, 31) * P1;
		d = rotl64(d + w[3] * P2, 31) * P1;
	}
	uint64_t h = rotl64(a, 1) + rotl64(b, 7) + rotl64(c, 12) + rotl64(d, 18);
	h ^= h >> 33;
	h *= P2;
	return h ^ (h >> 29);
}

/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320). */
static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
		crc_table[i] = c;
	}
}

static NOINLINE uint32_t crc32_table(const uint8_t *p, size_t n, uint32_t crc)
{
	crc = ~crc;
	for (size_t i = 0; i < n; i++)
		crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static NOINLINE uint32_t crc32_bitwise(const uint8_t *p, size_t n, uint32_t crc)
{
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return ~crc;
}

static NOINLINE void matmul(void)
{
	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++) {
			uint32_t s = 0;
			for (int k = 0; k < MAT_N; k++)
				s += ma[i][k] * mb[k][j];
			mc[i][j] = s;
		}
}

/* Freivalds-style check: C*v must equal A*(B*v) (mod 2^32). */
static int matmul_check(uint64_t *rs)
{
	uint32_t v[MAT_N], bv[MAT_N];
	for (int i = 0; i < MAT_N; i++)
		v[i] = (uint32_t)rng_next(rs);
	for (int i = 0; i < MAT_N; i++) {
		uint32_t s = 0;
		for (int k = 0; k < MAT_N; k++)
			s += mb[i][k] * v[k];
		bv[i] = s;
	}
	for (int i = 0; i < MAT_N; i++) {
		uint32_t l = 0, r = 0;
		for (int k = 0; k < MAT_N; k++) {
			l += mc[i][k] * v[k];
			r += ma[i][k] * bv[k];
		}
		if (l != r)
			return 0;
	}
	return 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Euclid plus signed 32-bit division: exercises div/rem/divw/remw. */
static NOINLINE uint64_t divmix(uint64_t *rs, uint64_t n)
{
	uint64_t acc = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = rng_next(rs) >> 20, b = (rng_next(rs) >> 30) | 1;
		int32_t x = (int32_t)rng_next(rs), y = (int32_t)(rng_next(rs) >> 48) - 30000;
		acc += gcd(a, b);
		if (y != 0)
			acc += (uint64_t)(int64_t)(x / y) ^ (uint64_t)(int64_t)(x % y);
	}
	return acc;
}

int main(int argc, char **argv)
{
	unsigned pct = bench_scale(argc, argv);
	uint64_t rs = 0x636f6d70757465ull; /* "compute" */
	int ok = 1;

	for (size_t i = 0; i < BUF_BYTES; i++)
		buf[i] = (uint8_t)rng_next(&rs);
	crc_init();
	/* Published CRC-32 check value of the ASCII string "123456789". */
	if (crc32_table((const uint8_t *)"123456789", 9, 0) != 0xCBF43926u ||
	    crc32_bitwise((const uint8_t *)"123456789", 9, 0) != 0xCBF43926u) {
		printf("FAIL crc32 check value\n");
		ok = 0;
	}

	uint64_t fnv = 0xcbf29ce484222325ull;
	for (uint64_t r = scaled(80, pct); r--;)
		fnv = fnv1a64(buf, BUF_BYTES, fnv);

	uint64_t mrh = 0;
	for (uint64_t r = scaled(320, pct); r--;)
		mrh = mrhash(buf, BUF_BYTES, mrh);

	uint32_t crct = 0;
	for (uint64_t r = scaled(40, pct); r--;)
		crct = crc32_table(buf, BUF_BYTES, crct);

	/* Bitwise CRC over a prefix; must agree with the table version. */
	size_t bitn = (size_t)scaled(BUF_BYTES * 6, pct);
	uint32_t crcb = 0, crct2 = 0;
	for (size_t off = 0; off < bitn; off += BUF_BYTES) {
		size_t n = bitn - off < BUF_BYTES ? bitn - off : BUF_BYTES;
		crcb = crc32_bitwise(buf, n, crcb);
		crct2 = crc32_table(buf, n, crct2);
	}
	if (crcb != crct2) {
		printf("FAIL crc32 table/bitwise disagree\n");
		ok = 0;
	}

	uint64_t mmsum = 0;
	for (uint64_t r = scaled(8, pct); r--;) {
		for (int i = 0; i < MAT_N; i++)
			for (int j = 0; j < MAT_N; j++) {
				ma[i][j] = (uint32_t)rng_next(&rs);
				mb[i][j] = (uint32_t)rng_next(&rs);
			}
		matmul();
		if (!matmul_check(&rs)) {
			printf("FAIL matmul check\n");
			ok = 0;
		}
		for (int i = 0; i < MAT_N; i++)
			for (int j = 0; j < MAT_N; j++)
				mmsum = mix(mmsum, mc[i][j]);
	}

	uint64_t dm = divmix(&rs, scaled(400000, pct));

	uint64_t sum = mix(mix(mix(mix(mix(mix(0, fnv), mrh), crct), crcb), mmsum), dm);
	printf("fnv1a=%016llx mrhash=%016llx crc32=%08x crc32bit=%08x\n",
	       (unsigned long long)fnv, (unsigned long long)mrh, crct, crcb);
	printf("matmul=%016llx divmix=%016llx\n",
	       (unsigned long long)mmsum, (unsigned long long)dm);
	printf("compute checksum %016llx%s\n", (unsigned long long)sum, ok ? "" : " (SELF-CHECK FAILED)");
	return ok ? 0 : 1;
}
