/* Address space syscalls: brk, mmap, munmap, mprotect, mremap, madvise,
 * msync. Page permissions live in gmem's page flags; PROT_READ/WRITE/EXEC
 * are the same bits as GP_R/W/X. File mappings are fmap.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
#define LX_MS_ASYNC            1
#define LX_MS_SYNC             4

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define PAGE_MASK_ (GPAGE_SIZE - 1)
#define PAGE_UP(a) (((a) + PAGE_MASK_) & ~PAGE_MASK_)

static bool range_in_space(struct lx *p, uint64_t a, uint64_t len)
{
	uint64_t size = p->mm->mem.size;
	return a >= GPAGE_SIZE && a < size && len <= size - a;
}

static bool range_free(struct lx *p, uint64_t a, uint64_t len)
{
	for (uint64_t q = a; q < a + len; q += GPAGE_SIZE)
		if (p->mm->mem.pflags[q >> GPAGE_SHIFT])
			return false;
	return true;
}

static bool range_mapped(struct lx *p, uint64_t a, uint64_t len)
{
	for (uint64_t q = a; q < a + len; q += GPAGE_SIZE)
		if (!p->mm->mem.pflags[q >> GPAGE_SHIFT])
			return false;
	return true;
}

static unsigned page_prot(struct lx *p, uint64_t a)
{
	return gmem_prot(&p->mm->mem, a);
}

static long sys_brk(struct lx *p, uint64_t want)
{
	if (want < p->mm->brk_start || want > LX_MMAP_TOP(p))
		return (long)p->mm->brk_cur;
	uint64_t old = PAGE_UP(p->mm->brk_cur), new = PAGE_UP(want);
	if (new > old) {
		if (!range_in_space(p, old, new - old) || !range_free(p, old, new - old) ||
		    gmem_map(&p->mm->mem, old, new - old, GP_R | GP_W))
			return (long)p->mm->brk_cur;
	} else if (new < old) {
		if (lx_fmap_release(p, new, old))
			return (long)p->mm->brk_cur;
		gmem_unmap(&p->mm->mem, new, old - new);
		hart_invalidate_code(p->h, new, old - new);
	}
	p->mm->brk_cur = want;
	return (long)want;
}

/* MAP_SHARED|MAP_ANONYMOUS: a file of zeros of its own (as shmem backs
 * it on Linux), mapped shared, so that a forked child shares it. */
static long shared_anon(struct lx *p, uint64_t addr, uint64_t len, unsigned prot)
{
	int h = memfd_create("dev/zero", MFD_CLOEXEC);
	if (h < 0)
		return -ENOMEM;
	long e = ftruncate(h, (off_t)len) ? -ENOMEM : lx_fmap_map(p, addr, len, prot, true, h, 0);
	close(h);
	return e;
}

static long sys_mmap(struct lx *p, const uint64_t *a)
{
	uint64_t addr = a[0], len = a[1], off = a[5];
	unsigned prot = (unsigned)a[2], flags = (unsigned)a[3];
	unsigned type = flags & LX_MAP_TYPE;
	bool anon = flags & LX_MAP_ANONYMOUS;
	bool fixed = flags & (LX_MAP_FIXED | LX_MAP_FIXED_NOREPLACE);
	struct gmem *m = &p->mm->mem;
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
	if (!anon && !perf && p->files->fkind[a[4]] != LX_FD_FILE && p->files->fkind[a[4]] != LX_FD_STREAM)
		return -ENODEV;   /* /dev/[u]random and /proc files cannot be mapped */

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
	long e = lx_fmap_release(p, addr, addr + len);
	if (e)
		return e;
	if (anon && (type & LX_MAP_SHARED))
		e = shared_anon(p, addr, len, prot);
	else if (anon || perf)
		e = gmem_map(m, addr, len, prot);
	else if ((e = lx_fmap_map(p, addr, len, prot, type & LX_MAP_SHARED, h, off)) && fixed)
		gmem_unmap(m, addr, len);   /* as Linux: what MAP_FIXED replaced is gone */
	if (e)
		return e;
	hart_invalidate_code(p->h, addr, len);
	if (perf)
		lx_perf_mmapped(p, a[4], addr, len);
	return (long)addr;
}

/* Where mremap puts a moved mapping of nlen bytes: a free range, or the
 * MREMAP_FIXED target (what was there goes). 0 with the error in *e. */
static uint64_t mremap_target(struct lx *p, const uint64_t *a, uint64_t old, uint64_t olen,
			      uint64_t nlen, long *e)
{
	uint64_t to = a[4];
	*e = -EINVAL;
	if (!(a[3] & LX_MREMAP_FIXED)) {
		if (!(to = gmem_find_free(&p->mm->mem, nlen, LX_MMAP_TOP(p))))
			*e = -ENOMEM;
		return to;
	}
	if ((to & PAGE_MASK_) || !range_in_space(p, to, nlen) || (to < old + olen && old < to + nlen))
		return 0;
	if ((*e = lx_fmap_release(p, to, to + nlen)))
		return 0;
	gmem_unmap(&p->mm->mem, to, nlen);
	return to;
}

long lx_munmap(struct lx *p, uint64_t a, uint64_t b)
{
	long e = lx_fmap_release(p, a, b);
	if (e)
		return e;
	gmem_unmap(&p->mm->mem, a, b - a);
	hart_invalidate_code(p->h, a, b - a);
	return 0;
}

/* A file mapping moves or grows as a mapping of the same file: more of
 * the file beyond its old end, and (MAP_PRIVATE) its copied pages with
 * it. old_size 0 maps the same pages of a shared mapping again. */
static long sys_mremap(struct lx *p, const uint64_t *a)
{
	uint64_t old = a[0], olen = PAGE_UP(a[1]), nlen = PAGE_UP(a[2]), flags = a[3], to;
	struct gmem *m = &p->mm->mem;
	long e;
	if (a[1] > m->size || a[2] > m->size)
		return -ENOMEM;
	if ((old & PAGE_MASK_) || !nlen || (flags & ~3ull) ||
	    ((flags & LX_MREMAP_FIXED) && !(flags & LX_MREMAP_MAYMOVE)))
		return -EINVAL;
	if (!range_in_space(p, old, olen ? olen : 1) || !range_mapped(p, old, olen ? olen : 1))
		return -EFAULT;
	/* Linux: the range must lie in one mapping */
	const struct lx_fmap *f = lx_fmap_at(p, old);
	struct lx_fmap fr = f ? *f : (struct lx_fmap){ .addr = old };
	for (int i = 0; i < p->mm->nfmap; i++)
		if (p->mm->fmap[i].addr < old + olen && old < p->mm->fmap[i].addr + p->mm->fmap[i].len &&
		    (!f || old + olen > fr.addr + fr.len))
			return -EFAULT;
	uint64_t foff = fr.off + (old - fr.addr);
	if (!olen) {
		if (!f || !fr.shared || !(flags & LX_MREMAP_MAYMOVE))
			return -EINVAL;
		if (!(to = mremap_target(p, a, old, olen, nlen, &e)))
			return e;
		e = lx_fmap_map(p, to, nlen, fr.prot, true, fr.fd, foff);
		return e ? e : (long)to;
	}
	if (!(flags & LX_MREMAP_FIXED)) {
		if (nlen <= olen)
			return nlen < olen && (e = lx_munmap(p, old + nlen, old + olen)) ? e : (long)old;
		if (range_in_space(p, old + olen, nlen - olen) && range_free(p, old + olen, nlen - olen)) {
			e = f ? lx_fmap_map(p, old + olen, nlen - olen, fr.prot, fr.shared, fr.fd, foff + olen)
			      : gmem_map(m, old + olen, nlen - olen, page_prot(p, old + olen - GPAGE_SIZE));
			return e ? e : (long)old;
		}
		if (!(flags & LX_MREMAP_MAYMOVE))
			return -ENOMEM;
	}
	if (!(to = mremap_target(p, a, old, olen, nlen, &e)))
		return e;
	uint64_t keep = MIN(olen, nlen);
	if (f) {
		if ((e = lx_fmap_map(p, to, nlen, fr.prot, fr.shared, fr.fd, foff)))
			return e;
		if (!fr.shared) {   /* pages past either's file end hold no data */
			uint64_t n = fr.valid > old - fr.addr ? fr.valid - (old - fr.addr) : 0;
			n = MIN(MIN(n, keep), lx_fmap_at(p, to)->valid);
			memcpy(m->base + to, m->base + old, n);
		}
	} else {
		if ((e = gmem_map(m, to, nlen, GP_R | GP_W)))
			return e;
		memcpy(m->base + to, m->base + old, keep);
		unsigned tail = page_prot(p, old + olen - GPAGE_SIZE);
		for (uint64_t q = 0; q < nlen; q += GPAGE_SIZE)
			gmem_protect(m, to + q, GPAGE_SIZE, q < olen ? page_prot(p, old + q) : tail);
	}
	hart_invalidate_code(p->h, to, nlen);
	e = lx_munmap(p, old, old + olen);
	return e ? e : (long)to;
}

long lx_sys_mm(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct gmem *m = &p->mm->mem;
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
		return lx_munmap(p, a[0], a[0] + len);
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
		long e = lx_fmap_protect(p, a[0], len, (unsigned)a[2]);
		hart_invalidate_code(p->h, a[0], len);
		return e;
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
		/* private anonymous memory reads back as zero afterwards, a
		 * file mapping's pages as the file has them */
		for (uint64_t q = a[0], end = a[0] + len, r; q < end; q = r) {
			unsigned prot = page_prot(p, q);   /* a run of one protection at once */
			for (r = q + GPAGE_SIZE; r < end && page_prot(p, r) == prot; r += GPAGE_SIZE)
				;
			gmem_map(m, q, r - q, prot);
		}
		hart_invalidate_code(p->h, a[0], len);
		return 0;
	}
	case NR_msync: {
		uint64_t len = PAGE_UP(a[1]);
		if ((a[0] & PAGE_MASK_) || a[1] > m->size || (a[2] & ~7ull) ||
		    (a[2] & (LX_MS_ASYNC | LX_MS_SYNC)) == (LX_MS_ASYNC | LX_MS_SYNC))
			return -EINVAL;
		if (a[0] >= m->size || len > m->size - a[0] || !range_mapped(p, a[0], len))
			return -ENOMEM;
		return lx_fmap_msync(p, a[0], len, (unsigned)a[2]);
	}
	}
	*handled = false;
	return 0;
}
