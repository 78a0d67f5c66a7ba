/* Inside rvpmu report and diff: samples resolved once per address
 * (frames), their call chains, and perf's histogram entries (one per
 * distinct sort key) with perf's columns (src/perf/hist.c) and call
 * graphs (src/perf/callgraph.c). */
#ifndef RVPMU_HIST_H
#define RVPMU_HIST_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/report.h"
#include "rvpmu/resolve.h"

/* One resolved address of one process. */
struct frame {
	struct loc l;
	uint32_t space;
	char *srcline;          /* "file:line" or "??:0", made when first asked for */
	char name[48];          /* an unresolved address as perf shows it */
};

struct frames {
	struct resolver *r;
	struct frame **t;       /* open addressing on (pid, ip, kernel) */
	size_t cap, n;
};

void frames_init(struct frames *fs, struct resolver *r);
void frames_free(struct frames *fs);
/* The frame of ip in an address space (perfdata_rd_sample.space; NULL
 * when out of memory). */
struct frame *frame_get(struct frames *fs, uint32_t space, uint64_t ip, int kernel);
/* perf's names: the function, else "0x%016llx" of the file offset */
const char *frame_sym(const struct frame *fr);
const char *frame_srcline(struct frame *fr);
/* The same function (or, unresolved, address) of the same file. */
int frame_same_fn(const struct frame *a, const struct frame *b);

/* A sample's call chain, innermost first, the sample's own ip first:
 * from its PERF_SAMPLE_CALLCHAIN (context markers say kernel or user),
 * and, for --call-graph dwarf samples, the user part unwound from its
 * registers and stack copy (src/perf/unwind.c). At most max frames;
 * returns how many. */
#define CHAIN_MAX 128
int sample_chain(struct frames *fs, const struct perfdata_file *f,
		 const struct perfdata_rd_sample *s, struct frame **out, int max);
/* Unwind s's user stack with libdw's CFI: return addresses after ip,
 * innermost first, into pcs (at most max): how many (0 without CFI). */
int unwind_user(struct resolver *r, const struct perfdata_rd_sample *s, uint64_t *pcs, int max);

/* A call-graph tree node (callgraph.c). */
struct cnode {
	struct frame *fr;       /* NULL at the root */
	uint64_t hit;           /* period of chains that end here */
	uint64_t cumul;         /* hit + its children's (cnode_finish) */
	struct cnode *kids;
	size_t nkids, cap;
};
int cnode_add(struct cnode *root, struct frame *const *chain, int n, uint64_t period);
void cnode_finish(struct cnode *n);
void cnode_free(struct cnode *n);
/* perf report --stdio's graph of an entry (ui/stdio/hist.c,
 * callchain__fprintf_graph): total is the event's period, parent the
 * entry's (its children's in children mode), min_hit the threshold;
 * skip_first leaves out the first frame (--sort sym's own symbol). */
void cnode_print(FILE *out, const struct cnode *root, uint64_t total, uint64_t parent,
		 uint64_t min_hit, int skip_first);

/* One histogram entry: the samples that share every sort key. */
struct hentry {
	char *key;
	const char *comm;               /* the thread's name at the sample */
	const char *task_comm;          /* and at the end */
	uint32_t pid, tid, cpu;
	struct frame *fr;
	uint64_t period, nr;            /* self */
	uint64_t acc_period, acc_nr;    /* children: every chain through it */
	int max_depth;                  /* its longest chain (perf's tie order) */
	struct cnode chain;
	int filtered;
};

struct hists {
	const struct report_opts *o;
	const int *keys;
	int nkeys;
	int children;                   /* cumulate chains (perf's children mode) */
	int graph;                      /* keep call graphs */
	int caller;                     /* chain order */
	struct hentry *e;
	size_t n, cap;
	size_t *idx;                    /* hash of keys -> e index + 1 */
	size_t idx_cap;
	char **strs;                    /* strings the entries share */
	size_t nstrs;
	uint64_t total_period, nsamples;
};

/* Add event ev's samples of f to h (frames resolved through fs). */
int hists_add(struct hists *h, struct frames *fs, const struct perfdata_file *f, unsigned ev);
/* Filters (--comm, --dsos, --symbols) and perf's output order. */
void hists_finish(struct hists *h);
void hists_free(struct hists *h);
/* perf's table: the header lines, then one row per entry not below
 * percent_limit, with its call graph when graph is set. */
void hists_print(FILE *out, struct hists *h, const int *cols, int ncols, double percent_limit,
		 double graph_min);
/* --folded lines to folded and/or a flame graph to svg (flamegraph.c). */
int report_stacks(struct frames *fs, const struct perfdata_file *f, unsigned ev, int max,
		  FILE *folded, const char *svg, char *err, size_t errlen);
/* --branch's tables (branch.c). */
int report_branch(struct frames *fs, const struct perfdata_file *f, unsigned ev, FILE *out,
		  char *err, size_t errlen);
/* perf's column widths (hists__col_len) that the columns share */
enum { W_SYM, W_COMM, W_THREAD, W_DSO, W_SRCLINE, W_CPU, W_N };
/* Widen w for entry e (hists__calc_col_len). */
void hentry_widths(unsigned *w, struct hentry *e, int have_symoff, int dso_filter);
/* Column c (RK_*, RF_*) of e as perf prints it, unpadded, into buf. */
void hentry_text(char *buf, size_t len, const struct hists *h, struct hentry *e, int c,
		 unsigned width);

#endif
