/* Process-wide syscalls: time (modelled, deterministic), sleeps,
 * identity, limits, uname, getrandom, riscv_hwprobe. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

#define NS 1000000000ull

static int put_ts(struct lx *p, uint64_t ga, uint64_t ns)
{
	int64_t ts[2] = { (int64_t)(ns / NS), (int64_t)(ns % NS) };
	return lx_put(p, ga, ts, sizeof(ts));
}

/* A struct timespec from the guest, as ns; -EFAULT or -EINVAL. */
static int64_t get_ts(struct lx *p, uint64_t ga)
{
	int64_t ts[2];
	if (lx_get(p, ga, ts, sizeof(ts)))
		return -EFAULT;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (int64_t)NS)
		return -EINVAL;
	if ((uint64_t)ts[0] > (UINT64_MAX >> 2) / NS)
		return (int64_t)(UINT64_MAX >> 2);
	return ts[0] * (int64_t)NS + ts[1];
}

/* Modelled ns the threads of p have run, the ended ones included. */
uint64_t lx_process_ns(const struct lx *p)
{
	uint64_t ns = p->dead_ns;
	for (struct lx_thread *t = lx_k.threads; t; t = t->next)
		if (t->p == p && t->state != LX_T_DEAD)
			ns += lx_thread_ns(t);
	return ns;
}

/* clockid_t values (include/uapi/linux/time.h); a negative id is a CPU
 * clock of a process or thread (CPUCLOCK_PERTHREAD in bit 2). */
static int clock_ns(struct lx *p, int64_t clk, uint64_t *ns)
{
	uint64_t now = lx_now_ns(p);
	switch (clk) {
	case 0: case 5: case 8: case 11:   /* REALTIME, _COARSE, _ALARM, TAI */
		*ns = LX_EPOCH * NS + now;
		return 0;
	case 1: case 4: case 6: case 7: case 9: /* MONOTONIC*, BOOTTIME* */
		*ns = now;
		return 0;
	case 2:                            /* PROCESS_CPUTIME_ID */
		*ns = lx_process_ns(p);
		return 0;
	case 3:                            /* THREAD_CPUTIME_ID */
		*ns = lx_thread_ns(p->t);
		return 0;
	}
	if (clk < 0) {                     /* a CPU clock of this process */
		*ns = clk & 4 ? lx_thread_ns(p->t) : lx_process_ns(p);
		return 0;
	}
	return -EINVAL;
}

/* The calling thread sleeps until deadline (the guest's clock); rem:
 * where an interrupted sleep leaves the time it had left. */
static long sleep_until(struct lx *p, uint64_t deadline, uint64_t rem)
{
	if (deadline <= lx_now_ns(p))
		return 0;
	p->t->w.rem = rem;
	return lx_wait_begin(p, LX_W_SLEEP, deadline, false);
}

static long sys_clock_nanosleep(struct lx *p, const uint64_t *a)
{
	uint64_t now;
	int e = clock_ns(p, (int32_t)a[0], &now);
	if (e)
		return e;
	int64_t t = get_ts(p, a[2]);
	if (t < 0)
		return t;
	if (a[1] & 1)                      /* TIMER_ABSTIME */
		return (uint64_t)t > now ? sleep_until(p, lx_now_ns(p) + ((uint64_t)t - now), 0) : 0;
	return sleep_until(p, lx_now_ns(p) + (uint64_t)t, a[3]);
}

/* Documentation/arch/riscv/hwprobe.rst: keys and the bits answered for
 * what the hart implements (RV64IMAFDC, Zba, Zbb, Zbs). */
static long sys_riscv_hwprobe(struct lx *p, const uint64_t *a)
{
	if (a[4])
		return -EINVAL;
	if (a[1] > 4096)
		return -EINVAL;
	uint8_t *pairs = lx_wptr(p, a[0], a[1] * 16);
	if (!pairs)
		return -EFAULT;
	for (uint64_t i = 0; i < a[1]; i++) {
		int64_t key;   /* struct riscv_hwprobe { s64 key; u64 value; } */
		memcpy(&key, pairs + 16 * i, 8);
		uint64_t v = 0;
		switch (key) {
		case 0: v = p->h->csr.mvendorid; break;    /* as /proc/cpuinfo says */
		case 1: v = p->h->csr.marchid; break;
		case 2: v = p->h->csr.mimpid; break;
		case 3: v = 1; break;                      /* BASE_BEHAVIOR_IMA */
		case 4:                                    /* IMA_EXT_0 */
			v = (1u << 0) | (1u << 1) |        /* FD, C */
			    (1u << 3) | (1u << 4) | (1u << 5); /* Zba, Zbb, Zbs */
			break;
		case 5: case 9: v = 3; break;              /* misaligned: FAST (done in hardware) */
		case 6: v = 0; break;                      /* no Zicboz */
		case 7: v = p->mm->mem.size - 1; break;     /* HIGHEST_VIRT_ADDRESS */
		case 8: v = p->h->time_hz; break;          /* TIME_CSR_FREQ */
		default: key = -1; v = 0; break;
		}
		memcpy(pairs + 16 * i, &key, 8);
		memcpy(pairs + 16 * i + 8, &v, 8);
	}
	return 0;
}

static const uint64_t RLIM_INF = ~0ull;

static long sys_prlimit(struct lx *p, int64_t pid, uint64_t res, uint64_t nw, uint64_t old)
{
	if (pid != 0 && pid != p->pid)
		return -ESRCH;
	if (res >= LX_NRLIMIT)
		return -EINVAL;
	uint64_t v[2];
	if (nw && lx_get(p, nw, v, sizeof(v)))
		return -EFAULT;
	if (nw && v[0] > v[1])
		return -EINVAL;
	if (old && lx_put(p, old, p->rlim[res], 16))
		return -EFAULT;
	if (nw)
		memcpy(p->rlim[res], v, 16);
	return 0;
}

void lx_limits_init(struct lx *p)
{
	for (int i = 0; i < LX_NRLIMIT; i++)
		p->rlim[i][0] = p->rlim[i][1] = RLIM_INF;
	p->rlim[3][0] = LX_STACK_SIZE;             /* RLIMIT_STACK */
	p->rlim[4][0] = 0;                         /* RLIMIT_CORE */
	p->rlim[7][0] = p->rlim[7][1] = LX_NFD;    /* RLIMIT_NOFILE */
	p->rlim[8][0] = p->rlim[8][1] = 8 << 20;   /* RLIMIT_MEMLOCK */
	if (p->mm->mem.acct->max_bytes)                   /* RLIMIT_AS */
		p->rlim[9][0] = p->rlim[9][1] = p->mm->mem.acct->max_bytes;
	p->rlim[13][0] = p->rlim[13][1] = 0;       /* RLIMIT_NICE */
	p->rlim[14][0] = p->rlim[14][1] = 0;       /* RLIMIT_RTPRIO */
}

static long sys_uname(struct lx *p, uint64_t ga)
{
	char u[6][65];
	memset(u, 0, sizeof(u));
	strcpy(u[0], "Linux");
	strcpy(u[1], "rvpmu");
	strcpy(u[2], "6.6.0-rvpmu");
	strcpy(u[3], "#1 SMP PREEMPT");
	strcpy(u[4], "riscv64");
	strcpy(u[5], "(none)");
	return lx_put(p, ga, u, sizeof(u));
}

/* prctl options programs ask about (include/uapi/linux/prctl.h): what
 * they set is kept and read back; the rest is EINVAL, as for an option
 * Linux does not know. */
static long prctl_basic(struct lx *p, const uint64_t *a)
{
	uint32_t v;
	switch (a[0]) {
	case 1:                             /* PR_SET_PDEATHSIG */
		if (a[1] > LX_NSIG)
			return -EINVAL;
		p->pdeathsig = (int)a[1];
		return 0;
	case 2:                             /* PR_GET_PDEATHSIG */
		v = (uint32_t)p->pdeathsig;
		return lx_put(p, a[1], &v, 4);
	case 3: case 39: case 37:           /* GET_DUMPABLE, GET_NO_NEW_PRIVS, GET_CHILD_SUBREAPER */
		return a[0] == 3 ? 1 : a[0] == 39 ? p->no_new_privs : (v = 0, lx_put(p, a[1], &v, 4));
	case 4: case 36:                    /* SET_DUMPABLE, SET_CHILD_SUBREAPER */
		return 0;
	case 38:                            /* PR_SET_NO_NEW_PRIVS */
		if (a[1] != 1)
			return -EINVAL;
		p->no_new_privs = true;
		return 0;
	case 30:                            /* PR_GET_TIMERSLACK: 50 us */
		return 50000;
	}
	return -EINVAL;
}

long lx_sys_misc(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct hart *h = p->h;
	uint64_t ns;
	int e;
	*handled = true;
	switch (nr) {
	case NR_rseq:
		return -ENOSYS;     /* glibc carries on without it */
	case NR_socket: case NR_socketpair:
		return -EAFNOSUPPORT;   /* no network and no sockets, said without a warning */
	case NR_getpriority:
		return 20;          /* nice 0, as the kernel encodes it (20 - nice) */
	case NR_setpriority:
		return 0;
	case NR_getpid:
		return p->pid;
	case NR_getppid:
		return p->ppid;
	case NR_getgroups:
		return 0;
	case NR_getresuid: case NR_getresgid: {
		uint32_t id = nr == NR_getresuid ? getuid() : getgid();
		uint32_t eid = nr == NR_getresuid ? geteuid() : getegid();
		if (lx_put(p, a[0], &id, 4) || lx_put(p, a[1], &eid, 4) || lx_put(p, a[2], &eid, 4))
			return -EFAULT;
		return 0;
	}
	case NR_mlock: case NR_munlock: case NR_mlockall: case NR_munlockall:
		return 0;
	case NR_getuid: return getuid();
	case NR_geteuid: return geteuid();
	case NR_getgid: return getgid();
	case NR_getegid: return getegid();
	case NR_clock_gettime:
		if ((e = clock_ns(p, (int32_t)a[0], &ns)))
			return e;
		return put_ts(p, a[1], ns);
	case NR_clock_getres:
		if ((e = clock_ns(p, (int32_t)a[0], &ns)))
			return e;
		return a[1] ? put_ts(p, a[1], NS / (h->time_hz ? h->time_hz : NS)) : 0;
	case NR_gettimeofday: {
		uint64_t t = LX_EPOCH * NS + lx_now_ns(p);
		int64_t tv[2] = { (int64_t)(t / NS), (int64_t)(t % NS / 1000) };
		if (a[0] && lx_put(p, a[0], tv, sizeof(tv)))
			return -EFAULT;
		int32_t tz[2] = { 0, 0 };
		if (a[1] && lx_put(p, a[1], tz, sizeof(tz)))
			return -EFAULT;
		return 0;
	}
	case NR_nanosleep: {
		int64_t t = get_ts(p, a[0]);
		if (t < 0)
			return t;
		return sleep_until(p, lx_now_ns(p) + (uint64_t)t, a[1]);
	}
	case NR_clock_nanosleep:
		return sys_clock_nanosleep(p, a);
	case NR_uname:
		return sys_uname(p, a[0]);
	case NR_getrandom: {
		if (a[2] & ~7ull)
			return -EINVAL;
		if (a[1] > (1u << 25))
			return -EINVAL;
		uint8_t *b = lx_wptr(p, a[0], a[1]);
		if (!b)
			return -EFAULT;
		lx_random_bytes(p, b, a[1]);
		return (long)a[1];
	}
	case NR_prlimit64:
		return sys_prlimit(p, (int32_t)a[0], a[1], a[2], a[3]);
	case NR_getrlimit:
		return sys_prlimit(p, 0, a[0], 0, a[1]);
	case NR_setrlimit:
		return sys_prlimit(p, 0, a[0], a[1], 0);
	case NR_getrusage: {
		int32_t who = (int32_t)a[0];
		if (who != 0 && who != -1 && who != 1)
			return -EINVAL;
		uint64_t ru[18] = { 0 };      /* struct rusage: 2 timevals + 14 longs */
		if (who != -1) {
			uint64_t cpu = who == 1 ? lx_thread_ns(p->t) : lx_process_ns(p);
			ru[0] = cpu / NS;
			ru[1] = cpu % NS / 1000;
			ru[4] = p->mm->mem.acct->mapped >> 10;      /* ru_maxrss in KiB */
			/* ru_minflt: the thread's or its process's (as Linux's,
			 * kept across an exec); no fault is major here */
			ru[8] = who == 1 ? p->t->minflt : p->minflt;
			ru[16] = p->nvcsw;                /* ru_nvcsw */
			ru[17] = p->nivcsw;               /* ru_nivcsw */
		} else {
			ru[0] = p->child_ns / NS;         /* the reaped children's */
			ru[1] = p->child_ns % NS / 1000;
			ru[8] = p->child_minflt;
		}
		return lx_put(p, a[1], ru, sizeof(ru));
	}
	case NR_times: {
		uint64_t cpu = lx_process_ns(p);
		uint64_t t[4] = { cpu / (NS / 100), 0, 0, 0 };
		if (a[0] && lx_put(p, a[0], t, sizeof(t)))
			return -EFAULT;
		return (long)(lx_now_ns(p) / (NS / 100));
	}
	case NR_sysinfo: {
		uint8_t si[112] = { 0 };
		uint64_t total = p->mm->mem.acct->max_bytes ? p->mm->mem.acct->max_bytes : 16ull << 30;
		uint64_t up = lx_now_ns(p) / NS, freeb = total - (p->mm->mem.acct->mapped < total ? p->mm->mem.acct->mapped : total);
		uint16_t procs = (uint16_t)lx_nthreads();
		uint32_t unit = 1;
		memcpy(si + 0, &up, 8);
		memcpy(si + 32, &total, 8);
		memcpy(si + 40, &freeb, 8);
		memcpy(si + 80, &procs, 2);
		memcpy(si + 104, &unit, 4);
		return lx_put(p, a[0], si, sizeof(si));
	}
	case NR_umask:
		p->umask = (unsigned)(a[0] & 0777);
		return (long)umask((mode_t)p->umask);
	case NR_prctl:
		if (a[0] == 15) {               /* PR_SET_NAME */
			long n = gmem_strlen(&p->mm->mem, a[1], 16);
			if (n < 0 && !lx_rptr(p, a[1], 16))
				return -EFAULT;
			char *c = p->t->comm;
			memset(c, 0, 16);
			memcpy(c, p->mm->mem.base + a[1], n < 0 ? 15 : (size_t)n < 15 ? (size_t)n : 15);
			if (p->t->tid == p->pid)
				memcpy(p->comm, c, 16);
			lx_task_change(LINUX_TASK_COMM, p->t, NULL);
			return 0;
		}
		if (a[0] == 16)                 /* PR_GET_NAME */
			return lx_put(p, a[1], p->t->comm, 16);
		return prctl_basic(p, a);
	case NR_futex:
		return lx_sys_futex(p, a);
	case NR_riscv_hwprobe:
		return sys_riscv_hwprobe(p, a);
	case NR_riscv_flush_icache:
		if (a[1] > a[0])
			hart_invalidate_code(h, a[0], a[1] - a[0]);
		lx_fmap_sync_code(p);
		return 0;
	}
	*handled = false;
	return 0;
}
