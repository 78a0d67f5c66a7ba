/* Internal to src/linux: the emulated process and the riscv64 Linux ABI
 * constants it needs. The numbers are the kernel's (asm-generic); they are
 * spelled out here so the host's x86_64 headers never leak into the guest
 * ABI. */
#ifndef RVPMU_LX_H
#define RVPMU_LX_H
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"

/* Syscall numbers (include/uapi/asm-generic/unistd.h; riscv adds 258/259). */
enum {
	NR_getcwd = 17, NR_dup = 23, NR_dup3 = 24, NR_fcntl = 25,
	NR_ioctl = 29, NR_mkdirat = 34, NR_unlinkat = 35, NR_symlinkat = 36,
	NR_linkat = 37, NR_truncate = 45, NR_ftruncate = 46,
	NR_faccessat = 48, NR_chdir = 49, NR_fchdir = 50, NR_fchmod = 52,
	NR_fchmodat = 53, NR_openat = 56, NR_close = 57, NR_pipe2 = 59,
	NR_getdents64 = 61, NR_lseek = 62, NR_read = 63, NR_write = 64,
	NR_readv = 65, NR_writev = 66, NR_pread64 = 67, NR_pwrite64 = 68,
	NR_readlinkat = 78, NR_newfstatat = 79, NR_fstat = 80,
	NR_fsync = 82, NR_fdatasync = 83, NR_utimensat = 88,
	NR_exit = 93, NR_exit_group = 94, NR_set_tid_address = 96,
	NR_futex = 98, NR_set_robust_list = 99, NR_nanosleep = 101,
	NR_clock_gettime = 113, NR_clock_getres = 114,
	NR_clock_nanosleep = 115, NR_sched_getaffinity = 123,
	NR_sched_yield = 124, NR_kill = 129, NR_tkill = 130,
	NR_tgkill = 131, NR_sigaltstack = 132, NR_rt_sigaction = 134,
	NR_rt_sigprocmask = 135, NR_rt_sigreturn = 139, NR_times = 153,
	NR_uname = 160, NR_getrlimit = 163, NR_setrlimit = 164,
	NR_getrusage = 165, NR_umask = 166, NR_prctl = 167,
	NR_gettimeofday = 169, NR_getpid = 172, NR_getppid = 173,
	NR_getuid = 174, NR_geteuid = 175, NR_getgid = 176,
	NR_getegid = 177, NR_gettid = 178, NR_sysinfo = 179,
	NR_brk = 214, NR_munmap = 215, NR_mremap = 216, NR_mmap = 222,
	NR_mprotect = 226, NR_msync = 227, NR_madvise = 233,
	NR_riscv_hwprobe = 258, NR_riscv_flush_icache = 259,
	NR_prlimit64 = 261, NR_renameat2 = 276, NR_getrandom = 278,
	NR_statx = 291, NR_rseq = 293, NR_faccessat2 = 439,
	NR_flock = 32, NR_statfs = 43, NR_fstatfs = 44, NR_fallocate = 47,
	NR_sendfile = 71, NR_ppoll = 73, NR_sync = 81, NR_waitid = 95,
	NR_rt_sigsuspend = 133, NR_rt_sigpending = 136,
	NR_rt_sigtimedwait = 137, NR_getresuid = 148, NR_getresgid = 150,
	NR_setpgid = 154, NR_getpgid = 155, NR_getsid = 156, NR_setsid = 157,
	NR_getgroups = 158, NR_fadvise64 = 223, NR_mlock = 228,
	NR_munlock = 229, NR_mlockall = 230, NR_munlockall = 231,
	NR_wait4 = 260, NR_syncfs = 267, NR_memfd_create = 279,
	NR_perf_event_open = 241,
	NR_get_robust_list = 100, NR_sched_setaffinity = 122, NR_getcpu = 168,
	NR_clone = 220, NR_execve = 221, NR_execveat = 281, NR_membarrier = 283,
	NR_clone3 = 435, NR_getpriority = 141, NR_setpriority = 140,
	NR_fchownat = 54, NR_fchown = 55, NR_shmget = 194, NR_shmctl = 195,
	NR_shmat = 196, NR_shmdt = 197, NR_socket = 198, NR_socketpair = 199,

	LX_NSYSCALLS = 463,
};

/* Signals (asm-generic/signal.h). */
enum {
	LX_SIGHUP = 1, LX_SIGINT = 2, LX_SIGQUIT = 3, LX_SIGILL = 4,
	LX_SIGTRAP = 5, LX_SIGABRT = 6, LX_SIGBUS = 7, LX_SIGFPE = 8,
	LX_SIGKILL = 9, LX_SIGUSR1 = 10, LX_SIGSEGV = 11, LX_SIGUSR2 = 12,
	LX_SIGPIPE = 13, LX_SIGALRM = 14, LX_SIGTERM = 15, LX_SIGCHLD = 17,
	LX_SIGCONT = 18, LX_SIGSTOP = 19, LX_SIGTSTP = 20, LX_SIGTTIN = 21,
	LX_SIGTTOU = 22, LX_SIGURG = 23, LX_SIGWINCH = 28, LX_NSIG = 64,
};
#define LX_SA_SIGINFO   0x00000004u
#define LX_SA_ONSTACK   0x08000000u
#define LX_SA_RESTART   0x10000000u
#define LX_SA_NODEFER   0x40000000u
#define LX_SA_RESETHAND 0x80000000u
#define LX_SS_ONSTACK   1
#define LX_SS_DISABLE   2

/* Memory layout of the emulated process, from the top of the guest space
 * (p->mm->mem.size) down: the stack, a guard page, the signal return
 * trampoline page (Linux uses the vDSO's __vdso_rt_sigreturn; there is no
 * vDSO here), a gap, then mmap areas growing down. */
#define LX_STACK_SIZE   (8ull << 20)
#define LX_STACK_TOP(p)   ((p)->mm->mem.size)
#define LX_TRAMPOLINE(p)  (LX_STACK_TOP(p) - LX_STACK_SIZE - 2 * GPAGE_SIZE)
#define LX_MMAP_TOP(p)    (LX_TRAMPOLINE(p) - (256ull << 20))
/* ELF_ET_DYN_BASE: two thirds of the user space, as Linux places PIEs. */
#define LX_PIE_BASE(p)    (((p)->mm->mem.size / 3 * 2) & ~0xffffull)

#define LX_NFD 1024
/* host file, /dev/[u]random, procfs.c's file, a directory in /proc, a
 * pipe the program made (only its processes use it), another file that
 * may block (a pipe or terminal from outside, a FIFO, a device) */
enum { LX_FD_FILE, LX_FD_RANDOM, LX_FD_PROC, LX_FD_PROCDIR, LX_FD_PIPE, LX_FD_STREAM };
#define LX_NRLIMIT 16
#define LX_PID 1000   /* the first process's: fixed so runs are deterministic */
#define LX_PPID 1

/* A file mapping (fmap.c): the guest pages [addr, addr+len) show the
 * file from offset off; the first valid bytes are the host's mapping of
 * it, the rest lies past the file's end (no access: SIGBUS). */
struct lx_fmap {
	uint64_t addr, len, off, valid;
	int fd;                 /* host fd of our own (dup) */
	unsigned prot;          /* the guest's GP_R/W/X */
	bool shared, maywrite;  /* maywrite: open for writing (shared may be W) */
	bool sized;             /* a regular file: pages past its end fault */
	uint64_t dev, ino;      /* for /proc/self/maps */
};

struct lx_sigaction {
	uint64_t handler, flags, mask;
};

/* Where a pending signal came from: siginfo's si_pid, si_code, and for
 * SIGCHLD si_status. */
struct lx_sigsrc {
	int pid, code, status;
};
/* si_code values (include/uapi/asm-generic/siginfo.h) */
enum { LX_SI_USER = 0, LX_SI_TKILL = -6, LX_CLD_EXITED = 1, LX_CLD_KILLED = 2 };

/* What the program's exec set up, as Linux keeps it in its mm_struct
 * for /proc/<pid>/{maps,stat,status,auxv,cmdline,environ} (procfs.c). */
#define LX_MAX_SEGS 16
#define LX_AUXV_MAX 24
struct lx_exec {
	struct {                  /* the file-backed part of each PT_LOAD */
		uint64_t lo, hi, off;
	} seg[LX_MAX_SEGS];
	int nseg;
	uint64_t dev, ino;        /* of the program file */
	uint64_t start_code, end_code, start_data, end_data;
	uint64_t start_stack, arg_start, arg_end, env_start, env_end;
	uint64_t auxv[2 * LX_AUXV_MAX];
	size_t auxv_bytes;
};

/* An address space (Linux's mm_struct, reduced): the guest memory, its
 * file mappings, brk and what exec set up. Shared by the threads of a
 * process and by a vfork child until it execs. */
struct lx_mm {
	int refs;
	struct gmem mem;        /* this process's reservation (every hart that
	                           runs it holds a copy) */
	struct lx_fmap *fmap;
	int nfmap;
	uint64_t brk_start, brk_cur;
	uint64_t load_bias;     /* where a static-pie was placed (0: ET_EXEC) */
	struct lx_exec ex;
	uint64_t vm_peak;       /* most bytes mapped at once (VmPeak) */
	char *exe;              /* absolute path of the program (/proc/self/exe) */
};

/* A process's fd table (Linux's files_struct): shared by its threads,
 * and with CLONE_FILES. */
struct lx_files {
	int refs;
	int fd[LX_NFD];         /* guest fd -> host fd, -1 = closed */
	uint8_t fkind[LX_NFD];  /* what guest fd is: LX_FD_* */
};

/* What a waiting thread waits for (cpus.c parks it off its hart). */
enum lx_wkind {
	LX_W_NONE, LX_W_FUTEX, LX_W_SLEEP, LX_W_SIGNAL, LX_W_SIGWAIT, LX_W_CHILD,
	LX_W_VFORK, LX_W_FD,
};
/* Why a wait ended. */
enum { LX_WOKE_NONE, LX_WOKE_EVENT, LX_WOKE_TIMEOUT, LX_WOKE_SIGNAL };
struct lx_wait {
	uint8_t kind;           /* LX_W_* */
	uint8_t woke;           /* LX_WOKE_*: set when it ends */
	bool retry;             /* the call runs again when it ends (else
	                           it returns what the waker set) */
	uint64_t deadline;      /* lx_now_ns it ends at, ~0: none */
	uint64_t key[2];        /* futex: the word's key (futex.c) */
	uint32_t bitset;        /* futex: WAIT_BITSET's mask */
	uint64_t set;           /* sigtimedwait: the signals waited for */
	uint64_t rem;           /* nanosleep: where the time left goes */
	struct pollfd *fds;     /* LX_W_FD: host fds and events (malloc'd) */
	int nfds;
	bool inside;            /* LX_W_FD: only the run can make them ready
	                           (pipes it made): never waited for on the host */
	uint64_t done;          /* a write to a pipe: bytes written so far */
};

enum { LX_T_RUN, LX_T_WAIT, LX_T_DEAD };
#define LX_PERF_MAX 128   /* perf_event_open's events at once */

/* A thread (Linux's task_struct, reduced): a software context that
 * cpus.c puts on a hart to run it. */
struct lx_thread {
	struct lx_thread *next;     /* every thread of the run, by tid */
	struct lx_thread *rq_next;  /* the run queue */
	struct lx_thread *fq_next;  /* the futex waiters (futex.c) */
	struct lx *p;               /* its process */
	int tid;
	uint8_t state;              /* LX_T_* */
	bool queued;                /* in the run queue */
	bool yield;                 /* sched_yield: to the queue's end */
	int cpu;                    /* the hart it is on, -1: none */
	uint64_t affinity;          /* harts it may run on (bit i: hart i) */
	/* its user context while it is off a hart */
	uint64_t x[32], f[32], pc;
	uint32_t fflags, frm;
	/* signals: its mask, those sent to it, its alternate stack */
	uint64_t sigmask, sigpending;
	struct lx_sigsrc sigsrc[LX_NSIG + 1]; /* who sent each pending one */
	uint64_t ss_sp, ss_size;
	uint32_t ss_flags;
	bool restore_mask;          /* sigsuspend: the frame saves saved_mask */
	uint64_t saved_mask;
	uint64_t clear_child_tid;   /* set_tid_address, CLONE_CHILD_CLEARTID */
	uint64_t robust_list;       /* set_robust_list's head */
	struct lx_wait w;
	/* what it ran: instructions and modelled ns, up to when it last
	 * went off a hart; what its hart showed when it went on */
	uint64_t insns, run_ns, on_insns, on_ns;
	uint64_t slice_end;         /* its time slice ends (hart ns) */
	uint64_t born_ns;           /* its maker's clock as it made it: no
	                             * hart runs it from an earlier time */
	char comm[16];              /* prctl PR_SET_NAME */
	uint64_t perf[LX_PERF_MAX / 64];  /* the guest's perf events counting it */
	uint64_t minflt;            /* its first touches of pages (page faults) */
};

/* A process (a thread group). */
struct lx {
	struct lx *next;        /* every process of the run */
	struct hart *h;         /* during a call: the hart of the calling thread */
	struct lx_thread *t;    /* during a call: the calling thread */
	struct lx_mm *mm;
	struct linux_opts o;
	int pid, ppid, pgid, sid;
	struct lx *parent;      /* NULL: its parent is gone (init reaps it) */
	char *name;             /* as given, for messages */
	struct lx_files *files;
	int cwd;                /* host fd of its working directory (O_PATH) */
	unsigned umask;
	int exit_signal;        /* sent to its parent as it ends (SIGCHLD) */
	struct lx_thread *vfork_parent; /* waits until it execs or ends */
	uint64_t child_ns;      /* modelled ns its reaped children ran */
	uint64_t minflt;        /* its threads' page faults, execs' included */
	uint64_t child_minflt;  /* its reaped children's (and theirs') */
	uint64_t nvcsw, nivcsw; /* its threads' context switches: at a wait
	                           (voluntary), at a slice's end (involuntary) */
	uint64_t rng;           /* state of the deterministic random stream */
	struct lx_sigaction sa[LX_NSIG + 1];
	uint64_t sigpending;    /* sent to the process (kill), not a thread */
	struct lx_sigsrc sigsrc[LX_NSIG + 1];
	unsigned membarrier;    /* membarrier registrations */
	int pdeathsig;          /* prctl PR_SET_PDEATHSIG */
	bool no_new_privs;
	bool cwd_in_proc;       /* the cwd is inside /proc (fs.c) */
	bool exited;            /* every thread has ended: a zombie until reaped */
	bool reaped;            /* waited for (freed with its last thread) */
	int term_sig;           /* the signal that killed it, or 0 */
	int nstructs;           /* its threads not yet freed */
	bool noret;             /* the call set the registers itself */
	bool warned_big;
	bool warned_max;        /* said that the memory bound was reached */
	bool strace;            /* RVPMU_STRACE set: log each call to warn_fd */
	uint64_t rlim[LX_NRLIMIT][2];
	char comm[16];           /* its first thread's name */
	int status;             /* exit status once exited */
	int nthreads;           /* threads not yet ended */
	uint64_t dead_ns;       /* modelled ns its ended threads ran */
	struct session *perf_ss;  /* perf_event.c: the PMU driver's session */
	uint8_t warned[(LX_NSYSCALLS + 7) / 8];
};

/* The kernel's view of the machine (cpus.c): the harts and what runs
 * on them. */
#define LX_MAX_CPUS 32
struct lx_kernel {
	struct hart *cpu[LX_MAX_CPUS];
	unsigned ncpus;
	struct lx_thread *on[LX_MAX_CPUS];  /* the thread each hart runs */
	uint64_t idle_ns[LX_MAX_CPUS];      /* modelled ns each hart idled */
	struct lx_thread *threads;          /* every thread not yet freed */
	struct lx_thread *rq, **rq_tail;    /* runnable, off a hart */
	struct lx_thread *fq;               /* futex waiters, oldest first */
	struct lx *procs;                   /* every process, the first first */
	struct lx *cwd_owner;               /* whose cwd and umask the host's are */
	const volatile int *stop;           /* linux_opts.stop of the run */
	const struct linux_opts *o;         /* linux_run's */
	int next_id;                        /* the next pid or tid */
	unsigned nlive;                     /* threads not ended: rounds when > 1 */
	uint64_t now;                       /* ns: the current round's start */
	/* for perf's software events (linux_sw_read): the ns every thread
	 * waited at once (the run slept), each hart's context switches and
	 * the first touches its threads' accesses and calls made */
	uint64_t asleep_ns;
	uint64_t nvcsw[LX_MAX_CPUS], nivcsw[LX_MAX_CPUS];
	uint64_t faults[LX_MAX_CPUS][2];
	bool perf_live;                     /* perf_event.c's table is the run's */
};
extern struct lx_kernel lx_k;

extern const char *const lx_sysname[LX_NSYSCALLS];

/* process.c: the image of a program into p's (empty) address space and
 * its first thread's registers on p->h; 0, or -1 with why. */
int lx_load_image(struct lx *p, const void *image, size_t size, const char *name,
		  const char *host, int argc,
		  char **argv, char **envp, char *why, size_t n);

/* elf.c */
struct lx_image {
	uint64_t entry, phdr, phent, phnum, base;
	uint64_t end;           /* highest byte of any segment */
	bool phdr_loaded;       /* false: the stack builder copies the phdrs */
	const uint8_t *phdr_bytes;
};
int lx_elf_load(struct lx *p, const uint8_t *buf, size_t len,
		struct lx_image *img, char *err, size_t errlen);

/* stack.c */
int lx_stack_init(struct lx *p, const struct lx_image *img, int argc,
		  char **argv, char **envp, char *err, size_t errlen);
uint64_t lx_random64(struct lx *p);
/* n bytes of the stream, 8 a draw (a tail shorter than 8 uses one). */
void lx_random_bytes(struct lx *p, uint8_t *b, uint64_t n);

/* syscall.c */
void lx_syscall(struct lx *p);
void lx_warn(struct lx *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Host pointer to guest [addr, addr+len) for reading / writing, or NULL.
 * The write form also drops decoded code in the range. */
const void *lx_rptr(struct lx *p, uint64_t addr, uint64_t len);
void *lx_wptr(struct lx *p, uint64_t addr, uint64_t len);
int lx_put(struct lx *p, uint64_t addr, const void *v, size_t len);
int lx_get(struct lx *p, uint64_t addr, void *v, size_t len);

/* fs.c */
long lx_sys_fs(struct lx *p, int nr, const uint64_t *a, bool *handled);
/* What host fd h is: LX_FD_* */
uint8_t lx_fd_kind(int h);
/* Open the guest's path (from dirfd) to execute it (empty_path: dirfd
 * itself): a host fd of a regular file, or -errno as execve answers. */
int lx_open_exec(struct lx *p, uint64_t dirfd, const char *path, bool empty_path);
/* Before a call of p: the host's cwd and umask are p's. */
void lx_enter(struct lx *p);

/* pipe.c: calls that wait on files */
long lx_pipe2(struct lx *p, uint64_t ua, int flags);
long lx_ppoll(struct lx *p, const uint64_t *a);
/* A read or write of n bytes at buf on guest fd g, a pipe or another
 * file that may block: *done when this answered it (its result: bytes,
 * -errno, or LX_BLOCK after parking the thread); else the caller does
 * the host call, which will not wait. */
long lx_stream_rw(struct lx *p, uint64_t g, bool rd, void *buf, uint64_t n, bool *done);
/* End the waits on fds that are ready: how many ended. wait: every
 * thread waits and no timeout is due, so first block on the host until
 * a file from outside the run is ready; -1 when none waits on one (only
 * the run could end those waits: a deadlock). */
int lx_fd_waiters(bool wait);

/* fdtable.c: a new table for p (0, 1, 2: the host's), or -ENOMEM */
int lx_fd_init(struct lx *p);
/* A copy (fork): each host fd duplicated, close-on-exec kept; NULL */
struct lx_files *lx_fd_copy(const struct lx_files *from);
/* Drop a reference; the last closes every fd. */
void lx_fd_put(struct lx_files *f);
/* exec: the fds marked close-on-exec go. */
void lx_fd_close_on_exec(struct lx *p);
/* Host fd behind guest fd g, or -1. */
int lx_host_fd(struct lx *p, uint64_t g);
/* The lowest free guest fd from min for host fd h, of kind LX_FD_* (h is
 * closed on failure: -EMFILE). */
int lx_fd_alloc_kind(struct lx *p, int min, int h, uint8_t kind);
int lx_fd_alloc(struct lx *p, int h);
void lx_fd_release(struct lx *p, int g);

/* perf_event.c: perf_event_open and its fds */
long lx_sys_perf(struct lx *p, int nr, const uint64_t *a, bool *handled);
/* An fd syscall on a perf event fd: true when it was answered (*r); a
 * close is noted and left to fs.c. */
bool lx_perf_fs(struct lx *p, int nr, const uint64_t *a, long *r);
bool lx_perf_fd(struct lx *p, uint64_t g);
/* mmap of a perf fd: check (a = the mmap arguments; 0 or -errno), then
 * after the pages are mapped, fill in the user page. */
long lx_perf_mmap_check(struct lx *p, const uint64_t *a);
void lx_perf_mmapped(struct lx *p, uint64_t g, uint64_t addr, uint64_t len);
/* [a, b) is no longer mapped. */
void lx_perf_unmap(struct lx *p, uint64_t a, uint64_t b);
/* The thread on hart j goes off it (before lx_k.on[j] changes), a thread
 * was put on it (after): its events stop or start counting there. */
void lx_perf_out(unsigned j);
void lx_perf_in(unsigned j);
/* child, made by parent (thread: in its process), is counted by the
 * parent's events that inherit. */
void lx_perf_inherit(const struct lx_thread *parent, struct lx_thread *child, bool thread);
/* t execs: enable_on_exec and remove_on_exec. */
void lx_perf_exec(struct lx_thread *t);
/* mm is freed: event pages mapped in it go. */
void lx_perf_mm_gone(const struct lx_mm *mm);

/* mm.c */
long lx_sys_mm(struct lx *p, int nr, const uint64_t *a, bool *handled);
/* [a, b) stops being mapped: 0 or -errno. */
long lx_munmap(struct lx *p, uint64_t a, uint64_t b);

/* shm.c: System V shared memory */
long lx_sys_shm(struct lx *p, int nr, const uint64_t *a, bool *handled);
void lx_shm_free_all(void);

/* fmap.c: file mappings. Map [addr, addr+len) (page aligned, free or
 * released) to host fd h from off; 0 or -errno as mmap(2) gives. */
long lx_fmap_map(struct lx *p, uint64_t addr, uint64_t len, unsigned prot, bool shared,
		 int h, uint64_t off);
/* [a, b) stops being mapped (munmap, MAP_FIXED over it, mremap): drop
 * the file mappings there, their memory anonymous again, before the
 * caller unmaps or remaps it. 0 or -ENOMEM. */
int lx_fmap_release(struct lx *p, uint64_t a, uint64_t b);
void lx_fmap_release_all(struct lx *p);
/* mprotect of mapped [a, a+len): 0, -EACCES or -ENOMEM. */
long lx_fmap_protect(struct lx *p, uint64_t a, uint64_t len, unsigned prot);
/* The file mapping that holds a, or NULL. */
struct lx_fmap *lx_fmap_at(struct lx *p, uint64_t a);
/* A guest access needing GP_* need faulted at a: past a file's end? */
enum { LX_FMAP_NONE, LX_FMAP_RETRY, LX_FMAP_SIGBUS };
int lx_fmap_fault(struct lx *p, uint64_t a, unsigned need);
/* The guest may have shrunk a file: take back pages past its end. */
void lx_fmap_truncated(struct lx *p);
/* Drop decoded code of executable shared mappings (riscv_flush_icache:
 * another mapping or a write may have changed their file). */
void lx_fmap_sync_code(struct lx *p);
/* msync: write the shared mappings in [a, a+len) to their files. */
long lx_fmap_msync(struct lx *p, uint64_t a, uint64_t len, unsigned flags);

/* procfs.c: /proc paths that name the program itself. Resolve a guest
 * path (after --sysroot): 0 with r->host the host path to use (the path
 * itself when it is not one of those; for a generated file, the host's
 * file of that name, for stat), r->gen >= 0 for a file procfs.c makes
 * (open it with lx_proc_open), r->link the target of a link procfs.c
 * answers (exe: the program's file, which is r->host too; /proc/self),
 * r->closed for a path that exists but may not be opened (EACCES); or
 * -errno for a path that is absent. */
enum { LX_PROC_CPUINFO = 100, LX_PROC_CPULIST = 101 };
struct lx_proc {
	int gen;
	const char *link;
	bool closed;
	char host[PATH_MAX + 256];
};
int lx_proc_resolve(struct lx *p, const char *path, struct lx_proc *r);
/* A host fd (read-only) holding the generated file, or -errno. */
int lx_proc_open(struct lx *p, const struct lx_proc *r, int flags);

/* cpus.c: harts, the scheduler, waiting */
/* A handler's answer for a call that waits: its thread is parked. */
#define LX_BLOCK (-0x40000000L)
/* lx_wake's result for a retried call a signal interrupted: it restarts */
#define LX_RESTART (-0x40000001L)
/* CLOCK_REALTIME reads this fixed epoch (2026-01-01T00:00:00Z) plus the
 * modelled time, so two runs of a program see the same clock. */
#define LX_EPOCH 1767225600ull
uint64_t lx_hart_ns(unsigned i);
/* The guest's clock as the calling thread reads it. */
uint64_t lx_now_ns(struct lx *p);
/* Harts the scheduler may use, as a mask. */
uint64_t lx_cpu_mask(void);
int lx_cpu_of(const struct hart *h);
void lx_enqueue(struct lx_thread *t);
void lx_dequeue(struct lx_thread *t);
/* The loaded program's first thread runs on hart i, its registers there. */
void lx_thread_attach(struct lx_thread *t, unsigned i);
uint64_t lx_thread_ns(const struct lx_thread *t);
uint64_t lx_thread_insns(const struct lx_thread *t);
/* The calling thread waits for kind until deadline (lx_now_ns; ~0: no
 * end); retry: its call runs again when the wait ends, else it returns
 * what lx_wake gives. Returns LX_BLOCK, for the handler to return. */
long lx_wait_begin(struct lx *p, uint8_t kind, uint64_t deadline, bool retry);
/* End t's wait (why: LX_WOKE_*) with its call's result. */
void lx_wake(struct lx_thread *t, int why, long result);
unsigned lx_nthreads(void);

/* thread.c: threads, clone, exit */
long lx_sys_thread(struct lx *p, int nr, const uint64_t *a, bool *handled);
struct lx_thread *lx_thread_new(struct lx *p, int tid);
/* thread.c: new thread c (of p, or of p's child) starts as the calling
 * thread's copy, returning 0 from clone on stack sp (0: the same) with tp
 * tls under CLONE_SETTLS; it runs no earlier than now. */
void lx_thread_start(struct lx *p, struct lx_thread *c, uint64_t flags, uint64_t sp, uint64_t tls,
		     uint64_t ctid);
/* Tell linux_opts.task_change (cpus.c). */
void lx_task_change(enum linux_task_change what, const struct lx_thread *t,
		    const struct lx_thread *parent);
void lx_thread_free(struct lx_thread *t);
struct lx_thread *lx_thread_by_tid(int tid);
/* exit(2) of thread t; the last one ends the process with code. */
void lx_thread_exit(struct lx *p, struct lx_thread *t, int code);
/* Thread t ends at once (exit_group, exec, a fatal signal). */
void lx_thread_end(struct lx_thread *t);
/* Every thread of p ends; the process's status is status. */
void lx_group_exit(struct lx *p, int status);
void lx_process_exit(struct lx *p, int status);
/* fork.c: address spaces and processes */
long lx_fork(struct lx *p, uint64_t flags, uint64_t sp, uint64_t ptid, uint64_t tls,
	     uint64_t ctid);
/* A new address space (limits as p's), or NULL. */
struct lx_mm *lx_mm_new(const struct lx *p);
void lx_mm_put(struct lx_mm *mm);
/* A new process, a child of parent's (NULL: the first) with its
 * settings; no address space, files or thread yet. */
struct lx *lx_process_new(struct lx *parent);
void lx_process_free(struct lx *p);

/* wait.c: the end of processes, wait4, kill, process groups */
long lx_sys_proc(struct lx *p, int nr, const uint64_t *a, bool *handled);
struct lx *lx_process_by_pid(int pid);
/* Its parent waited for it, or nobody will: freed with its last thread. */
void lx_reap(struct lx *p);

/* exec.c */
long lx_sys_exec(struct lx *p, int nr, const uint64_t *a, bool *handled);

/* futex.c */
long lx_sys_futex(struct lx *p, const uint64_t *a);
/* Wake up to n waiters on the word at uaddr of p's address space. */
long lx_futex_wake_addr(struct lx *p, uint64_t uaddr, long n);
void lx_futex_unqueue(struct lx_thread *t);

/* signal.c */
long lx_sys_signal(struct lx *p, int nr, const uint64_t *a, bool *handled);
/* An exception from the hart: send the signal Linux would (a handler
 * may catch it; else it is reported and kills the process). */
void lx_trap(struct lx *p);
/* hart_storm_enter() found a trap storm: say which, and end the process
 * with LINUX_EXIT_TRAP_STORM. */
void lx_trap_storm(struct lx *p);
/* The calling thread returns to user mode: it takes a pending signal it
 * does not block, and a sigsuspend's mask goes. */
void lx_signal_return(struct lx *p);
/* Send sig to process p, or to its thread to (NULL: any that takes
 * it), with the siginfo of src. */
void lx_signal_send(struct lx *p, struct lx_thread *to, int sig, struct lx_sigsrc src);
/* End the process as killed by sig (the caller has said why). */
void lx_die(struct lx *p, int sig);
const char *lx_signame(int sig);

/* sys.c: time, identity, limits, misc */
long lx_sys_misc(struct lx *p, int nr, const uint64_t *a, bool *handled);
uint64_t lx_process_ns(const struct lx *p);
void lx_limits_init(struct lx *p);

#endif
