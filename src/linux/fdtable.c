/* The fd table of a process: guest fds over host fds of rvpmu's own.
 * Threads share their process's table (and a clone with CLONE_FILES);
 * fork copies it, each host fd duplicated so that either side may close
 * its own, with its close-on-exec flag (which the host fd carries, as
 * F_GETFD and F_SETFD pass through); exec closes those. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "lx.h"

int lx_fd_init(struct lx *p)
{
	struct lx_files *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->refs = 1;
	for (int i = 0; i < LX_NFD; i++)
		f->fd[i] = -1;
	for (int i = 0; i < 3; i++) {
		f->fd[i] = i;
		f->fkind[i] = lx_fd_kind(i);
	}
	p->files = f;
	return 0;
}

struct lx_files *lx_fd_copy(const struct lx_files *from)
{
	struct lx_files *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->refs = 1;
	for (int i = 0; i < LX_NFD; i++) {
		int h = from->fd[i], cx = h >= 0 ? fcntl(h, F_GETFD) : -1;
		f->fd[i] = h < 0 ? -1 : fcntl(h, cx > 0 && (cx & FD_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
		f->fkind[i] = from->fkind[i];
		if (h >= 0 && f->fd[i] < 0) {
			lx_fd_put(f);
			return NULL;
		}
	}
	return f;
}

void lx_fd_put(struct lx_files *f)
{
	if (!f || --f->refs > 0)
		return;
	for (int i = 0; i < LX_NFD; i++)
		if (f->fd[i] > 2)
			close(f->fd[i]);
	free(f);
}

void lx_fd_close_on_exec(struct lx *p)
{
	for (int i = 0; i < LX_NFD; i++) {
		int h = p->files->fd[i], cx = h >= 0 ? fcntl(h, F_GETFD) : -1;
		if (cx > 0 && (cx & FD_CLOEXEC))
			lx_fd_release(p, i);
	}
}

int lx_host_fd(struct lx *p, uint64_t g)
{
	return g < LX_NFD ? p->files->fd[g] : -1;
}

int lx_fd_alloc_kind(struct lx *p, int min, int host, uint8_t kind)
{
	for (int i = min < 0 ? 0 : min; i < LX_NFD; i++)
		if (p->files->fd[i] < 0) {
			p->files->fd[i] = host;
			p->files->fkind[i] = kind;
			return i;
		}
	if (host > 2)
		close(host);
	return -EMFILE;
}

int lx_fd_alloc(struct lx *p, int h)
{
	return lx_fd_alloc_kind(p, 0, h, LX_FD_FILE);
}

void lx_fd_release(struct lx *p, int g)
{
	/* The host's own stdio stays open for rvpmu's messages. */
	if (p->files->fd[g] > 2)
		close(p->files->fd[g]);
	p->files->fd[g] = -1;
	p->files->fkind[g] = LX_FD_FILE;
}
