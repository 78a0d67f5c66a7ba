/* The valid program the malformed variants are made from; also run as a
 * plain static glibc program and compared with qemu-riscv64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	printf("hello, world: argc=%d\n", argc);
	for (int i = 1; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	char *p = malloc(1 << 20);
	memset(p, 'x', 1 << 20);
	printf("%.5s\n", p + 12345);
	free(p);
	return 3;
}
