/* Process-wide syscalls: exit, time (modelled, deterministic), identity,
 * limits, uname, getrandom, futex for one thread, riscv_hwprobe. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"

/* CLOCK_REALTIME reads this fixed epoch (2026-01-01T00:00:00Z) plus the
 * modelled time, so two runs of a program see the same clock. */
#define LX_EPOCH 1767225600ull
#define NS 1000000000ull

uint64_t lx_now_ns(struct lx *p)
{
	struct hart *h = p->h;
	uint64_t hz = h->time_hz ? h->time_hz : 10000000;
	return (uint64_t)((unsigned __int128)hart_time(h) * NS / hz) + p->sleep_ns;
}

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

/* clockid_t values (include/uapi/linux/time.h). */
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
	case 2: case 3:                    /* PROCESS/THREAD_CPUTIME_ID */
		*ns = now - p->sleep_ns;
		return 0;
	}
	if (clk < 0) {                     /* a CPU clock of this process */
		*ns = now - p->sleep_ns;
		return 0;
	}
	return -EINVAL;
}

/* The program waits ns of modelled time off the hart: a voluntary
 * context switch, as Linux schedules the idle task meanwhile. */
void lx_sleep(struct lx *p, uint64_t ns)
{
	if (!ns)
		return;
	p->sleep_ns += ns;
	p->nvcsw++;
}

void linux_sw_read(const struct hart *h, struct linux_sw *out)
{
	const struct lx *p = &lx_proc;
	bool ours = p->h == h;
	*out = (struct linux_sw){
		.sleep_ns = ours ? p->sleep_ns : 0, .switches = ours ? p->nvcsw : 0,
		.faults_user = h->mem.faults[0], .faults_kernel = h->mem.faults[1],
	};
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
	if (a[1] & 1) {                    /* TIMER_ABSTIME */
		if ((uint64_t)t > now)
			lx_sleep(p, (uint64_t)t - now);
	} else {
		lx_sleep(p, (uint64_t)t);
	}
	return 0;
}

/* futex(2) with one thread: nothing else can change the word or wake a
 * waiter, so a wait on the expected value can never end. */
static long sys_futex(struct lx *p, const uint64_t *a)
{
	uint64_t ua = a[0];
	int op = (int)a[1] & 0x7f;         /* drop PRIVATE and CLOCK_REALTIME */
	uint32_t val = (uint32_t)a[2], cur;
	if (ua & 3)
		return -EINVAL;
	switch (op) {
	case 0: case 9: {                  /* FUTEX_WAIT, FUTEX_WAIT_BITSET */
		if (lx_get(p, ua, &cur, 4))
			return -EFAULT;
		if (cur != val)
			return -EAGAIN;
		if (a[3]) {
			int64_t t = get_ts(p, a[3]);
			if (t < 0)
				return t;
			uint64_t now;
			clock_ns(p, ((int)a[1] & 256) ? 0 : 1, &now);
			if (op == 0)
				lx_sleep(p, (uint64_t)t);
			else if ((uint64_t)t > now)
				lx_sleep(p, (uint64_t)t - now);
			return -ETIMEDOUT;
		}
		lx_warn(p, "rvpmu: %s: deadlock: futex wait on 0x%llx with no other thread to wake it",
			p->name, (unsigned long long)ua);
		p->exited = true;
		p->status = LINUX_EXIT_DEADLOCK;
		return 0;
	}
	case 1: case 10:                   /* FUTEX_WAKE, FUTEX_WAKE_BITSET */
		return 0;
	case 3:                            /* FUTEX_REQUEUE */
		return 0;
	case 4:                            /* FUTEX_CMP_REQUEUE */
		if (lx_get(p, ua, &cur, 4))
			return -EFAULT;
		return cur != (uint32_t)a[5] ? -EAGAIN : 0;
	case 5: {                          /* FUTEX_WAKE_OP: do the op on uaddr2 */
		uint32_t enc = (uint32_t)a[5], old;
		if (lx_get(p, a[4], &old, 4))
			return -EFAULT;
		int32_t oparg = (int32_t)(enc << 8) >> 20;
		if (enc & 0x80000000u)
			oparg = (int32_t)(1u << (oparg & 31));
		uint32_t nv;
		switch ((enc >> 28) & 7) {
		case 0: nv = (uint32_t)oparg; break;
		case 1: nv = old + (uint32_t)oparg; break;
		case 2: nv = old | (uint32_t)oparg; break;
		case 3: nv = old & ~(uint32_t)oparg; break;
		case 4: nv = old ^ (uint32_t)oparg; break;
		default: return -ENOSYS;
		}
		return lx_put(p, a[4], &nv, 4) ? -EFAULT : 0;
	}
	case 6: case 8:                    /* FUTEX_LOCK_PI, FUTEX_TRYLOCK_PI */
		if (lx_get(p, ua, &cur, 4))
			return -EFAULT;
		if ((cur & 0x3fffffff) == LX_PID)
			return -EDEADLK;
		if (cur & 0x3fffffff) {
			if (op == 8)
				return -EAGAIN;
			lx_warn(p, "rvpmu: %s: deadlock: futex lock 0x%llx held by a thread that does not exist",
				p->name, (unsigned long long)ua);
			p->exited = true;
			p->status = LINUX_EXIT_DEADLOCK;
			return 0;
		}
		cur = LX_PID;
		return lx_put(p, ua, &cur, 4) ? -EFAULT : 0;
	case 7:                            /* FUTEX_UNLOCK_PI */
		if (lx_get(p, ua, &cur, 4))
			return -EFAULT;
		if ((cur & 0x3fffffff) != LX_PID)
			return -EPERM;
		cur = 0;
		return lx_put(p, ua, &cur, 4) ? -EFAULT : 0;
	}
	return -ENOSYS;
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
		case 7: v = p->h->mem.size - 1; break;     /* HIGHEST_VIRT_ADDRESS */
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
	if (pid != 0 && pid != LX_PID)
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
	if (p->h->mem.max_bytes)                   /* RLIMIT_AS */
		p->rlim[9][0] = p->rlim[9][1] = p->h->mem.max_bytes;
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

long lx_sys_misc(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct hart *h = p->h;
	uint64_t ns;
	int e;
	*handled = true;
	switch (nr) {
	case NR_exit: case NR_exit_group:
		p->exited = true;
		p->status = (int)(a[0] & 0xff);
		return 0;
	case NR_set_tid_address:
		return LX_PID;
	case NR_set_robust_list:
		return a[1] == 24 ? 0 : -EINVAL;
	case NR_rseq:
		return -ENOSYS;     /* glibc carries on without it */
	case NR_getpid: case NR_gettid:
		return LX_PID;
	case NR_getppid:
		return LX_PPID;
	case NR_getpgid: case NR_getsid:
		return (a[0] == 0 || a[0] == LX_PID) ? LX_PID : -ESRCH;
	case NR_setpgid:
		return -EPERM;
	case NR_setsid:
		return -EPERM;      /* already a process group leader */
	case NR_getgroups:
		return 0;
	case NR_getresuid: case NR_getresgid: {
		uint32_t id = nr == NR_getresuid ? getuid() : getgid();
		uint32_t eid = nr == NR_getresuid ? geteuid() : getegid();
		if (lx_put(p, a[0], &id, 4) || lx_put(p, a[1], &eid, 4) || lx_put(p, a[2], &eid, 4))
			return -EFAULT;
		return 0;
	}
	case NR_wait4: case NR_waitid:
		return -ECHILD;     /* no fork, so never a child */
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
		lx_sleep(p, (uint64_t)t);
		return 0;
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
			uint64_t cpu = lx_now_ns(p) - p->sleep_ns;
			ru[0] = cpu / NS;
			ru[1] = cpu % NS / 1000;
			ru[4] = h->mem.mapped >> 10;      /* ru_maxrss in KiB */
			ru[8] = h->mem.faults[0] + h->mem.faults[1];  /* ru_minflt */
			ru[16] = p->nvcsw;                /* ru_nvcsw */
		}
		return lx_put(p, a[1], ru, sizeof(ru));
	}
	case NR_times: {
		uint64_t cpu = lx_now_ns(p) - p->sleep_ns;
		uint64_t t[4] = { cpu / (NS / 100), 0, 0, 0 };
		if (a[0] && lx_put(p, a[0], t, sizeof(t)))
			return -EFAULT;
		return (long)(lx_now_ns(p) / (NS / 100));
	}
	case NR_sysinfo: {
		uint8_t si[112] = { 0 };
		uint64_t total = h->mem.max_bytes ? h->mem.max_bytes : 16ull << 30;
		uint64_t up = lx_now_ns(p) / NS, freeb = total - (h->mem.mapped < total ? h->mem.mapped : total);
		uint16_t procs = 1;
		uint32_t unit = 1;
		memcpy(si + 0, &up, 8);
		memcpy(si + 32, &total, 8);
		memcpy(si + 40, &freeb, 8);
		memcpy(si + 80, &procs, 2);
		memcpy(si + 104, &unit, 4);
		return lx_put(p, a[0], si, sizeof(si));
	}
	case NR_sched_getaffinity: {
		int32_t pid = (int32_t)a[0];
		if (pid != 0 && pid != LX_PID)
			return -ESRCH;
		if (a[1] < 8 || (a[1] & 7))
			return -EINVAL;
		uint64_t mask = 1;              /* one hart */
		return lx_put(p, a[2], &mask, 8) ? -EFAULT : 8;
	}
	case NR_sched_yield:
		return 0;
	case NR_umask:
		return (long)umask((mode_t)(a[0] & 0777));
	case NR_prctl:
		if (a[0] == 15) {               /* PR_SET_NAME */
			long n = gmem_strlen(&h->mem, a[1], 16);
			if (n < 0 && !lx_rptr(p, a[1], 16))
				return -EFAULT;
			memset(p->comm, 0, sizeof(p->comm));
			memcpy(p->comm, h->mem.base + a[1], n < 0 ? 15 : (size_t)n < 15 ? (size_t)n : 15);
			return 0;
		}
		if (a[0] == 16)                 /* PR_GET_NAME */
			return lx_put(p, a[1], p->comm, 16);
		return -EINVAL;
	case NR_futex:
		return sys_futex(p, a);
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
