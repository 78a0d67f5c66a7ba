/* Threads: clone and clone3 with CLONE_THREAD (what glibc's
 * pthread_create asks for), thread exit and exit_group, the tid address
 * and robust list a thread leaves behind, and the scheduling calls
 * (affinity over the modelled harts, getcpu, sched_yield, membarrier). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lx.h"

/* include/uapi/linux/sched.h */
#define CLONE_VM             0x00000100ull
#define CLONE_FS             0x00000200ull
#define CLONE_FILES          0x00000400ull
#define CLONE_SIGHAND        0x00000800ull
#define CLONE_PIDFD          0x00001000ull
#define CLONE_VFORK          0x00004000ull
#define CLONE_PARENT         0x00008000ull
#define CLONE_THREAD         0x00010000ull
#define CLONE_SYSVSEM        0x00040000ull
#define CLONE_SETTLS         0x00080000ull
#define CLONE_PARENT_SETTID  0x00100000ull
#define CLONE_CHILD_CLEARTID 0x00200000ull
#define CLONE_DETACHED       0x00400000ull
#define CLONE_CHILD_SETTID   0x01000000ull
#define CSIGNAL              0xffull
/* what rvpmu does: the rest (namespaces, ptrace, pidfds, cgroups) is EINVAL */
#define CLONE_KNOWN (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK | \
		     CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | \
		     CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | CLONE_DETACHED | \
		     CLONE_CHILD_SETTID)

/* robust futexes (include/uapi/linux/futex.h) */
#define FUTEX_WAITERS    0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK   0x3fffffffu
#define ROBUST_LIST_LIMIT 2048

/* membarrier commands (include/uapi/linux/membarrier.h) */
enum {
	MB_QUERY = 0, MB_GLOBAL = 1, MB_GLOBAL_EXPEDITED = 2, MB_REGISTER_GLOBAL_EXPEDITED = 4,
	MB_PRIVATE_EXPEDITED = 8, MB_REGISTER_PRIVATE_EXPEDITED = 16,
};

struct lx_thread *lx_thread_new(struct lx *p, int tid)
{
	struct lx_thread *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->p = p;
	t->tid = tid;
	t->cpu = -1;
	t->affinity = ~0ull;
	t->ss_flags = LX_SS_DISABLE;
	struct lx_thread **q = &lx_k.threads;
	while (*q)
		q = &(*q)->next;
	*q = t;
	p->nthreads++;
	p->nstructs++;
	lx_k.nlive++;
	return t;
}

void lx_thread_free(struct lx_thread *t)
{
	for (struct lx_thread **q = &lx_k.threads; *q; q = &(*q)->next)
		if (*q == t) {
			*q = t->next;
			break;
		}
	lx_dequeue(t);
	lx_futex_unqueue(t);
	struct lx *p = t->p;
	p->dead_ns += t->run_ns;
	free(t->w.fds);
	free(t);
	if (!--p->nstructs && p->reaped)
		lx_process_free(p);
}

struct lx_thread *lx_thread_by_tid(int tid)
{
	for (struct lx_thread *t = lx_k.threads; t; t = t->next)
		if (t->tid == tid && t->state != LX_T_DEAD)
			return t;
	return NULL;
}

/* A lock word at uaddr held by the dying thread t: mark its owner dead
 * and wake a waiter (kernel/futex/core.c handle_futex_death). */
static void owner_died(struct lx *p, struct lx_thread *t, uint64_t uaddr)
{
	uint32_t w;
	if ((uaddr & 3) || lx_get(p, uaddr, &w, 4) || (w & FUTEX_TID_MASK) != (uint32_t)t->tid)
		return;
	uint32_t nw = (w & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (!lx_put(p, uaddr, &nw, 4) && (w & FUTEX_WAITERS))
		lx_futex_wake_addr(p, uaddr, 1);
}

/* exit_robust_list: the locks the thread still held, on the list glibc
 * keeps ({next, futex_offset, list_op_pending}; bit 0 of a pointer
 * marks a PI lock). */
static void robust_release(struct lx *p, struct lx_thread *t)
{
	uint64_t head = t->robust_list, hd[3];
	if (!head || lx_get(p, head, hd, sizeof(hd)))
		return;
	uint64_t e = hd[0] & ~1ull, pending = hd[2] & ~1ull;
	int64_t off = (int64_t)hd[1];
	for (int n = 0; e != head && n < ROBUST_LIST_LIMIT; n++) {
		uint64_t next;
		if (lx_get(p, e, &next, 8))
			break;
		if (e != pending)
			owner_died(p, t, e + (uint64_t)off);
		e = next & ~1ull;
	}
	if (pending)
		owner_died(p, t, pending + (uint64_t)off);
}

/* What a thread leaves behind as it ends (mm_release): its robust locks,
 * and the zero at its tid address, with a wake for pthread_join. */
static void release(struct lx *p, struct lx_thread *t)
{
	robust_release(p, t);
	uint32_t zero = 0;
	if (t->clear_child_tid && !lx_put(p, t->clear_child_tid, &zero, 4))
		lx_futex_wake_addr(p, t->clear_child_tid, 1);
	t->clear_child_tid = 0;
}

/* Thread t is gone (its hart drops it at its next look, or now). */
void lx_thread_end(struct lx_thread *t)
{
	struct lx *p = t->p;
	if (t->state == LX_T_DEAD)
		return;
	if (t->state == LX_T_WAIT && t->w.kind == LX_W_FUTEX)
		lx_futex_unqueue(t);
	lx_task_change(LINUX_TASK_EXIT, t, NULL);
	t->state = LX_T_DEAD;
	lx_dequeue(t);
	p->nthreads--;
	lx_k.nlive--;
	if (t->cpu < 0 && t != p->t)
		lx_thread_free(t);
}

void lx_thread_exit(struct lx *p, struct lx_thread *t, int code)
{
	release(p, t);
	lx_thread_end(t);
	if (!p->nthreads && !p->exited)
		lx_process_exit(p, code & 0xff);
}

void lx_group_exit(struct lx *p, int status)
{
	if (p->exited)
		return;
	for (struct lx_thread *t = lx_k.threads, *n; t; t = n) {
		n = t->next;
		if (t->p == p && t->state != LX_T_DEAD) {
			release(p, t);
			lx_thread_end(t);
		}
	}
	lx_process_exit(p, status);
}

/* A new thread of p, as the calling thread's copy: it returns 0 from the
 * call on its own stack (sp) with its own tp (CLONE_SETTLS). */
static long new_thread(struct lx *p, uint64_t flags, uint64_t sp, uint64_t ptid, uint64_t tls,
		       uint64_t ctid)
{
	if ((flags & (CLONE_VM | CLONE_SIGHAND)) != (CLONE_VM | CLONE_SIGHAND) || (flags & CLONE_VFORK))
		return -EINVAL;
	int tid = lx_k.next_id;
	if ((flags & CLONE_PARENT_SETTID) && lx_put(p, ptid, &tid, 4))
		return -EFAULT;
	if ((flags & CLONE_CHILD_SETTID) && lx_put(p, ctid, &tid, 4))
		return -EFAULT;
	struct lx_thread *c = lx_thread_new(p, tid);
	if (!c)
		return -ENOMEM;
	lx_k.next_id++;
	lx_thread_start(p, c, flags, sp, tls, ctid);
	return tid;
}

void lx_thread_start(struct lx *p, struct lx_thread *c, uint64_t flags, uint64_t sp, uint64_t tls,
		     uint64_t ctid)
{
	const struct hart *h = p->h;
	const struct lx_thread *self = p->t;
	memcpy(c->x, h->x, sizeof(c->x));
	memcpy(c->f, h->f, sizeof(c->f));
	c->fflags = h->fflags;
	c->frm = h->frm;
	c->pc = h->pc + 4;
	c->x[10] = 0;
	if (sp)
		c->x[2] = sp;
	if (flags & CLONE_SETTLS)
		c->x[4] = tls;
	c->sigmask = self->sigmask;
	c->affinity = self->affinity;
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM) {
		/* Linux's copy_process: a thread sharing the memory gets no
		 * alternate signal stack, a fork or vfork child keeps it */
		c->ss_sp = self->ss_sp;
		c->ss_size = self->ss_size;
		c->ss_flags = self->ss_flags;
	}
	memcpy(c->comm, self->comm, sizeof(c->comm));
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = ctid;
	c->born_ns = lx_now_ns(p);
	lx_perf_inherit(self, c, flags & CLONE_THREAD);
	lx_enqueue(c);
	lx_task_change(LINUX_TASK_NEW, c, self);
}

/* clone(flags, stack, parent_tid, tls, child_tid): riscv's argument
 * order (CONFIG_CLONE_BACKWARDS). */
static long sys_clone(struct lx *p, uint64_t flags, uint64_t sp, uint64_t ptid, uint64_t tls,
		      uint64_t ctid)
{
	if ((flags & ~(CLONE_KNOWN | CSIGNAL)) || ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM)) ||
	    ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND)) || (flags & CSIGNAL) > LX_NSIG)
		return -EINVAL;
	if (flags & CLONE_THREAD)
		return new_thread(p, flags, sp, ptid, tls, ctid);
	return lx_fork(p, flags, sp, ptid, tls, ctid);
}

/* clone3(struct clone_args *, size): the same, the signal in its own
 * field and the stack as a range. */
static long sys_clone3(struct lx *p, uint64_t ua, uint64_t size)
{
	uint64_t ca[11] = { 0 };  /* flags pidfd child_tid parent_tid exit_signal stack
				     stack_size tls set_tid set_tid_size cgroup */
	if (size < 64 || size > GPAGE_SIZE)
		return -EINVAL;
	const uint8_t *b = lx_rptr(p, ua, size);
	if (!b)
		return -EFAULT;
	for (uint64_t i = sizeof(ca); i < size; i++)
		if (b[i])
			return -E2BIG;
	memcpy(ca, b, size < sizeof(ca) ? size : sizeof(ca));
	uint64_t flags = ca[0], sig = ca[4], stack = ca[5], ssize = ca[6];
	if ((flags & CSIGNAL) || sig > LX_NSIG || (flags & ~CLONE_KNOWN) || ca[9] || ca[1])
		return -EINVAL;
	if ((stack == 0) != (ssize == 0))
		return -EINVAL;
	if (sig && (flags & (CLONE_THREAD | CLONE_PARENT)))
		return -EINVAL;
	return sys_clone(p, flags | sig, stack ? stack + ssize : 0, ca[3], ca[7], ca[2]);
}

/* A thread pid names for the scheduling calls: 0 is the caller. */
static struct lx_thread *sched_target(struct lx *p, int64_t pid)
{
	return pid == 0 ? p->t : pid > 0 && pid <= INT32_MAX ? lx_thread_by_tid((int)pid) : NULL;
}

static long sys_setaffinity(struct lx *p, int64_t pid, uint64_t len, uint64_t ua)
{
	struct lx_thread *t = sched_target(p, pid);
	if (!t)
		return -ESRCH;
	uint64_t mask = 0;
	if (lx_get(p, ua, &mask, len < 8 ? len : 8))
		return -EFAULT;
	mask &= lx_cpu_mask();
	if (!mask)
		return -EINVAL;
	t->affinity = mask;   /* a thread on a hart it may not use leaves it (cpus.c) */
	return 0;
}

static long sys_membarrier(struct lx *p, int64_t cmd, uint64_t flags)
{
	/* every hart sees every store at once, in one order: a barrier has
	 * nothing to wait for, but the registration rules stay Linux's */
	if (flags)
		return -EINVAL;
	switch (cmd) {
	case MB_QUERY:
		return MB_GLOBAL | MB_GLOBAL_EXPEDITED | MB_REGISTER_GLOBAL_EXPEDITED |
		       MB_PRIVATE_EXPEDITED | MB_REGISTER_PRIVATE_EXPEDITED;
	case MB_GLOBAL:
		return 0;
	case MB_REGISTER_GLOBAL_EXPEDITED: case MB_REGISTER_PRIVATE_EXPEDITED:
		p->membarrier |= (unsigned)cmd;
		return 0;
	case MB_GLOBAL_EXPEDITED:
		return 0;
	case MB_PRIVATE_EXPEDITED:
		return p->membarrier & MB_REGISTER_PRIVATE_EXPEDITED ? 0 : -EPERM;
	}
	return -EINVAL;
}

long lx_sys_thread(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct lx_thread *t = p->t;
	*handled = true;
	switch (nr) {
	case NR_clone:
		return sys_clone(p, a[0], a[1], a[2], a[3], a[4]);
	case NR_clone3:
		return sys_clone3(p, a[0], a[1]);
	case NR_exit:
		lx_thread_exit(p, t, (int)a[0]);
		return 0;
	case NR_exit_group:
		lx_group_exit(p, (int)(a[0] & 0xff));
		return 0;
	case NR_set_tid_address:
		t->clear_child_tid = a[0];
		return t->tid;
	case NR_set_robust_list:
		if (a[1] != 24)
			return -EINVAL;
		t->robust_list = a[0];
		return 0;
	case NR_get_robust_list: {
		struct lx_thread *o = sched_target(p, (int32_t)a[0]);
		uint64_t len = 24;
		if (!o)
			return -ESRCH;
		if (lx_put(p, a[1], &o->robust_list, 8) || lx_put(p, a[2], &len, 8))
			return -EFAULT;
		return 0;
	}
	case NR_gettid:
		return t->tid;
	case NR_sched_yield:
		t->yield = true;   /* to the back of the queue, when others wait */
		return 0;
	case NR_sched_setaffinity:
		return sys_setaffinity(p, (int32_t)a[0], a[1], a[2]);
	case NR_sched_getaffinity: {
		struct lx_thread *o = sched_target(p, (int32_t)a[0]);
		if (!o)
			return -ESRCH;
		if (a[1] < 8 || (a[1] & 7))
			return -EINVAL;
		uint64_t mask = o->affinity & lx_cpu_mask();
		return lx_put(p, a[2], &mask, 8) ? -EFAULT : 8;
	}
	case NR_getcpu: {
		uint32_t cpu = (uint32_t)t->cpu, node = 0;
		if ((a[0] && lx_put(p, a[0], &cpu, 4)) || (a[1] && lx_put(p, a[1], &node, 4)))
			return -EFAULT;
		return 0;
	}
	case NR_membarrier:
		return sys_membarrier(p, (int32_t)a[0], a[1]);
	}
	*handled = false;
	return 0;
}
