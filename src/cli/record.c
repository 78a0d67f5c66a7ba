/* rvpmu record and rvpmu report. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"

extern char **environ;

int cmd_record(int argc, char **argv)
{
	static struct record_opts o;
	static struct profile prof;
	struct linux_opts lo = {0};
	const char *events = "cycles", *profile = "virt";
	char err[512];
	int i = 1;
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
		int takes = !strcmp(a, "-e") || !strcmp(a, "-c") || !strcmp(a, "-F") ||
			    !strcmp(a, "-o") || !strcmp(a, "--profile") || !strcmp(a, "--max-insns");
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
	return record_run(&o, &lo, argc - i, argv + i, environ);
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
