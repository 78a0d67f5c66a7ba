/* The harts of a user-mode run and the scheduler that runs threads on
 * them: one host thread, rounds of a quantum of modelled time as system
 * mode's sched.c, a first-in first-out run queue with time slices, and
 * parking for calls that wait.
 *
 * Time: each hart's time follows its retired instructions at the core
 * clock plus the ns it spent idle (lx_k.idle_ns). With one thread there
 * are no rounds: it runs on its hart until it waits or ends, exactly as
 * a single-threaded program always ran. Once a second thread exists,
 * every round gives each hart a turn, in hart order, until its time
 * reaches the round's end, LX_QUANTUM instructions of time later; a
 * hart runs its thread, or the next one the queue holds for it, and
 * idles to the round's end when there is none. A thread runs for at
 * most LX_SLICE_NS while others wait for a hart. Timeouts end at the end
 * of the round they fall in; when every thread waits, time jumps to the
 * earliest, and with none the run has deadlocked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lx.h"

struct lx_kernel lx_k;

#define NS 1000000000ull
#define LX_QUANTUM 10000        /* instructions of a hart's turn, as system mode's */
#define LX_SLICE_NS 1000000ull  /* a thread's time slice while others wait: 1 ms */

enum { TURN_ON = -1, TURN_WAIT = -2 };

/* The guest's clock on hart i: its time CSR in ns plus its idle time. */
uint64_t lx_hart_ns(unsigned i)
{
	const struct hart *h = lx_k.cpu[i];
	uint64_t hz = h->time_hz ? h->time_hz : 10000000;
	return (uint64_t)((unsigned __int128)hart_time(h) * NS / hz) + lx_k.idle_ns[i];
}

uint64_t lx_now_ns(struct lx *p)
{
	return p->t && p->t->cpu >= 0 ? lx_hart_ns((unsigned)p->t->cpu) : lx_k.now;
}

/* The scheduler's clock on hart i: its instructions in ns, rounded up,
 * so that insns_until() reaches a time exactly. Never behind lx_hart_ns. */
static uint64_t exact_ns(unsigned i)
{
	const struct hart *h = lx_k.cpu[i];
	unsigned __int128 n = (unsigned __int128)h->instret * NS + h->insn_hz - 1;
	return (uint64_t)(n / h->insn_hz) + lx_k.idle_ns[i];
}

static uint64_t insns_until(unsigned i, uint64_t at)
{
	uint64_t now = exact_ns(i);
	if (at == ~0ull)
		return ~0ull;
	if (at <= now)
		return 0;
	unsigned __int128 n = (unsigned __int128)(at - now) * lx_k.cpu[i]->insn_hz + NS - 1;
	n /= NS;
	return n > ~0ull ? ~0ull : (uint64_t)n;
}

/* Hart i idles until its time is t (never back). */
static void idle_until(unsigned i, uint64_t t)
{
	uint64_t now = exact_ns(i);
	if (t != ~0ull && t > now)
		lx_k.idle_ns[i] += t - now;
}

/* Modelled ns of hart h's instructions (what a thread on it has run). */
static uint64_t run_ns(const struct hart *h)
{
	uint64_t hz = h->time_hz ? h->time_hz : 10000000;
	return (uint64_t)((unsigned __int128)hart_time(h) * NS / hz);
}

int lx_cpu_of(const struct hart *h)
{
	for (unsigned i = 0; i < lx_k.ncpus; i++)
		if (lx_k.cpu[i] == h)
			return (int)i;
	return -1;
}

/* RVPMU_JIT_STATS: h counts where it leaves translated code (jit_report) */
static void jprof_on(struct hart *h)
{
	if (getenv("RVPMU_JIT_STATS") && !h->jprof)
		h->jprof = calloc(1, sizeof(*h->jprof));
}

void linux_add_cpu(struct hart *h)
{
	if (lx_k.ncpus < LX_MAX_CPUS && lx_k.ncpus)
		lx_k.cpu[lx_k.ncpus++] = h;
	jprof_on(h);
}

uint64_t lx_cpu_mask(void)
{
	return lx_k.ncpus >= 64 ? ~0ull : (1ull << lx_k.ncpus) - 1;
}

/* ---- the run queue ---- */

void lx_enqueue(struct lx_thread *t)
{
	if (t->queued || t->state != LX_T_RUN || t->cpu >= 0)
		return;
	t->rq_next = NULL;
	*lx_k.rq_tail = t;
	lx_k.rq_tail = &t->rq_next;
	t->queued = true;
}

void lx_dequeue(struct lx_thread *t)
{
	if (!t->queued)
		return;
	for (struct lx_thread **q = &lx_k.rq; *q; q = &(*q)->rq_next)
		if (*q == t) {
			*q = t->rq_next;
			if (lx_k.rq_tail == &t->rq_next)
				lx_k.rq_tail = q;
			break;
		}
	t->queued = false;
}

/* The first queued thread that may run on hart i, or NULL. */
static struct lx_thread *queued_for(unsigned i)
{
	for (struct lx_thread *t = lx_k.rq; t; t = t->rq_next)
		if (t->affinity & (1ull << i))
			return t;
	return NULL;
}

/* The first hart thread t may run on. */
static unsigned lowest_cpu(const struct lx_thread *t)
{
	uint64_t m = t->affinity & lx_cpu_mask();
	return m ? (unsigned)__builtin_ctzll(m) : 0;
}

/* ---- putting threads on harts ---- */

static void put_on(struct lx_thread *t, unsigned i)
{
	struct hart *h = lx_k.cpu[i];
	lx_dequeue(t);
	idle_until(i, t->born_ns);
	t->born_ns = 0;
	hart_switch_mem(h, &t->p->mm->mem);   /* another process's: flush */
	memcpy(h->x, t->x, sizeof(t->x));
	memcpy(h->f, t->f, sizeof(t->f));
	h->pc = t->pc;
	h->fflags = t->fflags;
	h->frm = t->frm;
	h->resv_addr = ~0ull;      /* a context switch ends a reservation */
	t->cpu = (int)i;
	lx_k.on[i] = t;
	t->on_insns = h->instret;
	t->on_ns = run_ns(h);
	t->slice_end = exact_ns(i) + LX_SLICE_NS;
	lx_perf_in(i);
}

/* What thread t has run so far, in ns (up to now when it is on a hart). */
uint64_t lx_thread_ns(const struct lx_thread *t)
{
	return t->run_ns + (t->cpu >= 0 ? run_ns(lx_k.cpu[t->cpu]) - t->on_ns : 0);
}

uint64_t lx_thread_insns(const struct lx_thread *t)
{
	return t->insns + (t->cpu >= 0 ? lx_k.cpu[t->cpu]->instret - t->on_insns : 0);
}

static void task_of(const struct lx_thread *t, struct linux_task *lt)
{
	const struct lx_mm *mm = t->p->mm;
	*lt = (struct linux_task){ t->p->pid, t->tid, t->p->ppid, t->comm, mm ? mm->exe : NULL,
				   mm ? mm->load_bias : 0,
				   t->cpu >= 0 ? lx_hart_ns((unsigned)t->cpu) : t->born_ns ? t->born_ns
				   : lx_k.now };
}

int linux_task_on(const struct hart *h, struct linux_task *lt)
{
	int i = lx_cpu_of(h);
	const struct lx_thread *t = i >= 0 ? lx_k.on[i] : NULL;
	if (!t)
		return -1;
	task_of(t, lt);
	return 0;
}

void lx_task_change(enum linux_task_change what, const struct lx_thread *t,
		    const struct lx_thread *parent)
{
	const struct linux_opts *o = lx_k.o;
	if (!o || !o->task_change)
		return;
	struct linux_task lt, lp;
	task_of(t, &lt);
	if (parent)
		task_of(parent, &lp);
	o->task_change(o->task_ctx, what, &lt, parent ? &lp : NULL);
}

static void take_off(unsigned i)
{
	struct lx_thread *t = lx_k.on[i];
	struct hart *h = lx_k.cpu[i];
	const struct linux_opts *o = lx_k.o;
	/* a context switch, as Linux counts it (the thread's, before its
	 * counts are read): voluntary when it blocks, involuntary when it
	 * could go on (a slice's end, a yield, its affinity) */
	if (t->state == LX_T_WAIT) {
		lx_k.nvcsw[i]++;
		t->p->nvcsw++;
	} else if (t->state == LX_T_RUN) {
		lx_k.nivcsw[i]++;
		t->p->nivcsw++;
	}
	if (o && o->switch_out) {
		struct linux_task lt;
		linux_task_on(h, &lt);
		o->switch_out(o->task_ctx, h, &lt);
	}
	lx_perf_out(i);
	memcpy(t->x, h->x, sizeof(t->x));
	memcpy(t->f, h->f, sizeof(t->f));
	t->pc = h->pc;
	t->fflags = h->fflags;
	t->frm = h->frm;
	t->insns += h->instret - t->on_insns;
	t->run_ns += run_ns(h) - t->on_ns;
	h->resv_addr = ~0ull;
	t->cpu = -1;
	lx_k.on[i] = NULL;
	if (t->state == LX_T_DEAD)
		lx_thread_free(t);
}

void lx_thread_attach(struct lx_thread *t, unsigned i)
{
	/* the loader set the hart's registers: they are the thread's */
	t->cpu = (int)i;
	lx_k.on[i] = t;
	t->on_insns = lx_k.cpu[i]->instret;
	t->on_ns = run_ns(lx_k.cpu[i]);
	t->slice_end = exact_ns(i) + LX_SLICE_NS;
	lx_perf_in(i);
}

/* ---- waiting ---- */

long lx_wait_begin(struct lx *p, uint8_t kind, uint64_t deadline, bool retry)
{
	struct lx_thread *t = p->t;
	t->w.kind = kind;
	t->w.woke = LX_WOKE_NONE;
	t->w.deadline = deadline;
	t->w.retry = retry;
	t->state = LX_T_WAIT;
	return LX_BLOCK;
}

/* The wait of t ends: its call returns result, or (a retried wait) runs
 * again. */
void lx_wake(struct lx_thread *t, int why, long result)
{
	if (t->state != LX_T_WAIT)
		return;
	t->w.woke = (uint8_t)why;
	/* a retried call runs again, unless a signal ended it (EINTR)
	 * where Linux would not restart it */
	if (why == LX_WOKE_SIGNAL && t->w.done)
		result = (long)t->w.done;   /* a write cut short returns what it wrote */
	if (result != LX_RESTART && (!t->w.retry || why == LX_WOKE_SIGNAL)) {
		if (why == LX_WOKE_SIGNAL && t->w.kind == LX_W_SLEEP && t->w.rem) {
			uint64_t left = t->w.deadline > lx_k.now ? t->w.deadline - lx_k.now : 0;
			int64_t ts[2] = { (int64_t)(left / NS), (int64_t)(left % NS) };
			lx_put(t->p, t->w.rem, ts, sizeof(ts));
		}
		t->x[10] = (uint64_t)result;
		t->pc += 4;
	}
	if (t->w.kind == LX_W_FUTEX)
		lx_futex_unqueue(t);
	free(t->w.fds);
	t->w.fds = NULL;
	t->w.kind = LX_W_NONE;
	t->state = LX_T_RUN;
	lx_enqueue(t);
}

/* Waits whose time has come by now end: a sleep returns 0, a futex wait
 * ETIMEDOUT, a retried call sees why (woke); so do waits on files that
 * are ready. */
static void expire(uint64_t now)
{
	for (struct lx_thread *t = lx_k.threads, *next; t; t = next) {
		next = t->next;
		if (t->state == LX_T_WAIT && t->w.deadline <= now)
			lx_wake(t, LX_WOKE_TIMEOUT, t->w.kind == LX_W_SLEEP ? 0 : -ETIMEDOUT);
	}
	lx_fd_waiters(false);
}

static const char *const wait_names[] = {
	[LX_W_NONE] = "nothing", [LX_W_FUTEX] = "a futex", [LX_W_SLEEP] = "time",
	[LX_W_SIGNAL] = "a signal (sigsuspend)", [LX_W_SIGWAIT] = "a signal (sigtimedwait)",
	[LX_W_CHILD] = "a child (wait4, waitid)", [LX_W_VFORK] = "its vfork child to exec or exit",
	[LX_W_FD] = "a pipe the program made",
};

/* Every thread waits and none has a timeout: say what each waits for and
 * end the run. */
static void deadlock(struct lx *init)
{
	lx_warn(init, "rvpmu: %s: deadlock: every thread waits and nothing can wake one",
		init->name);
	for (struct lx_thread *t = lx_k.threads; t; t = t->next) {
		if (t->state != LX_T_WAIT)
			continue;
		char what[96];
		if (t->w.kind == LX_W_FUTEX)
			snprintf(what, sizeof(what), "a futex at 0x%llx", (unsigned long long)t->w.key[1]);
		else
			snprintf(what, sizeof(what), "%s", wait_names[t->w.kind]);
		lx_warn(init, "rvpmu:   thread %d (%s) of process %d waits for %s at pc 0x%llx",
			t->tid, t->comm, t->p->pid, what, (unsigned long long)t->pc);
	}
	lx_group_exit(init, LINUX_EXIT_DEADLOCK);
}

/* Nothing runs: a wait on a file that is ready ends, or time jumps to
 * the earliest timeout (every hart's clock shows it), or rvpmu waits for
 * a file from outside, or the run deadlocks. Returns false after a
 * deadlock. */
static bool all_wait(struct lx *init)
{
	if (lx_fd_waiters(false) > 0)
		return true;
	uint64_t at = ~0ull;
	for (struct lx_thread *t = lx_k.threads; t; t = t->next)
		if (t->state == LX_T_WAIT && t->w.deadline < at)
			at = t->w.deadline;
	if (at == ~0ull) {
		if (lx_fd_waiters(true) >= 0)
			return true;
		deadlock(init);
		return false;
	}
	uint64_t latest = 0;
	for (unsigned i = 0; i < lx_k.ncpus; i++)
		latest = lx_hart_ns(i) > latest ? lx_hart_ns(i) : latest;
	if (at > latest)
		lx_k.asleep_ns += at - latest;   /* the whole run slept */
	for (unsigned i = 0; i < lx_k.ncpus; i++) {
		uint64_t shown = lx_hart_ns(i);
		if (at > shown)
			lx_k.idle_ns[i] += at - shown;
		if (exact_ns(i) > lx_k.now)
			lx_k.now = exact_ns(i);
	}
	expire(at);
	return true;
}

/* ---- the run loop ---- */

struct run {
	const struct linux_opts *o;
	struct lx *init;          /* the first process: its end ends the run */
	uint64_t start, idle_start;
};

static uint64_t all_insns(void)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < lx_k.ncpus; i++)
		n += lx_k.cpu[i]->instret;
	return n;
}

static uint64_t idle_traps(void)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < lx_k.ncpus; i++)
		n += lx_k.cpu[i]->storm.idle;
	return n;
}

/* The host's SIGINT or SIGTERM: it is the guest's. */
static int interrupted(struct run *r)
{
	int sig = *r->o->stop;
	lx_warn(r->init, "rvpmu: %s: interrupted by %s after %llu instructions", r->init->name,
		lx_signame(sig), (unsigned long long)(all_insns() - r->start));
	return LINUX_EXIT_SIGNAL_BASE + sig;
}

/* The first touches (page-faults) of a stretch of thread t's running on
 * hart i, its calls' included: the hart's, the thread's and its
 * process's (getrusage). An exec in it replaces the address space: the
 * new one's touches so far, the kernel's as it loaded the image, are
 * the exec's too. */
struct fault_mark {
	struct lx_mm *mm;
	uint64_t f[2];
};

static struct gmem_acct *faults_begin(struct fault_mark *m, struct lx *p)
{
	struct gmem_acct *a = p->mm->mem.acct;
	m->mm = p->mm;
	m->f[0] = a->faults[0];
	m->f[1] = a->faults[1];
	m->mm->refs++;   /* an exec or exit in the call may let it go */
	return a;
}

/* Charge those since the mark (before a call, which may read them). */
static void faults_take(struct fault_mark *m, unsigned i, struct lx_thread *t)
{
	const struct gmem_acct *a = m->mm->mem.acct;
	const struct lx_mm *now = t->p->mm;
	for (int k = 0; k < 2; k++) {
		uint64_t n = a->faults[k] - m->f[k];
		m->f[k] = a->faults[k];
		if (now && now != m->mm)
			n += now->mem.acct->faults[k];
		lx_k.faults[i][k] += n;
		t->minflt += n;
		t->p->minflt += n;
	}
}

static void faults_end(struct fault_mark *m, unsigned i, struct lx_thread *t)
{
	faults_take(m, i, t);
	lx_mm_put(m->mm);
}

/* Hand a stop of thread t on hart h to the kernel. */
static void handle_trap(const struct linux_opts *o, struct lx_thread *t, struct hart *h)
{
	struct lx *p = t->p;
	p->h = h;
	p->t = t;
	if (o->on_trap)
		o->on_trap(h);
	if (hart_storm_enter(h, h->cause, h->tval, 0))
		lx_trap_storm(p);
	else if (h->cause == CAUSE_USER_ECALL)
		lx_syscall(p);
	else
		lx_trap(p);
}

/* Hart i's turn: it runs threads until its time reaches end (~0: until
 * its thread waits or ends, or a second thread appears). TURN_ON when
 * the turn is over, TURN_WAIT when the hart found nothing to run (and
 * idled to end), else the run's exit status (a limit, an interruption). */
static int turn(struct run *r, unsigned i, uint64_t end)
{
	const struct linux_opts *o = r->o;
	struct hart *h = lx_k.cpu[i];
	for (;;) {
		if (r->init->exited)
			return TURN_ON;
		struct lx_thread *t = lx_k.on[i];
		/* off the hart: a thread that waits, ended, may no longer run
		 * here, yielded, or used its slice while another waits */
		if (t && (t->state != LX_T_RUN || !(t->affinity & (1ull << i)) || t->yield ||
			  (exact_ns(i) >= t->slice_end && queued_for(i)))) {
			t->yield = false;
			int dead = t->state == LX_T_DEAD;   /* take_off frees it */
			take_off(i);
			if (!dead)
				lx_enqueue(t);   /* only if it may still run */
			t = NULL;
		}
		if (!t) {
			if (!(t = queued_for(i))) {
				if (end != ~0ull)
					idle_until(i, end);
				return TURN_WAIT;
			}
			put_on(t, i);
		}
		struct lx *p = t->p;
		p->h = h;
		p->t = t;
		if (((t->sigpending | p->sigpending) & ~t->sigmask) || t->restore_mask) {
			struct fault_mark fm;
			faults_begin(&fm, p);
			lx_signal_return(p);   /* the frame's first touches */
			faults_end(&fm, i, t);
			continue;   /* it may have died */
		}

		uint64_t budget = LINUX_RUN_CHUNK;
		if (o->max_insns) {
			uint64_t used = all_insns() - r->start + (idle_traps() - r->idle_start);
			if (used >= o->max_insns) {
				lx_warn(p, "rvpmu: instruction limit %llu reached",
					(unsigned long long)o->max_insns);
				return LINUX_EXIT_MAX_INSNS;
			}
			if (o->max_insns - used < budget)
				budget = o->max_insns - used;
		}
		if (o->tick) {
			uint64_t k = o->tick(o->tick_ctx, h);
			if (k && k < budget)
				budget = k;
		}
		if (o->progress) {
			uint64_t k = o->progress(NULL, h);
			if (k && k < budget)
				budget = k;
		}
		if (o->stop && *o->stop)  /* after the hooks: the display is erased */
			return interrupted(r);
		if (end != ~0ull) {
			uint64_t left = insns_until(i, end);
			if (!left)
				return TURN_ON;
			if (left < budget)
				budget = left;
			if (lx_k.rq && (left = insns_until(i, t->slice_end)) && left < budget)
				budget = left;
		}
		/* budget, a state sync, or a WFI that retired (nothing to
		 * wait for) all just go on */
		struct fault_mark fm;
		struct gmem_acct *a = faults_begin(&fm, p);
		if (hart_run(h, budget) == STOP_TRAP) {
			faults_take(&fm, i, t);
			a->in_kernel = true;   /* its first touches are kernel faults */
			handle_trap(o, t, h);
			a->in_kernel = false;
		}
		faults_end(&fm, i, t);
		if (end == ~0ull && lx_k.nlive > 1)
			return TURN_ON;   /* a second thread: rounds from now on */
	}
}

/* RVPMU_JIT_STATS in the environment: say how much was translated, on
 * all harts (the tests use it to know the translator really ran), and
 * where the run left translated code (bench/real.py reports it). */
static void jit_say(void *p, const char *line)
{
	lx_warn(p, "%s", line);
}

static void jit_report(struct lx *p)
{
	if (getenv("RVPMU_JIT_STATS"))
		hart_jit_report((const struct hart *const *)lx_k.cpu, lx_k.ncpus, all_insns(), jit_say, p);
}

/* The run ends before the program does (limit, interruption). */
static int cut_short(int status)
{
	for (struct lx *p = lx_k.procs; p; p = p->next)
		lx_fmap_release_all(p);
	jit_report(lx_k.procs);
	return status;
}

int linux_run(struct hart *h, const struct linux_opts *o)
{
	struct run r = {.o = o, .init = lx_k.procs};
	if (!r.init || lx_k.cpu[0] != h)
		return 1;
	/* --max-insns counts retired instructions and the traps taken with
	 * none retired since the trap before (h->storm.idle) */
	r.start = all_insns();
	for (unsigned i = 0; i < lx_k.ncpus; i++)
		jprof_on(lx_k.cpu[i]);
	r.idle_start = idle_traps();
	lx_k.stop = o->stop;
	lx_k.o = o;
	while (!r.init->exited) {
		if (o->stop && *o->stop)   /* a wait on the host may have ended for it */
			return cut_short(interrupted(&r));
		if (lx_k.nlive <= 1) {
			/* one thread: it runs where it is until it waits or ends,
			 * or makes another; the others' clocks catch up after */
			struct lx_thread *t = lx_k.threads;
			while (t && t->state == LX_T_DEAD)
				t = t->next;
			int st = TURN_WAIT;
			if (t && t->state == LX_T_RUN)
				st = turn(&r, t->cpu >= 0 ? (unsigned)t->cpu : lowest_cpu(t), ~0ull);
			if (st >= 0)
				return cut_short(st);
			/* (a thread that left its hart for its affinity is queued:
			 * the next pass puts it on one it may use) */
			if (lx_k.nlive <= 1 && st == TURN_WAIT && !r.init->exited && !lx_k.rq &&
			    !all_wait(r.init))
				break;
			for (unsigned i = 0; i < lx_k.ncpus; i++)
				if (exact_ns(i) > lx_k.now)
					lx_k.now = exact_ns(i);
			continue;
		}
		uint64_t ticks = (uint64_t)((unsigned __int128)LX_QUANTUM * NS / lx_k.cpu[0]->insn_hz);
		uint64_t end = lx_k.now + (ticks ? ticks : 1);
		int waited = 1;
		for (unsigned i = 0; i < lx_k.ncpus && !r.init->exited; i++) {
			idle_until(i, lx_k.now);
			int st = turn(&r, i, end);
			if (st >= 0)
				return cut_short(st);
			if (st != TURN_WAIT)
				waited = 0;
			lx_k.cpu[i]->resv_addr = ~0ull;   /* a turn's end ends its reservation */
		}
		lx_k.now = end;
		expire(end);
		if (waited && !lx_k.rq && !r.init->exited && !all_wait(r.init))
			break;
	}
	jit_report(r.init);
	return r.init->status;
}

void linux_sw_read(const struct hart *h, struct linux_sw *out)
{
	int i = lx_cpu_of(h);
	*out = (struct linux_sw){ .sleep_ns = lx_k.asleep_ns };
	if (i >= 0) {
		out->switches = lx_k.nvcsw[i] + lx_k.nivcsw[i];
		out->faults_user = lx_k.faults[i][0];
		out->faults_kernel = lx_k.faults[i][1];
	}
}

unsigned lx_nthreads(void)
{
	return lx_k.nlive;
}
