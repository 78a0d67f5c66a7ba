/* rvpmu diff: perf diff's default table (tools/perf/builtin-diff.c):
 * the samples of two recordings matched by file and symbol name, each
 * symbol's share of the old recording (Baseline) and how far its share
 * moved in the new one (Delta Abs, the largest moves first). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

struct side {
	struct perfdata_file f;
	struct resolver r;
	struct frames fs;
	struct hists h;
	int loaded;
};

struct pair {
	struct hentry *base, *new_;     /* either may be NULL, not both */
	double delta;                   /* new share - base share, in percent */
};

static const int dso_sym[] = { RK_DSO, RK_SYM };

static int same(struct hentry *a, struct hentry *b)
{
	return !strcmp(loc_dso(&a->fr->l), loc_dso(&b->fr->l)) &&
	       !strcmp(frame_sym(a->fr), frame_sym(b->fr));
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* perf's order: pairs by |delta|, then the baseline's period, then
 * shared object and symbol */
static int by_delta(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;
	int ha = a->base && a->new_, hb = b->base && b->new_;
	if (!ha || !hb) {
		/* an entry of the new recording alone is paired with a blank
		 * baseline; one of the old alone has no pair */
		ha = a->new_ != NULL, hb = b->new_ != NULL;
	}
	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) > fabs(b->delta) ? -1 : 1;
	uint64_t x = a->base ? a->base->period : 0, y = b->base ? b->base->period : 0;
	if (x != y)
		return x > y ? -1 : 1;
	struct hentry *ea = a->base ? a->base : a->new_, *eb = b->base ? b->base : b->new_;
	int c = strcmp(loc_dso(&ea->fr->l), loc_dso(&eb->fr->l));
	return c ? c : strcmp(frame_sym(ea->fr), frame_sym(eb->fr));
}

static int load(struct side *s, const char *path, const struct diff_opts *o,
		const struct report_opts *ro)
{
	char err[512];
	if (perfdata_read(path, &s->f, err, sizeof(err))) {
		fprintf(stderr, "rvpmu diff: %s\n", err);
		return -1;
	}
	s->loaded = 1;
	resolver_init(&s->r, &s->f, o->symfs, !o->no_demangle, "diff");
	frames_init(&s->fs, &s->r);
	s->h = (struct hists){ .o = ro, .keys = dso_sym, .nkeys = 2 };
	return 0;
}

static void unload(struct side *s)
{
	if (!s->loaded)
		return;
	hists_free(&s->h);
	frames_free(&s->fs);
	resolver_free(&s->r);
	perfdata_file_free(&s->f);
}

static int event_table(FILE *out, const struct diff_opts *o, struct side *b, struct side *n,
		       unsigned ev, unsigned nev)
{
	hists_free(&b->h);
	hists_free(&n->h);
	if (hists_add(&b->h, &b->fs, &b->f, ev) || hists_add(&n->h, &n->fs, &n->f, nev))
		return -1;
	hists_finish(&b->h);
	hists_finish(&n->h);
	struct pair *p = calloc(b->h.n + n->h.n + 1, sizeof(*p));
	if (!p)
		return -1;
	size_t np = 0;
	for (size_t i = 0; i < b->h.n; i++)
		p[np++] = (struct pair){ .base = &b->h.e[i] };
	for (size_t j = 0; j < n->h.n; j++) {
		struct hentry *e = &n->h.e[j];
		size_t i = 0;
		while (i < b->h.n && !(p[i].base && !p[i].new_ && same(p[i].base, e)))
			i++;
		struct pair *q = i < b->h.n ? &p[i] : &p[np++];
		q->new_ = e;
	}
	unsigned w[W_N] = { [W_DSO] = 13, [W_SYM] = 6 };
	for (size_t i = 0; i < np; i++) {
		struct pair *q = &p[i];
		q->delta = (q->new_ ? pct(q->new_->period, n->h.total_period) : 0) -
			   (q->base ? pct(q->base->period, b->h.total_period) : 0);
		hentry_widths(w, q->base ? q->base : q->new_, 0, 0);
	}
	qsort(p, np, sizeof(*p), by_delta);
	if (!o->quiet)
		fprintf(out, "# Baseline  Delta Abs  %-*s  %-*s\n# ........  .........  %.*s  %.*s\n#\n",
			(int)w[W_DSO], "Shared Object", (int)w[W_SYM], "Symbol", (int)w[W_DSO],
			"........................................................................"
			"........................................................................",
			(int)w[W_SYM],
			"........................................................................"
			"........................................................................");
	for (size_t i = 0; i < np; i++) {
		struct pair *q = &p[i];
		struct hentry *e = q->base ? q->base : q->new_;
		double bp = q->base ? pct(q->base->period, b->h.total_period) : 0;
		if (o->percent_limit > 0 && bp < o->percent_limit && fabs(q->delta) < o->percent_limit)
			continue;
		char base[32] = "", delta[32] = "", dso[4096], sym[4096];
		if (q->base)
			snprintf(base, sizeof(base), "%6.2f%%", bp);
		if (q->new_)
			snprintf(delta, sizeof(delta), "%+4.2F%%", q->delta);
		hentry_text(dso, sizeof(dso), &b->h, e, RK_DSO, w[W_DSO]);
		hentry_text(sym, sizeof(sym), &b->h, e, RK_SYM, w[W_SYM]);
		fprintf(out, "  %8s  %9s  %s  %s\n", base, delta, dso, sym);
	}
	free(p);
	return 0;
}

int diff_main(const struct diff_opts *o)
{
	FILE *out = o->out ? o->out : stdout;
	struct report_opts ro = { .no_demangle = o->no_demangle };
	struct side b = {0}, n = {0};
	int rc = 1;
	if (load(&b, o->old, o, &ro) || load(&n, o->new_, o, &ro))
		goto done;
	rc = 0;
	int first = 1;
	for (unsigned ev = 0; ev < b.f.nevents && !rc; ev++) {
		/* the new recording's event of the same name (perf pairs events
		 * the same way) */
		unsigned k = 0;
		while (k < n.f.nevents && strcmp(n.f.events[k].name, b.f.events[ev].name))
			k++;
		if (k == n.f.nevents) {
			fprintf(stderr, "rvpmu diff: %s has no event '%s'\n", o->new_, b.f.events[ev].name);
			continue;
		}
		if (!o->quiet)
			fprintf(out, "%s# Event '%s'\n#\n", first ? "" : "\n", b.f.events[ev].name);
		first = 0;
		if (event_table(out, o, &b, &n, ev, k)) {
			fprintf(stderr, "rvpmu diff: out of memory\n");
			rc = 1;
		}
	}
done:
	unload(&b);
	unload(&n);
	return rc;
}
