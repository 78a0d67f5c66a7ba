/* Model cost per event: the host time uarch_retire() takes for each kind of
 * retired instruction, with the u74 profile's models (set up exactly as
 * `rvpmu stat --profile u74` does, through core_setup()). Each stream is a
 * loop of one instruction kind; the extra cost of a load or a branch is its
 * stream's time per record minus the ALU stream's (which already pays for
 * fetch through L1I/ITLB and the pipeline timing). Run by bench/run.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rvpmu/core.h"
#include "rvpmu/hart.h"
#include "rvpmu/profile.h"
#include "rvpmu/uarch.h"

enum { N = 1 << 16, REPS = 400 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* kinds: ALU; loads hitting L1D; loads over 64 MiB (miss L1D, L2 and the
 * TLBs); loop branches (predictable); branches on random data */
enum kind { K_ALU, K_LOAD_HIT, K_LOAD_MISS, K_BR_LOOP, K_BR_RAND, K_COUNT };
static const char *const kind_name[K_COUNT] = {
	"ALU instruction (fetch + timing)", "load, L1D hit", "load, cache and TLB miss",
	"branch, predictable", "branch, random",
};

static void make(struct retire_rec *s, enum kind k)
{
	for (size_t i = 0; i < N; i++) {
		struct retire_rec r = {0};
		r.pc = r.fetch_pa = 0x10000 + (i % 256) * 4;   /* a 1 KiB loop body: L1I hits */
		r.next_pc = r.pc + 4;
		r.ilen = 4;
		r.rd = (uint8_t)(5 + i % 8);
		r.rs1 = (uint8_t)(13 + i % 8);
		switch (k) {
		case K_ALU:
			r.cls = UARCH_CLS_ALU;
			break;
		case K_LOAD_HIT:
		case K_LOAD_MISS:
			r.cls = UARCH_CLS_LOAD;
			r.size = 8;
			r.addr = 0x1000000 + (k == K_LOAD_HIT ? (next() & 0x1ff8) : (next() & 0x3fffff8));
			r.paddr = r.addr;
			break;
		case K_BR_LOOP:
		case K_BR_RAND:
			r.cls = UARCH_CLS_BRANCH;
			r.taken = k == K_BR_LOOP ? (i % 16 != 15) : (next() & 1);
			if (r.taken)
				r.next_pc = r.pc - 64 < 0x10000 ? r.pc : r.pc - 64;
			break;
		default:
			break;
		}
		s[i] = r;
	}
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
	static struct hart h;
	struct profile p;
	char err[512];
	if (profile_load("u74", &p, err, sizeof err) || hart_init(&h) ||
	    core_setup(&h, &p, true, err, sizeof err) || !h.uarch) {
		fprintf(stderr, "model_cost: %s\n", err);
		return 1;
	}
	struct retire_rec *s = malloc(N * sizeof *s);
	if (!s)
		return 1;
	double ns[K_COUNT];
	for (int k = 0; k < K_COUNT; k++) {
		make(s, (enum kind)k);
		for (size_t i = 0; i < N; i++)   /* warm the models */
			uarch_retire(h.uarch, &s[i]);
		double best = 1e9;
		for (int trial = 0; trial < 3; trial++) {   /* least disturbed of 3 */
			double t0 = now();
			for (int r = 0; r < REPS; r++)
				for (size_t i = 0; i < N; i++)
					uarch_retire(h.uarch, &s[i]);
			double t = (now() - t0) * 1e9 / ((double)N * REPS);
			if (t < best)
				best = t;
		}
		ns[k] = best;
	}
	printf("%-34s %8s %10s\n", "retired instruction", "ns each", "extra ns");
	for (int k = 0; k < K_COUNT; k++)
		printf("%-34s %8.2f %10.2f\n", kind_name[k], ns[k], ns[k] - ns[K_ALU]);
	free(s);
	hart_free(&h);
	return 0;
}
