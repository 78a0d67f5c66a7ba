/* A pipeline of three processes made with fork, pipe, dup2 and exec of
 * this program in each role: gen N | upper | count. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "gen")) {
		for (int i = 0; i < atoi(argv[2]); i++)
			printf("item %d of the pipeline\n", i);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "upper")) {
		int c;
		while ((c = getchar()) != EOF)
			putchar(toupper(c));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "count")) {
		long lines = 0, bytes = 0, sum = 0;
		int c;
		while ((c = getchar()) != EOF) {
			bytes++;
			sum = (sum * 31 + c) % 1000000007;
			lines += c == '\n';
		}
		printf("%ld lines, %ld bytes, hash %ld\n", lines, bytes, sum);
		return 5;
	}
	char *stages[3][4] = { { argv[0], "gen", "20000", NULL }, { argv[0], "upper", NULL },
			       { argv[0], "count", NULL } };
	int in = -1;
	pid_t pid[3];
	for (int i = 0; i < 3; i++) {
		int fd[2] = { -1, -1 };
		if (i < 2 && pipe(fd))
			return 1;
		if (!(pid[i] = fork())) {
			if (in >= 0)
				dup2(in, 0), close(in);
			if (fd[1] >= 0)
				dup2(fd[1], 1), close(fd[1]), close(fd[0]);
			execv(argv[0], stages[i]);
			_exit(127);
		}
		if (in >= 0)
			close(in);
		if (fd[1] >= 0)
			close(fd[1]);
		in = fd[0];
	}
	for (int i = 0; i < 3; i++) {
		int st;
		waitpid(pid[i], &st, 0);
		printf("stage %d: status %d\n", i, WEXITSTATUS(st));
	}
	return 0;
}
