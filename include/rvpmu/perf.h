/* The host tool's side of perf: event specifications and counting. */
#ifndef RVPMU_PERF_H
#define RVPMU_PERF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/hart.h"
#include "rvpmu/sbi.h"
#include "rvpmu/uarch.h"

#define EVSPEC_MAX 64

/* The subcommand running ("stat", "record", ...): messages about its
 * input start "rvpmu CMD: ". main() sets it; "rvpmu" before that. */
extern const char *rvpmu_cmd;

struct evspec {
	char name[64];          /* as the user wrote it, modifiers included */
	uint32_t event_idx;     /* SBI event_idx */
	uint64_t event_data;
	int exclude_user, exclude_kernel;
	/* perf's :G (exclude_host: guests only, V=1) and :H (exclude_guest:
	   the host only, V=0) */
	int exclude_host, exclude_guest;
	int group;              /* index of its group's leader, or -1 */
	int weak;               /* the group is perf's :W: split it when it cannot fit */
	int software;           /* counted by rvpmu's kernel, not the PMU: */
	unsigned sw_id;         /* PERF_COUNT_SW_*, or EVSPEC_DURATION */
	int sample_read;        /* group modifier S: the leader samples, the
				   others are read with its samples */
};
/* perf's duration_time tool event: the modelled wall time, ns. */
#define EVSPEC_DURATION 100

struct profile;

/* Parse a perf -e list ("cycles,{instructions,branches}:u,r1234") for the
 * core profile p into out[n..max): out[0..n) holds the events of earlier
 * -e options, which perf counts too (a group is within one list). Returns
 * the number of events in out, or -1 with a message. */
int evspec_parse(const char *list, const struct profile *p, struct evspec *out, int n, int max,
		 char *err, size_t errlen);
/* The modes event e counts in, as a mask of hart_mode values (bit 0 U,
 * 1 S, 3 M, 4 VU, 5 VS): :u and :k choose user or supervisor and machine
 * mode, :G and :H the guest (V=1) or host side, each within the other. */
unsigned evspec_modes(const struct evspec *e);
/* Refuse :u/:k (exclude_*) on hardware events of a core without
 * Sscofpmf, as Linux does: 0, or -1 with a message in err. */
int evspec_check(const struct evspec *ev, int n, const struct profile *p, char *err, size_t errlen);
/* The perf names of PERF_TYPE_SOFTWARE and PERF_TYPE_HW_CACHE events
 * that -d, -dd and -ddd add (perf stat's detailed_attrs and after): the
 * first 4, 10 or 12. */
extern const char *const evspec_detailed[12];
/* perf list for profile p: its sections (hardware, software, cache,
 * the profile's events, raw, metrics and metric groups), all of them
 * (what NULL), one (what "hw", "sw", "cache", "pmu", "metric",
 * "metricgroup", ...), or the names matching the glob *what*. */
enum { LIST_DESC = 1, LIST_DETAILS = 2, LIST_RAW = 4 };
void evspec_list(FILE *f, const struct profile *p, const char *what, int flags);

/* The S-mode driver's view of one profiled user-mode run (session.c). */
struct linux_opts;
#define SESSION_MAX_CPUS 32
struct session {
	struct hart h;
	struct sbi_state sbi;
	const struct profile *prof;
	int models;
	uint64_t cmask;         /* hardware counters, as counter_get_info says */
	/* the run's harts (linux_opts.cpus): cpu[0] is h with sbi, the
	 * others share its memory and have a firmware state of their own */
	unsigned ncpus;
	struct hart *cpu[SESSION_MAX_CPUS];
	struct sbi_state *cpu_sbi[SESSION_MAX_CPUS];
	struct uarch_domain coh;   /* their L1Ds kept coherent (core_share) */
};

enum {  /* SBI PMU function ids and flags the driver uses */
	SBI_PMU_NUM_COUNTERS = 0, SBI_PMU_GET_INFO = 1, SBI_PMU_CFG_MATCH = 2,
	SBI_PMU_START = 3, SBI_PMU_STOP = 4,
	SBI_CFG_CLEAR_VALUE = 1 << 1, SBI_CFG_SET_VUINH = 1 << 3, SBI_CFG_SET_VSINH = 1 << 4,
	SBI_CFG_SET_UINH = 1 << 5, SBI_CFG_SET_SINH = 1 << 6,
	SBI_START_SET_INIT_VALUE = 1, SBI_STOP_RESET = 1,
};

/* Load argv[0] onto a fresh hart with profile p (and models): 0 or -1
 * after printing why. */
int session_open(struct session *ss, const struct profile *p, int models,
		 const struct linux_opts *lo, int argc, char **argv, char **envp);
void session_close(struct session *ss);
/* An SBI PMU call, as the driver's ecall would make it (on hart 0). */
long session_sbi(struct session *ss, unsigned fid, uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3, uint64_t a4, uint64_t *value);
/* The same call made on hart cpu. */
long session_sbi_on(struct session *ss, unsigned cpu, unsigned fid, uint64_t a0, uint64_t a1,
		    uint64_t a2, uint64_t a3, uint64_t a4, uint64_t *value);
/* Can this core (with or without its models) count e at all? */
int session_countable(const struct session *ss, const struct evspec *e);
/* config_matching for e with its :u/:k filters: the counter's id and CSR. */
long session_config(struct session *ss, const struct evspec *e, uint64_t extra_flags,
		    unsigned *idx, unsigned *csr);
/* The same on hart cpu. */
long session_config_on(struct session *ss, unsigned cpu, const struct evspec *e,
		       uint64_t extra_flags, unsigned *idx, unsigned *csr);
/* The same on every hart of the run (each firmware picks the same
 * counter: they start alike and are asked alike). */
long session_config_all(struct session *ss, const struct evspec *e, uint64_t extra_flags,
			unsigned *idx, unsigned *csr);

struct profile_metric;
struct stat_opts {
	struct evspec ev[EVSPEC_MAX];
	int nev;
	const char *csv_sep;    /* -x: NULL for the human table */
	FILE *out;              /* where the table goes (stderr, as perf) */
	unsigned repeat;        /* -r */
	const struct profile *prof;
	int models;             /* run the microarchitecture models */
	int json;               /* -j: perf stat's JSON lines */
	uint64_t mux_interval;  /* multiplexing tick in cycles, 0 = 4 ms modelled */
	int per_thread;         /* --per-thread: a row per thread and event */
	int per_cpu;            /* -A, --per-cpu: a row per hart and event */
	int no_inherit;         /* --no-inherit: the first thread alone */
	uint64_t interval_ms;   /* -I: print every this many modelled ms, 0 = no */
	uint64_t interval_count;/* --interval-count: stop after this many, 0 = no */
	int64_t delay_ms;       /* -D: count from this modelled ms on; -1 = never */
	uint64_t timeout_ms;    /* --timeout: SIGTERM the program then, 0 = no */
	int no_big_num;         /* --no-big-num: no thousands' separators */
	int null_run;           /* -n: no events, only the elapsed time */
	int verbose;            /* -v: each counter's raw values as read */
	int table;              /* --table: each run's elapsed time (-r) */
	int metric_only;        /* --metric-only */
	/* -M: the metrics to print, each on the line of its event
	 * metric_ev[k], its events found by name in ev[metric_lo[k] ..
	 * metric_hi[k]) */
	const struct profile_metric *metrics[EVSPEC_MAX];
	int metric_ev[EVSPEC_MAX], metric_lo[EVSPEC_MAX], metric_hi[EVSPEC_MAX];
	int nmetrics;
	int metric_no_group;    /* --metric-no-group: one pool, no groups */
};

/* ---- metrics (metric.c): perf's MetricExpr language */

/* An identifier's value: 0, or -1 when it names nothing. */
typedef int (*metric_value_fn)(void *ctx, const char *id, double *v);
/* Evaluate expr, asking fn for each event or metric it names: 0 with
 * *out, or -1 with the reason in err (syntax, an unknown name, a division
 * by zero, which collect mode lets pass: it only gathers the names). */
int metric_eval(const char *expr, metric_value_fn fn, void *ctx, int collect, double *out,
		char *err, size_t errlen);
/* The profile's metric of that name (case-insensitive), or NULL. */
const struct profile_metric *metric_find(const struct profile *prof, const char *name);
/* Does a -M item (a metric, a group, "all" or "No_group") select m? */
int metric_matches(const struct profile_metric *m, const char *item);
/* stat -M LIST: add the metrics LIST names (comma-separated) to o after
 * o's events: each with its events as a weak group (a metric whose events
 * an earlier one's group has shares it), or with o->metric_no_group all
 * in one pool without groups. 0, or -1 with the reason in err. */
int stat_add_metrics(struct stat_opts *o, const struct profile *prof, const char *list,
		     char *err, size_t errlen);

struct record_opts {
	struct evspec ev[EVSPEC_MAX];
	int nev;
	uint64_t period;        /* -c, or 0 */
	uint64_t freq;          /* -F (samples per modelled second) */
	int callchain;          /* -g: frame-pointer call chains */
	int branch_stack;       /* -b: CTR branch records with each sample */
	int callchain_ctr;      /* --call-graph ctr: chains from CTR calls */
	uint64_t branch_filter; /* -j: PERF_SAMPLE_BRANCH_* bits, 0 = any */
	const char *trace;      /* --trace: retire-order trace file, or NULL */
	int callchain_dwarf;    /* --call-graph dwarf: user registers and stack */
	uint32_t stack_dump;    /* its stack bytes per sample */
	uint64_t delay_ms;      /* -D: sampling starts after this much modelled time */
	int switch_signal;      /* --switch-output: a new file at each SIGUSR2 */
	uint64_t switch_size;   /* --switch-output=SIZE: ... when a file has SIZE bytes */
	uint64_t switch_ms;     /* --switch-output=TIME: ... every TIME of modelled time */
	const char *output;     /* "-": perf's pipe format on standard output */
	const struct profile *prof;
	int models;
};

/* perf's own encoding of an event (perf_event_attr type and config). */
struct perfdata_event;
void record_perf_attr(const struct evspec *e, struct perfdata_event *pe);

/* Sampling a system-mode run from outside (record_system.c): open the
 * output for o's events (image: the machine's kernel, whose symbols the
 * samples get), attach a sampling PMU to hart i, and close after the run
 * with perf record's closing lines. NULL / -1 after a message. */
struct record_system;
struct record_system *record_system_open(const struct record_opts *o, const char *image,
					 int argc, char **argv);
void record_system_attach(struct record_system *r, struct hart *h, unsigned i);
int record_system_close(struct record_system *r);

/* Sample argv into o->output (perf.data); returns the program's status. */
int record_run(const struct record_opts *o, const struct linux_opts *lo, int argc,
	       char **argv, char **envp);

/* Run argv under rvpmu's user-mode kernel with the events counted through
 * SBI PMU calls and print the counts to o->out; returns the program's exit
 * status, or -1 (after a message, nothing printed) when it could not. */
int stat_run(struct stat_opts *o, const void *linux_opts, int argc, char **argv, char **envp);

/* A system-mode run seen whole (stat_system.c): the canonical events e
 * counts on profile p, 0 when it cannot; and perf stat -a's table of the
 * harts in the cpus mask from each hart's tally by privilege mode (one
 * line per hart and event with per_cpu, as -A), secs of modelled time. */
pmu_evset stat_system_set(const struct profile *p, int models, const struct evspec *e);
void stat_system_print(const struct stat_opts *o, const uint64_t (*tally)[HART_MODES][PMU_EV_MAX],
		       unsigned nharts, uint64_t cpus, int per_cpu, double secs);

#endif
