/* /init of the SMP guest tests (tests/linux-smp/suite.sh builds it into an
 * initramfs for the shared Linux 6.12 image): Linux's per-CPU perf events
 * on every CPU of an SMP machine.
 *
 *   count_cpuN   user-only instructions and cycles on every CPU while an
 *                exact loop runs pinned to CPU N: CPU N counts the loop
 *                exactly, the others count nothing
 *   count_migrating
 *                a task's own user instructions, exactly, while it moves
 *                through every CPU
 *   sample_cpuN  a sampling event on every CPU while the loop runs on CPU
 *                N: CPU N's samples, and only they, come, with cpu N and
 *                the ip the period and the profile's skid give
 *   sample_migrating
 *                the task's own sampling event while it moves through
 *                every CPU: each sample with the CPU and ip it came at
 *   fw_sfence_vma / fw_fence_i
 *                SBI firmware events on every CPU while a process on CPU
 *                1 makes Linux fence a thread of it spinning on CPU 2
 *                (mprotect: remote sfence.vma; riscv_flush_icache: remote
 *                fence.i), CPU 0 driving the counters and CPU 3 idle
 *
 * Each test prints "PASS name: ...", "FAIL name: ..." or "SKIP name: ...",
 * then "SUMMARY: N passed, N failed, N skipped"; as PID 1 it then powers
 * the machine off. Kernel command-line parameters reach it as environment
 * variables: rvpmu_cpus=N (the CPUs the machine has; default 4) and
 * rvpmu_skid=N (retirements between an overflow and its interrupt, the
 * core profile's "skid"; default 0).
 *
 * Build: riscv64-linux-gnu-gcc -static -O2 -pthread -o init init.c */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CPUS 8

static int n_pass, n_fail, n_skip;

__attribute__((format(printf, 3, 4)))
static void result(const char *tag, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%s %s: ", tag, name);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	*(tag[0] == 'P' ? &n_pass : tag[0] == 'F' ? &n_fail : &n_skip) += 1;
}
#define PASS(...) result("PASS", __VA_ARGS__)
#define FAIL(...) result("FAIL", __VA_ARGS__)

/* The counted window, without compressed instructions so that each is 4
 * bytes: ioctl(fd, PERF_EVENT_IOC_ENABLE); then hops times: a loop of n
 * iterations (n >= 1) and sched_setaffinity(0, 8, masks++), which moves
 * the task to that CPU (if it is another) before it returns;
 * ioctl(fd, PERF_EVENT_IOC_DISABLE). The event counts from inside the
 * first call to inside the last, so the user instructions it sees are
 * exactly those from cw_hop up to the last ecall, less the ecalls (an
 * ecall traps and does not retire). */
__asm__(
	"	.text\n"
	"	.option push\n"
	"	.option norvc\n"
	"	.p2align 2\n"
	"	.globl cw_hops\n"
	"cw_hops:\n"
	"	mv	t0, a0\n"
	"	mv	t3, a1\n"
	"	mv	t4, a2\n"
	"	mv	t5, a3\n"
	"	li	a7, 29\n"          /* __NR_ioctl */
	"	li	a1, 0x2400\n"      /* PERF_EVENT_IOC_ENABLE */
	"	li	a2, 0\n"
	"	ecall\n"
	"	.globl cw_hop\n"
	"cw_hop:\n"
	"	mv	t1, t3\n"
	"	.globl cw_hop_loop\n"
	"cw_hop_loop:\n"
	"1:	addi	t2, t2, 3\n"
	"	xor	t2, t2, t0\n"
	"	addi	t1, t1, -1\n"
	"	bnez	t1, 1b\n"
	"	.globl cw_hop_move\n"
	"cw_hop_move:\n"
	"	li	a7, 122\n"         /* __NR_sched_setaffinity */
	"	li	a0, 0\n"
	"	li	a1, 8\n"
	"	mv	a2, t4\n"
	"	.globl cw_hop_ecall\n"
	"cw_hop_ecall:\n"
	"	ecall\n"
	"	addi	t4, t4, 8\n"
	"	addi	t5, t5, -1\n"
	"	bnez	t5, cw_hop\n"
	"	.globl cw_hops_end\n"
	"cw_hops_end:\n"
	"	mv	a0, t0\n"
	"	li	a7, 29\n"
	"	li	a1, 0x2401\n"      /* PERF_EVENT_IOC_DISABLE */
	"	li	a2, 0\n"
	"	.globl cw_hops_stop\n"
	"cw_hops_stop:\n"
	"	ecall\n"
	"	ret\n"
	"	.option pop\n");
extern void cw_hops(int fd, uint64_t n, const uint64_t *masks, uint64_t hops);
extern char cw_hop[], cw_hop_loop[], cw_hop_move[], cw_hop_ecall[], cw_hops_end[], cw_hops_stop[];

/* The user instructions of one hop of cw_hops, and of all of it. */
static uint64_t hop_insns(uint64_t n)
{
	return (uint64_t)(cw_hop_loop - cw_hop) / 4 + 4 * n + (uint64_t)(cw_hops_end - cw_hop_move) / 4 - 1;
}

static uint64_t hops_insns(uint64_t n, uint64_t hops)
{
	return hops * hop_insns(n) + (uint64_t)(cw_hops_stop - cw_hops_end) / 4;
}

/* What a counted window runs: hops of n iterations, from cpu through
 * masks. */
struct counted {
	uint64_t n, hops;
	int cpu;
	const uint64_t *masks;
};

/* The k-th (1-based) instruction a window counts: its address, the CPU it
 * runs on, and which stretch between two traps it is in. */
static void counted_insn(const struct counted *w, uint64_t k, uint64_t *ip, int *cpu, uint64_t *stretch)
{
	uint64_t per = hop_insns(w->n), h = (k - 1) / per, o = (k - 1) % per;
	uint64_t pre = (uint64_t)(cw_hop_loop - cw_hop) / 4, move = (uint64_t)(cw_hop_ecall - cw_hop_move) / 4;
	if (h >= w->hops) {   /* after the last hop */
		*ip = (uintptr_t)cw_hops_end + 4 * (k - 1 - w->hops * per);
		*cpu = __builtin_ctzll(w->masks[w->hops - 1]);
		*stretch = 2 * w->hops;
		return;
	}
	*cpu = h ? __builtin_ctzll(w->masks[h - 1]) : w->cpu;
	*stretch = 2 * h;
	if (o < pre)
		*ip = (uintptr_t)cw_hop + 4 * o;
	else if (o < pre + 4 * w->n)
		*ip = (uintptr_t)cw_hop_loop + 4 * ((o - pre) % 4);
	else if ((o -= pre + 4 * w->n) < move)
		*ip = (uintptr_t)cw_hop_move + 4 * o;
	else {   /* past the ecall that moved it */
		*ip = (uintptr_t)cw_hop_move + 4 * (o + 1);
		*cpu = __builtin_ctzll(w->masks[h]);
		*stretch = 2 * h + 1;
	}
}

static int ncpus = 4;

static int pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

static int perf_open(struct perf_event_attr *a, int cpu, int group)
{
	return (int)syscall(SYS_perf_event_open, a, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/* Reads group fd: {nr, time_enabled, time_running, values[nr]}. */
struct group_read {
	uint64_t nr, ena, run, v[16];
};

static int read_group(int fd, struct group_read *g)
{
	memset(g, 0, sizeof(*g));
	ssize_t n = read(fd, g, sizeof(*g));
	return n >= (ssize_t)(3 * sizeof(uint64_t)) ? 0 : -1;
}

static void close_all(int *fd, int n)
{
	for (int i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* ---- count_cpuN ---- */

/* On each CPU a group {instructions, cycles}, user mode only, while the
 * window runs pinned to `on`. Expected: CPU `on` counts the window's
 * instructions exactly: interrupts and the kernel's work are excluded
 * (exclude_kernel; M-mode is never counted by the SBI's counters), and
 * no other user code runs there (the test is the only process that is
 * not waiting). Its cycles: at least one per iteration (each iteration's
 * xor depends on the one before). Every other CPU: 0 of each, since no
 * user code runs on them at all, while their groups are scheduled. */
static void test_count_on(int on)
{
	const uint64_t n = 250000;
	char name[32];
	int fd[MAX_CPUS][2];
	snprintf(name, sizeof(name), "count_cpu%d", on);
	memset(fd, -1, sizeof(fd));
	if (pin(on)) {
		FAIL(name, "sched_setaffinity(%d): %s", on, strerror(errno));
		return;
	}
	for (int c = 0; c < ncpus; c++) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_INSTRUCTIONS, .disabled = 1,
			.exclude_kernel = 1, .exclude_hv = 1,
			.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
		};
		fd[c][0] = perf_open(&a, c, -1);
		a.config = PERF_COUNT_HW_CPU_CYCLES;
		a.disabled = 0;
		fd[c][1] = fd[c][0] < 0 ? -1 : perf_open(&a, c, fd[c][0]);
		if (fd[c][0] < 0 || fd[c][1] < 0) {
			FAIL(name, "perf_event_open(cpu %d): %s", c, strerror(errno));
			close_all(&fd[0][0], 2 * MAX_CPUS);
			return;
		}
	}
	for (int c = 0; c < ncpus; c++)
		if (c != on)
			ioctl(fd[c][0], PERF_EVENT_IOC_ENABLE, 0);
	uint64_t mask = 1ull << on;   /* where it is: one hop, no move */
	cw_hops(fd[on][0], n, &mask, 1);
	for (int c = 0; c < ncpus; c++)
		if (c != on)
			ioctl(fd[c][0], PERF_EVENT_IOC_DISABLE, 0);

	char got[256] = "", *p = got;
	int bad = 0;
	uint64_t want = hops_insns(n, 1);
	for (int c = 0; c < ncpus; c++) {
		struct group_read g;
		if (read_group(fd[c][0], &g) || g.nr != 2) {
			FAIL(name, "read(cpu %d): %s", c, strerror(errno));
			close_all(&fd[0][0], 2 * MAX_CPUS);
			return;
		}
		p += snprintf(p, got + sizeof(got) - p, "%scpu%d %" PRIu64 "/%" PRIu64,
			      c ? ", " : "", c, g.v[0], g.v[1]);
		if (g.run == 0 || g.run != g.ena)
			bad = 1;   /* never scheduled, or multiplexed */
		else if (c == on ? g.v[0] != want || g.v[1] < n : g.v[0] || g.v[1])
			bad = 1;
	}
	close_all(&fd[0][0], 2 * MAX_CPUS);
	if (bad)
		FAIL(name, "instructions/cycles %s; want cpu%d %" PRIu64 "/>= %" PRIu64
		     ", 0/0 elsewhere, each scheduled all the time", got, on, want, n);
	else
		PASS(name, "instructions/cycles %s (window %" PRIu64 " instructions)", got, want);
}

/* ---- count_migrating ---- */

/* A task's own event (pid 0, cpu -1), user instructions, while the task
 * hops to every CPU twice: Linux stops the counter on the CPU it leaves
 * and starts it again with the count so far on the one it comes to, each
 * through that hart's SBI PMU, and the total is exactly what the task ran
 * in user mode; cycles, in the same group, moved along too (at least one
 * per loop iteration). */
static void test_count_migrating(void)
{
	const char *name = "count_migrating";
	const uint64_t n = 20000;
	uint64_t masks[2 * MAX_CPUS], hops = 2 * (uint64_t)ncpus;
	for (uint64_t i = 0; i < hops; i++)
		masks[i] = 1ull << (i % ncpus);
	if (pin(ncpus - 1)) {   /* the first hop moves it */
		FAIL(name, "sched_setaffinity: %s", strerror(errno));
		return;
	}
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd[2];
	fd[0] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 0;
	fd[1] = fd[0] < 0 ? -1 : (int)syscall(SYS_perf_event_open, &a, 0, -1, fd[0], PERF_FLAG_FD_CLOEXEC);
	if (fd[0] < 0 || fd[1] < 0) {
		FAIL(name, "perf_event_open: %s", strerror(errno));
		close_all(fd, 2);
		return;
	}
	cw_hops(fd[0], n, masks, hops);
	struct group_read g;
	int cpu = sched_getcpu();
	uint64_t want = hops_insns(n, hops);
	if (read_group(fd[0], &g) || g.nr != 2)
		FAIL(name, "read: %s", strerror(errno));
	else if (g.run == 0 || g.run != g.ena || g.v[0] != want || g.v[1] < hops * n || cpu != (int)((hops - 1) % ncpus))
		FAIL(name, "instructions %" PRIu64 " (want %" PRIu64 "), cycles %" PRIu64 " (want >= %" PRIu64
		     "), running %" PRIu64 " of %" PRIu64 " ns, ended on cpu%d", g.v[0], want, g.v[1], hops * n,
		     g.run, g.ena, cpu);
	else
		PASS(name, "instructions %" PRIu64 " over %" PRIu64 " hops through every CPU, cycles %" PRIu64,
		     g.v[0], hops, g.v[1]);
	close_all(fd, 2);
}

/* ---- sample_cpuN ---- */

struct ring {
	int fd;
	struct perf_event_mmap_page *mp;
	size_t len;
};

#define RING_PAGES 8

/* What one ring holds: samples, and those whose cpu, pid or ip is not
 * what the window gives (bad_ip: the first wrong ip), and those whose
 * overflow and interrupt the window's parameters put on two sides of a
 * trap (which the test must avoid). The k-th overflow is at the window's
 * k*period-th instruction (Linux restarts the counter with the period
 * less what it counted past the overflow); the interrupt comes skid
 * retirements later, before the next one. */
struct sample_check {
	unsigned samples, wrong_cpu, wrong_pid, wrong_ip, across, lost, on[MAX_CPUS];
	uint64_t bad_ip, want_ip;
};

static void check_ring(struct ring *r, const struct counted *w, uint64_t period, uint64_t skid,
		       struct sample_check *s)
{
	uint8_t *data = (uint8_t *)r->mp + r->mp->data_offset;
	uint64_t size = r->mp->data_size;
	uint64_t head = __atomic_load_n(&r->mp->data_head, __ATOMIC_ACQUIRE);
	memset(s, 0, sizeof(*s));
	for (uint64_t off = r->mp->data_tail; off < head;) {
		struct perf_event_header h;
		uint64_t rec[8];   /* ip, pid|tid, cpu|res */
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_LOST)
			s->lost++;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 3 * 8) {
			for (size_t i = 0; i < 3 * 8; i++)
				((uint8_t *)rec)[i] = data[(off + sizeof(h) + i) % size];
			s->samples++;
			uint64_t want, at, from;
			int cpu;
			counted_insn(w, s->samples * period, &want, &cpu, &from);
			counted_insn(w, s->samples * period + skid + 1, &want, &cpu, &at);
			if (at != from)
				s->across++;
			if ((uint32_t)rec[2] != (uint32_t)cpu)
				s->wrong_cpu++;
			else if (cpu < MAX_CPUS)
				s->on[cpu]++;
			if ((uint32_t)rec[1] != (uint32_t)getpid() || (uint32_t)(rec[1] >> 32) != (uint32_t)gettid())
				s->wrong_pid++;
			if (rec[0] != want && !s->wrong_ip++) {
				s->bad_ip = rec[0];
				s->want_ip = want;
			}
		}
		off += h.size;
	}
}

/* A sampling event of user instructions with ip, pid/tid and cpu, for
 * pid (0 or -1) on cpu (-1 or a CPU), with its ring mapped; -1 when it
 * could not be had. */
static int ring_open(struct ring *r, uint64_t period, pid_t pid, int cpu)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1, .sample_period = period,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CPU,
	};
	r->len = (size_t)sysconf(_SC_PAGESIZE) * (1 + RING_PAGES);
	r->mp = NULL;
	r->fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -1;
	void *mp = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (mp == MAP_FAILED)
		return -1;
	r->mp = mp;
	return 0;
}

static void ring_close(struct ring *r)
{
	if (r->mp)
		munmap(r->mp, r->len);
	if (r->fd >= 0)
		close(r->fd);
}

/* What is wrong with the samples of a ring that should have them, in why
 * (empty when nothing is). */
static void sample_faults(const struct sample_check *m, uint64_t skid, char *why, size_t len)
{
	why[0] = 0;
	if (m->across)
		snprintf(why, len, "%u overflows with a trap before their interrupt: the test's period is wrong",
			 m->across);
	else if (m->wrong_cpu || m->wrong_pid || m->lost)
		snprintf(why, len, "%u samples with another cpu, %u with another pid/tid, %u lost",
			 m->wrong_cpu, m->wrong_pid, m->lost);
	else if (m->wrong_ip)
		snprintf(why, len, "%u samples with another ip, the first 0x%" PRIx64 " for 0x%" PRIx64
			 " (skid %" PRIu64 ")", m->wrong_ip, m->bad_ip, m->want_ip, skid);
}

/* A sampling event on each CPU while the window runs pinned to `on`: CPU
 * `on` has exactly floor(window / period) samples, each with cpu `on`,
 * the test's pid and tid, and the ip of the instruction skid + 1 after
 * the one that overflowed; the other CPUs have none. */
static void test_sample_on(int on, uint64_t skid)
{
	const uint64_t n = 250000, period = 70001;
	char name[32], why[200];
	struct ring r[MAX_CPUS];
	snprintf(name, sizeof(name), "sample_cpu%d", on);
	for (int c = 0; c < MAX_CPUS; c++)
		r[c] = (struct ring){.fd = -1};
	if (pin(on)) {
		FAIL(name, "sched_setaffinity(%d): %s", on, strerror(errno));
		return;
	}
	for (int c = 0; c < ncpus; c++)
		if (ring_open(&r[c], period, -1, c)) {
			FAIL(name, "perf_event_open/mmap(cpu %d): %s", c, strerror(errno));
			goto out;
		}
	for (int c = 0; c < ncpus; c++)
		if (c != on)
			ioctl(r[c].fd, PERF_EVENT_IOC_ENABLE, 0);
	uint64_t mask = 1ull << on;
	cw_hops(r[on].fd, n, &mask, 1);
	for (int c = 0; c < ncpus; c++)
		if (c != on)
			ioctl(r[c].fd, PERF_EVENT_IOC_DISABLE, 0);

	uint64_t want = hops_insns(n, 1) / period;
	char got[160] = "", *p = got;
	struct sample_check sc[MAX_CPUS] = {{0}};
	struct counted w = {.n = n, .hops = 1, .cpu = on, .masks = &mask};
	int bad = 0;
	for (int c = 0; c < ncpus; c++) {
		check_ring(&r[c], &w, period, skid, &sc[c]);
		p += snprintf(p, got + sizeof(got) - p, "%scpu%d %u", c ? ", " : "", c, sc[c].samples);
		if (sc[c].samples != (c == on ? want : 0))
			bad = 1;
	}
	sample_faults(&sc[on], skid, why, sizeof(why));
	if (bad)
		FAIL(name, "samples %s; want %" PRIu64 " on cpu%d, none elsewhere", got, want, on);
	else if (why[0])
		FAIL(name, "%s", why);
	else
		PASS(name, "samples %s, each with cpu %d, this pid/tid and the ip of period * k + skid %"
		     PRIu64 " + 1", got, on, skid);
out:
	for (int c = 0; c < ncpus; c++)
		ring_close(&r[c]);
}

/* The task's own sampling event (pid 0, cpu -1) while it hops to every
 * CPU twice: the overflows stay at every period-th user instruction of
 * the task across the moves (Linux carries what is left of the period
 * from the hart it leaves to the one it comes to), and each sample has
 * the cpu the task was on and the ip as on one CPU. */
static void test_sample_migrating(uint64_t skid)
{
	const char *name = "sample_migrating";
	const uint64_t n = 20000, period = 30011;
	uint64_t masks[2 * MAX_CPUS], hops = 2 * (uint64_t)ncpus;
	char why[200];
	struct ring r = {.fd = -1};
	for (uint64_t i = 0; i < hops; i++)
		masks[i] = 1ull << (i % ncpus);
	if (pin(ncpus - 1) || ring_open(&r, period, 0, -1)) {
		FAIL(name, "sched_setaffinity/perf_event_open/mmap: %s", strerror(errno));
		ring_close(&r);
		return;
	}
	cw_hops(r.fd, n, masks, hops);
	struct counted w = {.n = n, .hops = hops, .cpu = ncpus - 1, .masks = masks};
	struct sample_check sc;
	check_ring(&r, &w, period, skid, &sc);
	uint64_t want = hops_insns(n, hops) / period;
	char got[160] = "", *p = got;
	for (int c = 0; c < ncpus; c++)
		p += snprintf(p, got + sizeof(got) - p, "%scpu%d %u", c ? ", " : "", c, sc.on[c]);
	sample_faults(&sc, skid, why, sizeof(why));
	if (sc.samples != want)
		FAIL(name, "%u samples (%s), want %" PRIu64, sc.samples, got, want);
	else if (why[0])
		FAIL(name, "%s", why);
	else
		PASS(name, "%u samples over %" PRIu64 " hops (%s), each with the cpu it was on and the ip of period * k + skid %"
		     PRIu64 " + 1", sc.samples, hops, got, skid);
	ring_close(&r);
}

/* ---- fw_* ---- */

/* SBI PMU firmware events (SBI spec, "Firmware Events"); Linux's raw
 * config with bits 63:62 = 0b10 selects one by its code. */
static const struct {
	unsigned code;
	const char *name;
} fw_ev[] = {
	{6, "ipi_sent"}, {7, "ipi_received"},
	{8, "fence_i_sent"}, {9, "fence_i_received"},
	{10, "sfence_vma_sent"}, {11, "sfence_vma_received"},
	{12, "sfence_vma_asid_sent"}, {13, "sfence_vma_asid_received"},
};
enum { IPI_SENT, IPI_RECEIVED, FENCE_I_SENT, FENCE_I_RECEIVED, SFENCE_VMA_SENT,
       SFENCE_VMA_RECEIVED, SFENCE_VMA_ASID_SENT, SFENCE_VMA_ASID_RECEIVED, NFW };
#define FW_CONFIG(code) ((2ull << 62) | (code))

enum { CTL = 0, FLUSHER = 1, SPINNER = 2, IDLE = 3 };   /* the CPUs' parts */
enum { FW_ROUNDS = 8 };

static volatile int spin_stop, spin_started;
static volatile uint8_t *spin_page;

static void *spinner(void *arg)
{
	(void)arg;
	unsigned s = 0;
	spin_started = 1;
	while (!spin_stop)
		s += spin_page[0];   /* the page's translation is in this CPU's TLB */
	return (void *)(uintptr_t)s;
}

static void pipe_put(int fd) { char c = 0; if (write(fd, &c, 1) != 1) _exit(2); }
static void pipe_get(int fd) { char c; if (read(fd, &c, 1) != 1) _exit(2); }

/* The process whose mm is fenced: born on FLUSHER (its parent pinned
 * itself there to fork it), a thread of it spins on SPINNER reading a
 * page; between "go" and "done" it makes Linux fence: fence_i 1 with
 * riscv_flush_icache (every call sends a remote fence.i to the other CPUs
 * the mm ran on), 0 with mprotect RW -> R -> RW of the page (each change
 * of a present PTE is a range flush for the mm's CPUs). */
static void fence_child(int fence_i, int to_parent, int from_parent)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *page = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		_exit(3);
	page[0] = 1;
	spin_page = page;
	pthread_attr_t at;
	pthread_t t;
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(SPINNER, &s);
	pthread_attr_init(&at);
	pthread_attr_setaffinity_np(&at, sizeof(s), &s);
	if (pthread_create(&t, &at, spinner, NULL))
		_exit(4);
	while (!spin_started)
		;
	pipe_put(to_parent);     /* ready */
	pipe_get(from_parent);   /* go */
	for (int i = 0; i < FW_ROUNDS; i++) {
		if (fence_i) {
			syscall(__NR_riscv_flush_icache, page, page + pg, 0);
		} else {
			mprotect(page, pg, PROT_READ);
			mprotect(page, pg, PROT_READ | PROT_WRITE);
			page[0] = (uint8_t)i;
		}
	}
	pipe_put(to_parent);     /* done */
	pipe_get(from_parent);   /* counted */
	spin_stop = 1;
	pthread_join(t, NULL);
	_exit(0);
}

/* Opens a group of the firmware events on each CPU, runs fence_child,
 * counting from its "go" to its "done"; v[cpu][event]. */
static int fw_count(const char *name, int fence_i, uint64_t v[MAX_CPUS][NFW])
{
	int fd[MAX_CPUS][NFW], up[2], down[2];
	memset(fd, -1, sizeof(fd));
	for (int c = 0; c < ncpus; c++)
		for (int e = 0; e < NFW; e++) {
			struct perf_event_attr a = {
				.size = sizeof(a), .type = PERF_TYPE_RAW,
				.config = FW_CONFIG(fw_ev[e].code), .disabled = e == 0,
				.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					       PERF_FORMAT_TOTAL_TIME_RUNNING,
			};
			fd[c][e] = perf_open(&a, c, e ? fd[c][0] : -1);
			if (fd[c][e] < 0) {
				FAIL(name, "perf_event_open(%s, cpu %d): %s", fw_ev[e].name, c, strerror(errno));
				close_all(&fd[0][0], MAX_CPUS * NFW);
				return -1;
			}
		}
	if (pipe(up) || pipe(down) || pin(FLUSHER)) {
		FAIL(name, "pipe/sched_setaffinity: %s", strerror(errno));
		close_all(&fd[0][0], MAX_CPUS * NFW);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0)
		fence_child(fence_i, up[1], down[0]);
	pin(CTL);
	pipe_get(up[0]);
	for (int c = 0; c < ncpus; c++)
		ioctl(fd[c][0], PERF_EVENT_IOC_ENABLE, 0);
	pipe_put(down[1]);
	pipe_get(up[0]);
	for (int c = 0; c < ncpus; c++)
		ioctl(fd[c][0], PERF_EVENT_IOC_DISABLE, 0);
	int rc = 0;
	for (int c = 0; c < ncpus; c++) {
		struct group_read g;
		if (read_group(fd[c][0], &g) || g.nr != NFW || g.run != g.ena) {
			FAIL(name, "read(cpu %d): %s, %" PRIu64 " values, running %" PRIu64 " of %" PRIu64,
			     c, strerror(errno), g.nr, g.run, g.ena);
			rc = -1;
			break;
		}
		memcpy(v[c], g.v, sizeof(v[c]));
	}
	pipe_put(down[1]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		FAIL(name, "the fencing process failed (status 0x%x)", st);
		rc = -1;
	}
	close_all(&fd[0][0], MAX_CPUS * NFW);
	close(up[0]), close(up[1]), close(down[0]), close(down[1]);
	return rc;
}

/* Every count is known: with k calls (2 per round for mprotect, each
 * change of the present PTE being one range flush; 1 per round for
 * riscv_flush_icache) and the driving CPU enabling the groups in CPU
 * order and disabling them in the same order (a remote enable's IPI comes
 * before the counters start, a remote disable's while they run):
 *   CTL      IPI_SENT (ncpus - 1) + 1: the enables of the other CPUs
 *            after its own, the wake-up of the fencing process by "go";
 *            IPI_RECEIVED 1: the wake-up by "done"
 *   FLUSHER  the fences SENT k; IPI_SENT k + 1: one per call to the
 *            spinner, the wake-up of CTL by "done", and up to 2 more
 *            that Linux may send on its own between them (with the
 *            built-in SBI, --trace-sbi shows one sbi_send_ipi to the
 *            spinner's CPU mid-run, which that CPU takes together with a
 *            fence's still pending, so its IPI_RECEIVED stays k + 1);
 *            IPI_RECEIVED 2: the
 *            wake-up by "go", the disable; the fences RECEIVED k for
 *            sfence.vma (Linux's range flush names the mm's whole CPU
 *            mask, itself included, and the SBI does its own part in
 *            place) and 0 for fence.i (flush_icache_mm names the others)
 *   SPINNER  the fences RECEIVED k; IPI_RECEIVED k + 1: one per call,
 *            the disable; nothing sent
 *   IDLE and every CPU after it: IPI_RECEIVED 1, the disable; nothing else
 * and every other fence event 0: Linux uses the ASID form for a user mm
 * (the ASID allocator is on), and nothing flushes kernel mappings. */
static void test_fw(const char *name, int fence_i)
{
	uint64_t v[MAX_CPUS][NFW], want[MAX_CPUS][NFW] = {{0}};
	if (ncpus < 4) {
		result("SKIP", name, "needs 4 CPUs, has %d", ncpus);
		return;
	}
	if (fw_count(name, fence_i, v))
		return;
	int sent = fence_i ? FENCE_I_SENT : SFENCE_VMA_ASID_SENT, rcvd = sent + 1;
	uint64_t k = fence_i ? FW_ROUNDS : 2 * FW_ROUNDS;
	want[CTL][IPI_SENT] = (uint64_t)ncpus;
	want[CTL][IPI_RECEIVED] = 1;
	want[FLUSHER][sent] = k;
	want[FLUSHER][IPI_SENT] = k + 1;
	want[FLUSHER][IPI_RECEIVED] = 2;
	want[FLUSHER][rcvd] = fence_i ? 0 : k;
	want[SPINNER][rcvd] = k;
	want[SPINNER][IPI_RECEIVED] = k + 1;
	for (int c = IDLE; c < ncpus; c++)
		want[c][IPI_RECEIVED] = 1;
	char why[400] = "", *p = why;
	for (int c = 0; c < ncpus; c++)
		for (int e = 0; e < NFW; e++)
			if (v[c][e] != want[c][e] &&
			    !(c == FLUSHER && e == IPI_SENT && v[c][e] > want[c][e] && v[c][e] <= want[c][e] + 2) &&
			    p < why + sizeof(why) - 1)
				p += snprintf(p, why + sizeof(why) - p, "%scpu%d %s %" PRIu64 " (want %" PRIu64 ")",
					      why[0] ? ", " : "", c, fw_ev[e].name, v[c][e], want[c][e]);
	if (why[0])
		FAIL(name, "%s", why);
	else
		PASS(name, "%" PRIu64 " calls: %s %" PRIu64 " on cpu%d, %s %" PRIu64 " on cpu%d and %" PRIu64
		     " on cpu%d, none elsewhere; ipi_sent/received cpu0 %" PRIu64 "/%" PRIu64 ", cpu1 %" PRIu64
		     "/%" PRIu64 ", cpu2 %" PRIu64 "/%" PRIu64 ", cpu3 %" PRIu64 "/%" PRIu64,
		     k, fw_ev[sent].name, k, FLUSHER, fw_ev[rcvd].name, v[SPINNER][rcvd], SPINNER,
		     v[FLUSHER][rcvd], FLUSHER, v[0][IPI_SENT], v[0][IPI_RECEIVED], v[1][IPI_SENT],
		     v[1][IPI_RECEIVED], v[2][IPI_SENT], v[2][IPI_RECEIVED], v[3][IPI_SENT], v[3][IPI_RECEIVED]);
}

/* ---- the run ---- */

/* The harts /proc/cpuinfo lists: how many, when they are 0..n-1 each once
 * (in any order: OpenSBI's boot hart, Linux's CPU 0, is whichever hart
 * wins its lottery), else -1. */
static int cpuinfo_harts(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	unsigned seen = 0;
	int n = 0, twice = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int h;
		if (sscanf(line, "hart : %d", &h) != 1)
			continue;
		if (h < 0 || h >= MAX_CPUS || seen >> h & 1)
			twice = 1;   /* or out of range */
		else
			seen |= 1u << h;
		n++;
	}
	fclose(f);
	return n > 0 && !twice && seen == (1u << n) - 1 ? n : -1;
}

static int run_tests(void)
{
	const char *e = getenv("rvpmu_cpus");
	int want = e ? atoi(e) : 4;
	e = getenv("rvpmu_skid");
	uint64_t skid = e ? strtoull(e, NULL, 0) : 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int harts = cpuinfo_harts();
	printf("==== rvpmu SMP perf tests ====\n");
	if (online != want || harts != want)
		FAIL("cpus", "%ld online, /proc/cpuinfo lists %d harts (-1: not 0..n-1 once each); want %d",
		     online, harts, want);
	else
		PASS("cpus", "%ld online, /proc/cpuinfo lists harts 0..%d", online, harts - 1);
	ncpus = online < 1 ? 1 : online > MAX_CPUS ? MAX_CPUS : (int)online;
	for (int c = 0; c < ncpus; c++)
		test_count_on(c);
	test_count_migrating();
	for (int c = 0; c < ncpus; c++)
		test_sample_on(c, skid);
	test_sample_migrating(skid);
	test_fw("fw_sfence_vma", 0);
	test_fw("fw_fence_i", 1);
	printf("SUMMARY: %d passed, %d failed, %d skipped\n", n_pass, n_fail, n_skip);
	fflush(stdout);
	return n_fail ? 1 : 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getpid() != 1)
		return run_tests();
	/* as PID 1: the tests in a child (PID 1 must not die), then off */
	mkdir("/proc", 0755);
	mkdir("/dev", 0755);
	if (mount("proc", "/proc", "proc", 0, NULL))
		printf("mount /proc: %s\n", strerror(errno));
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(run_tests());
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		printf("init: fork/wait: %s\nSUMMARY: crashed\n", strerror(errno));
	else if (WIFSIGNALED(st))
		printf("init: the tests died of signal %d\nSUMMARY: crashed\n", WTERMSIG(st));
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	printf("init: reboot(RB_POWER_OFF): %s\n", strerror(errno));
	for (;;)
		pause();
}
