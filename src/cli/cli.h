/* Shared pieces of the subcommands. */
#ifndef RVPMU_CLI_H
#define RVPMU_CLI_H
#include <stdint.h>
#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_system(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

/* Print a subcommand's usage text. */
void cli_usage(const char *name, FILE *out);
/* "rvpmu: <fmt with arg>" on stderr; returns exit status 2. */
int cli_error(const char *fmt, const char *arg);
/* Parse a non-negative count with optional k/M/G suffix. */
int cli_parse_count(const char *opt, const char *s, uint64_t *out);
/* --user-counters=MODE or --user-counters MODE at argv[*i] (advancing *i
 * past a separate value): *mode = LINUX_UCNT_*, or -1 after a message. */
int cli_user_counters(int argc, char **argv, int *i, int *mode);

#endif
