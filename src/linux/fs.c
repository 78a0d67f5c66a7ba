/* Files: the guest fd table over host fds, path translation (--sysroot),
 * and the file syscalls. Layouts that differ between riscv64 and the
 * x86_64 host (struct stat) are translated; the rest (statx, dirent64,
 * iovec, termios, flock, open flags, AT_* flags) are the same generic
 * layouts and values on both and pass through. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "lx.h"

#define LX_AT_FDCWD (-100)
#define LX_AT_EMPTY_PATH 0x1000
#define LX_IOV_MAX 1024

/* Guest path -> host path: absolute paths go under --sysroot, except the
 * kernel's own trees, which are the host's (as /dev/null must work). */
static int host_path(struct lx *p, const char *s, char *out, size_t size)
{
	size_t n = strlen(s);
	const char *root = p->o.sysroot;
	bool host = !strncmp(s, "/dev/", 5) || !strncmp(s, "/proc/", 6) ||
		    !strncmp(s, "/sys/", 5) || !strcmp(s, "/dev") || !strcmp(s, "/proc");
	if (root && *root && s[0] == '/' && !host) {
		if (snprintf(out, size, "%s%s", root, s) >= (int)size)
			return -ENAMETOOLONG;
	} else {
		if (n >= size)
			return -ENAMETOOLONG;
		memcpy(out, s, n + 1);
	}
	return 0;
}

static int get_path(struct lx *p, uint64_t ga, char *out, size_t size)
{
	long n = gmem_strlen(&p->mm->mem, ga, PATH_MAX);
	if (n < 0)
		return ga && gmem_check(&p->mm->mem, ga, 1, GP_R) ? -ENAMETOOLONG : -EFAULT;
	return host_path(p, (const char *)p->mm->mem.base + ga, out, size);
}

/* dirfd argument: AT_FDCWD, or a guest fd; ignored for absolute paths. */
static int get_dirfd(struct lx *p, uint64_t g, const char *path)
{
	if ((int32_t)g == LX_AT_FDCWD || (path && path[0] == '/'))
		return AT_FDCWD;
	int h = lx_host_fd(p, (uint32_t)g);
	return h < 0 ? -EBADF : h;
}

/* A host call's result as the guest sees it: -errno on failure. */
static long ERR(long r)
{
	return r < 0 ? -errno : r;
}

/* riscv64 struct stat: include/uapi/asm-generic/stat.h, 128 bytes. */
struct rv_stat {
	uint64_t st_dev, st_ino;
	uint32_t st_mode, st_nlink, st_uid, st_gid;
	uint64_t st_rdev, pad1;
	int64_t st_size;
	int32_t st_blksize, pad2;
	int64_t st_blocks;
	int64_t st_atime_, st_atime_nsec, st_mtime_, st_mtime_nsec, st_ctime_, st_ctime_nsec;
	uint32_t unused4, unused5;
};
_Static_assert(sizeof(struct rv_stat) == 128, "riscv64 struct stat is 128 bytes");

static long put_stat(struct lx *p, uint64_t ga, const struct stat *st)
{
	struct rv_stat r = {
		.st_dev = st->st_dev, .st_ino = st->st_ino, .st_mode = st->st_mode,
		.st_nlink = (uint32_t)st->st_nlink, .st_uid = st->st_uid,
		.st_gid = st->st_gid, .st_rdev = st->st_rdev, .st_size = st->st_size,
		.st_blksize = (int32_t)st->st_blksize, .st_blocks = st->st_blocks,
		.st_atime_ = st->st_atim.tv_sec, .st_atime_nsec = st->st_atim.tv_nsec,
		.st_mtime_ = st->st_mtim.tv_sec, .st_mtime_nsec = st->st_mtim.tv_nsec,
		.st_ctime_ = st->st_ctim.tv_sec, .st_ctime_nsec = st->st_ctim.tv_nsec,
	};
	return lx_put(p, ga, &r, sizeof(r));
}

/* After a call that may have shrunk a file (r its result): the file
 * mappings give back the pages past its new end. */
static long resized(struct lx *p, long r)
{
	if (p->mm->nfmap && r >= 0)
		lx_fmap_truncated(p);
	return r;
}

/* A read of n bytes from /dev/[u]random: what getrandom(n) would give. A
 * write is taken and changes nothing (Linux mixes it into its pool). */
static long random_rw(struct lx *p, bool rd, void *buf, uint64_t n)
{
	if (rd)
		lx_random_bytes(p, buf, n);
	return (long)n;
}

/* A read, write, readv or writev (not at a position) of guest fd g that
 * may have to wait: pipe.c's. */
static bool stream(struct lx *p, int nr, uint64_t g)
{
	uint8_t k = p->files->fkind[g];
	return (k == LX_FD_PIPE || k == LX_FD_STREAM) && nr != NR_pread64 && nr != NR_pwrite64;
}

static long do_rw(struct lx *p, int nr, const uint64_t *a)
{
	int h = lx_host_fd(p, a[0]);
	if (h < 0)
		return -EBADF;
	bool rd = nr == NR_read || nr == NR_pread64;
	void *buf = rd ? lx_wptr(p, a[1], a[2]) : (void *)lx_rptr(p, a[1], a[2]);
	if (!buf)
		return -EFAULT;
	if (p->files->fkind[a[0]] == LX_FD_RANDOM)
		return random_rw(p, rd, buf, a[2] > (1u << 25) ? 1u << 25 : a[2]);
	bool done = false;
	long w = stream(p, nr, a[0]) ? lx_stream_rw(p, a[0], rd, buf, a[2], &done) : 0;
	if (done)
		return w;
	ssize_t r;
	switch (nr) {
	case NR_read: r = read(h, buf, a[2]); break;
	case NR_write: r = write(h, buf, a[2]); break;
	case NR_pread64: r = pread(h, buf, a[2], (off_t)a[3]); break;
	default: r = pwrite(h, buf, a[2], (off_t)a[3]); break;
	}
	return ERR(r);
}

static long do_rwv(struct lx *p, int nr, const uint64_t *a)
{
	int h = lx_host_fd(p, a[0]);
	if (h < 0)
		return -EBADF;
	if (a[2] > LX_IOV_MAX)
		return -EINVAL;
	int n = (int)a[2];
	const uint8_t *gv = lx_rptr(p, a[1], (uint64_t)n * 16);
	if (!gv)
		return -EFAULT;
	struct iovec *v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		uint64_t base, len;   /* guest pointers need not be aligned */
		memcpy(&base, gv + 16 * i, 8);
		memcpy(&len, gv + 16 * i + 8, 8);
		v[i].iov_len = len;
		v[i].iov_base = nr == NR_readv ? lx_wptr(p, base, len) : (void *)lx_rptr(p, base, len);
		if (!v[i].iov_base) {
			free(v);
			return -EFAULT;
		}
	}
	ssize_t r = 0;
	bool done = false;
	if (p->files->fkind[a[0]] == LX_FD_RANDOM) {
		for (int i = 0; i < n; i++)
			r += random_rw(p, nr == NR_readv, v[i].iov_base, v[i].iov_len);
	} else if (stream(p, nr, a[0])) {
		/* a write to a pipe goes in one piece, so that what a wait
		 * left undone is a count of bytes */
		uint64_t total = 0;
		for (int i = 0; i < n; i++)
			total += v[i].iov_len;
		uint8_t *flat = nr == NR_writev && total ? malloc(total) : NULL;
		for (uint64_t i = 0, o = 0; flat && i < (uint64_t)n; o += v[i].iov_len, i++)
			memcpy(flat + o, v[i].iov_base, v[i].iov_len);
		if (nr == NR_writev && total && !flat) {
			free(v);
			return -ENOMEM;
		}
		long w = lx_stream_rw(p, a[0], nr == NR_readv, flat ? flat : v[0].iov_base,
				      total, &done);
		free(flat);
		if (done) {
			free(v);
			return w;
		}
	}
	if (!done && p->files->fkind[a[0]] != LX_FD_RANDOM)
		r = nr == NR_readv ? readv(h, v, n) : writev(h, v, n);
	free(v);
	return ERR(r);
}

/* The host's path of host directory fd h (AT_FDCWD: the cwd): 0 or -1. */
static int dir_path(int h, char *dir, size_t n)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", h);
	ssize_t k = h == AT_FDCWD ? (getcwd(dir, n) ? (ssize_t)strlen(dir) : -1) :
		    readlink(link, dir, n - 1);
	if (k < 0)
		return -1;
	dir[k] = 0;
	return 0;
}

static bool in_proc(const char *path)
{
	return !strncmp(path, "/proc", 5) && (!path[5] || path[5] == '/');
}

/* What host fd h is to the program: /dev/random and /dev/urandom (char
 * 1:8, 1:9) by any name read the deterministic stream getrandom gives,
 * not the host's; relative paths from a directory in /proc must be looked
 * at as absolute ones; a pipe, socket or device may make a read wait. */
uint8_t lx_fd_kind(int h)
{
	struct stat st;
	char dir[PATH_MAX];
	if (fstat(h, &st))
		return LX_FD_FILE;
	if (S_ISCHR(st.st_mode) && (st.st_rdev == makedev(1, 8) || st.st_rdev == makedev(1, 9)))
		return LX_FD_RANDOM;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode))
		return LX_FD_STREAM;
	return S_ISDIR(st.st_mode) && !dir_path(h, dir, sizeof(dir)) && in_proc(dir) ?
	       LX_FD_PROCDIR : LX_FD_FILE;
}

/* A guest path (dirfd, ga) as the host takes it, after --sysroot and
 * procfs.c: 0 or -errno. A relative path from a directory in /proc (the
 * dirfd's, or the cwd) is made absolute first, so that "self/maps" from
 * /proc is the program's own too. */
static int proc_path(struct lx *p, uint64_t dirfd, const char *guest, struct lx_proc *r)
{
	char path[PATH_MAX + 256], dir[PATH_MAX];
	int e = host_path(p, guest, path, sizeof(path));
	if (e)
		return e;
	bool at_cwd = (int32_t)dirfd == LX_AT_FDCWD;
	if (path[0] && path[0] != '/' && (at_cwd ? p->cwd_in_proc : dirfd < LX_NFD &&
					   p->files->fkind[dirfd] == LX_FD_PROCDIR)) {
		if (dir_path(at_cwd ? AT_FDCWD : p->files->fd[dirfd], dir, sizeof(dir)))
			return -ENOENT;
		char rel[PATH_MAX + 256];
		memcpy(rel, path, sizeof(rel));
		if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
			return -ENAMETOOLONG;
	}
	return lx_proc_resolve(p, path, r);
}

static int get_proc_path(struct lx *p, uint64_t dirfd, uint64_t ga, struct lx_proc *r)
{
	long n = gmem_strlen(&p->mm->mem, ga, PATH_MAX);
	if (n < 0)
		return ga && gmem_check(&p->mm->mem, ga, 1, GP_R) ? -ENAMETOOLONG : -EFAULT;
	return proc_path(p, dirfd, (const char *)p->mm->mem.base + ga, r);
}

int lx_open_exec(struct lx *p, uint64_t dirfd, const char *path, bool empty_path)
{
	struct lx_proc pr;
	struct stat st;
	int h;
	if (empty_path) {
		int d = lx_host_fd(p, (uint32_t)dirfd);
		h = d < 0 ? -EBADF : fcntl(d, F_DUPFD_CLOEXEC, 3);
	} else {
		int e = proc_path(p, dirfd, path, &pr);
		if (e)
			return e;
		if (pr.gen >= 0 || pr.closed)
			return -EACCES;
		int d = get_dirfd(p, dirfd, pr.host);
		if (d < 0 && d != AT_FDCWD)
			return d;
		if (faccessat(d, pr.host, X_OK, 0))
			return -errno;
		h = openat(d, pr.host, O_RDONLY | O_CLOEXEC);
	}
	if (h < 0)
		return h == -EBADF ? h : -errno;
	if (fstat(h, &st) || !S_ISREG(st.st_mode)) {
		close(h);
		return -EACCES;   /* a directory, a device, a FIFO */
	}
	return h;
}

/* The host's cwd and umask become p's (there is one of each per host
 * process), before p's call. */
void lx_enter(struct lx *p)
{
	if (lx_k.cwd_owner == p)
		return;
	if (p->cwd >= 0 && fchdir(p->cwd))
		lx_warn(p, "rvpmu: %s: cannot return to its working directory", p->name);
	umask((mode_t)p->umask);
	lx_k.cwd_owner = p;
}

/* The process moved: keep its new cwd. */
static void cwd_moved(struct lx *p)
{
	int fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (p->cwd >= 0)
		close(p->cwd);
	p->cwd = fd;
}

static long do_openat(struct lx *p, const uint64_t *a)
{
	struct lx_proc pr;
	int e = get_proc_path(p, a[0], a[1], &pr), flags = (int)a[2];
	if (e)
		return e;
	if (pr.gen >= 0) {
		int h = lx_proc_open(p, &pr, flags);
		return h < 0 ? h : lx_fd_alloc_kind(p, 0, h, LX_FD_PROC);
	}
	if (pr.closed)
		return -EACCES;
	if (pr.link && (flags & O_ACCMODE) != O_RDONLY)
		return -ETXTBSY;   /* the program's file is running */
	int d = get_dirfd(p, a[0], pr.host);
	if (d < 0 && d != AT_FDCWD)
		return d;
	int h = openat(d, pr.host, flags, (mode_t)a[3]);
	if (h < 0)
		return -errno;
	int g = lx_fd_alloc_kind(p, 0, h, lx_fd_kind(h));
	return flags & O_TRUNC ? resized(p, g) : g;
}

static long do_readlinkat(struct lx *p, const uint64_t *a)
{
	struct lx_proc pr;
	int e = get_proc_path(p, a[0], a[1], &pr);
	if (e)
		return e;
	/* a generated file or a closed path is no link */
	if ((int64_t)a[3] <= 0 || pr.gen >= 0 || (pr.closed && !pr.link))
		return -EINVAL;
	char *buf = lx_wptr(p, a[2], a[3]);
	if (!buf)
		return -EFAULT;
	if (pr.link) {
		size_t n = strlen(pr.link);
		n = n < a[3] ? n : a[3];
		memcpy(buf, pr.link, n);
		return (long)n;
	}
	int d = get_dirfd(p, a[0], pr.host);
	if (d < 0 && d != AT_FDCWD)
		return d;
	return ERR(readlinkat(d, pr.host, buf, a[3]));
}

/* Path syscalls of the form (dirfd, path, ...). */
static long do_path(struct lx *p, int nr, const uint64_t *a)
{
	struct lx_proc pr = { .host = "" };
	const char *path = pr.host;
	int e;
	bool empty_ok = (nr == NR_newfstatat && (a[3] & LX_AT_EMPTY_PATH)) ||
			(nr == NR_statx && (a[2] & LX_AT_EMPTY_PATH)) ||
			(nr == NR_fchownat && (a[4] & LX_AT_EMPTY_PATH));
	if ((nr != NR_utimensat || a[1]) && (e = get_proc_path(p, a[0], a[1], &pr)))
		return e;
	int d = get_dirfd(p, a[0], path);
	if (d < 0 && d != AT_FDCWD)
		return d;
	if (!path[0] && !empty_ok && nr != NR_utimensat)
		return -ENOENT;
	switch (nr) {
	case NR_newfstatat: {
		struct stat st;
		if (fstatat(d, path, &st, (int)a[3]) < 0)
			return -errno;
		return put_stat(p, a[2], &st);
	}
	case NR_statx: {
		void *buf = lx_wptr(p, a[4], 256);
		if (!buf)
			return -EFAULT;
		return ERR(syscall(SYS_statx, d, path, (int)a[2], (unsigned)a[3], buf));
	}
	case NR_faccessat:
		return ERR(faccessat(d, path, (int)a[2], 0));
	case NR_faccessat2:
		return ERR(faccessat(d, path, (int)a[2], (int)a[3]));
	case NR_unlinkat:
		return ERR(unlinkat(d, path, (int)a[2]));
	case NR_mkdirat:
		return ERR(mkdirat(d, path, (mode_t)a[2]));
	case NR_fchmodat:
		return ERR(fchmodat(d, path, (mode_t)a[2], 0));
	case NR_fchownat:
		return ERR(fchownat(d, path, (uid_t)a[2], (gid_t)a[3], (int)a[4]));
	case NR_utimensat: {
		const void *ts = NULL;
		if (a[2] && !(ts = lx_rptr(p, a[2], 32)))
			return -EFAULT;
		return ERR(syscall(SYS_utimensat, d, a[1] ? path : NULL, ts, (int)a[3]));
	}
	}
	return -ENOSYS;
}

/* Two-path syscalls: renameat2(od, old, nd, new, flags), linkat(same). */
static long do_path2(struct lx *p, int nr, const uint64_t *a)
{
	char p1[PATH_MAX + 256], p2[PATH_MAX + 256];
	int e;
	if ((e = get_path(p, a[1], p1, sizeof(p1))) || (e = get_path(p, a[3], p2, sizeof(p2))))
		return e;
	int d1 = get_dirfd(p, a[0], p1), d2 = get_dirfd(p, a[2], p2);
	if ((d1 < 0 && d1 != AT_FDCWD) || (d2 < 0 && d2 != AT_FDCWD))
		return -EBADF;
	if (nr == NR_renameat2)
		return ERR(renameat2(d1, p1, d2, p2, (unsigned)a[4]));
	return ERR(linkat(d1, p1, d2, p2, (int)a[4]));
}

static long do_symlinkat(struct lx *p, const uint64_t *a)
{
	long n = gmem_strlen(&p->mm->mem, a[0], PATH_MAX);
	if (n < 0)
		return -EFAULT;
	char path[PATH_MAX + 256];
	int e = get_path(p, a[2], path, sizeof(path));
	if (e)
		return e;
	int d = get_dirfd(p, a[1], path);
	if (d < 0 && d != AT_FDCWD)
		return d;
	return ERR(symlinkat((const char *)p->mm->mem.base + a[0], d, path));
}

static long do_dup3(struct lx *p, const uint64_t *a)
{
	int h = lx_host_fd(p, a[0]);
	if (h < 0 || a[1] >= LX_NFD)
		return -EBADF;
	if (a[0] == a[1])
		return -EINVAL;
	if (a[2] & ~(uint64_t)O_CLOEXEC)
		return -EINVAL;
	int nh = fcntl(h, (a[2] & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
	if (nh < 0)
		return -errno;
	if (p->files->fd[a[1]] >= 0)
		lx_fd_release(p, (int)a[1]);
	p->files->fd[a[1]] = nh;
	p->files->fkind[a[1]] = p->files->fkind[a[0]];
	return (long)a[1];
}

static long do_fcntl(struct lx *p, const uint64_t *a)
{
	int h = lx_host_fd(p, a[0]);
	if (h < 0)
		return -EBADF;
	int cmd = (int)a[1];
	switch (cmd) {
	case F_DUPFD: case F_DUPFD_CLOEXEC: {
		if (a[2] >= LX_NFD)
			return -EINVAL;
		int nh = fcntl(h, cmd, 3);
		if (nh < 0)
			return -errno;
		return lx_fd_alloc_kind(p, (int)a[2], nh, p->files->fkind[a[0]]);
	}
	case F_GETFD: case F_GETFL: case F_GETPIPE_SZ: case F_GET_SEALS:
		return ERR(fcntl(h, cmd));
	case F_SETFD: case F_SETFL: case F_SETPIPE_SZ: case F_ADD_SEALS:
		return ERR(fcntl(h, cmd, (int)a[2]));
	case F_GETLK: case F_SETLK: case F_SETLKW:
	case F_OFD_GETLK: case F_OFD_SETLK: case F_OFD_SETLKW: {
		/* struct flock: the same 32-byte generic layout on both */
		void *fl = lx_wptr(p, a[2], 32);
		if (!fl)
			return -EFAULT;
		return ERR(fcntl(h, cmd, fl));
	}
	}
	return -EINVAL;
}

/* Terminal ioctls (asm-generic/ioctls.h); struct termios (36 bytes) and
 * winsize are the same generic layouts on host and guest. */
static long do_ioctl(struct lx *p, const uint64_t *a)
{
	int h = lx_host_fd(p, a[0]);
	if (h < 0)
		return -EBADF;
	unsigned long req = (uint32_t)a[1];
	size_t out = 0, in = 0;
	switch (req) {
	case 0x5401: out = 36; break;                 /* TCGETS */
	case 0x5402: case 0x5403: case 0x5404: in = 36; break; /* TCSETS[WF] */
	case 0x5413: out = 8; break;                  /* TIOCGWINSZ */
	case 0x540f: out = 4; break;                  /* TIOCGPGRP */
	case 0x541b: out = 4; break;                  /* FIONREAD */
	case 0x5421: in = 4; break;                   /* FIONBIO */
	default: return -ENOTTY;
	}
	void *buf = out ? lx_wptr(p, a[2], out) : (void *)lx_rptr(p, a[2], in);
	if (!buf)
		return -EFAULT;
	return ERR(ioctl(h, req, buf));
}

long lx_sys_fs(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	*handled = true;
	int h;
	long pr;
	if (lx_k.perf_live && lx_perf_fs(p, nr, a, &pr))   /* perf event fds */
		return pr;
	switch (nr) {
	case NR_read: case NR_write: case NR_pread64: case NR_pwrite64:
		return do_rw(p, nr, a);
	case NR_readv: case NR_writev:
		return do_rwv(p, nr, a);
	case NR_openat:
		return do_openat(p, a);
	case NR_close:
		if (lx_host_fd(p, a[0]) < 0)
			return -EBADF;
		lx_fd_release(p, (int)a[0]);
		return 0;
	case NR_lseek:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return ERR(lseek(h, (off_t)a[1], (int)a[2]));
	case NR_fstat: {
		struct stat st;
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		if (fstat(h, &st) < 0)
			return -errno;
		return put_stat(p, a[1], &st);
	}
	case NR_newfstatat: case NR_statx: case NR_faccessat: case NR_faccessat2:
	case NR_unlinkat: case NR_mkdirat: case NR_fchmodat: case NR_utimensat: case NR_fchownat:
		return do_path(p, nr, a);
	case NR_fchown:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return ERR(fchown(h, (uid_t)a[1], (gid_t)a[2]));
	case NR_renameat2: case NR_linkat:
		return do_path2(p, nr, a);
	case NR_symlinkat:
		return do_symlinkat(p, a);
	case NR_readlinkat:
		return do_readlinkat(p, a);
	case NR_getdents64: {
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		void *buf = lx_wptr(p, a[1], a[2]);
		if (!buf)
			return -EFAULT;
		/* struct linux_dirent64 is the same on every architecture */
		return ERR(syscall(SYS_getdents64, h, buf, (unsigned)a[2]));
	}
	case NR_ftruncate:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return resized(p, ERR(ftruncate(h, (off_t)a[1])));
	case NR_truncate: {
		char path[PATH_MAX + 256];
		int e = get_path(p, a[0], path, sizeof(path));
		return e ? e : resized(p, ERR(truncate(path, (off_t)a[1])));
	}
	case NR_fsync: case NR_fdatasync:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return ERR(nr == NR_fsync ? fsync(h) : fdatasync(h));
	case NR_fchmod:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return ERR(fchmod(h, (mode_t)a[1]));
	case NR_dup:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		if ((h = fcntl(h, F_DUPFD, 3)) < 0)
			return -errno;
		return lx_fd_alloc_kind(p, 0, h, p->files->fkind[a[0]]);
	case NR_dup3:
		return do_dup3(p, a);
	case NR_fcntl:
		return do_fcntl(p, a);
	case NR_ioctl:
		return do_ioctl(p, a);
	case NR_pipe2:
		return lx_pipe2(p, a[0], (int)a[1]);
	case NR_getcwd: {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		size_t n = strlen(cwd) + 1;
		if (n > a[1])
			return -ERANGE;
		return lx_put(p, a[0], cwd, n) ? -EFAULT : (long)n;
	}
	case NR_chdir: {
		struct lx_proc pr;
		int e = get_proc_path(p, LX_AT_FDCWD, a[0], &pr);
		char cwd[PATH_MAX];
		if (e || pr.closed || (e = ERR(chdir(pr.host))))
			return e ? e : -EACCES;
		p->cwd_in_proc = !dir_path(AT_FDCWD, cwd, sizeof(cwd)) && in_proc(cwd);
		cwd_moved(p);
		return 0;
	}
	case NR_fchdir:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		if (fchdir(h))
			return -errno;
		p->cwd_in_proc = p->files->fkind[a[0]] == LX_FD_PROCDIR;
		cwd_moved(p);
		return 0;
	case NR_ppoll:
		return lx_ppoll(p, a);
	case NR_statfs: case NR_fstatfs: {
		/* struct statfs: the same 120-byte generic layout on both */
		void *buf = lx_wptr(p, a[1], 120);
		if (!buf)
			return -EFAULT;
		if (nr == NR_fstatfs) {
			if ((h = lx_host_fd(p, a[0])) < 0)
				return -EBADF;
			return ERR(fstatfs(h, buf));
		}
		char path[PATH_MAX + 256];
		int e = get_path(p, a[0], path, sizeof(path));
		return e ? e : ERR(statfs(path, buf));
	}
	case NR_flock:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return ERR(flock(h, (int)a[1]));
	case NR_fallocate:
		if ((h = lx_host_fd(p, a[0])) < 0)
			return -EBADF;
		return resized(p, ERR(fallocate(h, (int)a[1], (off_t)a[2], (off_t)a[3])));
	case NR_fadvise64:
		return lx_host_fd(p, a[0]) < 0 ? -EBADF : 0;
	case NR_sendfile: {
		int o = lx_host_fd(p, a[0]), i = lx_host_fd(p, a[1]);
		if (o < 0 || i < 0)
			return -EBADF;
		if (p->files->fkind[a[1]] == LX_FD_RANDOM)
			return -EINVAL;   /* not from the host's pool; programs read it */
		off_t off, *po = NULL;
		if (a[2]) {
			if (lx_get(p, a[2], &off, 8))
				return -EFAULT;
			po = &off;
		}
		long r = ERR(sendfile(o, i, po, a[3]));
		if (po && r >= 0 && lx_put(p, a[2], &off, 8))
			return -EFAULT;
		return r;
	}
	case NR_sync: case NR_syncfs:
		return 0;
	case NR_memfd_create: {
		long n = gmem_strlen(&p->mm->mem, a[0], 250);
		if (n < 0)
			return -EFAULT;
		if ((h = memfd_create((const char *)p->mm->mem.base + a[0], (unsigned)a[1])) < 0)
			return -errno;
		return lx_fd_alloc(p, h);
	}
	}
	*handled = false;
	return 0;
}
