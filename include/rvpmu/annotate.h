/* rvpmu annotate: the instructions of one function of a sampled ELF with
 * the samples that landed on each (as perf annotate --stdio). */
#ifndef RVPMU_ANNOTATE_H
#define RVPMU_ANNOTATE_H
#include <stddef.h>
#include <stdio.h>
#include "rvpmu/perfdata.h"

struct annotate_opts {
	const char *input;         /* perf.data path (default "perf.data") */
	const char *symbol;        /* the function to annotate (its name or the
				      demangled one), or NULL: every function with
				      percent_limit of the samples */
	double percent_limit;      /* 0: 0.5 */
	const char *symfs;         /* prefix for mapped paths, or NULL */
	int no_source;             /* leave out the source lines */
	FILE *out;                 /* NULL = stdout */
};

/* Annotate o->symbol from an already parsed file: 0, or -1 with a
 * one-line reason in err (unknown symbol, no samples, unreadable ELF). */
int annotate_file(const struct annotate_opts *o, const struct perfdata_file *f, char *err,
		  size_t errlen);
/* rvpmu annotate: returns 0, or 1 after printing "rvpmu: reason". */
int annotate_main(const struct annotate_opts *o);

#endif
