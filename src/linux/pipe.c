/* Calls on files that may make a thread wait: reads of pipes, FIFOs,
 * sockets and terminals, writes to the pipes the program made, ppoll.
 * A call that would block parks its thread (LX_W_FD, retried when its
 * fds are ready) instead of blocking rvpmu, so the other threads and
 * processes run meanwhile; a pipe's other end is usually another guest
 * process. Readiness is looked at at the scheduler's turns (host poll
 * with no wait); when every thread waits, rvpmu waits on the host only
 * for files from outside the run (stdin, a pipe from the shell): a wait
 * only the run itself could end is a deadlock. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lx.h"

/* Park the calling thread until the fds are ready (retried then). */
static long wait_fds(struct lx *p, struct pollfd *fds, int n, bool inside, uint64_t deadline)
{
	struct lx_wait *w = &p->t->w;
	free(w->fds);
	w->fds = fds;
	w->nfds = n;
	w->inside = inside;
	return lx_wait_begin(p, LX_W_FD, deadline, true);
}

static long wait_fd(struct lx *p, int h, short events, bool inside)
{
	struct pollfd *f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	*f = (struct pollfd){ .fd = h, .events = events };
	return wait_fds(p, f, 1, inside, ~0ull);
}

static bool ready(int h, short events)
{
	struct pollfd f = { .fd = h, .events = events };
	return poll(&f, 1, 0) != 0;
}

static bool nonblocking(int h)
{
	int fl = fcntl(h, F_GETFL);
	return fl >= 0 && (fl & O_NONBLOCK);
}

long lx_pipe2(struct lx *p, uint64_t ua, int flags)
{
	int fds[2];
	if (!lx_wptr(p, ua, 8))
		return -EFAULT;
	if (pipe2(fds, flags) < 0)
		return -errno;
	/* a write to a pipe whose reader is gone is EPIPE and the guest's
	 * SIGPIPE, not rvpmu's */
	signal(SIGPIPE, SIG_IGN);
	int g0 = lx_fd_alloc_kind(p, 0, fds[0], LX_FD_PIPE);
	if (g0 < 0) {
		close(fds[1]);
		return g0;
	}
	int g1 = lx_fd_alloc_kind(p, 0, fds[1], LX_FD_PIPE);
	if (g1 < 0) {
		lx_fd_release(p, g0);
		return g1;
	}
	int32_t g[2] = { g0, g1 };
	return lx_put(p, ua, g, sizeof(g));
}

/* A write to a pipe of the program: as much as fits now, the rest after
 * a wait (a blocking write returns once all of it is in), EPIPE with a
 * SIGPIPE when no reader is left. */
static long pipe_write(struct lx *p, int h, const uint8_t *buf, uint64_t n)
{
	struct lx_wait *w = &p->t->w;
	int fl = fcntl(h, F_GETFL);
	if (fl < 0)
		return -errno;
	bool nb = fl & O_NONBLOCK;
	if (!nb)
		fcntl(h, F_SETFL, fl | O_NONBLOCK);
	ssize_t r = write(h, buf + w->done, n - w->done);
	int e = errno;
	if (!nb)
		fcntl(h, F_SETFL, fl);
	if (r > 0)
		w->done += (uint64_t)r;
	if (w->done == n || (nb && w->done))
		return (long)w->done;
	if (r < 0 && e == EPIPE) {
		lx_signal_send(p, p->t, LX_SIGPIPE, (struct lx_sigsrc){ p->pid, LX_SI_USER, 0 });
		return w->done ? (long)w->done : -EPIPE;
	}
	if (r < 0 && e != EAGAIN)
		return w->done ? (long)w->done : -e;
	if (nb)
		return -EAGAIN;
	return wait_fd(p, h, POLLOUT, true);
}

long lx_stream_rw(struct lx *p, uint64_t g, bool rd, void *buf, uint64_t n, bool *done)
{
	int h = lx_host_fd(p, g);
	bool pipe = p->files->fkind[g] == LX_FD_PIPE;
	*done = true;
	if (!rd && pipe)
		return pipe_write(p, h, buf, n);
	if (rd && n && !ready(h, POLLIN) && !nonblocking(h))
		return wait_fd(p, h, POLLIN, pipe);
	*done = false;   /* the caller does it now: it will not wait */
	return 0;
}

/* ppoll: struct pollfd is the same on both; guest fds are translated. A
 * wait with nothing ready parks until something is or the timeout (in
 * modelled time) passes. */
long lx_ppoll(struct lx *p, const uint64_t *a)
{
	if (a[1] > LX_NFD)
		return -EINVAL;
	size_t n = (size_t)a[1];
	uint8_t *g = lx_wptr(p, a[0], n * sizeof(struct pollfd));
	if (!g)
		return -EFAULT;
	int64_t tmo[2] = { -1, -1 };
	if (a[2] && lx_get(p, a[2], tmo, sizeof(tmo)))
		return -EFAULT;
	if (a[2] && (tmo[0] < 0 || tmo[1] < 0 || tmo[1] >= 1000000000))
		return -EINVAL;
	struct pollfd *v = calloc(n + 1, sizeof(*v)), *gp = calloc(n + 1, sizeof(*gp));
	if (!v || !gp) {
		free(v);
		free(gp);
		return -ENOMEM;
	}
	memcpy(gp, g, n * sizeof(*gp));   /* the guest array may be misaligned */
	bool inside = true;
	for (size_t i = 0; i < n; i++) {
		v[i].fd = gp[i].fd < 0 ? -1 : lx_host_fd(p, (uint32_t)gp[i].fd);
		v[i].events = gp[i].events;
		if (v[i].fd >= 0 && p->files->fkind[gp[i].fd] != LX_FD_PIPE)
			inside = false;
	}
	int r = poll(v, n, 0);
	bool timed = a[2] && (tmo[0] || tmo[1]);
	if (r == 0 && (!a[2] || timed) && p->t->w.woke != LX_WOKE_TIMEOUT) {
		/* nothing ready: wait (the call looks again when something is,
		 * or once the timeout passed in modelled time) */
		free(gp);
		uint64_t dl = timed ? lx_now_ns(p) + (uint64_t)tmo[0] * 1000000000ull + (uint64_t)tmo[1] : ~0ull;
		return wait_fds(p, v, (int)n, inside, dl);
	}
	if (r < 0) {
		r = -errno;
		free(v);
		free(gp);
		return r;
	}
	r = 0;
	for (size_t i = 0; i < n; i++) {
		gp[i].revents = gp[i].fd >= 0 && v[i].fd < 0 ? POLLNVAL : v[i].revents;
		r += gp[i].revents != 0;
	}
	memcpy(g, gp, n * sizeof(*gp));
	free(v);
	free(gp);
	return r;
}

int lx_fd_waiters(bool wait)
{
	int n = 0, outside = 0;
	for (struct lx_thread *t = lx_k.threads; t; t = t->next)
		if (t->state == LX_T_WAIT && t->w.kind == LX_W_FD) {
			n++;
			outside += !t->w.inside;
		}
	if (wait && !outside)
		return -1;
	if (!n)
		return 0;
	struct pollfd *all = NULL;
	int k = 0;
	if (wait) {
		for (struct lx_thread *t = lx_k.threads; t; t = t->next)
			if (t->state == LX_T_WAIT && t->w.kind == LX_W_FD && !t->w.inside) {
				struct pollfd *m = realloc(all, (size_t)(k + t->w.nfds) * sizeof(*m));
				if (!m)
					break;
				all = m;
				memcpy(all + k, t->w.fds, (size_t)t->w.nfds * sizeof(*m));
				k += t->w.nfds;
			}
		while (poll(all, (nfds_t)k, -1) < 0 && errno == EINTR && !(lx_k.stop && *lx_k.stop))
			;
		free(all);
	}
	int woke = 0;
	for (struct lx_thread *t = lx_k.threads, *next; t; t = next) {
		next = t->next;
		if (t->state == LX_T_WAIT && t->w.kind == LX_W_FD && poll(t->w.fds, (nfds_t)t->w.nfds, 0)) {
			lx_wake(t, LX_WOKE_EVENT, 0);
			woke++;
		}
	}
	return woke;
}
