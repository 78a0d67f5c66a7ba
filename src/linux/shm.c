/* System V shared memory (shmget, shmat, shmdt, shmctl): a segment is
 * a host memfd, and an attach is a shared mapping of it (fmap.c), so
 * the processes that attach it, and a forked child's copy of an attach,
 * see one memory. Segments belong to the run (one IPC namespace); ids
 * are their indexes, in the order they are made. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

/* include/uapi/linux/ipc.h, shm.h */
#define IPC_PRIVATE 0
#define IPC_CREAT  01000
#define IPC_EXCL   02000
#define IPC_RMID   0
#define IPC_SET    1
#define IPC_STAT   2
#define SHM_RDONLY 010000
#define SHM_RND    020000
#define SHM_EXEC   0100000
#define SHM_MAX    64

static struct seg {
	bool used, removed;
	int32_t key;
	uint64_t size;
	int fd;
	uint32_t mode;
	int cpid, lpid;
	uint64_t ino;
} segs[SHM_MAX];

static uint64_t ino_of(int fd)
{
	struct stat st;
	return fstat(fd, &st) ? 0 : st.st_ino;
}

/* How many mappings of the segment there are, in every address space. */
static uint64_t nattch(const struct seg *s)
{
	uint64_t n = 0;
	for (struct lx *p = lx_k.procs; p; p = p->next) {
		bool seen = !p->mm;   /* an address space shared with an earlier process */
		for (struct lx *q = lx_k.procs; q != p && !seen; q = q->next)
			seen = q->mm == p->mm;
		for (int i = 0; !seen && i < p->mm->nfmap; i++)
			n += p->mm->fmap[i].ino == s->ino && p->mm->fmap[i].shared;
	}
	return n;
}

static void drop(struct seg *s)
{
	if (s->used && s->removed && !nattch(s)) {
		close(s->fd);
		s->used = false;
	}
}

void lx_shm_free_all(void)
{
	for (int i = 0; i < SHM_MAX; i++)
		if (segs[i].used)
			close(segs[i].fd);
	memset(segs, 0, sizeof(segs));
}

static long shmget(struct lx *p, int32_t key, uint64_t size, int flags)
{
	for (int i = 0; key != IPC_PRIVATE && i < SHM_MAX; i++)
		if (segs[i].used && !segs[i].removed && segs[i].key == key) {
			if ((flags & IPC_CREAT) && (flags & IPC_EXCL))
				return -EEXIST;
			return size > segs[i].size ? -EINVAL : i;
		}
	if (key != IPC_PRIVATE && !(flags & IPC_CREAT))
		return -ENOENT;
	if (!size || size > p->mm->mem.size / 2)
		return -EINVAL;
	int i = 0;
	while (i < SHM_MAX && segs[i].used)
		i++;
	if (i == SHM_MAX)
		return -ENOSPC;
	int fd = memfd_create("SYSV", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size)) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	segs[i] = (struct seg){ .used = true, .key = key, .size = size, .fd = fd,
				.mode = (uint32_t)flags & 0777, .cpid = p->pid, .ino = ino_of(fd) };
	return i;
}

static struct seg *seg_of(int64_t id)
{
	return id >= 0 && id < SHM_MAX && segs[id].used ? &segs[id] : NULL;
}

static long shmat(struct lx *p, int64_t id, uint64_t addr, int flags)
{
	struct seg *s = seg_of(id);
	if (!s || s->removed)
		return -EINVAL;
	uint64_t len = (s->size + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);
	if (flags & SHM_RND)
		addr &= ~(GPAGE_SIZE - 1);
	if (addr & (GPAGE_SIZE - 1))
		return -EINVAL;
	if (!addr && !(addr = gmem_find_free(&p->mm->mem, len, LX_MMAP_TOP(p))))
		return -ENOMEM;
	if (addr >= p->mm->mem.size || len > p->mm->mem.size - addr)
		return -EINVAL;
	for (uint64_t q = addr; q < addr + len; q += GPAGE_SIZE)
		if (p->mm->mem.pflags[q >> GPAGE_SHIFT])
			return -EINVAL;   /* no SHM_REMAP: it must be free */
	unsigned prot = GP_R | (flags & SHM_RDONLY ? 0 : GP_W) | (flags & SHM_EXEC ? GP_X : 0);
	long e = lx_fmap_map(p, addr, len, prot, true, s->fd, 0);
	if (e)
		return e;
	s->lpid = p->pid;
	return (long)addr;
}

static long shmdt(struct lx *p, uint64_t addr)
{
	struct lx_fmap *f = lx_fmap_at(p, addr);
	for (int i = 0; f && f->addr == addr && i < SHM_MAX; i++)
		if (segs[i].used && segs[i].ino == f->ino) {
			long e = lx_munmap(p, f->addr, f->addr + f->len);
			segs[i].lpid = p->pid;
			drop(&segs[i]);
			return e;
		}
	return -EINVAL;
}

/* struct shmid64_ds of asm-generic/shmbuf.h on riscv64 (112 bytes). */
static long shm_stat(struct lx *p, const struct seg *s, uint64_t ua)
{
	uint8_t b[112] = { 0 };
	uint32_t ids[6] = { (uint32_t)s->key, getuid(), getgid(), getuid(), getgid(), s->mode };
	memcpy(b, ids, sizeof(ids));
	uint64_t n = nattch(s);
	int32_t pids[2] = { s->cpid, s->lpid };
	memcpy(b + 48, &s->size, 8);
	memcpy(b + 80, pids, 8);
	memcpy(b + 88, &n, 8);
	return lx_put(p, ua, b, sizeof(b));
}

long lx_sys_shm(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct seg *s;
	*handled = true;
	switch (nr) {
	case NR_shmget:
		return shmget(p, (int32_t)a[0], a[1], (int)a[2]);
	case NR_shmat:
		return shmat(p, (int32_t)a[0], a[1], (int)a[2]);
	case NR_shmdt:
		return shmdt(p, a[0]);
	case NR_shmctl:
		if (!(s = seg_of((int32_t)a[0])))
			return -EINVAL;
		switch ((int)a[1] & 0xff) {
		case IPC_RMID:
			s->removed = true;
			drop(s);
			return 0;
		case IPC_STAT:
			return shm_stat(p, s, a[2]);
		case IPC_SET: {
			uint32_t mode;
			if (lx_get(p, a[2] + 20, &mode, 4))
				return -EFAULT;
			s->mode = mode & 0777;
			return 0;
		}
		}
		return -EINVAL;
	}
	*handled = false;
	return 0;
}
