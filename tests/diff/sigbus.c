/* A load from a file mapping's page past the file's end with no handler:
 * SIGBUS kills the program (exit 135). The bytes of the last page past
 * the end read as zero first. diff: expect-exit 135 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) < 0)
		return 2;
	long pg = sysconf(_SC_PAGESIZE);
	int fd = open("short.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "0123456789", 10) != 10)
		return 3;
	volatile char *m = mmap(NULL, 4 * pg, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return 4;
	printf("in the file: %c, past its end in its page: %d\n", m[5], m[100]);
	fflush(stdout);
	printf("next page: %d\n", m[pg + 8]);
	return 0;
}
