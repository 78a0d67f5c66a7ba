/* perf_event_open(2) for the user-mode program. rvpmu is the program's
 * kernel, and here it is also its S-mode PMU driver: events map to SBI
 * event_idx values as Linux's riscv_pmu_sbi maps them, and counters are
 * claimed, started, stopped and released only through SBI PMU calls to
 * each hart's firmware (plus what an S-mode driver does itself: read
 * the counter CSRs and write scounteren). Software clocks count modelled
 * time. The kernel's own work is rvpmu's, not guest instructions, so
 * events count nothing in kernel mode. No sampling: counting only.
 * See docs/guest-perf.md. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lx.h"
#include "rvpmu/perf.h"
#include "perf_event_int.h"

#define FLAG_FD_NO_GROUP 1u
#define FLAG_FD_OUTPUT 2u
#define FLAG_PID_CGROUP 4u
#define FLAG_FD_CLOEXEC 8u

/* ioctls: _IO/_IOR/_IOW('$', n, ...) with the asm-generic encoding */
enum {
	IOC_ENABLE = 0x2400, IOC_DISABLE = 0x2401, IOC_REFRESH = 0x2402,
	IOC_RESET = 0x2403, IOC_PERIOD = 0x40082404, IOC_SET_OUTPUT = 0x2405,
	IOC_SET_FILTER = 0x40082406, IOC_ID = 0x80082407,
	IOC_SET_BPF = 0x40042408, IOC_PAUSE_OUTPUT = 0x40042409,
	IOC_QUERY_BPF = 0xc008240a, IOC_MODIFY_ATTRIBUTES = 0x4008240b,
};
#define IOC_FLAG_GROUP 1u

#define SBI_PMU_FW_READ 5

/* struct perf_event_mmap_page offsets */
enum {
	UP_LOCK = 8, UP_INDEX = 12, UP_OFFSET = 16, UP_TIME_ENABLED = 24,
	UP_TIME_RUNNING = 32, UP_CAPS = 40, UP_PMC_WIDTH = 48, UP_SIZE = 72,
	UP_RESERVED = 96, UP_DATA_OFFSET = 1040, UP_DATA_SIZE = 1048,
};
#define CAP_BIT0_IS_DEPRECATED (1ull << 1)
#define CAP_USER_RDPMC (1ull << 2)

#define PE_MAX LX_PERF_MAX
#define PE_MAPS 4

/* Linux's event states, reduced: OFF (disabled), ON (INACTIVE or
 * ACTIVE: enabled; a hart's "running" says whether it holds a counter
 * there now) and ERROR (a pinned group that found no counters). */
enum pe_state { S_OFF, S_ON, S_ERROR };

/* An event on one hart, as Linux has an event (or an inherited child
 * event) scheduled on one CPU: it is "in" while enabled with a thread it
 * counts on the hart (a hart event: always), and "running" while it also
 * holds a counter of that hart's PMU. */
struct pe_ctr {
	bool in, running;
	unsigned idx, csr;          /* the SBI counter while running */
	uint64_t clock_start;       /* K_CLOCK: the hart's ns when it started */
	uint64_t mark;              /* the hart's ns its times are counted to */
};

/* An event: a task event counts the thread it was opened for and, with
 * inherit, every thread and process that thread and its inheritors make
 * after (each lx_thread's perf bits say which events count it); a hart
 * event (pid -1) counts whatever runs on its hart. A read sums every
 * thread's counts, as Linux sums an event and its inherited children. */
struct pe {
	bool used, fd_open;
	dev_t dev;
	ino_t ino;              /* the memfd behind its guest fds */
	int leader;             /* slot of its group leader (its own: a leader) */
	uint32_t type;
	uint64_t config, read_format, id;
	bool pinned, exclusive, inherit, inherit_thread, task;
	bool enable_on_exec, remove_on_exec;
	int tid;                /* a task event's own thread */
	int cpu, clock;         /* cpu: -1 any; clock: attr.clockid, or -1 */
	enum pe_kind kind;
	struct evspec ev;       /* SBI event and filters (K_HW, K_FW) */
	enum pe_state state;
	unsigned width;         /* of its counters */
	uint64_t count;         /* what stopped counters counted */
	uint64_t own;           /* of that, in its own thread (the user page's) */
	uint64_t t_enabled, t_running;  /* modelled ns, summed over the harts */
	struct pe_ctr c[LX_MAX_CPUS];
	struct lx_mm *map_mm;   /* the address space its user page is in */
	uint64_t map[PE_MAPS], map_len;  /* where its user page is mapped */
	int nmap;
};

static struct {
	struct pe e[PE_MAX];
	int n;
	uint64_t next_id;
	uint64_t fw_mask;       /* the firmware counters (get_info bit 63) */
	struct session *ss;     /* the PMU driver's session, or NULL */
	int ucnt;               /* --user-counters: LINUX_UCNT_* */
} st;

/* The event table belongs to the run: its first perf_event_open (or
 * linux_perf_attach) starts it empty. */
static void ensure(struct lx *p)
{
	if (lx_k.perf_live)
		return;
	memset(&st, 0, sizeof(st));
	st.next_id = 1;
	st.ss = p->perf_ss;
	st.ucnt = p->o.user_counters;
	lx_k.perf_live = true;
}

void linux_perf_attach(struct session *ss)
{
	struct lx *p = lx_k.procs;
	lx_k.perf_live = false;
	p->perf_ss = ss;
	ensure(p);
	uint64_t n = 0, info;
	if (ss) {
		session_sbi(ss, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, &n);
		for (unsigned i = 0; i < n && i < 64; i++)
			if (!session_sbi(ss, SBI_PMU_GET_INFO, i, 0, 0, 0, 0, &info) && (info >> 63))
				st.fw_mask |= 1ull << i;
	}
	/* Linux's riscv_pmu_sbi leaves only TIME readable from U unless the
	 * sysctl is "legacy" (2); rvpmu's "all" keeps every counter readable,
	 * as user mode always did. */
	for (unsigned i = 0; i < lx_k.ncpus && p->o.user_counters != LINUX_UCNT_ALL; i++)
		hart_csr(lx_k.cpu[i], PRIV_S, PMU_CSR_SCOUNTEREN, HART_CSR_WRITE, 1u << 1, NULL);
}

/* Modelled time on hart j: its instructions at the core clock (the
 * kernel takes no time) plus the time it idled. A thread's events see
 * only the first part move while it runs there. */
static uint64_t hart_ns(unsigned j)
{
	const struct hart *h = lx_k.cpu[j];
	return (uint64_t)((unsigned __int128)h->instret * 1000000000u / h->insn_hz) + lx_k.idle_ns[j];
}

static int slot(const struct pe *e)
{
	return (int)(e - st.e);
}

/* Does event e count thread t? */
static bool counts(const struct pe *e, const struct lx_thread *t)
{
	int s = slot(e);
	return t && (t->perf[s / 64] >> (s % 64) & 1);
}

static void set_member(struct lx_thread *t, int s, bool on)
{
	if (on)
		t->perf[s / 64] |= 1ull << (s % 64);
	else
		t->perf[s / 64] &= ~(1ull << (s % 64));
}

void lx_perf_inherit(const struct lx_thread *parent, struct lx_thread *child, bool thread)
{
	memset(child->perf, 0, sizeof(child->perf));
	for (int s = 0; s < PE_MAX && st.n; s++) {
		const struct pe *e = &st.e[s];
		/* inherit_thread: threads only, not a fork's process */
		if (e->used && e->inherit && (thread || !e->inherit_thread) && counts(e, parent))
			set_member(child, s, true);
	}
}

/* Bring the events' enabled and running times on hart j up to now, and
 * hand the instructions it retired in U so far to its PMU before a
 * firmware or driver CSR access (at M or S) could be charged with them. */
static void sync_hart(unsigned j)
{
	hart_sync_pmu(lx_k.cpu[j]);
	uint64_t now = hart_ns(j);
	for (int i = 0; i < PE_MAX; i++) {
		struct pe *e = &st.e[i];
		struct pe_ctr *c = &e->c[j];
		if (!e->used)
			continue;
		if (c->in)
			e->t_enabled += now - c->mark;
		if (c->running)
			e->t_running += now - c->mark;
		c->mark = now;
	}
}

static void tick(void)
{
	for (unsigned j = 0; j < lx_k.ncpus; j++)
		sync_hart(j);
}

/* What e's counter on hart j has counted since it started. */
static uint64_t ctr_value(const struct pe *e, unsigned j)
{
	const struct pe_ctr *c = &e->c[j];
	uint64_t v = 0;
	if (!c->running)
		return 0;
	switch (e->kind) {
	case K_HW:
		hart_csr(lx_k.cpu[j], PRIV_S, c->csr, HART_CSR_READ, 0, &v);
		return e->width < 64 ? v & ((1ull << e->width) - 1) : v;
	case K_FW:
		session_sbi_on(st.ss, j, SBI_PMU_FW_READ, c->idx, 0, 0, 0, 0, &v);
		return v;
	case K_CLOCK:
		return hart_ns(j) - c->clock_start;
	case K_DUMMY:
		break;
	}
	return 0;
}

static uint64_t value(const struct pe *e)
{
	uint64_t v = e->count;
	for (unsigned j = 0; j < lx_k.ncpus; j++)
		v += ctr_value(e, j);
	return v;
}

static void sched_out(struct pe *e, unsigned j)
{
	struct pe_ctr *c = &e->c[j];
	if (!c->running)
		return;
	uint64_t v = ctr_value(e, j);
	e->count += v;
	if (lx_k.on[j] && lx_k.on[j]->tid == e->tid)
		e->own += v;
	if (e->kind == K_HW || e->kind == K_FW)
		session_sbi_on(st.ss, j, SBI_PMU_STOP, c->idx, 1, SBI_STOP_RESET, 0, 0, NULL);
	c->running = false;
}

/* Take a counter of hart j for e and start it from 0 (Linux's
 * pmu_sbi_ctr_get_idx and ctr_start): false when none is free that can
 * count it. */
static bool claim(struct pe *e, unsigned j)
{
	struct pe_ctr *c = &e->c[j];
	uint64_t v, info = 0;
	switch (e->kind) {
	case K_CLOCK:
		c->clock_start = hart_ns(j);
		return true;
	case K_DUMMY:
		return true;
	case K_HW:
		if (session_config_on(st.ss, j, &e->ev, 0, &c->idx, &c->csr) != SBI_SUCCESS)
			return false;
		session_sbi_on(st.ss, j, SBI_PMU_GET_INFO, c->idx, 0, 0, 0, 0, &info);
		e->width = (unsigned)((info >> 12) & 63) + 1;
		break;
	case K_FW:
		if (!st.fw_mask || session_sbi_on(st.ss, j, SBI_PMU_CFG_MATCH, 0, st.fw_mask,
						  SBI_CFG_CLEAR_VALUE, e->ev.event_idx,
						  e->ev.event_data, &v) != SBI_SUCCESS)
			return false;
		c->idx = (unsigned)v;
		e->width = 64;
		break;
	}
	session_sbi_on(st.ss, j, SBI_PMU_START, c->idx, 1, SBI_START_SET_INIT_VALUE, 0, 0, NULL);
	return true;
}

/* Slots in creation order (ids only grow). */
static int ordered(int *out)
{
	int n = 0;
	for (int i = 0; i < PE_MAX; i++)
		if (st.e[i].used) {
			int k = n++;
			while (k > 0 && st.e[out[k - 1]].id > st.e[i].id) {
				out[k] = out[k - 1];
				k--;
			}
			out[k] = i;
		}
	return n;
}

static void page_update(struct pe *e);

/* What U may read on hart j: TIME always; in mmap mode also the counters
 * of running, mmap'd hardware events (Linux's pmu_sbi_set_scounteren). */
static void set_scounteren(unsigned j)
{
	if (st.ucnt == LINUX_UCNT_ALL)
		return;
	uint64_t v = 1u << 1;
	for (int i = 0; i < PE_MAX && st.ucnt == LINUX_UCNT_MMAP; i++) {
		const struct pe *e = &st.e[i];
		if (e->used && e->c[j].running && e->kind == K_HW && e->nmap)
			v |= 1ull << (e->c[j].csr - PMU_CSR_CYCLE);
	}
	hart_csr(lx_k.cpu[j], PRIV_S, PMU_CSR_SCOUNTEREN, HART_CSR_WRITE, v, NULL);
}

static void pages_update(void)
{
	for (int i = 0; i < PE_MAX; i++)
		if (st.e[i].used && st.e[i].nmap)
			page_update(&st.e[i]);
}

/* Hart j's events stop counting: its task events (all: its hart events
 * too), their counts kept. */
static void hart_out(unsigned j, bool all)
{
	sync_hart(j);
	for (int i = 0; i < PE_MAX; i++) {
		struct pe *e = &st.e[i];
		if (e->used && (all || e->task)) {
			sched_out(e, j);
			e->c[j].in = false;
		}
	}
}

/* Put the events of hart j (of its thread, and the hart's own) on its
 * counters: pinned groups first, then the others, each in creation
 * order, a group all or nothing (as Linux's ctx_sched_in). An event of
 * another hart (cpu) is in, its time enabled, but not counting. There is
 * no rotation: a group that finds no counters waits, enabled but not
 * running, until a reschedule finds some. */
static void hart_in(unsigned j)
{
	int ord[PE_MAX], n = ordered(ord), groups = 0;
	bool exclusive = false;
	const struct lx_thread *t = lx_k.on[j];
	sync_hart(j);
	for (int k = 0; k < n; k++) {
		struct pe *e = &st.e[ord[k]];
		e->c[j].in = e->state == S_ON && (e->task ? counts(e, t) : e->cpu == (int)j);
	}
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < n; k++) {
			struct pe *l = &st.e[ord[k]];
			if (l->leader != ord[k] || !l->c[j].in || l->pinned != (pass == 0) ||
			    (l->cpu >= 0 && l->cpu != (int)j))
				continue;
			if (l->c[j].running) {   /* a hart event kept its counters */
				groups++;
				exclusive |= l->exclusive;
				continue;
			}
			bool ok = !exclusive && !(l->exclusive && groups);
			int got[PE_MAX], ng = 0;
			for (int i = k; ok && i < n; i++) {
				struct pe *m = &st.e[ord[i]];
				if (m->leader != ord[k] || !m->c[j].in)
					continue;
				if (!claim(m, j)) {
					ok = false;
					break;
				}
				m->c[j].running = true;
				got[ng++] = ord[i];
			}
			if (!ok) {
				for (int i = 0; i < ng; i++)
					sched_out(&st.e[got[i]], j);
				if (l->pinned)
					l->state = S_ERROR;
				continue;
			}
			groups++;
			exclusive |= l->exclusive;
		}
	set_scounteren(j);
}

/* Every hart's events off their counters (before a change of the
 * events), then on again. */
static void resched_out(void)
{
	for (unsigned j = 0; j < lx_k.ncpus; j++)
		hart_out(j, true);
}

static void resched_in(void)
{
	for (unsigned j = 0; j < lx_k.ncpus; j++)
		hart_in(j);
	pages_update();
}

void lx_perf_out(unsigned j)
{
	if (!st.n)
		return;
	hart_out(j, false);
	set_scounteren(j);
	pages_update();
}

void lx_perf_in(unsigned j)
{
	if (!st.n)
		return;
	hart_in(j);
	pages_update();
}

static void put32(uint8_t *b, unsigned off, uint32_t v) { memcpy(b + off, &v, 4); }
static void put64(uint8_t *b, unsigned off, uint64_t v) { memcpy(b + off, &v, 8); }

/* The user-read fields of each mapped struct perf_event_mmap_page, as
 * perf_event_update_userpage and riscv's arch_perf_update_userpage fill
 * them: lock odd while it changes, index = counter CSR offset + 1 when
 * U may read it (else 0), offset = count before the counter's start
 * (counters start at 0, so count = offset + the counter's value). The
 * page speaks of the event's own thread (a hart event: its hart), as
 * Linux's page of an inherited event speaks of the parent's. */
static void page_update(struct pe *e)
{
	struct lx *mp = lx_k.procs;
	while (mp && mp->mm != e->map_mm)
		mp = mp->next;
	if (!mp)
		return;   /* its address space went (an exec, an exit) */
	const struct lx_thread *o = e->task ? lx_thread_by_tid(e->tid) : NULL;
	int j = e->task ? (o ? o->cpu : -1) : e->cpu;
	bool rdpmc = e->kind == K_HW && st.ucnt != LINUX_UCNT_OFF;
	uint32_t index = rdpmc && j >= 0 && e->c[j].running ? e->c[j].csr - PMU_CSR_CYCLE + 1 : 0;
	for (int i = 0; i < e->nmap; i++) {
		uint8_t *u = e->map_mm->mem.base + e->map[i];
		uint32_t lock;
		memcpy(&lock, u + UP_LOCK, 4);
		put32(u, UP_LOCK, lock + 1);
		put32(u, UP_INDEX, index);
		put64(u, UP_OFFSET, e->task ? e->own : e->count);
		put64(u, UP_TIME_ENABLED, e->t_enabled);
		put64(u, UP_TIME_RUNNING, e->t_running);
		put64(u, UP_CAPS, CAP_BIT0_IS_DEPRECATED | (rdpmc ? CAP_USER_RDPMC : 0));
		uint16_t w = rdpmc ? (uint16_t)e->width : 0;
		memcpy(u + UP_PMC_WIDTH, &w, 2);
		put32(u, UP_LOCK, lock + 2);
	}
}

static struct pe *by_fd(struct lx *p, uint64_t g)
{
	if (!st.n)
		return NULL;
	int h = lx_host_fd(p, g);
	struct stat sb;
	if (h < 0 || fstat(h, &sb))
		return NULL;
	for (int i = 0; i < PE_MAX; i++) {
		struct pe *e = &st.e[i];
		if (e->used && e->fd_open && e->dev == sb.st_dev && e->ino == sb.st_ino)
			return e;
	}
	return NULL;
}

bool lx_perf_fd(struct lx *p, uint64_t g)
{
	return lx_k.perf_live && by_fd(p, g);
}

/* The last reference went: siblings of a leader become groups of their
 * own (Linux's perf_group_detach), then the counters are handed on. */
static void destroy(struct pe *e)
{
	resched_out();
	int s = slot(e);
	for (int i = 0; i < PE_MAX; i++)
		if (st.e[i].used && st.e[i].leader == s)
			st.e[i].leader = i;
	for (struct lx_thread *t = lx_k.threads; t; t = t->next)
		set_member(t, s, false);
	memset(e, 0, sizeof(*e));
	st.n--;
	resched_in();
}

static int nsiblings(int leader)
{
	int n = 0;
	for (int i = 0; i < PE_MAX; i++)
		n += st.e[i].used && st.e[i].leader == leader && i != leader;
	return n;
}

static uint64_t read_size(uint64_t fmt, int nr)
{
	uint64_t entry = 8 + ((fmt & FMT_ID) ? 8 : 0) + ((fmt & FMT_LOST) ? 8 : 0);
	uint64_t size = ((fmt & FMT_TOTAL_TIME_ENABLED) ? 8 : 0) + ((fmt & FMT_TOTAL_TIME_RUNNING) ? 8 : 0);
	return size + ((fmt & FMT_GROUP) ? 8 + entry * (uint64_t)nr : entry);
}

static long sys_open(struct lx *p, const uint64_t *a)
{
	uint64_t ua = a[0], flags = a[4];
	int pid = (int)(int32_t)a[1], cpu = (int)(int32_t)a[2], group_fd = (int)(int32_t)a[3];
	struct pe_attr at;
	if (flags & ~(uint64_t)(FLAG_FD_NO_GROUP | FLAG_FD_OUTPUT | FLAG_PID_CGROUP | FLAG_FD_CLOEXEC))
		return -EINVAL;
	long r = lx_pe_copy_attr(p, ua, &at);
	if (r)
		return r;
	/* perf_event_paranoid is -1 here: every event is allowed */
	if (at.flags & A_BIT(A_FREQ)) {
		if (at.sample_period > MAX_SAMPLE_RATE)
			return -EINVAL;
	} else if (at.sample_period >> 63) {
		return -EINVAL;
	}
	if ((flags & FLAG_PID_CGROUP) && (pid == -1 || cpu == -1))
		return -EINVAL;
	struct pe *leader = NULL;
	if (group_fd != -1) {
		if (!(leader = by_fd(p, (uint32_t)group_fd)))
			return -EBADF;
		if (flags & FLAG_FD_NO_GROUP)
			leader = NULL;
	}
	if (flags & FLAG_PID_CGROUP)
		return -EBADF;   /* no guest fd is a cgroupfs directory */
	/* pid: 0 the calling thread, else any thread of the run (Linux's
	 * find_lively_task_by_vpid; ptrace's same-user check always passes
	 * here), or -1 for a hart event, which perf_event_paranoid -1 allows */
	bool task = pid != -1;
	struct lx_thread *target = !task ? NULL : pid ? lx_thread_by_tid(pid) : p->t;
	if (task && !target)
		return -ESRCH;
	bool inherit = at.flags & A_BIT(A_INHERIT);
	if (leader && task && leader->inherit != inherit)
		return -EINVAL;
	if ((unsigned)cpu >= lx_k.ncpus && (!task || cpu != -1))
		return -EINVAL;  /* a hart of the run, or -1 with a task */

	struct pe n;
	memset(&n, 0, sizeof(n));
	if ((r = lx_pe_event_init(p, &at, &n.kind, &n.ev)))
		return r;
	if (at.sample_period)
		return -EOPNOTSUPP;  /* sampling: not in the guest (rvpmu record samples) */
	if (at.flags & A_BIT(A_AUX_OUTPUT))
		return -EINVAL;      /* no AUX event to pair with */
	n.clock = -1;
	if (at.flags & A_BIT(A_USE_CLOCKID)) {
		int32_t k = at.clockid;  /* perf_event_set_clock's choices */
		if (k != 0 && k != 1 && k != 4 && k != 7 && k != 11)
			return -EINVAL;
		n.clock = k;
	}
	if (leader) {
		if (leader->leader != slot(leader) || leader->clock != n.clock ||
		    leader->cpu != cpu || leader->task != task ||
		    (task && leader->tid != target->tid) ||
		    (at.flags & (A_BIT(A_EXCLUSIVE) | A_BIT(A_PINNED))))
			return -EINVAL;
	}
	int s = 0;
	while (s < PE_MAX && st.e[s].used)
		s++;
	if (s == PE_MAX)
		return -ENOMEM;
	int h = memfd_create("[perf_event]", (flags & FLAG_FD_CLOEXEC) ? MFD_CLOEXEC : 0);
	struct stat sb;
	if (h < 0 || fstat(h, &sb)) {
		if (h >= 0)
			close(h);
		return -ENOMEM;
	}
	int g = lx_fd_alloc(p, h);
	if (g < 0)
		return g;

	resched_out();
	struct pe *e = &st.e[s];
	*e = n;
	e->used = e->fd_open = true;
	e->dev = sb.st_dev;
	e->ino = sb.st_ino;
	e->leader = leader ? slot(leader) : s;
	e->type = at.type;
	e->config = at.config;
	e->read_format = at.read_format;
	e->id = st.next_id++;
	e->pinned = at.flags & A_BIT(A_PINNED);
	e->exclusive = at.flags & A_BIT(A_EXCLUSIVE);
	e->inherit = inherit;
	e->inherit_thread = at.flags & A_BIT(A_INHERIT_THREAD);
	e->task = task;
	e->tid = task ? target->tid : 0;
	e->cpu = cpu;
	e->enable_on_exec = at.flags & A_BIT(A_ENABLE_ON_EXEC);
	e->remove_on_exec = at.flags & A_BIT(A_REMOVE_ON_EXEC);
	e->state = (at.flags & A_BIT(A_DISABLED)) ? S_OFF : S_ON;
	st.n++;
	if (task)
		set_member(target, s, true);
	resched_in();
	return g;
}

static long do_read(struct lx *p, struct pe *e, uint64_t buf, uint64_t count)
{
	tick();
	uint64_t fmt = e->read_format;
	const struct pe *l = &st.e[e->leader];
	int nr = 1 + nsiblings(e->leader);
	uint64_t size = read_size(fmt, nr);
	if (e->state == S_ERROR)
		return 0;
	if (count < size)
		return -ENOSPC;
	uint64_t v[3 + 3 * PE_MAX];
	int k = 0;
	if (fmt & FMT_GROUP) {
		/* nr, the leader's times, then {value, id, lost} per member */
		int ord[PE_MAX], n = ordered(ord);
		v[k++] = (uint64_t)nr;
		if (fmt & FMT_TOTAL_TIME_ENABLED)
			v[k++] = l->t_enabled;
		if (fmt & FMT_TOTAL_TIME_RUNNING)
			v[k++] = l->t_running;
		for (int pass = 0; pass < 2; pass++)
			for (int j = 0; j < n; j++) {
				const struct pe *m = &st.e[ord[j]];
				if (m->leader != e->leader || (ord[j] == e->leader) != (pass == 0))
					continue;
				v[k++] = value(m);
				if (fmt & FMT_ID)
					v[k++] = m->id;
				if (fmt & FMT_LOST)
					v[k++] = 0;
			}
	} else {
		v[k++] = value(e);
		if (fmt & FMT_TOTAL_TIME_ENABLED)
			v[k++] = e->t_enabled;
		if (fmt & FMT_TOTAL_TIME_RUNNING)
			v[k++] = e->t_running;
		if (fmt & FMT_ID)
			v[k++] = e->id;
		if (fmt & FMT_LOST)
			v[k++] = 0;   /* no samples, none lost */
	}
	return lx_put(p, buf, v, size) ? -EFAULT : (long)size;
}

static long do_ioctl(struct lx *p, struct pe *e, uint32_t cmd, uint64_t arg)
{
	switch (cmd) {
	case IOC_ENABLE: case IOC_DISABLE: case IOC_RESET: {
		/* PERF_IOC_FLAG_GROUP: the whole group of the event */
		resched_out();
		for (int i = 0; i < PE_MAX; i++) {
			struct pe *m = &st.e[i];
			if (!m->used || (m != e && !((arg & IOC_FLAG_GROUP) && m->leader == e->leader)))
				continue;
			if (cmd == IOC_ENABLE)
				m->state = S_ON;
			else if (cmd == IOC_DISABLE)
				m->state = m->state == S_ERROR ? S_ERROR : S_OFF;
			else
				m->count = m->own = 0;   /* times are not reset, as Linux */
		}
		resched_in();
		return 0;
	}
	case IOC_REFRESH:
		return -EINVAL;       /* only for sampling events */
	case IOC_PERIOD: {
		uint64_t v;
		return lx_get(p, arg, &v, 8) ? -EFAULT : -EINVAL;
	}
	case IOC_ID:
		return lx_put(p, arg, &e->id, 8) ? -EFAULT : 0;
	case IOC_SET_OUTPUT: {
		if ((int32_t)arg == -1)
			return 0;
		struct pe *o = by_fd(p, (uint32_t)arg);
		if (!o)
			return -EBADF;
		/* no ring buffers to redirect; Linux's checks still apply */
		return o == e || e->nmap || o->cpu != e->cpu ? -EINVAL : 0;
	}
	case IOC_SET_FILTER:
		return lx_rptr(p, arg, 1) ? -EINVAL : -EFAULT;  /* tracepoints only */
	case IOC_SET_BPF:
		return lx_host_fd(p, (uint32_t)arg) < 0 ? -EBADF : -EINVAL;
	case IOC_PAUSE_OUTPUT:
		return e->nmap ? 0 : -EINVAL;
	case IOC_QUERY_BPF:
		return -EINVAL;
	case IOC_MODIFY_ATTRIBUTES: {
		struct pe_attr at;
		long r = lx_pe_copy_attr(p, arg, &at);
		if (r)
			return r;
		return at.type != e->type ? -EINVAL : -EOPNOTSUPP;  /* breakpoints only */
	}
	}
	return -ENOTTY;
}

/* close(g): if no other guest fd (a dup) and no mapping holds the event,
 * it goes. fs.c closes the host fd. */
static void note_close(struct lx *p, struct pe *e, uint64_t g)
{
	/* any process's fd: a fork child's copies name the same event */
	for (const struct lx *q = lx_k.procs; q; q = q->next)
		for (int i = 0; q->files && i < LX_NFD; i++) {
			struct stat sb;
			if ((q->files != p->files || (uint64_t)i != g) && q->files->fd[i] >= 0 &&
			    !fstat(q->files->fd[i], &sb) && sb.st_dev == e->dev && sb.st_ino == e->ino)
				return;
		}
	e->fd_open = false;
	if (!e->nmap)
		destroy(e);
}

bool lx_perf_fs(struct lx *p, int nr, const uint64_t *a, long *r)
{
	switch (nr) {
	case NR_read: case NR_write: case NR_readv: case NR_writev:
	case NR_pread64: case NR_pwrite64: case NR_lseek: case NR_ioctl: case NR_close:
		break;
	default:
		return false;
	}
	struct pe *e = by_fd(p, a[0]);
	if (!e)
		return false;
	switch (nr) {
	case NR_read:
		*r = do_read(p, e, a[1], a[2]);
		return true;
	case NR_ioctl:
		*r = do_ioctl(p, e, (uint32_t)a[1], a[2]);
		return true;
	case NR_close:
		note_close(p, e, a[0]);
		return false;
	case NR_pread64: case NR_pwrite64: case NR_lseek:
		*r = -ESPIPE;         /* an anon inode: no positions */
		return true;
	default:
		*r = -EINVAL;         /* no write; readv is not modelled */
		return true;
	}
}

long lx_perf_mmap_check(struct lx *p, const uint64_t *a)
{
	struct pe *e = by_fd(p, a[4]);
	if (!e)
		return -EBADF;
	unsigned type = (unsigned)a[3] & 0x0f;
	if (type != 0x01 && type != 0x03)
		return -EINVAL;       /* MAP_SHARED only */
	if (a[5])
		return -EINVAL;       /* an AUX area needs a ring buffer's aux_offset */
	uint64_t len = (a[1] + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1), data = len / GPAGE_SIZE - 1;
	if (data & (data - 1))
		return -EINVAL;       /* 1 + 2^n pages */
	if (e->nmap && (e->map_len != len || e->map_mm != p->mm))
		return -EINVAL;
	return e->nmap == PE_MAPS ? -ENOMEM : 0;
}

void lx_perf_mmapped(struct lx *p, uint64_t g, uint64_t addr, uint64_t len)
{
	struct pe *e = by_fd(p, g);
	if (!e)
		return;
	tick();
	uint8_t *u = p->mm->mem.base + addr;
	memset(u, 0, len);
	put32(u, UP_SIZE, UP_RESERVED);
	put64(u, UP_DATA_OFFSET, GPAGE_SIZE);
	put64(u, UP_DATA_SIZE, len - GPAGE_SIZE);  /* no records are ever written */
	e->map[e->nmap++] = addr;
	e->map_len = len;
	e->map_mm = p->mm;
	if (p->t && p->t->cpu >= 0)
		set_scounteren((unsigned)p->t->cpu);
	page_update(e);
}

void lx_perf_unmap(struct lx *p, uint64_t a, uint64_t b)
{
	if (!lx_k.perf_live || !st.n)
		return;
	tick();
	for (int i = 0; i < PE_MAX; i++) {
		struct pe *e = &st.e[i];
		if (!e->used || e->map_mm != p->mm)
			continue;
		bool dropped = false;
		for (int k = 0; k < e->nmap; k++)
			if (e->map[k] < b && a < e->map[k] + e->map_len) {
				e->map[k--] = e->map[--e->nmap];
				dropped = true;
			}
		if (!dropped || e->nmap)
			continue;
		if (!e->fd_open)
			destroy(e);
		else if (p->t && p->t->cpu >= 0)
			set_scounteren((unsigned)p->t->cpu);
	}
}

/* Thread t execs (perf_event_exec): its disabled enable_on_exec events
 * start, its remove_on_exec events stop counting it. */
void lx_perf_exec(struct lx_thread *t)
{
	if (!st.n)
		return;
	resched_out();
	for (int s = 0; s < PE_MAX; s++) {
		struct pe *e = &st.e[s];
		if (!e->used || !counts(e, t))
			continue;
		if (e->enable_on_exec && e->state == S_OFF)
			e->state = S_ON;
		if (e->remove_on_exec)
			set_member(t, s, false);
	}
	resched_in();
}

/* mm goes: a user page mapped there goes with it. */
void lx_perf_mm_gone(const struct lx_mm *mm)
{
	for (int s = 0; s < PE_MAX && st.n && lx_k.perf_live; s++) {
		struct pe *e = &st.e[s];
		if (!e->used || e->map_mm != mm)
			continue;
		e->nmap = 0;
		e->map_mm = NULL;
		if (!e->fd_open)
			destroy(e);
	}
}

long lx_sys_perf(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	*handled = nr == NR_perf_event_open;
	if (!*handled)
		return 0;
	ensure(p);
	return sys_open(p, a);
}
