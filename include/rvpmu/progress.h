/* A one-line progress display on stderr for long runs: retired
 * instructions, host MIPS and (for record) samples so far.
 *
 * Only on a terminal (isatty(2)) and not with --quiet. The run loops call
 * progress_poll at their stops; it looks at the host clock only every
 * few million instructions (a step it adapts so that the checks come
 * some 10 to 50 times a second, fast or slow models alike) and redraws at
 * most four times a second, from the first half second on, so short runs
 * never show it. The line
 * ends in '\r' (the cursor stays at its start) and is erased before the
 * guest writes to the terminal, when the program exits, before the
 * instruction limit, when the run is interrupted and by progress_end.
 *
 * Use: progress_begin("run", max_insns, quiet); set linux_opts.progress
 * (or machine_opts.tick) to progress_tick and linux_opts.on_trap to
 * progress_on_trap; progress_end() after the run. */
#ifndef RVPMU_PROGRESS_H
#define RVPMU_PROGRESS_H
#include <stdint.h>
#include <stdio.h>

struct hart;

/* Start the display for command what ("run", "stat", ...). limit is the
 * run's instruction limit (0 = none); quiet turns it off. */
void progress_begin(const char *what, uint64_t limit, int quiet);
/* The run's stop flag (linux_opts.stop, machine_opts.stop): once it is
 * set, the next poll erases the line and draws no more. */
void progress_watch(const volatile int *stop);
/* Show the sample count too (rvpmu record). */
void progress_samples(int on);
/* The samples so far (a store: call it at every sample). */
void progress_set_samples(uint64_t n);
/* At a stop of a run loop with the hart's instret (a smaller value than
 * the last one starts a new run, as stat -r does): returns how many
 * instructions may run before the next call, 0 = no limit (off). */
uint64_t progress_poll(uint64_t instret);
/* progress_poll as a linux_opts.progress / machine_opts.tick (ctx
 * unused). */
uint64_t progress_tick(void *ctx, struct hart *h);
/* linux_opts.on_trap: erases the line before the guest writes to the
 * terminal, exits, or takes an exception (that may print a message). */
void progress_on_trap(struct hart *h);
/* Erase the line (if shown) and stop. */
void progress_end(void);
/* A stream for the machine's console that erases the line before each
 * write to out, so UART text never mixes with it; out itself when the
 * display is off. */
FILE *progress_console(FILE *out);

#endif
