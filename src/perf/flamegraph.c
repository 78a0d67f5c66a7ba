/* rvpmu report --folded and --flamegraph: one "root;...;leaf N" line per
 * distinct stack (the input format of flame graph tools) and a
 * self-contained SVG flame graph that zooms on a click. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

struct row {
	char *key;
	uint64_t period, count;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
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

/* The stack of a sample, root first, frames joined by ';'. Callers are
 * symbolised at return address - 1, the call instruction. */
static char *stack_of(struct frames *fs, const struct perfdata_file *f,
		      const struct perfdata_rd_sample *s, int max)
{
	struct frame *fr[CHAIN_MAX];
	int nf = sample_chain(fs, f, s, fr, max);
	size_t cap = 256, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	out[0] = 0;
	for (int i = nf; i-- > 0;) {
		char name[512];
		const struct frame *c = i ? frame_get(fs, s->space, fr[i]->l.ip - 1, fr[i]->l.kernel) : fr[i];
		snprintf(name, sizeof(name), "%s", frame_sym(c ? c : fr[i]));
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

static int folded_rows(struct frames *fs, const struct perfdata_file *f, unsigned ev, int max,
		       struct row **rows_out, size_t *n_out, char *err, size_t errlen)
{
	struct row *rows = calloc(f->events[ev].nsamples + 1, sizeof(*rows));
	if (!rows)
		return perfdata_errf(err, errlen, "out of memory"), -1;
	size_t n = 0;
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		if (s->event != ev || n >= f->events[ev].nsamples)
			continue;
		char *k = stack_of(fs, f, s, max);
		if (!k) {
			free_rows(rows, n);
			return perfdata_errf(err, errlen, "out of memory"), -1;
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

static int flamegraph(const struct perfdata_file *f, unsigned ev, struct row *rows, size_t n,
		      const char *path, char *err, size_t errlen)
{
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
	if (rc) {
		free_node(&root);
		return perfdata_errf(err, errlen, "out of memory"), -1;
	}
	FILE *o = fopen(path, "w");
	if (!o) {
		perfdata_errf(err, errlen, "%s: %s", path, strerror(errno));
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
	xml_text(o, f->events[ev].name);
	fprintf(o, " (%llu samples)</text>\n", (unsigned long long)root.value);
	fputs("<text id=\"reset\" x=\"10\" y=\"22\" style=\"pointer-events:all\">Reset Zoom</text>\n", o);
	draw(o, &root, 0, root.value, 0, height);
	fputs("</svg>\n", o);
	free_node(&root);
	if (fclose(o)) {
		perfdata_errf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}


int report_stacks(struct frames *fs, const struct perfdata_file *f, unsigned ev, int max,
		  FILE *folded, const char *svg, char *err, size_t errlen)
{
	struct row *rows = NULL;
	size_t n = 0;
	if (folded_rows(fs, f, ev, max, &rows, &n, err, errlen))
		return -1;
	for (size_t i = 0; folded && i < n; i++)
		fprintf(folded, "%s %llu\n", rows[i].key, (unsigned long long)rows[i].count);
	int rc = svg ? flamegraph(f, ev, rows, n, svg, err, errlen) : 0;
	free_rows(rows, n);
	return rc;
}
