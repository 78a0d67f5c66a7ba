/* Shared pieces of the subcommands. */
#ifndef RVPMU_CLI_H
#define RVPMU_CLI_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/perf.h"

int cmd_run(int argc, char **argv);
int cmd_system(int argc, char **argv);
/* A host tool's view of a system-mode run (rvpmu stat/record ...
 * system): the machine runs with the tool's profile and models (the
 * system arguments may not give their own) and counts into tally (struct
 * machine_opts); start (NULL: none) sees it built, before the run (a
 * non-zero return ends the run, status 1), end after it, before it is
 * freed. */
struct machine;
struct system_view {
	uint64_t (*tally)[HART_MODES][PMU_EV_MAX];
	pmu_evset observe;
	const struct profile *profile;
	int no_uarch;
	int quiet;              /* no progress line */
	int (*start)(struct machine *m, void *ctx);
	void (*end)(struct machine *m, void *ctx);
	void *ctx;
};
int system_main(int argc, char **argv, const struct system_view *view);
/* rvpmu stat's counting of argv, a system-mode run ("system ..."), with
 * -C cpu_list (NULL: every hart) and -A (per_cpu): the run's exit status,
 * or minus the exit status when nothing was counted (stat_system.c). */
int stat_system(const struct stat_opts *o, const char *cpu_list, int per_cpu, int quiet,
		int argc, char **argv);
/* rvpmu record's sampling of argv, a system-mode run: its exit status
 * (record_system.c). */
int record_system(const struct record_opts *o, int quiet, int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);

/* SIGINT and SIGTERM (src/cli/interrupt.c). cli_interrupt_begin (after
 * progress_begin) returns the stop flag for linux_opts.stop or
 * machine_opts.stop: the first signal sets it, the run loop ends the run
 * and the subcommand writes out what it has; cli_interrupt_exit(status)
 * then ends the process by that signal, as perf does (without one it
 * returns status). A second signal ends the process at once, without
 * rvpmu's partial output files. */
const volatile int *cli_interrupt_begin(void);
int cli_interrupt_exit(int status);

/* Print a subcommand's usage text. */
void cli_usage(const char *name, FILE *out);
/* "rvpmu CMD: <fmt with its arguments>" on stderr (CMD: rvpmu_cmd, the
 * subcommand running); returns exit status 2. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parse a non-negative count with optional k/M/G suffix. */
int cli_parse_count(const char *opt, const char *s, uint64_t *out);
/* --percent-limit P: 0..100, or -1 after a message. */
int cli_parse_percent(const char *s, double *out);
/* -e lists as perf takes them: each -e adds its events to the earlier
 * ones'. cli_add_events keeps one (-1 after a message when there are
 * too many); cli_events parses them all (dflt when there is none) into
 * out[0..EVSPEC_MAX): the number of events, or -1 after a message. */
struct cli_events {
	const char *list[EVSPEC_MAX];   /* each list has an event at least */
	int n;
};
int cli_add_events(const char *cmd, struct cli_events *e, const char *list);
int cli_events(const char *cmd, const struct cli_events *e, const char *dflt,
	       const struct profile *p, struct evspec *out);
/* --user-counters MODE: *mode = LINUX_UCNT_*, or -1 after a message. */
int cli_user_counters(const char *v, int *mode);
/* --max-mem MB: *mb for linux_opts.max_mem_mb (0 is LINUX_MEM_NONE), or
 * -1 after a message. */
int cli_max_mem(const char *v, uint64_t *mb);
/* --cpus N: 1..SESSION_MAX_CPUS harts, or -1 after a message. */
int cli_cpus(const char *v, unsigned *n);

/* One option of a subcommand: its name ("-x" or "--long"), another
 * spelling or NULL, and whether it takes a value (CLI_ARG: always;
 * CLI_OPTARG: only attached, "--opt=V" or "-xV", as perf's optional
 * values; CLI_OPTNEXT: attached, or the next argument unless that starts
 * with '-', as perf report's -g). A table ends with a NULL name. */
enum { CLI_NOARG, CLI_ARG, CLI_OPTARG, CLI_OPTNEXT };
struct cli_opt {
	const char *name, *alias;
	int arg;
};
enum { CLI_DONE = -1, CLI_HELP = -2, CLI_FAIL = -3 };
/* The option at argv[*i], *i moved past it: its index in opts, with *val
 * its value for a value option ("--opt V", "--opt=V", "-x V" or "-xV";
 * NULL for an optional value not given);
 * a long option may be shortened to any prefix that names one option
 * ("--rep" for --repeat), one-letter options may be clustered ("-qdd":
 * -q, then -d twice, by as many calls). CLI_DONE at the first argument
 * that is not an option ("--" is skipped); CLI_HELP for -h and --help;
 * CLI_FAIL after printing why (unknown or ambiguous option, a missing
 * value, a value for a flag). cmd is unused: messages name rvpmu_cmd. */
int cli_next(const char *cmd, const struct cli_opt *opts, int argc, char **argv, int *i,
	     const char **val);
/* After the cli_next loop ended with k: -1 to go on (CLI_DONE), else the
 * exit status (0 after printing the usage for CLI_HELP, 2 for CLI_FAIL). */
int cli_end(const char *cmd, int k);

#endif
