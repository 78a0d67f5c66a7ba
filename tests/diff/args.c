/* The initial process state: argv, envp, auxv entries that must be
 * deterministic, and the stack layout conventions (argv[argc] == NULL,
 * envp right after argv). The suite runs it under env -i. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char **environ;

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv, char **envp)
{
	printf("argc %d\n", argc);
	for (int i = 0; i <= argc; i++)
		printf("argv[%d] = %s%s%s\n", i, argv[i] ? "'" : "", argv[i] ? argv[i] : "NULL",
		       argv[i] ? "'" : "");
	printf("envp follows argv %d, environ == envp %d\n", envp == argv + argc + 1, environ == envp);
	/* sorted: qemu-user hands the environment over in reverse order */
	int ne = 0;
	while (envp[ne])
		ne++;
	qsort(envp, (size_t)ne, sizeof envp[0], cmpstr);
	for (int i = 0; i < ne; i++)
		printf("env '%s'\n", envp[i]);
	const char *foo = getenv("FOO");
	printf("getenv FOO %s, NOPE %s\n", foo ? foo : "(null)", getenv("NOPE") ? "set" : "(null)");
	setenv("NEW", "1", 0);
	printf("setenv NEW %s\n", getenv("NEW"));
	printf("pagesz %lu sysconf %ld\n", getauxval(AT_PAGESZ), sysconf(_SC_PAGESIZE));
	printf("secure %lu\n", getauxval(AT_SECURE));
	const char *rnd = (const char *)getauxval(AT_RANDOM);
	printf("at_random present %d\n", rnd != NULL);
	printf("stack aligned %d\n", ((uintptr_t)__builtin_frame_address(0) & 15) == 0);
	return 0;
}
