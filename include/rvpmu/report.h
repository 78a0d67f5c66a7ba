/* rvpmu report, script, diff and buildid-list on perf.data files, with
 * perf's options and output formats (tools/perf/builtin-report.c,
 * builtin-script.c, builtin-diff.c, ui/stdio/hist.c). */
#ifndef RVPMU_REPORT_H
#define RVPMU_REPORT_H
#include <stddef.h>
#include <stdio.h>
#include "rvpmu/perfdata.h"

/* Sort keys (--sort) and the other output fields (-F). */
enum report_key {
	RK_COMM, RK_PID, RK_TID, RK_DSO, RK_SYM, RK_SRCLINE, RK_CPU, RK_SYMOFF, RK_NKEYS,
	RF_OVERHEAD = RK_NKEYS, RF_CHILDREN, RF_SAMPLE, RF_PERIOD, RF_N,
};
#define REPORT_MAX_COLS 16

struct report_opts {
	const char *input;         /* perf.data path (default "perf.data"; "-": stdin) */
	int keys[REPORT_MAX_COLS], nkeys;     /* --sort; none: perf's comm,dso,sym */
	int fields[REPORT_MAX_COLS], nfields; /* -F; none: overhead(s), -n, the keys */
	int nr_samples;            /* -n: the Samples column */
	int children;              /* --children 1, --no-children 0, -1: perf's default */
	int graph;                 /* call graphs: -1 when the file has chains, 0 none */
	int caller;                /* chain order: 1 caller, 0 callee, -1 perf's default */
	double graph_min;          /* -g's threshold in percent (0.5) */
	double percent_limit;      /* --percent-limit */
	const char *comms, *dsos, *symbols;   /* filters: comma lists, or NULL */
	int header;                /* --header 1, --header-only 2 */
	int quiet;                 /* -q */
	int max_stack;             /* --max-stack (0: 127) */
	int no_demangle;
	int folded;                /* print folded stacks instead of the table */
	const char *flamegraph;    /* write an SVG flame graph here, or NULL */
	const char *symfs;         /* prefix for mapped paths, or NULL */
	int branch;                /* --branch: edges and blocks from branch stacks */
	FILE *out;                 /* NULL = stdout */
};

/* "comm,dso,sym" into keys (or fields with -F's overhead, sample, ...):
 * 0, or -1 with the unknown name in err. */
int report_parse_keys(const char *list, int fields, int *out, int *n, char *err, size_t errlen);
/* -g's value: "graph", "none", "caller", "callee", "folded", a
 * threshold ("0.5"), or "graph,0.5,caller": 0, or -1 with err. */
int report_parse_graph(const char *v, struct report_opts *o, char *err, size_t errlen);
/* rvpmu report: returns 0, or 1 after printing "rvpmu: report: reason". */
int report_main(const struct report_opts *o);
/* The same on an already parsed file (the fuzzer and tests use it). */
int report_file(const struct report_opts *o, const struct perfdata_file *f, char *err,
		size_t errlen);
/* perf report --header: the file's header as perf prints it. */
void report_header(FILE *out, const char *path, const struct perfdata_file *f);

/* perf script fields (-F). */
enum script_field {
	SF_COMM, SF_TID, SF_PID, SF_TIME, SF_CPU, SF_PERIOD, SF_EVENT, SF_IP, SF_SYM,
	SF_SYMOFF, SF_DSO, SF_SRCLINE, SF_BRSTACK, SF_BRSTACKSYM, SF_CALLINDENT, SF_INSN,
	SF_N,
};
struct script_opts {
	const char *input;
	unsigned fields;           /* 1 << SF_*; 0: perf script's default */
	const char *symfs;
	int no_demangle;
	int max_stack;
	FILE *out;
};
int script_parse_fields(const char *v, unsigned *fields, char *err, size_t errlen);
int script_main(const struct script_opts *o);

struct diff_opts {
	const char *old, *new_;
	const char *symfs;
	int no_demangle;
	double percent_limit;
	int quiet;
	FILE *out;
};
int diff_main(const struct diff_opts *o);

/* rvpmu buildid-list: "BUILDID PATH" per file the recording mapped. */
int buildid_list_main(const char *input);

#endif
