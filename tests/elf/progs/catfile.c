/* Copies the file argv[1] to stdout (for the --sysroot check). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	char b[4096];
	ssize_t n;
	while ((n = read(fd, b, sizeof(b))) > 0)
		if (write(1, b, (size_t)n) != n)
			return 1;
	return n < 0;
}
