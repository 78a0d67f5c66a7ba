/* File mappings beyond what qemu-riscv64 7.2 does as Linux does (so not
 * in tests/diff):
 *   fmap dup DIR       mremap(old_size 0) maps a shared mapping's pages
 *                      again: stores through either are the other's
 *   fmap wait FILE     maps FILE's two pages shared, prints "ready", waits
 *                      for a line on stdin, then reads the second page
 *                      (the test shrinks FILE meanwhile: SIGBUS) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long pg = sysconf(_SC_PAGESIZE);
	if (argc < 3)
		return 2;
	if (!strcmp(argv[1], "dup")) {
		if (chdir(argv[2]) < 0)
			return 2;
		int fd = open("dup.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
		if (fd < 0 || ftruncate(fd, 2 * pg))
			return 3;
		char *a = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		char *d = mremap(a, 0, 2 * pg, MREMAP_MAYMOVE);
		if (a == MAP_FAILED || d == MAP_FAILED || d == a)
			return 4;
		d[7] = 'D';
		a[pg + 1] = 'A';
		char c = 0;
		pread(fd, &c, 1, 7);
		printf("dup: %c %c %c\n", a[7], d[pg + 1], c);
		int *anon = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		printf("private anonymous: %s\n", mremap(anon, 0, pg, MREMAP_MAYMOVE) == MAP_FAILED ?
		       "refused" : "mapped");
		unlink("dup.bin");
		return 0;
	}
	int fd = open(argv[2], O_RDWR);
	volatile char *m = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fd, 0);
	if (fd < 0 || m == MAP_FAILED)
		return 3;
	printf("ready %c\n", m[pg]);
	fflush(stdout);
	char line[8];
	if (read(0, line, sizeof(line)) <= 0)
		return 4;
	printf("after: %d\n", m[pg]);
	return 0;
}
