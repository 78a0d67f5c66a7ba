/* The process: loading a program (ELF image, brk, trampoline, stack) and
 * the run loop that turns hart stops into syscalls and signals. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

struct lx lx_proc;

/* Largest program file read into memory. */
#define MAX_FILE (1ull << 32)

void linux_free(void)
{
	for (struct lx *p = lx_k.procs; p; p = p->next)
		if (p->mm) {
			lx_fmap_release_all(p);
			lx_fd_close_all(p);
		}
	while (lx_k.threads)
		lx_thread_free(lx_k.threads);
	struct lx *p = &lx_proc;
	if (p->mm) {
		gmem_free(&p->mm->mem);
		free(p->mm->fmap);
		free(p->mm->exe);
		free(p->mm);
	}
	free(p->name);
	memset(p, 0, sizeof(*p));
	memset(&lx_k, 0, sizeof(lx_k));
}

int linux_load_image(struct hart *h, const struct linux_opts *o,
		     const void *image, size_t size, const char *name,
		     int argc, char **argv, char **envp, char *err, size_t errlen)
{
	struct lx *p = &lx_proc;
	linux_free();
	lx_k.rq_tail = &lx_k.rq;
	lx_k.cpu[0] = h;
	lx_k.ncpus = 1;
	lx_k.procs = p;
	p->h = h;
	p->o = *o;
	if (p->o.warn_fd <= 0)
		p->o.warn_fd = 2;
	p->pid = LX_PID;
	p->ppid = LX_PPID;
	lx_k.next_id = LX_PID + 1;
	p->name = strdup(name);
	p->mm = calloc(1, sizeof(*p->mm));
	char *abs = realpath(name, NULL);
	if (p->mm)
		p->mm->exe = abs ? abs : strdup(name);
	else
		free(abs);
	if (!p->name || !p->mm || !p->mm->exe || !(p->t = lx_thread_new(p, LX_PID))) {
		snprintf(err, errlen, "%s: out of host memory", name);
		return -1;
	}
	/* the process's address space is the hart's memory: from now on
	 * this layer owns it (linux_free frees it) */
	p->mm->mem = h->mem;
	h->mem_borrowed = 1;
	lx_thread_attach(p->t, 0);
	h->no_jit = (uint8_t)o->no_jit;
	uint64_t mb = o->max_mem_mb ? o->max_mem_mb : linux_default_max_mem_mb();
	p->mm->mem.acct->max_bytes = mb == LINUX_MEM_NONE ? 0 : mb << 20;
	lx_fd_init(p);
	p->strace = getenv("RVPMU_STRACE") != NULL;
	lx_limits_init(p);
	p->rng = 0x72767075ull;   /* "rvpu": fixed seed, deterministic runs */
	const char *base = strrchr(name, '/');
	snprintf(p->comm, sizeof(p->comm), "%s", base ? base + 1 : name);
	memcpy(p->t->comm, p->comm, sizeof(p->comm));

	char why[400];
	struct lx_image img;
	if (lx_elf_load(p, image, size, &img, why, sizeof(why)))
		goto fail;
	p->mm->brk_start = p->mm->brk_cur = (img.end + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);

	/* rt_sigreturn trampoline: li a7, 139; ecall */
	static const uint32_t tramp[] = { 0x08b00893, 0x00000073 };
	uint64_t t = LX_TRAMPOLINE(p);
	struct gmem *m = &p->mm->mem;
	if (gmem_map(m, t, GPAGE_SIZE, GP_R | GP_W)) {
		snprintf(why, sizeof(why), "out of memory (memory limit %llu MiB)",
			 (unsigned long long)(m->acct->max_bytes >> 20));
		goto fail;
	}
	memcpy(m->base + t, tramp, sizeof(tramp));
	gmem_protect(m, t, GPAGE_SIZE, GP_R | GP_X);
	hart_invalidate_code(h, t, GPAGE_SIZE);

	if (lx_stack_init(p, &img, argc, argv, envp, why, sizeof(why)))
		goto fail;
	struct stat st;
	if (!stat(p->mm->exe, &st))
		p->mm->ex.dev = st.st_dev, p->mm->ex.ino = st.st_ino;
	p->mm->vm_peak = m->acct->mapped;
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", name, why);
	return -1;
}

int linux_load(struct hart *h, const struct linux_opts *o, const char *path,
	       int argc, char **argv, char **envp, char *err, size_t errlen)
{
	/* O_NONBLOCK: a FIFO must not hang the open; it is refused below */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path,
			 S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > MAX_FILE) {
		snprintf(err, errlen, "%s: file too large", path);
		close(fd);
		return -1;
	}
	size_t n = (size_t)st.st_size;
	uint8_t *buf = malloc(n ? n : 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of host memory", path);
		close(fd);
		return -1;
	}
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	int rc = linux_load_image(h, o, buf, got, path, argc, argv, envp, err, errlen);
	free(buf);
	return rc;
}

uint64_t linux_default_max_mem_mb(void)
{
	uint64_t mb = gmem_host_bytes() >> 21;   /* half, in MiB */
	return mb ? mb : LINUX_MEM_NONE;         /* unknown host: no bound */
}

uint64_t linux_load_bias(void)
{
	return lx_proc.mm ? lx_proc.mm->load_bias : 0;
}

const char *linux_exe_path(void)
{
	return lx_proc.mm ? lx_proc.mm->exe : NULL;
}
