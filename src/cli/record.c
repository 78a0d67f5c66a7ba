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
	const char *events = "cycles", *profile = "virt";
	char err[512];
	int i = 1, quiet = 0;
	o.freq = 4000;
	o.output = "perf.data";
	o.models = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage("record", stdout);
			return 0;
		}
		if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;  /* no progress line */
			continue;
		}
		if (!strcmp(a, "-g")) {
			o.callchain = 1;
			continue;
		}
		if (!strcmp(a, "-b")) {
			o.branch_stack = 1;
			continue;
		}
		if (!strcmp(a, "--no-uarch")) {
			o.models = 0;
			continue;
		}
		if (!strncmp(a, "--call-graph=", 13)) {
			a = "--call-graph";
			argv[i] += 13;
			i--;  /* the value is this argument's tail */
		}
		int takes = !strcmp(a, "-e") || !strcmp(a, "-c") || !strcmp(a, "-F") ||
			    !strcmp(a, "-o") || !strcmp(a, "--profile") || !strcmp(a, "--max-insns") ||
			    !strcmp(a, "--call-graph") || !strcmp(a, "-j") ||
			    !strcmp(a, "--branch-filter") || !strcmp(a, "--trace");
		if (!takes) {
			fprintf(stderr, "rvpmu: record: unknown option '%s' (see 'rvpmu help record')\n", a);
			return 2;
		}
		if (i + 1 >= argc)
			return cli_error("record: %s needs a value", a);
		const char *v = argv[++i];
		uint64_t n;
		if (!strcmp(a, "-e")) {
			events = v;
		} else if (!strcmp(a, "-o")) {
			o.output = v;
		} else if (!strcmp(a, "--profile")) {
			profile = v;
		} else if (!strcmp(a, "--max-insns")) {
			if (cli_parse_count(a, v, &lo.max_insns))
				return 2;
		} else if (!strcmp(a, "--call-graph")) {
			/* perf's fp and rvpmu's ctr (CTR call records); implies -g */
			if (strcmp(v, "fp") && strcmp(v, "ctr"))
				return cli_error("record: --call-graph '%s': use fp or ctr", v);
			o.callchain = 1;
			o.callchain_ctr = !strcmp(v, "ctr");
		} else if (!strcmp(a, "-j") || !strcmp(a, "--branch-filter")) {
			if (parse_branch_filter(v, &o.branch_filter))
				return 2;
			o.branch_stack = 1;  /* as perf: a filter implies -b */
		} else if (!strcmp(a, "--trace")) {
			o.trace = v;
		} else {
			if (cli_parse_count(a, v, &n))
				return 2;
			if (!n)
				return cli_error("record: %s must be positive", a);
			if (!strcmp(a, "-c"))
				o.period = n, o.freq = 0;
			else
				o.freq = n, o.period = 0;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "rvpmu: record: no program given (see 'rvpmu help record')\n");
		return 2;
	}
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	if (o.freq > prof.clock_hz)
		return cli_error("record: -F is above the core's clock%s", "");
	o.nev = evspec_parse(events, &prof, o.ev, EVSPEC_MAX, err, sizeof(err));
	if (o.nev < 0)
		return cli_error("record: %s", err);
	progress_begin("record", lo.max_insns, quiet);
	progress_samples(1);
	lo.progress = progress_tick;
	lo.on_trap = progress_on_trap;
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
