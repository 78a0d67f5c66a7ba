/* What a program reads about itself under /proc, where qemu-riscv64
 * emulates it too: the lines of /proc/self/maps for the program's own
 * file (addresses, permissions, offsets, device and inode are the ELF's
 * and the file's), pthread_getattr_np on the main thread (glibc finds the
 * stack in /proc/self/maps), /proc/self/exe as link and as file, auxv
 * against getauxval, cmdline against argv, and stat's pid, comm and
 * ppid. Prints results, never host-dependent values (qemu-riscv64 7.2
 * shows its own /proc/self/environ and status, so tests/kernel checks
 * those). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole of a /proc file (NUL-terminated), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);
	ssize_t r;
	while (b && (r = read(fd, b + n, cap - n)) > 0)
		n += (size_t)r;
	close(fd);
	if (b)
		b[n] = 0;
	if (len)
		*len = n;
	return b;
}

int main(int argc, char **argv)
{
	char exe[PATH_MAX], self[PATH_MAX];
	if (!realpath(argv[0], exe))
		return 2;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	printf("readlink exe is the program: %d\n", !strcmp(self, exe));
	struct stat st;
	stat(exe, &st);

	char *maps = slurp("/proc/self/maps", NULL);
	for (char *l = maps ? strtok(maps, "\n") : NULL; l; l = strtok(NULL, "\n")) {
		unsigned long lo, hi, off, ino;
		unsigned maj, mnr;
		char perm[5];
		int at = 0;
		if (sscanf(l, "%lx-%lx %4s %lx %x:%x %lu %n", &lo, &hi, perm, &off, &maj, &mnr, &ino, &at) < 7)
			continue;
		if (!strcmp(l + at, exe))
			printf("own file: %lx-%lx %s %lx same inode %d\n", lo, hi, perm, off,
			       ino == (unsigned long)st.st_ino);
	}

	pthread_attr_t a;
	void *base = NULL;
	size_t size = 0;
	int r = pthread_getattr_np(pthread_self(), &a);
	if (!r)
		pthread_attr_getstack(&a, &base, &size);
	uintptr_t here = (uintptr_t)&a;
	printf("pthread_getattr_np %d, stack holds a local %d\n", r,
	       here >= (uintptr_t)base && here < (uintptr_t)base + size);

	int fd = open("/proc/self/exe", O_RDONLY);
	char magic[4] = { 0 };
	struct stat fs;
	printf("open exe: ELF %d, same file %d\n", read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4),
	       !fstat(fd, &fs) && fs.st_ino == st.st_ino && fs.st_size == st.st_size);
	close(fd);

	size_t len;
	uint64_t *aux = (uint64_t *)slurp("/proc/self/auxv", &len);
	int same = aux && len % 16 == 0 && len >= 16 && !aux[len / 8 - 2], types = 0;
	for (size_t i = 0; same && i + 2 < len / 8; i += 2, types++)
		same = aux[i + 1] == getauxval(aux[i]);
	printf("auxv: %d entries as getauxval gives them %d, AT_PAGESZ %ld\n", types > 10, same,
	       (long)getauxval(AT_PAGESZ));

	char *cmd = slurp("/proc/self/cmdline", &len), *c = cmd;
	same = cmd != NULL;
	for (int i = 0; same && i < argc; c += strlen(argv[i++]) + 1)
		same = c < cmd + len && !strcmp(c, argv[i]);
	printf("cmdline is argv: %d\n", same && c == cmd + len);

	char *stat_ = slurp("/proc/self/stat", NULL), comm[64] = "";
	int pid = 0, ppid = 0;
	char state;
	if (stat_)
		sscanf(stat_, "%d (%63[^)]) %c %d", &pid, comm, &state, &ppid);
	printf("stat: pid %d, comm %d, ppid %d\n", pid == getpid(), !strcmp(comm, "procself"),
	       ppid == getppid());
	return 0;
}
