/* Processes: address spaces, and clone without CLONE_THREAD (fork,
 * vfork, posix_spawn). A forked child gets a new guest reservation with
 * a copy of every page its parent has (eager copy: the host has no cheap
 * copy-on-write of one part of a mapping into another of the same
 * process; pages the host never backed read as zero on both sides and
 * are not copied), file mappings mapped again from their files (shared
 * ones stay shared: MAP_SHARED|MAP_ANONYMOUS and System V segments are
 * memfds), its parent's fd table copied and its cwd. With CLONE_VM (vfork,
 * posix_spawn) the child shares its parent's address space, and with
 * CLONE_VFORK the parent waits until the child execs or ends. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lx.h"

#define CLONE_VM             0x00000100ull
#define CLONE_FILES          0x00000400ull
#define CLONE_SIGHAND        0x00000800ull
#define CLONE_VFORK          0x00004000ull
#define CLONE_PARENT         0x00008000ull
#define CLONE_SETTLS         0x00080000ull
#define CLONE_PARENT_SETTID  0x00100000ull
#define CLONE_CHILD_CLEARTID 0x00200000ull
#define CLONE_CHILD_SETTID   0x01000000ull
#define CSIGNAL              0xffull

struct lx_mm *lx_mm_new(const struct lx *p)
{
	struct lx_mm *mm = calloc(1, sizeof(*mm));
	if (!mm)
		return NULL;
	if (gmem_init(&mm->mem)) {
		free(mm);
		return NULL;
	}
	mm->refs = 1;
	mm->mem.acct->max_bytes = p->mm ? p->mm->mem.acct->max_bytes : 0;
	mm->mem.acct->demand = p->mm && p->mm->mem.acct->demand;
	return mm;
}

void lx_mm_put(struct lx_mm *mm)
{
	if (!mm || --mm->refs > 0)
		return;
	/* no hart may keep what it decoded from it: a new reservation
	 * could come back at the same host address */
	static const struct gmem none;
	for (unsigned i = 0; i < lx_k.ncpus; i++)
		if (lx_k.cpu[i]->mem.base == mm->mem.base)
			hart_switch_mem(lx_k.cpu[i], &none);
	lx_perf_mm_gone(mm);
	for (int i = 0; i < mm->nfmap; i++)
		close(mm->fmap[i].fd);
	free(mm->fmap);
	free(mm->exe);
	gmem_free(&mm->mem);
	free(mm);
}

/* Copy [a, b) of from's memory into to (mapped there already), only the
 * pages the host has backed: the others read as zero on both sides. */
static void copy_backed(const struct gmem *from, struct gmem *to, uint64_t a, uint64_t b)
{
	enum { CHUNK = 1024 };   /* pages per mincore call */
	unsigned char vec[CHUNK];
	for (uint64_t q = a; q < b; q += (uint64_t)CHUNK * GPAGE_SIZE) {
		uint64_t n = (b - q) / GPAGE_SIZE < CHUNK ? (b - q) / GPAGE_SIZE : CHUNK;
		if (mincore(from->base + q, n * GPAGE_SIZE, vec)) {
			memcpy(to->base + q, from->base + q, n * GPAGE_SIZE);
			continue;
		}
		for (uint64_t i = 0; i < n; i++)
			if (vec[i] & 1)
				memcpy(to->base + q + i * GPAGE_SIZE, from->base + q + i * GPAGE_SIZE, GPAGE_SIZE);
	}
}

/* The page flags of [a, b) of from, on to's pages (mapped there): each
 * page's protection, and present or absent as it is in from (a page the
 * parent never touched faults at the child's first touch, as Linux's). */
static void copy_prot(const struct gmem *from, struct gmem *to, uint64_t a, uint64_t b)
{
	for (uint64_t q = a; q < b; q += GPAGE_SIZE) {
		gmem_protect(to, q, GPAGE_SIZE, gmem_prot(from, q));
		if (!from->absent[q >> GPAGE_SHIFT])
			gmem_present(to, q, GPAGE_SIZE);
	}
}

/* The child c's copy of its parent p's address space; 0 or -ENOMEM. */
static int mm_copy(struct lx *p, struct lx *c)
{
	const struct lx_mm *pm = p->mm;
	struct lx_mm *m = c->mm = lx_mm_new(p);
	if (!m || !(m->exe = strdup(pm->exe)))
		return -ENOMEM;
	m->brk_start = pm->brk_start;
	m->brk_cur = pm->brk_cur;
	m->load_bias = pm->load_bias;
	m->ex = pm->ex;
	m->vm_peak = pm->vm_peak;
	/* the file mappings: their files again, private pages copied */
	for (int i = 0; i < pm->nfmap; i++) {
		const struct lx_fmap *f = &pm->fmap[i];
		if (lx_fmap_map(c, f->addr, f->len, f->prot, f->shared, f->fd, f->off))
			return -ENOMEM;
		if (!f->shared)
			copy_backed(&pm->mem, &m->mem, f->addr, f->addr + f->valid);
		copy_prot(&pm->mem, &m->mem, f->addr, f->addr + f->len);
	}
	/* the rest: runs of mapped pages outside file mappings */
	const uint8_t *pf = pm->mem.pflags;
	uint64_t top = pm->mem.size >> GPAGE_SHIFT;
	for (uint64_t q = 0; q < top;) {
		if (!(q & 7) && q + 8 <= top && !*(const uint64_t *)(pf + q)) {
			q += 8;
			continue;
		}
		uint64_t a = q << GPAGE_SHIFT;
		const struct lx_fmap *f = pf[q] ? lx_fmap_at(p, a) : NULL;
		if (!pf[q] || f) {
			q = f ? (f->addr + f->len) >> GPAGE_SHIFT : q + 1;
			continue;
		}
		uint64_t e = q + 1;
		while (e < top && pf[e] && !lx_fmap_at(p, e << GPAGE_SHIFT))
			e++;
		uint64_t b = e << GPAGE_SHIFT;
		if (gmem_map(&m->mem, a, b - a, GP_R | GP_W))
			return -ENOMEM;
		copy_backed(&pm->mem, &m->mem, a, b);
		copy_prot(&pm->mem, &m->mem, a, b);
		q = e;
	}
	return 0;
}

struct lx *lx_process_new(struct lx *parent)
{
	struct lx *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	struct lx **q = &lx_k.procs;
	while (*q)
		q = &(*q)->next;
	*q = c;
	c->cwd = -1;
	if (!parent)
		return c;
	c->o = parent->o;
	c->h = parent->h;
	c->parent = parent;
	c->ppid = parent->pid;
	c->pgid = parent->pgid;
	c->sid = parent->sid;
	c->umask = parent->umask;
	c->cwd_in_proc = parent->cwd_in_proc;
	c->strace = parent->strace;
	c->perf_ss = parent->perf_ss;
	memcpy(c->rlim, parent->rlim, sizeof(c->rlim));
	memcpy(c->sa, parent->sa, sizeof(c->sa));
	memcpy(c->comm, parent->comm, sizeof(c->comm));
	memcpy(c->warned, parent->warned, sizeof(c->warned));
	c->warned_big = parent->warned_big;
	c->name = strdup(parent->name);
	c->cwd = parent->cwd >= 0 ? fcntl(parent->cwd, F_DUPFD_CLOEXEC, 3) : -1;
	return c;
}

void lx_process_free(struct lx *p)
{
	for (struct lx **q = &lx_k.procs; *q; q = &(*q)->next)
		if (*q == p) {
			*q = p->next;
			break;
		}
	for (struct lx *c = lx_k.procs; c; c = c->next)
		if (c->parent == p)
			c->parent = NULL;
	if (lx_k.cwd_owner == p)
		lx_k.cwd_owner = NULL;
	lx_mm_put(p->mm);
	lx_fd_put(p->files);
	if (p->cwd >= 0)
		close(p->cwd);
	free(p->name);
	free(p);
}

long lx_fork(struct lx *p, uint64_t flags, uint64_t sp, uint64_t ptid, uint64_t tls,
	     uint64_t ctid)
{
	struct lx_thread *self = p->t;
	if (flags & CLONE_SIGHAND)
		return -EINVAL;   /* handlers shared by two processes: not done */
	struct lx *c = lx_process_new(p);
	if (!c || !c->name)
		goto nomem;
	int pid = lx_k.next_id;
	c->pid = pid;
	c->exit_signal = (int)(flags & CSIGNAL);
	c->rng = p->rng ^ ((uint64_t)pid * 0x9e3779b97f4a7c15ull);
	if ((flags & CLONE_PARENT) && p->parent) {
		c->parent = p->parent;
		c->ppid = p->ppid;
	}
	if (flags & CLONE_VM) {
		c->mm = p->mm;
		p->mm->refs++;
	} else if (mm_copy(p, c)) {
		goto nomem;
	}
	if (flags & CLONE_FILES) {
		c->files = p->files;
		p->files->refs++;
	} else if (!(c->files = lx_fd_copy(p->files))) {
		goto nomem;
	}
	if ((flags & CLONE_PARENT_SETTID) && lx_put(p, ptid, &pid, 4))
		goto fault;
	if ((flags & CLONE_CHILD_SETTID) && lx_put(c, ctid, &pid, 4))
		goto fault;
	struct lx_thread *t = lx_thread_new(c, pid);
	if (!t)
		goto nomem;
	lx_k.next_id++;
	lx_thread_start(p, t, flags, sp, tls, ctid);
	if (flags & CLONE_VFORK) {
		c->vfork_parent = self;
		return lx_wait_begin(p, LX_W_VFORK, ~0ull, false);
	}
	return pid;
fault:
	lx_process_free(c);
	return -EFAULT;
nomem:
	if (c)
		lx_process_free(c);
	return -ENOMEM;
}
