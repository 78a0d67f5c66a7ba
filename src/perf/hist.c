/* perf report's histogram (tools/perf/util/hist.c, util/sort.c,
 * ui/stdio/hist.c): samples resolved once per address, one entry per
 * distinct sort key with its own ("Self") and cumulated ("Children")
 * period, perf's output order and its columns, widths and text. */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

/* ---- frames: each (address space, ip) resolved once ---- */

void frames_init(struct frames *fs, struct resolver *r)
{
	memset(fs, 0, sizeof(*fs));
	fs->r = r;
}

void frames_free(struct frames *fs)
{
	for (size_t i = 0; i < fs->cap; i++)
		if (fs->t[i]) {
			free(fs->t[i]->srcline);
			free(fs->t[i]);
		}
	free(fs->t);
	memset(fs, 0, sizeof(*fs));
}

static size_t frame_hash(uint32_t space, uint64_t ip, int kernel)
{
	uint64_t h = (ip ^ ((uint64_t)space << 40) ^ (uint64_t)kernel << 63) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 17);
}

struct frame *frame_get(struct frames *fs, uint32_t space, uint64_t ip, int kernel)
{
	if (2 * (fs->n + 1) > fs->cap) {
		size_t nc = fs->cap ? 2 * fs->cap : 1024;
		struct frame **t = calloc(nc, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < fs->cap; i++) {
			struct frame *f = fs->t[i];
			if (!f)
				continue;
			size_t j = frame_hash(f->space, f->l.ip, f->l.kernel) % nc;
			while (t[j])
				j = (j + 1) % nc;
			t[j] = f;
		}
		free(fs->t);
		fs->t = t;
		fs->cap = nc;
	}
	size_t j = frame_hash(space, ip, kernel) % fs->cap;
	for (struct frame *f; (f = fs->t[j]); j = (j + 1) % fs->cap)
		if (f->l.ip == ip && f->space == space && f->l.kernel == kernel)
			return f;
	struct frame *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	resolve(fs->r, space, ip, kernel, &f->l);
	f->space = space;
	snprintf(f->name, sizeof(f->name), "%#.16llx", (unsigned long long)f->l.map_ip);
	fs->t[j] = f;
	fs->n++;
	return f;
}

const char *frame_sym(const struct frame *fr)
{
	return fr->l.sym ? fr->l.sym : fr->name;
}

const char *frame_srcline(struct frame *fr)
{
	if (!fr->srcline) {
		char buf[1024];
		loc_srcline(&fr->l, buf, sizeof(buf));
		fr->srcline = strdup(buf);
	}
	return fr->srcline ? fr->srcline : "??:0";
}

int frame_same_fn(const struct frame *a, const struct frame *b)
{
	if (a == b)
		return 1;
	if (a->l.map != b->l.map && (!a->l.map || !b->l.map || strcmp(a->l.map->path, b->l.map->path)))
		return 0;
	if (a->l.sym && b->l.sym)
		return a->l.sym_start == b->l.sym_start;
	return !a->l.sym && !b->l.sym && a->l.ip == b->l.ip;
}

int sample_chain(struct frames *fs, const struct perfdata_file *f,
		 const struct perfdata_rd_sample *s, struct frame **out, int max)
{
	int kernel = sample_is_kernel(s), n = 0, have_user = 0;
	/* the kernel's callchain: the sample's ip first, a context marker
	 * before each part (perf_callchain_store) */
	for (uint32_t i = 0; i < s->nr_callchain && n < max; i++) {
		uint64_t ip = s->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			kernel = ip == PERF_CONTEXT_KERNEL;
			continue;
		}
		have_user |= !kernel;
		if ((out[n] = frame_get(fs, s->space, ip, kernel)))
			n++;
	}
	if (!n && max > 0 && (out[0] = frame_get(fs, s->space, s->ip, sample_is_kernel(s))))
		n = 1;
	const struct perfdata_rd_event *e = &f->events[s->event];
	if (s->regs && s->stack && !have_user && !sample_is_kernel(s) &&
	    (e->sample_type & PERF_SAMPLE_STACK_USER)) {
		uint64_t pcs[CHAIN_MAX];
		int k = unwind_user(fs->r, s, pcs, max - n < CHAIN_MAX ? max - n : CHAIN_MAX);
		for (int i = 0; i < k; i++)
			if ((out[n] = frame_get(fs, s->space, pcs[i], 0)))
				n++;
	}
	return n;
}

/* ---- entries ---- */

static const char *const key_names[RF_N] = {
	[RK_COMM] = "comm", [RK_PID] = "pid", [RK_TID] = "tid", [RK_DSO] = "dso",
	[RK_SYM] = "sym", [RK_SRCLINE] = "srcline", [RK_CPU] = "cpu", [RK_SYMOFF] = "symoff",
	[RF_OVERHEAD] = "overhead", [RF_CHILDREN] = "overhead_children", [RF_SAMPLE] = "sample",
	[RF_PERIOD] = "period",
};

int report_parse_keys(const char *list, int fields, int *out, int *n, char *err, size_t errlen)
{
	*n = 0;
	for (const char *p = list; ; ) {
		size_t len = strcspn(p, ",");
		int k = -1;
		for (int i = 0; i < (fields ? RF_N : RK_NKEYS) && k < 0; i++)
			if (strlen(key_names[i]) == len && !strncmp(key_names[i], p, len))
				k = i;
		if (k < 0 && len == 6 && !strncmp(p, "symbol", 6))
			k = RK_SYM;  /* perf's own name for sym */
		if (k < 0 || *n == REPORT_MAX_COLS) {
			snprintf(err, errlen, k < 0 ? "unknown %s '%.*s' (use %s)" : "too many keys%.0s%.*s%s",
				 fields ? "field" : "sort key", (int)len, p,
				 fields ? "overhead, overhead_children, sample, period and the sort keys"
					: "comm, pid, tid, dso, sym, srcline, cpu, symoff");
			return -1;
		}
		out[(*n)++] = k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static void key_part(char *buf, size_t len, const struct hentry *e, int k)
{
	const struct frame *fr = e->fr;
	switch (k) {
	case RK_COMM: snprintf(buf, len, "%s", e->comm); break;
	case RK_PID:   /* perf's pid key is the thread (sort_thread: its tid) */
	case RK_TID: snprintf(buf, len, "%u", e->tid); break;
	case RK_CPU: snprintf(buf, len, "%u", e->cpu); break;
	case RK_DSO: snprintf(buf, len, "%s", loc_dso(&fr->l)); break;
	case RK_SRCLINE: snprintf(buf, len, "%s", frame_srcline((struct frame *)fr)); break;
	case RK_SYM:
	case RK_SYMOFF:
		if (fr->l.sym)
			snprintf(buf, len, "%s\x1e%llx", loc_dso_long(&fr->l),
				 (unsigned long long)(fr->l.sym_start + (k == RK_SYMOFF ? fr->l.off : 0)));
		else
			snprintf(buf, len, "%d\x1e%llx", fr->l.kernel, (unsigned long long)fr->l.map_ip);
		break;
	}
}

static char *make_key(const struct hists *h, const struct hentry *e)
{
	char buf[4096];
	size_t at = 0;
	for (int i = 0; i < h->nkeys && at < sizeof(buf) - 1; i++) {
		key_part(buf + at, sizeof(buf) - at, e, h->keys[i]);
		at += strlen(buf + at);
		if (at < sizeof(buf) - 1)
			buf[at++] = '\x1f';
		buf[at] = 0;
	}
	return strdup(buf);
}

static size_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)(h ^ h >> 29);
}

/* The entry with e's keys, added when new: its index, or -1. */
static long find_or_add(struct hists *h, struct hentry *e)
{
	if (!(e->key = make_key(h, e)))
		return -1;
	if (2 * (h->n + 1) > h->idx_cap) {
		size_t nc = h->idx_cap ? 2 * h->idx_cap : 256;
		size_t *t = calloc(nc, sizeof(*t));
		if (!t)
			goto oom;
		for (size_t i = 0; i < h->n; i++) {
			size_t j = str_hash(h->e[i].key) % nc;
			while (t[j])
				j = (j + 1) % nc;
			t[j] = i + 1;
		}
		free(h->idx);
		h->idx = t;
		h->idx_cap = nc;
	}
	size_t j = str_hash(e->key) % h->idx_cap;
	for (; h->idx[j]; j = (j + 1) % h->idx_cap)
		if (!strcmp(h->e[h->idx[j] - 1].key, e->key)) {
			free(e->key);
			return (long)h->idx[j] - 1;
		}
	if (h->n == h->cap) {
		size_t nc = h->cap ? 2 * h->cap : 256;
		struct hentry *v = realloc(h->e, nc * sizeof(*v));
		if (!v)
			goto oom;
		h->e = v;
		h->cap = nc;
	}
	h->e[h->n] = *e;
	h->idx[j] = ++h->n;
	return (long)h->n - 1;
oom:
	free(e->key);
	return -1;
}

/* A string the entries share (perf's ":TID" for a thread without a
 * COMM record), kept until hists_free. */
static const char *own_str(struct hists *h, const char *s)
{
	for (size_t i = 0; i < h->nstrs; i++)
		if (!strcmp(h->strs[i], s))
			return h->strs[i];
	char **v = realloc(h->strs, (h->nstrs + 1) * sizeof(*v));
	if (!v)
		return NULL;
	h->strs = v;
	return (v[h->nstrs] = strdup(s)) ? v[h->nstrs++] : NULL;
}

int hists_add(struct hists *h, struct frames *fs, const struct perfdata_file *f, unsigned ev)
{
	static struct frame *all[CHAIN_MAX];
	struct frame *chain[CHAIN_MAX];
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		if (s->event != ev)
			continue;
		char cbuf[32];
		int n = sample_chain(fs, f, s, all, CHAIN_MAX);
		if (!n)
			return -1;
		/* --max-stack keeps the frames perf resolves first: the
		 * innermost in callee order, the outermost in caller order */
		struct frame **fr = all, *self = all[0];
		int max = h->o->max_stack;
		if (max > 0 && n > max) {
			if (h->caller)
				fr = all + n - max;
			n = max;
		}
		struct hentry proto = {
			.comm = resolver_comm(f, s, cbuf, sizeof(cbuf)),
			.pid = s->pid, .tid = s->tid, .cpu = s->cpu,
		};
		if (proto.comm == cbuf && !(proto.comm = own_str(h, cbuf)))
			return -1;
		proto.task_comm = resolver_task_comm(f, s, cbuf, sizeof(cbuf));
		if (proto.task_comm == cbuf && !(proto.task_comm = own_str(h, cbuf)))
			return -1;
		h->total_period += s->period;
		h->nsamples++;
		/* the sample's own entry gets its whole chain; in children
		 * mode every frame's entry gets the chain from that frame on
		 * (perf's hist_iter_cumulative: frames in chain order, each
		 * entry once per sample, so a recursive function counts once) */
		long seen[CHAIN_MAX + 1];
		int nseen = 0;
		for (int step = -1; step < (h->children ? n : 0); step++) {
			int k = step < 0 ? 0 : h->caller ? n - 1 - step : step;
			struct hentry e = proto;
			e.fr = step < 0 ? self : fr[k];
			long at = find_or_add(h, &e);
			if (at < 0)
				return -1;
			int dup = 0;
			for (int q = 0; q < nseen && !dup; q++)
				dup = seen[q] == at;
			if (dup)
				continue;
			seen[nseen++] = at;
			struct hentry *he = &h->e[at];
			if (step < 0) {
				he->period += s->period;
				he->nr++;
			}
			he->acc_period += s->period;
			he->acc_nr++;
			if (!h->graph)
				continue;
			/* callee order: frame k out to the root; caller order:
			 * the root (or frame k) in to the leaf */
			int m = 0;
			if (!h->caller)
				for (int q = k; q < n; q++)
					chain[m++] = fr[q];
			else
				for (int q = step < 0 ? n - 1 : k; q >= 0; q--)
					chain[m++] = fr[q];
			if (m > he->max_depth)
				he->max_depth = m;
			if (cnode_add(&he->chain, chain, m, s->period))
				return -1;
		}
	}
	return 0;
}

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; ; ) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return 1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* perf's tie order on each key (util/sort.c: names and numbers ascending) */
static int key_cmp(const struct hentry *a, const struct hentry *b, int k)
{
	const struct frame *x = a->fr, *y = b->fr;
	switch (k) {
	case RK_COMM: return strcmp(a->comm, b->comm);
	case RK_PID:
	case RK_TID: return a->tid < b->tid ? -1 : a->tid > b->tid;
	case RK_CPU: return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	case RK_DSO: return strcmp(loc_dso(&x->l), loc_dso(&y->l));
	case RK_SRCLINE: return strcmp(frame_srcline((struct frame *)x), frame_srcline((struct frame *)y));
	case RK_SYM:
	case RK_SYMOFF:
		if (!x->l.sym || !y->l.sym) {
			if (x->l.sym || y->l.sym)
				return x->l.sym ? 1 : -1;
			return x->l.map_ip < y->l.map_ip ? -1 : x->l.map_ip > y->l.map_ip;
		}
		if (strcmp(x->l.sym, y->l.sym))
			return strcmp(x->l.sym, y->l.sym);
		return k == RK_SYMOFF && x->l.off != y->l.off ? (x->l.off < y->l.off ? -1 : 1) : 0;
	}
	return 0;
}

static const struct hists *sorting;

static int by_output(const void *pa, const void *pb)
{
	const struct hentry *a = pa, *b = pb;
	const struct hists *h = sorting;
	if (h->children && a->acc_period != b->acc_period)
		return a->acc_period > b->acc_period ? -1 : 1;
	/* perf's __hpp__sort_acc: a caller above its callee (the longer
	 * chains of the same thread first in caller order) */
	if (h->children && h->graph && a->tid == b->tid && a->max_depth != b->max_depth)
		return (a->max_depth > b->max_depth) == (h->caller != 0) ? -1 : 1;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < h->nkeys; i++) {
		int c = key_cmp(a, b, h->keys[i]);
		if (c)
			return c;
	}
	return 0;
}

void hists_finish(struct hists *h)
{
	const struct report_opts *o = h->o;
	for (size_t i = 0; i < h->n; i++) {
		struct hentry *e = &h->e[i];
		e->filtered = (o->comms && !in_list(o->comms, e->comm)) ||
			      (o->dsos && !in_list(o->dsos, loc_dso(&e->fr->l)) &&
			       !(e->fr->l.map && in_list(o->dsos, e->fr->l.map->path))) ||
			      (o->symbols && !in_list(o->symbols, frame_sym(e->fr)));
		cnode_finish(&e->chain);
	}
	free(h->idx);
	h->idx = NULL;
	h->idx_cap = 0;
	sorting = h;
	if (h->n)
		qsort(h->e, h->n, sizeof(*h->e), by_output);
}

void hists_free(struct hists *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->e[i].key);
		cnode_free(&h->e[i].chain);
	}
	for (size_t i = 0; i < h->nstrs; i++)
		free(h->strs[i]);
	free(h->strs);
	h->strs = NULL;
	h->nstrs = 0;
	free(h->e);
	free(h->idx);
	h->e = NULL;
	h->idx = NULL;
	h->n = h->cap = h->idx_cap = 0;
	h->total_period = h->nsamples = 0;
}

/* ---- columns ---- */


static const struct col {
	const char *header;
	int width_idx;          /* W_*, or the fixed width of a number column */
	int fixed;
} cols[RF_N] = {
	[RK_COMM] = { "Command", W_COMM, 0 }, [RK_PID] = { "    Pid:Command", W_THREAD, 0 },
	[RK_TID] = { "    Tid:Command", W_THREAD, 0 }, [RK_DSO] = { "Shared Object", W_DSO, 0 },
	[RK_SYM] = { "Symbol", W_SYM, 0 }, [RK_SRCLINE] = { "Source:Line", W_SRCLINE, 0 },
	[RK_CPU] = { "CPU", W_CPU, 0 }, [RK_SYMOFF] = { "Symbol", W_SYM, 0 },
	[RF_OVERHEAD] = { "Overhead", 8, 1 }, [RF_CHILDREN] = { "Children", 8, 1 },
	[RF_SAMPLE] = { "Samples", 12, 1 }, [RF_PERIOD] = { "Period", 12, 1 },
};

static void grow_w(unsigned *w, int idx, unsigned len)
{
	if (len > w[idx])
		w[idx] = len;
}

/* hists__calc_col_len for one entry */
void hentry_widths(unsigned *w, struct hentry *e, int have_symoff, int dso_filter)
{
	const struct frame *fr = e->fr;
	if (fr->l.sym) {
		unsigned len = (unsigned)strlen(fr->l.sym) + 4;
		if (have_symoff) {
			char off[24];
			len += (unsigned)snprintf(off, sizeof(off), "+0x%llx", (unsigned long long)fr->l.off);
		}
		grow_w(w, W_SYM, len);
	} else {
		grow_w(w, W_SYM, 16 + 4 + 2);
		if (w[W_DSO] < 16 && !dso_filter)
			w[W_DSO] = 16;
	}
	grow_w(w, W_COMM, (unsigned)strlen(e->comm));
	grow_w(w, W_THREAD, (unsigned)strlen(e->task_comm) + 8);
	if (fr->l.map)
		grow_w(w, W_DSO, (unsigned)strlen(loc_dso(&fr->l)));
	grow_w(w, W_CPU, 3);
}

static unsigned col_width(const unsigned *w, int c)
{
	return cols[c].fixed ? (unsigned)cols[c].width_idx : w[cols[c].width_idx];
}

/* One column of an entry: its text (unpadded) into buf. */
void hentry_text(char *buf, size_t len, const struct hists *h, struct hentry *e, int c,
		 unsigned width)
{
	const struct frame *fr = e->fr;
	double total = h->total_period ? (double)h->total_period : 1.0;
	char lvl = fr->l.kernel ? 'k' : '.';
	switch (c) {
	case RF_OVERHEAD: snprintf(buf, len, "%*.2f%%", (int)width - 1, 100.0 * e->period / total); break;
	case RF_CHILDREN: snprintf(buf, len, "%*.2f%%", (int)width - 1, 100.0 * e->acc_period / total); break;
	case RF_SAMPLE: snprintf(buf, len, "%*llu", (int)width, (unsigned long long)e->nr); break;
	case RF_PERIOD: snprintf(buf, len, "%*llu", (int)width, (unsigned long long)e->period); break;
	case RK_COMM: snprintf(buf, len, "%-*.*s", (int)width, (int)width, e->comm); break;
	case RK_PID:
	case RK_TID: {
		int cw = (int)(width > 7 ? width : 7) - 8;
		snprintf(buf, len, "%7u:%-*.*s", e->tid, cw, cw, e->task_comm);
		break;
	}
	case RK_DSO: snprintf(buf, len, "%-*.*s", (int)width, (int)width, loc_dso(&fr->l)); break;
	case RK_SRCLINE: snprintf(buf, len, "%-.*s", (int)width, frame_srcline(e->fr)); break;
	case RK_CPU: snprintf(buf, len, "%*.*u", (int)width, (int)width, e->cpu); break;
	case RK_SYM:
	case RK_SYMOFF:
		if (fr->l.sym && c == RK_SYMOFF)
			snprintf(buf, len, "[%c] %s+0x%llx", lvl, fr->l.sym, (unsigned long long)fr->l.off);
		else if (fr->l.sym)
			snprintf(buf, len, "[%c] %.*s", lvl, width > 4 ? (int)width - 4 : 0, fr->l.sym);
		else
			snprintf(buf, len, "[%c] %s", lvl, fr->name);
		break;
	}
}

void hists_print(FILE *out, struct hists *h, const int *cl, int ncl, double percent_limit,
		 double graph_min)
{
	unsigned w[W_N] = {0};
	int have_symoff = 0;
	for (int i = 0; i < ncl; i++)
		have_symoff |= cl[i] == RK_SYMOFF;
	for (size_t i = 0; i < h->n; i++) {
		if (h->e[i].filtered)
			continue;
		hentry_widths(w, &h->e[i], have_symoff, h->o->dsos != NULL);
		for (int k = 0; k < ncl; k++)
			if (cl[k] == RK_SRCLINE)
				grow_w(w, W_SRCLINE, (unsigned)strlen(frame_srcline(h->e[i].fr)));
	}
	/* then at least the headers (perf widens the columns for them last) */
	for (int i = 0; i < ncl; i++)
		if (!cols[cl[i]].fixed)
			grow_w(w, cols[cl[i]].width_idx, (unsigned)strlen(cols[cl[i]].header));
	if (!h->o->quiet) {
		fputs("# ", out);
		for (int i = 0; i < ncl; i++) {
			unsigned cw = col_width(w, cl[i]);
			if (i)
				fputs("  ", out);
			if (cols[cl[i]].fixed)
				fprintf(out, "%*s", (int)cw, cl[i] == RF_OVERHEAD && h->children ? "Self"
											: cols[cl[i]].header);
			else
				fprintf(out, "%-*.*s", (int)cw, (int)cw, cols[cl[i]].header);
		}
		fputs("\n# ", out);
		for (int i = 0; i < ncl; i++) {
			if (i)
				fputs("  ", out);
			for (unsigned k = col_width(w, cl[i]); k; k--)
				fputc('.', out);
		}
		fputs("\n#\n", out);
	}
	uint64_t min_hit = (uint64_t)(h->total_period * (graph_min / 100.0));
	int skip_first = h->o->nkeys && h->keys[0] == RK_SYM && !h->o->nfields;
	for (size_t i = 0; i < h->n; i++) {
		struct hentry *e = &h->e[i];
		if (e->filtered)
			continue;
		uint64_t p = h->children ? e->acc_period : e->period;
		if (h->total_period && 100.0 * p / h->total_period < percent_limit)
			continue;
		char line[8192];
		size_t at = 0;
		for (int k = 0; k < ncl && at < sizeof(line) - 1; k++) {
			unsigned cw = col_width(w, cl[k]);
			at += (size_t)snprintf(line + at, sizeof(line) - at, "  ");
			char text[4096];
			hentry_text(text, sizeof(text), h, e, cl[k], cw);
			/* every column but the last is padded to its width */
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%-*s",
					       k + 1 < ncl ? (int)cw : 0, text);
			if (at >= sizeof(line))
				at = sizeof(line) - 1;
		}
		fprintf(out, "%s\n", line);
		if (h->graph)
			cnode_print(out, &e->chain, h->total_period, p, min_hit, skip_first);
	}
}
