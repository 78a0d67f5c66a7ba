/* Memory-mapping calls: anonymous mmap/munmap, mprotect, mremap, a file
 * mapping of a file written in argv[1], MAP_FIXED over an existing range,
 * and brk through sbrk. Prints contents and results, never addresses. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) < 0)
		return 2;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = mmap(NULL, 16 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 3;
	int zero = 1;
	for (size_t i = 0; i < 16 * pg; i++)
		zero &= p[i] == 0;
	printf("anon zeroed %d aligned %d\n", zero, ((uintptr_t)p & (pg - 1)) == 0);
	for (size_t i = 0; i < 16 * pg; i++)
		p[i] = (unsigned char)(i / pg + 1);
	printf("munmap middle %d\n", munmap(p + 4 * pg, 4 * pg));
	printf("mprotect ro %d\n", mprotect(p, pg, PROT_READ));
	printf("still readable %d %d\n", p[0], p[8 * pg]);
	unsigned char *q = mremap(p + 8 * pg, 8 * pg, 32 * pg, MREMAP_MAYMOVE);
	printf("mremap ok %d kept %d %d grown zero %d\n", q != MAP_FAILED, q[0], q[7 * pg],
	       q[20 * pg]);
	unsigned char *r = mmap(p + pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	printf("fixed at hint %d replaced zero %d neighbour %d\n", r == p + pg, r[0], p[2 * pg]);
	munmap(p, 4 * pg);
	munmap(q, 32 * pg);
	errno = 0;
	void *bad = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, -1, 0);	/* no MAP_ANONYMOUS, no fd */
	printf("bad mmap failed %d errno %s\n", bad == MAP_FAILED, strerror(errno));
	printf("munmap unaligned %d %s\n", munmap((char *)q + 1, pg), strerror(errno));

	/* a file mapping sees the file's bytes, and a shared mapping writes back */
	int fd = open("m.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		return 4;
	for (int i = 0; i < 3 * (int)pg; i++) {
		unsigned char b = (unsigned char)(i * 13);
		if (write(fd, &b, 1) != 1)
			return 5;
	}
	unsigned char *f = mmap(NULL, 3 * pg, PROT_READ, MAP_PRIVATE, fd, 0);
	unsigned sum = 0;
	for (size_t i = 0; i < 3 * pg; i++)
		sum = sum * 31 + f[i];
	printf("file map ok %d sum %u\n", f != MAP_FAILED, sum);
	unsigned char *off = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, (off_t)pg);
	printf("offset map %d %d\n", off[0], off[1]);
	munmap(f, 3 * pg);
	munmap(off, pg);
	unsigned char *s = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s != MAP_FAILED) {
		memcpy(s, "SHARED", 6);
		msync(s, pg, MS_SYNC);
		munmap(s, pg);
		char buf[8] = { 0 };
		printf("shared write-back %zd '%s'\n", pread(fd, buf, 6, 0), buf);
	} else {
		printf("shared map failed\n");
	}
	close(fd);
	unlink("m.bin");

	/* brk */
	char *b0 = sbrk(0);
	char *b1 = sbrk(1 << 20);
	char *b2 = sbrk(0);
	memset(b1, 7, 1 << 20);
	printf("sbrk grew %ld ok %d\n", (long)(b2 - b0), b1 == b0);
	sbrk(-(1 << 20));
	printf("sbrk shrank %d\n", sbrk(0) == b0);
	return 0;
}
