/* Where a sample's addresses land, as perf report and perf script see
 * them: the mapping (newest first, the sample's pid preferred), the
 * mapped ELF's symbols (opened once per file, refused when its build id
 * is not the recorded one), the function, the offset and the source
 * line, and the command name of a thread. */
#ifndef RVPMU_RESOLVE_H
#define RVPMU_RESOLVE_H
#include <stddef.h>
#include <stdint.h>
#include "rvpmu/perfdata.h"

struct resolver {
	const struct perfdata_file *f;
	const char *symfs;      /* prefix for mapped paths, or NULL */
	const char *cmd;        /* "report", "script", ...: for warnings */
	int demangle;           /* C++ and Rust names demangled (perf's default) */
	struct resolver_dso {
		char *path;
		struct sym_elf *sym;    /* NULL when it could not be opened */
	} *dsos;
	size_t ndsos;
	void *unwind;           /* the DWARF unwinder's state (src/perf/unwind.c) */
	void (*unwind_free)(void *);
};

/* One address. */
struct loc {
	const struct perfdata_rd_mmap *map;  /* NULL: no mapping holds it */
	struct sym_elf *elf;    /* the mapped file's symbols, or NULL */
	uint64_t ip;
	uint64_t map_ip;        /* perf's map_ip: ip - start + pgoff (ip without a map) */
	uint64_t addr;          /* link-time address, when have_addr */
	int have_addr;
	int kernel;             /* a kernel-mode address (PERF_RECORD_MISC_KERNEL) */
	const char *sym;        /* the function, or NULL */
	uint64_t sym_start;     /* its link-time start */
	uint64_t off;           /* addr - sym_start */
};

void resolver_init(struct resolver *r, const struct perfdata_file *f, const char *symfs,
		   int demangle, const char *cmd);
void resolver_free(struct resolver *r);
/* The mapping that holds ip: the newest, those of the sample's address
 * space (perfdata_rd_sample.space) first. */
const struct perfdata_rd_mmap *resolve_map(const struct perfdata_file *f, uint32_t space, uint64_t ip);
/* Resolve ip of a sample in address space space (kernel: the sample's
 * cpumode is kernel). */
void resolve(struct resolver *r, uint32_t space, uint64_t ip, int kernel, struct loc *l);
/* perf's short dso name: the file's base name ("[kernel.kallsyms]" for
 * the kernel's mapping), "[unknown]" without a mapping. */
const char *loc_dso(const struct loc *l);
/* The mapped path (perf script's dso), or "[unknown]". */
const char *loc_dso_long(const struct loc *l);
/* "file:line" from DWARF into buf: 0, or -1 (buf = perf's "??:0"). */
int loc_srcline(const struct loc *l, char *buf, size_t len);
/* The command name of sample s's tid when it was taken (the COMM
 * records of it, or those of its pid, before s in the file), or perf's
 * ":TID" when none names it; buf holds the latter. s is in f->samples. */
const char *resolver_comm(const struct perfdata_file *f, const struct perfdata_rd_sample *s,
			  char *buf, size_t len);
/* The name sample s's thread has at the end of the file (perf's
 * Pid:Command and Tid:Command columns show it). */
const char *resolver_task_comm(const struct perfdata_file *f, const struct perfdata_rd_sample *s,
			       char *buf, size_t len);
/* Whether a sample was taken in kernel mode (its misc's cpumode). */
int sample_is_kernel(const struct perfdata_rd_sample *s);

#endif
