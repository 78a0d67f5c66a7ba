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
				fprintf(stderr, "rvpmu: record: -j %.*s: a user-mode program has only u "
						"branches\n", (int)n, p);
			else
				fprintf(stderr, "rvpmu: record: -j '%.*s': unknown branch filter (use any, "
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
		{"-e", NULL, 1}, {"-c", NULL, 1}, {"-F", NULL, 1}, {"-o", NULL, 1},
		{"--profile", NULL, 1}, {"--max-insns", NULL, 1}, {"--max-mem", NULL, 1},
		{"--call-graph", NULL, 1},
		{"-j", "--branch-filter", 1}, {"--trace", NULL, 1}, {"-g", NULL, 0}, {"-b", NULL, 0},
		{"--no-uarch", NULL, 0}, {"--no-jit", NULL, 0}, {"-q", "--quiet", 0}, {"--cpus", NULL, 1},
		{NULL, NULL, 0},
	};
	enum { O_EVENT, O_PERIOD, O_FREQ, O_OUT, O_PROFILE, O_MAX_INSNS, O_MAX_MEM, O_CALL_GRAPH, O_FILTER,
	       O_TRACE, O_G, O_B, O_NO_UARCH, O_NO_JIT, O_QUIET, O_CPUS };
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
				return cli_error("record: --call-graph '%s': use fp or ctr", v);
			o.callchain = 1;
			o.callchain_ctr = !strcmp(v, "ctr");
			break;
		case O_FILTER:
			/* perf refuses a second list rather than drop one */
			if (o.branch_filter)
				return cli_error("record: -j given twice: put every branch filter "
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
				return cli_error("record: %s must be positive", opts[k].name);
			if (k == O_PERIOD)
				o.period = n, o.freq = 0;
			else
				o.freq = n, o.period = 0;
			break;
		case O_CPUS:
			if (cli_cpus(v, &lo.cpus))
				return 2;
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
		fprintf(stderr, "rvpmu: record: no program given (see 'rvpmu help record')\n");
		return 2;
	}
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	if (o.freq > prof.clock_hz)
		return cli_error("record: -F is above the core's clock%s", "");
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
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage("report", stdout);
			return 0;
		}
		if (!strcmp(a, "--stdio"))
			continue;  /* the only interface */
		if (!strcmp(a, "--folded")) {
			o.folded = 1;
			continue;
		}
		if (!strcmp(a, "--branch")) {
			o.branch = 1;
			continue;
		}
		int takes = !strcmp(a, "-i") || !strcmp(a, "--input") || !strcmp(a, "--sort") ||
			    !strcmp(a, "-s") || !strcmp(a, "--flamegraph") || !strcmp(a, "--symfs");
		if (!takes)
			return cli_error("report: unknown option or argument '%s' (see 'rvpmu help report')", a);
		if (i + 1 >= argc)
			return cli_error("report: %s needs a value", a);
		const char *v = argv[++i];
		if (!strcmp(a, "-i") || !strcmp(a, "--input")) {
			o.input = v;
		} else if (!strcmp(a, "--flamegraph")) {
			o.flamegraph = v;
		} else if (!strcmp(a, "--symfs")) {
			o.symfs = v;
		} else {
			int s = report_parse_sort(v);
			if (s < 0)
				return cli_error("report: --sort '%s': use sym, dso or srcline", v);
			o.sort = (enum report_sort)s;
		}
	}
	return report_main(&o);
}
