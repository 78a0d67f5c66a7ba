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

/* Print a subcommand's usage text. */
void cli_usage(const char *name, FILE *out);
/* "rvpmu: <fmt with arg>" on stderr; returns exit status 2. */
int cli_error(const char *fmt, const char *arg);
/* Parse a non-negative count with optional k/M/G suffix. */
int cli_parse_count(const char *opt, const char *s, uint64_t *out);

#endif
