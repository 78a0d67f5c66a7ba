/* branchy: control-flow heavy — quicksort and mergesort of random ints
 * (data-dependent compare branches) and a bytecode interpreter whose
 * switch dispatch is an indirect jump per virtual instruction, running a
 * generated program with data-dependent forward branches.
 * Usage: branchy [scale-percent] */
#include "common.h"
#include <string.h>

#define SORT_N (1u << 19)

static int32_t data[SORT_N], qs[SORT_N], ms[SORT_N], tmp[SORT_N];

static inline void swap_i32(int32_t *a, int32_t *b)
{
	int32_t t = *a;
	*a = *b;
	*b = t;
}

static void insertion_sort(int32_t *a, long n)
{
	for (long i = 1; i < n; i++) {
		int32_t v = a[i];
		long j = i - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}

/* Hoare partition with median-of-three pivot; recurse into the smaller
 * side so the stack stays O(log n). */
static NOINLINE void quicksort(int32_t *a, long n)
{
	while (n > 16) {
		long m = n / 2;
		if (a[m] < a[0])
			swap_i32(&a[m], &a[0]);
		if (a[n - 1] < a[0])
			swap_i32(&a[n - 1], &a[0]);
		if (a[n - 1] < a[m])
			swap_i32(&a[n - 1], &a[m]);
		int32_t pivot = a[m];
		long i = -1, j = n;
		for (;;) {
			do
				i++;
			while (a[i] < pivot);
			do
				j--;
			while (a[j] > pivot);
			if (i >= j)
				break;
			swap_i32(&a[i], &a[j]);
		}
		long left = j + 1;
		if (left < n - left) {
			quicksort(a, left);
			a += left;
			n -= left;
		} else {
			quicksort(a + left, n - left);
			n = left;
		}
	}
	insertion_sort(a, n);
}

/* Top-down mergesort of a[0..n) using t as scratch. */
static NOINLINE void mergesort_rec(int32_t *a, int32_t *t, long n)
{
	if (n <= 16) {
		insertion_sort(a, n);
		return;
	}
	long h = n / 2;
	mergesort_rec(a, t, h);
	mergesort_rec(a + h, t + h, n - h);
	long i = 0, j = h, k = 0;
	while (i < h && j < n)
		t[k++] = a[j] < a[i] ? a[j++] : a[i++];
	while (i < h)
		t[k++] = a[i++];
	while (j < n)
		t[k++] = a[j++];
	memcpy(a, t, (size_t)n * sizeof *a);
}

/* A register VM: 8 registers, 256 words of memory. */
enum op { OP_LI, OP_ADD, OP_SUB, OP_XOR, OP_AND, OP_OR, OP_MUL, OP_SHL,
	  OP_SHR, OP_LD, OP_ST, OP_BLT, OP_BEQ, OP_DJNZ, OP_HALT, OP_NUM };

struct vinsn {
	uint8_t op, rd, rs, rt;
	int32_t imm;
};

#define PROG_MAX 256
#define BODY_LEN 96

/* Body of random ALU/memory ops with forward branches whose outcome
 * depends on the data, looped by DJNZ on r7. */
static int gen_program(struct vinsn *p, uint64_t *rs, int32_t iters)
{
	int n = 0;
	for (int r = 0; r < 7; r++)
		p[n++] = (struct vinsn){ OP_LI, (uint8_t)r, 0, 0, (int32_t)rng_next(rs) };
	p[n++] = (struct vinsn){ OP_LI, 7, 0, 0, iters };
	int body = n;
	for (int k = 0; k < BODY_LEN; k++) {
		struct vinsn v;
		v.op = (uint8_t)rng_below(rs, OP_BEQ + 1);
		if (v.op == OP_LI)
			v.op = OP_ADD;
		v.rd = (uint8_t)rng_below(rs, 7); /* never clobber the loop counter */
		v.rs = (uint8_t)rng_below(rs, 8);
		v.rt = (uint8_t)rng_below(rs, 8);
		v.imm = (int32_t)rng_below(rs, 31) + 1;
		if (v.op == OP_BLT || v.op == OP_BEQ) {
			/* skip 1..3 following body instructions, staying in the body */
			int left = BODY_LEN - 1 - k;
			v.imm = left ? (int32_t)rng_below(rs, left < 3 ? (uint64_t)left : 3) + 1 : 0;
		}
		p[n++] = v;
	}
	p[n++] = (struct vinsn){ OP_DJNZ, 7, 0, 0, body };
	p[n++] = (struct vinsn){ OP_HALT, 0, 0, 0, 0 };
	return n;
}

static NOINLINE uint64_t vm_run(const struct vinsn *prog, uint64_t *steps)
{
	uint32_t r[8] = { 0 }, mem[256];
	uint64_t n = 0;
	for (int i = 0; i < 256; i++)
		mem[i] = (uint32_t)i * 2654435761u;
	for (int pc = 0;; ) {
		const struct vinsn *v = &prog[pc++];
		n++;
		switch (v->op) {
		case OP_LI: r[v->rd] = (uint32_t)v->imm; break;
		case OP_ADD: r[v->rd] = r[v->rs] + r[v->rt]; break;
		case OP_SUB: r[v->rd] = r[v->rs] - r[v->rt]; break;
		case OP_XOR: r[v->rd] = r[v->rs] ^ r[v->rt]; break;
		case OP_AND: r[v->rd] = r[v->rs] & (r[v->rt] | 0x10001u); break;
		case OP_OR: r[v->rd] = r[v->rs] | (r[v->rt] & 0xff00ffu); break;
		case OP_MUL: r[v->rd] = r[v->rs] * (r[v->rt] | 1u); break;
		case OP_SHL: r[v->rd] = r[v->rs] << (v->imm & 31); break;
		case OP_SHR: r[v->rd] = (r[v->rs] >> (v->imm & 31)) ^ r[v->rd]; break;
		case OP_LD: r[v->rd] = mem[(r[v->rs] + r[v->rt]) & 255]; break;
		case OP_ST: mem[(r[v->rs] + r[v->rd]) & 255] = r[v->rt] + r[v->rd]; break;
		case OP_BLT: if ((r[v->rs] & 0xffff) < (r[v->rt] & 0xffff)) pc += v->imm; break;
		case OP_BEQ: if ((r[v->rs] & 3) == (r[v->rt] & 3)) pc += v->imm; break;
		case OP_DJNZ: if (--r[v->rd]) pc = v->imm; break;
		case OP_HALT: goto done;
		default: __builtin_trap();
		}
	}
done:
	*steps = n;
	uint64_t h = 0;
	for (int i = 0; i < 8; i++)
		h = mix(h, r[i]);
	for (int i = 0; i < 256; i++)
		h = mix(h, mem[i]);
	return h;
}

int main(int argc, char **argv)
{
	unsigned pct = bench_scale(argc, argv);
	uint64_t rs = 0x6272616e636879ull; /* "branchy" */
	int ok = 1;

	long n = (long)scaled(SORT_N, pct);
	if (n > (long)SORT_N)
		n = SORT_N;
	uint64_t xsum = 0;
	for (long i = 0; i < n; i++) {
		/* A narrow range for a quarter of the values makes duplicates. */
		uint64_t x = rng_next(&rs);
		data[i] = (x & 3) ? (int32_t)(x >> 32) : (int32_t)((x >> 32) % 1000);
		xsum += (uint32_t)data[i];
	}
	memcpy(qs, data, (size_t)n * sizeof *qs);
	memcpy(ms, data, (size_t)n * sizeof *ms);
	quicksort(qs, n);
	mergesort_rec(ms, tmp, n);

	uint64_t qsum = 0, sh = 0;
	for (long i = 0; i < n; i++) {
		if (i && qs[i - 1] > qs[i]) {
			printf("FAIL quicksort order at %ld\n", i);
			ok = 0;
			break;
		}
		qsum += (uint32_t)qs[i];
		sh = sh * 1000003 + (uint32_t)qs[i];
	}
	if (qsum != xsum) {
		printf("FAIL quicksort lost elements\n");
		ok = 0;
	}
	if (memcmp(qs, ms, (size_t)n * sizeof *qs) != 0) {
		printf("FAIL mergesort and quicksort disagree\n");
		ok = 0;
	}

	static struct vinsn prog[PROG_MAX];
	uint64_t vh = 0, vsteps = 0;
	for (int run = 0; run < 4; run++) {
		uint64_t st;
		gen_program(prog, &rs, (int32_t)scaled(32000, pct));
		vh = mix(vh, vm_run(prog, &st));
		vsteps += st;
	}

	uint64_t sum = mix(mix(mix(0, sh), vh), vsteps);
	printf("sort n=%ld min=%d max=%d hash=%016llx\n", n, (int)qs[0], (int)qs[n - 1],
	       (unsigned long long)sh);
	printf("vm steps=%llu hash=%016llx\n", (unsigned long long)vsteps, (unsigned long long)vh);
	printf("branchy checksum %016llx%s\n", (unsigned long long)sum, ok ? "" : " (SELF-CHECK FAILED)");
	return ok ? 0 : 1;
}
