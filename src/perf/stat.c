/* rvpmu stat: count events of a user-mode program the way Linux's
 * riscv_pmu_sbi driver does: SBI PMU config_matching per event, start,
 * run, stop, and read the counter's CSR. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/core.h"
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "rvpmu/sbi.h"

enum { FID_NUM_COUNTERS, FID_GET_INFO, FID_CFG_MATCH, FID_START, FID_STOP };
#define CFG_CLEAR_VALUE (1u << 1)
#define CFG_SET_UINH    (1u << 5)
#define CFG_SET_SINH    (1u << 6)
#define START_SET_INIT_VALUE 1u
#define STOP_RESET 1u

struct counted {
	int supported;
	unsigned idx;        /* SBI counter id */
	uint64_t csr;        /* from counter_get_info */
	uint64_t value;
};

static long sbi(struct sbi_state *s, struct hart *h, unsigned fid, uint64_t a0, uint64_t a1,
		uint64_t a2, uint64_t a3, uint64_t a4, uint64_t *value)
{
	const uint64_t a[6] = {a0, a1, a2, a3, a4, 0};
	uint64_t v = 0;
	long err = sbi_pmu_call(s, h, fid, a, &v);
	if (value)
		*value = v;
	return err;
}

/* Can this core count e? Without the models, events only they raise
 * (caches, TLBs, prediction, stalls) are not countable. */
static int countable(const struct stat_opts *o, const struct evspec *e)
{
	if (o->models)
		return 1;
	uint64_t set;
	if (e->event_idx >> 16 >= 2) {
		set = profile_decode_set(o->prof, e->event_data);
	} else {
		const struct profile_sbi_event *m = profile_sbi_lookup(o->prof, e->event_idx);
		if (!m)
			return 1;  /* let the firmware say so */
		set = m->selector ? profile_decode_set(o->prof, m->selector) : 0;
	}
	return !(set >> PMU_EV_COUNT);
}

/* One run: configure, start, run, stop, read. Returns the exit status. */
static int run_once(struct stat_opts *o, const struct linux_opts *lo, int argc, char **argv,
		    char **envp, struct counted *c, uint64_t *insns)
{
	static struct hart h;
	static struct sbi_state s;
	char err[512];
	if (hart_init(&h)) {
		fprintf(stderr, "rvpmu: cannot reserve guest memory\n");
		return -1;
	}
	if (linux_load(&h, lo, argv[0], argc, argv, envp, err, sizeof(err))) {
		fprintf(stderr, "rvpmu: %s\n", err);
		hart_free(&h);
		return -1;
	}
	if (core_setup(&h, o->prof, o->models, err, sizeof(err))) {
		fprintf(stderr, "rvpmu: %s: %s\n", o->prof->name, err);
		linux_free();
		hart_free(&h);
		return -1;
	}
	memset(&s, 0, sizeof(s));
	s.prof = o->prof;
	sbi_pmu_init(&s, &h);

	/* probe as Linux does: the counters get_info accepts form cmask */
	uint64_t n = 0, cmask = 0, info;
	sbi(&s, &h, FID_NUM_COUNTERS, 0, 0, 0, 0, 0, &n);
	for (unsigned i = 0; i < n && i < 64; i++)
		if (!sbi(&s, &h, FID_GET_INFO, i, 0, 0, 0, 0, &info) && !(info >> 63))
			cmask |= 1ull << i;
	for (int i = 0; i < o->nev; i++) {
		struct evspec *e = &o->ev[i];
		uint64_t flags = CFG_CLEAR_VALUE | (e->exclude_kernel ? CFG_SET_SINH : 0) |
				 (e->exclude_user ? CFG_SET_UINH : 0);
		uint64_t idx;
		if (!countable(o, e))
			continue;
		long r = sbi(&s, &h, FID_CFG_MATCH, 0, cmask, flags, e->event_idx, e->event_data, &idx);
		c[i].supported = r == SBI_SUCCESS;
		if (r != SBI_SUCCESS)
			continue;
		c[i].idx = (unsigned)idx;
		sbi(&s, &h, FID_GET_INFO, idx, 0, 0, 0, 0, &info);
		c[i].csr = info & 0xfff;
	}
	for (int i = 0; i < o->nev; i++)
		if (c[i].supported)
			sbi(&s, &h, FID_START, c[i].idx, 1, START_SET_INIT_VALUE, 0, 0, NULL);

	int status = linux_run(&h, lo);

	hart_sync_pmu(&h);
	for (int i = 0; i < o->nev; i++) {
		if (!c[i].supported)
			continue;
		sbi(&s, &h, FID_STOP, c[i].idx, 1, 0, 0, 0, NULL);
		hart_csr(&h, PRIV_S, (unsigned)c[i].csr, HART_CSR_READ, 0, &c[i].value);
		sbi(&s, &h, FID_STOP, c[i].idx, 1, STOP_RESET, 0, 0, NULL);  /* already stopped: unmaps */
	}
	*insns = h.instret;
	linux_free();
	core_free(&h);
	hart_free(&h);
	return status;
}

static void print_count(FILE *f, uint64_t v)
{
	/* thousands separators as perf prints them in the C locale it uses */
	char digits[32], out[48];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), k = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = 0;
	fprintf(f, "%18s", out);
}

static void print_table(struct stat_opts *o, struct counted *c, uint64_t insns, int argc, char **argv)
{
	FILE *f = o->out;
	uint64_t cycles = 0;
	int have_cycles = 0;
	for (int i = 0; i < o->nev; i++) {
		if (!c[i].supported || o->ev[i].exclude_user)
			continue;
		if (o->ev[i].event_idx == 1 && !have_cycles)
			cycles = c[i].value, have_cycles = 1;
	}
	if (o->csv_sep) {
		/* perf's -x layout: value, unit, event, run time (ns), % running */
		const char *x = o->csv_sep;
		uint64_t ns = (uint64_t)((double)insns * 1e9 / (double)o->prof->clock_hz);
		for (int i = 0; i < o->nev; i++) {
			if (c[i].supported)
				fprintf(f, "%llu%s%s%s%s%llu%s100.00\n", (unsigned long long)c[i].value,
					x, x, o->ev[i].name, x, (unsigned long long)ns, x);
			else
				fprintf(f, "<not supported>%s%s%s%s0%s0.00\n", x, x, o->ev[i].name, x, x);
		}
		return;
	}
	fprintf(f, "\n Performance counter stats for '");
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	if (o->repeat > 1)
		fprintf(f, "' (%u runs):\n\n", o->repeat);
	else
		fprintf(f, "':\n\n");
	for (int i = 0; i < o->nev; i++) {
		if (!c[i].supported) {
			fprintf(f, "%18s      %-25s\n", "<not supported>", o->ev[i].name);
			continue;
		}
		print_count(f, c[i].value);
		fprintf(f, "      %-25s", o->ev[i].name);
		if (o->ev[i].event_idx == 2 && !o->ev[i].exclude_user && have_cycles && cycles)
			fprintf(f, " #  %6.2f  insn per cycle", (double)c[i].value / (double)cycles);
		if (o->repeat > 1)
			fprintf(f, "  ( +-  0.00%% )");
		fprintf(f, "\n");
	}
	if (have_cycles)
		fprintf(f, "\n%18.9f seconds time elapsed (modelled: %s at %.2f GHz%s)\n\n",
			(double)cycles / (double)o->prof->clock_hz, o->prof->name,
			(double)o->prof->clock_hz / 1e9, o->models ? "" : ", one cycle per instruction");
	else
		fprintf(f, "\n");
}

int stat_run(struct stat_opts *o, const void *linux_opts, int argc, char **argv, char **envp)
{
	struct counted c[EVSPEC_MAX], first[EVSPEC_MAX];
	int status = 0;
	uint64_t insns, first_insns = 0;
	for (unsigned r = 0; r < (o->repeat ? o->repeat : 1); r++) {
		memset(c, 0, sizeof(c));
		status = run_once(o, linux_opts, argc, argv, envp, c, &insns);
		if (status < 0)
			return 1;
		if (r == 0) {
			memcpy(first, c, sizeof(c));
			first_insns = insns;
		} else if (insns != first_insns || memcmp(first, c, sizeof(c))) {
			/* the model is deterministic: a difference is a bug */
			fprintf(stderr, "rvpmu: stat: run %u differs from run 1\n", r + 1);
			return 1;
		}
	}
	print_table(o, first, first_insns, argc, argv);
	return status;
}
