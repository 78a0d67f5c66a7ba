/* Output files put in place only when complete (include/rvpmu/outfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rvpmu/outfile.h"

#define TMP_SUFFIX ".rvpmu-XXXXXX"

/* the temporary files not yet committed, for outfile_scrap_all */
static char *volatile pending[4];

static void forget(const char *tmp)
{
	for (size_t i = 0; i < sizeof(pending) / sizeof(pending[0]); i++)
		if (pending[i] == tmp)
			pending[i] = NULL;
}

static int fail(struct outfile *of, const char *path, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", path, strerror(e));
	outfile_discard(of);
	return -1;
}

int outfile_open(struct outfile *of, const char *path, int backup, char *err, size_t errlen)
{
	memset(of, 0, sizeof(*of));
	of->backup = backup;
	struct stat st;
	size_t n = strlen(path);
	if (!(of->path = strdup(path)))
		return fail(of, path, ENOMEM, err, errlen);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		/* a device or a FIFO: there is nothing to replace */
		if (!(of->f = fopen(path, "w")))
			return fail(of, path, errno, err, errlen);
		return 0;
	}
	if (!(of->tmp = malloc(n + sizeof(TMP_SUFFIX))))
		return fail(of, path, ENOMEM, err, errlen);
	memcpy(of->tmp, path, n);
	memcpy(of->tmp + n, TMP_SUFFIX, sizeof(TMP_SUFFIX));
	int fd = mkstemp(of->tmp);
	if (fd < 0) {
		free(of->tmp);
		of->tmp = NULL;
		return fail(of, path, errno, err, errlen);
	}
	/* the mode fopen would have given PATH (mkstemp's is 0600) */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	if (!(of->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		return fail(of, path, e, err, errlen);
	}
	for (size_t i = 0; i < sizeof(pending) / sizeof(pending[0]); i++)
		if (!pending[i]) {
			pending[i] = of->tmp;
			break;
		}
	return 0;
}

int outfile_commit(struct outfile *of, char *err, size_t errlen)
{
	/* a write that failed earlier leaves the stream's error flag */
	int e = fflush(of->f) || ferror(of->f) ? (errno ? errno : EIO) : 0;
	if (fclose(of->f) && !e)
		e = errno ? errno : EIO;
	of->f = NULL;
	if (e)
		return fail(of, of->path, e, err, errlen);
	if (of->tmp) {
		struct stat st;
		if (of->backup && !stat(of->path, &st) && S_ISREG(st.st_mode) && st.st_size) {
			/* as perf record: the file it replaces becomes PATH.old */
			size_t n = strlen(of->path);
			char *old = malloc(n + 5);
			if (!old)
				return fail(of, of->path, ENOMEM, err, errlen);
			memcpy(old, of->path, n);
			memcpy(old + n, ".old", 5);
			e = rename(of->path, old) ? errno : 0;
			free(old);
			if (e)
				return fail(of, of->path, e, err, errlen);
		}
		if (rename(of->tmp, of->path))
			return fail(of, of->path, errno, err, errlen);
		forget(of->tmp);
		free(of->tmp);
		of->tmp = NULL;
	}
	outfile_discard(of);  /* nothing is left to discard: frees */
	return 0;
}

void outfile_discard(struct outfile *of)
{
	if (of->f)
		fclose(of->f);
	if (of->tmp) {
		forget(of->tmp);
		unlink(of->tmp);
		free(of->tmp);
	}
	free(of->path);
	memset(of, 0, sizeof(*of));
}

void outfile_scrap_all(void)
{
	for (size_t i = 0; i < sizeof(pending) / sizeof(pending[0]); i++)
		if (pending[i])
			unlink(pending[i]);
}
