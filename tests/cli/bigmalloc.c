/* Asks malloc for 64 MiB: prints "ENOMEM" when that fails (under
 * --max-mem 16), else touches every page and prints "allocated". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t n = (size_t)64 << 20;
	char *p = malloc(n);
	if (!p) {
		printf("%s\n", errno == ENOMEM ? "ENOMEM" : "malloc failed, errno not ENOMEM");
		return 0;
	}
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
	printf("allocated\n");
	return 0;
}
