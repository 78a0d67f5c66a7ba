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
	struct lx *p = &lx_proc;
	if (p->h) {
		lx_fmap_release_all(p);
		lx_fd_close_all(p);
	}
	free(p->exe);
	free(p->name);
	memset(p, 0, sizeof(*p));
}

int linux_load_image(struct hart *h, const struct linux_opts *o,
		     const void *image, size_t size, const char *name,
		     int argc, char **argv, char **envp, char *err, size_t errlen)
{
	struct lx *p = &lx_proc;
	linux_free();
	p->h = h;
	p->o = *o;
	if (p->o.warn_fd <= 0)
		p->o.warn_fd = 2;
	p->name = strdup(name);
	char *abs = realpath(name, NULL);
	p->exe = abs ? abs : strdup(name);
	if (!p->name || !p->exe) {
		snprintf(err, errlen, "%s: out of host memory", name);
		return -1;
	}
	h->no_jit = (uint8_t)o->no_jit;
	uint64_t mb = o->max_mem_mb ? o->max_mem_mb : linux_default_max_mem_mb();
	h->mem.max_bytes = mb == LINUX_MEM_NONE ? 0 : mb << 20;
	lx_fd_init(p);
	p->strace = getenv("RVPMU_STRACE") != NULL;
	lx_limits_init(p);
	p->rng = 0x72767075ull;   /* "rvpu": fixed seed, deterministic runs */
	const char *base = strrchr(name, '/');
	snprintf(p->comm, sizeof(p->comm), "%s", base ? base + 1 : name);
	/* demand paging: the image and every later mapping are absent until
	 * touched, as Linux maps them (page-faults count the first touches) */
	h->mem.demand = true;

	char why[400];
	struct lx_image img;
	if (lx_elf_load(p, image, size, &img, why, sizeof(why)))
		goto fail;
	p->brk_start = p->brk_cur = (img.end + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1);

	/* rt_sigreturn trampoline: li a7, 139; ecall */
	static const uint32_t tramp[] = { 0x08b00893, 0x00000073 };
	uint64_t t = LX_TRAMPOLINE(p);
	if (gmem_map(&h->mem, t, GPAGE_SIZE, GP_R | GP_W)) {
		snprintf(why, sizeof(why), "out of memory (memory limit %llu MiB)",
			 (unsigned long long)(h->mem.max_bytes >> 20));
		goto fail;
	}
	memcpy(h->mem.base + t, tramp, sizeof(tramp));
	gmem_protect(&h->mem, t, GPAGE_SIZE, GP_R | GP_X);
	hart_invalidate_code(h, t, GPAGE_SIZE);

	if (lx_stack_init(p, &img, argc, argv, envp, why, sizeof(why)))
		goto fail;
	/* exec wrote the top of the stack (argv, envp, auxv): present */
	gmem_present(&h->mem, h->x[2], LX_STACK_TOP(p) - h->x[2]);
	struct stat st;
	if (!stat(p->exe, &st))
		p->ex.dev = st.st_dev, p->ex.ino = st.st_ino;
	p->vm_peak = h->mem.mapped;
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
	return lx_proc.load_bias;
}

const char *linux_exe_path(void)
{
	return lx_proc.exe;
}

/* RVPMU_JIT_STATS in the environment: say how much was translated (the
 * tests use it to know the translator really ran). */
static void jit_report(struct lx *p, const struct hart *h)
{
	struct hart_jit_stats s;
	if (!getenv("RVPMU_JIT_STATS"))
		return;
	hart_jit_stats(h, &s);
	lx_warn(p, "rvpmu: jit: %llu blocks translated, %llu flushes, largest %u of %u bytes, "
		"%llu code bytes, %llu branches gone on past", (unsigned long long)s.translated,
		(unsigned long long)s.flushes, s.largest, s.room, (unsigned long long)s.bytes,
		(unsigned long long)s.inner);
}

/* The run ends before the program does (limit, interruption). */
static int cut_short(struct lx *p, int status)
{
	lx_fmap_release_all(p);
	jit_report(p, p->h);
	return status;
}

int linux_run(struct hart *h, const struct linux_opts *o)
{
	struct lx *p = &lx_proc;
	if (p->h != h)
		return 1;
	/* --max-insns counts retired instructions and the traps taken with
	 * none retired since the trap before (h->storm.idle) */
	const uint64_t start = h->instret, idle_start = h->storm.idle;
	while (!p->exited) {
		uint64_t budget = LINUX_RUN_CHUNK;
		if (o->max_insns) {
			uint64_t used = h->instret - start + (h->storm.idle - idle_start);
			if (used >= o->max_insns) {
				lx_warn(p, "rvpmu: instruction limit %llu reached",
					(unsigned long long)o->max_insns);
				return cut_short(p, LINUX_EXIT_MAX_INSNS);
			}
			if (o->max_insns - used < budget)
				budget = o->max_insns - used;
		}
		if (o->tick) {
			uint64_t t = o->tick(o->tick_ctx, h);
			if (t && t < budget)
				budget = t;
		}
		if (o->progress) {
			uint64_t t = o->progress(NULL, h);
			if (t && t < budget)
				budget = t;
		}
		if (o->stop && *o->stop) {  /* after the hooks: the display is erased */
			int sig = *o->stop;  /* the host's SIGINT and SIGTERM are the guest's */
			lx_warn(p, "rvpmu: %s: interrupted by %s after %llu instructions", p->name,
				lx_signame(sig), (unsigned long long)(h->instret - start));
			return cut_short(p, LINUX_EXIT_SIGNAL_BASE + sig);
		}
		switch (hart_run(h, budget)) {
		case STOP_TRAP:
			if (o->on_trap)
				o->on_trap(h);
			h->mem.in_kernel = true;   /* its first touches are kernel faults */
			if (hart_storm_enter(h, h->cause, h->tval, 0))
				lx_trap_storm(p);
			else if (h->cause == CAUSE_USER_ECALL)
				lx_syscall(p);
			else
				lx_trap(p);
			h->mem.in_kernel = false;
			break;
		default:
			/* budget, a state sync, or a WFI that retired (one thread:
			 * nothing to wait for) all just go on */
			break;
		}
	}
	jit_report(p, h);
	return p->status;
}
