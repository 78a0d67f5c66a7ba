/* The host console behind the UART: stdin feeds the receive FIFO. A
 * terminal is put in raw mode for the run (bytes go to the guest as
 * typed, Ctrl-C included) with an escape as QEMU's: Ctrl-A x quits,
 * Ctrl-A Ctrl-A sends Ctrl-A, Ctrl-A h prints help. Other input (a pipe,
 * a file) passes through unchanged and stops at end of file. The saved
 * terminal state is restored at exit and on fatal signals. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "rvpmu/machine.h"

#define ESC_CHAR 0x01            /* Ctrl-A */

static struct termios saved;
static volatile sig_atomic_t raw_fd = -1;  /* terminal in raw mode, or -1 */

static void restore(void)
{
	if (raw_fd >= 0)
		tcsetattr(raw_fd, TCSANOW, &saved);
	raw_fd = -1;
}

static int make_raw(int fd)
{
	struct termios t = saved;
	t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t.c_cflag = (t.c_cflag & ~(tcflag_t)(CSIZE | PARENB)) | CS8;
	t.c_oflag |= OPOST;      /* the guest's "\n" still starts a new line */
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &t))
		return -1;
	raw_fd = fd;
	return 0;
}

static const int fatal_sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM,
				 SIGUSR1, SIGUSR2, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* Restore the terminal, then die of the signal as if it had no handler. */
static void on_fatal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Stopped (kill -TSTP; Ctrl-Z is the guest's): cooked while stopped. */
static void on_tstp(int sig)
{
	int fd = raw_fd;
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
	/* continued */
	signal(sig, on_tstp);
	if (fd >= 0)
		make_raw(fd);
}

static int handlers_set;

void console_start(struct machine *m, int fd)
{
	struct console *c = &m->con;
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	if (fd < 0 || !isatty(fd) || tcgetattr(fd, &saved))
		return;
	if (!handlers_set) {
		atexit(restore);
		for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
			signal(fatal_sigs[i], on_fatal);
		signal(SIGTSTP, on_tstp);
		handlers_set = 1;
	}
	if (make_raw(fd)) {
		/* a terminal we cannot configure (background job): no input */
		c->fd = -1;
		return;
	}
	c->tty = 1;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "rvpmu: console on this terminal; Ctrl-A x quits, Ctrl-A h helps\n");
}

void console_stop(struct machine *m)
{
	if (m->con.tty)
		restore();
	m->con.tty = 0;
	m->con.fd = -1;
}

static void buf_put(struct console *c, uint8_t b)
{
	if (c->count < CONSOLE_BUF)
		c->buf[(c->head + c->count++) % CONSOLE_BUF] = b;
	/* else a terminal typed ahead of a guest that does not read: dropped */
}

/* Terminal input through the escape state machine. */
static void typed(struct machine *m, uint8_t b)
{
	struct console *c = &m->con;
	if (!c->esc) {
		if (b == ESC_CHAR)
			c->esc = 1;
		else
			buf_put(c, b);
		return;
	}
	c->esc = 0;
	switch (b) {
	case 'x':
		fprintf(stderr, "\nrvpmu: terminated (Ctrl-A x)\n");
		m->finished = 1;
		m->exit_code = 0;
		break;
	case ESC_CHAR:
		buf_put(c, b);
		break;
	case 'h': case '?':
		fprintf(stderr, "\nrvpmu: Ctrl-A x quit, Ctrl-A Ctrl-A send Ctrl-A, Ctrl-A h this help\n");
		break;
	}
}

static void read_input(struct machine *m, int wait)
{
	struct console *c = &m->con;
	/* a pipe or file waits in the kernel until there is room; a terminal
	 * is always read, so that the escape works */
	size_t room = c->tty ? 256 : CONSOLE_BUF - c->count;
	if (!room)
		return;
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	int n;
	while ((n = poll(&p, 1, wait ? -1 : 0)) < 0 && errno == EINTR)
		if (m->o.stop && *m->o.stop)
			return;  /* the run loop ends the run */
	if (n <= 0)
		return;
	uint8_t b[CONSOLE_BUF];
	ssize_t r = read(c->fd, b, room);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (r <= 0) {  /* end of input (or an error reading it): stop */
		console_stop(m);
		return;
	}
	for (ssize_t i = 0; i < r; i++) {
		if (c->tty)
			typed(m, b[i]);
		else
			buf_put(c, b[i]);
	}
}

/* Waiting input into the UART's receive FIFO, as far as it has room. */
static void to_uart(struct machine *m)
{
	struct console *c = &m->con;
	for (unsigned n = uart_rx_room(&m->uart); n && c->count; n--) {
		uart_rx_push(&m->uart, c->buf[c->head]);
		c->head = (c->head + 1) % CONSOLE_BUF;
		c->count--;
	}
}

void console_poll(struct machine *m, int wait)
{
	struct console *c = &m->con;
	c->polled_at = machine_insns(m);
	to_uart(m);
	if (c->fd >= 0)
		read_input(m, wait && !c->count);
	to_uart(m);
}

int console_getc(struct machine *m)
{
	if (console_live(m))
		console_poll(m, 0);
	uint64_t v;
	if (!m->uart.rx_count || (m->uart.lcr & 0x80) || uart_access(&m->uart, 0, 1, &v, 0))
		return -1;
	return (int)v;
}
