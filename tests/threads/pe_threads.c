/* The program's own perf_event_open across threads and processes, as
 * Linux counts them: inherit (threads and fork children a counting
 * thread makes after the open are counted, read() sums them), pid (the
 * calling thread, or another thread of the run), cpu (only while on that
 * hart; pid -1: the whole hart), group reads with PERF_FORMAT_ID and the
 * times, the group ioctls across threads, and enable_on_exec and
 * remove_on_exec at an exec.
 *
 *   pe_threads NCPUS MODELS
 * NCPUS: the --cpus of the run; MODELS: "models" or "nomodels" (without
 * the models cycles = instructions and modelled ns = instructions).
 *
 * Exact numbers from first principles: spin(k) retires 2k instructions
 * more than spin(0) (its loop is addi, bnez), and a thread or a child
 * process running spin(k) differs from one running spin(j) by exactly
 * 2(k - j) instructions: the rest of its life (glibc's thread start and
 * exit, fork's return) is the same code. So each check runs a phase with
 * K1 and one with K2 and compares the difference with 2 N (K2 - K1).
 * Prints "ok NAME" / "not ok NAME: why", and "info 0 failed" at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 4            /* threads a phase makes */
#define K1 20000l
#define K2 50000l
#define D(x) ((unsigned long long)(x))

static int fails, ncpus, models;

#define CHECK(name, cond, ...) do {                                     \
		if (cond) printf("ok %s\n", name);                      \
		else { fails++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
	} while (0)

__attribute__((noinline)) static void spin(long n)
{
	asm volatile("beqz %0, 2f\n1:\taddi %0, %0, -1\n\tbnez %0, 1b\n2:" : "+r"(n));
}

/* a hardware event (instructions, cycles) of U */
static void attr_init(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = config;
	a->exclude_kernel = 1;
}

static int peo(struct perf_event_attr *a, int pid, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, 0);
}

/* pid/cpu as perf_event_open takes them; a group leader starts disabled */
static int open_ev(uint64_t config, int pid, int cpu, int inherit, uint64_t fmt, int group)
{
	struct perf_event_attr a;
	attr_init(&a, config);
	a.inherit = inherit;
	a.read_format = fmt;
	a.disabled = group >= 0 ? 0 : (fmt & PERF_FORMAT_GROUP) != 0;
	return peo(&a, pid, cpu, group);
}

static uint64_t read1(int fd)
{
	uint64_t v = ~0ull;
	return read(fd, &v, 8) == 8 ? v : ~0ull;
}

static void *worker(void *k)
{
	spin((long)k);
	return NULL;
}

static void threads(long k)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)k);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
}

/* N threads spin(k) while an inherit and a non-inherit counter of the
 * main thread count: what the threads retired (the first's count less
 * the second's), and the main thread's own in *self. */
static uint64_t thread_phase(long k, uint64_t *self)
{
	int inh = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 1, 0, -1);
	int own = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 0, 0, -1);
	threads(k);
	uint64_t a = read1(inh), b = read1(own);
	close(inh);
	close(own);
	*self = b;
	return inh < 0 || own < 0 ? 0 : a - b;
}

static void check_inherit(void)
{
	uint64_t s0, s1, s2;
	thread_phase(K1, &s0);   /* glibc's first thread stacks come from mmap */
	uint64_t c1 = thread_phase(K1, &s1), c2 = thread_phase(K2, &s2);
	CHECK("inherit=1 counts the threads: 2N(K2-K1) more for K2", c2 - c1 == 2 * N * (K2 - K1),
	      "K1 %llu, K2 %llu, difference %llu, want %llu", D(c1), D(c2), D(c2 - c1),
	      D(2 * N * (K2 - K1)));
	CHECK("inherit=1 counts at least the threads' loops", c1 >= 2 * N * K1, "got %llu", D(c1));
	CHECK("inherit=0 counts the opening thread alone", s1 && s2 && s1 < 2 * K1 && s2 < 2 * K1,
	      "K1 %llu, K2 %llu (the main thread's own work)", D(s1), D(s2));
}

/* A group of instructions (leader) and cycles, inherit, read with
 * PERF_FORMAT_GROUP | ID | the times; enabled and disabled with
 * PERF_IOC_FLAG_GROUP around the threads. */
struct grp { uint64_t nr, ena, run, v0, id0, v1, id1; };

/* The main thread's own count (*self) comes off the group's: its join
 * may or may not wait, as the threads' timing has it. */
static int group_phase(long k, struct grp *g, uint64_t ids[2], uint64_t *self)
{
	uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING;
	int l = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 1, fmt, -1);
	int m = open_ev(PERF_COUNT_HW_CPU_CYCLES, 0, -1, 1, fmt, l);
	if (l < 0 || m < 0)
		return -1;
	ioctl(l, PERF_EVENT_IOC_ID, &ids[0]);
	ioctl(m, PERF_EVENT_IOC_ID, &ids[1]);
	int own = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 0, 0, -1);
	ioctl(l, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	threads(k);
	ioctl(l, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	*self = read1(own);
	close(own);
	threads(k);   /* not counted: the group is off */
	int r = read(l, g, sizeof(*g)) == sizeof(*g) ? 0 : -1;
	struct grp z;
	ioctl(l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	if (read(l, &z, sizeof(z)) != sizeof(z) || z.v0 || z.v1)
		r = -2;
	close(m);
	close(l);
	return r;
}

static void check_group(void)
{
	struct grp a, b;
	uint64_t ia[2], ib[2], sa, sb;
	int ra = group_phase(K1, &a, ia, &sa), rb = group_phase(K2, &b, ib, &sb);
	CHECK("group read: nr 2, the leader first, ids as PERF_EVENT_IOC_ID gives",
	      ra == 0 && rb == 0 && a.nr == 2 && a.id0 == ia[0] && a.id1 == ia[1] && b.id0 == ib[0],
	      "reads %d %d, nr %llu, ids %llu %llu (ioctl %llu %llu)", ra, rb, D(a.nr), D(a.id0),
	      D(a.id1), D(ia[0]), D(ia[1]));
	CHECK("group instructions: 2N(K2-K1) more for K2 (threads counted, the disabled ones not)",
	      (b.v0 - sb) - (a.v0 - sa) == 2 * N * (K2 - K1) && a.v0 >= 2 * N * K1 &&
	      a.v0 < 4 * N * K1, "K1 %llu - %llu, K2 %llu - %llu", D(a.v0), D(sa), D(b.v0), D(sb));
	CHECK("group: enabled = running (no multiplexing)", a.ena == a.run && a.ena > 0,
	      "enabled %llu, running %llu", D(a.ena), D(a.run));
	if (!models) {
		CHECK("group without models: cycles = instructions", a.v1 == a.v0 && b.v1 == b.v0,
		      "%llu/%llu, %llu/%llu", D(a.v1), D(a.v0), D(b.v1), D(b.v0));
		/* the threads' time on the harts: one instruction a ns */
		CHECK("group without models: time enabled = instructions (ns)",
		      a.ena == a.v0 && b.ena == b.v0, "%llu/%llu, %llu/%llu", D(a.ena), D(a.v0),
		      D(b.ena), D(b.v0));
	} else {
		CHECK("group with models: cycles >= instructions", a.v1 >= a.v0,
		      "%llu < %llu", D(a.v1), D(a.v0));
	}
}

/* pid = another thread's tid: it counts that thread from the open on. */
static sem_t ready, go;
static volatile int worker_tid;

static void *waiting_worker(void *k)
{
	worker_tid = gettid();
	sem_post(&ready);
	sem_wait(&go);
	spin((long)k);
	return NULL;
}

static uint64_t pid_phase(long k, int *fd_out)
{
	pthread_t t;
	sem_init(&ready, 0, 0);
	sem_init(&go, 0, 0);
	pthread_create(&t, NULL, waiting_worker, (void *)k);
	sem_wait(&ready);
	int fd = open_ev(PERF_COUNT_HW_INSTRUCTIONS, worker_tid, -1, 0, 0, -1);
	*fd_out = fd;
	uint64_t before = read1(fd);
	spin(K2);   /* the main thread's: not counted */
	sem_post(&go);
	pthread_join(t, NULL);
	uint64_t v = read1(fd) - before;
	close(fd);
	return v;
}

static void check_pid(void)
{
	int f1, f2;
	uint64_t v1 = pid_phase(K1, &f1), v2 = pid_phase(K2, &f2);
	CHECK("pid = another thread's tid: opens", f1 >= 0 && f2 >= 0, "fd %d, errno %d", f1, errno);
	CHECK("pid = another thread's tid: counts it, 2(K2-K1) more for K2",
	      v2 - v1 == 2 * (K2 - K1) && v1 >= 2 * K1 && v1 < 2 * K1 + 2 * K2,
	      "K1 %llu, K2 %llu", D(v1), D(v2));
	int fd = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 999999, -1, 0, 0, -1);
	CHECK("pid of no thread: ESRCH", fd == -1 && errno == ESRCH, "fd %d errno %d", fd, errno);
}

/* cpu = N: the threads count only while on hart N; pid -1 cpu N: the hart. */
static void *pinned_worker(void *k)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(1, &s);
	sched_setaffinity(0, sizeof(s), &s);
	spin((long)k);
	return NULL;
}

/* The main thread on hart 0, a worker (pinned to hart 1 as it starts)
 * spin(k): the counts of inherit events for any hart, hart 0 and hart
 * 1, of a hart event on hart 1 and of the main thread's for hart 1. */
struct cpu_counts { uint64_t all, c0, c1, hart1, m[3]; };

static void cpu_phase(long k, struct cpu_counts *r)
{
	uint64_t fmt = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	int all = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 1, 0, -1);
	int c0 = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 1, 0, -1);
	int c1 = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, 1, 1, 0, -1);
	int hart1 = open_ev(PERF_COUNT_HW_INSTRUCTIONS, -1, 1, 0, 0, -1);
	int main1 = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, 1, 0, fmt, -1);
	CHECK("cpu 0, cpu 1, pid -1 cpu 1: open", all >= 0 && c0 >= 0 && c1 >= 0 && hart1 >= 0 &&
	      main1 >= 0, "%d %d %d %d %d errno %d", all, c0, c1, hart1, main1, errno);
	pthread_t t;
	pthread_create(&t, NULL, pinned_worker, (void *)k);
	pthread_join(t, NULL);
	r->hart1 = read1(hart1);
	r->all = read1(all);
	r->c0 = read1(c0);
	r->c1 = read1(c1);
	if (read(main1, r->m, sizeof(r->m)) != sizeof(r->m))
		r->m[0] = ~0ull;
	close(all);
	close(c0);
	close(c1);
	close(hart1);
	close(main1);
}

static void check_cpu(void)
{
	int bad = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, ncpus, 0, 0, -1);
	CHECK("cpu = NCPUS (no such hart): EINVAL", bad == -1 && errno == EINVAL, "fd %d errno %d",
	      bad, errno);
	if (ncpus < 2)
		return;
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(0, &s);
	sched_setaffinity(0, sizeof(s), &s);
	struct cpu_counts a, b;
	cpu_phase(K1, &a);
	cpu_phase(K2, &b);
	CHECK("inherit cpu=-1 and cpu 1: 2(K2-K1) more for K2 (the worker's loop on hart 1)",
	      b.all - a.all == 2 * (K2 - K1) && b.c1 - a.c1 == 2 * (K2 - K1),
	      "cpu -1: %llu, %llu; cpu 1: %llu, %llu", D(a.all), D(b.all), D(a.c1), D(b.c1));
	CHECK("inherit cpu 0: the same for K1 and K2 (the worker's start there, the main thread)",
	      a.c0 == b.c0 && a.c0 > 0, "%llu, %llu", D(a.c0), D(b.c0));
	CHECK("cpu 1 counts the worker pinned there", a.c1 >= 2 * K1 && a.c1 < 2 * K1 + 10000,
	      "%llu", D(a.c1));
	CHECK("pid -1 cpu 1 (the hart) = the task event's cpu 1 count",
	      a.hart1 == a.c1 && b.hart1 == b.c1, "hart %llu, task %llu; hart %llu, task %llu",
	      D(a.hart1), D(a.c1), D(b.hart1), D(b.c1));
	CHECK("main thread's cpu 1 event: counts nothing, enabled, never running",
	      a.m[0] == 0 && a.m[1] > 0 && a.m[2] == 0, "value %llu enabled %llu running %llu",
	      D(a.m[0]), D(a.m[1]), D(a.m[2]));
}

/* A fork child: counted by inherit, not by inherit_thread. */
static uint64_t fork_phase(long k, int thread_only)
{
	struct perf_event_attr a;
	attr_init(&a, PERF_COUNT_HW_INSTRUCTIONS);
	a.inherit = 1;
	a.inherit_thread = thread_only;
	int inh = peo(&a, 0, -1, -1);
	int own = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 0, 0, -1);
	pid_t c = fork();
	if (c == 0) {
		spin(k);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	uint64_t v = read1(inh) - read1(own);
	close(inh);
	close(own);
	return v;
}

static void check_fork(void)
{
	fork_phase(K1, 0);
	uint64_t v1 = fork_phase(K1, 0), v2 = fork_phase(K2, 0);
	CHECK("inherit counts a fork child: 2(K2-K1) more for K2",
	      v2 - v1 == 2 * (K2 - K1) && v1 >= 2 * K1, "K1 %llu, K2 %llu", D(v1), D(v2));
	uint64_t t1 = fork_phase(K1, 1), t2 = fork_phase(K2, 1);
	CHECK("inherit_thread does not count a fork child: the same for K1 and K2", t1 == t2,
	      "K1 %llu, K2 %llu", D(t1), D(t2));
}

/* What an event counted over spin(k), read before and after. */
static uint64_t over_spin(int fd, long k)
{
	uint64_t a = read1(fd);
	spin(k);
	return read1(fd) - a;
}

/* After the exec (argv: NCPUS MODELS exec FAILS ON_EXEC REMOVED): the
 * enable_on_exec event counts this image, the remove_on_exec one no
 * longer counts this thread. */
static void after_exec(char **argv)
{
	fails = atoi(argv[4]);
	int on = atoi(argv[5]), rm = atoi(argv[6]);
	uint64_t a = over_spin(on, K1), b = over_spin(on, K2), r = over_spin(rm, K2);
	CHECK("enable_on_exec: counts from the exec on, 2(K2-K1) more for K2", b - a == 2 * (K2 - K1),
	      "K1 %llu, K2 %llu", D(a), D(b));
	CHECK("remove_on_exec: counts the thread no more after its exec", r == 0, "%llu", D(r));
}

static void check_exec(char **argv)
{
	struct perf_event_attr a;
	attr_init(&a, PERF_COUNT_HW_INSTRUCTIONS);
	a.disabled = a.enable_on_exec = 1;
	int on = peo(&a, 0, -1, -1);
	a.disabled = a.enable_on_exec = 0;
	a.remove_on_exec = 1;
	int rm = peo(&a, 0, -1, -1);
	uint64_t z = over_spin(on, K1), c = over_spin(rm, K1);
	CHECK("enable_on_exec: nothing counted before the exec", on >= 0 && z == 0,
	      "fd %d, %llu", on, D(z));
	CHECK("remove_on_exec: counts until the exec", rm >= 0 && c >= 2 * K1, "fd %d, %llu", rm, D(c));
	char f[16], o[16], r[16];
	snprintf(f, sizeof(f), "%d", fails);
	snprintf(o, sizeof(o), "%d", on);
	snprintf(r, sizeof(r), "%d", rm);
	execl("/proc/self/exe", argv[0], argv[1], argv[2], "exec", f, o, r, (char *)NULL);
	CHECK("exec", 0, "errno %d", errno);
}

int main(int argc, char **argv)
{
	ncpus = argc > 1 ? atoi(argv[1]) : 1;
	models = argc > 2 && !strcmp(argv[2], "models");
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 6 && !strcmp(argv[3], "exec")) {
		after_exec(argv);
	} else if (argc > 2) {
		check_inherit();
		check_group();
		check_pid();
		check_cpu();
		check_fork();
		check_exec(argv);
	}
	printf("info %d failed\n", fails);
	return fails != 0;
}
