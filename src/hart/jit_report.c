/*
 * RVPMU_JIT_STATS's report: how much of a run was translated code and
 * where it left it, summed over harts. `rvpmu run`/`stat` (src/linux)
 * and `rvpmu system` print the same lines; tests and bench/real.py read
 * them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <rvpmu/hart.h>
#include <rvpmu/isa.h>
#include "jit.h"

static int by_count(const void *a, const void *b)
{
	uint64_t x = ((const uint64_t *)a)[0], y = ((const uint64_t *)b)[0];
	return x < y ? 1 : x > y ? -1 : 0;
}

void hart_jit_report(const struct hart *const *harts, unsigned n, uint64_t all,
		     void (*say)(void *ctx, const char *line), void *ctx)
{
	struct hart_jit_stats s = {0}, one;
	struct hart_jit_prof f = {0};
	for (unsigned i = 0; i < n; i++) {
		const struct hart *h = harts[i];
		hart_jit_stats(h, &one);
		s.translated += one.translated;
		s.flushes += one.flushes;
		s.bytes += one.bytes;
		s.inner += one.inner;
		s.largest = one.largest > s.largest ? one.largest : s.largest;
		s.room = one.room > s.room ? one.room : s.room;
		if (!h->jprof)
			continue;
		const uint64_t *a = (const uint64_t *)h->jprof;
		uint64_t *sum = (uint64_t *)&f;
		for (size_t k = 0; k < sizeof(f) / sizeof(uint64_t); k++)
			sum[k] += a[k];
	}
	char line[1024];
	snprintf(line, sizeof(line), "rvpmu: jit: %llu blocks translated, %llu flushes, largest %u of %u bytes, "
		 "%llu code bytes made, %llu branches gone on past", (unsigned long long)s.translated,
		 (unsigned long long)s.flushes, s.largest, s.room, (unsigned long long)s.bytes,
		 (unsigned long long)s.inner);
	say(ctx, line);
	if (!all)
		return;
	snprintf(line, sizeof(line), "rvpmu: jit: %llu of %llu instructions (%.1f%%) in translated code, "
		 "%llu block runs; the step loop's: %llu block starts with too little budget, %llu side exits, "
		 "%llu blocks given back, %llu decodes untranslatable, %llu on written code pages",
		 (unsigned long long)f.in_blocks, (unsigned long long)all, 100.0 * (double)f.in_blocks / (double)all,
		 (unsigned long long)f.block_runs, (unsigned long long)f.short_budget,
		 (unsigned long long)f.side_exits, (unsigned long long)f.given_back,
		 (unsigned long long)f.untranslated, (unsigned long long)f.no_jit_page);
	say(ctx, line);
	/* the kinds the step loop ran most (counted only where it counts
	 * instruction classes: models or counting events on) */
	static uint64_t top[INSN_COUNT][2];
	unsigned k = 0;
	for (unsigned id = INSN_NONE + 1; id < INSN_COUNT; id++)   /* NONE: a slot on its way to decode */
		if (f.step[id])
			top[k][0] = f.step[id], top[k++][1] = id;
	if (!k)
		return;
	qsort(top, k, sizeof(top[0]), by_count);
	size_t len = (size_t)snprintf(line, sizeof(line), "rvpmu: jit: step loop by kind: ");
	for (unsigned i = 0; i < k && i < 16 && len < sizeof(line) - 64; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s %llu (%.2f%%)", i ? ", " : "",
					insn_table[top[i][1]].name, (unsigned long long)top[i][0],
					100.0 * (double)top[i][0] / (double)all);
	say(ctx, line);
}

/* RVPMU_PERF_MAP: each block's host code in /tmp/perf-PID.map, the file
 * perf report reads to name code made at run time (its JIT convention),
 * so a host profile of rvpmu says which guest blocks took the time. */
static FILE *perf_map(void)
{
	static FILE *f;
	static int state;   /* 0 not looked at, 1 on, -1 off */
	if (!state) {
		state = getenv("RVPMU_PERF_MAP") ? 1 : -1;
		if (state > 0) {
			char path[64];
			snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
			if (!(f = fopen(path, "w"))) {
				fprintf(stderr, "rvpmu: RVPMU_PERF_MAP: cannot write %s\n", path);
				state = -1;
			}
		}
	}
	return state > 0 ? f : NULL;
}

void jit_perf_map(const void *hot, size_t hot_len, const void *cold, size_t cold_len, uint64_t pc,
		  int models)
{
	FILE *f = perf_map();
	if (!f)
		return;
	const char *kind = models ? "+models" : "";
	fprintf(f, "%lx %zx guest_%llx%s\n", (unsigned long)(uintptr_t)hot, hot_len, (unsigned long long)pc, kind);
	if (cold_len)
		fprintf(f, "%lx %zx guest_%llx%s.cold\n", (unsigned long)(uintptr_t)cold, cold_len,
			(unsigned long long)pc, kind);
	fflush(f);
}

void jit_perf_map_sub(const void *code, size_t len, unsigned k, int write)
{
	static const char *const cache[4] = {"itlb", "l1i", "dtlb", "l1d"};   /* cache_k()'s */
	FILE *f = perf_map();
	if (!f)
		return;
	fprintf(f, "%lx %zx models_lookup_%s%s\n", (unsigned long)(uintptr_t)code, len, cache[k & 3],
		write ? "_store" : "");
	fflush(f);
}
