/* rvpmu stat: count events of a user-mode program the way Linux's
 * riscv_pmu_sbi driver does: SBI PMU config_matching per event, start,
 * run, stop, and read the counter's CSR. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

struct counted {
	int supported;
	unsigned idx;        /* SBI counter id */
	unsigned csr;        /* from counter_get_info */
	uint64_t value;
};

/* One run: configure, start, run, stop, read. Returns the exit status. */
static int run_once(struct stat_opts *o, const struct linux_opts *lo, int argc, char **argv,
		    char **envp, struct counted *c, uint64_t *insns)
{
	static struct session ss;
	if (session_open(&ss, o->prof, o->models, lo, argc, argv, envp))
		return -1;
	for (int i = 0; i < o->nev; i++)
		c[i].supported = session_config(&ss, &o->ev[i], 0, &c[i].idx, &c[i].csr) == SBI_SUCCESS;
	for (int i = 0; i < o->nev; i++)
		if (c[i].supported)
			session_sbi(&ss, SBI_PMU_START, c[i].idx, 1, SBI_START_SET_INIT_VALUE, 0, 0, NULL);

	int status = linux_run(&ss.h, lo);

	hart_sync_pmu(&ss.h);
	for (int i = 0; i < o->nev; i++) {
		if (!c[i].supported)
			continue;
		session_sbi(&ss, SBI_PMU_STOP, c[i].idx, 1, 0, 0, 0, NULL);
		hart_csr(&ss.h, PRIV_S, c[i].csr, HART_CSR_READ, 0, &c[i].value);
		session_sbi(&ss, SBI_PMU_STOP, c[i].idx, 1, SBI_STOP_RESET, 0, 0, NULL);
	}
	*insns = ss.h.instret;
	session_close(&ss);
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
