/* Hot loops of tests/jit-system, compiled for the guest (hot.c) and for
 * the host (expect.c, which prints the values they must return): plain
 * C whose results do not depend on the ISA. Integer, loads and stores,
 * AMOs and LR/SC (GCC's __atomic builtins: amo*.d/w and lr/sc loops on
 * RISC-V), FP (no fused multiply-add: -ffp-contract=off on both sides),
 * multiply/divide, and what -march=..._zba_zbb makes Zba/Zbb instructions. */
#ifndef KERNELS_H
#define KERNELS_H
typedef unsigned long long k64;
typedef unsigned int k32;
#define KWORDS 4096   /* 32 KiB of data, pages of their own in the guest */

static inline k64 k_next(k64 *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 11;
}

/* loads and stores of every width, strided and dependent */
static k64 k_loadstore(k64 *buf, int iters)
{
	k64 s = 12345, sum = 0;
	for (int i = 0; i < KWORDS; i++)
		buf[i] = k_next(&s);
	unsigned char *b = (unsigned char *)buf;
	for (int it = 0; it < iters; it++) {
		unsigned j = (unsigned)(buf[it & (KWORDS - 1)] % KWORDS);
		sum += buf[j] ^ (k64)it;
		buf[(j * 7 + 3) & (KWORDS - 1)] += sum;
		((k32 *)buf)[(it * 13) & (2 * KWORDS - 1)] ^= (k32)sum;
		((unsigned short *)buf)[(it * 29) & (4 * KWORDS - 1)] += (unsigned short)it;
		b[(it * 101) & (8 * KWORDS - 1)] = (unsigned char)(sum >> 7);
		sum += (k64)(signed char)b[(it * 37) & (8 * KWORDS - 1)];
		sum += (k64)(int)((k32 *)buf)[(it * 5) & (2 * KWORDS - 1)];
	}
	for (int i = 0; i < KWORDS; i++)
		sum = sum * 31 + buf[i];
	return sum;
}

/* AMOs (add, swap, and, or, xor on 64 and 32 bits) and compare-and-swap
 * loops (LR/SC) */
static k64 k_atomic(k64 *buf, int iters)
{
	k64 s = 777, sum = 0;
	k32 *w = (k32 *)buf;
	for (int i = 0; i < 64; i++)
		buf[i] = k_next(&s);
	for (int it = 0; it < iters; it++) {
		k64 v = k_next(&s);
		unsigned j = (unsigned)(v & 63);
		sum += __atomic_fetch_add(&buf[j], v, __ATOMIC_RELAXED);
		sum ^= __atomic_exchange_n(&buf[(j + 1) & 63], sum, __ATOMIC_ACQ_REL);
		sum += __atomic_fetch_and(&buf[(j + 2) & 63], v | 0xff00ff00ull, __ATOMIC_RELAXED);
		sum += __atomic_fetch_or(&buf[(j + 3) & 63], v & 0x0f0f, __ATOMIC_RELAXED);
		sum += __atomic_fetch_xor(&w[(j + 5) & 127], (k32)v, __ATOMIC_SEQ_CST);
		sum += __atomic_fetch_add(&w[(j + 7) & 127], (k32)(v >> 9), __ATOMIC_RELAXED);
		k64 old = __atomic_load_n(&buf[(j + 4) & 63], __ATOMIC_RELAXED), nv;
		do
			nv = old * 3 + (k64)it;
		while (!__atomic_compare_exchange_n(&buf[(j + 4) & 63], &old, nv, 0,
						    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
		k32 o32 = __atomic_load_n(&w[(j + 9) & 127], __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&w[(j + 9) & 127], &o32, o32 + (k32)it + 1, 0,
						    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			;
	}
	for (int i = 0; i < 64; i++)
		sum = sum * 131 + buf[i];
	return sum;
}

static k64 k_dbits(double d)
{
	union { double d; k64 u; } x = { .d = d };
	return x.u;
}

/* double and float arithmetic, square roots, conversions, min/max,
 * compares (-fno-math-errno: the square roots are instructions) */
static k64 k_fp(int iters)
{
	double a = 1.0, b = 0.5, acc = 0;
	float fa = 3.0f, facc = 0;
	k64 sum = 0;
	for (int it = 1; it <= iters; it++) {
		a = a * 1.0000001 + b / (double)it;
		b = __builtin_sqrt(a + (double)(it & 15)) - b * 0.25;
		acc += a - b;
		fa = fa * 0.999f + (float)it / 7.0f;
		facc += __builtin_sqrtf(fa);
		double m = (a > b ? a : b) - (acc < (double)it ? acc : (double)it);
		sum += (k64)(long long)m + (a < b) + (acc >= a);
		sum += (k64)(unsigned)(facc / 16.0f);
		if (acc > 1e12)
			acc = acc / 3.0;
	}
	return sum ^ k_dbits(acc) ^ k_dbits(a) ^ (k64)k_dbits((double)facc);
}

/* multiply, high multiply and divide */
static k64 k_muldiv(int iters)
{
	k64 s = 99, sum = 0;
	for (int it = 0; it < iters; it++) {
		k64 x = k_next(&s), y = k_next(&s) | 1;
		long long sx = (long long)(x << 3), sy = (long long)(y | 0x8000000000000000ull) >> (it & 31);
		sum += x * y + (k64)(((unsigned __int128)x * y) >> 64);
		sum += (k64)(((__int128)sx * sy) >> 64);
		sum += x / y + x % (y >> (it & 15) | 1) + (k64)(sx / (sy | 1)) + (k64)(sx % 1000003);
		sum += (k64)((k32)x / ((k32)y | 1)) + (k64)(int)((int)x % (int)(y | 3));
		sum += (k64)(long long)(int)((k32)x * (k32)y);
	}
	return sum;
}

static k64 k_rotl(k64 x, unsigned r)
{
	return (x << (r & 63)) | (x >> ((64 - r) & 63));
}

/* what Zbb (clz, ctz, cpop, min/max, andn/orn/xnor, rotates, rev8,
 * sext/zext) and Zba (shNadd, add.uw) instructions compute */
static k64 k_bitmanip(k64 *buf, int iters)
{
	k64 s = 4242, sum = 0;
	for (int it = 0; it < iters; it++) {
		k64 x = k_next(&s) << (it & 7), y = k_next(&s);
		k32 w = (k32)y;
		sum += (k64)__builtin_popcountll(x) + (k64)(x ? __builtin_clzll(x) : 64) +
		       (k64)(x ? __builtin_ctzll(x) : 64) + (k64)__builtin_popcount(w);
		sum += (k64)(w ? __builtin_clz(w) : 32) + (k64)(w ? __builtin_ctz(w) : 32);
		sum ^= (x & ~y) + (x | ~sum) + ~(x ^ y);
		sum += k_rotl(x, (unsigned)y) ^ k_rotl(y, 64 - ((unsigned)x & 63));
		sum += __builtin_bswap64(x);
		long long a = (long long)x, b = (long long)y;
		sum += (k64)(a < b ? a : b) + (k64)(a > b ? a : b) + (x < y ? x : y) + (x > y ? x : y);
		sum += (k64)(long long)(signed char)x + (k64)(long long)(short)y + (k64)(unsigned short)x;
		unsigned j = (unsigned)(x % KWORDS);
		sum += buf[j] + ((k64)(k32)sum + y) + (k64)j * 8 + ((k64)j << 2) + ((k64)j << 1) + s;
		buf[(j + 1) & (KWORDS - 1)] = sum;
	}
	return sum;
}

#define K_ITERS_LS 20000
#define K_ITERS_AMO 5000
#define K_ITERS_FP 20000
#define K_ITERS_MD 10000
#define K_ITERS_BIT 20000
#endif
