/* Call graphs of perf report --stdio -g: the chains of an entry merged
 * into a tree by function (perf's callchain key "function"), children
 * ordered by their cumulated period, drawn as perf's "graph" mode draws
 * them (tools/perf/util/callchain.c, ui/stdio/hist.c). */
#include <stdlib.h>
#include <string.h>
#include "hist.h"

int cnode_add(struct cnode *root, struct frame *const *chain, int n, uint64_t period)
{
	struct cnode *p = root;
	if (!n)
		return 0;
	for (int i = 0; i < n; i++) {
		struct cnode *k = NULL;
		for (size_t j = 0; j < p->nkids && !k; j++)
			if (frame_same_fn(p->kids[j].fr, chain[i]))
				k = &p->kids[j];
		if (!k) {
			if (p->nkids == p->cap) {
				size_t nc = p->cap ? 2 * p->cap : 2;
				struct cnode *v = realloc(p->kids, nc * sizeof(*v));
				if (!v)
					return -1;
				p->kids = v;
				p->cap = nc;
			}
			k = &p->kids[p->nkids++];
			memset(k, 0, sizeof(*k));
			k->fr = chain[i];
		}
		p = k;
	}
	p->hit += period;
	return 0;
}

/* ties: by file, then function start (or address), as perf's tree of
 * children is ordered */
static int by_cumul(const void *pa, const void *pb)
{
	const struct cnode *a = pa, *b = pb;
	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	const char *x = loc_dso_long(&a->fr->l), *y = loc_dso_long(&b->fr->l);
	int c = strcmp(x, y);
	if (c)
		return c;
	uint64_t u = a->fr->l.sym ? a->fr->l.sym_start : a->fr->l.ip;
	uint64_t v = b->fr->l.sym ? b->fr->l.sym_start : b->fr->l.ip;
	return u < v ? -1 : u > v;
}

void cnode_finish(struct cnode *n)
{
	n->cumul = n->hit;
	for (size_t i = 0; i < n->nkids; i++) {
		cnode_finish(&n->kids[i]);
		n->cumul += n->kids[i].cumul;
	}
	if (n->nkids > 1)
		qsort(n->kids, n->nkids, sizeof(*n->kids), by_cumul);
}

void cnode_free(struct cnode *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		cnode_free(&n->kids[i]);
	free(n->kids);
	n->kids = NULL;
	n->nkids = n->cap = 0;
}

/* perf keeps a run of frames without a branch or an end in one node */
static const struct cnode *run_end(const struct cnode *c)
{
	while (!c->hit && c->nkids == 1)
		c = &c->kids[0];
	return c;
}

static void name_of(const struct cnode *c, char *buf, size_t len)
{
	if (c->fr->l.sym)
		snprintf(buf, len, "%s", c->fr->l.sym);
	else
		snprintf(buf, len, "%#llx", (unsigned long long)c->fr->l.ip);
}

static void margin(FILE *out, int left)
{
	fprintf(out, "%*s", 12 + left, "");
}

static int bit(uint64_t mask, int i)
{
	return i < 64 && (mask >> i & 1);
}

/* the children of n above min_hit: how many (they lead n->kids) */
static size_t visible(const struct cnode *n, uint64_t min_hit)
{
	size_t k = 0;
	while (k < n->nkids && n->kids[k].cumul >= min_hit && n->kids[k].cumul)
		k++;
	return k;
}

static void graph(FILE *out, const struct cnode *root, uint64_t total, int depth, uint64_t mask,
		  int left, uint64_t min_hit)
{
	size_t nv = visible(root, min_hit);
	uint64_t new_mask = mask;
	for (size_t j = 0; j < nv; j++) {
		const struct cnode *child = &root->kids[j];
		/* no pipe below the last child of a level */
		if (j + 1 == nv && depth - 1 < 64)
			new_mask &= ~(1ull << (depth - 1));
		margin(out, left);
		for (int i = 0; i < depth; i++)
			fputs(bit(mask, i) ? "|          " : "           ", out);
		fputc('\n', out);
		int k = 0;
		const struct cnode *c = child;
		for (;; c = &c->kids[0], k++) {
			char name[1024];
			margin(out, left);
			for (int i = 0; i < depth; i++) {
				fputc(bit(new_mask, i) ? '|' : ' ', out);
				if (!k && i == depth - 1)
					fprintf(out, "--%.2f%%--", total ? 100.0 * child->cumul / total : 0.0);
				else
					fputs("          ", out);
			}
			name_of(c, name, sizeof(name));
			fprintf(out, "%s\n", name);
			if (c == run_end(child))
				break;
		}
		graph(out, c, total, depth + 1, new_mask | (depth < 64 ? 1ull << depth : 0), left, min_hit);
	}
}

void cnode_print(FILE *out, const struct cnode *root, uint64_t total, uint64_t parent,
		 uint64_t min_hit, int skip_first)
{
	int left = 0, printed = 0, any = 0;
	size_t nv = visible(root, min_hit);
	/* a single path holding all of the entry's period: its frames
	 * without a percentage, as the first lines */
	if (nv == 1 && root->kids[0].cumul == parent) {
		const struct cnode *c = &root->kids[0], *end = run_end(c);
		for (int i = 0;; c = &c->kids[0], i++) {
			if (!(i == 0 && skip_first)) {
				char name[1024];
				margin(out, left);
				if (!printed) {
					fputs("|\n", out);
					margin(out, left);
					fputs("---", out);
					left += 3;
					printed = 1;
				}
				name_of(c, name, sizeof(name));
				fprintf(out, "%s\n", name);
				any = 1;
			}
			if (c == end)
				break;
		}
		root = end;
	}
	any |= visible(root, min_hit) > 0;
	graph(out, root, total, 1, 1, left, min_hit);
	if (any)
		fputc('\n', out);  /* no blank line after an empty graph */
}
