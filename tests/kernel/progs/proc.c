/* What the program reads about itself under /proc is its own, in Linux's
 * formats: one "ok NAME" or "not ok NAME: why" line per check, then
 * "ALL OK N" (N failures).
 *   proc DIR        the checks (DIR: a scratch directory)
 *   proc cat FILE   print FILE (tests/kernel compares /proc/cpuinfo)
 *   proc ids        the hart's ids as riscv_hwprobe answers */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

extern char **environ;
static int failed;

#define CHECK(name, cond, ...) do { \
	if (cond) printf("ok %s\n", name); \
	else { failed++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

/* Read a file whole into a static buffer (no malloc: the heap must not
 * move between two reads of maps). */
static char bufs[4][1 << 16];
static size_t slurp(int k, const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r;
	if (fd < 0)
		return 0;
	while ((r = read(fd, bufs[k] + n, sizeof(bufs[k]) - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	bufs[k][n] = 0;
	return n;
}

struct line {
	unsigned long lo, hi, off, ino;
	unsigned maj, mnr;
	char perm[5];
	const char *name;       /* "" when none */
};

/* Parse and check one maps line in Linux's exact layout (show_map_vma):
 * %08lx-%08lx perms %08lx %02x:%02x inode, a space, and the name from
 * column 73. 0 when it is not. */
static int parse(char *l, struct line *m)
{
	int at = 0;
	if (sscanf(l, "%lx-%lx %4s %lx %x:%x %lu %n", &m->lo, &m->hi, m->perm, &m->off, &m->maj,
		   &m->mnr, &m->ino, &at) != 7)
		return 0;
	char pre[128];
	snprintf(pre, sizeof(pre), "%08lx-%08lx %s %08lx %02x:%02x %lu ", m->lo, m->hi, m->perm,
		 m->off, m->maj, m->mnr, m->ino);
	size_t n = strlen(pre);
	if (strncmp(l, pre, n) || strspn(m->perm, "r-") < 1)
		return 0;
	m->name = l + n;
	if (!*m->name)
		return 1;
	size_t col = n < 73 ? 73 : n + 1;
	if (strlen(l) <= col || strspn(l + n, " ") != col - n)
		return 0;
	m->name = l + col;
	return 1;
}

/* The maps line holding address a (copied), or 0. */
static int find(const char *maps, uintptr_t a, struct line *out, char *copy)
{
	strcpy(copy, maps);
	for (char *l = strtok(copy, "\n"); l; l = strtok(NULL, "\n"))
		if (parse(l, out) && a >= out->lo && a < out->hi)
			return 1;
	return 0;
}

static void on_usr2(int sig) { (void)sig; }

static int field(const char *status, const char *key, char *val, size_t n)
{
	const char *p = strstr(status, key);
	if (!p || (p != status && p[-1] != '\n'))
		return 0;
	p += strlen(key);
	size_t k = strcspn(p, "\n");
	snprintf(val, n, "%.*s", (int)k, p);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ids")) {
		/* riscv_hwprobe (258): keys 0-2 are mvendorid, marchid, mimpid */
		int64_t kv[6] = { 0, 0, 1, 0, 2, 0 };
		if (syscall(258, kv, 3, 0, NULL, 0))
			return 1;
		printf("mvendorid 0x%llx marchid 0x%llx mimpid 0x%llx\n", (unsigned long long)kv[1],
		       (unsigned long long)kv[3], (unsigned long long)kv[5]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "cat")) {
		size_t n = slurp(0, argv[2]);
		fwrite(bufs[0], 1, n, stdout);
		return n ? 0 : 1;
	}
	if (argc < 2 || chdir(argv[1]) < 0)
		return 2;
	static char copy[1 << 16];
	struct line m;
	char exe[PATH_MAX], file[PATH_MAX], v[256];

	/* --- maps: the layout, only guest addresses, nothing of the host */
	size_t n = slurp(0, "/proc/self/maps");
	int lines = 0, bad = 0, host = 0, order = 1;
	unsigned long last = 0;
	strcpy(copy, bufs[0]);
	for (char *l = strtok(copy, "\n"); l; l = strtok(NULL, "\n"), lines++) {
		if (!parse(l, &m)) {
			if (!bad++)
				printf("# bad line: '%s'\n", l);
			continue;
		}
		order &= m.lo >= last && m.lo < m.hi && !(m.lo & 4095) && !(m.hi & 4095);
		last = m.hi;
		host |= m.hi > (1ul << 38) || strstr(m.name, "rvpmu") || strstr(m.name, ".so") ||
			!strcmp(m.name, "[vdso]") || !strcmp(m.name, "[vvar]") || !strcmp(m.name, "[vsyscall]");
	}
	CHECK("maps_format", n && lines >= 5 && !bad && order, "%d lines, %d bad, in order %d", lines, bad, order);
	CHECK("maps_guest_only", !host, "a host address or file is listed");

	realpath("/proc/self/exe", exe);
	int local;
	CHECK("maps_stack", find(bufs[0], (uintptr_t)&local, &m, copy) && !strcmp(m.name, "[stack]") &&
	      !strcmp(m.perm, "rw-p"), "no rw-p [stack] line holds a local");
	unsigned long stack_lo = m.lo, stack_hi = m.hi;
	pthread_attr_t pa;
	void *sb = NULL;
	size_t ss = 0;
	int r = pthread_getattr_np(pthread_self(), &pa);
	if (!r)
		pthread_attr_getstack(&pa, &sb, &ss);
	CHECK("pthread_getattr_np", !r && (uintptr_t)sb + ss == stack_hi && (uintptr_t)sb >= stack_lo,
	      "returns %d, stack %p + %zx, [stack] %lx-%lx", r, sb, ss, stack_lo, stack_hi);
	CHECK("maps_exe", find(bufs[0], (uintptr_t)main, &m, copy) && !strcmp(m.name, exe) &&
	      m.perm[2] == 'x', "the line of main is not the program's r-x");

	void *brk0 = sbrk(0), *brk1 = sbrk(3 * 4096);
	(void)brk1;
	slurp(0, "/proc/self/maps");
	CHECK("maps_heap", find(bufs[0], (uintptr_t)brk0, &m, copy) && !strcmp(m.name, "[heap]"),
	      "sbrk's memory is not in a [heap] line");

	snprintf(file, sizeof(file), "%s/mapped.bin", getcwd(v, sizeof(v)));
	int fd = open(file, O_CREAT | O_RDWR | O_TRUNC, 0644);
	ftruncate(fd, 3 * 4096);
	struct stat st;
	fstat(fd, &st);
	char *sh = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4096);
	char *pv = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	char *an = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(an + 4096, 4096, PROT_READ | PROT_WRITE);
	slurp(0, "/proc/self/maps");
	CHECK("maps_file_shared", find(bufs[0], (uintptr_t)sh, &m, copy) && m.lo == (uintptr_t)sh &&
	      m.hi == (uintptr_t)sh + 2 * 4096 && !strcmp(m.perm, "rw-s") && m.off == 4096 &&
	      m.maj == major(st.st_dev) && m.mnr == minor(st.st_dev) && m.ino == st.st_ino &&
	      !strcmp(m.name, file), "line for %s: %lx-%lx %s %lx %x:%x %lu '%s'", file, m.lo, m.hi,
	      m.perm, m.off, m.maj, m.mnr, m.ino, m.name);
	CHECK("maps_file_private", find(bufs[0], (uintptr_t)pv, &m, copy) && !strcmp(m.perm, "r--p") &&
	      m.off == 0 && !strcmp(m.name, file), "%s '%s'", m.perm, m.name);
	int a1 = find(bufs[0], (uintptr_t)an + 4096, &m, copy);
	CHECK("maps_anon_split", a1 && m.lo == (uintptr_t)an + 4096 && m.hi == (uintptr_t)an + 8192 &&
	      !strcmp(m.perm, "rw-p") && !*m.name && m.ino == 0 && m.maj == 0,
	      "the mprotect'd middle page is not its own anonymous rw-p line");

	/* the same file by every name of the process */
	char self[64];
	snprintf(self, sizeof(self), "/proc/%d/maps", getpid());
	size_t n0 = slurp(0, "/proc/self/maps"), n1 = slurp(1, self);
	size_t n2 = slurp(2, "/proc/thread-self/maps");
	snprintf(self, sizeof(self), "/proc/self/task/%d/maps", getpid());
	size_t n3 = slurp(3, self);
	CHECK("maps_by_pid", n0 && n0 == n1 && n1 == n2 && n2 == n3 && !strcmp(bufs[0], bufs[1]) &&
	      !strcmp(bufs[1], bufs[2]) && !strcmp(bufs[2], bufs[3]), "/proc/<pid>, thread-self, task differ");

	/* relative to /proc, from a directory fd or the cwd */
	char here[PATH_MAX];
	getcwd(here, sizeof(here));
	int pd = open("/proc", O_RDONLY | O_DIRECTORY), rf = openat(pd, "self/maps", O_RDONLY);
	ssize_t rn = rf >= 0 ? read(rf, bufs[1], sizeof(bufs[1]) - 1) : -1;
	bufs[1][rn > 0 ? rn : 0] = 0;
	chdir("/proc");
	int cf = open("self/status", O_RDONLY);
	ssize_t cn = cf >= 0 ? read(cf, bufs[2], sizeof(bufs[2]) - 1) : -1;
	bufs[2][cn > 0 ? cn : 0] = 0;
	chdir(here);
	CHECK("relative_to_proc", rn > 0 && !strcmp(bufs[1], bufs[0]) && strstr(bufs[2], "\nPid:\t1000\n"),
	      "openat(/proc, self/maps) read %zd, open(self/status) from /proc: %.40s", rn, bufs[2]);
	close(rf);
	close(cf);
	close(pd);

	/* --- stat: 52 fields, Linux's order */
	slurp(1, "/proc/self/stat");
	char *rp = strrchr(bufs[1], ')');
	unsigned long long f[53] = { 0 };   /* f[k]: field k (from 1) */
	int nf = 0, at;
	char state = 0;
	if (rp && sscanf(rp + 2, "%c%n", &state, &at) == 1) {
		char *q = rp + 2 + at;
		for (nf = 3; nf < 52 && sscanf(q, " %llu%n", &f[nf + 1], &at) == 1; q += at)
			nf++;
	}
	int pid = atoi(bufs[1]);
	CHECK("stat_fields", nf == 52 && state == 'R' && pid == getpid() && pid == 1000 &&
	      !strncmp(bufs[1], "1000 (proc) R 1 ", 16), "%d fields: %.60s", nf, bufs[1]);
	CHECK("stat_startstack", f[28] >= stack_lo && f[28] < stack_hi, "startstack %llx", f[28]);
	CHECK("stat_code", f[26] <= (uintptr_t)main && (uintptr_t)main < f[27], "code %llx-%llx", f[26], f[27]);
	/* (looked at only inside the stack, where Linux puts them) */
	CHECK("stat_args", f[48] >= stack_lo && f[48] < stack_hi && f[50] >= stack_lo && f[50] < stack_hi &&
	      !strcmp((char *)(uintptr_t)f[48], argv[0]) && (uintptr_t)environ[0] == f[50],
	      "arg_start %llx env_start %llx", f[48], f[50]);

	/* --- status */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGUSR2, on_usr2);
	signal(SIGPIPE, SIG_IGN);
	slurp(1, "/proc/self/status");
	char name[64] = "", blk[64] = "", cgt[64] = "", ign[64] = "", vm[64] = "";
	field(bufs[1], "Name:\t", name, sizeof(name));
	field(bufs[1], "SigBlk:\t", blk, sizeof(blk));
	field(bufs[1], "SigCgt:\t", cgt, sizeof(cgt));
	field(bufs[1], "SigIgn:\t", ign, sizeof(ign));
	field(bufs[1], "VmSize:\t", vm, sizeof(vm));
	CHECK("status_ids", !strcmp(name, "proc") && strstr(bufs[1], "\nPid:\t1000\n") &&
	      strstr(bufs[1], "\nPPid:\t1\n") && strstr(bufs[1], "\nThreads:\t1\n"), "%.80s", bufs[1]);
	CHECK("status_signals", !strcmp(blk, "0000000000000200") && !strcmp(cgt, "0000000000000800") &&
	      !strcmp(ign, "0000000000001000"), "SigBlk %s SigCgt %s SigIgn %s", blk, cgt, ign);
	CHECK("status_vm", strtoull(vm, NULL, 10) * 1024 == f[23] && f[23] > (8u << 20),
	      "VmSize '%s', stat vsize %llu", vm, f[23]);

	/* --- comm, environ, auxv's AT_EXECFN */
	slurp(1, "/proc/self/comm");
	prctl(PR_SET_NAME, "renamed");
	slurp(2, "/proc/self/comm");
	CHECK("comm", !strcmp(bufs[1], "proc\n") && !strcmp(bufs[2], "renamed\n"), "'%s' '%s'", bufs[1], bufs[2]);
	size_t ne = slurp(1, "/proc/self/environ"), k = 0;
	int same = 1;
	for (char **e = environ; *e; k += strlen(*e++) + 1)
		same &= k < ne && !strcmp(bufs[1] + k, *e);
	CHECK("environ", same && k == ne, "differs from environ");
	size_t na = slurp(1, "/proc/self/auxv");
	uint64_t *aux = (uint64_t *)bufs[1];
	same = 0;
	for (size_t i = 0; i + 1 < na / 8; i += 2)
		same |= aux[i] == AT_EXECFN && aux[i + 1] >= stack_lo && aux[i + 1] < stack_hi &&
			!strcmp((char *)(uintptr_t)aux[i + 1], argv[0]);
	CHECK("auxv_execfn", same, "no AT_EXECFN naming argv[0]");

	/* --- exe, fd/N */
	errno = 0;
	CHECK("exe_busy", open("/proc/self/exe", O_RDWR) < 0 && errno == ETXTBSY, "errno %d", errno);
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t tl = readlink(link, target, sizeof(target) - 1);
	target[tl > 0 ? tl : 0] = 0;
	pwrite(fd, "through fd", 10, 0);
	int fd2 = open(link, O_RDONLY);
	char got[16] = "";
	read(fd2, got, 10);
	CHECK("fd_link", !strcmp(target, file) && !strcmp(got, "through fd"), "'%s' -> '%s', read '%s'", link, target, got);
	errno = 0;
	CHECK("fd_missing", readlink("/proc/self/fd/999", target, sizeof(target)) < 0 && errno == ENOENT,
	      "errno %d", errno);

	/* --- what stays closed, and how */
	errno = 0;
	CHECK("mem_refused", open("/proc/self/mem", O_RDONLY) < 0 && errno == EACCES, "errno %d", errno);
	errno = 0;
	CHECK("fd_dir_refused", !opendir("/proc/self/fd") && errno == EACCES, "errno %d", errno);
	errno = 0;
	CHECK("self_dir_refused", open("/proc/self", O_RDONLY | O_DIRECTORY) < 0 && errno == EACCES, "errno %d", errno);
	errno = 0;
	CHECK("other_absent", open("/proc/self/limits", O_RDONLY) < 0 && errno == ENOENT, "errno %d", errno);
	errno = 0;
	CHECK("maps_read_only", open("/proc/self/maps", O_RDWR) < 0 && errno == EACCES, "errno %d", errno);
	int mf = open("/proc/self/maps", O_RDONLY);
	errno = 0;
	CHECK("maps_no_write", write(mf, "x", 1) < 0 && errno == EBADF, "errno %d", errno);
	errno = 0;
	CHECK("maps_no_mmap", mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, mf, 0) == MAP_FAILED && errno == ENODEV,
	      "errno %d", errno);
	unlink(file);
	printf("ALL OK %d\n", failed);
	return failed != 0;
}
