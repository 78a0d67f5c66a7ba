/* rvpmu report --branch: the hottest branch edges over every branch
 * record of the samples (record -b), and basic blocks estimated from
 * consecutive records of one stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"


/* A count per (from, to) address pair, in an open-addressing table. */
struct pair {
	uint64_t a, b, count, misp;
	uint32_t space, used;
};

struct pairs {
	struct pair *t;
	size_t cap, n;
};

static int pairs_add(struct pairs *p, uint32_t space, uint64_t a, uint64_t b, int misp)
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
	while (p->t[j].used && (p->t[j].a != a || p->t[j].b != b || p->t[j].space != space))
		j = (j + 1) % p->cap;
	if (!p->t[j].used) {
		p->t[j] = (struct pair){ .a = a, .b = b, .space = space, .used = 1 };
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
static void sym_off(struct frames *fs, uint32_t space, uint64_t ip, char *buf, size_t len)
{
	const struct frame *fr = frame_get(fs, space, ip, 0);
	if (fr && fr->l.sym)
		snprintf(buf, len, "%s+0x%llx", fr->l.sym, (unsigned long long)fr->l.off);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)ip);
}

enum { BRANCH_ROWS = 100 };  /* rows of each table */

/* The hottest edges over every branch record of event ev's samples, and
 * basic blocks estimated from consecutive records of one stack (newest
 * first): the code from an older record's target to the next newer
 * record's source ran straight through, so it is one block execution. */
int report_branch(struct frames *fs, const struct perfdata_file *f, unsigned ev, FILE *out,
		  char *err, size_t errlen)
{
	struct pairs edges = {0}, blocks = {0};
	uint64_t nrec = 0, nsamp = 0, nblk = 0, skipped = 0;
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		if (s->event != ev)
			continue;
		nsamp++;
		for (uint32_t j = 0; j < s->nr_branches; j++) {
			const struct perfdata_branch *b = &s->branches[j];
			if (pairs_add(&edges, s->space, b->from, b->to, b->mispred))
				goto oom;
			nrec++;
			if (j + 1 == s->nr_branches)
				continue;
			uint64_t start = s->branches[j + 1].to, end = b->from;
			if (start > end) {  /* not straight-line code: no block */
				skipped++;
				continue;
			}
			if (pairs_add(&blocks, s->space, start, end, 0))
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
		sym_off(fs, p->space, p->a, from, sizeof(from));
		sym_off(fs, p->space, p->b, to, sizeof(to));
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
		sym_off(fs, p->space, p->a, from, sizeof(from));
		sym_off(fs, p->space, p->b, to, sizeof(to));
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
	return perfdata_errf(err, errlen, "out of memory"), -1;
}

