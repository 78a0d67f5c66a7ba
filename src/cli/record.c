/* rvpmu record and rvpmu report. */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

extern char **environ;

/* perf record -j: a comma-separated list of branch filter names into
 * PERF_SAMPLE_BRANCH_* bits. The program runs in U only, so a privilege
 * other than u is refused; no type means any. */
static int parse_branch_filter(const char *v, uint64_t *out)
{
	static const struct { const char *name; uint64_t bit; } f[] = {
		{"any", PERF_SAMPLE_BRANCH_ANY}, {"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
		{"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN}, {"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
		{"call", PERF_SAMPLE_BRANCH_CALL}, {"cond", PERF_SAMPLE_BRANCH_COND},
		{"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP}, {"u", PERF_SAMPLE_BRANCH_USER},
	};
	uint64_t bits = 0;
	for (const char *p = v; ; ) {
		size_t n = strcspn(p, ",");
		size_t k = 0;
		while (k < sizeof(f) / sizeof(f[0]) && (strlen(f[k].name) != n || strncmp(f[k].name, p, n)))
			k++;
		if (k == sizeof(f) / sizeof(f[0])) {
			if ((n == 1 && *p == 'k') || (n == 2 && !strncmp(p, "hv", 2)))
				fprintf(stderr, "rvpmu record: -j %.*s: a user-mode program has only u "
						"branches\n", (int)n, p);
			else
				fprintf(stderr, "rvpmu record: -j '%.*s': unknown branch filter (use any, "
						"any_call, any_ret, ind_call, call, cond, ind_jmp, u)\n", (int)n, p);
			return 2;
		}
		bits |= f[k].bit;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (!(bits & ~(uint64_t)PERF_SAMPLE_BRANCH_USER))
		bits |= PERF_SAMPLE_BRANCH_ANY;
	*out = bits | PERF_SAMPLE_BRANCH_USER;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static struct record_opts o;
	static struct profile prof;
	struct linux_opts lo = {0};
	static struct cli_events events;
	const char *profile = "virt";
	static const struct cli_opt opts[] = {
		{"-e", "--event", 1}, {"-c", "--count", 1}, {"-F", "--freq", 1}, {"-o", "--output", 1},
		{"--profile", NULL, 1}, {"--max-insns", NULL, 1}, {"--max-mem", NULL, 1},
		{"--call-graph", NULL, 1},
		{"-j", "--branch-filter", 1}, {"--trace", NULL, 1}, {"-g", NULL, 0}, {"-b", "--branch-any", 0},
		{"--no-uarch", NULL, 0}, {"--no-jit", NULL, 0}, {"-q", "--quiet", 0}, {NULL, NULL, 0},
	};
	enum { O_EVENT, O_PERIOD, O_FREQ, O_OUT, O_PROFILE, O_MAX_INSNS, O_MAX_MEM, O_CALL_GRAPH, O_FILTER,
	       O_TRACE, O_G, O_B, O_NO_UARCH, O_NO_JIT, O_QUIET };
	char err[512];
	const char *v;
	uint64_t n;
	int i = 1, k, quiet = 0;
	o.freq = 4000;
	o.output = "perf.data";
	o.models = 1;
	while ((k = cli_next("record", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_EVENT:
			if (cli_add_events("record", &events, v))
				return 2;
			break;
		case O_OUT: o.output = v; break;
		case O_PROFILE: profile = v; break;
		case O_MAX_INSNS:
			if (cli_parse_count("--max-insns", v, &lo.max_insns))
				return 2;
			break;
		case O_MAX_MEM:
			if (cli_max_mem(v, &lo.max_mem_mb))
				return 2;
			break;
		case O_CALL_GRAPH:
			/* perf's fp and rvpmu's ctr (CTR call records); implies -g */
			if (strcmp(v, "fp") && strcmp(v, "ctr"))
				return cli_error("--call-graph '%s': use fp or ctr", v);
			o.callchain = 1;
			o.callchain_ctr = !strcmp(v, "ctr");
			break;
		case O_FILTER:
			/* perf refuses a second list rather than drop one */
			if (o.branch_filter)
				return cli_error("-j given twice: put every branch filter "
						 "in one list (-j %s,...)", v);
			if (parse_branch_filter(v, &o.branch_filter))
				return 2;
			o.branch_stack = 1;  /* as perf: a filter implies -b */
			break;
		case O_TRACE: o.trace = v; break;
		case O_PERIOD:
		case O_FREQ:
			if (cli_parse_count(opts[k].name, v, &n))
				return 2;
			if (!n)
				return cli_error("%s must be positive", opts[k].name);
			if (k == O_PERIOD)
				o.period = n, o.freq = 0;
			else
				o.freq = n, o.period = 0;
			break;
		case O_G: o.callchain = 1; break;
		case O_B: o.branch_stack = 1; break;
		case O_NO_UARCH: o.models = 0; break;
		case O_NO_JIT: lo.no_jit = 1; break;
		case O_QUIET: quiet = 1; break;   /* no progress line */
		}
	}
	int end = cli_end("record", k);
	if (end >= 0)
		return end;
	if (i >= argc) {
		fprintf(stderr, "rvpmu record: no program given (see 'rvpmu help record')\n");
		return 2;
	}
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	if (o.freq > prof.clock_hz)
		return cli_error("-F is above the core's clock");
	if ((o.nev = cli_events("record", &events, "cycles", &prof, o.ev)) < 0)
		return 2;
	progress_begin("record", lo.max_insns, quiet);
	progress_samples(1);
	lo.progress = progress_tick;
	lo.on_trap = progress_on_trap;
	lo.stop = cli_interrupt_begin();
	int status = record_run(&o, &lo, argc - i, argv + i, environ);
	progress_end();
	return status;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {.input = "perf.data"};
	static const struct cli_opt opts[] = {
		{"-i", "--input", 1}, {"-s", "--sort", 1}, {"--flamegraph", NULL, 1}, {"--symfs", NULL, 1},
		{"--stdio", NULL, 0}, {"--folded", NULL, 0}, {"--branch", NULL, 0}, {NULL, NULL, 0},
	};
	enum { O_INPUT, O_SORT, O_FLAMEGRAPH, O_SYMFS, O_STDIO, O_FOLDED, O_BRANCH };
	const char *v;
	int i = 1, k, s;
	while ((k = cli_next("report", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_INPUT: o.input = v; break;
		case O_FLAMEGRAPH: o.flamegraph = v; break;
		case O_SYMFS: o.symfs = v; break;
		case O_STDIO: break;  /* the only interface */
		case O_FOLDED: o.folded = 1; break;
		case O_BRANCH: o.branch = 1; break;
		case O_SORT:
			if ((s = report_parse_sort(v)) < 0)
				return cli_error("--sort '%s': use sym, dso or srcline", v);
			o.sort = (enum report_sort)s;
			break;
		}
	}
	int end = cli_end("report", k);
	if (end >= 0)
		return end;
	if (i < argc)
		return cli_error("unexpected argument '%s' (see 'rvpmu help report')", argv[i]);
	return report_main(&o);
}
