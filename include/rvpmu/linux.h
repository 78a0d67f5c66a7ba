/* User-mode Linux: load a static riscv64 ELF program onto a hart and run
 * it, answering its system calls with rvpmu's own small kernel.
 *
 * Use: hart_init(h); linux_load(h, &o, ...); [linux_add_cpu(h2) ...];
 * status = linux_run(h, &o); linux_free(); hart_free(h). The program's
 * threads run on the harts given, its processes' state (address spaces,
 * fd tables, signal handlers) lives in this layer until the next
 * linux_load or linux_free; linux_load takes over h's guest memory as
 * the first process's address space (linux_free frees it).
 *
 * Everything rvpmu itself prints goes to o->warn_fd as whole lines that
 * start with "rvpmu:".
 */
#ifndef RVPMU_LINUX_H
#define RVPMU_LINUX_H
#include <stddef.h>
#include <stdint.h>
#include "rvpmu/hart.h"

/* A thread as the host tool sees it. */
struct linux_task {
	int pid, tid, ppid;
	const char *comm;
	const char *exe;        /* its process's program (/proc/self/exe) */
	uint64_t load_bias;     /* where that static-pie was placed, else 0 */
	uint64_t ns;            /* the guest's clock on its hart, or the run's */
};

/* What linux_opts.task_change reports (perf's FORK, COMM and EXIT). */
enum linux_task_change {
	LINUX_TASK_NEW,         /* t made by parent: a thread or a process */
	LINUX_TASK_EXEC,        /* t's process runs a new program */
	LINUX_TASK_COMM,        /* t renamed itself (prctl PR_SET_NAME) */
	LINUX_TASK_EXIT,        /* t ended */
};

struct linux_opts {
	const char *sysroot;  /* prefix for absolute guest paths, NULL = none */
	uint64_t max_insns;   /* stop after this many instructions, 0 = none */
	uint64_t max_mem_mb;  /* bound on guest mapped memory in MiB (sets
	                         h->mem.max_bytes): 0 = the default,
	                         linux_default_max_mem_mb(); LINUX_MEM_NONE =
	                         no bound */
	int warn_fd;          /* where rvpmu's own messages go; 0 = stderr */
	unsigned cpus;        /* modelled harts the threads run on (--cpus):
	                         0 = 1; the caller makes them (linux_add_cpu) */
	int no_jit;           /* run in the step loop only, never translate */
	/* Called after every stop of the hart (NULL: none): returns how many
	 * instructions may run before it is called again, 0 = no limit. The
	 * sampler uses it to stop exactly at counter overflows. */
	uint64_t (*tick)(void *ctx, struct hart *h);
	void *tick_ctx;
	/* A display's hooks (NULL: none), for the progress line: progress
	 * is called as tick is and limits the run the same way; on_trap at
	 * each trap before the kernel handles it. */
	uint64_t (*progress)(void *ctx, struct hart *h);
	void (*on_trap)(struct hart *h);
	/* A signal handler's flag (NULL: none): once it holds a signal
	 * number, the run ends at the next check, at most LINUX_RUN_CHUNK
	 * instructions later, and linux_run returns 128 + that number. */
	const volatile int *stop;   /* a sig_atomic_t: int on Linux */
	/* Called as a thread leaves hart h (NULL: none): what h counted
	 * since the thread went on is that thread's (perf's per-task
	 * counting reads its counters at each context switch). */
	void (*switch_out)(void *ctx, struct hart *h, const struct linux_task *t);
	/* Called as threads come, change and go (NULL: none); parent only
	 * with LINUX_TASK_NEW. */
	void (*task_change)(void *ctx, enum linux_task_change what, const struct linux_task *t,
			    const struct linux_task *parent);
	void *task_ctx;         /* of switch_out and task_change */
	/* Counter CSRs readable from U, as riscv Linux's kernel.perf_user_access
	 * (applied by linux_perf_attach): LINUX_UCNT_ALL (the default) every
	 * counter, LINUX_UCNT_OFF only time, LINUX_UCNT_MMAP time plus the
	 * counters of running perf events the program has mmap'd. */
	int user_counters;
};
enum { LINUX_UCNT_ALL, LINUX_UCNT_OFF, LINUX_UCNT_MMAP };
#define LINUX_MEM_NONE UINT64_MAX

/* The default bound on a program's memory: half of what the host has
 * (gmem_host_bytes()), so a program that allocates without end gets
 * ENOMEM, as under a ulimit, before the host runs out. */
uint64_t linux_default_max_mem_mb(void);

/* Exit statuses linux_run returns besides the guest's own exit status.
 * (Any status can also be a guest's own exit code; the printed line tells
 * them apart.) */
enum {
	LINUX_EXIT_SIGNAL_BASE = 128, /* + signal number for a fatal signal */
	LINUX_EXIT_MAX_INSNS = 124,   /* --max-insns reached (as timeout(1)) */
	LINUX_EXIT_DEADLOCK = 125,    /* a wait nothing can ever end: futex
	                                 wait, sigsuspend with one thread */
	LINUX_EXIT_TRAP_STORM = HART_EXIT_TRAP_STORM,  /* 123: hart_storm_enter */
};

/* The most instructions linux_run lets the hart retire between its
 * checks (of the limit, the stop flag, the hooks): a few milliseconds of
 * the fastest run, well under a second of the slowest. */
#define LINUX_RUN_CHUNK (1ull << 22)

/* Load the static ELF executable at path (ET_EXEC or static-pie) and build
 * the initial stack with argv[0..argc) and the NULL-terminated envp.
 * Returns 0, or -1 with "PROG: reason" in err: one line, no newline, no
 * "rvpmu:" prefix (the caller prints "rvpmu: %s\n"). Guest memory
 * layout: stack (8 MiB) at the top of h->mem, brk after the highest
 * segment, mmap areas below the stack, static-pie at 2/3 of the space.
 * Environment: RVPMU_STRACE=1 logs every syscall to warn_fd. */
int linux_load(struct hart *h, const struct linux_opts *o, const char *path,
	       int argc, char **argv, char **envp, char *err, size_t errlen);

/* The same from an image in memory (name is what AT_EXECFN and
 * /proc/self/exe show). Used by the ELF fuzzer. */
int linux_load_image(struct hart *h, const struct linux_opts *o,
		     const void *image, size_t size, const char *name,
		     int argc, char **argv, char **envp, char *err, size_t errlen);

/* Run the loaded program to its end. Returns the guest's exit status
 * (0-255), 128+signal when a signal killed it (the reason is printed),
 * LINUX_EXIT_MAX_INSNS after printing "rvpmu: instruction limit N
 * reached", LINUX_EXIT_DEADLOCK for a futex wait no thread can end, or
 * LINUX_EXIT_TRAP_STORM after a trap storm (hart_storm_enter), or
 * 128 + *o->stop after printing "rvpmu: PROG: interrupted by SIG...". */
int linux_run(struct hart *h, const struct linux_opts *o);

/* After linux_load on hart 0: one more hart of the run, made with
 * hart_init_sharing(h, hart 0) and set up as hart 0 was (at most 32). */
void linux_add_cpu(struct hart *h);

/* The thread on hart h now: 0 with *t filled, or -1 when none is. */
int linux_task_on(const struct hart *h, struct linux_task *t);

/* Where the loaded program's image was placed (static-pie), else 0. */
uint64_t linux_load_bias(void);
/* The loaded program's absolute path. */
const char *linux_exe_path(void);

/* perf_event_open(2) inside the program (src/linux/perf_event.c) drives
 * the PMU as Linux's riscv_pmu_sbi does, through SBI PMU calls to the
 * session's firmware. Call after linux_load (session_open does); it also
 * applies o->user_counters. Without a session, hardware events are ENOENT. */
struct session;
void linux_perf_attach(struct session *ss);

/* What rvpmu's kernel did for the program, for perf's software events:
 * the modelled time the whole run slept (every thread waiting, the same
 * on every hart), and on hart h the context switches of its threads (at
 * each wait, at a time slice's end or a yield) and the pages demand
 * paging made present at their first touch, by its threads' accesses or
 * the kernel's calls for them. */
struct linux_sw {
	uint64_t sleep_ns, switches, faults_user, faults_kernel;
};
void linux_sw_read(const struct hart *h, struct linux_sw *out);

/* Close the guest's files and drop the process state. */
void linux_free(void);

#endif
