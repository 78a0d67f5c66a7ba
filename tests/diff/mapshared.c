/* File mappings are coherent with the file, as on Linux: a MAP_SHARED
 * mapping sees pwrite and write at once, its stores are what pread
 * returns without msync, two mappings of one file see each other's
 * stores; a MAP_PRIVATE mapping sees the file until its first store to a
 * page and keeps its copy after. Also: access checks against the fd's
 * open mode, msync's arguments, mremap growing a shared mapping over
 * more of the file, and SIGBUS (BUS_ADRERR) on a page past the file's
 * end, which a file grown again makes readable. Prints contents and
 * results, never addresses. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf jb;
static volatile uintptr_t bus_addr;
static volatile int bus_code;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	bus_addr = (uintptr_t)si->si_addr;
	bus_code = si->si_code;
	siglongjmp(jb, 1);
}

/* The byte at p, or -1 after a SIGBUS (its offset from base printed). */
static int peek(const volatile unsigned char *p, const void *base)
{
	if (sigsetjmp(jb, 1)) {
		printf("  SIGBUS code %d at +%ld\n", bus_code, (long)(bus_addr - (uintptr_t)base));
		return -1;
	}
	return *p;
}

static char at(int fd, off_t off)
{
	char c = '?';
	return pread(fd, &c, 1, off) == 1 ? c : '!';
}

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) < 0)
		return 2;
	long pg = sysconf(_SC_PAGESIZE);
	struct sigaction sa = { .sa_sigaction = on_bus, .sa_flags = SA_SIGINFO };
	sigaction(SIGBUS, &sa, NULL);
	int fd = open("shared.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
	char page[4096];
	memset(page, 'a', sizeof(page));
	for (int i = 0; i < 3; i++)
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			return 3;
	char *a = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *b = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *c = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, pg);
	char *pv = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (a == MAP_FAILED || b == MAP_FAILED || c == MAP_FAILED || pv == MAP_FAILED)
		return 4;
	pwrite(fd, "P", 1, 100);
	printf("pwrite seen by mapping: %c %c private %c\n", a[100], b[100], pv[100]);
	lseek(fd, 150, SEEK_SET);
	write(fd, "w", 1);
	printf("write seen by mapping: %c\n", a[150]);
	a[200] = 'M';
	printf("store seen by pread: %c, other mapping: %c\n", at(fd, 200), b[200]);
	b[300] = 'N';
	c[5] = 'O';
	printf("second mapping's store: %c, offset mapping's: %c %c\n", a[300], a[pg + 5], at(fd, pg + 5));
	pv[0] = 'X';
	a[1] = 'Y';
	printf("private copy after a store: %c %c, file %c %c\n", pv[0], pv[1], at(fd, 0), at(fd, 1));
	printf("msync %d", msync(a, 3 * pg, MS_SYNC));
	printf(" async+sync %d %d", msync(a, pg, MS_ASYNC | MS_SYNC), errno);
	printf(" unaligned %d %d\n", msync(a + 1, pg, MS_SYNC), errno);

	/* mremap growing a shared mapping maps more of the file */
	ftruncate(fd, 5 * pg);
	char *g = mremap(b, 3 * pg, 5 * pg, MREMAP_MAYMOVE);
	if (g == MAP_FAILED)
		return 5;
	g[4 * pg + 3] = 'G';
	printf("grown mapping: old bytes %c %c, new page stored %c\n", g[200], g[300], at(fd, 4 * pg + 3));

	/* pages past the end of the file */
	ftruncate(fd, pg + 10);
	printf("shrunk: last page tail %d\n", peek((unsigned char *)g + pg + 100, g));
	printf("shrunk: next page %d\n", peek((unsigned char *)g + 2 * pg + 1, g));
	printf("shrunk: other mapping %d\n", peek((unsigned char *)a + 2 * pg, a));
	ftruncate(fd, 3 * pg);
	printf("grown again: %d\n", peek((unsigned char *)g + 2 * pg + 1, g));
	printf("munmap middle %d, still mapped around it: %c\n", munmap(a + pg, pg), a[300]);
	printf("munmap all %d %d %d %d\n", munmap(a, 3 * pg), munmap(g, 5 * pg), munmap(c, pg),
	       munmap(pv, pg));
	printf("after munmap, the file has: %c %c %c %c\n", at(fd, 200), at(fd, 300), at(fd, pg + 5),
	       at(fd, 0));
	close(fd);

	/* the fd's open mode decides what may be mapped */
	fd = open("shared.bin", O_RDONLY);
	char *r = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("read-only fd, shared writable: %s\n", r == MAP_FAILED ? strerror(errno) : "mapped");
	r = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	printf("read-only fd, shared read: %c", r == MAP_FAILED ? '!' : r[200]);
	printf(", mprotect write: %s", mprotect(r, pg, PROT_READ | PROT_WRITE) ? strerror(errno) : "ok");
	r = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	printf(", private writable: %s\n", r == MAP_FAILED ? strerror(errno) : (r[0] = 'z', "mapped"));
	close(fd);
	fd = open("shared.bin", O_WRONLY);
	r = mmap(NULL, pg, PROT_WRITE, MAP_SHARED, fd, 0);
	printf("write-only fd: %s\n", r == MAP_FAILED ? strerror(errno) : "mapped");
	close(fd);
	fd = open("shared.bin", O_RDWR | O_APPEND);
	r = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("append-only fd, shared writable: %s\n", r == MAP_FAILED ? strerror(errno) : "mapped");
	close(fd);

	int *s = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	printf("shared anonymous: %d", s == MAP_FAILED ? -1 : s[5]);
	s[5] = 42;
	printf(" %d\n", s[5]);
	unlink("shared.bin");
	return 0;
}
