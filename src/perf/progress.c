/* The progress line of long runs (include/rvpmu/progress.h). One run loop
 * per process, so the state is one static struct. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rvpmu/hart.h"
#include "rvpmu/progress.h"

#define SHOW_AFTER 0.5     /* seconds before the first draw */
#define REDRAW 0.25        /* seconds between draws */
#define STEP0 (1ull << 22) /* instructions between clock checks, at first */
#define STEP_MIN (1ull << 16)
#define STEP_MAX (1ull << 28)

/* riscv64 Linux system call numbers (asm-generic/unistd.h) */
enum { NR_WRITE = 64, NR_WRITEV = 66, NR_PWRITE64 = 68, NR_PWRITEV = 70,
       NR_EXIT = 93, NR_EXIT_GROUP = 94 };

static struct {
	int on;            /* stderr is a terminal and not --quiet */
	int shown;         /* the line is on the screen */
	int held;          /* the terminal line holds someone's partial text */
	int stopped;       /* this run is ending: draw no more */
	int samples;       /* show the sample count */
	int tty1;          /* stdout is a terminal too */
	char what[16];
	uint64_t limit;    /* instruction limit of a run, 0 = none */
	uint64_t next;     /* instret of the next clock check */
	uint64_t step;     /* instructions between clock checks */
	uint64_t last;     /* instret at the last poll */
	uint64_t done;     /* instructions of runs already finished */
	uint64_t nsamples;
	double t0, drawn, checked;
	const volatile int *stop;  /* the run's stop flag, or NULL */
} pg;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(2, s, n);
		if (w <= 0)
			return;  /* a display is not worth failing for */
		s += w, n -= (size_t)w;
	}
}

static void erase(void)
{
	if (pg.shown)
		put("\r\033[K", 4);
	pg.shown = 0;
}

void progress_begin(const char *what, uint64_t limit, int quiet)
{
	const char *term = getenv("TERM");
	memset(&pg, 0, sizeof(pg));
	/* a dumb terminal cannot erase a line */
	pg.on = !quiet && isatty(2) && !(term && !strcmp(term, "dumb"));
	pg.tty1 = isatty(1);
	pg.limit = limit;
	snprintf(pg.what, sizeof(pg.what), "%s", what);
	pg.t0 = pg.drawn = pg.checked = now();
	pg.step = STEP0;
}

void progress_watch(const volatile int *stop)
{
	pg.stop = stop;
}

void progress_samples(int on)
{
	pg.samples = on;
}

void progress_set_samples(uint64_t n)
{
	pg.nsamples = n;
}

static void draw(uint64_t insns, uint64_t samples, double t)
{
	char line[128], n[32];
	double mips = t > pg.t0 ? (double)insns / (t - pg.t0) / 1e6 : 0;
	if (insns >= 1000000000ull)
		snprintf(n, sizeof(n), "%.2fG", insns / 1e9);
	else
		snprintf(n, sizeof(n), "%.1fM", insns / 1e6);
	int k = snprintf(line, sizeof(line), "\r\033[Krvpmu %s: %s instructions, %.0f MIPS",
			 pg.what, n, mips);
	if (pg.samples && k > 0 && (size_t)k < sizeof(line))
		k += snprintf(line + k, sizeof(line) - (size_t)k, ", %llu samples",
			      (unsigned long long)samples);
	/* the cursor goes back to the start: other text overwrites, not follows */
	if (k > 0 && (size_t)k < sizeof(line) - 1) {
		line[k++] = '\r';
		put(line, (size_t)k);
		pg.shown = 1;
	}
}

uint64_t progress_poll(uint64_t instret)
{
	if (!pg.on)
		return 0;
	if (pg.stop && *pg.stop) {  /* the run loop is about to say why it ends */
		erase();
		pg.stopped = 1;
	}
	if (instret < pg.last) {  /* a new run (stat -r) */
		pg.done += pg.last;
		pg.next = 0;
		pg.stopped = 0;
	}
	pg.last = instret;
	if (instret < pg.next)
		return pg.next - instret;
	double t = now(), dt = t - pg.checked;
	pg.checked = t;
	/* a check every 20 to 100 ms, whatever the speed */
	if (dt < 0.02 && pg.step < STEP_MAX)
		pg.step *= 2;
	else if (dt > 0.1 && pg.step > STEP_MIN)
		pg.step /= 2;
	pg.next = instret + pg.step;
	if (pg.limit && pg.limit - (instret < pg.limit ? instret : pg.limit) <= pg.step) {
		/* the limit's message comes within the next step */
		erase();
		pg.stopped = 1;
	}
	if (!pg.stopped && !pg.held && t - pg.t0 >= SHOW_AFTER && t - pg.drawn >= REDRAW) {
		draw(pg.done + instret, pg.nsamples, t);
		pg.drawn = t;
	}
	return pg.step;
}

uint64_t progress_tick(void *ctx, struct hart *h)
{
	(void)ctx;
	return progress_poll(h->instret);
}

/* The last byte the guest is about to write, or -1 when unknown. */
static int last_byte(struct hart *h, uint64_t nr)
{
	uint8_t c;
	if (nr == NR_WRITE || nr == NR_PWRITE64) {
		uint64_t buf = h->x[11], len = h->x[12];
		return len && !gmem_read(&h->mem, buf + len - 1, &c, 1) ? c : -1;
	}
	/* writev, pwritev: the last non-empty iovec */
	for (uint64_t i = h->x[12]; i-- > 0 && i < 1024;) {
		uint64_t iov[2];
		if (gmem_read(&h->mem, h->x[11] + 16 * i, iov, 16))
			return -1;
		if (iov[1])
			return !gmem_read(&h->mem, iov[0] + iov[1] - 1, &c, 1) ? c : -1;
	}
	return -1;
}

void progress_on_trap(struct hart *h)
{
	if (!pg.on)
		return;
	if (h->cause != CAUSE_USER_ECALL) {
		erase();  /* it may kill the program with a message */
		return;
	}
	uint64_t nr = h->x[17], fd = h->x[10];
	if (nr == NR_EXIT || nr == NR_EXIT_GROUP) {
		erase();
		pg.stopped = 1;
	} else if ((nr == NR_WRITE || nr == NR_WRITEV || nr == NR_PWRITE64 || nr == NR_PWRITEV) &&
		   (fd == 2 || (fd == 1 && pg.tty1))) {
		erase();
		/* until a line ends, the terminal's line is the guest's */
		pg.held = last_byte(h, nr) != '\n';
	}
}

void progress_end(void)
{
	erase();
	pg.on = 0;
}

/* fopencookie write: out's text never shares the line with ours. */
static ssize_t console_write(void *cookie, const char *buf, size_t len)
{
	FILE *out = cookie;
	if (!len)
		return 0;
	erase();
	size_t n = fwrite(buf, 1, len, out);
	fflush(out);
	if (n)
		pg.held = buf[n - 1] != '\n';
	return n ? (ssize_t)n : -1;
}

FILE *progress_console(FILE *out)
{
	if (!pg.on || !isatty(fileno(out)))
		return out;
	cookie_io_functions_t io = { .write = console_write };
	FILE *f = fopencookie(out, "w", io);
	if (!f)
		return out;
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}
