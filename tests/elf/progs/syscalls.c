/* Guest self-test of rvpmu's user-mode Linux syscalls. Each check prints
 * "ok NAME" or "not ok NAME: why"; expectations are POSIX/Linux semantics
 * (a real riscv64 Linux passes them) except where rvpmu defines the answer:
 * the modelled clock's fixed epoch and the single-hart affinity mask.
 * argv[1]: a scratch directory (created empty by the caller). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <poll.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static int fails;
static void check(const char *name, int ok, const char *why)
{
	if (ok)
		printf("ok %s\n", name);
	else {
		printf("not ok %s: %s (errno %d)\n", name, why, errno);
		fails++;
	}
}
#define CHECK(name, cond) check(name, (cond), #cond)

static char dir[512];
static char *path(const char *leaf)
{
	static char buf[8][640];
	static int k;
	char *b = buf[k++ & 7];
	snprintf(b, 640, "%s/%s", dir, leaf);
	return b;
}

static volatile sig_atomic_t got_sig, got_code;
static volatile void *got_addr;
static sigjmp_buf jb;
static void on_usr(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_signo;
}
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_addr = si->si_addr;
	siglongjmp(jb, 1);
}
static char *prot_page;
static void on_segv_fix(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_addr = si->si_addr;
	mprotect(prot_page, 4096, PROT_READ | PROT_WRITE);
}

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: syscalls SCRATCHDIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	setvbuf(stdout, NULL, _IONBF, 0);

	/* files */
	int fd = open(path("f1"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK("open_creat", fd >= 3);
	const char msg[] = "0123456789abcdef";
	CHECK("write", write(fd, msg, 16) == 16);
	CHECK("lseek", lseek(fd, 4, SEEK_SET) == 4);
	char b[64] = { 0 };
	CHECK("read", read(fd, b, 4) == 4 && !memcmp(b, "4567", 4));
	CHECK("pread", pread(fd, b, 3, 10) == 3 && !memcmp(b, "abc", 3));
	CHECK("pwrite", pwrite(fd, "XY", 2, 0) == 2 && pread(fd, b, 2, 0) == 2 && !memcmp(b, "XY", 2));
	struct stat st;
	CHECK("fstat", fstat(fd, &st) == 0 && st.st_size == 16 && S_ISREG(st.st_mode) && st.st_nlink == 1);
	CHECK("fstat_mode", (st.st_mode & 0777) == (0644 & ~umask(022)));
	struct iovec iov[2] = { { "AB", 2 }, { "CDE", 3 } };
	lseek(fd, 0, SEEK_END);
	CHECK("writev", writev(fd, iov, 2) == 5);
	char r1[3] = { 0 }, r2[2] = { 0 };
	struct iovec riov[2] = { { r1, 3 }, { r2, 2 } };
	lseek(fd, 16, SEEK_SET);
	CHECK("readv", readv(fd, riov, 2) == 5 && !memcmp(r1, "ABC", 3) && !memcmp(r2, "DE", 2));
	CHECK("ftruncate", ftruncate(fd, 7) == 0 && fstat(fd, &st) == 0 && st.st_size == 7);
	CHECK("fsync", fsync(fd) == 0);
	CHECK("stat", stat(path("f1"), &st) == 0 && st.st_size == 7);
	CHECK("stat_enoent", stat(path("nope"), &st) == -1 && errno == ENOENT);
	struct statx sx;
	CHECK("statx", statx(AT_FDCWD, path("f1"), 0, STATX_SIZE, &sx) == 0 && sx.stx_size == 7);
	CHECK("fstatat_empty", fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && st.st_size == 7);
	int fd2 = dup(fd);
	CHECK("dup", fd2 > fd && lseek(fd2, 0, SEEK_CUR) == lseek(fd, 0, SEEK_CUR));
	CHECK("dup2", dup2(fd, 20) == 20 && fcntl(20, F_GETFD) == 0);
	CHECK("fcntl_dupfd", fcntl(fd, F_DUPFD, 30) == 30);
	CHECK("fcntl_getfl", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	CHECK("close", close(20) == 0 && close(30) == 0 && close(fd2) == 0);
	CHECK("close_ebadf", close(30) == -1 && errno == EBADF);
	CHECK("isatty_file", !isatty(fd) && errno == ENOTTY);
	CHECK("access", access(path("f1"), R_OK | W_OK) == 0 && access(path("nope"), F_OK) == -1);
	CHECK("faccessat2", faccessat(AT_FDCWD, path("f1"), R_OK, AT_EACCESS) == 0);

	/* mmap of a file, private */
	char *fm = mmap(NULL, 7, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK("mmap_file", fm != MAP_FAILED && !memcmp(fm, "XY23456", 7) && fm[7] == 0);
	CHECK("munmap_file", munmap(fm, 7) == 0);
	close(fd);

	/* MAP_SHARED: stores reach the file (msync, munmap), and bytes written
	 * with write(2) meanwhile are not clobbered */
	fd = open(path("sh"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	static char page[3 * 4096];
	memset(page, 'a', sizeof(page));
	write(fd, page, sizeof(page));
	char *sh = mmap(NULL, sizeof(page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK("mmap_shared", sh != MAP_FAILED && sh[5000] == 'a');
	sh[10] = 'M';
	CHECK("msync", msync(sh, sizeof(page), MS_SYNC) == 0 && pread(fd, b, 1, 10) == 1 && b[0] == 'M');
	pwrite(fd, "W", 1, 20);
	sh[4096 + 7] = 'H';
	sh[8192 + 9] = 'T';
	CHECK("munmap_hole", munmap(sh + 4096, 4096) == 0 && pread(fd, b, 1, 4096 + 7) == 1 && b[0] == 'H');
	CHECK("munmap_shared", munmap(sh, sizeof(page)) == 0 && pread(fd, b, 1, 8192 + 9) == 1 && b[0] == 'T' &&
	      pread(fd, b, 1, 20) == 1 && b[0] == 'W');
	close(fd);
	unlink(path("sh"));

	/* directories */
	CHECK("mkdir", mkdir(path("d"), 0755) == 0);
	CHECK("mkdir_eexist", mkdir(path("d"), 0755) == -1 && errno == EEXIST);
	close(open(path("d/a"), O_CREAT | O_WRONLY, 0600));
	close(open(path("d/b"), O_CREAT | O_WRONLY, 0600));
	DIR *dp = opendir(path("d"));
	int seen = 0;
	struct dirent *de;
	while (dp && (de = readdir(dp)))
		seen |= !strcmp(de->d_name, "a") ? 1 : !strcmp(de->d_name, "b") ? 2 :
			!strcmp(de->d_name, ".") ? 4 : !strcmp(de->d_name, "..") ? 8 : 16;
	if (dp)
		closedir(dp);
	CHECK("getdents64", seen == 15);
	CHECK("rename", rename(path("d/a"), path("d/c")) == 0 && access(path("d/c"), F_OK) == 0 &&
	      access(path("d/a"), F_OK) == -1);
	CHECK("symlink", symlink("c", path("d/l")) == 0);
	ssize_t n = readlink(path("d/l"), b, sizeof(b));
	CHECK("readlink", n == 1 && b[0] == 'c');
	CHECK("unlink", unlink(path("d/c")) == 0 && unlink(path("d/b")) == 0 && unlink(path("d/l")) == 0);
	CHECK("rmdir", rmdir(path("d")) == 0);
	n = readlink("/proc/self/exe", b, sizeof(b) - 1);
	b[n > 0 ? n : 0] = 0;
	CHECK("proc_self_exe", n > 0 && b[0] == '/' && strstr(b, "syscalls") != NULL);
	char cwd[512];
	CHECK("getcwd", getcwd(cwd, sizeof(cwd)) && cwd[0] == '/');

	/* pipes */
	int pf[2];
	CHECK("pipe", pipe(pf) == 0);
	CHECK("pipe_rw", write(pf[1], "pipe!", 5) == 5 && read(pf[0], b, 5) == 5 && !memcmp(b, "pipe!", 5));
	struct pollfd pl[2] = { { pf[0], POLLIN, 0 }, { 99, POLLIN, 0 } };
	write(pf[1], "z", 1);
	CHECK("poll_ready", poll(pl, 2, 1000) == 2 && pl[0].revents == POLLIN && pl[1].revents == POLLNVAL);
	read(pf[0], b, 1);
	uint64_t p0 = mono_ns();
	CHECK("poll_timeout", poll(pl, 1, 100) == 0 && mono_ns() - p0 >= 100000000ull);
	close(pf[0]);
	close(pf[1]);
	struct statfs sfs;
	CHECK("statfs", statfs(dir, &sfs) == 0 && sfs.f_bsize > 0);
	CHECK("wait_echild", wait(NULL) == -1 && errno == ECHILD);

	/* bad pointers give EFAULT, never a crash */
	CHECK("efault_write", write(1, (void *)8, 4) == -1 && errno == EFAULT);
	CHECK("efault_read", read(0, (void *)16, 4) == -1 && errno == EFAULT);
	CHECK("efault_path", syscall(SYS_openat, AT_FDCWD, (char *)24, O_RDONLY) == -1 && errno == EFAULT);
	CHECK("ebadf", write(77, "x", 1) == -1 && errno == EBADF);

	/* memory */
	char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK("mmap_anon", m != MAP_FAILED && m[12345] == 0);
	memset(m, 7, 1 << 20);
	char *m2 = mremap(m, 1 << 20, 4 << 20, MREMAP_MAYMOVE);
	CHECK("mremap", m2 != MAP_FAILED && m2[(1 << 20) - 1] == 7 && m2[(4 << 20) - 1] == 0);
	CHECK("munmap", munmap(m2, 4 << 20) == 0);
	char *fx = mmap((void *)0x200000000, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK("mmap_fixed", fx == (void *)0x200000000);
	char *nr = mmap(fx, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK("mmap_fixed_noreplace", nr == MAP_FAILED && errno == EEXIST);
	memset(fx, 1, 8192);
	CHECK("madvise_dontneed", madvise(fx, 8192, MADV_DONTNEED) == 0 && fx[100] == 0);
	memset(fx, 1, 8192);   /* two protections in one range: each page keeps its own */
	CHECK("madvise_dontneed_mixed", mprotect(fx + 4096, 4096, PROT_READ) == 0 &&
	      madvise(fx, 8192, MADV_DONTNEED) == 0 && fx[4196] == 0 && (fx[100] = 2) == 2 &&
	      fx[100] == 2 && mprotect(fx + 4096, 4096, PROT_READ | PROT_WRITE) == 0);
	void *b0 = sbrk(0);
	CHECK("brk", sbrk(1 << 20) == b0 && sbrk(0) == (char *)b0 + (1 << 20) && ((char *)b0)[100] == 0);
	void *big = malloc(64 << 20);
	CHECK("malloc_big", big != NULL);
	free(big);

	/* signals */
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_usr;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	got_sig = 0;
	CHECK("kill_self_handler", kill(getpid(), SIGUSR1) == 0 && got_sig == SIGUSR1 && got_code == SIGUSR1);
	got_sig = 0;
	raise(SIGUSR1);
	CHECK("raise", got_sig == SIGUSR1);
	sigaction(SIGUSR2, &sa, NULL);
	sigset_t ss;
	sigemptyset(&ss);
	sigaddset(&ss, SIGUSR2);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	got_sig = 0;
	raise(SIGUSR2);
	CHECK("blocked_pending", got_sig == 0);
	sigprocmask(SIG_UNBLOCK, &ss, NULL);
	CHECK("unblocked_delivered", got_sig == SIGUSR2);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	got_sig = 0;
	raise(SIGUSR2);
	sigset_t pend, cur, none;
	sigemptyset(&pend);
	CHECK("sigpending", sigpending(&pend) == 0 && sigismember(&pend, SIGUSR2) && got_sig == 0);
	sigemptyset(&none);
	CHECK("sigsuspend", sigsuspend(&none) == -1 && errno == EINTR && got_sig == SIGUSR2);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	CHECK("sigsuspend_restores_mask", sigismember(&cur, SIGUSR2));
	raise(SIGUSR2);
	struct timespec zero = { 0, 0 };
	CHECK("sigtimedwait", sigtimedwait(&ss, NULL, &zero) == SIGUSR2 && sigpending(&pend) == 0 &&
	      !sigismember(&pend, SIGUSR2));
	CHECK("sigtimedwait_timeout", sigtimedwait(&ss, NULL, &zero) == -1 && errno == EAGAIN);
	sigprocmask(SIG_UNBLOCK, &ss, NULL);
	signal(SIGUSR1, SIG_IGN);
	CHECK("sig_ign", raise(SIGUSR1) == 0);
	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	got_sig = 0;
	if (!sigsetjmp(jb, 1)) {
		volatile int *bad = (int *)0x18;
		*bad = 1;
	}
	CHECK("segv_handler", got_sig == SIGSEGV && got_addr == (void *)0x18 && got_code == SEGV_MAPERR);
	prot_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sa.sa_sigaction = on_segv_fix;
	sigaction(SIGSEGV, &sa, NULL);
	got_sig = 0;
	*(volatile char *)(prot_page + 5) = 42;
	CHECK("mprotect_fault_resume", got_sig == SIGSEGV && got_addr == prot_page + 5 && prot_page[5] == 42);
	stack_t alt = { .ss_sp = malloc(65536), .ss_size = 65536 }, old;
	CHECK("sigaltstack", sigaltstack(&alt, NULL) == 0 && sigaltstack(NULL, &old) == 0 && old.ss_size == 65536);
	signal(SIGSEGV, SIG_DFL);

	/* time: modelled, deterministic */
	uint64_t t0 = mono_ns();
	struct timespec req = { 1, 500000000 };
	CHECK("nanosleep", nanosleep(&req, NULL) == 0);
	uint64_t t1 = mono_ns();
	CHECK("sleep_advances_monotonic", t1 - t0 >= 1500000000ull && t1 - t0 < 1600000000ull);
	struct timespec rt;
	CHECK("realtime_epoch", clock_gettime(CLOCK_REALTIME, &rt) == 0 && rt.tv_sec >= 1767225600 && rt.tv_sec < 1767225600 + 3600);
	CHECK("clock_getres", clock_getres(CLOCK_MONOTONIC, &rt) == 0 && rt.tv_sec == 0 && rt.tv_nsec > 0);
	CHECK("clock_bad", clock_gettime(12345, &rt) == -1 && errno == EINVAL);
	time_t now = time(NULL);
	CHECK("time", now >= 1767225600);

	/* identity and system */
	struct utsname u;
	CHECK("uname", uname(&u) == 0 && !strcmp(u.sysname, "Linux") && !strcmp(u.machine, "riscv64"));
	CHECK("getpid", getpid() > 0 && getpid() == gettid() && getppid() >= 0);
	CHECK("getuid", getuid() == geteuid() && getgid() == getegid());
	unsigned char rb[40];
	CHECK("getrandom", getrandom(rb, sizeof(rb), 0) == sizeof(rb));
	CHECK("pagesize", sysconf(_SC_PAGESIZE) == 4096 && getauxval(AT_PAGESZ) == 4096);
	unsigned long hw = getauxval(AT_HWCAP);
	const char *isa = "imafdc";
	int hwok = 1;
	for (const char *c = isa; *c; c++)
		hwok &= !!(hw & (1ul << (*c - 'a')));
	CHECK("hwcap", hwok);
	CHECK("at_random", getauxval(AT_RANDOM) != 0);
	CHECK("at_platform", getauxval(AT_PLATFORM) && !strcmp((char *)getauxval(AT_PLATFORM), "riscv64"));
	CHECK("at_execfn", getauxval(AT_EXECFN) && !strcmp((char *)getauxval(AT_EXECFN), argv[0]));
	struct rlimit rl;
	CHECK("getrlimit_stack", getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == 8 << 20);
	cpu_set_t cs;
	CHECK("sched_getaffinity", sched_getaffinity(0, sizeof(cs), &cs) == 0 && CPU_COUNT(&cs) == 1);
	CHECK("sched_yield", sched_yield() == 0);
	struct rusage ru;
	CHECK("getrusage", getrusage(RUSAGE_SELF, &ru) == 0);
	struct { int64_t key; uint64_t value; } hp[3] = { { 4, 0 }, { 3, 0 }, { 0x7fff, 5 } };
	CHECK("riscv_hwprobe", syscall(258, hp, 3, 0, NULL, 0) == 0 && (hp[0].value & 3) == 3 &&
	      (hp[0].value & (7 << 3)) == (7 << 3) && hp[1].value == 1 && hp[2].key == -1);
	CHECK("enosys", syscall(4000) == -1 && errno == ENOSYS);

	printf("%s %d\n", fails ? "FAILED" : "ALL OK", fails);
	return fails ? 1 : 0;
}
