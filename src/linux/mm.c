/* Address space syscalls: brk, mmap (anonymous and private file
 * mappings), munmap, mprotect, mremap, madvise. Page permissions live in
 * gmem's page flags; PROT_READ/WRITE/EXEC are the same bits as GP_R/W/X. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lx.h"

/* include/uapi/asm-generic/mman-common.h and mman.h */
#define LX_MAP_SHARED          0x01
#define LX_MAP_PRIVATE         0x02
#define LX_MAP_SHARED_VALIDATE 0x03
#define LX_MAP_TYPE            0x0f
#define LX_MAP_FIXED           0x10
#define LX_MAP_ANONYMOUS       0x20
#define LX_MAP_FIXED_NOREPLACE 0x100000
#define LX_MREMAP_MAYMOVE      1
#define LX_MREMAP_FIXED        2
#define LX_MADV_DONTNEED       4

#define PAGE_MASK_ (GPAGE_SIZE - 1)
#define PAGE_UP(a) (((a) + PAGE_MASK_) & ~PAGE_MASK_)

static bool range_in_space(struct lx *p, uint64_t a, uint64_t len)
{
	uint64_t size = p->h->mem.size;
	return a >= GPAGE_SIZE && a < size && len <= size - a;
}

static bool range_free(struct lx *p, uint64_t a, uint64_t len)
{
	for (uint64_t q = a; q < a + len; q += GPAGE_SIZE)
		if (p->h->mem.pflags[q >> GPAGE_SHIFT])
			return false;
	return true;
}

static bool range_mapped(struct lx *p, uint64_t a, uint64_t len)
{
	for (uint64_t q = a; q < a + len; q += GPAGE_SIZE)
		if (!p->h->mem.pflags[q >> GPAGE_SHIFT])
			return false;
	return true;
}

static unsigned page_prot(struct lx *p, uint64_t a)
{
	return p->h->mem.pflags[a >> GPAGE_SHIFT] & (GP_R | GP_W | GP_X);
}

/* Write the bytes of [a, b) that the guest changed since snap back to the
 * file. Only whole runs of changed bytes are written, so file writes made
 * through write(2) elsewhere in the range survive. */
static void shared_sync(struct lx *p, struct lx_shared *s, uint64_t a, uint64_t b)
{
	const uint8_t *mem = p->h->mem.base;
	if (a < s->addr)
		a = s->addr;
	if (b > s->addr + s->len)
		b = s->addr + s->len;
	for (uint64_t i = a; i < b;) {
		uint64_t k = i - s->addr;
		/* unreadable (PROT_NONE) pages cannot have been changed */
		if (!gmem_check(&p->h->mem, i, 1, GP_R) || mem[i] == s->snap[k]) {
			i++;
			continue;
		}
		uint64_t j = i;
		while (j < b && gmem_check(&p->h->mem, j, 1, GP_R) && mem[j] != s->snap[j - s->addr])
			j++;
		ssize_t w = pwrite(s->fd, mem + i, j - i, (off_t)(s->off + k));
		if (w > 0)
			memcpy(s->snap + k, mem + i, (size_t)w);
		i = j;
	}
}

static void shared_drop(struct lx *p, int i)
{
	close(p->shm[i].fd);
	free(p->shm[i].snap);
	p->shm[i] = p->shm[--p->nshm];
}

/* [a, b) stops being mapped (munmap, MAP_FIXED over it, mremap): write it
 * back, then cut it out of the mappings, splitting one if needed. */
static void shared_release(struct lx *p, uint64_t a, uint64_t b)
{
	lx_perf_unmap(p, a, b);   /* a perf event's user page goes too */
	for (int i = 0; i < p->nshm; i++) {
		struct lx_shared *s = &p->shm[i];
		uint64_t e = s->addr + s->len;
		if (b <= s->addr || a >= e)
			continue;
		shared_sync(p, s, a, b);
		if (a <= s->addr && b >= e) {
			shared_drop(p, i--);
			continue;
		}
		if (a > s->addr && b < e) {   /* a hole: keep the right part too */
			struct lx_shared *n = realloc(p->shm, (size_t)(p->nshm + 1) * sizeof(*n));
			if (n)
				p->shm = n;
			s = &p->shm[i];
			uint8_t *snap = malloc(e - b);
			int fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 3);
			if (n && snap && fd >= 0) {
				memcpy(snap, s->snap + (b - s->addr), e - b);
				p->shm[p->nshm++] = (struct lx_shared){ b, e - b, s->off + (b - s->addr), fd, snap };
				s = &p->shm[i];
			} else {
				free(snap);
				if (fd >= 0)
					close(fd);
			}
			s->len = a - s->addr;
		} else if (a <= s->addr) {    /* the front goes */
			memmove(s->snap, s->snap + (b - s->addr), e - b);
			s->off += b - s->addr;
			s->len = e - b;
			s->addr = b;
		} else {                      /* the tail goes */
			s->len = a - s->addr;
		}
	}
}

void lx_shared_release_all(struct lx *p)
{
	while (p->nshm)
		shared_release(p, p->shm[0].addr, p->shm[0].addr + p->shm[0].len);
	free(p->shm);
	p->shm = NULL;
}

static long shared_add(struct lx *p, uint64_t addr, uint64_t len, uint64_t off, int h)
{
	struct lx_shared *n = realloc(p->shm, (size_t)(p->nshm + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->shm = n;
	uint8_t *snap = malloc(len);
	int fd = fcntl(h, F_DUPFD_CLOEXEC, 3);
	if (!snap || fd < 0) {
		free(snap);
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	memcpy(snap, p->h->mem.base + addr, len);
	p->shm[p->nshm++] = (struct lx_shared){ addr, len, off, fd, snap };
	return 0;
}

static long sys_brk(struct lx *p, uint64_t want)
{
	if (want < p->brk_start || want > LX_MMAP_TOP(p))
		return (long)p->brk_cur;
	uint64_t old = PAGE_UP(p->brk_cur), new = PAGE_UP(want);
	if (new > old) {
		if (!range_in_space(p, old, new - old) || !range_free(p, old, new - old) ||
		    gmem_map(&p->h->mem, old, new - old, GP_R | GP_W))
			return (long)p->brk_cur;
	} else if (new < old) {
		gmem_unmap(&p->h->mem, new, old - new);
		hart_invalidate_code(p->h, new, old - new);
	}
	p->brk_cur = want;
	return (long)want;
}

/* Fill [a, a+len) from the file at off; bytes past end of file stay 0. */
static long fill_from_file(struct lx *p, int h, uint64_t a, uint64_t len, uint64_t off)
{
	uint8_t *dst = p->h->mem.base + a;
	uint64_t done = 0;
	while (done < len) {
		ssize_t r = pread(h, dst + done, len - done, (off_t)(off + done));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno == ESPIPE || errno == EISDIR ? -ENODEV : -errno;
		}
		if (r == 0)
			break;
		done += (uint64_t)r;
	}
	return 0;
}

static long sys_mmap(struct lx *p, const uint64_t *a)
{
	uint64_t addr = a[0], len = a[1], off = a[5];
	unsigned prot = (unsigned)a[2], flags = (unsigned)a[3];
	unsigned type = flags & LX_MAP_TYPE;
	bool anon = flags & LX_MAP_ANONYMOUS;
	bool fixed = flags & (LX_MAP_FIXED | LX_MAP_FIXED_NOREPLACE);
	struct gmem *m = &p->h->mem;
	if (!len || (off & PAGE_MASK_) || prot & ~7u)
		return -EINVAL;
	if (type != LX_MAP_SHARED && type != LX_MAP_PRIVATE && type != LX_MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (len > m->size)
		return -ENOMEM;
	len = PAGE_UP(len);
	int h = -1;
	/* a perf event fd maps its user page: memory that rvpmu fills */
	bool perf = !anon && lx_perf_fd(p, a[4]);
	long pe = perf ? lx_perf_mmap_check(p, a) : 0;
	if (pe)
		return pe;
	if (!anon && !perf && (h = lx_host_fd(p, a[4])) < 0)
		return -EBADF;

	if (fixed) {
		if (addr & PAGE_MASK_)
			return -EINVAL;
		if (!range_in_space(p, addr, len))
			return -ENOMEM;
		if ((flags & LX_MAP_FIXED_NOREPLACE) && !(flags & LX_MAP_FIXED) &&
		    !range_free(p, addr, len))
			return -EEXIST;
	} else if (addr && !(addr & PAGE_MASK_) && range_in_space(p, addr, len) &&
		   addr + len <= LX_MMAP_TOP(p) && range_free(p, addr, len)) {
		/* the hint is free: take it, as Linux does */
	} else {
		addr = gmem_find_free(m, len, LX_MMAP_TOP(p));
		if (!addr)
			return -ENOMEM;
	}
	shared_release(p, addr, addr + len);
	long e = gmem_map(m, addr, len, anon || perf ? prot : GP_R | GP_W);
	if (e)
		return e;
	hart_invalidate_code(p->h, addr, len);
	if (perf) {
		lx_perf_mmapped(p, a[4], addr, len);
		return (long)addr;
	}
	if (!anon) {
		if ((e = fill_from_file(p, h, addr, len, off)) ||
		    ((type & LX_MAP_SHARED) && (e = shared_add(p, addr, len, off, h)))) {
			gmem_unmap(m, addr, len);
			return e;
		}
		gmem_protect(m, addr, len, prot);
	}
	return (long)addr;
}

static long sys_mremap(struct lx *p, const uint64_t *a)
{
	uint64_t old = a[0], olen = PAGE_UP(a[1]), nlen = PAGE_UP(a[2]), flags = a[3], to = a[4];
	struct gmem *m = &p->h->mem;
	if (a[1] > m->size || a[2] > m->size)
		return -ENOMEM;
	if ((old & PAGE_MASK_) || !nlen || (flags & ~3ull) ||
	    ((flags & LX_MREMAP_FIXED) && !(flags & LX_MREMAP_MAYMOVE)))
		return -EINVAL;
	if (!olen)
		return -EINVAL;  /* duplicating a shared mapping: not modelled */
	if (!range_in_space(p, old, olen) || !range_mapped(p, old, olen))
		return -EFAULT;
	/* a moved or resized shared mapping goes on as a private copy */
	shared_release(p, old, old + olen);
	if (!(flags & LX_MREMAP_FIXED)) {
		if (nlen <= olen) {
			if (nlen < olen) {
				gmem_unmap(m, old + nlen, olen - nlen);
				hart_invalidate_code(p->h, old + nlen, olen - nlen);
			}
			return (long)old;
		}
		if (range_in_space(p, old + olen, nlen - olen) && range_free(p, old + olen, nlen - olen)) {
			long e = gmem_map(m, old + olen, nlen - olen, page_prot(p, old + olen - GPAGE_SIZE));
			return e ? e : (long)old;
		}
		if (!(flags & LX_MREMAP_MAYMOVE))
			return -ENOMEM;
		to = gmem_find_free(m, nlen, LX_MMAP_TOP(p));
		if (!to)
			return -ENOMEM;
	} else {
		if ((to & PAGE_MASK_) || !range_in_space(p, to, nlen))
			return -EINVAL;
		if (to < old + olen && old < to + nlen)
			return -EINVAL;
		shared_release(p, to, to + nlen);
		gmem_unmap(m, to, nlen);
	}
	long e = gmem_map(m, to, nlen, GP_R | GP_W);
	if (e)
		return e;
	uint64_t keep = olen < nlen ? olen : nlen;
	memcpy(m->base + to, m->base + old, keep);
	unsigned tail = page_prot(p, old + olen - GPAGE_SIZE);
	for (uint64_t q = 0; q < nlen; q += GPAGE_SIZE)
		gmem_protect(m, to + q, GPAGE_SIZE, q < olen ? page_prot(p, old + q) : tail);
	gmem_unmap(m, old, olen);
	hart_invalidate_code(p->h, old, olen);
	hart_invalidate_code(p->h, to, nlen);
	return (long)to;
}

long lx_sys_mm(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct gmem *m = &p->h->mem;
	*handled = true;
	switch (nr) {
	case NR_brk:
		return sys_brk(p, a[0]);
	case NR_mmap:
		return sys_mmap(p, a);
	case NR_munmap: {
		uint64_t len = PAGE_UP(a[1]);
		if ((a[0] & PAGE_MASK_) || !a[1] || a[1] > m->size || a[0] >= m->size ||
		    len > m->size - a[0])
			return -EINVAL;
		shared_release(p, a[0], a[0] + len);
		gmem_unmap(m, a[0], len);
		hart_invalidate_code(p->h, a[0], len);
		return 0;
	}
	case NR_mprotect: {
		uint64_t len = PAGE_UP(a[1]);
		if ((a[0] & PAGE_MASK_) || (a[2] & ~7ull))
			return -EINVAL;
		if (a[1] > m->size)
			return -ENOMEM;
		if (!len)
			return 0;
		if (a[0] >= m->size || len > m->size - a[0] || !range_mapped(p, a[0], len))
			return -ENOMEM;
		gmem_protect(m, a[0], len, (unsigned)a[2]);
		hart_invalidate_code(p->h, a[0], len);
		return 0;
	}
	case NR_mremap:
		return sys_mremap(p, a);
	case NR_madvise: {
		uint64_t len = PAGE_UP(a[1]);
		if ((a[0] & PAGE_MASK_) || a[1] > m->size)
			return -EINVAL;
		if (a[2] != LX_MADV_DONTNEED || !len)
			return 0;
		if (a[0] >= m->size || len > m->size - a[0] || !range_mapped(p, a[0], len))
			return -ENOMEM;
		/* private anonymous memory reads back as zero afterwards */
		for (uint64_t q = a[0]; q < a[0] + len; q += GPAGE_SIZE)
			gmem_map(m, q, GPAGE_SIZE, page_prot(p, q));
		hart_invalidate_code(p->h, a[0], len);
		return 0;
	}
	case NR_msync: {
		uint64_t len = PAGE_UP(a[1]);
		if ((a[0] & PAGE_MASK_) || a[1] > m->size)
			return -EINVAL;
		for (int i = 0; i < p->nshm; i++)
			shared_sync(p, &p->shm[i], a[0], a[0] + len);
		return 0;
	}
	}
	*handled = false;
	return 0;
}
