/* Output files that replace an existing file only once they are
 * complete: the text goes to a temporary file beside PATH, which takes
 * PATH's name at outfile_commit. A run that fails, or a process that
 * dies, leaves an existing PATH as it was. A PATH that exists and is not
 * a regular file (/dev/null, /dev/full, a FIFO) is written directly.
 *
 *   struct outfile of;
 *   if (outfile_open(&of, path, 0, err, len)) ...error...
 *   fprintf(of.f, ...);
 *   if (outfile_commit(&of, err, len)) ...error (write failed)...
 */
#ifndef RVPMU_OUTFILE_H
#define RVPMU_OUTFILE_H
#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;
	char *path;
	char *tmp;      /* the temporary file, or NULL when writing path directly */
	int backup;     /* at commit, a non-empty PATH becomes PATH.old (perf record's backup) */
};

/* Open for writing. Returns 0, or -1 with "PATH: reason" in err. */
int outfile_open(struct outfile *of, const char *path, int backup, char *err, size_t errlen);
/* Flush and close the file and give it its name. Returns 0, or -1 with
 * "PATH: reason" in err after removing the temporary file. */
int outfile_commit(struct outfile *of, char *err, size_t errlen);
/* Close without keeping what was written (PATH stays as it was). */
void outfile_discard(struct outfile *of);
/* Remove the temporary files of every open outfile. Async-signal-safe:
 * for a process about to die of a signal. */
void outfile_scrap_all(void);

#endif
