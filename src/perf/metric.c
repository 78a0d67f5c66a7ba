/* Metrics as Linux perf's pmu-events define them (MetricName, MetricExpr,
 * MetricGroup, ScaleUnit): perf's expression language (tools/perf/util/
 * expr.y in Linux 6.1) evaluated by recursive descent, and stat -M:
 * the metrics a list names, their events added as weak groups.
 *
 *   if_expr := expr ["if" expr "else" if_expr]
 *   expr    := binary operators, loosest first: | ^ & (< >) (+ -) (* / %)
 *   unary   := "-" unary | primary
 *   primary := NUMBER | ID | "#"literal | "(" if_expr ")"
 *            | (min|max|d_ratio) "(" expr "," expr ")" | source_count "(" ID ")"
 *
 * An ID is a run of [0-9A-Za-z_.:@?] and backslash-escaped '-', ',' or
 * '=' ("branch\-misses"); a division by zero fails the expression, as
 * in perf, and d_ratio(a, 0) is 0. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

#define ID_MAX 64
#define DEPTH_MAX 64

struct mp {
	const char *s;
	metric_value_fn fn;
	void *ctx;
	int collect;            /* ids only: no failure on a zero divisor */
	int depth;
	char *err;
	size_t errlen;
	int failed;
};

static double fail(struct mp *p, const char *fmt, const char *arg)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, fmt, arg);
	p->failed = 1;
	return 0;
}

static int id_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}

static void skip(struct mp *p)
{
	while (*p->s && (isspace((unsigned char)*p->s)))
		p->s++;
}

/* The next word (an ID with its escapes removed) into w, or 0 if none. */
static size_t word(struct mp *p, char *w, const char **end)
{
	const char *q = p->s;
	size_t n = 0;
	for (;;) {
		if (*q == '\\' && q[1] && strchr("-,=", q[1])) {
			q++;
		} else if (!id_char(*q)) {
			break;
		}
		if (n + 1 < ID_MAX)
			w[n++] = *q;
		q++;
	}
	w[n] = 0;
	*end = q;
	return (size_t)(q - p->s);
}

/* perf's NUMBER: ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? */
static size_t number_len(const char *s)
{
	size_t i = 0, digits = 0;
	while (isdigit((unsigned char)s[i]))
		i++, digits++;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			digits++;
	if (!digits)
		return 0;
	if (s[i] == 'e') {
		size_t j = i + 1 + (s[i + 1] == '-');
		if (isdigit((unsigned char)s[j])) {
			while (isdigit((unsigned char)s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

static int accept(struct mp *p, char c)
{
	skip(p);
	if (*p->s != c)
		return 0;
	p->s++;
	return 1;
}

static double if_expr(struct mp *p);
static double binary(struct mp *p, int level);

static void expect(struct mp *p, char c)
{
	char what[2] = {c, 0};
	if (!accept(p, c))
		fail(p, "expected '%s'", what);
}

/* Is the next word the keyword kw (a word, not a prefix of a longer ID)? */
static int keyword(struct mp *p, const char *kw)
{
	char w[ID_MAX];
	const char *end;
	skip(p);
	size_t n = word(p, w, &end);
	if (!n || strcmp(w, kw) || (size_t)(end - p->s) != strlen(kw))
		return 0;
	p->s = end;
	return 1;
}

static double literal(struct mp *p)
{
	/* one program on one hart without SMT (perf's expr__get_literal) */
	static const struct { const char *name; double v; } lit[] = {
		{"#num_cpus", 1}, {"#num_cpus_online", 1}, {"#num_packages", 1}, {"#num_dies", 1},
		{"#num_cores", 1}, {"#smt_on", 0}, {"#core_wide", 1},
	};
	size_t n = 1;
	while (isalnum((unsigned char)p->s[n]) || p->s[n] == '_' || p->s[n] == '.' || p->s[n] == '-')
		n++;
	for (size_t i = 0; i < sizeof(lit) / sizeof(lit[0]); i++)
		if (strlen(lit[i].name) == n && !strncasecmp(p->s, lit[i].name, n)) {
			p->s += n;
			return lit[i].v;
		}
	char name[ID_MAX];
	snprintf(name, sizeof(name), "%.*s", (int)(n < ID_MAX ? n : ID_MAX - 1), p->s);
	p->s += n;
	if (p->collect)   /* a literal of another machine (#system_tsc_freq) */
		return 1;
	return fail(p, "unknown literal '%s'", name);
}

static double call2(struct mp *p, int which)
{
	expect(p, '(');
	double a = if_expr(p);
	expect(p, ',');
	double b = if_expr(p);
	expect(p, ')');
	if (which == 0)
		return a < b ? a : b;
	if (which == 1)
		return a > b ? a : b;
	return b == 0 ? 0 : a / b;   /* d_ratio */
}

static double primary(struct mp *p)
{
	char w[ID_MAX];
	const char *end;
	skip(p);
	if (p->failed)
		return 0;
	if (accept(p, '(')) {
		double v = if_expr(p);
		expect(p, ')');
		return v;
	}
	if (*p->s == '#')
		return literal(p);
	size_t n = word(p, w, &end), num = number_len(p->s);
	if (!n)
		return *p->s ? fail(p, "unexpected '%.1s'", p->s) : fail(p, "unexpected end%s", "");
	if (num >= n) {   /* flex: the longest match, a number on a tie */
		double v = strtod(p->s, NULL);
		p->s += num;
		return v;
	}
	static const char *const fns[] = {"min", "max", "d_ratio"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(w, fns[i]) && (size_t)(end - p->s) == strlen(fns[i])) {
			p->s = end;
			return call2(p, i);
		}
	if (!strcmp(w, "source_count") && n == 12) {
		/* how many events an aggregated event stands for: one here */
		p->s = end;
		expect(p, '(');
		skip(p);
		if (!word(p, w, &end))
			return fail(p, "expected an event in source_count()%s", "");
		p->s = end;
		expect(p, ')');
		return 1;
	}
	if (!strcmp(w, "if") || !strcmp(w, "else"))
		return fail(p, "unexpected '%s'", w);
	p->s = end;
	double v = 0;
	if (p->fn(p->ctx, w, &v))
		return fail(p, "unknown event or metric '%s'", w);
	return v;
}

static double unary(struct mp *p)
{
	if (accept(p, '-'))
		return -unary(p);
	return primary(p);
}

/* Levels, loosest first: | ^ & (< >) (+ -) (* / %). */
static double binary(struct mp *p, int level)
{
	static const char *const ops[] = {"|", "^", "&", "<>", "+-", "*/%"};
	if (level == 6)
		return unary(p);
	double a = binary(p, level + 1);
	for (;;) {
		skip(p);
		char op = *p->s;
		if (p->failed || !op || !strchr(ops[level], op))
			return a;
		p->s++;
		double b = binary(p, level + 1);
		switch (op) {
		case '|': a = (double)((long)a | (long)b); break;
		case '^': a = (double)((long)a ^ (long)b); break;
		case '&': a = (double)((long)a & (long)b); break;
		case '<': a = a < b; break;
		case '>': a = a > b; break;
		case '+': a += b; break;
		case '-': a -= b; break;
		case '*': a *= b; break;
		case '/': case '%':
			if (b == 0) {
				if (!p->collect)
					return fail(p, "division by zero%s", "");
				a = 0;
			} else {
				a = op == '/' ? a / b : (double)((long)a % (long)b);
			}
			break;
		}
	}
}

static double if_expr(struct mp *p)
{
	if (++p->depth > DEPTH_MAX)
		return fail(p, "expression nested too deeply%s", "");
	double v = binary(p, 0);
	if (keyword(p, "if")) {
		double c = binary(p, 0);
		if (!keyword(p, "else"))
			return fail(p, "expected 'else'%s", "");
		double e = if_expr(p);
		v = c != 0 ? v : e;
	}
	p->depth--;
	return v;
}

int metric_eval(const char *expr, metric_value_fn fn, void *ctx, int collect, double *out,
		char *err, size_t errlen)
{
	struct mp p = {.s = expr, .fn = fn, .ctx = ctx, .collect = collect, .err = err, .errlen = errlen};
	double v = if_expr(&p);
	skip(&p);
	if (!p.failed && *p.s)
		fail(&p, "unexpected '%.1s'", p.s);
	if (p.failed)
		return -1;
	*out = v;
	return 0;
}

const struct profile_metric *metric_find(const struct profile *prof, const char *name)
{
	for (unsigned i = 0; i < prof->n_metrics; i++)
		if (!strcasecmp(prof->metrics[i].name, name))
			return &prof->metrics[i];
	return NULL;
}

/* perf's match_metric: list names the metric, one of its ';'-separated
 * groups (case-insensitive), "all", or "No_group" for one without. */
int metric_matches(const struct profile_metric *m, const char *list)
{
	if (!strcmp(list, "all") || !strcasecmp(m->name, list))
		return 1;
	if (!*m->group)
		return !strcasecmp(list, "No_group");
	size_t n = strlen(list);
	for (const char *g = m->group; *g; ) {
		size_t k = strcspn(g, ";");
		if (k == n && !strncasecmp(g, list, n))
			return 1;
		g += k + (g[k] == ';');
		while (*g == ' ')
			g++;
	}
	return 0;
}

/* ---- stat -M: a metric's events, and its value from their counts */

struct collect {
	const struct profile *prof;
	char (*ids)[ID_MAX];
	int n, max;
	int depth;
	char err[256];
};

static int collect_id(void *ctx, const char *id, double *v)
{
	struct collect *c = ctx;
	*v = 1;
	const struct profile_metric *ref = metric_find(c->prof, id);
	if (ref) {   /* another metric: its events are this one's too */
		double x;
		if (++c->depth > 16)
			return -1;
		int r = metric_eval(ref->expr, collect_id, c, 1, &x, c->err, sizeof(c->err));
		c->depth--;
		return r;
	}
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->ids[i], id))
			return 0;
	if (c->n == c->max)
		return -1;
	snprintf(c->ids[c->n++], ID_MAX, "%s", id);
	return 0;
}

/* The event named id in ev[lo, hi), or -1. */
static int find_ev(const struct stat_opts *o, int lo, int hi, const char *id)
{
	for (int i = lo; i < hi; i++)
		if (!strcmp(o->ev[i].name, id))
			return i;
	return -1;
}

/* Add event id to o (in the group of first, unless it is -1): its index. */
static int add_ev(struct stat_opts *o, const struct profile *prof, const char *id, int first,
		  char *err, size_t errlen)
{
	char spec[ID_MAX + 4];
	snprintf(spec, sizeof(spec), "%s", id);
	int n = evspec_parse(spec, prof, o->ev, o->nev, EVSPEC_MAX, err, errlen);
	if (n < 0)
		return -1;
	o->nev = n;
	o->ev[n - 1].group = first;
	o->ev[n - 1].weak = 1;
	return n - 1;
}

/* One metric: its events, where its row is, and where to find them. */
static int add_metric(struct stat_opts *o, const struct profile *prof, const struct profile_metric *m,
		      int base, char *err, size_t errlen)
{
	char ids[EVSPEC_MAX][ID_MAX];
	struct collect c = {.prof = prof, .ids = ids, .max = EVSPEC_MAX};
	double x;
	int k = o->nmetrics;
	if (metric_eval(m->expr, collect_id, &c, 1, &x, c.err, sizeof(c.err)) || !c.n) {
		snprintf(err, errlen, "%s", c.n ? c.err : "it counts no event");
		return -1;
	}
	if (o->metric_no_group) {   /* one pool: each event once */
		for (int e = 0; e < c.n; e++) {
			int at = find_ev(o, base, o->nev, ids[e]);
			if (at < 0 && (at = add_ev(o, prof, ids[e], -1, err, errlen)) < 0)
				return -1;
			if (!e)
				o->metric_ev[k] = at;
		}
		o->metric_lo[k] = base;
		o->metric_hi[k] = -1;   /* to the end of the pool */
		return 0;
	}
	for (int j = 0; j < k; j++) {   /* an earlier group with all its events */
		int all = 1;
		for (int e = 0; e < c.n && all; e++)
			all = find_ev(o, o->metric_lo[j], o->metric_hi[j], ids[e]) >= 0;
		if (all) {
			o->metric_ev[k] = o->metric_lo[k] = o->metric_lo[j];
			o->metric_hi[k] = o->metric_hi[j];
			return 0;
		}
	}
	int first = o->nev;   /* perf's weak group {a,b,...}:W */
	for (int e = 0; e < c.n; e++)
		if (add_ev(o, prof, ids[e], c.n > 1 ? first : -1, err, errlen) < 0)
			return -1;
	o->metric_ev[k] = o->metric_lo[k] = first;
	o->metric_hi[k] = o->nev;
	return 0;
}

int stat_add_metrics(struct stat_opts *o, const struct profile *prof, const char *list,
		     char *err, size_t errlen)
{
	char item[128];
	int base = o->nev, k0 = o->nmetrics;
	for (const char *l = list; ; ) {
		size_t k = strcspn(l, ",");
		snprintf(item, sizeof(item), "%.*s", (int)(k < sizeof(item) ? k : sizeof(item) - 1), l);
		int found = 0;
		for (unsigned i = 0; i < prof->n_metrics; i++) {
			const struct profile_metric *m = &prof->metrics[i];
			if (!*item || !metric_matches(m, item))
				continue;
			found = 1;
			int dup = 0;
			for (int j = 0; j < o->nmetrics; j++)
				dup |= o->metrics[j] == m;
			if (dup)
				continue;
			char why[256];
			if (o->nmetrics == EVSPEC_MAX || add_metric(o, prof, m, base, why, sizeof(why))) {
				if (o->nmetrics == EVSPEC_MAX || !strncmp(why, "too many events", 15))
					snprintf(err, errlen, "the metrics need more than %d events: name fewer%s",
						 EVSPEC_MAX, o->metric_no_group ? "" : ", or share them with --metric-no-group");
				else
					snprintf(err, errlen, "metric %s: %s", m->name, why);
				return -1;
			}
			o->metrics[o->nmetrics++] = m;
		}
		if (!found) {
			snprintf(err, errlen, "cannot find metric or group '%s' for the %s core "
				 "('rvpmu list --profile %s metricgroup' shows them)", item, prof->name, prof->name);
			return -1;
		}
		if (!l[k])
			break;
		l += k + 1;
	}
	for (int k = k0; k < o->nmetrics; k++)   /* the pool ends where the events do */
		if (o->metric_hi[k] < 0)
			o->metric_hi[k] = o->nev;
	return 0;
}
