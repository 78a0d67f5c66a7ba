/* rvpmu report: perf report --stdio on a perf.data file (rvpmu's or
 * perf's): the overhead table with perf's columns and sort keys, call
 * graphs (children or self), filters and limits; or folded stacks, a
 * flame graph, or branch tables. */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "rvpmu/report.h"

int report_parse_graph(const char *v, struct report_opts *o, char *err, size_t errlen)
{
	/* perf's -g: print type, threshold, order (and a key rvpmu has
	 * only one of: function) in any order, comma separated */
	for (const char *p = v; ; ) {
		size_t n = strcspn(p, ",");
		char tok[32], *end;
		snprintf(tok, sizeof(tok), "%.*s", (int)(n < 31 ? n : 31), p);
		double t = strtod(tok, &end);
		if (!strcmp(tok, "graph") || !strcmp(tok, "fractal"))
			o->graph = 1;
		else if (!strcmp(tok, "none"))
			o->graph = 0;
		else if (!strcmp(tok, "caller"))
			o->caller = 1, o->graph = o->graph ? o->graph : 1;
		else if (!strcmp(tok, "callee"))
			o->caller = 0, o->graph = o->graph ? o->graph : 1;
		else if (!strcmp(tok, "function"))
			;
		else if (!strcmp(tok, "folded"))
			o->folded = 1;
		else if (n && n < 31 && !*end && t >= 0 && t <= 100)
			o->graph_min = t;
		else {
			snprintf(err, errlen, "-g '%s': use graph, none, folded, caller, callee or a "
				 "threshold in percent (as 'graph,0.5,caller')", v);
			return -1;
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static int has_chains(const struct perfdata_rd_event *e)
{
	return (e->sample_type & PERF_SAMPLE_CALLCHAIN) ||
	       ((e->sample_type & PERF_SAMPLE_REGS_USER) && (e->sample_type & PERF_SAMPLE_STACK_USER));
}

/* perf's unit for the sample count (util/units.c, convert_unit) */
static void print_count(FILE *out, uint64_t n)
{
	double v = (double)n;
	char unit = ' ';
	for (const char *u = "KMG"; *u && v > 1000.0; u++)
		v /= 1000.0, unit = *u;
	fprintf(out, "%lu%c", (unsigned long)v, unit);
}

/* perf's elided columns (util/sort.c, sort__setup_elide): a sort key
 * whose filter names one value is left out, and said once above the
 * tables; unless that would leave out every key. */
static unsigned elided(const struct report_opts *o, const int *keys, int nkeys, FILE *out)
{
	static const struct { int key; const char *name; } lists[] = {
		{ RK_SYM, "symbol" }, { RK_DSO, "dso" }, { RK_COMM, "comm" },
	};
	unsigned mask = 0;
	for (int i = 0; i < nkeys; i++)
		for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
			const char *l = lists[k].key == RK_SYM ? o->symbols :
					lists[k].key == RK_DSO ? o->dsos : o->comms;
			if (keys[i] != lists[k].key || !l || strchr(l, ','))
				continue;
			if (out)
				fprintf(out, "# %s: %s\n", lists[k].name, l);
			mask |= 1u << i;
		}
	return mask == (1u << nkeys) - 1 ? 0 : mask;
}

static const int dflt_keys[] = { RK_COMM, RK_DSO, RK_SYM };

static const int *sort_keys(const struct report_opts *o, int *keys, int *n)
{
	if (o->nkeys) {
		*n = o->nkeys;
		return o->keys;
	}
	/* -F without --sort: its sort keys sort */
	*n = 0;
	for (int i = 0; i < o->nfields; i++)
		if (o->fields[i] < RK_NKEYS)
			keys[(*n)++] = o->fields[i];
	if (*n)
		return keys;
	*n = 3;
	return dflt_keys;
}

static int table(const struct report_opts *o, struct frames *fs, const struct perfdata_file *f,
		 unsigned ev, FILE *out, char *err, size_t errlen)
{
	const struct perfdata_rd_event *e = &f->events[ev];
	struct hists h = { .o = o };
	int keys[REPORT_MAX_COLS], cols[REPORT_MAX_COLS + 4], ncols = 0;
	h.keys = sort_keys(o, keys, &h.nkeys);
	unsigned elide = elided(o, h.keys, h.nkeys, NULL);
	h.graph = o->graph != 0 && has_chains(e);
	h.children = o->children < 0 ? h.graph : o->children;
	h.caller = o->caller < 0 ? h.children : o->caller;
	if (o->nfields) {
		memcpy(cols, o->fields, sizeof(int) * (size_t)o->nfields);
		ncols = o->nfields;
	} else {
		if (h.children)
			cols[ncols++] = RF_CHILDREN;
		cols[ncols++] = RF_OVERHEAD;
		if (o->nr_samples)
			cols[ncols++] = RF_SAMPLE;
		for (int i = 0; i < h.nkeys; i++)
			if (!(elide >> i & 1))
				cols[ncols++] = h.keys[i];
	}
	if (hists_add(&h, fs, f, ev)) {
		hists_free(&h);
		return perfdata_errf(err, errlen, "out of memory"), -1;
	}
	hists_finish(&h);
	if (!o->quiet) {
		fputs("# Samples: ", out);
		print_count(out, h.nsamples);
		fprintf(out, " of event '%s'\n# Event count (approx.): %llu\n#\n", e->name,
			(unsigned long long)h.total_period);
	}
	/* --percent-limit is also the call graphs' threshold, as in perf */
	double gmin = o->percent_limit > 0 ? o->percent_limit : o->graph_min;
	hists_print(out, &h, cols, ncols, o->percent_limit, gmin);
	fputs("\n\n", out);
	hists_free(&h);
	return 0;
}

int report_file(const struct report_opts *o, const struct perfdata_file *f, char *err,
		size_t errlen)
{
	struct resolver r;
	struct frames fs;
	FILE *out = o->out ? o->out : stdout;
	int rc = 0, any = 0, stacks = o->folded || o->flamegraph;
	int max = o->max_stack > 0 && o->max_stack < CHAIN_MAX ? o->max_stack : CHAIN_MAX;
	if (o->branch) {
		if (stacks)
			return perfdata_errf(err, errlen, "--branch prints tables: it does not combine "
					     "with --folded or --flamegraph"), -1;
		int have = 0;
		for (unsigned ev = 0; ev < f->nevents; ev++)
			have |= (f->events[ev].sample_type & PERF_SAMPLE_BRANCH_STACK) != 0;
		if (!have)
			return perfdata_errf(err, errlen, "--branch: %s has no branch stacks (record with "
					     "'rvpmu record -b')", o->input ? o->input : "the file"), -1;
	}
	resolver_init(&r, f, o->symfs, !o->no_demangle, "report");
	frames_init(&fs, &r);
	int tables = !o->branch && !stacks;
	if (tables && !o->quiet) {
		if (o->header)
			report_header(out, o->input ? o->input : "perf.data", f);
		else
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n", out);
		int keys[REPORT_MAX_COLS], n;
		const int *k = sort_keys(o, keys, &n);
		elided(o, k, n, out);
		if (o->header != 2)
			fprintf(out, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)f->lost);
	}
	for (unsigned ev = 0; ev < f->nevents && !rc && o->header != 2; ev++) {
		if (!f->events[ev].nsamples)
			continue;
		if (o->branch) {
			if (f->events[ev].sample_type & PERF_SAMPLE_BRANCH_STACK)
				rc = report_branch(&fs, f, ev, out, err, errlen);
		} else if (stacks) {
			/* stacks of the first sampled event only: one graph per event */
			if (any)
				break;
			rc = report_stacks(&fs, f, ev, max, o->folded ? out : NULL, o->flamegraph, err,
					   errlen);
		} else {
			rc = table(o, &fs, f, ev, out, err, errlen);
		}
		any = 1;
	}
	if (!rc && !any && o->header != 2)
		fprintf(stacks ? stderr : out, "# no samples\n");
	if (!rc && tables && !o->quiet && o->header != 2)
		fputs("#\n# (For a higher level overview, try: rvpmu report --sort comm,dso)\n#\n", out);
	frames_free(&fs);
	resolver_free(&r);
	return rc;
}

int report_main(const struct report_opts *o)
{
	struct perfdata_file f;
	char err[512];
	const char *in = o->input ? o->input : "perf.data";
	if (perfdata_read(in, &f, err, sizeof(err))) {
		fprintf(stderr, "rvpmu report: %s\n", err);
		return 1;
	}
	int rc = report_file(o, &f, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rvpmu report: %s\n", err);
	perfdata_file_free(&f);
	return rc ? 1 : 0;
}
