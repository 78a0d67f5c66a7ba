/* execve and execveat: a static riscv64 ELF, or the interpreter named on
 * a script's "#!" line, replaces the program of the calling process in a
 * new address space. The old one goes (or stays with the vfork parent
 * that shares it), the process's other threads end, the caller takes the
 * process's pid as its tid, close-on-exec fds close and caught signals
 * return to their defaults (fs/exec.c begin_new_exec). A file that is no
 * static riscv64 executable is ENOEXEC, as for any foreign binary. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

#define ARG_MAX_BYTES (2u << 20)   /* what argv and envp may take (E2BIG) */
#define ARG_MAX_COUNT 0x7fffffff
#define SCRIPT_DEPTH 4              /* interpreters of interpreters (ELOOP) */
#define MAX_FILE (1ull << 32)
#define LX_AT_EMPTY_PATH 0x1000

struct strv {
	char **v;
	int n;
	size_t bytes;
};

static void strv_free(struct strv *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static int strv_add(struct strv *s, const char *str, size_t len)
{
	char **v = realloc(s->v, (size_t)(s->n + 2) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	if (!(v[s->n] = strndup(str, len)))
		return -ENOMEM;
	v[++s->n] = NULL;
	s->bytes += len + 1 + sizeof(uint64_t);
	return s->bytes > ARG_MAX_BYTES ? -E2BIG : 0;
}

/* The NULL-terminated array of guest strings at ua (NULL: empty). */
static int read_strv(struct lx *p, uint64_t ua, struct strv *s)
{
	for (uint64_t i = 0; ua; i++) {
		uint64_t sp;
		if (lx_get(p, ua + 8 * i, &sp, 8))
			return -EFAULT;
		if (!sp)
			break;
		long n = gmem_strlen(&p->mm->mem, sp, ARG_MAX_BYTES);
		if (n < 0)
			return n == -EFAULT && lx_rptr(p, sp, 1) ? -E2BIG : -EFAULT;
		int e = strv_add(s, (const char *)p->mm->mem.base + sp, (size_t)n);
		if (e)
			return e;
	}
	return 0;
}

static int read_file(int h, uint8_t **buf, size_t *len)
{
	struct stat st;
	if (fstat(h, &st))
		return -errno;
	if ((uint64_t)st.st_size > MAX_FILE)
		return -ENOMEM;
	size_t n = (size_t)st.st_size, got = 0;
	uint8_t *b = malloc(n ? n : 1);
	if (!b)
		return -ENOMEM;
	while (got < n) {
		ssize_t r = read(h, b + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	*buf = b;
	*len = got;
	return 0;
}

/* A static riscv64 executable: what the loader takes, as ENOEXEC says. */
static bool is_elf(const uint8_t *b, size_t n)
{
	Elf64_Ehdr e;
	if (n < sizeof(e) || memcmp(b, ELFMAG, SELFMAG))
		return false;
	memcpy(&e, b, sizeof(e));
	return e.e_ident[EI_CLASS] == ELFCLASS64 && e.e_machine == EM_RISCV &&
	       (e.e_type == ET_EXEC || e.e_type == ET_DYN);
}

/* "#!interp [arg]": the interpreter runs with argv interp [arg] path
 * argv[1]... (fs/binfmt_script.c). 0, or -ENOEXEC for a bad line. */
static int script(const uint8_t *b, size_t n, const char *path, struct strv *argv,
		  struct strv *interp)
{
	size_t end = 2;
	while (end < n && end < 256 && b[end] != '\n')
		end++;
	const char *s = (const char *)b + 2, *e = (const char *)b + end;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	const char *sp = s;
	while (sp < e && *sp != ' ' && *sp != '\t')
		sp++;
	if (sp == s)
		return -ENOEXEC;
	const char *arg = sp;
	while (arg < e && (*arg == ' ' || *arg == '\t'))
		arg++;
	struct strv v = { 0 };
	int r = strv_add(&v, s, (size_t)(sp - s));
	if (!r && arg < e)
		r = strv_add(&v, arg, (size_t)(e - arg));
	if (!r)
		r = strv_add(&v, path, strlen(path));
	for (int i = 1; !r && i < argv->n; i++)
		r = strv_add(&v, argv->v[i], strlen(argv->v[i]));
	strv_free(argv);
	*argv = v;
	if (!r)
		r = strv_add(interp, s, (size_t)(sp - s));
	return r;
}

/* The point of no return is past: the process is the new program's. */
static void begin_new_exec(struct lx *p, struct lx_mm *old)
{
	struct lx_thread *t = p->t;
	for (struct lx_thread *o = lx_k.threads, *n; o; o = n) {
		n = o->next;
		if (o->p == p && o != t && o->state != LX_T_DEAD)
			lx_thread_end(o);
	}
	t->tid = p->pid;   /* the thread that execs leads the process */
	t->clear_child_tid = t->robust_list = 0;
	t->ss_sp = t->ss_size = 0;
	t->ss_flags = LX_SS_DISABLE;
	lx_mm_put(old);
	if (p->vfork_parent) {
		lx_wake(p->vfork_parent, LX_WOKE_EVENT, p->pid);
		p->vfork_parent = NULL;
	}
	lx_fd_close_on_exec(p);
	lx_perf_exec(t);
	for (int s = 1; s <= LX_NSIG; s++)
		if (p->sa[s].handler != 1)   /* SIG_IGN stays */
			p->sa[s] = (struct lx_sigaction){ 0 };
	p->noret = true;
}

/* Load image into a new address space of p: 0, or -errno with p as it
 * was. */
static int exec_image(struct lx *p, const uint8_t *image, size_t size, const char *name,
		      const char *host, struct strv *argv, struct strv *envp)
{
	struct hart *h = p->h;
	struct lx_mm *old = p->mm, *mm = lx_mm_new(p);
	char *oldname = p->name, *newname = strdup(name), why[400];
	if (!mm || !newname) {
		free(newname);
		lx_mm_put(mm);
		return -ENOMEM;
	}
	uint64_t x[33], f[32], pc = h->pc;
	uint32_t fflags = h->fflags, frm = h->frm;
	memcpy(x, h->x, sizeof(x));
	memcpy(f, h->f, sizeof(f));
	char comm[16];
	memcpy(comm, p->comm, sizeof(comm));
	p->mm = mm;
	p->name = newname;
	hart_switch_mem(h, &mm->mem);
	static char *none[] = { NULL };
	if (lx_load_image(p, image, size, name, host, argv->n, argv->v, envp->n ? envp->v : none, why,
			  sizeof(why))) {
		p->mm = old;
		p->name = oldname;
		free(newname);
		hart_switch_mem(h, &old->mem);
		lx_mm_put(mm);
		memcpy(h->x, x, sizeof(x));
		memcpy(h->f, f, sizeof(f));
		h->pc = pc;
		h->fflags = fflags;
		h->frm = frm;
		memcpy(p->comm, comm, sizeof(comm));
		memcpy(p->t->comm, comm, sizeof(comm));
		return strstr(why, "memory") ? -ENOMEM : -ENOEXEC;
	}
	free(oldname);
	begin_new_exec(p, old);
	lx_task_change(LINUX_TASK_EXEC, p->t, NULL);
	return 0;
}

static long do_exec(struct lx *p, uint64_t dirfd, uint64_t upath, uint64_t uargv, uint64_t uenvp,
		    uint64_t flags)
{
	struct strv argv = { 0 }, envp = { 0 }, interp = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;
	if (flags & ~(uint64_t)(LX_AT_EMPTY_PATH | 0x100))   /* AT_SYMLINK_NOFOLLOW */
		return -EINVAL;
	long n = gmem_strlen(&p->mm->mem, upath, PATH_MAX);
	if (n < 0)
		return upath && lx_rptr(p, upath, 1) ? -ENAMETOOLONG : -EFAULT;
	char path[PATH_MAX];
	memcpy(path, p->mm->mem.base + upath, (size_t)n + 1);
	int r = read_strv(p, uargv, &argv);
	if (!r)
		r = read_strv(p, uenvp, &envp);
	if (!r && !argv.n)   /* Linux gives a program without arguments "" */
		r = strv_add(&argv, "", 0);
	int h = r ? r : lx_open_exec(p, dirfd, path, (flags & LX_AT_EMPTY_PATH) && !n);
	if (h < 0)
		r = h;
	char host[PATH_MAX + 32], fdpath[32];  /* the file opened, after --sysroot */
	for (int depth = 0; h >= 0; depth++) {
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", h);
		ssize_t hn = readlink(fdpath, host, PATH_MAX);
		host[hn > 0 ? hn : 0] = 0;
		r = read_file(h, &buf, &len);
		close(h);
		h = -1;
		if (r)
			break;
		if (len > 2 && buf[0] == '#' && buf[1] == '!') {
			if (depth == SCRIPT_DEPTH) {
				r = -ELOOP;
				break;
			}
			strv_free(&interp);
			if ((r = script(buf, len, path, &argv, &interp)))
				break;
			snprintf(path, sizeof(path), "%s", interp.v[0]);
			free(buf);
			buf = NULL;
			h = lx_open_exec(p, dirfd, path, false);
			r = h < 0 ? h : 0;
			continue;
		}
		r = is_elf(buf, len) ? exec_image(p, buf, len, path, host[0] ? host : path, &argv, &envp) : -ENOEXEC;
	}
	free(buf);
	strv_free(&argv);
	strv_free(&envp);
	strv_free(&interp);
	return r;
}

long lx_sys_exec(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	*handled = nr == NR_execve || nr == NR_execveat;
	if (nr == NR_execve)
		return do_exec(p, (uint64_t)(int64_t)-100, a[0], a[1], a[2], 0);
	if (nr == NR_execveat)
		return do_exec(p, a[0], a[1], a[2], a[3], a[4]);
	return 0;
}
