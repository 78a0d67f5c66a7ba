/* Processes: fork and wait statuses, exec of a program (itself, in
 * another mode), posix_spawn (vfork: CLONE_VM|CLONE_VFORK), a pipe between
 * processes, MAP_SHARED|MAP_ANONYMOUS memory shared with a child, a
 * child killed by a signal, kill between processes with a handler,
 * SIGCHLD, waitid with WNOHANG, process groups. The output is what Linux
 * gives: the suite compares it with a host build run natively. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static int fcntl_ok(int fd) { return fcntl(fd, F_GETFD) >= 0; }

extern char **environ;
static volatile sig_atomic_t got_usr1, got_chld;
static void on_usr1(int s) { (void)s; got_usr1 = 1; }
static void on_chld(int s) { (void)s; got_chld++; }

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "child")) {
		printf("exec'd child: %s, fd 5 %s, fd 6 %s\n", argv[2], fcntl_ok(5) ? "open" : "closed",
		       fcntl_ok(6) ? "open" : "closed");
		return 7;
	}
	int st, x = 5;
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		x = 6;
		printf("child: x %d, getppid is the parent %d\n", x, getppid() != getpid());
		fflush(stdout);
		_exit(3);
	}
	int w = waitpid(p, &st, 0) == p;
	printf("waitpid: %d, exited %d, status %d, parent's x %d\n", w, WIFEXITED(st), WEXITSTATUS(st), x);

	/* exec: fd 5 without close-on-exec stays, fd 6 with it goes */
	dup2(1, 5);
	dup2(1, 6);
	fcntl(6, F_SETFD, FD_CLOEXEC);
	fflush(stdout);
	if (!(p = fork())) {
		char *a[] = { argv[0], "child", "hello", NULL };
		execv(argv[0], a);
		_exit(99);
	}
	waitpid(p, &st, 0);
	printf("exec'd child's status %d\n", WEXITSTATUS(st));
	if (!(p = fork())) {
		char *a[] = { "nothing", NULL };
		execv("/nonexistent/program", a);
		printf("execv of a missing file: %s\n", strerror(errno));
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);

	pid_t sp;
	char *a2[] = { argv[0], "child", "spawned", NULL };
	int e = posix_spawn(&sp, argv[0], NULL, NULL, a2, environ);
	waitpid(sp, &st, 0);
	printf("posix_spawn %d, status %d\n", e, WEXITSTATUS(st));

	int fd[2];
	if (pipe(fd))
		return 1;
	if (!fork()) {
		close(fd[0]);
		for (int i = 0; i < 3000; i++)
			dprintf(fd[1], "line %d\n", i);
		_exit(0);
	}
	close(fd[1]);
	char buf[4096];
	long tot = 0, n;
	while ((n = read(fd[0], buf, sizeof(buf))) > 0)
		tot += n;
	close(fd[0]);
	wait(&st);
	printf("pipe: %ld bytes\n", tot);

	int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *private = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*shared = *private = 1;
	if (!fork()) {
		*shared = *private = 42;
		_exit(0);
	}
	wait(&st);
	printf("shared mapping %d, private mapping %d\n", *shared, *private);

	if (!fork())
		abort();
	wait(&st);
	printf("killed child: signaled %d, signal %d\n", WIFSIGNALED(st), WTERMSIG(st));

	signal(SIGUSR1, on_usr1);
	signal(SIGCHLD, on_chld);
	sigset_t blk, old;
	sigemptyset(&blk);
	sigaddset(&blk, SIGUSR1);
	sigprocmask(SIG_BLOCK, &blk, &old);
	pid_t parent = getpid();
	if (!(p = fork())) {
		kill(parent, SIGUSR1);
		pause();   /* until the parent kills it */
		_exit(0);
	}
	sigsuspend(&old);
	printf("SIGUSR1 from the child: %d\n", got_usr1);
	siginfo_t si = { 0 };
	w = waitid(P_PID, p, &si, WEXITED | WNOHANG);
	printf("waitid WNOHANG while it runs: %d, si_pid %d\n", w, si.si_pid);
	kill(p, SIGTERM);
	waitid(P_PID, p, &si, WEXITED);
	printf("waitid: code %s, status %d, pid right %d, SIGCHLD seen %d\n",
	       si.si_code == CLD_KILLED ? "CLD_KILLED" : "?", si.si_status, si.si_pid == p, got_chld > 0);

	/* a child in a group of its own, killed through the group */
	if (!(p = fork())) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(p, p);
	w = getpgid(p) == p;
	printf("child's group is its pid: %d, ours is not: %d\n", w, getpgid(0) != p);
	kill(-p, SIGKILL);
	waitpid(p, &st, 0);
	printf("group killed: %d\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	errno = 0;
	w = wait(&st);
	printf("wait with no child: %d %s\n", w, strerror(errno));
	return 0;
}
