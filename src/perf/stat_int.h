/* rvpmu stat's internals shared by its counting (stat.c) and its
 * printing (stat_print.c). */
#ifndef RVPMU_STAT_INT_H
#define RVPMU_STAT_INT_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/perf.h"

/* One event as printed: the counts of the last run (or of an interval),
 * and over all runs the mean of its scaled count (what perf's metrics
 * read) and its relative standard deviation (perf's noise). */
struct stat_row {
	int supported;          /* the core can count it */
	uint64_t val;           /* raw count */
	uint64_t ena, run;      /* ns enabled and running */
	double mean;            /* scaled count, mean over runs */
	double noise;           /* 100 * stddev of the mean / mean */
};

#define STAT_MAX_THREADS 256   /* --per-thread lists this many */

/* --per-thread and -A: one thread's rows (comm-tid) or one hart's
 * (comm empty, CPUid), printed each event's together. */
struct stat_split {
	char comm[16];
	int id;                 /* the thread's tid or the hart */
	struct stat_row r[EVSPEC_MAX];
};

struct stat_view {
	const struct stat_opts *o;
	struct stat_row r[EVSPEC_MAX];
	unsigned runs;          /* how many runs the rows are from */
	double wall_ns;         /* elapsed modelled time, mean over runs (an
	                           interval's length in -I) */
	double wall_sd;         /* its standard deviation of the mean */
	double user_ns;         /* time the program ran (seconds user) */
	const uint64_t *run_wall;  /* --table: each run's elapsed ns */
	int interval;           /* -I: an interval's counts, read at stamp_ns */
	uint64_t stamp_ns;
	int argc;
	char **argv;
	const struct stat_split *split;   /* NULL: the whole run's rows */
	int nsplit;
	const struct stat_split *who;     /* the split these rows are, or NULL */
};

/* Print the counts as perf stat does: the header, a row per event with
 * its metrics, the footer; or -I's lines for one interval. */
void stat_print(const struct stat_view *v);
/* v in out (48 bytes or more) with decimals digits and, with big, ','
 * grouping thousands: perf's %'.0f or %'.2f in a locale that groups them */
const char *stat_grouped(char *out, double v, int decimals, int big);
/* -v: one line per counter as read, "name: val ena run". */
void stat_print_verbose(const struct stat_view *v);

#endif
