/* Loading a program: the first process of a run, and the image of a
 * program (ELF, brk, trampoline, stack) that exec loads too. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

/* Largest program file read into memory. */
#define MAX_FILE (1ull << 32)

void linux_free(void)
{
	lx_k.perf_live = false;   /* the run's events go with it: nothing to reschedule */
	for (struct lx *p = lx_k.procs; p; p = p->next)
		if (p->mm)
			lx_fmap_release_all(p);
	while (lx_k.threads)
		lx_thread_free(lx_k.threads);
	while (lx_k.procs)
		lx_process_free(lx_k.procs);
	lx_shm_free_all();
	memset(&lx_k, 0, sizeof(lx_k));
}

int lx_load_image(struct lx *p, const void *image, size_t size, const char *name,
		  const char *host, int argc,
		  char **argv, char **envp, char *why, size_t n)
{
	struct lx_image img;
	struct lx_mm *mm = p->mm;
	if (lx_elf_load(p, image, size, &img, why, n))
		return -1;
	mm->brk_start = mm->brk_cur = (img.end + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);

	/* rt_sigreturn trampoline: li a7, 139; ecall */
	static const uint32_t tramp[] = { 0x08b00893, 0x00000073 };
	uint64_t t = LX_TRAMPOLINE(p);
	struct gmem *m = &mm->mem;
	if (gmem_map(m, t, GPAGE_SIZE, GP_R | GP_W)) {
		snprintf(why, n, "out of memory (memory limit %llu MiB)",
			 (unsigned long long)(m->acct->max_bytes >> 20));
		return -1;
	}
	memcpy(m->base + t, tramp, sizeof(tramp));
	gmem_protect(m, t, GPAGE_SIZE, GP_R | GP_X);
	hart_invalidate_code(p->h, t, GPAGE_SIZE);

	if (lx_stack_init(p, &img, argc, argv, envp, why, n))
		return -1;
	/* exec wrote the top of the stack (argv, envp, auxv): present */
	gmem_present(m, p->h->x[2], LX_STACK_TOP(p) - p->h->x[2]);
	char *abs = realpath(host, NULL);   /* the host's file: --sysroot's */
	free(mm->exe);
	mm->exe = abs ? abs : strdup(name);
	struct stat st;
	if (mm->exe && !stat(mm->exe, &st))
		mm->ex.dev = st.st_dev, mm->ex.ino = st.st_ino;
	mm->vm_peak = m->acct->mapped;
	const char *base = strrchr(name, '/');
	snprintf(p->comm, sizeof(p->comm), "%s", base ? base + 1 : name);
	memcpy(p->t->comm, p->comm, sizeof(p->comm));
	return mm->exe ? 0 : -1;
}

int linux_load_image(struct hart *h, const struct linux_opts *o,
		     const void *image, size_t size, const char *name,
		     int argc, char **argv, char **envp, char *err, size_t errlen)
{
	linux_free();
	lx_k.rq_tail = &lx_k.rq;
	lx_k.cpu[0] = h;
	lx_k.ncpus = 1;
	lx_k.next_id = LX_PID + 1;
	struct lx *p = lx_process_new(NULL);
	if (!p || !(p->name = strdup(name)) || !(p->mm = calloc(1, sizeof(*p->mm))) ||
	    lx_fd_init(p) || !(p->t = lx_thread_new(p, LX_PID))) {
		snprintf(err, errlen, "%s: out of host memory", name);
		return -1;
	}
	p->h = h;
	p->o = *o;
	if (p->o.warn_fd <= 0)
		p->o.warn_fd = 2;
	p->pid = p->pgid = p->sid = LX_PID;
	p->ppid = LX_PPID;
	p->exit_signal = LX_SIGCHLD;
	/* the process's address space is the hart's memory: from now on
	 * this layer owns it (linux_free frees it) */
	p->mm->refs = 1;
	p->mm->mem = h->mem;
	h->mem_borrowed = 1;
	lx_thread_attach(p->t, 0);
	p->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	p->umask = umask(0);
	umask(p->umask);
	lx_k.cwd_owner = p;
	h->no_jit = (uint8_t)o->no_jit;
	uint64_t mb = o->max_mem_mb ? o->max_mem_mb : linux_default_max_mem_mb();
	p->mm->mem.acct->max_bytes = mb == LINUX_MEM_NONE ? 0 : mb << 20;
	p->strace = getenv("RVPMU_STRACE") != NULL;
	lx_limits_init(p);
	p->rng = 0x72767075ull;   /* "rvpu": fixed seed, deterministic runs */
	/* demand paging: the image and every later mapping (of this process
	 * and of those it forks and execs) are absent until touched, as Linux
	 * maps them (page-faults count the first touches) */
	p->mm->mem.acct->demand = true;

	char why[400];
	if (lx_load_image(p, image, size, name, name, argc, argv, envp, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", name, why);
		return -1;
	}
	return 0;
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
	return lx_k.procs && lx_k.procs->mm ? lx_k.procs->mm->load_bias : 0;
}

const char *linux_exe_path(void)
{
	return lx_k.procs && lx_k.procs->mm ? lx_k.procs->mm->exe : NULL;
}
