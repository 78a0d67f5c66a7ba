/* Integer/string/stdio code for the disassembly comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	int v[64];
	for (int i = 0; i < 64; i++)
		v[i] = (i * 7919) % 101 - argc;
	qsort(v, 64, sizeof(v[0]), cmp);
	char buf[128];
	snprintf(buf, sizeof(buf), "%s %d %ld", argv[0], v[3], strtol("-42", NULL, 10));
	puts(buf);
	return (int)strlen(buf) & 1;
}
