/* User-mode guest address space (see gmem.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rvpmu/gmem.h"

uint64_t gmem_host_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
	/* In a container, cgroup v2 puts its memory limit at the root of
	 * the namespace's hierarchy ("max" when there is none). */
	FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
	unsigned long long lim;
	if (f) {
		if (fscanf(f, "%llu", &lim) == 1 && lim && (!ram || lim < ram))
			ram = lim;
		fclose(f);
	}
	return ram;
}

uint64_t gmem_space = GMEM_SPACE_MAX;

int gmem_init(struct gmem *m)
{
	memset(m, 0, sizeof(*m));
	if (!(m->acct = calloc(1, sizeof(*m->acct))))
		return -ENOMEM;
	/* NORESERVE: only the pages the guest touches cost host memory. */
	for (uint64_t size = gmem_space; size >= (1ull << 32); size >>= 1) {
		void *b = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (b == MAP_FAILED)
			continue;
		/* pflags, then absent */
		void *p = mmap(NULL, 2 * (size >> GPAGE_SHIFT), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			munmap(b, size);
			continue;
		}
		/* Huge host pages: random guest access then costs no more host
		 * TLB misses than the guest's own working set needs. */
		madvise(b, size, MADV_HUGEPAGE);
		m->base = b;
		m->pflags = p;
		m->absent = m->pflags + (size >> GPAGE_SHIFT);
		m->size = size;
		return 0;
	}
	free(m->acct);
	m->acct = NULL;
	return -ENOMEM;
}

void gmem_free(struct gmem *m)
{
	if (m->base)
		munmap(m->base, m->size);
	if (m->pflags)
		munmap(m->pflags, 2 * (m->size >> GPAGE_SHIFT));
	free(m->acct);
	m->base = m->pflags = m->absent = NULL;
	m->acct = NULL;
}

static bool range_ok(const struct gmem *m, uint64_t addr, uint64_t len)
{
	return len && addr < m->size && len <= m->size - addr &&
	       !(addr & (GPAGE_SIZE - 1));
}

/* The pages of [addr, addr+len) not mapped yet, if the bound allows
 * them (else -ENOMEM, and the bound is noted as reached). */
static int64_t fresh_bytes(struct gmem *m, uint64_t addr, uint64_t len)
{
	uint64_t fresh = 0;
	for (uint64_t p = addr >> GPAGE_SHIFT; p < (addr + len) >> GPAGE_SHIFT; p++)
		fresh += !m->pflags[p];
	fresh *= GPAGE_SIZE;
	struct gmem_acct *c = m->acct;
	if (c->max_bytes && c->mapped + fresh > c->max_bytes) {
		c->hit_max = true;
		return -ENOMEM;
	}
	return (int64_t)fresh;
}

static void set_mapped(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot, uint64_t fresh)
{
	/* 0x10 marks the page mapped even when it grants nothing */
	memset(m->pflags + (addr >> GPAGE_SHIFT), m->acct->demand ? 0x10 : (int)(prot & 7) | 0x10,
	       len >> GPAGE_SHIFT);
	memset(m->absent + (addr >> GPAGE_SHIFT), m->acct->demand ? GP_ABSENT | (int)(prot & 7) : 0,
	       len >> GPAGE_SHIFT);
	m->acct->mapped += fresh;
}

int gmem_map(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot)
{
	len = (len + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);
	if (!range_ok(m, addr, len))
		return -ENOMEM;
	int64_t fresh = fresh_bytes(m, addr, len);
	if (fresh < 0)
		return (int)fresh;
	/* Replacing a mapping drops its old contents, as MAP_FIXED does. */
	madvise(m->base + addr, len, MADV_DONTNEED);
	set_mapped(m, addr, len, prot, (uint64_t)fresh);
	return 0;
}

int gmem_map_file(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot,
		  int fd, uint64_t off, bool shared, bool writable)
{
	if (!range_ok(m, addr, len) || (len & (GPAGE_SIZE - 1)))
		return -ENOMEM;
	/* guest pages are host pages: one host page per guest page */
	if (sysconf(_SC_PAGESIZE) != (long)GPAGE_SIZE)
		return -ENODEV;
	int64_t fresh = fresh_bytes(m, addr, len);
	if (fresh < 0)
		return (int)fresh;
	/* Over the reservation, in place. Its checks (access mode, a file
	 * that cannot be mapped) come before it replaces anything. */
	void *b = mmap(m->base + addr, len, PROT_READ | (writable ? PROT_WRITE : 0),
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_FIXED, fd, (off_t)off);
	if (b == MAP_FAILED) {
		int e = errno;
		gmem_unfile(m, addr, len);   /* in case it took the range anyway */
		return -e;
	}
	set_mapped(m, addr, len, prot, (uint64_t)fresh);
	return 0;
}

int gmem_unfile(struct gmem *m, uint64_t addr, uint64_t len)
{
	if (!range_ok(m, addr, len))
		return -ENOMEM;
	void *b = mmap(m->base + addr, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	if (b == MAP_FAILED)
		return -errno;
	madvise(b, len, MADV_HUGEPAGE);   /* as gmem_init's, so it may merge back */
	return 0;
}

void gmem_unmap(struct gmem *m, uint64_t addr, uint64_t len)
{
	len = (len + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);
	if (!range_ok(m, addr, len))
		return;
	for (uint64_t p = addr >> GPAGE_SHIFT; p < (addr + len) >> GPAGE_SHIFT; p++) {
		if (m->pflags[p])
			m->acct->mapped -= GPAGE_SIZE;
		m->pflags[p] = m->absent[p] = 0;
	}
	madvise(m->base + addr, len, MADV_DONTNEED);
}

int gmem_protect(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot)
{
	len = (len + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);
	if (!range_ok(m, addr, len))
		return -ENOMEM;
	for (uint64_t p = addr >> GPAGE_SHIFT; p < (addr + len) >> GPAGE_SHIFT; p++)
		if (!m->pflags[p])
			return -ENOMEM;
	for (uint64_t p = addr >> GPAGE_SHIFT; p < (addr + len) >> GPAGE_SHIFT; p++) {
		uint8_t *f = m->absent[p] ? &m->absent[p] : &m->pflags[p];
		*f = (uint8_t)((*f & ~7u) | (prot & 7));
	}
	return 0;
}

static void make_present(struct gmem *m, uint64_t p)
{
	m->pflags[p] = (uint8_t)((m->pflags[p] & ~7u) | (m->absent[p] & 7));
	m->absent[p] = 0;
}

bool gmem_touch(struct gmem *m, uint64_t addr, unsigned need)
{
	uint64_t p = addr >> GPAGE_SHIFT;
	if (addr >= m->size || !m->absent[p] || (m->absent[p] & need) != need)
		return false;
	make_present(m, p);
	m->acct->faults[m->acct->in_kernel]++;
	return true;
}

void gmem_present(struct gmem *m, uint64_t addr, uint64_t len)
{
	for (uint64_t a = addr & ~(GPAGE_SIZE - 1); a < addr + len && a < m->size; a += GPAGE_SIZE)
		if (m->absent[a >> GPAGE_SHIFT])
			make_present(m, a >> GPAGE_SHIFT);
}

bool gmem_check(struct gmem *m, uint64_t addr, uint64_t len, unsigned need)
{
	if (!len)
		return true;
	if (addr >= m->size || len > m->size - addr)
		return false;
	for (uint64_t p = addr >> GPAGE_SHIFT; p <= (addr + len - 1) >> GPAGE_SHIFT; p++)
		if (((m->pflags[p] & need) != need || !m->pflags[p]) &&
		    !gmem_touch(m, p << GPAGE_SHIFT, need))
			return false;
	return true;
}

uint64_t gmem_find_free(const struct gmem *m, uint64_t len, uint64_t top)
{
	uint64_t n = (len + GPAGE_SIZE - 1) >> GPAGE_SHIFT, run = 0;
	if (!n || top > m->size)
		return 0;
	for (uint64_t p = top >> GPAGE_SHIFT; p-- > 16;) {
		run = m->pflags[p] ? 0 : run + 1;
		if (run == n)
			return p << GPAGE_SHIFT;
	}
	return 0;
}

void *gmem_ptr(struct gmem *m, uint64_t addr, uint64_t len, unsigned need)
{
	return gmem_check(m, addr, len, need) ? m->base + addr : NULL;
}

int gmem_read(struct gmem *m, uint64_t addr, void *buf, uint64_t len)
{
	void *p = gmem_ptr(m, addr, len, GP_R);
	if (!p)
		return -EFAULT;
	memcpy(buf, p, len);
	return 0;
}

int gmem_write(struct gmem *m, uint64_t addr, const void *buf, uint64_t len)
{
	void *p = gmem_ptr(m, addr, len, GP_W);
	if (!p)
		return -EFAULT;
	memcpy(p, buf, len);
	return 0;
}

long gmem_strlen(struct gmem *m, uint64_t addr, uint64_t max)
{
	for (uint64_t i = 0; i < max; i++) {
		if (!gmem_check(m, addr + i, 1, GP_R))
			return -EFAULT;
		if (!m->base[addr + i])
			return (long)i;
	}
	return -EFAULT;
}
