/* The program's randomness comes from rvpmu's deterministic stream:
 *   random getrandom N | urandom N | random N | readv N
 *       prints N bytes (hex) from getrandom(2), a read of /dev/urandom or
 *       /dev/random, or a readv of /dev/urandom in two halves
 *   random bits        reads 64 KiB of /dev/urandom and counts its set
 *       bits one loop turn per bit, so the instruction count follows
 *       the bytes; prints the count
 *   random mmap        mmap of /dev/urandom (ENODEV, as on Linux) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <unistd.h>

static unsigned char b[1 << 16];

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	size_t n = argc > 2 ? (size_t)atoi(argv[2]) : sizeof(b);
	if (n > sizeof(b))
		return 2;
	const char *m = argv[1];
	ssize_t got;
	if (!strcmp(m, "getrandom")) {
		got = getrandom(b, n, 0);
	} else if (!strcmp(m, "mmap")) {
		int fd = open("/dev/urandom", O_RDONLY);
		void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		printf("%s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
		return 0;
	} else {
		int fd = open(!strcmp(m, "random") ? "/dev/random" : "/dev/urandom", O_RDONLY);
		if (fd < 0)
			return 3;
		struct iovec v[2] = { { b, n / 2 }, { b + n / 2, n - n / 2 } };
		got = !strcmp(m, "readv") ? readv(fd, v, 2) : read(fd, b, n);
	}
	if (got != (ssize_t)n)
		return 4;
	if (!strcmp(m, "bits")) {
		unsigned long bits = 0;
		for (size_t i = 0; i < n; i++)
			for (unsigned x = b[i]; x; x &= x - 1)
				bits++;
		printf("%lu\n", bits);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	printf("\n");
	return 0;
}
