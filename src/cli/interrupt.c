/* SIGINT and SIGTERM during a run, treated as perf record and perf stat
 * treat them: the first one only asks the run loop to stop (it checks
 * cli_stop between runs of the hart, which are kept short for it), so
 * the subcommand still writes out what it has; then the process dies of
 * that signal, as perf does, and a shell sees 130 or 143. A second
 * signal ends the process at once. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include "cli.h"
#include "rvpmu/outfile.h"
#include "rvpmu/progress.h"

static volatile sig_atomic_t cli_stop;  /* the signal that asked for a stop, or 0 */

static const int sigs[] = {SIGINT, SIGTERM};
static struct sigaction prev[2];   /* the handlers before ours, by sigs[] */

static void on_signal(int sig)
{
	if (!cli_stop) {
		cli_stop = sig;
		return;
	}
	/* the second one: give up now */
	outfile_scrap_all();     /* no half-written output files */
	const struct sigaction *p = &prev[sig == SIGTERM];
	if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN)
		p->sa_handler(sig);  /* e.g. the console's: restores the terminal and dies */
	signal(sig, SIG_DFL);
	raise(sig);              /* delivered when this handler returns */
}

const volatile int *cli_interrupt_begin(void)
{
	/* no SA_RESTART: a host call the guest is blocked in (a read of
	 * stdin, a poll) returns, so the run loop gets to its check */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 2; i++)
		sigaction(sigs[i], &sa, &prev[i]);
	progress_watch(&cli_stop);   /* erased before the run loop says it stopped */
	return &cli_stop;            /* sig_atomic_t is int on Linux */
}

int cli_interrupt_exit(int status)
{
	int sig = cli_stop;
	if (!sig)
		return status;
	fflush(NULL);
	signal(sig, SIG_DFL);
	raise(sig);
	return 128 + sig;        /* not reached */
}
