/* rvpmu report: perf report's overhead table (sorted by symbol, shared
 * object or source line), folded stacks (one "root;...;leaf N" line per
 * distinct stack, the input format of flame graph tools) and a
 * self-contained SVG flame graph, from a perf.data file. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/perfdata.h"

struct dso {
	char *path;
	struct sym_elf *sym;    /* NULL when it could not be opened */
};

struct ctx {
	const struct report_opts *o;
	const struct perfdata_file *f;
	struct dso *dsos;
	size_t ndsos;
};

struct row {
	char *key;
	uint64_t period, count;
};

static void rep_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

int report_parse_sort(const char *s)
{
	if (!strcmp(s, "sym") || !strcmp(s, "symbol"))
		return REPORT_SORT_SYM;
	if (!strcmp(s, "dso"))
		return REPORT_SORT_DSO;
	if (!strcmp(s, "srcline"))
		return REPORT_SORT_SRCLINE;
	return -1;
}

static const struct perfdata_rd_mmap *find_map(const struct ctx *c, uint32_t pid, uint64_t ip)
{
	const struct perfdata_rd_mmap *any = NULL;
	/* the newest mapping wins, as a later mmap replaces an older one */
	for (size_t i = c->f->nmmaps; i-- > 0;) {
		const struct perfdata_rd_mmap *m = &c->f->mmaps[i];
		if (ip < m->addr || ip - m->addr >= m->len)
			continue;
		if (m->pid == pid)
			return m;
		if (!any)
			any = m;
	}
	return any;
}

static struct sym_elf *dso_syms(struct ctx *c, const char *path)
{
	for (size_t i = 0; i < c->ndsos; i++)
		if (!strcmp(c->dsos[i].path, path))
			return c->dsos[i].sym;
	struct dso *d = realloc(c->dsos, (c->ndsos + 1) * sizeof(*d));
	if (!d)
		return NULL;
	c->dsos = d;
	d = &c->dsos[c->ndsos];
	if (!(d->path = strdup(path)))
		return NULL;
	c->ndsos++;
	char full[4096], err[4400];
	snprintf(full, sizeof(full), "%s%s", c->o->symfs ? c->o->symfs : "", path);
	/* a file rebuilt since the recording is refused, as perf does: its
	 * samples stay unresolved rather than land on the wrong symbols */
	int other = sym_check_build_id(c->f, path, full, err, sizeof(err));
	d->sym = other ? NULL : sym_open(full, err, sizeof(err));
	if (!d->sym) {
		/* the path comes from the file: keep the message one line of text */
		for (char *p = err; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
		fprintf(stderr, other ? "rvpmu report: warning: %s: its samples are not symbolised\n"
				      : "rvpmu report: no symbols for %s\n", err);
	}
	return d->sym;
}

/* Where ip lands: the mapped file, its symbols and the link-time address. */
struct where {
	const struct perfdata_rd_mmap *map;
	struct sym_elf *sym;
	uint64_t addr;
	int have_addr;
};

static struct where resolve(struct ctx *c, uint32_t pid, uint64_t ip)
{
	struct where w = { find_map(c, pid, ip), NULL, 0, 0 };
	if (!w.map)
		return w;
	w.sym = dso_syms(c, w.map->path);
	if (w.sym)
		w.have_addr = sym_offset_to_addr(w.sym, ip - w.map->addr + w.map->pgoff, &w.addr);
	return w;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The function name of ip, or its address in hex as perf shows it. */
static void sym_name(struct ctx *c, uint32_t pid, uint64_t ip, char *buf, size_t len)
{
	struct where w = resolve(c, pid, ip);
	const char *name = w.have_addr ? sym_lookup(w.sym, w.addr, NULL) : NULL;
	/* unresolved: the offset in the mapped file, as perf shows it */
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%016llx", (unsigned long long)(w.map ? ip - w.map->addr +
								       w.map->pgoff : ip));
}

static char *key_of(struct ctx *c, const struct perfdata_rd_sample *s)
{
	char buf[1024];
	struct where w;
	switch (c->o->sort) {
	case REPORT_SORT_DSO:
		w = resolve(c, s->pid, s->ip);
		snprintf(buf, sizeof(buf), "%s", w.map ? base_name(w.map->path) : "[unknown]");
		break;
	case REPORT_SORT_SRCLINE:
		w = resolve(c, s->pid, s->ip);
		if (!w.have_addr || sym_srcline(w.sym, w.addr, buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), "[unknown]");
		break;
	default:
		memcpy(buf, "[.] ", 4);
		sym_name(c, s->pid, s->ip, buf + 4, sizeof(buf) - 4);
		break;
	}
	return strdup(buf);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
}

static int by_period(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Merge rows with equal keys, summing them. */
static size_t merge_rows(struct row *r, size_t n)
{
	qsort(r, n, sizeof(*r), by_key);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !strcmp(r[k - 1].key, r[i].key)) {
			r[k - 1].period += r[i].period;
			r[k - 1].count += r[i].count;
			free(r[i].key);
		} else {
			r[k++] = r[i];
		}
	}
	return k;
}

static void free_rows(struct row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(r[i].key);
	free(r);
}

/* One row per distinct (pid, ip) first, so each address is symbolised once. */
struct ipent {
	uint64_t ip, period, count;
	uint32_t pid;
};

static int by_ip(const void *a, const void *b)
{
	const struct ipent *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int table(struct ctx *c, unsigned ev, FILE *out, char *err, size_t errlen)
{
	const struct perfdata_file *f = c->f;
	const struct perfdata_rd_event *e = &f->events[ev];
	struct ipent *ips = calloc(e->nsamples + 1, sizeof(*ips));
	if (!ips)
		return rep_err(err, errlen, "out of memory"), -1;
	size_t n = 0;
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		if (s->event == ev && n < e->nsamples)
			ips[n++] = (struct ipent){ s->ip, s->period, 1, s->pid };
	}
	qsort(ips, n, sizeof(*ips), by_ip);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && ips[k - 1].ip == ips[i].ip && ips[k - 1].pid == ips[i].pid) {
			ips[k - 1].period += ips[i].period;
			ips[k - 1].count++;
		} else {
			ips[k++] = ips[i];
		}
	}
	struct row *rows = calloc(k + 1, sizeof(*rows));
	if (!rows) {
		free(ips);
		return rep_err(err, errlen, "out of memory"), -1;
	}
	uint64_t total = 0;
	for (size_t i = 0; i < k; i++) {
		struct perfdata_rd_sample s = { .ip = ips[i].ip, .pid = ips[i].pid };
		rows[i] = (struct row){ key_of(c, &s), ips[i].period, ips[i].count };
		total += ips[i].period;
		if (!rows[i].key) {
			free(ips);
			free_rows(rows, i);
			return rep_err(err, errlen, "out of memory"), -1;
		}
	}
	free(ips);
	size_t nr = merge_rows(rows, k);
	qsort(rows, nr, sizeof(*rows), by_period);
	static const char *const col[] = { "Symbol", "Shared Object", "Source:Line" };
	fprintf(out, "# Samples: %llu of event '%s'\n", (unsigned long long)e->nsamples, e->name);
	fprintf(out, "# Event count (approx.): %llu\n#\n", (unsigned long long)total);
	fprintf(out, "# Overhead  Samples  %s\n# ........  .......  ......\n#\n", col[c->o->sort]);
	for (size_t i = 0; i < nr; i++)
		fprintf(out, "%9.2f%%  %7llu  %s\n", total ? 100.0 * rows[i].period / total : 0.0,
			(unsigned long long)rows[i].count, rows[i].key);
	fprintf(out, "\n");
	free_rows(rows, nr);
	return 0;
}

/* The stack of a sample, root first, frames joined by ';'. Callers are
 * symbolised at return address - 1, the call instruction. */
static char *stack_of(struct ctx *c, const struct perfdata_rd_sample *s)
{
	uint64_t one = s->ip;
	const uint64_t *cc = s->callchain;
	uint32_t n = s->nr_callchain;
	uint64_t frames[PERF_MAX_STACK_DEPTH];
	uint32_t nf = 0;
	for (uint32_t i = 0; i < n && nf < PERF_MAX_STACK_DEPTH; i++)
		if (cc[i] < PERF_CONTEXT_MAX)
			frames[nf++] = cc[i];
	if (!nf) {
		frames[0] = one;
		nf = 1;
	}
	size_t cap = 256, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = 0;
	for (uint32_t i = nf; i-- > 0;) {
		char name[512];
		sym_name(c, s->pid, i ? frames[i] - 1 : frames[i], name, sizeof(name));
		size_t k = strlen(name);
		for (size_t j = 0; j < k; j++)
			if (name[j] == ';' || name[j] == ' ')
				name[j] = '_';  /* the folded format's separators */
		if (len + k + 2 > cap) {
			while (len + k + 2 > cap)
				cap *= 2;
			char *o = realloc(out, cap);
			if (!o) {
				free(out);
				return NULL;
			}
			out = o;
		}
		if (len)
			out[len++] = ';';
		memcpy(out + len, name, k + 1);
		len += k;
	}
	return out;
}

static int folded_rows(struct ctx *c, unsigned ev, struct row **rows_out, size_t *n_out,
		       char *err, size_t errlen)
{
	const struct perfdata_file *f = c->f;
	struct row *rows = calloc(f->events[ev].nsamples + 1, sizeof(*rows));
	if (!rows)
		return rep_err(err, errlen, "out of memory"), -1;
	size_t n = 0;
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		if (s->event != ev || n >= f->events[ev].nsamples)
			continue;
		char *k = stack_of(c, s);
		if (!k) {
			free_rows(rows, n);
			return rep_err(err, errlen, "out of memory"), -1;
		}
		rows[n++] = (struct row){ k, s->period, 1 };
	}
	*n_out = merge_rows(rows, n);
	*rows_out = rows;
	return 0;
}

/* ---- flame graph ---- */

struct node {
	char *name;
	uint64_t value;
	struct node *kids;
	size_t nkids, cap;
};

static struct node *child(struct node *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->nkids; i++)
		if (strlen(p->kids[i].name) == len && !memcmp(p->kids[i].name, name, len))
			return &p->kids[i];
	if (p->nkids == p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 4;
		struct node *k = realloc(p->kids, nc * sizeof(*k));
		if (!k)
			return NULL;
		p->kids = k;
		p->cap = nc;
	}
	struct node *k = &p->kids[p->nkids];
	memset(k, 0, sizeof(*k));
	if (!(k->name = strndup(name, len)))
		return NULL;
	p->nkids++;
	return k;
}

static void free_node(struct node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		free_node(&n->kids[i]);
	free(n->kids);
	free(n->name);
}

static int depth_of(const struct node *n)
{
	int d = 0;
	for (size_t i = 0; i < n->nkids; i++) {
		int k = depth_of(&n->kids[i]);
		if (k > d)
			d = k;
	}
	return d + 1;
}

static void xml_text(FILE *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", o); break;
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '"': fputs("&quot;", o); break;
		default:
			/* control bytes are not allowed in XML 1.0 */
			fputc((unsigned char)*s < 0x20 ? '?' : *s, o);
		}
	}
}

/* A warm colour from the name, stable across runs. */
static void colour(const char *name, int *r, int *g, int *b)
{
	uint32_t h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	*r = 205 + (int)(h % 50);
	*g = 80 + (int)((h >> 8) % 130);
	*b = 40 + (int)((h >> 16) % 50);
}

enum { FG_W = 1200, FG_ROW = 16, FG_TOP = 36, FG_BOTTOM = 8 };

static void draw(FILE *o, const struct node *n, double x, uint64_t total, int depth,
		 int height)
{
	double w = total ? (double)n->value / total : 0;
	double px = x * (FG_W - 20) + 10, pw = w * (FG_W - 20);
	int y = height - FG_BOTTOM - (depth + 1) * FG_ROW;
	int r, g, b;
	colour(n->name, &r, &g, &b);
	fprintf(o, "<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\">", x, w);
	fputs("<title>", o);
	xml_text(o, n->name);
	fprintf(o, " (%llu samples, %.2f%%)</title>", (unsigned long long)n->value, 100.0 * w);
	fprintf(o, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
		px, y, pw, FG_ROW - 1, r, g, b);
	fprintf(o, "<text x=\"%.2f\" y=\"%d\">", px + 3, y + FG_ROW - 4);
	/* the label fits the frame; the script redoes this after a zoom */
	size_t fit = pw > 12 ? (size_t)((pw - 6) / 7) : 0, len = strlen(n->name);
	if (fit >= len) {
		xml_text(o, n->name);
	} else if (fit > 2) {
		char cut[512];
		snprintf(cut, sizeof(cut), "%.*s..", (int)(fit - 2 < 500 ? fit - 2 : 500), n->name);
		xml_text(o, cut);
	}
	fputs("</text></g>\n", o);
	double cx = x;
	for (size_t i = 0; i < n->nkids; i++) {
		draw(o, &n->kids[i], cx, total, depth + 1, height);
		cx += total ? (double)n->kids[i].value / total : 0;
	}
}

static const char fg_style[] =
	"text{font-family:monospace;font-size:12px;fill:#000;pointer-events:none}"
	".f rect{stroke:#fff;stroke-width:0.5;cursor:pointer}.f:hover rect{stroke:#000}"
	"#title{font-size:16px;text-anchor:middle}#reset{cursor:pointer;fill:#036}";

/* Click a frame to zoom to it (its ancestors span the width, frames
 * outside it are hidden); "Reset Zoom" undoes it. */
static const char fg_script[] =
	"var W=" "%d" ",M=10;\n"
	"function fit(g,pw){var t=g.getElementsByTagName('text')[0],n=g.getAttribute('data-n');"
	"var k=Math.floor((pw-6)/7);t.textContent=k>=n.length?n:(k>2?n.substring(0,k-2)+'..':'');}\n"
	"function zoom(zx,zw){var fs=document.querySelectorAll('.f');for(var i=0;i<fs.length;i++){"
	"var g=fs[i],x=+g.getAttribute('data-x'),w=+g.getAttribute('data-w'),r=g.getElementsByTagName('rect')[0];"
	"var inside=x>=zx-1e-12&&x+w<=zx+zw+1e-9,anc=x<=zx+1e-12&&x+w>=zx+zw-1e-9;"
	"if(!inside&&!anc){g.style.display='none';continue;}g.style.display='';"
	"var nx=anc?0:(x-zx)/zw,nw=anc?1:w/zw,px=nx*(W-2*M)+M,pw=nw*(W-2*M);"
	"r.setAttribute('x',px);r.setAttribute('width',pw);"
	"g.getElementsByTagName('text')[0].setAttribute('x',px+3);fit(g,pw);}}\n"
	"function init(){var fs=document.querySelectorAll('.f');for(var i=0;i<fs.length;i++){"
	"var g=fs[i],t=g.getElementsByTagName('title')[0].textContent;"
	"g.setAttribute('data-n',t.substring(0,t.lastIndexOf(' (')));"
	"g.onclick=function(){zoom(+this.getAttribute('data-x'),+this.getAttribute('data-w'));};}"
	"document.getElementById('reset').onclick=function(){zoom(0,1);};}\n";

static int flamegraph(struct ctx *c, unsigned ev, const char *path, char *err, size_t errlen)
{
	struct row *rows = NULL;
	size_t n = 0;
	if (folded_rows(c, ev, &rows, &n, err, errlen))
		return -1;
	struct node root = { .name = strdup("all") };
	int rc = root.name ? 0 : -1;
	for (size_t i = 0; i < n && !rc; i++) {
		struct node *p = &root;
		p->value += rows[i].count;
		for (const char *s = rows[i].key; p && *s;) {
			const char *e = strchr(s, ';');
			size_t len = e ? (size_t)(e - s) : strlen(s);
			if ((p = child(p, s, len)))
				p->value += rows[i].count;
			s += len + (e ? 1 : 0);
		}
		if (!p)
			rc = -1;
	}
	free_rows(rows, n);
	if (rc) {
		free_node(&root);
		return rep_err(err, errlen, "out of memory"), -1;
	}
	FILE *o = fopen(path, "w");
	if (!o) {
		rep_err(err, errlen, "%s: %s", path, strerror(errno));
		free_node(&root);
		return -1;
	}
	int height = FG_TOP + depth_of(&root) * FG_ROW + FG_BOTTOM;
	fprintf(o, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\" onload=\"init()\">\n", FG_W, height, FG_W, height);
	fprintf(o, "<style type=\"text/css\"><![CDATA[%s]]></style>\n", fg_style);
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", o);
	fprintf(o, fg_script, FG_W);
	fputs("]]></script>\n", o);
	fprintf(o, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff8ee\"/>\n", FG_W, height);
	fprintf(o, "<text id=\"title\" x=\"%d\" y=\"22\">Flame graph: ", FG_W / 2);
	xml_text(o, c->f->events[ev].name);
	fprintf(o, " (%llu samples)</text>\n", (unsigned long long)root.value);
	fputs("<text id=\"reset\" x=\"10\" y=\"22\" style=\"pointer-events:all\">Reset Zoom</text>\n", o);
	draw(o, &root, 0, root.value, 0, height);
	fputs("</svg>\n", o);
	free_node(&root);
	if (fclose(o)) {
		rep_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- branch edges and basic blocks (--branch) ---- */

/* A count per (from, to) address pair, in an open-addressing table. */
struct pair {
	uint64_t a, b, count, misp;
	uint32_t pid, used;
};

struct pairs {
	struct pair *t;
	size_t cap, n;
};

static int pairs_add(struct pairs *p, uint32_t pid, uint64_t a, uint64_t b, int misp)
{
	if (2 * (p->n + 1) > p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 1024;
		struct pair *t = calloc(nc, sizeof(*t));
		if (!t)
			return -1;
		for (size_t i = 0; i < p->cap; i++) {
			if (!p->t[i].used)
				continue;
			size_t j = (p->t[i].a * 0x9e3779b97f4a7c15ull ^ p->t[i].b) % nc;
			while (t[j].used)
				j = (j + 1) % nc;
			t[j] = p->t[i];
		}
		free(p->t);
		p->t = t;
		p->cap = nc;
	}
	size_t j = (a * 0x9e3779b97f4a7c15ull ^ b) % p->cap;
	while (p->t[j].used && (p->t[j].a != a || p->t[j].b != b || p->t[j].pid != pid))
		j = (j + 1) % p->cap;
	if (!p->t[j].used) {
		p->t[j] = (struct pair){ .a = a, .b = b, .pid = pid, .used = 1 };
		p->n++;
	}
	p->t[j].count++;
	p->t[j].misp += misp != 0;
	return 0;
}

static int by_count(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;
	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* Pack the used entries to the front, hottest first; returns how many. */
static size_t pairs_sorted(struct pairs *p)
{
	size_t k = 0;
	for (size_t i = 0; i < p->cap; i++)
		if (p->t[i].used)
			p->t[k++] = p->t[i];
	if (k)   /* an empty table may have no storage at all */
		qsort(p->t, k, sizeof(*p->t), by_count);
	return k;
}

/* "symbol+0xoff" of ip, or its address in hex. */
static void sym_off(struct ctx *c, uint32_t pid, uint64_t ip, char *buf, size_t len)
{
	struct where w = resolve(c, pid, ip);
	uint64_t off = 0;
	const char *name = w.have_addr ? sym_lookup(w.sym, w.addr, &off) : NULL;
	if (name)
		snprintf(buf, len, "%s+0x%llx", name, (unsigned long long)off);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)ip);
}

enum { BRANCH_ROWS = 100 };  /* rows of each table */

/* The hottest edges over every branch record of event ev's samples, and
 * basic blocks estimated from consecutive records of one stack (newest
 * first): the code from an older record's target to the next newer
 * record's source ran straight through, so it is one block execution. */
static int branch_tables(struct ctx *c, unsigned ev, FILE *out, char *err, size_t errlen)
{
	const struct perfdata_file *f = c->f;
	struct pairs edges = {0}, blocks = {0};
	uint64_t nrec = 0, nsamp = 0, nblk = 0, skipped = 0;
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		if (s->event != ev)
			continue;
		nsamp++;
		for (uint32_t j = 0; j < s->nr_branches; j++) {
			const struct perfdata_branch *b = &s->branches[j];
			if (pairs_add(&edges, s->pid, b->from, b->to, b->mispred))
				goto oom;
			nrec++;
			if (j + 1 == s->nr_branches)
				continue;
			uint64_t start = s->branches[j + 1].to, end = b->from;
			if (start > end) {  /* not straight-line code: no block */
				skipped++;
				continue;
			}
			if (pairs_add(&blocks, s->pid, start, end, 0))
				goto oom;
			nblk++;
		}
	}
	size_t ne = pairs_sorted(&edges), nb = pairs_sorted(&blocks);
	fprintf(out, "# Branch edges of event '%s': %llu branch records in %llu samples, "
		"%zu distinct edges, hottest first%s\n#\n", f->events[ev].name,
		(unsigned long long)nrec, (unsigned long long)nsamp, ne,
		ne > BRANCH_ROWS ? " (the first 100)" : "");
	fprintf(out, "#    Count   Share   Mispred  Mispred%%  From -> To\n");
	for (size_t i = 0; i < ne && i < BRANCH_ROWS; i++) {
		const struct pair *p = &edges.t[i];
		char from[512], to[512];
		sym_off(c, p->pid, p->a, from, sizeof(from));
		sym_off(c, p->pid, p->b, to, sizeof(to));
		fprintf(out, "%10llu  %5.2f%%  %8llu  %7.2f%%  %s -> %s\n", (unsigned long long)p->count,
			100.0 * p->count / nrec, (unsigned long long)p->misp, 100.0 * p->misp / p->count,
			from, to);
	}
	fprintf(out, "\n# Basic blocks of event '%s' (estimated: a block runs from one branch "
		"record's target to the next newer record's source): %llu block executions, "
		"%zu distinct blocks, hottest first%s; %llu record pairs were not a block\n#\n",
		f->events[ev].name, (unsigned long long)nblk, nb, nb > BRANCH_ROWS ? " (the first 100)" : "",
		(unsigned long long)skipped);
	fprintf(out, "#    Count   Share      Span  Start -> End (Span: bytes from Start to End, "
		"the block's last instruction)\n");
	for (size_t i = 0; i < nb && i < BRANCH_ROWS; i++) {
		const struct pair *p = &blocks.t[i];
		char from[512], to[512];
		sym_off(c, p->pid, p->a, from, sizeof(from));
		sym_off(c, p->pid, p->b, to, sizeof(to));
		fprintf(out, "%10llu  %5.2f%%  %8llu  %s -> %s\n", (unsigned long long)p->count,
			100.0 * p->count / nblk, (unsigned long long)(p->b - p->a), from, to);
	}
	fprintf(out, "\n");
	free(edges.t);
	free(blocks.t);
	return 0;
oom:
	free(edges.t);
	free(blocks.t);
	return rep_err(err, errlen, "out of memory"), -1;
}

int report_file(const struct report_opts *o, const struct perfdata_file *f, char *err,
		size_t errlen)
{
	struct ctx c = { o, f, NULL, 0 };
	FILE *out = o->out ? o->out : stdout;
	int rc = 0, any = 0;
	if (o->branch) {
		if (o->folded || o->flamegraph)
			return rep_err(err, errlen, "--branch prints tables: it does not combine with "
				       "--folded or --flamegraph"), -1;
		int have = 0;
		for (unsigned ev = 0; ev < f->nevents; ev++)
			have |= (f->events[ev].sample_type & PERF_SAMPLE_BRANCH_STACK) != 0;
		if (!have)
			return rep_err(err, errlen, "--branch: %s has no branch stacks (record with "
				       "'rvpmu record -b')", o->input ? o->input : "the file"), -1;
	}
	for (unsigned ev = 0; ev < f->nevents && !rc; ev++) {
		if (!f->events[ev].nsamples)
			continue;
		if (o->branch) {
			if (f->events[ev].sample_type & PERF_SAMPLE_BRANCH_STACK)
				rc = branch_tables(&c, ev, out, err, errlen);
			any = 1;
			continue;
		}
		/* stacks of the first sampled event only: one graph per event */
		if (o->folded || o->flamegraph) {
			if (any)
				break;
			if (o->folded) {
				struct row *rows = NULL;
				size_t n = 0;
				rc = folded_rows(&c, ev, &rows, &n, err, errlen);
				for (size_t i = 0; !rc && i < n; i++)
					fprintf(out, "%s %llu\n", rows[i].key, (unsigned long long)rows[i].count);
				if (!rc)
					free_rows(rows, n);
			}
			if (!rc && o->flamegraph)
				rc = flamegraph(&c, ev, o->flamegraph, err, errlen);
		} else {
			rc = table(&c, ev, out, err, errlen);
		}
		any = 1;
	}
	if (!rc && !any)
		fprintf(o->folded || o->flamegraph ? stderr : out, "# no samples\n");
	for (size_t i = 0; i < c.ndsos; i++) {
		sym_close(c.dsos[i].sym);
		free(c.dsos[i].path);
	}
	free(c.dsos);
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
