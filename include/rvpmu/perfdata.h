/* perf.data files: a writer that Linux perf reads, rvpmu's own reader,
 * symbols of guest ELFs and `rvpmu report`.
 *
 * Writer use:
 *   struct perfdata_writer *w = perfdata_create(path, ev, nev, argc, argv, err, len);
 *   perfdata_comm(w, pid, tid, "prog");
 *   perfdata_mmap2(w, pid, tid, addr, len, pgoff, prot, "/path/prog");
 *   perfdata_sample(w, 0, &(struct perfdata_sample){ .ip = pc, ... });
 *   perfdata_close(w, err, len);
 * Records are host-endian (perf.data is native-endian). The file is only
 * complete after perfdata_close, which writes the header and features.
 */
#ifndef RVPMU_PERFDATA_H
#define RVPMU_PERFDATA_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* perf_event_attr.type values (include/uapi/linux/perf_event.h) */
enum {
	PERFDATA_TYPE_HARDWARE = 0,
	PERFDATA_TYPE_SOFTWARE = 1,
	PERFDATA_TYPE_HW_CACHE = 3,
	PERFDATA_TYPE_RAW = 4,
};

/* One event of the recording; becomes a perf_event_attr. */
struct perfdata_event {
	const char *name;          /* "cycles", "r1234", ... (HEADER_EVENT_DESC) */
	uint32_t type;             /* PERFDATA_TYPE_* */
	uint64_t config;
	uint64_t sample_period;    /* or the frequency when freq is set */
	int freq;
	int exclude_user, exclude_kernel, exclude_hv;
	int exclude_host, exclude_guest;   /* :G, :H */
	int callchain;             /* samples carry PERF_SAMPLE_CALLCHAIN */
	int branch_stack;          /* samples carry PERF_SAMPLE_BRANCH_STACK */
	uint64_t branch_sample_type; /* PERF_SAMPLE_BRANCH_* (0: ANY|USER) */
	/* --call-graph dwarf: PERF_SAMPLE_REGS_USER of these registers and
	 * PERF_SAMPLE_STACK_USER of this many bytes (the user part of the
	 * callchain excluded, as perf asks) */
	uint64_t regs_user;
	uint32_t stack_user;
	/* leader sampling ({a,b}:S): PERF_SAMPLE_READ of the group's
	 * counts (PERF_FORMAT_GROUP | ID) */
	int read_group;
	int group;                 /* 1 + its group leader's index; 0: alone */
};

/* perf_branch_entry.type (PERF_BR_*) */
enum {
	PERFDATA_BR_UNKNOWN, PERFDATA_BR_COND, PERFDATA_BR_UNCOND,
	PERFDATA_BR_IND, PERFDATA_BR_CALL, PERFDATA_BR_IND_CALL,
	PERFDATA_BR_RET, PERFDATA_BR_SYSCALL, PERFDATA_BR_SYSRET,
	PERFDATA_BR_COND_CALL, PERFDATA_BR_COND_RET, PERFDATA_BR_ERET,
	PERFDATA_BR_IRQ,
};

/* One branch record (perf_branch_entry). */
struct perfdata_branch {
	uint64_t from, to;
	uint16_t cycles;           /* cycles since the previous record, 0 = unknown */
	uint8_t mispred, predicted;
	uint8_t type;              /* PERFDATA_BR_* */
	uint8_t priv;              /* PERF_BR_PRIV_*: 1 user, 2 kernel, 3 hv */
};

/* One overflow sample. Optional parts are NULL/0 when absent. */
struct perfdata_sample {
	uint64_t ip;
	int kernel;                /* taken in kernel mode (PERF_RECORD_MISC_KERNEL) */
	uint32_t pid, tid;
	uint64_t time;             /* ns */
	uint64_t period;
	uint32_t cpu;
	/* call chain, innermost first; callchain[0] should be ip (as the
	 * kernel records it). The writer adds PERF_CONTEXT_USER (or, for a
	 * kernel sample, PERF_CONTEXT_KERNEL). */
	const uint64_t *callchain;
	uint32_t nr_callchain;
	/* branch records, newest first (as LBR/CTR report them) */
	const struct perfdata_branch *branches;
	uint32_t nr_branches;
	/* PERF_SAMPLE_READ: the group's counts, leader first (event order) */
	const uint64_t *read;
	uint32_t nr_read;
	/* REGS_USER (in the event's regs_user bit order) and STACK_USER:
	 * stack_size bytes from sp, of which dyn_size are the stack */
	const uint64_t *regs;
	const uint8_t *stack;
	uint32_t stack_size, dyn_size;
};

struct perfdata_writer;

/* Create path and start writing events[0..nevents). argv is the recorded
 * command line (HEADER_CMDLINE). Path "-" writes perf's pipe format to
 * standard output (the attrs and features as records, nothing seeks).
 * Returns NULL with a reason in err. */
struct perfdata_writer *perfdata_create(const char *path, const struct perfdata_event *events,
					unsigned nevents, int argc, char *const *argv,
					char *err, size_t errlen);
/* PERF_RECORD_COMM: a task's name; exec: it came with a new program. */
int perfdata_comm(struct perfdata_writer *w, uint32_t pid, uint32_t tid, const char *name, int exec);
/* An executable mapping; path is the ELF perf should symbolise (its
 * build id goes into HEADER_BUILD_ID when present). prot: PROT_* bits. */
int perfdata_mmap2(struct perfdata_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
		   uint64_t len, uint64_t pgoff, uint32_t prot, const char *path);
/* Map every executable PT_LOAD segment of the ELF at path loaded with
 * load bias bias (0 for ET_EXEC), as the kernel's mmap events would. */
int perfdata_mmap_elf(struct perfdata_writer *w, uint32_t pid, uint32_t tid,
		      const char *path, uint64_t bias);
int perfdata_sample(struct perfdata_writer *w, unsigned event, const struct perfdata_sample *s);
/* The time (ns) the records other than samples carry from now on, in
 * their sample_id (perf orders records by it): 0 at first. */
void perfdata_set_time(struct perfdata_writer *w, uint64_t time);
/* PERF_RECORD_FORK of task pid/tid made by ppid/ptid, and a task's
 * PERF_RECORD_EXIT (the parent's ids as fork's, as the kernel does). */
int perfdata_fork(struct perfdata_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
		  uint32_t ptid, uint64_t time);
int perfdata_exit(struct perfdata_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
		  uint32_t ptid, uint64_t time);
/* Finish the file and free w (also on error). Returns 0 or -1 with err. */
int perfdata_close(struct perfdata_writer *w, char *err, size_t errlen);
/* The same, with the file put in place under another name. */
int perfdata_close_as(struct perfdata_writer *w, const char *path, char *err, size_t errlen);
uint64_t perfdata_nsamples(const struct perfdata_writer *w);
/* Bytes written so far, and the FINISHED_ROUND records among them (a
 * round is what perf writes per wakeup). */
uint64_t perfdata_size(const struct perfdata_writer *w);
uint64_t perfdata_rounds(const struct perfdata_writer *w);

/* ---- reader ---- */

struct perfdata_rd_event {
	char name[64];
	uint32_t type;
	uint64_t config, sample_period, sample_type, read_format, branch_sample_type;
	uint64_t sample_regs_user;  /* PERF_SAMPLE_REGS_USER: which registers */
	uint32_t sample_stack_user; /* PERF_SAMPLE_STACK_USER: bytes asked for */
	int freq, sample_id_all, exclude_user, exclude_kernel, exclude_callchain_user;
	int leader;                /* its group's leader (itself when alone) */
	void *attr;                /* the struct perf_event_attr as read */
	uint64_t *ids;
	unsigned nids;
	uint64_t nsamples, total_period;
};

/* An address space: a process from an exec (or its first record) to the
 * next; its id is the pid for the first, 0x80000000 up for later ones.
 * Samples resolve against the mappings of their own space. */
#define PERFDATA_SPACE_EXEC 0x80000000u

struct perfdata_rd_mmap {
	uint32_t pid, tid;
	uint32_t space;
	uint64_t addr, len, pgoff;
	uint32_t prot;
	char *path;
};

struct perfdata_rd_comm {
	uint32_t pid, tid;
	char name[32];
	size_t seq;                /* samples before it in the file */
};

struct perfdata_rd_sample {
	unsigned event;            /* index into events */
	uint16_t misc;
	uint64_t ip, time, period, id;
	uint32_t pid, tid, cpu;
	uint32_t space;            /* its process's address space then */
	const uint64_t *callchain; /* raw, PERF_CONTEXT_* markers included */
	uint32_t nr_callchain;
	const struct perfdata_branch *branches;
	uint32_t nr_branches;
	/* PERF_SAMPLE_REGS_USER: the event's sample_regs_user registers in
	 * bit order (NULL when the abi said none); PERF_SAMPLE_STACK_USER:
	 * the copied user stack from the sampled sp (points into the parsed
	 * image, which must outlive the file) */
	const uint64_t *regs;
	uint32_t nr_regs;
	const uint8_t *stack;
	uint64_t stack_size;
};

struct perfdata_buildid {
	uint8_t id[20];
	unsigned len;
	char *path;
};

struct perfdata_file {
	struct perfdata_rd_event *events;
	unsigned nevents;
	struct perfdata_rd_sample *samples;
	size_t nsamples;
	struct perfdata_rd_mmap *mmaps;
	size_t nmmaps;
	struct perfdata_rd_comm *comms;
	size_t ncomms;
	struct perfdata_buildid *buildids;
	size_t nbuildids;
	char arch[32], hostname[64], osrelease[64], version[64], cpudesc[128];
	char *cmdline;             /* the argv joined by spaces, or NULL */
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t nrecords, nunknown, lost;
	uint64_t first_time, last_time;   /* HEADER_SAMPLE_TIME */
	int pipe;                  /* read from perf's pipe format */
	uint64_t data_offset, data_size, feat_offset;  /* the file's sections */
	uint64_t feat_bits[4];     /* the features the file has */
	/* storage the samples point into */
	uint64_t *u64pool;
	struct perfdata_branch *brpool;
	void *image;               /* perfdata_read's copy of the file */
};

/* Parse a perf.data image (not necessarily written by rvpmu). Returns 0,
 * or -1 with a one-line reason in err; never reads outside buf. */
int perfdata_parse(const void *buf, size_t len, struct perfdata_file *f, char *err, size_t errlen);
/* path "-" reads standard input (perf's pipe format or a whole file). */
int perfdata_read(const char *path, struct perfdata_file *f, char *err, size_t errlen);
/* The perf.data code's error text: printf into err, control characters
 * (from names in files) made '?', so a message stays one line. */
void perfdata_errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void perfdata_file_free(struct perfdata_file *f);

/* ---- symbols of one guest ELF ---- */

struct sym_elf;
/* Open path and load its function symbols (and DWARF lines if present).
 * Returns NULL with a reason in err. */
struct sym_elf *sym_open(const char *path, char *err, size_t errlen);
void sym_close(struct sym_elf *s);
/* Convert a file offset inside an executable mapping into a link-time
 * address (what the symbol table uses); 0 when no segment holds it. */
int sym_offset_to_addr(const struct sym_elf *s, uint64_t off, uint64_t *addr);
/* The function holding addr, or NULL; *off = addr - symbol start. */
const char *sym_lookup(const struct sym_elf *s, uint64_t addr, uint64_t *off);
/* The same, with *start (when start is not NULL) the function's start
 * and its name demangled when demangle is set and it is a C++ or Rust
 * name. */
const char *sym_lookup_dm(const struct sym_elf *s, uint64_t addr, uint64_t *off,
			  uint64_t *start, int demangle);
/* len bytes of the file at link-time address addr: 0, or -1 when no
 * segment holds them. */
int sym_read(const struct sym_elf *s, uint64_t addr, void *buf, size_t len);
/* name demangled as perf shows it (libiberty's cplus_demangle, without
 * parameter lists): a malloc'd string, or NULL when it is not mangled. */
char *sym_demangle(const char *name);
/* The file:line of addr from DWARF into buf (file is the basename);
 * returns 0, or -1 when there is no line information. */
int sym_srcline(struct sym_elf *s, uint64_t addr, char *buf, size_t len);
/* The ELF's GNU build id (.note.gnu.build-id); returns its length or 0. */
unsigned sym_build_id(const char *path, uint8_t *id, unsigned max);
/* Whether file (path as f names it, under --symfs perhaps) is the file f
 * recorded: as perf, a file whose build id differs from the one f's
 * HEADER_BUILD_ID gives path (none in the file included) is refused.
 * Returns 0 (the same, or f has no build id for path), or -1 with a
 * reason naming file in err. */
int sym_check_build_id(const struct perfdata_file *f, const char *path, const char *file,
		       char *err, size_t errlen);

#endif
