/* /proc as the program sees it: what it reads about itself is its own.
 *
 * rvpmu is one host process; the program is another on the machine it
 * believes in. So /proc/self, /proc/thread-self and /proc/<its pid>
 * (and .../task/<its tid>) never reach the host's files for rvpmu's own
 * process: maps, stat, status, auxv, cmdline, environ and comm are made
 * from the emulated process as Linux 6.x prints them, at open, into a
 * read-only memory file (as qemu-user makes its own); exe is the
 * program's file; fd/N is the file behind the program's fd N; cwd, root,
 * mounts and mountinfo are the host's, which are the program's too.
 * Anything else there is refused: mem (EACCES: the program's memory is
 * not the host process's), the process's directory and its fd, fdinfo
 * and task directories (EACCES for open and chdir, as their listings
 * and relative paths would be the host's; stat and access see them), and
 * the rest is absent (ENOENT).
 * /proc/cpuinfo is the hart's, in RISC-V Linux's format. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "lx.h"

#define PAGE_UP(a) (((a) + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1))
#define NS_PER_TICK 10000000ull   /* USER_HZ 100, as AT_CLKTCK says */

/* A region of /proc/self/maps that is not plain anonymous memory. */
struct region {
	uint64_t lo, hi, off, dev, ino;
	const char *name;       /* path or [heap]/[stack]; NULL = anonymous */
	int fmap;               /* index in p->mm->fmap, or -1 */
	bool file;              /* off, dev and ino are a file's */
};

static int by_lo(const void *a, const void *b)
{
	const struct region *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The guest path of the file behind host fd h: the host's, less the
 * --sysroot prefix the guest does not see. */
static void fd_path(const struct lx *p, int h, char *out, size_t n)
{
	char link[64], root[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", h);
	ssize_t k = readlink(link, out, n - 1);
	out[k > 0 ? k : 0] = 0;
	size_t r;
	if (p->o.sysroot && realpath(p->o.sysroot, root) && (r = strlen(root)) > 1 &&
	    !strncmp(out, root, r) && out[r] == '/')
		memmove(out, out + r, strlen(out + r) + 1);
}

/* One line: fs/proc/task_mmu.c show_map_vma (the name from column 73). */
static void map_line(FILE *f, uint64_t lo, uint64_t hi, unsigned prot, bool shared,
		     const struct region *r)
{
	uint64_t off = r && r->file ? r->off + (lo - r->lo) : 0;
	int n = fprintf(f, "%08llx-%08llx %c%c%c%c %08llx %02x:%02x %llu ",
			(unsigned long long)lo, (unsigned long long)hi, prot & GP_R ? 'r' : '-',
			prot & GP_W ? 'w' : '-', prot & GP_X ? 'x' : '-', shared ? 's' : 'p',
			(unsigned long long)off, r ? major(r->dev) : 0, r ? minor(r->dev) : 0,
			(unsigned long long)(r ? r->ino : 0));
	if (r && r->name)
		fprintf(f, "%*s%s", n < 72 ? 73 - n : 1, "", r->name);
	fputc('\n', f);
}

static void gen_maps(struct lx *p, FILE *f)
{
	const struct gmem *m = &p->mm->mem;
	const uint8_t *pf = m->pflags;
	int nr = 0, cap = p->mm->ex.nseg + p->mm->nfmap + 2;
	struct region *rg = calloc((size_t)cap, sizeof(*rg));
	char (*paths)[PATH_MAX] = calloc((size_t)p->mm->nfmap + 1, PATH_MAX);
	if (!rg || !paths)
		goto out;
	for (int i = 0; i < p->mm->ex.nseg; i++)
		rg[nr++] = (struct region){ p->mm->ex.seg[i].lo, p->mm->ex.seg[i].hi, p->mm->ex.seg[i].off,
					    p->mm->ex.dev, p->mm->ex.ino, p->mm->exe, -1, true };
	/* the heap is brk's area; the stack the mapping holding the initial sp */
	if (PAGE_UP(p->mm->brk_cur) > p->mm->brk_start)
		rg[nr++] = (struct region){ p->mm->brk_start, PAGE_UP(p->mm->brk_cur), 0, 0, 0, "[heap]", -1, false };
	rg[nr++] = (struct region){ LX_STACK_TOP(p) - LX_STACK_SIZE, LX_STACK_TOP(p), 0, 0, 0,
				    "[stack]", -1, false };
	for (int i = 0; i < p->mm->nfmap; i++) {
		const struct lx_fmap *fm = &p->mm->fmap[i];
		fd_path(p, fm->fd, paths[i], PATH_MAX);
		rg[nr++] = (struct region){ fm->addr, fm->addr + fm->len, fm->off, fm->dev, fm->ino,
					    paths[i], i, true };
	}
	qsort(rg, (size_t)nr, sizeof(*rg), by_lo);

	uint64_t top = m->size >> GPAGE_SHIFT;
	int ri = 0;
	for (uint64_t q = 1; q < top;) {
		if (!pf[q]) {   /* unmapped: skip 8 pages at once where it can */
			q += !(q & 7) && q + 8 <= top && !*(const uint64_t *)(pf + q) ? 8 : 1;
			continue;
		}
		uint64_t a = q << GPAGE_SHIFT;
		while (ri < nr && rg[ri].hi <= a)
			ri++;
		const struct region *r = ri < nr && rg[ri].lo <= a ? &rg[ri] : NULL;
		uint64_t limit = r ? r->hi : ri < nr ? rg[ri].lo : m->size;
		/* a file mapping shows its protection past the file's end too */
		const struct lx_fmap *fm = r && r->fmap >= 0 ? &p->mm->fmap[r->fmap] : NULL;
		unsigned prot = fm ? fm->prot : gmem_prot(m, a);
		uint64_t e = q + 1;
		while (e < top && (e << GPAGE_SHIFT) < limit && pf[e] &&
		       (fm || gmem_prot(m, e << GPAGE_SHIFT) == prot))
			e++;
		map_line(f, a, e << GPAGE_SHIFT, prot, fm && fm->shared, r);
		q = e;
	}
out:
	free(rg);
	free(paths);
}

static uint64_t mask_of(const struct lx *p, bool (*pick)(uint64_t handler))
{
	uint64_t m = 0;
	for (int s = 1; s <= LX_NSIG; s++)
		if (pick(p->sa[s].handler))
			m |= 1ull << (s - 1);
	return m;
}
static bool ignored(uint64_t h) { return h == 1; }   /* SIG_IGN */
static bool caught(uint64_t h) { return h > 1; }     /* a handler */

static uint64_t cpu_ticks(struct lx *p)
{
	return lx_process_ns(p) / NS_PER_TICK;
}

/* fs/proc/array.c do_task_stat. rvpmu does not know which pages are
 * resident: rss counts the mapped ones (as getrusage's ru_maxrss). */
static void gen_stat(struct lx *p, FILE *f)
{
	const struct lx_exec *x = &p->mm->ex;
	uint64_t mapped = p->mm->mem.acct->mapped;
	fprintf(f, "%d (%s) R %d %d %d 0 -1 0 0 0 0 0 %llu 0 0 0 20 0 1 0 0 %llu %llu %llu "
		"%llu %llu %llu 0 0 %llu %llu %llu %llu 0 0 0 17 0 0 0 0 0 0 %llu %llu %llu "
		"%llu %llu %llu %llu 0\n",
		p->pid, p->comm, p->ppid, p->pid, p->pid, (unsigned long long)cpu_ticks(p),
		(unsigned long long)mapped, (unsigned long long)(mapped >> GPAGE_SHIFT),
		(unsigned long long)p->rlim[5][0], (unsigned long long)x->start_code,
		(unsigned long long)x->end_code, (unsigned long long)x->start_stack,
		(unsigned long long)p->t->sigpending, (unsigned long long)p->t->sigmask,
		(unsigned long long)mask_of(p, ignored), (unsigned long long)mask_of(p, caught),
		(unsigned long long)x->start_data, (unsigned long long)x->end_data,
		(unsigned long long)p->mm->brk_start, (unsigned long long)x->arg_start,
		(unsigned long long)x->arg_end, (unsigned long long)x->env_start,
		(unsigned long long)x->env_end);
}

/* fs/proc/array.c proc_pid_status, the lines a single-threaded process
 * without namespaces or capabilities of its own has a value for. */
static void gen_status(struct lx *p, FILE *f)
{
	mode_t um = umask(0);
	umask(um);
	unsigned uid = getuid(), euid = geteuid(), gid = getgid(), egid = getegid();
	unsigned long long kb = p->mm->mem.acct->mapped >> 10, peak = p->mm->vm_peak >> 10;
	unsigned long long exe = (PAGE_UP(p->mm->ex.end_code) - (p->mm->ex.start_code & ~(GPAGE_SIZE - 1))) >> 10;
	fprintf(f, "Name:\t%s\nUmask:\t%04o\nState:\tR (running)\nTgid:\t%d\nNgid:\t0\n"
		"Pid:\t%d\nPPid:\t%d\nTracerPid:\t0\nUid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n"
		"FDSize:\t%d\nGroups:\t \nNStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n",
		p->comm, (unsigned)um, p->pid, p->t->tid, p->ppid, uid, euid, euid, euid,
		gid, egid, egid, egid, LX_NFD, p->pid, p->t->tid, p->pid, p->pid);
	fprintf(f, "VmPeak:\t%8llu kB\nVmSize:\t%8llu kB\nVmLck:\t%8d kB\nVmPin:\t%8d kB\n"
		"VmHWM:\t%8llu kB\nVmRSS:\t%8llu kB\nVmStk:\t%8llu kB\nVmExe:\t%8llu kB\n"
		"VmLib:\t%8d kB\nVmSwap:\t%8d kB\nThreads:\t%d\nSigQ:\t0/%llu\n",
		peak, kb, 0, 0, peak, kb, (unsigned long long)(LX_STACK_SIZE >> 10), exe, 0, 0, p->nthreads,
		(unsigned long long)p->rlim[11][0]);
	fprintf(f, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\nSigIgn:\t%016llx\n"
		"SigCgt:\t%016llx\nNoNewPrivs:\t0\nSeccomp:\t0\nCpus_allowed:\t1\n"
		"Cpus_allowed_list:\t0\nMems_allowed:\t1\nMems_allowed_list:\t0\n"
		"voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n",
		(unsigned long long)p->t->sigpending, (unsigned long long)p->sigpending,
		(unsigned long long)p->t->sigmask,
		(unsigned long long)mask_of(p, ignored), (unsigned long long)mask_of(p, caught));
}

/* The bytes of [lo, hi) of guest memory that are readable, as Linux reads
 * cmdline and environ from the process (a program may have changed them). */
static void guest_bytes(struct lx *p, FILE *f, uint64_t lo, uint64_t hi)
{
	const void *b = hi > lo ? lx_rptr(p, lo, hi - lo) : NULL;
	if (b)
		fwrite(b, 1, hi - lo, f);
}

static void gen_cmdline(struct lx *p, FILE *f) { guest_bytes(p, f, p->mm->ex.arg_start, p->mm->ex.arg_end); }
static void gen_environ(struct lx *p, FILE *f) { guest_bytes(p, f, p->mm->ex.env_start, p->mm->ex.env_end); }
static void gen_auxv(struct lx *p, FILE *f) { fwrite(p->mm->ex.auxv, 1, p->mm->ex.auxv_bytes, f); }
static void gen_comm(struct lx *p, FILE *f) { fprintf(f, "%s\n", p->comm); }

/* arch/riscv/kernel/cpu.c show_cpuinfo, for each hart: the extensions
 * it implements (as the device tree lists them in system mode) and its
 * profile's ids; the address space is Sv39's user half. */
static void gen_cpuinfo(struct lx *p, FILE *f)
{
	(void)p;
	for (unsigned i = 0; i < lx_k.ncpus; i++) {
		const struct hart *h = lx_k.cpu[i];
		char isa[256];
		hart_isa_string(h, isa, sizeof(isa));
		fprintf(f, "processor\t: %u\nhart\t\t: %u\nisa\t\t: %s\nmmu\t\t: sv39\nmvendorid\t: 0x%llx\n"
			"marchid\t\t: 0x%llx\nmimpid\t\t: 0x%llx\nhart isa\t: %s\n\n", i, i, isa,
			(unsigned long long)h->csr.mvendorid, (unsigned long long)h->csr.marchid,
			(unsigned long long)h->csr.mimpid, isa);
	}
}

/* /sys/devices/system/cpu/{online,possible,present}: the modelled harts
 * (glibc's get_nprocs reads online). */
static void gen_cpulist(struct lx *p, FILE *f)
{
	(void)p;
	if (lx_k.ncpus > 1)
		fprintf(f, "0-%u\n", lx_k.ncpus - 1);
	else
		fprintf(f, "0\n");
}

static const struct {
	const char *name;
	void (*gen)(struct lx *p, FILE *f);
} generated[] = {
	{ "maps", gen_maps }, { "stat", gen_stat }, { "status", gen_status },
	{ "auxv", gen_auxv }, { "cmdline", gen_cmdline }, { "environ", gen_environ },
	{ "comm", gen_comm },
};

/* What follows /proc/self, /proc/thread-self, /proc/<pid>[/task/<tid>]
 * (tid one of its threads) in path ("" for the directory itself), or NULL
 * for any other path. */
static const char *self_rest(const struct lx *p, const char *path)
{
	static const char *const selves[] = { "self", "thread-self", NULL };
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", p->pid);
	if (strncmp(path, "/proc/", 6))
		return NULL;
	const char *s = path + 6;
	size_t n = 0;
	for (int i = 0; selves[i] && !n; i++)
		if (!strncmp(s, selves[i], strlen(selves[i])))
			n = strlen(selves[i]);
	if (!n && !strncmp(s, pid, strlen(pid)))
		n = strlen(pid);
	if (!n || (s[n] && s[n] != '/'))
		return NULL;
	s += n;
	if (!strncmp(s, "/task/", 6)) {
		char *end;
		long tid = strtol(s + 6, &end, 10);
		const struct lx_thread *t = end > s + 6 && tid > 0 && tid <= INT32_MAX ? lx_thread_by_tid((int)tid) : NULL;
		if (t && t->p == p && (!*end || *end == '/'))
			s = end;
	}
	while (*s == '/')
		s++;
	return s;
}

static bool one_of(const char *s, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(s, *names))
			return true;
	return false;
}

int lx_proc_resolve(struct lx *p, const char *path, struct lx_proc *r)
{
	static const char *const passed[] = { "cwd", "root", "mounts", "mountinfo", NULL };
	static const char *const closed[] = { "", "mem", "fd", "fdinfo", "task", NULL };
	const char *rest = self_rest(p, path), *host = path;
	char own[64];
	static const char *const cpulists[] = { "/sys/devices/system/cpu/online",
		"/sys/devices/system/cpu/possible", "/sys/devices/system/cpu/present", NULL };
	r->gen = !strcmp(path, "/proc/cpuinfo") ? LX_PROC_CPUINFO : one_of(path, cpulists) ? LX_PROC_CPULIST : -1;
	r->link = NULL;
	r->closed = false;
	if (rest) {
		/* stat and access of a generated or closed file see the host's
		 * file of that name: its mode and size 0, nothing of rvpmu */
		host = own;
		snprintf(own, sizeof(own), "/proc/self/%.40s", rest);
		for (int i = 0; i < (int)(sizeof(generated) / sizeof(generated[0])); i++)
			if (!strcmp(rest, generated[i].name))
				r->gen = i;
		char *end;
		if (!strcmp(rest, "exe")) {
			host = r->link = p->mm->exe;
		} else if (!strncmp(rest, "fd/", 3) && rest[3] >= '0' && rest[3] <= '9') {
			long g = strtol(rest + 3, &end, 10);
			int h = *end ? -1 : lx_host_fd(p, (uint64_t)g);
			if (h < 0)
				return -ENOENT;
			snprintf(own, sizeof(own), "/proc/self/fd/%d", h);
		} else if (one_of(rest, closed)) {
			/* /proc/self and /proc/thread-self are links to it */
			static char pid[16], tid[48];
			snprintf(pid, sizeof(pid), "%d", p->pid);
			snprintf(tid, sizeof(tid), "%d/task/%d", p->pid, p->t->tid);
			r->link = !strcmp(path, "/proc/self") ? pid : !strcmp(path, "/proc/thread-self") ? tid : NULL;
			r->closed = true;
		} else if (r->gen < 0 && !one_of(rest, passed)) {
			return -ENOENT;
		}
	}
	if (snprintf(r->host, sizeof(r->host), "%s", host) >= (int)sizeof(r->host))
		return -ENAMETOOLONG;
	return 0;
}

int lx_proc_open(struct lx *p, const struct lx_proc *r, int flags)
{
	if ((flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;   /* the files are 0444 */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (r->gen == LX_PROC_CPUINFO)
		gen_cpuinfo(p, f);
	else if (r->gen == LX_PROC_CPULIST)
		gen_cpulist(p, f);
	else
		generated[r->gen].gen(p, f);
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	/* a memory file, opened again read-only (a write is EBADF, as on
	 * a /proc file opened for reading) */
	const char *name = r->gen == LX_PROC_CPUINFO ? "cpuinfo" : r->gen == LX_PROC_CPULIST ? "cpulist" :
			   generated[r->gen].name;
	int w = memfd_create(name, MFD_CLOEXEC), h = -1;
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", w);
	if (w >= 0 && write(w, buf, len) == (ssize_t)len)
		h = open(link, O_RDONLY | (flags & (O_CLOEXEC | O_NONBLOCK)));
	int e = errno;
	free(buf);
	if (w >= 0)
		close(w);
	return h >= 0 ? h : -e;
}
