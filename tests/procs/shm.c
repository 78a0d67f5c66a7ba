/* System V shared memory between a parent and its child, and the small
 * calls: fchown, fchownat, prctl. The output is the host Linux's. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600);
	char *m = shmat(id, NULL, 0);
	if (id < 0 || m == (void *)-1)
		return 1;
	strcpy(m, "before");
	fflush(stdout);
	if (!fork()) {
		char *c = shmat(id, NULL, 0);   /* a second attach in the child */
		strcpy(m + 4096, "child's own attach");
		strcpy(c, "after");
		shmdt(c);
		_exit(0);
	}
	wait(NULL);
	struct shmid_ds ds;
	shmctl(id, IPC_STAT, &ds);
	printf("shm: '%s', '%s', size %zu, attached %lu\n", m, m + 4096, (size_t)ds.shm_segsz,
	       (unsigned long)ds.shm_nattch);
	int a = shmdt(m), b = shmdt(m);
	printf("shmdt: %d, again: %d\n", a, b);
	a = shmctl(id, IPC_RMID, NULL);
	b = shmctl(id, IPC_STAT, &ds);
	printf("rmid: %d, then stat: %d\n", a, b);

	int fd = open(".", O_RDONLY | O_DIRECTORY);
	a = fchown(fd, getuid(), getgid());
	b = fchownat(fd, "", getuid(), getgid(), AT_EMPTY_PATH);
	printf("fchown to itself: %d, fchownat: %d\n", a, b);
	int sig = -1;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	prctl(PR_GET_PDEATHSIG, &sig);
	printf("pdeathsig %d, dumpable %d\n", sig, prctl(PR_GET_DUMPABLE));
	return 0;
}
