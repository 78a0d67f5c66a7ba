/* perf_event_open(2) inside the guest: counts of asm regions whose
 * instructions are known by construction, read layouts, ioctls, the user
 * page and errno values. Prints "ok NAME" or "not ok NAME: why" per
 * check, and "info ..." lines that are not checks.
 *
 *   pe_test MODE MODELS
 * MODE is the --user-counters setting it runs under (all, off, mmap);
 * MODELS is "models" when the microarchitecture models run (rvpmu stat),
 * "nomodels" when they do not (rvpmu run, stat --no-uarch): then cycles =
 * instructions and model events do not exist.
 *
 * Counting rule (RISC-V: an instruction that traps does not retire; the
 * kernel is rvpmu, so no guest instruction runs in kernel mode): a
 * counter enabled by an ioctl's ecall counts from the instruction after
 * that ecall up to, not including, the ecall of the next ioctl. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static int fails, models;
static const char *mode;

#define CHECK(name, cond, ...) do {                                     \
		if (cond) printf("ok %s\n", name);                      \
		else { fails++; printf("not ok %s: ", name); printf(__VA_ARGS__); printf("\n"); } \
	} while (0)

static long peo(struct perf_event_attr *a, int pid, int cpu, int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static void attr_init(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->disabled = 1;
	a->exclude_kernel = 1;
}

static int open_ev(uint32_t type, uint64_t config, uint64_t fmt, int group, int disabled)
{
	struct perf_event_attr a;
	attr_init(&a, type, config);
	a.read_format = fmt;
	a.disabled = disabled;
	return (int)peo(&a, 0, -1, group, 0);
}

static uint64_t read1(int fd)
{
	uint64_t v = ~0ull;
	if (read(fd, &v, 8) != 8)
		return ~0ull;
	return v;
}

/* ENABLE (with ioctl flag fl), n loop iterations, DISABLE. Counted:
 * mv t0 (1) + n x (addi, bnez) + mv a0, mv a1 (2) = 2n + 3 instructions,
 * n branches (n - 1 taken), no loads or stores. */
static void region(int fd, long n, long fl)
{
	asm volatile(
		"mv a0, %[fd]\n\t"
		"mv a1, %[en]\n\t"
		"mv a2, %[fl]\n\t"
		"li a7, 29\n\t"
		"ecall\n\t"
		"mv t0, %[n]\n\t"
		"1: addi t0, t0, -1\n\t"
		"bnez t0, 1b\n\t"
		"mv a0, %[fd]\n\t"
		"mv a1, %[dis]\n\t"
		"ecall\n\t"
		: : [fd] "r"((long)fd), [n] "r"(n), [fl] "r"(fl), [en] "r"((long)PERF_EVENT_IOC_ENABLE),
		    [dis] "r"((long)PERF_EVENT_IOC_DISABLE)
		: "a0", "a1", "a2", "a7", "t0", "memory");
}
#define REGION(n) (2 * (n) + 3)

/* The same with a load in the loop: 3n + 3 instructions, n loads. */
static void region_ld(int fd, long n)
{
	uint64_t slot = 0;
	asm volatile(
		"mv a0, %[fd]\n\t"
		"mv a1, %[en]\n\t"
		"li a2, 0\n\t"
		"li a7, 29\n\t"
		"ecall\n\t"
		"mv t0, %[n]\n\t"
		"1: ld t1, 0(%[p])\n\t"
		"addi t0, t0, -1\n\t"
		"bnez t0, 1b\n\t"
		"mv a0, %[fd]\n\t"
		"mv a1, %[dis]\n\t"
		"ecall\n\t"
		: : [fd] "r"((long)fd), [n] "r"(n), [p] "r"(&slot), [en] "r"((long)PERF_EVENT_IOC_ENABLE),
		    [dis] "r"((long)PERF_EVENT_IOC_DISABLE)
		: "a0", "a1", "a2", "a7", "t0", "t1", "memory");
}

/* ENABLE, n1 iterations, RESET, n2 iterations, DISABLE: the count after
 * the RESET's ecall is mv t0 + 2 n2 + mv a0, mv a1 = 2 n2 + 3. */
static void region_reset(int fd, long n1, long n2)
{
	asm volatile(
		"mv a0, %[fd]\n\t"
		"mv a1, %[en]\n\t"
		"li a2, 0\n\t"
		"li a7, 29\n\t"
		"ecall\n\t"
		"mv t0, %[n1]\n\t"
		"1: addi t0, t0, -1\n\t"
		"bnez t0, 1b\n\t"
		"mv a0, %[fd]\n\t"
		"mv a1, %[rst]\n\t"
		"ecall\n\t"
		"mv t0, %[n2]\n\t"
		"2: addi t0, t0, -1\n\t"
		"bnez t0, 2b\n\t"
		"mv a0, %[fd]\n\t"
		"mv a1, %[dis]\n\t"
		"ecall\n\t"
		: : [fd] "r"((long)fd), [n1] "r"(n1), [n2] "r"(n2), [en] "r"((long)PERF_EVENT_IOC_ENABLE),
		    [rst] "r"((long)PERF_EVENT_IOC_RESET), [dis] "r"((long)PERF_EVENT_IOC_DISABLE)
		: "a0", "a1", "a2", "a7", "t0", "memory");
}

/* ---- counter CSRs by number, with SIGILL caught */
static volatile int trapped;
static void on_sigill(int sig, siginfo_t *si, void *ctx)
{
	(void)sig; (void)si;
	ucontext_t *uc = ctx;
	uc->uc_mcontext.__gregs[REG_PC] += 4;   /* skip the 4-byte csrr */
	trapped = 1;
}

#define C8(b) C(b + 0) C(b + 1) C(b + 2) C(b + 3) C(b + 4) C(b + 5) C(b + 6) C(b + 7)
#define CASES C8(0) C8(8) C8(16) C8(24)

/* Read counter CSR 0xc00 + k: 0, or 1 if it trapped. */
static int try_csr(int k, uint64_t *v)
{
	uint64_t x = 0;
	trapped = 0;
	switch (k) {
#define C(i) case i: asm volatile("csrr %0, %1" : "=r"(x) : "i"(0xc00 + (i)) : "memory"); break;
	CASES
#undef C
	}
	*v = x;
	return trapped;
}

/* The rdpmc read of counter k (csrr), then at once the DISABLE ecall:
 * nothing retires between them, so the event's final count is the csrr
 * value's count + 1 (the csrr itself). */
static uint64_t rdpmc_then_disable(int k, int fd)
{
	register long a0 asm("a0") = fd;
	register long a1 asm("a1") = PERF_EVENT_IOC_DISABLE;
	register long a2 asm("a2") = 0;
	register long a7 asm("a7") = SYS_ioctl;
	uint64_t x = 0;
	switch (k) {
#define C(i) case i: asm volatile("csrr %0, %5\n\tecall" : "=&r"(x), "+r"(a0) : "r"(a1), "r"(a2), "r"(a7), "i"(0xc00 + (i)) : "memory"); break;
	CASES
#undef C
	}
	return x;
}

/* The self-monitoring sequence of perf_event_mmap_page's comment. */
static int64_t seq_read(volatile struct perf_event_mmap_page *pc, uint32_t *idx_out, int *trap_out)
{
	uint32_t seq, idx;
	int64_t count;
	int tr = 0;
	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			uint64_t pmc;
			unsigned w = pc->pmc_width;
			tr |= try_csr((int)idx - 1, &pmc);
			pmc <<= 64 - w;
			count += (int64_t)pmc >> (64 - w);
		}
		__sync_synchronize();
	} while (pc->lock != seq);
	*idx_out = idx;
	*trap_out = tr;
	return count;
}

static void test_exact(void)
{
	int fd = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 1);
	printf("info open instructions: %d%s%s\n", fd, fd < 0 ? " errno " : "", fd < 0 ? strerror(errno) : "");
	CHECK("open instructions", fd >= 0, "errno %d", errno);
	if (fd < 0)
		return;
	uint64_t v = read1(fd);
	CHECK("disabled at open counts 0", v == 0, "got %llu", (unsigned long long)v);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("instructions of region(1000) = 2003", v == REGION(1000), "got %llu", (unsigned long long)v);
	region(fd, 500, 0);
	v = read1(fd);
	CHECK("a second region adds 1003", v == REGION(1000) + REGION(500), "got %llu", (unsigned long long)v);
	CHECK("RESET returns 0", ioctl(fd, PERF_EVENT_IOC_RESET, 0) == 0, "errno %d", errno);
	v = read1(fd);
	CHECK("RESET zeroes the count", v == 0, "got %llu", (unsigned long long)v);
	region(fd, 100000, 0);
	v = read1(fd);
	CHECK("instructions of region(100000) = 200003", v == REGION(100000), "got %llu", (unsigned long long)v);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	region_reset(fd, 777, 10);
	v = read1(fd);
	CHECK("RESET while running: 2*10+3", v == REGION(10), "got %llu", (unsigned long long)v);
	CHECK("ENABLE returns 0", ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) == 0, "errno %d", errno);
	CHECK("DISABLE returns 0", ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) == 0, "errno %d", errno);
	close(fd);

	/* filters: the kernel (rvpmu) runs no guest instructions */
	struct perf_event_attr a;
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.exclude_kernel = 0;
	fd = (int)peo(&a, 0, -1, -1, 0);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("user+kernel instructions = 2003 (kernel counts 0)", v == REGION(1000), "got %llu", (unsigned long long)v);
	close(fd);
	a.exclude_user = 1;
	fd = (int)peo(&a, 0, -1, -1, 0);
	CHECK("open kernel-only instructions", fd >= 0, "errno %d", errno);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("kernel-only instructions = 0", v == 0, "got %llu", (unsigned long long)v);
	close(fd);

	/* pid = getpid() and cpu = 0 name this process too */
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = (int)peo(&a, getpid(), 0, -1, 0);
	region(fd, 10, 0);
	v = read1(fd);
	CHECK("pid=getpid cpu=0 counts the region", fd >= 0 && v == REGION(10), "fd %d got %llu", fd, (unsigned long long)v);
	close(fd);

	/* cycles: without the models one cycle per instruction */
	fd = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1, 1);
	region(fd, 1000, 0);
	v = read1(fd);
	if (!models)
		CHECK("cycles of region(1000) = 2003 without models", v == REGION(1000), "got %llu", (unsigned long long)v);
	else
		CHECK("cycles of region(1000) >= 2003/2 with models (2-wide at best)", fd >= 0 && v >= REGION(1000) / 2 && v < 100 * REGION(1000),
		      "got %llu", (unsigned long long)v);
	close(fd);

	/* branches: the loop's n bnez */
	fd = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, -1, 1);
	CHECK("open branches", fd >= 0, "errno %d", errno);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("branches of region(1000) = 1000", v == 1000, "got %llu", (unsigned long long)v);
	close(fd);

	/* raw: virt selectors are SBI event_idx (2 = instructions); 1<<24 | id
	 * selects one canonical event (5 = conditional branches) */
	fd = open_ev(PERF_TYPE_RAW, 0x2, 0, -1, 1);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("raw 0x2 (instructions) = 2003", fd >= 0 && v == REGION(1000), "fd %d got %llu", fd, (unsigned long long)v);
	close(fd);
	fd = open_ev(PERF_TYPE_RAW, 0x1000005, 0, -1, 1);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("raw 0x1000005 (branches) = 1000", fd >= 0 && v == 1000, "fd %d got %llu", fd, (unsigned long long)v);
	close(fd);
	/* SBI firmware event (config 63:62 = 10): illegal-instruction traps the
	 * firmware emulated; in user mode traps go to rvpmu's kernel, never
	 * to the firmware */
	fd = open_ev(PERF_TYPE_RAW, 2ull << 62 | 4, 0, -1, 1);
	region(fd, 10, 0);
	v = read1(fd);
	CHECK("raw firmware event opens and counts 0", fd >= 0 && v == 0, "fd %d got %llu", fd, (unsigned long long)v);
	close(fd);

	/* model events */
	fd = open_ev(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		     PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16, 0, -1, 1);
	if (!models) {
		CHECK("L1-dcache-loads without models: ENOENT", fd < 0 && errno == ENOENT, "fd %d errno %d", fd, errno);
	} else {
		CHECK("open L1-dcache-loads", fd >= 0, "errno %d", errno);
		region_ld(fd, 1000);
		v = read1(fd);
		CHECK("L1-dcache-loads of region_ld(1000) = 1000", v == 1000, "got %llu", (unsigned long long)v);
		region(fd, 1000, 0);
		CHECK("a region without loads adds none", read1(fd) == 1000, "got %llu", (unsigned long long)read1(fd));
		close(fd);
	}
	fd = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 0, -1, 1);
	if (!models) {
		CHECK("branch-misses without models: ENOENT", fd < 0 && errno == ENOENT, "fd %d errno %d", fd, errno);
	} else {
		region(fd, 1000, 0);
		v = read1(fd);
		CHECK("branch-misses of region(1000) in 1..1000", fd >= 0 && v >= 1 && v <= 1000, "fd %d got %llu", fd, (unsigned long long)v);
		close(fd);
	}
	fd = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 0, -1, 1);
	CHECK(models ? "cache-references opens with models" : "cache-references without models: ENOENT",
	      models ? fd >= 0 : fd < 0 && errno == ENOENT, "fd %d errno %d", fd, errno);
	if (fd >= 0)
		close(fd);

	/* software clocks: modelled ns; the virt core's clock is 1 GHz and
	 * time runs one instruction per cycle, so 1 ns per instruction */
	fd = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, -1, 1);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("task-clock of region(1000) = 2003 ns", fd >= 0 && v == REGION(1000), "fd %d got %llu", fd, (unsigned long long)v);
	close(fd);
	fd = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, -1, 1);
	region(fd, 1000, 0);
	v = read1(fd);
	CHECK("cpu-clock of region(1000) = 2003 ns", fd >= 0 && v == REGION(1000), "fd %d got %llu", fd, (unsigned long long)v);
	close(fd);
	fd = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, -1, 1);
	region(fd, 10, 0);
	CHECK("dummy opens and counts 0", fd >= 0 && read1(fd) == 0, "fd %d", fd);
	close(fd);
	fd = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1);
	CHECK("page-faults: ENOENT (not modelled)", fd < 0 && errno == ENOENT, "fd %d errno %d", fd, errno);
}

static void test_group(void)
{
	uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING;
	int l = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, fmt, -1, 1);
	int b = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, fmt, l, 0);
	int c = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, fmt, l, 0);
	int t = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, fmt, l, 0);
	CHECK("open a group of 4 (hw leader, sw member)", l >= 0 && b >= 0 && c >= 0 && t >= 0,
	      "%d %d %d %d errno %d", l, b, c, t, errno);
	uint64_t id[4] = {0};
	int fds[4] = {l, b, c, t};
	for (int i = 0; i < 4; i++)
		ioctl(fds[i], PERF_EVENT_IOC_ID, &id[i]);
	CHECK("IOC_ID gives distinct ids", id[0] && id[0] != id[1] && id[1] != id[2] && id[2] != id[3],
	      "%llu %llu %llu %llu", (unsigned long long)id[0], (unsigned long long)id[1],
	      (unsigned long long)id[2], (unsigned long long)id[3]);
	region(l, 1000, PERF_IOC_FLAG_GROUP);
	uint64_t buf[3 + 2 * 4 + 4];
	memset(buf, 0xff, sizeof(buf));
	ssize_t n = read(l, buf, sizeof(buf));
	CHECK("group read size = 8 * (3 + 2 * 4)", n == 8 * (3 + 2 * 4), "got %zd", n);
	CHECK("group read nr = 4", buf[0] == 4, "got %llu", (unsigned long long)buf[0]);
	CHECK("group time_enabled = time_running = 2003 ns", buf[1] == REGION(1000) && buf[2] == REGION(1000),
	      "got %llu %llu", (unsigned long long)buf[1], (unsigned long long)buf[2]);
	CHECK("group ids in creation order", buf[4] == id[0] && buf[6] == id[1] && buf[8] == id[2] && buf[10] == id[3],
	      "got %llu %llu %llu %llu", (unsigned long long)buf[4], (unsigned long long)buf[6],
	      (unsigned long long)buf[8], (unsigned long long)buf[10]);
	CHECK("group instructions = 2003", buf[3] == REGION(1000), "got %llu", (unsigned long long)buf[3]);
	CHECK("group branches = 1000", buf[5] == 1000, "got %llu", (unsigned long long)buf[5]);
	if (!models)
		CHECK("group cycles = 2003 without models", buf[7] == REGION(1000), "got %llu", (unsigned long long)buf[7]);
	else
		CHECK("group cycles >= 1001 with models", buf[7] >= REGION(1000) / 2, "got %llu", (unsigned long long)buf[7]);
	CHECK("group task-clock = 2003 ns", buf[9] == REGION(1000), "got %llu", (unsigned long long)buf[9]);
	uint64_t buf2[16];
	n = read(b, buf2, sizeof(buf2));
	CHECK("a member's group read is the same layout", n == 8 * 11 && !memcmp(buf, buf2, 8 * 11), "n %zd", n);
	CHECK("group read with a short buffer: ENOSPC", read(l, buf2, 8 * 10) == -1 && errno == ENOSPC, "errno %d", errno);

	/* ENABLE without the group flag moves only the leader: the members,
	 * still enabled, count with it */
	ioctl(l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	read(l, buf, sizeof(buf));
	CHECK("RESET with PERF_IOC_FLAG_GROUP zeroes every member", buf[3] == 0 && buf[5] == 0 && buf[7] == 0 && buf[9] == 0,
	      "got %llu %llu %llu %llu", (unsigned long long)buf[3], (unsigned long long)buf[5],
	      (unsigned long long)buf[7], (unsigned long long)buf[9]);
	/* the region's DISABLE carried the group flag: every member is off.
	 * Enable task-clock again but not branches, then the leader alone:
	 * enabled members count with their leader, disabled ones do not */
	ioctl(t, PERF_EVENT_IOC_ENABLE, 0);
	region(l, 100, 0);
	read(l, buf, sizeof(buf));
	CHECK("members count with the leader; a disabled member does not", buf[3] == REGION(100) && buf[5] == 0 &&
	      buf[9] == REGION(100), "got %llu %llu %llu", (unsigned long long)buf[3], (unsigned long long)buf[5],
	      (unsigned long long)buf[9]);

	/* non-group format: value, enabled, running, id, lost */
	int s = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST, -1, 1);
	uint64_t sid = 0;
	ioctl(s, PERF_EVENT_IOC_ID, &sid);
	region(s, 1000, 0);
	memset(buf, 0xff, sizeof(buf));
	n = read(s, buf, sizeof(buf));
	CHECK("single read: value, enabled, running, id, lost", n == 40 && buf[0] == REGION(1000) && buf[1] == REGION(1000) &&
	      buf[2] == REGION(1000) && buf[3] == sid && buf[4] == 0, "n %zd %llu %llu %llu %llu %llu", n,
	      (unsigned long long)buf[0], (unsigned long long)buf[1], (unsigned long long)buf[2],
	      (unsigned long long)buf[3], (unsigned long long)buf[4]);
	CHECK("read of 7 bytes: ENOSPC", read(s, buf, 7) == -1 && errno == ENOSPC, "errno %d", errno);

	/* errors that concern groups */
	struct perf_event_attr a;
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	errno = 0;
	CHECK("group_fd of a member: EINVAL", peo(&a, 0, -1, b, 0) == -1 && errno == EINVAL, "errno %d", errno);
	a.pinned = 1;
	CHECK("a pinned member: EINVAL", peo(&a, 0, -1, l, 0) == -1 && errno == EINVAL, "errno %d", errno);
	a.pinned = 0;
	CHECK("group_fd not perf (stdout): EBADF", peo(&a, 0, -1, 1, 0) == -1 && errno == EBADF, "errno %d", errno);
	CHECK("group_fd not open: EBADF", peo(&a, 0, -1, 999, 0) == -1 && errno == EBADF, "errno %d", errno);
	a.inherit = 1;
	CHECK("inherit differing from the leader's: EINVAL", peo(&a, 0, -1, l, 0) == -1 && errno == EINVAL, "errno %d", errno);
	a.inherit = 0;
	int x = (int)peo(&a, 0, 0, l, 0);
	CHECK("a member for another cpu context: EINVAL", x == -1 && errno == EINVAL, "got %d errno %d", x, errno);

	/* closing the leader makes the members groups of their own */
	close(l);
	close(c);
	close(t);
	n = read(b, buf, sizeof(buf));
	CHECK("after the leader closes, a member reads as a group of 1", n == 8 * 5 && buf[0] == 1, "n %zd nr %llu", n,
	      (unsigned long long)buf[0]);
	region(b, 1000, 0);
	read(b, buf, sizeof(buf));
	CHECK("the former member counts on its own", buf[3] == 1000, "got %llu", (unsigned long long)buf[3]);
	int d = dup(b);
	close(b);
	CHECK("a dup of a perf fd keeps the event", d >= 0 && read(d, buf, sizeof(buf)) == 8 * 5 && buf[3] == 1000,
	      "d %d got %llu", d, (unsigned long long)buf[3]);
	close(d);
	CHECK("read after close: EBADF", read(d, buf, 8) == -1 && errno == EBADF, "errno %d", errno);
	CHECK("ioctl after close: EBADF", ioctl(d, PERF_EVENT_IOC_ENABLE, 0) == -1 && errno == EBADF, "errno %d", errno);
	close(s);

	/* more events than counters: a group that cannot fit never runs */
	enum { BIG = 24 };
	int g[BIG];
	g[0] = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, fmt, -1, 1);
	for (int i = 1; i < BIG; i++)
		g[i] = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, fmt, g[0], 0);
	region(g[0], 1000, PERF_IOC_FLAG_GROUP);
	uint64_t big[3 + 2 * BIG];
	n = read(g[0], big, sizeof(big));
	CHECK("a group of 24 (more than the counters) never runs", n == (ssize_t)sizeof(big) && big[0] == BIG &&
	      big[1] == REGION(1000) && big[2] == 0 && big[3] == 0, "n %zd nr %llu enabled %llu running %llu value %llu",
	      n, (unsigned long long)big[0], (unsigned long long)big[1], (unsigned long long)big[2],
	      (unsigned long long)big[3]);
	/* pinned, it goes to the error state: read returns 0 (end of file) */
	for (int i = 0; i < BIG; i++)
		close(g[i]);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.pinned = 1;
	a.read_format = fmt;
	g[0] = (int)peo(&a, 0, -1, -1, 0);
	for (int i = 1; i < BIG; i++)
		g[i] = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, fmt, g[0], 0);
	region(g[0], 10, PERF_IOC_FLAG_GROUP);
	n = read(g[0], big, sizeof(big));
	CHECK("a pinned group that cannot fit reads 0 bytes (error state)", n == 0, "n %zd", n);
	for (int i = 0; i < BIG; i++)
		close(g[i]);
	/* after all that, every counter is free again */
	int f = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PERF_FORMAT_TOTAL_TIME_RUNNING, -1, 1);
	region(f, 10, 0);
	read(f, buf, 16);
	CHECK("closed events release their counters", buf[0] == REGION(10) && buf[1] == REGION(10), "got %llu %llu",
	      (unsigned long long)buf[0], (unsigned long long)buf[1]);
	close(f);
}

static void test_errors(void)
{
	struct perf_event_attr a;
	long r;
#define ERR(name, call, e) do { errno = 0; r = (call); \
		CHECK(name, r == -1 && errno == (e), "got %ld errno %d (%s)", r, errno, strerror(errno)); \
		if (r >= 0) close((int)r); } while (0)
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.size = 8;
	ERR("attr.size 8: E2BIG", peo(&a, 0, -1, -1, 0), E2BIG);
	CHECK("E2BIG writes the kernel's attr size back (136)", a.size == 136, "got %u", a.size);
	struct { struct perf_event_attr a; uint64_t more[4]; } big;
	memset(&big, 0, sizeof(big));
	attr_init(&big.a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	big.a.size = sizeof(big);
	r = peo(&big.a, 0, -1, -1, 0);
	CHECK("a larger attr with zero tail is accepted", r >= 0, "errno %d", errno);
	if (r >= 0)
		close((int)r);
	big.more[3] = 1;
	big.a.size = sizeof(big);
	ERR("a larger attr with a non-zero tail: E2BIG", peo(&big.a, 0, -1, -1, 0), E2BIG);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.size = 0;
	r = peo(&a, 0, -1, -1, 0);
	CHECK("attr.size 0 means PERF_ATTR_SIZE_VER0", r >= 0, "errno %d", errno);
	if (r >= 0)
		close((int)r);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	ERR("unknown flags: EINVAL", peo(&a, 0, -1, -1, 0x10), EINVAL);
	ERR("bad attr pointer: EFAULT", peo((struct perf_event_attr *)8, 0, -1, -1, 0), EFAULT);
	attr_init(&a, PERF_TYPE_HARDWARE, 99);
	ERR("hardware config 99: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES);
	ERR("bus-cycles (not in the core's event map): ENOENT", peo(&a, 0, -1, -1, 0), ENOENT);
	attr_init(&a, PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D | 3 << 8);
	ERR("cache op 3: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_RAW, 1ull << 60);
	ERR("raw with bits 61:56 set: ENOENT", peo(&a, 0, -1, -1, 0), ENOENT);
	attr_init(&a, PERF_TYPE_SOFTWARE, 99);
	ERR("software config 99: ENOENT", peo(&a, 0, -1, -1, 0), ENOENT);
	attr_init(&a, 17, 0);
	ERR("unknown type 17: ENOENT", peo(&a, 0, -1, -1, 0), ENOENT);
	attr_init(&a, PERF_TYPE_TRACEPOINT, 1);
	ERR("tracepoint: ENOENT", peo(&a, 0, -1, -1, 0), ENOENT);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.sample_period = 1000;
	ERR("sampling (sample_period 1000): EOPNOTSUPP", peo(&a, 0, -1, -1, 0), EOPNOTSUPP);
	a.sample_period = 1ull << 63;
	ERR("sample_period bit 63: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	a.freq = 1;
	a.sample_freq = 1000000;
	ERR("sample_freq above the max rate: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.read_format = 1u << 5;
	ERR("unknown read_format bit: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.__reserved_1 = 1;
	ERR("reserved attr bits: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.inherit_thread = 1;
	ERR("inherit_thread without inherit: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.enable_on_exec = 1;
	a.remove_on_exec = 1;
	ERR("enable_on_exec with remove_on_exec: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.use_clockid = 1;
	a.clockid = 99;
	ERR("use_clockid with clock 99: EINVAL", peo(&a, 0, -1, -1, 0), EINVAL);
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	ERR("pid of another process: ESRCH", peo(&a, 12345, -1, -1, 0), ESRCH);
	ERR("pid -1 and cpu -1: EINVAL", peo(&a, -1, -1, -1, 0), EINVAL);
	ERR("cpu 5 (one hart): EINVAL", peo(&a, 0, 5, -1, 0), EINVAL);

	/* enable_on_exec: only an exec enables it, and this process never execs */
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	a.enable_on_exec = 1;
	int fd = (int)peo(&a, 0, -1, -1, 0);
	for (volatile int i = 0; i < 100; i++)
		;
	CHECK("enable_on_exec + disabled stays disabled without exec", fd >= 0 && read1(fd) == 0, "fd %d", fd);
	close(fd);

	/* fd operations */
	attr_init(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd = (int)peo(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK("PERF_FLAG_FD_CLOEXEC sets FD_CLOEXEC", fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC), "fd %d", fd);
	uint64_t v;
	ERR("REFRESH on a counting event: EINVAL", ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), EINVAL);
	v = 100;
	ERR("PERIOD on a counting event: EINVAL", ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	ERR("IOC_ID to a bad pointer: EFAULT", ioctl(fd, PERF_EVENT_IOC_ID, (void *)8), EFAULT);
	ERR("SET_FILTER on a hardware event: EINVAL", ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "x"), EINVAL);
	ERR("unknown ioctl: ENOTTY", ioctl(fd, 0x2499, 0), ENOTTY);
	CHECK("SET_OUTPUT -1 succeeds", ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1) == 0, "errno %d", errno);
	ERR("write: EINVAL", write(fd, &v, 8), EINVAL);
	ERR("lseek: ESPIPE", lseek(fd, 0, SEEK_SET), ESPIPE);
	ERR("pread: ESPIPE", pread(fd, &v, 8, 0), ESPIPE);
	ERR("read to a bad pointer: EFAULT", syscall(SYS_read, fd, 8L, 8L), EFAULT);
	ERR("mmap MAP_PRIVATE: EINVAL", (long)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == -1 ? -1 : 0, EINVAL);
	ERR("mmap of 1 + 3 pages: EINVAL", (long)mmap(NULL, 4 * 4096, PROT_READ, MAP_SHARED, fd, 0) == -1 ? -1 : 0, EINVAL);
	ERR("mmap at page offset 1 (AUX): EINVAL", (long)mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 4096) == -1 ? -1 : 0, EINVAL);
	void *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK("mmap of 1 + 2 pages (a data area) works", m != MAP_FAILED, "errno %d", errno);
	if (m != MAP_FAILED) {
		struct perf_event_mmap_page *pg = m;
		CHECK("user page: size 96, data_offset 4096, data_size 8192, no data",
		      pg->size == 96 && pg->data_offset == 4096 && pg->data_size == 8192 && pg->data_head == 0,
		      "size %u off %llu dsize %llu head %llu", pg->size, (unsigned long long)pg->data_offset,
		      (unsigned long long)pg->data_size, (unsigned long long)pg->data_head);
		munmap(m, 3 * 4096);
	}
	close(fd);
#undef ERR
}

/* The user page and the rdpmc sequence, in each --user-counters mode. */
static void test_mmap(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGILL, &sa, NULL);
	int off = !strcmp(mode, "off"), mm = !strcmp(mode, "mmap");
	uint64_t v;

	/* rdtime stays readable in every mode (Linux keeps TIME for the vDSO) */
	CHECK("rdtime readable", try_csr(1, &v) == 0, "trapped");
	CHECK(off || mm ? "rdcycle traps" : "rdcycle readable", try_csr(0, &v) == (off || mm), "trapped %d", trapped);
	CHECK(off || mm ? "rdinstret traps" : "rdinstret readable", try_csr(2, &v) == (off || mm), "trapped %d", trapped);
	CHECK(off || mm ? "hpmcounter3 traps" : "hpmcounter3 readable", try_csr(3, &v) == (off || mm), "trapped %d", trapped);

	int fd = open_ev(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, -1, 1);
	volatile struct perf_event_mmap_page *pc = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	CHECK("mmap of the user page", pc != MAP_FAILED, "errno %d", errno);
	if (pc == MAP_FAILED)
		return;
	CHECK("user page: lock even, size 96, cap_bit0_is_deprecated", !(pc->lock & 1) && pc->size == 96 &&
	      pc->cap_bit0_is_deprecated && !pc->cap_bit0, "lock %u size %u caps %llx", pc->lock, pc->size,
	      (unsigned long long)pc->capabilities);
	CHECK(off ? "off: cap_user_rdpmc 0" : "cap_user_rdpmc 1", pc->cap_user_rdpmc == !off, "got %u",
	      (unsigned)pc->cap_user_rdpmc);
	CHECK("disabled: index 0", pc->index == 0, "got %u", pc->index);
	uint32_t lock0 = pc->lock;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	CHECK("an update moves lock on by 2", pc->lock == lock0 + 2, "lock %u then %u", lock0, pc->lock);
	uint32_t idx = pc->index;
	if (off) {
		CHECK("off: index stays 0 while running", idx == 0, "got %u", idx);
	} else {
		CHECK("running: index = counter + 1, pmc_width 64", idx >= 1 && idx <= 32 && pc->pmc_width == 64,
		      "index %u width %u", idx, pc->pmc_width);
		CHECK("running: its counter CSR is readable", idx && try_csr((int)idx - 1, &v) == 0, "trapped");
		uint32_t i2;
		int tr;
		int64_t c1 = seq_read(pc, &i2, &tr);
		CHECK("the rdpmc sequence reads without a trap", !tr && i2 == idx && c1 > 0, "trap %d idx %u count %lld",
		      tr, i2, (long long)c1);
		int64_t off0 = pc->offset;
		uint64_t pmc = rdpmc_then_disable((int)idx - 1, fd);
		uint64_t got = read1(fd);
		CHECK("rdpmc then DISABLE: read() = offset + pmc + 1 (the csrr)", got == (uint64_t)off0 + pmc + 1,
		      "read %llu offset %lld pmc %llu", (unsigned long long)got, (long long)off0, (unsigned long long)pmc);
		if (mm)
			CHECK("mmap: a stopped event's counter traps", try_csr((int)idx - 1, &v) == 1, "no trap");
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	uint64_t total = read1(fd);
	CHECK("disabled: index 0 and offset = the count", pc->index == 0 && (uint64_t)pc->offset == total,
	      "index %u offset %lld read %llu", pc->index, (long long)pc->offset, (unsigned long long)total);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	region(fd, 1000, 0);
	CHECK("after a region: offset = 2003, time_enabled = time_running",
	      pc->offset == REGION(1000) && pc->time_enabled == pc->time_running, "offset %lld enabled %llu running %llu",
	      (long long)pc->offset, (unsigned long long)pc->time_enabled, (unsigned long long)pc->time_running);
	if (mm) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		idx = pc->index;
		munmap((void *)pc, 4096);
		CHECK("mmap: after munmap the counter traps again", idx && try_csr((int)idx - 1, &v) == 1, "idx %u", idx);
		CHECK("mmap: rdcycle still traps", try_csr(0, &v) == 1, "no trap");
	} else {
		munmap((void *)pc, 4096);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	mode = argc > 1 ? argv[1] : "all";
	models = argc > 2 && !strcmp(argv[2], "models");
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_exact();
	test_group();
	test_errors();
	test_mmap();
	printf("info %d failed\n", fails);
	return fails != 0;
}
