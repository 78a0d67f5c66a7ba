/* File mappings: mmap of a file, MAP_SHARED or MAP_PRIVATE.
 *
 * The guest pages of a file mapping are the host's own mapping of the
 * file, placed in guest memory's reservation where the guest address is
 * (gmem_map_file). So there is one copy of the data, the host kernel's
 * page cache, as on Linux: a MAP_SHARED mapping sees every write to the
 * file (write, pwrite, other mappings) and its stores are what read and
 * pread return at once; a MAP_PRIVATE mapping copies a page on its first
 * store. msync and exit have nothing left to write back.
 *
 * A record per mapping (struct lx_fmap) keeps the file (a dup of the fd)
 * and offset, the guest's protection, and how many bytes from the start
 * are backed by the file (valid). Pages past the end of a regular file
 * are not host-mapped, since the host would raise SIGBUS in rvpmu itself
 * there: they stay guest pages without access, and a guest access asks
 * the file again (it may have grown since) and raises SIGBUS (BUS_ADRERR)
 * in the guest if it has not, as Linux does. When the guest shrinks a
 * file (ftruncate, truncate, O_TRUNC, fallocate), the pages past the new
 * end are taken back the same way. Records split where an munmap or an
 * mprotect cuts them, as Linux splits its VMAs.
 *
 * MAP_SHARED|MAP_ANONYMOUS is private anonymous memory (mm.c): with one
 * process nothing else could share it. fork will need it shared. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

#define PAGE_UP(a) (((a) + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1))

/* Bytes of f that the file of size bytes backs: whole pages, the last one
 * holding the file's end (its tail reads as zero). */
static uint64_t file_part(const struct lx_fmap *f, uint64_t size)
{
	if (!f->sized)
		return f->len;
	uint64_t n = size > f->off ? PAGE_UP(size - f->off) : 0;
	return n < f->len ? n : f->len;
}

/* The file's current size for f, or its old extent if fstat fails. */
static uint64_t file_now(const struct lx_fmap *f)
{
	struct stat st;
	return fstat(f->fd, &st) ? f->valid : file_part(f, (uint64_t)st.st_size);
}

struct lx_fmap *lx_fmap_at(struct lx *p, uint64_t a)
{
	for (int i = 0; i < p->mm->nfmap; i++)
		if (a >= p->mm->fmap[i].addr && a - p->mm->fmap[i].addr < p->mm->fmap[i].len)
			return &p->mm->fmap[i];
	return NULL;
}

/* Room for one more record; 0 or -ENOMEM. */
static int reserve(struct lx *p)
{
	struct lx_fmap *n = realloc(p->mm->fmap, (size_t)(p->mm->nfmap + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->mm->fmap = n;
	return 0;
}

/* The guest stops the moment memory under a file mapping cannot be made
 * anonymous again: reusing those pages would write into the file. */
static void unfile(struct lx *p, uint64_t a, uint64_t len)
{
	int e = len ? gmem_unfile(&p->mm->mem, a, len) : 0;
	if (e) {
		lx_warn(p, "rvpmu: %s: cannot return a file mapping's memory to the address space (%s): stopping",
			p->name, strerror(-e));
		lx_die(p, LX_SIGKILL);
	}
}

/* Cut the record that spans x in two at x. 0 or -ENOMEM. */
static int split(struct lx *p, uint64_t x)
{
	struct lx_fmap *f = lx_fmap_at(p, x);
	if (!f || f->addr == x)
		return 0;
	int i = (int)(f - p->mm->fmap);
	if (reserve(p))
		return -ENOMEM;
	f = &p->mm->fmap[i];
	struct lx_fmap r = *f;
	uint64_t cut = x - f->addr;
	if ((r.fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 3)) < 0)
		return -ENOMEM;
	r.addr = x;
	r.len -= cut;
	r.off += cut;
	r.valid = f->valid > cut ? f->valid - cut : 0;
	f->len = cut;
	if (f->valid > cut)
		f->valid = cut;
	p->mm->fmap[p->mm->nfmap++] = r;
	return 0;
}

/* Another process may shrink a file the program maps. The host then
 * raises SIGBUS in rvpmu at the program's next access past the new end:
 * what Linux does to the program, so it ends as Linux would end it (an
 * unhandled SIGBUS, 128 + 7), with a line saying why, not as a crash of
 * rvpmu. A SIGBUS anywhere else goes to the handler there was before. */
static struct sigaction old_sigbus;
static void on_host_sigbus(int sig, siginfo_t *si, void *uc)
{
	const uint8_t *a = si->si_addr;
	(void)uc;
	for (struct lx *p = lx_k.procs; p; p = p->next)
		if (p->mm && a >= p->mm->mem.base && a < p->mm->mem.base + p->mm->mem.size) {
			static const char msg[] = "rvpmu: the program touched a file mapping past the "
				"file's end (another process shrank the file): killed by SIGBUS\n";
			ssize_t w = write(p->o.warn_fd, msg, sizeof(msg) - 1);
			(void)w;
			_exit(LINUX_EXIT_SIGNAL_BASE + LX_SIGBUS);
		}
	sigaction(sig, &old_sigbus, NULL);   /* the access faults again, there */
}

static void catch_host_sigbus(void)
{
	static bool done;
	struct sigaction sa = { .sa_sigaction = on_host_sigbus, .sa_flags = SA_SIGINFO };
	if (!done && !sigaction(SIGBUS, &sa, &old_sigbus))
		done = true;
}

long lx_fmap_map(struct lx *p, uint64_t addr, uint64_t len, unsigned prot, bool shared,
		 int h, uint64_t off)
{
	struct gmem *m = &p->mm->mem;
	struct stat st;
	int fl = fcntl(h, F_GETFL);
	if (fl < 0 || fstat(h, &st))
		return -EBADF;
	/* mmap(2): the file must be open for reading; a writable shared
	 * mapping needs it open for writing (the host refuses an append-only
	 * inode itself) */
	bool maywrite = (fl & O_ACCMODE) == O_RDWR;
	if ((fl & O_ACCMODE) == O_WRONLY || (shared && (prot & GP_W) && !maywrite))
		return -EACCES;
	if (reserve(p))
		return -ENOMEM;
	struct lx_fmap f = {
		.addr = addr, .len = len, .off = off, .prot = prot, .shared = shared,
		.maywrite = maywrite, .sized = S_ISREG(st.st_mode), .dev = st.st_dev, .ino = st.st_ino,
	};
	f.valid = file_part(&f, (uint64_t)st.st_size);
	if ((f.fd = fcntl(h, F_DUPFD_CLOEXEC, 3)) < 0)
		return -ENOMEM;
	long e = f.valid ? gmem_map_file(m, addr, f.valid, prot, f.fd, off, shared, !shared || maywrite) : 0;
	if (!e && f.valid < len && (e = gmem_map(m, addr + f.valid, len - f.valid, 0)) && f.valid) {
		unfile(p, addr, f.valid);
		gmem_unmap(m, addr, f.valid);
	}
	if (e) {
		close(f.fd);
		return e;
	}
	if (f.sized)
		catch_host_sigbus();
	p->mm->fmap[p->mm->nfmap++] = f;
	return 0;
}

int lx_fmap_release(struct lx *p, uint64_t a, uint64_t b)
{
	lx_perf_unmap(p, a, b);   /* a perf event's user page goes too */
	if (!p->mm->nfmap)
		return 0;
	if (split(p, a) || split(p, b))
		return -ENOMEM;
	for (int i = 0; i < p->mm->nfmap; i++) {
		struct lx_fmap *f = &p->mm->fmap[i];
		if (f->addr < a || f->addr + f->len > b)
			continue;
		unfile(p, f->addr, f->valid);
		close(f->fd);
		p->mm->fmap[i--] = p->mm->fmap[--p->mm->nfmap];
	}
	return 0;
}

void lx_fmap_release_all(struct lx *p)
{
	while (p->mm->nfmap)
		lx_fmap_release(p, p->mm->fmap[0].addr, p->mm->fmap[0].addr + p->mm->fmap[0].len);
	free(p->mm->fmap);
	p->mm->fmap = NULL;
}

long lx_fmap_protect(struct lx *p, uint64_t a, uint64_t len, unsigned prot)
{
	struct gmem *m = &p->mm->mem;
	uint64_t b = a + len;
	for (int i = 0; i < p->mm->nfmap; i++) {
		const struct lx_fmap *f = &p->mm->fmap[i];
		/* a shared mapping of a file not open for writing never may be */
		if (f->addr < b && a < f->addr + f->len && f->shared && (prot & GP_W) && !f->maywrite)
			return -EACCES;
	}
	if (split(p, a) || split(p, b))
		return -ENOMEM;
	gmem_protect(m, a, len, prot);
	for (int i = 0; i < p->mm->nfmap; i++) {
		struct lx_fmap *f = &p->mm->fmap[i];
		if (f->addr < a || f->addr + f->len > b)
			continue;
		f->prot = prot;
		if (f->valid < f->len)   /* past the file's end stays without access */
			gmem_protect(m, f->addr + f->valid, f->len - f->valid, 0);
	}
	return 0;
}

/* Map what the file now backs of f beyond valid (it grew). */
static void grow(struct lx *p, struct lx_fmap *f)
{
	uint64_t now = file_now(f);
	if (now > f->valid && !gmem_map_file(&p->mm->mem, f->addr + f->valid, now - f->valid, f->prot,
					     f->fd, f->off + f->valid, f->shared, !f->shared || f->maywrite))
		f->valid = now;
}

int lx_fmap_fault(struct lx *p, uint64_t a, unsigned need)
{
	struct lx_fmap *f = lx_fmap_at(p, a);
	if (!f || a - f->addr < f->valid || (f->prot & need) != need)
		return LX_FMAP_NONE;
	grow(p, f);
	return a - f->addr < f->valid ? LX_FMAP_RETRY : LX_FMAP_SIGBUS;
}

void lx_fmap_truncated(struct lx *p)
{
	for (int i = 0; i < p->mm->nfmap; i++) {
		struct lx_fmap *f = &p->mm->fmap[i];
		uint64_t now = file_now(f);
		if (now >= f->valid)
			continue;
		uint64_t a = f->addr + now, n = f->valid - now;
		unfile(p, a, n);
		gmem_protect(&p->mm->mem, a, n, 0);
		hart_invalidate_code(p->h, a, n);
		f->valid = now;
	}
}

void lx_fmap_sync_code(struct lx *p)
{
	for (int i = 0; i < p->mm->nfmap; i++)
		if (p->mm->fmap[i].shared && (p->mm->fmap[i].prot & GP_X))
			hart_invalidate_code(p->h, p->mm->fmap[i].addr, p->mm->fmap[i].len);
}

long lx_fmap_msync(struct lx *p, uint64_t a, uint64_t len, unsigned flags)
{
	/* the page cache is the file's: msync only asks the host to write
	 * it out (MS_ASYNC 1, MS_INVALIDATE 2, MS_SYNC 4, as on the host) */
	for (int i = 0; i < p->mm->nfmap; i++) {
		const struct lx_fmap *f = &p->mm->fmap[i];
		uint64_t lo = a > f->addr ? a : f->addr;
		uint64_t hi = a + len < f->addr + f->valid ? a + len : f->addr + f->valid;
		if (f->shared && lo < hi && msync(p->mm->mem.base + lo, hi - lo, (int)flags))
			return -errno;
	}
	return 0;
}
