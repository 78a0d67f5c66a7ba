/* rvpmu stat's printout, as perf stat prints it (Linux 6.1's
 * stat-display.c and stat-shadow.c, the perf Debian 12 ships): the table,
 * -x CSV, -j JSON, -I's interval lines, --metric-only, and the metrics
 * perf derives for its generic events plus the -M metrics of the
 * profile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "stat_int.h"

#define EVNAME_LEN 32           /* perf's column widths */
#define COUNTS_LEN 18
#define METRIC_LEN 35
#define UNIT_WIDTH 4
#define METRIC_ONLY_LEN 20
#define NOT_COUNTED_NAME 25     /* an uncounted row's name column */

/* A metric as perf's print_metric gets it; fmt or unit NULL: none. */
struct metric {
	const char *fmt, *unit;
	double v;
	int newline;            /* out->new_line() before it */
	char buf[96];           /* a -M metric's "unit  name" */
};

enum { MAX_METRICS = 4 + EVSPEC_MAX };

/* -I: the time stamp each line starts with ("" otherwise) */
static char pre[64];

static int is_clock(const struct evspec *e)
{
	return e->software && (e->sw_id == PERF_COUNT_SW_TASK_CLOCK || e->sw_id == PERF_COUNT_SW_CPU_CLOCK);
}

/* An event's unit and scale as perf's evsel has them. */
static const char *unit_of(const struct evspec *e, double *scale)
{
	*scale = 1;
	if (is_clock(e)) {
		*scale = 1e-6;
		return "msec";
	}
	if (e->software && e->sw_id == EVSPEC_DURATION)
		return "ns";
	return "";
}

/* perf's runtime_stat: which of the kinds its shadow metrics read an
 * event is (generic hardware events by SBI event_idx), or 0. */
static uint32_t kind(const struct evspec *e)
{
	if (e->software)
		return is_clock(e) ? 0xffffffff : 0;
	return e->event_idx <= 0xa || (e->event_idx >> 16) == 1 ? e->event_idx : 0;
}

/* The mean of the counted events of one kind and context; how many. */
static int stat_of(const struct stat_view *v, int i, uint32_t k, double *avg)
{
	const struct stat_opts *o = v->o;
	const struct evspec *e = &o->ev[i];
	double sum = 0;
	int n = 0;
	for (int j = 0; j < o->nev; j++) {
		const struct evspec *f = &o->ev[j];
		/* clock events are looked up without their context */
		if (kind(f) != k || !v->r[j].supported ||
		    (k != 0xffffffff && (f->exclude_user != e->exclude_user ||
					  f->exclude_kernel != e->exclude_kernel ||
					  f->exclude_host != e->exclude_host ||
					  f->exclude_guest != e->exclude_guest)))
			continue;
		sum += v->r[j].mean;   /* a clock's: ns */
		n++;
	}
	*avg = n ? sum / n : 0;
	return n;
}

/* perf's convert_unit_double */
static double convert_unit(double value, char *unit)
{
	*unit = ' ';
	for (const char *u = "KMG"; *u && value > 1000.0; u++) {
		value /= 1000.0;
		*unit = *u;
	}
	return value;
}

struct eval_ctx {
	const struct stat_view *v;
	int k;                  /* the metric */
	int depth;
};

static int metric_id(void *ctx, const char *id, double *val)
{
	struct eval_ctx *c = ctx;
	const struct stat_opts *o = c->v->o;
	const struct profile_metric *ref = metric_find(o->prof, id);
	if (ref) {
		char err[128];
		if (++c->depth > 16)
			return -1;
		int r = metric_eval(ref->expr, metric_id, c, 0, val, err, sizeof(err));
		c->depth--;
		return r;
	}
	for (int j = o->metric_lo[c->k]; j < o->metric_hi[c->k]; j++)
		if (!strcmp(o->ev[j].name, id)) {
			if (!c->v->r[j].supported)
				return -1;
			*val = c->v->r[j].mean;
			if (o->ev[j].software && o->ev[j].sw_id == EVSPEC_DURATION)
				*val *= 1e-9;   /* perf's duration_time: seconds */
			return 0;
		}
	return -1;
}

/* A -M metric (perf's generic_metric): "%8.1f" with "unit  name" when
 * it has a ScaleUnit, else "%8.2f" with its name; nothing on failure. */
static void metric_of(const struct stat_view *v, int k, struct metric *m)
{
	const struct profile_metric *pm = v->o->metrics[k];
	struct eval_ctx c = {.v = v, .k = k};
	char err[128];
	double val;
	if (metric_eval(pm->expr, metric_id, &c, 0, &val, err, sizeof(err))) {
		*m = (struct metric){.unit = ""};
		return;
	}
	if (*pm->unit) {
		char *end;
		double scale = strtod(pm->unit, &end);
		snprintf(m->buf, sizeof(m->buf), "%s  %s", end, pm->name);
		m->fmt = "%8.1f";
		m->unit = m->buf;
		m->v = val * scale;
	} else {
		m->fmt = "%8.2f";
		m->unit = pm->name;
		m->v = val;
	}
}

static struct metric mk(const char *fmt, const char *unit, double v)
{
	return (struct metric){.fmt = fmt, .unit = unit, .v = v};
}

static struct metric mk_nl(const char *fmt, const char *unit, double v)
{
	return (struct metric){.fmt = fmt, .unit = unit, .v = v, .newline = 1};
}

/* The metrics perf 6.1 prints on event i's line (perf_stat__print_shadow_
 * stats), then its -M metrics. avg is the printed (scaled) count. */
static int metrics(const struct stat_view *v, int i, double avg, struct metric *m)
{
	static const struct { uint32_t idx, base; const char *fmt, *unit; } ratio[] = {
		{0x6, 0x5, "%7.2f%%", "of all branches"},
		{0x10001, 0x10000, "%7.2f%%", "of all L1-dcache accesses"},
		{0x10009, 0x10008, "%7.2f%%", "of all L1-icache accesses"},
		{0x10019, 0x10018, "%7.2f%%", "of all dTLB cache accesses"},
		{0x10021, 0x10020, "%7.2f%%", "of all iTLB cache accesses"},
		{0x10011, 0x10010, "%7.2f%%", "of all LL-cache accesses"},
		{0x4, 0x3, "%8.3f %%", "of all cache refs"},
	};
	const struct evspec *e = &v->o->ev[i];
	uint32_t idx = kind(e);
	double total, t2;
	int n = 1;
	m[0] = (struct metric){0};
	if (idx == 0x2) {
		stat_of(v, i, 0x1, &total);
		m[0] = mk(total ? "%7.2f " : NULL, "insn per cycle", total ? avg / total : 0);
		stat_of(v, i, 0x8, &total);
		stat_of(v, i, 0x9, &t2);
		if (t2 > total)
			total = t2;
		if (total && avg)
			m[n++] = mk_nl("%7.2f ", "stalled cycles per insn", total / avg);
	} else if (idx == 0x8 || idx == 0x9) {
		stat_of(v, i, 0x1, &total);
		m[0] = mk("%7.2f%%", idx == 0x8 ? "frontend cycles idle" : "backend cycles idle", total ? avg / total * 100.0 : 0);
	} else if (idx == 0x1) {
		stat_of(v, i, 0xffffffff, &total);
		m[0] = total ? mk("%8.3f", "GHz", avg / total) : mk(NULL, "Ghz", 0);
	} else if (idx == 0xffffffff) {
		m[0] = v->wall_ns ? mk("%8.3f", "CPUs utilized", avg / (v->wall_ns * 1e-6))
				  : mk(NULL, "CPUs utilized", 0);
	} else {
		size_t r = 0;
		while (r < sizeof(ratio) / sizeof(ratio[0]) && ratio[r].idx != idx)
			r++;
		if (r < sizeof(ratio) / sizeof(ratio[0])) {
			if (stat_of(v, i, ratio[r].base, &total))
				m[0] = mk(ratio[r].fmt, ratio[r].unit, total ? avg * 100.0 / total : 0);
			else
				m[0] = mk(NULL, ratio[r].unit, 0);
		} else if (stat_of(v, i, 0xffffffff, &total)) {
			/* any other event: its rate per second of task-clock */
			char u = ' ';
			m[0] = mk("%8.3f", m[0].buf, total ? convert_unit(1e9 * avg / total, &u) : 0);
			snprintf(m[0].buf, sizeof(m[0].buf), u == ' ' ? "/sec" : "%c/sec", u);
		} else {
			n = 0;
		}
	}
	for (int k = 0; k < v->o->nmetrics; k++)
		if (v->o->metric_ev[k] == i) {
			metric_of(v, k, &m[n]);
			m[n].newline = n > 0;
			n++;
		}
	if (!n)
		m[n++] = (struct metric){0};
	return n;
}

/* ---- the three layouts: a counted row's fields and its metrics */

const char *stat_grouped(char *out, double v, int decimals, int big)
{
	char digits[48];
	int n = snprintf(digits, sizeof(digits), "%.*f", decimals, v), k = 0;
	int whole = decimals ? (int)(strchr(digits, '.') - digits) : n;
	for (int i = 0; i < n; i++) {
		if (big && i && i < whole && (whole - i) % 3 == 0 && digits[i - 1] != '-')
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = 0;
	return out;
}

/* perf's CSV and JSON percentage is integer arithmetic on u64 */
static double pcnt_int(const struct stat_row *r)
{
	return r->run != r->ena ? (double)(100 * r->run / r->ena) : 100.0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* print_metric_csv's number alone: no padding, no '%' */
static const char *bare(char *buf, size_t len, const struct metric *m)
{
	char *v = buf, *end;
	snprintf(buf, len, m->fmt, m->v);
	while (*v == ' ')
		v++;
	for (end = v; (*end >= '0' && *end <= '9') || *end == '.'; end++)
		;
	*end = 0;
	return v;
}

/* One metric in the current layout (perf's print_metric_* and new_line_*). */
static void put_metric(const struct stat_view *v, const struct metric *m, int only, const char *evname)
{
	const struct stat_opts *o = v->o;
	FILE *f = o->out;
	const char *x = o->csv_sep;
	char buf[64];
	if (only) {   /* --metric-only: no "/sec" or "CPUs utilized" column */
		if (!m->unit || strstr(m->unit, "/sec") || strstr(m->unit, "CPUs utilized"))
			return;
		if (o->json)
			fprintf(f, "{\"metric-value\" : \"%s\"}", m->fmt ? bare(buf, sizeof(buf), m) : "");
		else if (x)
			fprintf(f, "%s%s", m->fmt ? bare(buf, sizeof(buf), m) : "", x);
		else {
			char s[64];
			int w = METRIC_ONLY_LEN;
			char u[160];
			snprintf(u, sizeof(u), strncmp(m->unit, "of all", 6) ? "%.0s%s" : "%s %s", evname, m->unit);
			if ((size_t)w < strlen(u))
				w = (int)strlen(u) + 1;
			snprintf(s, sizeof(s), m->fmt ? m->fmt : "", m->v);
			fprintf(f, "%*s ", w, s);
		}
		return;
	}
	if (o->json) {
		if (m->newline)
			fprintf(f, "\n%s", v->interval ? pre : "{");
		fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}", m->v,
			m->unit ? m->unit : "(null)");   /* printf's "(null)", as perf */
	} else if (x) {
		if (m->newline)
			fprintf(f, "\n%s%s%s%s", pre, x, x, x);
		if (!m->fmt || !m->unit)
			fprintf(f, "%s%s", x, x);
		else
			fprintf(f, "%s%s%s%s", x, bare(buf, sizeof(buf), m), x, m->unit);
	} else if (!m->fmt || !m->unit) {
		fprintf(f, "%-*s", METRIC_LEN, "");
	} else {
		if (m->newline)
			fprintf(f, "\n%s%49s", pre, "");
		int n = fprintf(f, " # ");
		n += fprintf(f, m->fmt, m->v);
		fprintf(f, " %-*s", METRIC_LEN - n - 1, m->unit);
	}
}

/* perf's print_noise and print_running: the relative deviation over -r's
 * runs, and the share of its enabled time an event was counted */
static void noise_running(const struct stat_view *v, const struct stat_row *r)
{
	const struct stat_opts *o = v->o;
	FILE *f = o->out;
	const char *x = o->csv_sep;
	if (v->runs > 1) {
		if (o->json)
			fprintf(f, "\"variance\" : %.2f, ", r->noise);
		else if (x)
			fprintf(f, "%s%.2f%%", x, r->noise);
		else if (r->noise)
			fprintf(f, "  ( +-%6.2f%% )", r->noise);
	}
	if (o->json)
		fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)r->run, pcnt_int(r));
	else if (x)
		fprintf(f, "%s%llu%s%.2f", x, (unsigned long long)r->run, x, pcnt_int(r));
	else if (r->run != r->ena)
		fprintf(f, "  (%.2f%%)", 100.0 * (double)r->run / (double)r->ena);
}

/* The thread or hart a row is about, as perf 6.1's aggr_printout. */
static void who(const struct stat_view *v)
{
	const struct stat_opts *o = v->o;
	const struct stat_split *w = v->who;
	FILE *f = o->out;
	const char *x = o->csv_sep;
	if (!w)
		return;
	if (o->json && *w->comm)
		fprintf(f, "\"thread\" : \"%s-%d\", ", w->comm, w->id);
	else if (o->json)
		fprintf(f, "\"cpu\" : \"%d\", ", w->id);
	else if (*w->comm)
		fprintf(f, "%*s-%*d%s", x ? 0 : 16, w->comm, x ? 0 : -8, w->id, x ? x : " ");
	else
		fprintf(f, "CPU%*d%s", x ? 0 : -7, w->id, x ? x : " ");
}

/* A row's count, unit and name (perf's abs_printout, or the fields of its
 * <not counted> and <not supported> rows, whose name column is narrower). */
static void head(const struct stat_view *v, const char *count, int counted, const char *unit, const char *name)
{
	const struct stat_opts *o = v->o;
	FILE *f = o->out;
	const char *x = o->csv_sep;
	fputs(pre, f);
	if (o->json) {
		fputs(v->interval ? "" : "{", f);
		who(v);
		fprintf(f, "\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : ", count, unit);
		json_str(f, name);
		fputs(", ", f);
	} else if (x) {
		who(v);
		fprintf(f, "%s%s%s%s%s", count, x, unit, x, name);
	} else {
		who(v);
		fprintf(f, "%*s %-*s %-*s", COUNTS_LEN, count, UNIT_WIDTH, unit,
			counted ? EVNAME_LEN : NOT_COUNTED_NAME, name);
	}
}

static void print_row(const struct stat_view *v, int i)
{
	const struct stat_opts *o = v->o;
	const struct stat_row *r = &v->r[i];
	FILE *f = o->out;
	const char *x = o->csv_sep, *name = o->ev[i].name;
	double scale;
	const char *unit = unit_of(&o->ev[i], &scale);
	int ok = r->supported && r->run && r->ena, only = o->metric_only, table = !x && !o->json;
	struct metric m[MAX_METRICS], none = {.unit = ""};
	char count[72];
	if (!ok) {
		if (only) {
			put_metric(v, &none, 1, name);
			return;
		}
		head(v, r->supported ? "<not counted>" : "<not supported>", 0, unit, name);
		if (table)
			put_metric(v, &(struct metric){0}, 0, name);
		noise_running(v, r);
		if (!table)
			put_metric(v, &none, 0, name);
		fputc('\n', f);
		return;
	}
	double avg = (double)r->val * scale;
	int nm = metrics(v, i, avg, m);
	if (!only) {
		if (o->json)
			snprintf(count, sizeof(count), "%f", avg);
		else if (x)
			snprintf(count, sizeof(count), scale != 1 ? "%.2f" : "%.0f", avg);
		else
			stat_grouped(count, avg, scale != 1 ? 2 : 0, !o->no_big_num);
		head(v, count, 1, unit, name);
		if (!table)   /* noise and running before the metrics */
			noise_running(v, r);
	}
	for (int k = 0; k < nm; k++)
		put_metric(v, &m[k], only, name);
	if (only)
		return;
	if (table)
		noise_running(v, r);
	fputc('\n', f);
}

/* How the rows are split: perf's aggregation modes AGGR_GLOBAL,
 * AGGR_NONE (-A: by hart) and AGGR_THREAD (--per-thread). */
enum { BY_NONE, BY_CPU, BY_THREAD };

static int split_mode(const struct stat_view *v)
{
	return !v->split ? BY_NONE : v->o->per_cpu ? BY_CPU : BY_THREAD;
}

/* --metric-only's header line: each metric's unit (perf's
 * print_metric_headers), after lead; indented past the thread or hart
 * column outside -I, that column's name first in CSV. */
static void metric_header(const struct stat_view *v, const char *lead)
{
	static const int indent[] = {0, 6, 24};   /* perf's aggr_header_lens */
	static const char *const csv[] = {"", "cpu,", "comm-pid,"};
	const struct stat_opts *o = v->o;
	FILE *f = o->out;
	struct metric m[MAX_METRICS];
	int first = 1, by = split_mode(v);
	if (o->json && !v->interval)
		fputc('{', f);
	if (!o->json)
		fputs(lead, f);
	if (!o->json && !o->csv_sep && !v->interval)
		fprintf(f, "%*s", indent[by], "");
	if (o->csv_sep && v->interval)
		fputs("time,", f);
	if (o->csv_sep)
		fputs(csv[by], f);
	for (int i = 0; i < o->nev; i++) {
		int nm = metrics(v, i, 0, m);
		if (o->json && !first)
			fputs(", ", f);
		first = 0;
		for (int k = 0; k < nm; k++) {
			const char *u = m[k].unit;
			char buf[160];
			if (!u || (!o->json && (strstr(u, "/sec") || strstr(u, "CPUs utilized"))))
				continue;
			if (!strncmp(u, "of all", 6)) {
				snprintf(buf, sizeof(buf), "%s %s", o->ev[i].name, u);
				u = buf;
			}
			if (o->json)
				fprintf(f, "\"unit\" : \"%s\"", u);
			else if (o->csv_sep)
				fprintf(f, "%s%s", u, o->csv_sep);
			else
				fprintf(f, "%*s ", METRIC_ONLY_LEN, u);
		}
	}
	if (o->json)
		fputc('}', f);
	fputc('\n', f);
}

/* perf's get_precision: digits enough to show the deviation, plus 2. At
 * zero deviation perf's lround(inf) overflows to LONG_MIN, whose int is 0
 * on x86-64: 2 digits. */
static int precision(double sd)
{
	if (sd > 1)
		return 2;
	double p = ceil(-log10(sd));
	return (isfinite(p) ? (int)lround(p) : 0) + 2;
}

static void footer(const struct stat_view *v)
{
	const struct stat_opts *o = v->o;
	FILE *f = o->out;
	double secs = v->wall_ns / 1e9, sd = v->wall_sd / 1e9;
	char note[128];
	snprintf(note, sizeof(note), " (modelled: %s at %.2f GHz%s)", o->prof->name,
		 (double)o->prof->clock_hz / 1e9, o->models ? "" : ", one cycle per instruction");
	if (!o->null_run)
		fputc('\n', f);
	if (v->runs == 1) {
		/* the user-mode kernel takes no modelled time: the rest is sleep */
		fprintf(f, " %17.9f seconds time elapsed%s\n\n", secs, note);
		fprintf(f, " %17.9f seconds user\n", v->user_ns / 1e9);
		fprintf(f, " %17.9f seconds sys\n", 0.0);
	} else {
		int p = precision(sd);
		if (o->table) {
			char tmp[64];
			int indent = 0;
			snprintf(tmp, sizeof(tmp), " %17.*f", p, secs);
			while (tmp[indent] == ' ')
				indent++;
			fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
			for (unsigned r = 0; r < v->runs; r++) {
				double run = (double)v->run_wall[r] / 1e9;
				int h = 1 + abs((int)(run ? 100.0 * (run - secs) / run : 0) / 5);
				fprintf(f, " %17.*f (%+.*f) ", p, run, p, run - secs);
				while (h--)
					fputc('#', f);
				fputc('\n', f);
			}
			fprintf(f, "\n%*s# Final result:\n", indent, "");
		}
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", p, secs, p, sd);
		if (secs && sd)
			fprintf(f, "  ( +-%6.2f%% )", 100.0 * sd / secs);
		fputs(note, f);
	}
	fprintf(f, "\n\n");
}

/* perf's --per-thread order: an event's threads by count, highest
 * first (ties by tid); -A's harts in order */
static const struct stat_split *by_count_of;
static int by_count_event;
static int by_count(const void *a, const void *b)
{
	const struct stat_split *x = &by_count_of[*(const int *)a], *y = &by_count_of[*(const int *)b];
	uint64_t u = x->r[by_count_event].val, w = y->r[by_count_event].val;
	if (!*x->comm || u == w)
		return x->id - y->id;
	return u < w ? 1 : -1;
}

/* --metric-only with --per-thread or -A: a line for each thread or
 * hart, its column and then every event's metrics (perf 6.1's -A
 * layout, print_no_aggr_metric; 6.1 printed --per-thread's a line per
 * event and thread without the thread's column, later perf as -A's).
 * Threads in the order they first ran, harts in order. */
static void print_split_metrics(const struct stat_view *v)
{
	static struct stat_view w;
	FILE *f = v->o->out;
	for (int k = 0; k < v->nsplit && k < STAT_MAX_THREADS; k++) {
		w = *v;
		w.who = &v->split[k];
		memcpy(w.r, w.who->r, sizeof(w.r));
		fputs(v->o->json && !v->interval ? "{" : pre, f);
		who(&w);
		for (int i = 0; i < v->o->nev; i++)
			print_row(&w, i);
		fputc('\n', f);
	}
}

/* --per-thread and -A: event i's row for each thread or hart, each
 * with that thread's or hart's own metrics */
static void print_split(const struct stat_view *v, int i)
{
	static struct stat_view w;
	int order[STAT_MAX_THREADS];
	int n = v->nsplit < STAT_MAX_THREADS ? v->nsplit : STAT_MAX_THREADS;
	for (int k = 0; k < n; k++)
		order[k] = k;
	by_count_of = v->split;
	by_count_event = i;
	qsort(order, (size_t)n, sizeof(order[0]), by_count);
	for (int k = 0; k < n; k++) {
		w = *v;
		w.who = &v->split[order[k]];
		memcpy(w.r, w.who->r, sizeof(w.r));
		print_row(&w, i);
	}
}

void stat_print(const struct stat_view *v)
{
	static unsigned intervals;   /* perf repeats the -I header every 25 */
	const struct stat_opts *o = v->o;
	FILE *f = o->out;
	int table = !o->json && !o->csv_sep;
	uint64_t t = v->stamp_ns;
	pre[0] = 0;
	if (v->interval) {
		if (o->json)
			snprintf(pre, sizeof(pre), o->metric_only ? "{\"interval\" : %llu.%09llu}" :
				 "{\"interval\" : %llu.%09llu, ", (unsigned long long)(t / 1000000000),
				 (unsigned long long)(t % 1000000000));
		else
			snprintf(pre, sizeof(pre), "%6llu.%09llu%s", (unsigned long long)(t / 1000000000),
				 (unsigned long long)(t % 1000000000), table ? " " : o->csv_sep);
		/* perf's print_interval: the thread or hart column's name */
		static const char *const col[] = {"", " CPU    ", "             comm-pid"};
		static const char *const pad[] = {"             ", "                ",
						  "                  "};
		int by = split_mode(v);
		if (intervals == 0 && table) {
			fprintf(f, "#           time%s", col[by]);
			if (!o->metric_only)
				fprintf(f, "%scounts %*s events\n", pad[by], UNIT_WIDTH, "unit");
		}
		if (intervals == 0 && o->metric_only) {
			if (o->json)
				fputc('{', f);
			metric_header(v, " ");
		}
		if (++intervals == 25)
			intervals = 0;
	} else if (table) {
		fprintf(f, "\n Performance counter stats for '");
		for (int i = 0; i < v->argc; i++)
			fprintf(f, "%s%s", i ? " " : "", v->argv[i]);
		fprintf(f, "'");
		if (v->runs > 1)
			fprintf(f, " (%u runs)", v->runs);
		fprintf(f, ":\n\n");
	}
	if (o->metric_only && !v->interval)
		metric_header(v, "");
	if (o->metric_only && v->split) {
		print_split_metrics(v);
	} else {
		if (o->metric_only)
			fputs(pre, f);
		for (int i = 0; i < o->nev; i++)
			if (v->split)
				print_split(v, i);
			else
				print_row(v, i);
		if (o->metric_only)
			fputc('\n', f);
	}
	if (!v->interval && table)
		footer(v);
}

void stat_print_verbose(const struct stat_view *v)
{
	for (int i = 0; i < v->o->nev; i++)
		fprintf(v->o->out, "%s: %llu %llu %llu\n", v->o->ev[i].name, (unsigned long long)v->r[i].val,
			(unsigned long long)v->r[i].ena, (unsigned long long)v->r[i].run);
}
