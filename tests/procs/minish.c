/* A shell just big enough for system() and popen() in the tests: sh -c
 * "CMD [ARGS] | CMD [ARGS]..." with the builtins echo and exit, words
 * split at spaces, commands looked for in /bin and /usr/bin. Its exit
 * status is the last command's (128 + N for a signal), as sh's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXW 32

static void run(char *cmd)
{
	char *w[MAXW + 1];
	int n = 0;
	for (char *t = strtok(cmd, " "); t && n < MAXW; t = strtok(NULL, " "))
		w[n++] = t;
	w[n] = NULL;
	if (!n)
		_exit(0);
	if (!strcmp(w[0], "echo")) {
		for (int i = 1; i < n; i++)
			printf("%s%s", w[i], i + 1 < n ? " " : "");
		printf("\n");
		fflush(stdout);
		_exit(0);
	}
	if (!strcmp(w[0], "exit"))
		_exit(n > 1 ? atoi(w[1]) : 0);
	char path[256];
	const char *dirs[] = { "/bin/", "/usr/bin/" };
	for (int i = 0; i < 2 && !strchr(w[0], '/'); i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], w[0]);
		execv(path, w);
	}
	execv(w[0], w);
	fprintf(stderr, "sh: %s: not found\n", w[0]);
	_exit(127);
}

int main(int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[1], "-c"))
		return 2;
	char *stage[MAXW];
	int n = 0, in = 0, st = 0;
	for (char *s = strtok(argv[2], "|"); s && n < MAXW; s = strtok(NULL, "|"))
		stage[n++] = strdup(s);
	pid_t last = 0;
	for (int i = 0; i < n; i++) {
		int fd[2] = { -1, -1 };
		if (i + 1 < n && pipe(fd))
			return 2;
		pid_t p = fork();
		if (!p) {
			if (in) {
				dup2(in, 0);
				close(in);
			}
			if (fd[1] >= 0) {
				dup2(fd[1], 1);
				close(fd[1]);
				close(fd[0]);
			}
			run(stage[i]);
		}
		if (in)
			close(in);
		if (fd[1] >= 0)
			close(fd[1]);
		in = fd[0];
		last = p;
	}
	for (int i = 0; i < n; i++) {
		int s;
		if (wait(&s) == last)
			st = WIFSIGNALED(s) ? 128 + WTERMSIG(s) : WEXITSTATUS(s);
	}
	return st;
}
