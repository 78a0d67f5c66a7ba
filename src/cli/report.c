/* rvpmu report, script, diff and buildid-list: option parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/report.h"

static int parse_stack(const char *v, int *out)
{
	uint64_t n;
	if (cli_parse_count("--max-stack", v, &n))
		return -1;
	if (!n || n > 1024) {
		cli_error("--max-stack: '%s' is out of range (1..1024)", v);
		return -1;
	}
	*out = (int)n;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .input = "perf.data", .children = -1, .graph = -1, .caller = -1,
				 .graph_min = 0.5 };
	static const struct cli_opt opts[] = {
		{"-i", "--input", 1}, {"-s", "--sort", 1}, {"-F", "--fields", 1},
		{"-n", "--show-nr-samples", 0}, {"-g", "--call-graph", CLI_OPTNEXT}, {"--children", NULL, 0},
		{"--no-children", NULL, 0}, {"--percent-limit", NULL, 1}, {"--comms", "--comm", 1},
		{"--dsos", "-d", 1}, {"--symbols", "-S", 1}, {"--header", NULL, 0},
		{"--header-only", NULL, 0}, {"-q", "--quiet", 0}, {"--max-stack", NULL, 1},
		{"--no-demangle", NULL, 0}, {"--demangle", NULL, 0}, {"--stdio", NULL, 0},
		{"--folded", NULL, 0}, {"--flamegraph", NULL, 1}, {"--symfs", NULL, 1},
		{"--branch", NULL, 0}, {"-c", NULL, 1}, {NULL, NULL, 0},
	};
	enum { O_IN, O_SORT, O_FIELDS, O_NR, O_G, O_CHILDREN, O_NO_CHILDREN, O_LIMIT, O_COMMS,
	       O_DSOS, O_SYMS, O_HEADER, O_HEADER_ONLY, O_QUIET, O_MAX_STACK, O_NO_DEMANGLE,
	       O_DEMANGLE, O_STDIO, O_FOLDED, O_FLAME, O_SYMFS, O_BRANCH, O_C };
	char err[512];
	const char *v;
	int i = 1, k;
	while ((k = cli_next("report", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_IN: o.input = v; break;
		case O_SORT:
		case O_FIELDS:
			if (report_parse_keys(v, k == O_FIELDS, k == O_SORT ? o.keys : o.fields,
					      k == O_SORT ? &o.nkeys : &o.nfields, err, sizeof(err)))
				return cli_error("%s", err);
			break;
		case O_NR: o.nr_samples = 1; break;
		case O_G:
			/* "-g", "-g caller", "-g graph,0.5,callee", as perf */
			o.graph = 1;
			if (v && report_parse_graph(v, &o, err, sizeof(err)))
				return cli_error("%s", err);
			break;
		case O_CHILDREN: o.children = 1; break;
		case O_NO_CHILDREN: o.children = 0; break;
		case O_LIMIT:
			if (cli_parse_percent(v, &o.percent_limit))
				return 2;
			break;
		case O_COMMS: case O_C: o.comms = v; break;
		case O_DSOS: o.dsos = v; break;
		case O_SYMS: o.symbols = v; break;
		case O_HEADER: o.header = 1; break;
		case O_HEADER_ONLY: o.header = 2; break;
		case O_QUIET: o.quiet = 1; break;
		case O_MAX_STACK:
			if (parse_stack(v, &o.max_stack))
				return 2;
			break;
		case O_NO_DEMANGLE: o.no_demangle = 1; break;
		case O_DEMANGLE: o.no_demangle = 0; break;
		case O_STDIO: break;   /* the only interface */
		case O_FOLDED: o.folded = 1; break;
		case O_FLAME: o.flamegraph = v; break;
		case O_SYMFS: o.symfs = v; break;
		case O_BRANCH: o.branch = 1; break;
		}
	}
	int end = cli_end("report", k);
	if (end >= 0)
		return end;
	if (i < argc)
		return cli_error("unexpected argument '%s' (the input is -i FILE)", argv[i]);
	if (o.header == 2 && (o.folded || o.flamegraph || o.branch))
		return cli_error("--header-only prints no samples");
	return report_main(&o);
}

int cmd_script(int argc, char **argv)
{
	struct script_opts o = { .input = "perf.data" };
	static const struct cli_opt opts[] = {
		{"-i", "--input", 1}, {"-F", "--fields", 1}, {"--symfs", NULL, 1},
		{"--no-demangle", NULL, 0}, {"--demangle", NULL, 0}, {"--max-stack", NULL, 1},
		{NULL, NULL, 0},
	};
	enum { O_IN, O_FIELDS, O_SYMFS, O_NO_DEMANGLE, O_DEMANGLE, O_MAX_STACK };
	char err[512];
	const char *v;
	int i = 1, k;
	while ((k = cli_next("script", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_IN: o.input = v; break;
		case O_FIELDS:
			if (script_parse_fields(v, &o.fields, err, sizeof(err)))
				return cli_error("%s", err);
			break;
		case O_SYMFS: o.symfs = v; break;
		case O_NO_DEMANGLE: o.no_demangle = 1; break;
		case O_DEMANGLE: o.no_demangle = 0; break;
		case O_MAX_STACK:
			if (parse_stack(v, &o.max_stack))
				return 2;
			break;
		}
	}
	int end = cli_end("script", k);
	if (end >= 0)
		return end;
	if (i < argc)
		return cli_error("unexpected argument '%s' (the input is -i FILE)", argv[i]);
	return script_main(&o);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = {0};
	static const struct cli_opt opts[] = {
		{"--symfs", NULL, 1}, {"--no-demangle", NULL, 0}, {"--percent-limit", NULL, 1},
		{"-q", "--quiet", 0}, {"--stdio", NULL, 0}, {NULL, NULL, 0},
	};
	enum { O_SYMFS, O_NO_DEMANGLE, O_LIMIT, O_QUIET, O_STDIO };
	const char *v, *files[2];
	int i = 1, k, nfiles = 0;
	for (;;) {
		while ((k = cli_next("diff", opts, argc, argv, &i, &v)) >= 0) {
			switch (k) {
			case O_SYMFS: o.symfs = v; break;
			case O_NO_DEMANGLE: o.no_demangle = 1; break;
			case O_LIMIT:
				if (cli_parse_percent(v, &o.percent_limit))
					return 2;
				break;
			case O_QUIET: o.quiet = 1; break;
			case O_STDIO: break;
			}
		}
		int end = cli_end("diff", k);
		if (end >= 0)
			return end;
		if (i >= argc)
			break;
		/* files and options in any order, as perf diff takes them */
		if (nfiles == 2)
			return cli_error("more than two files ('%s' is a third)", argv[i]);
		files[nfiles++] = argv[i++];
	}
	/* as perf diff: perf.data.old against perf.data; one file is
	 * compared with perf.data.old */
	o.old = nfiles == 2 ? files[0] : "perf.data.old";
	o.new_ = nfiles == 2 ? files[1] : nfiles ? files[0] : "perf.data";
	return diff_main(&o);
}

int cmd_buildid_list(int argc, char **argv)
{
	static const struct cli_opt opts[] = { {"-i", "--input", 1}, {NULL, NULL, 0} };
	const char *v, *in = "perf.data";
	int i = 1, k;
	while ((k = cli_next("buildid-list", opts, argc, argv, &i, &v)) >= 0)
		in = v;
	int end = cli_end("buildid-list", k);
	if (end >= 0)
		return end;
	if (i < argc)
		return cli_error("unexpected argument '%s' (the input is -i FILE)", argv[i]);
	return buildid_list_main(in);
}
