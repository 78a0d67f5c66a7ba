/* system() and popen() run "sh -c": the suite gives rvpmu a sysroot
 * with a small sh and cat; the output is what the host's sh gives. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

int main(void)
{
	fflush(stdout);
	int st = system("echo hello from system");
	printf("system: status %d\n", WEXITSTATUS(st));
	st = system("exit 3");
	printf("system exit 3: status %d\n", WEXITSTATUS(st));
	FILE *f = popen("echo one two | cat", "r");
	char line[128];
	while (f && fgets(line, sizeof(line), f))
		printf("popen read: %s", line);
	printf("pclose: %d\n", f ? WEXITSTATUS(pclose(f)) : -1);
	fflush(stdout);
	f = popen("cat", "w");
	for (int i = 0; f && i < 3; i++)
		fprintf(f, "popen write %d\n", i);
	printf("pclose: %d\n", f ? WEXITSTATUS(pclose(f)) : -1);
	return 0;
}
