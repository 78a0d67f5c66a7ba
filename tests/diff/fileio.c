/* File system calls inside the directory argv[1] (empty, private to this
 * run): create, write, read back, lseek, pread/pwrite, stat/fstat,
 * ftruncate, dup, readdir, rename, unlink, mkdir/rmdir, stdio, and the
 * errno of calls that must fail. Prints nothing host-specific (no times,
 * inode numbers, or the directory's path). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define TRY(x) do { if ((x) < 0) { printf("FAILED %s: %s\n", #x, strerror(errno)); return 1; } } while (0)

static void err(const char *what, int r)
{
	printf("%s -> %d %s\n", what, r, r < 0 ? strerror(errno) : "ok");
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void listdir(const char *path)
{
	DIR *d = opendir(path);
	if (!d) {
		printf("opendir %s: %s\n", path, strerror(errno));
		return;
	}
	char *names[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64) {
		char t = e->d_type == DT_DIR ? 'd' : e->d_type == DT_REG ? 'f' : '?';
		char *s = malloc(strlen(e->d_name) + 3);
		sprintf(s, "%s:%c", e->d_name, t);
		names[n++] = s;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], cmpstr);	/* readdir order is fs-defined */
	printf("%s:", path);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) < 0) {
		printf("usage: fileio DIR\n");
		return 2;
	}
	umask(022);
	int fd = open("a.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	TRY(fd);
	const char msg[] = "hello, file\nsecond line\n";
	printf("write %zd\n", write(fd, msg, sizeof msg - 1));
	printf("lseek cur %ld\n", (long)lseek(fd, 0, SEEK_CUR));
	TRY(close(fd));

	char buf[256];
	fd = open("a.txt", O_RDWR);
	TRY(fd);
	ssize_t n = read(fd, buf, sizeof buf);
	printf("read %zd '%.*s'\n", n, (int)n, buf);
	printf("read at eof %zd\n", read(fd, buf, sizeof buf));
	printf("lseek set %ld end %ld\n", (long)lseek(fd, 7, SEEK_SET), (long)lseek(fd, -5, SEEK_END));
	n = read(fd, buf, 4);
	printf("after seek '%.*s'\n", (int)n, buf);
	printf("lseek past end %ld\n", (long)lseek(fd, 100, SEEK_END));
	printf("write hole %zd\n", write(fd, "Z", 1));
	printf("pwrite %zd pread %zd", pwrite(fd, "HELLO", 5, 0), pread(fd, buf, 11, 0));
	printf(" '%.11s'\n", buf);
	n = pread(fd, buf, sizeof buf, 20);
	int zeros = 0;
	for (ssize_t i = 0; i < n; i++)
		zeros += buf[i] == 0;
	printf("pread tail %zd zeros %d last '%c'\n", n, zeros, buf[n - 1]);

	struct stat st;
	TRY(fstat(fd, &st));
	printf("fstat size %ld reg %d mode %o nlink %lu\n", (long)st.st_size, S_ISREG(st.st_mode),
	       st.st_mode & 07777, (unsigned long)st.st_nlink);
	TRY(ftruncate(fd, 10));
	TRY(fstat(fd, &st));
	printf("truncated size %ld\n", (long)st.st_size);
	int fd2 = dup(fd);
	TRY(fd2);
	printf("dup shares offset %ld %ld\n", (long)lseek(fd, 3, SEEK_SET), (long)lseek(fd2, 0, SEEK_CUR));
	TRY(close(fd2));
	TRY(close(fd));

	/* stdio on top */
	FILE *f = fopen("b.txt", "w+");
	if (!f)
		return 3;
	for (int i = 0; i < 100; i++)
		fprintf(f, "line %d %x\n", i, i * i);
	rewind(f);
	int lines = 0, last = -1, sq;
	while (fscanf(f, "line %d %x\n", &last, &sq) == 2)
		lines++;
	printf("stdio lines %d last %d sq %x ftell %ld\n", lines, last, sq, ftell(f));
	fclose(f);
	TRY(stat("b.txt", &st));
	printf("stat b.txt size %ld\n", (long)st.st_size);

	/* directories */
	TRY(mkdir("sub", 0755));
	err("mkdir existing", mkdir("sub", 0755));
	TRY(stat("sub", &st));
	printf("sub dir %d mode %o\n", S_ISDIR(st.st_mode), st.st_mode & 07777);
	fd = open("sub/c.bin", O_CREAT | O_WRONLY | O_EXCL, 0600);
	TRY(fd);
	for (int i = 0; i < 64; i++)
		buf[i] = (char)i;
	for (int i = 0; i < 100; i++)
		TRY(write(fd, buf, 64));
	close(fd);
	err("open O_EXCL existing", open("sub/c.bin", O_CREAT | O_WRONLY | O_EXCL, 0600));
	listdir(".");
	listdir("sub");
	err("rmdir non-empty", rmdir("sub"));
	TRY(rename("sub/c.bin", "c.bin"));
	TRY(rename("a.txt", "sub/a2.txt"));
	listdir(".");
	listdir("sub");
	TRY(stat("c.bin", &st));
	printf("c.bin size %ld mode %o\n", (long)st.st_size, st.st_mode & 07777);
	err("stat gone", stat("sub/c.bin", &st));
	err("access c.bin R", access("c.bin", R_OK));
	err("access missing", access("nope", F_OK));
	err("open missing", open("nope/x", O_RDONLY));
	err("unlink dir", unlink("sub"));
	TRY(unlink("sub/a2.txt"));
	TRY(rmdir("sub"));
	err("rmdir gone", rmdir("sub"));
	TRY(unlink("b.txt"));
	TRY(unlink("c.bin"));
	err("unlink twice", unlink("c.bin"));
	listdir(".");
	/* O_APPEND, writev/readv, links, pipe, fcntl */
	fd = open("app.txt", O_CREAT | O_WRONLY | O_APPEND, 0644);
	TRY(fd);
	TRY(write(fd, "one\n", 4));
	lseek(fd, 0, SEEK_SET);		/* O_APPEND writes still go to the end */
	struct iovec iov[3] = { { "two", 3 }, { "-", 1 }, { "three\n", 6 } };
	printf("writev %zd\n", writev(fd, iov, 3));
	printf("append flags %d\n", (fcntl(fd, F_GETFL) & O_APPEND) != 0);
	close(fd);
	fd = open("app.txt", O_RDONLY | O_CLOEXEC);
	TRY(fd);
	char p1[5] = { 0 }, p2[16] = { 0 };
	struct iovec rio[2] = { { p1, 4 }, { p2, sizeof p2 - 1 } };
	printf("readv %zd '%s' '%s' cloexec %d\n", readv(fd, rio, 2), p1, p2,
	       (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	close(fd);
	TRY(link("app.txt", "hard.txt"));
	TRY(stat("app.txt", &st));
	printf("nlink after link %lu\n", (unsigned long)st.st_nlink);
	TRY(symlink("app.txt", "soft"));
	char lb[64];
	ssize_t ln = readlink("soft", lb, sizeof lb);
	printf("readlink %zd '%.*s'\n", ln, (int)(ln > 0 ? ln : 0), lb);
	TRY(lstat("soft", &st));
	printf("lstat link %d size %ld\n", S_ISLNK(st.st_mode), (long)st.st_size);
	TRY(truncate("soft", 3));
	TRY(stat("hard.txt", &st));
	printf("truncate through symlink: size %ld\n", (long)st.st_size);
	TRY(unlink("soft"));
	TRY(unlink("hard.txt"));
	TRY(unlink("app.txt"));
	int pfd[2];
	TRY(pipe(pfd));
	printf("pipe write %zd", write(pfd[1], "through a pipe", 14));
	close(pfd[1]);
	n = read(pfd[0], buf, sizeof buf);
	printf(" read %zd '%.*s' then eof %zd\n", n, (int)n, buf, read(pfd[0], buf, 1));
	close(pfd[0]);
	fd = openat(AT_FDCWD, "at.txt", O_CREAT | O_WRONLY, 0600);
	TRY(fd);
	close(fd);
	TRY(fstatat(AT_FDCWD, "at.txt", &st, 0));
	printf("openat/fstatat mode %o\n", st.st_mode & 07777);
	TRY(unlinkat(AT_FDCWD, "at.txt", 0));
	listdir(".");

	err("read bad fd", (int)read(99, buf, 1));
	err("close bad fd", close(-1));
	char cwd[4096];
	printf("getcwd ok %d\n", getcwd(cwd, sizeof cwd) != NULL && strlen(cwd) > 1);
	return 0;
}
