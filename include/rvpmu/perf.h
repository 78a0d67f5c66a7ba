/* The host tool's side of perf: event specifications and counting. */
#ifndef RVPMU_PERF_H
#define RVPMU_PERF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVSPEC_MAX 64

struct evspec {
	char name[64];          /* as the user wrote it, modifiers included */
	uint32_t event_idx;     /* SBI event_idx */
	uint64_t event_data;
	int exclude_user, exclude_kernel;
	int group;              /* index of its group's leader, or -1 */
};

struct profile;

/* Parse a perf -e list ("cycles,{instructions,branches}:u,r1234") for the
 * core profile p. Returns the number of events, or -1 with a message. */
int evspec_parse(const char *list, const struct profile *p, struct evspec *out, int max,
		 char *err, size_t errlen);
/* Print every event name evspec_parse knows for p, as perf list does. */
void evspec_list(FILE *f, const struct profile *p);

struct stat_opts {
	struct evspec ev[EVSPEC_MAX];
	int nev;
	const char *csv_sep;    /* -x: NULL for the human table */
	FILE *out;              /* where the table goes (stderr, as perf) */
	unsigned repeat;        /* -r */
	const struct profile *prof;
	int models;             /* run the microarchitecture models */
};

/* Run argv under rvpmu's user-mode kernel with the events counted through
 * SBI PMU calls; returns the program's exit status. */
int stat_run(struct stat_opts *o, const void *linux_opts, int argc, char **argv, char **envp);

#endif
