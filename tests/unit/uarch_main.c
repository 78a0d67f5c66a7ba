/* Runs every group of tests/unit/uarch_*.c, one line per group on stdout;
 * `uarch_test --bench [N]` instead times uarch_retire() on a synthetic
 * stream (a measurement, not a test). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "uarch_test.h"

static int fails;
static char first[512];

void ut_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "  %s:%d: %s\n", file, line, msg);
	if (!fails++)
		snprintf(first, sizeof first, "%s:%d: %s", file, line, msg);
}

void ut_config_bare(struct uarch_config *c)
{
	memset(c, 0, sizeof *c);
	c->page_shift = 12;
	c->bpred = (struct uarch_bpred_config){ .dir = UARCH_DIR_BIMODAL, .pht_entries = 1 };
	c->timing = (struct uarch_timing_config){
		.width = 1, .load_use = 1, .mul_lat = 1, .div_lat = 1,
		.fp_lat = 1, .fp_div_lat = 1,
	};
}

void ut_init(struct uarch *u, const struct uarch_config *c)
{
	char err[160] = "";
	int r = uarch_init(u, c, err, sizeof err);
	CHECK(r == 0, "uarch_init refused the test's config: %s", err);
	if (r)
		exit(1);
}

uint64_t ut_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

struct retire_rec ut_op(uint8_t cls, uint64_t pc, uint8_t rd, uint8_t rs1, uint8_t rs2)
{
	/* untranslated: physical addresses are the virtual ones */
	return (struct retire_rec){ .pc = pc, .next_pc = pc + 4, .cls = cls,
				    .rd = rd, .rs1 = rs1, .rs2 = rs2, .ilen = 4, .fetch_pa = pc };
}

struct retire_rec ut_alu(uint64_t pc, uint8_t rd, uint8_t rs1, uint8_t rs2)
{
	return ut_op(UARCH_CLS_ALU, pc, rd, rs1, rs2);
}

struct retire_rec ut_mem(uint8_t cls, uint64_t pc, uint64_t addr, uint8_t rd, uint8_t rs1, uint8_t rs2)
{
	struct retire_rec r = ut_op(cls, pc, rd, rs1, rs2);
	r.addr = r.paddr = addr;
	r.size = 4;
	return r;
}

struct retire_rec ut_br(uint64_t pc, int taken, uint64_t target, uint8_t rs1)
{
	struct retire_rec r = ut_op(UARCH_CLS_BRANCH, pc, 0, rs1, 0);
	r.taken = (uint8_t)taken;
	if (taken)
		r.next_pc = target;
	return r;
}

struct retire_rec ut_jump(uint8_t cls, uint64_t pc, uint64_t target, uint8_t rd, uint8_t rs1)
{
	struct retire_rec r = ut_op(cls, pc, rd, rs1, 0);
	r.next_pc = target;
	return r;
}

/* A loop nest over a 256 KiB array with a call per inner iteration:
 * loads, stores, ALU, a loop branch, a data-dependent branch, jal/ret. */
static size_t make_stream(struct retire_rec *s, size_t n)
{
	size_t k = 0;
	uint64_t a = 0x100000, x = 12345;
	while (k + 12 <= n) {
		uint64_t pc = 0x10000;
		s[k++] = ut_mem(UARCH_CLS_LOAD, pc, a, 10, 11, 0);
		s[k++] = ut_alu(pc + 4, 12, 10, 13);
		s[k++] = ut_op(UARCH_CLS_MUL, pc + 8, 14, 12, 12);
		s[k++] = ut_mem(UARCH_CLS_STORE, pc + 12, a + 0x40000, 0, 11, 14);
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		int t = (x >> 60) & 1;
		s[k++] = ut_br(pc + 16, t, pc + 24, 12);
		if (!t)
			s[k++] = ut_alu(pc + 20, 15, 15, 0);
		s[k++] = ut_jump(UARCH_CLS_JAL, pc + 24, 0x20000, 1, 0);
		s[k++] = ut_alu(0x20000, 16, 10, 0);
		s[k] = ut_mem(UARCH_CLS_LOAD, 0x20004, 0x7fff0000 + (k & 0x1f8), 17, 2, 0);
		k++;
		s[k++] = ut_jump(UARCH_CLS_JALR, 0x20008, pc + 28, 0, 1);
		s[k++] = ut_alu(pc + 28, 11, 11, 0);
		a = 0x100000 + ((a + 8 - 0x100000) & 0x3ffff);
		s[k++] = ut_br(pc + 32, 1, pc, 11);
	}
	return k;
}

static int bench(uint64_t total)
{
	enum { N = 1 << 20 };
	struct retire_rec *s = malloc(N * sizeof *s);
	struct uarch_config c;
	struct uarch u;
	if (!s)
		return 1;
	size_t n = make_stream(s, N);
	uarch_config_default(&c);
	ut_init(&u, &c);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uint64_t done = 0;
	while (done < total) {
		for (size_t i = 0; i < n; i++)
			uarch_retire(&u, &s[i]);
		done += n;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("%llu records in %.3f s: %.1f M records/s (%.2f ns each)\n",
	       (unsigned long long)done, sec, (double)done / sec * 1e-6, sec * 1e9 / (double)done);
	for (int e = 0; e < UARCH_EV_COUNT; e++)
		printf("  %-26s %llu\n", uarch_event_name(e), (unsigned long long)uarch_event(&u, (enum uarch_event)e));
	uarch_free(&u);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		return bench(argc > 2 ? strtoull(argv[2], NULL, 0) : 100000000);
	int bad = 0;
#define RUN(g) do { fails = 0; test_##g(); \
	if (fails) { printf("FAIL uarch %s: %s\n", #g, first); bad = 1; } \
	else printf("PASS uarch %s\n", #g); } while (0);
	UARCH_GROUPS(RUN)
#undef RUN
	return bad;
}
