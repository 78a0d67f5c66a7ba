/* The end of processes and what others see of it: a process whose last
 * thread ends gives back its address space and files at once and is a
 * zombie until its parent waits for it (wait4, waitid), which its exit
 * signal (SIGCHLD) announces; an orphan, or the child of a parent that
 * ignores SIGCHLD, is reaped at once. Also kill between processes and
 * the process groups and sessions a shell needs. */
#include <errno.h>
#include <unistd.h>
#include "lx.h"

/* wait options (include/uapi/linux/wait.h) */
#define WNOHANG     0x00000001
#define WUNTRACED   0x00000002
#define WEXITED     0x00000004
#define WCONTINUED  0x00000008
#define WNOWAIT     0x01000000
#define WNOTHREAD   0x20000000
#define WALL        0x40000000
#define WCLONE      0x80000000u
enum { P_ALL = 0, P_PID = 1, P_PGID = 2 };

#define SA_NOCLDWAIT 2u

void lx_reap(struct lx *p)
{
	p->reaped = true;
	if (!p->nstructs)
		lx_process_free(p);
}

struct lx *lx_process_by_pid(int pid)
{
	for (struct lx *p = lx_k.procs; p; p = p->next)
		if (p->pid == pid && !p->reaped)
			return p;
	return NULL;
}

void lx_process_exit(struct lx *p, int status)
{
	if (p->exited)
		return;
	p->exited = true;
	p->status = status;
	if (p->vfork_parent) {
		lx_wake(p->vfork_parent, LX_WOKE_EVENT, p->pid);
		p->vfork_parent = NULL;
	}
	/* what it held goes now: pipes see their writers close (file
	 * mappings go with the address space's last user) */
	lx_mm_put(p->mm);
	p->mm = NULL;
	lx_fd_put(p->files);
	p->files = NULL;
	for (struct lx *c = lx_k.procs, *n; c; c = n) {
		n = c->next;
		if (c->parent != p)
			continue;
		c->parent = NULL;   /* init's now: it reaps them */
		c->ppid = 1;
		if (c->pdeathsig)
			lx_signal_send(c, NULL, c->pdeathsig, (struct lx_sigsrc){ p->pid, LX_SI_USER, 0 });
		if (c->exited)
			lx_reap(c);
	}
	struct lx *par = p->parent;
	if (!par || par->exited) {
		if (p != lx_k.procs)   /* the first process's status is the run's */
			lx_reap(p);
		return;
	}
	/* the parent's waits look again before its signal could end them */
	for (struct lx_thread *t = lx_k.threads, *n; t; t = n) {
		n = t->next;
		if (t->p == par && t->state == LX_T_WAIT && t->w.kind == LX_W_CHILD)
			lx_wake(t, LX_WOKE_EVENT, 0);
	}
	struct lx_sigaction *sa = &par->sa[LX_SIGCHLD];
	if (p->exit_signal)
		lx_signal_send(par, NULL, p->exit_signal, (struct lx_sigsrc){
			p->pid, p->term_sig ? LX_CLD_KILLED : LX_CLD_EXITED,
			p->term_sig ? p->term_sig : status & 0xff });
	if (p->exit_signal == LX_SIGCHLD && (sa->handler == 1 || (sa->flags & SA_NOCLDWAIT)))
		lx_reap(p);   /* nobody will wait for it */
}

/* Does child c match wait4's pid (or waitid's idtype and id)? */
static bool matches(const struct lx *p, const struct lx *c, int idtype, int64_t id)
{
	switch (idtype) {
	case P_ALL: return true;
	case P_PID: return c->pid == id;
	default: return c->pgid == (id ? id : p->pgid);
	}
}

/* A zombie child of p to report, NULL (none yet: *any says whether p
 * has children that match at all). */
static struct lx *zombie(struct lx *p, int idtype, int64_t id, bool *any)
{
	*any = false;
	for (struct lx *c = lx_k.procs; c; c = c->next)
		if (c->parent == p && !c->reaped && matches(p, c, idtype, id)) {
			*any = true;
			if (c->exited)
				return c;
		}
	return NULL;
}

/* struct rusage of a reaped child: its CPU time, all user time here. */
static int put_rusage(struct lx *p, uint64_t ua, const struct lx *c)
{
	uint64_t ru[18] = { 0 };
	uint64_t ns = c ? c->dead_ns + c->child_ns : 0;
	ru[0] = ns / 1000000000u;
	ru[1] = ns % 1000000000u / 1000;
	ru[8] = c ? c->minflt + c->child_minflt : 0;   /* ru_minflt */
	return ua && lx_put(p, ua, ru, sizeof(ru)) ? -EFAULT : 0;
}

/* The child is waited for: its times count to p's children's. */
static void collect(struct lx *p, struct lx *c)
{
	p->child_ns += c->dead_ns + c->child_ns;
	p->child_minflt += c->minflt + c->child_minflt;
	lx_reap(c);
}

static long sys_wait4(struct lx *p, int64_t pid, uint64_t ustatus, uint64_t options, uint64_t ru)
{
	if (options & ~(uint64_t)(WNOHANG | WUNTRACED | WCONTINUED | WNOTHREAD | WALL | WCLONE))
		return -EINVAL;
	int idtype = pid == -1 ? P_ALL : pid > 0 ? P_PID : P_PGID;
	bool any;
	struct lx *c = zombie(p, idtype, pid > 0 ? pid : -pid, &any);
	if (!c) {
		if (!any)
			return -ECHILD;
		return options & WNOHANG ? 0 : lx_wait_begin(p, LX_W_CHILD, ~0ull, true);
	}
	/* exit code << 8, or the signal that killed it */
	int32_t ws = c->term_sig ? c->term_sig : (c->status & 0xff) << 8;
	if ((ustatus && lx_put(p, ustatus, &ws, 4)) || put_rusage(p, ru, c))
		return -EFAULT;
	long r = c->pid;
	collect(p, c);
	return r;
}

static long sys_waitid(struct lx *p, const uint64_t *a)
{
	int idtype = (int)a[0];
	int64_t id = (int32_t)a[1];
	uint64_t options = a[3];
	if (idtype != P_ALL && idtype != P_PID && idtype != P_PGID)
		return -EINVAL;
	if (!(options & (WEXITED | WUNTRACED | WCONTINUED)) ||
	    (options & ~(uint64_t)(WNOHANG | WUNTRACED | WEXITED | WCONTINUED | WNOWAIT | WNOTHREAD | WALL | WCLONE)))
		return -EINVAL;
	bool any;
	struct lx *c = options & WEXITED ? zombie(p, idtype, id, &any) : NULL;
	if (!(options & WEXITED))
		zombie(p, idtype, id, &any);
	uint8_t si[128] = { 0 };
	if (!c) {
		if (!any)
			return -ECHILD;
		if (!(options & WNOHANG))
			return lx_wait_begin(p, LX_W_CHILD, ~0ull, true);
		return a[2] && lx_put(p, a[2], si, sizeof(si)) ? -EFAULT : 0;  /* si_pid 0 */
	}
	int32_t f[7] = { LX_SIGCHLD, 0, c->term_sig ? LX_CLD_KILLED : LX_CLD_EXITED, 0, c->pid,
			 (int32_t)getuid(), c->term_sig ? c->term_sig : c->status & 0xff };
	for (int i = 0; i < 7; i++)
		__builtin_memcpy(si + 4 * i, &f[i], 4);
	if ((a[2] && lx_put(p, a[2], si, sizeof(si))) || put_rusage(p, a[4], c))
		return -EFAULT;
	if (!(options & WNOWAIT))
		collect(p, c);
	return 0;
}

/* kill(pid, sig): one process (a thread's id names its process), the
 * caller's group (0), every process but the caller (-1), a group (-pgid). */
static long sys_kill(struct lx *p, int64_t pid, int64_t sig)
{
	if (sig < 0 || sig > LX_NSIG)
		return -EINVAL;
	const struct lx_sigsrc src = { p->pid, LX_SI_USER, 0 };
	if (pid > 0) {
		const struct lx_thread *t = pid <= INT32_MAX ? lx_thread_by_tid((int)pid) : NULL;
		struct lx *q = t ? t->p : lx_process_by_pid((int)pid);
		if (!q)
			return -ESRCH;
		lx_signal_send(q, NULL, (int)sig, src);
		return 0;
	}
	int64_t group = pid == 0 ? p->pgid : -pid;
	int n = 0;
	for (struct lx *q = lx_k.procs, *next; q; q = next) {
		next = q->next;
		if (q->exited || (pid == -1 ? q == p : q->pgid != group))
			continue;
		lx_signal_send(q, NULL, (int)sig, src);
		n++;
	}
	return n ? 0 : -ESRCH;
}

/* setpgid: the caller or a child of it, into a group of its session. */
static long sys_setpgid(struct lx *p, int64_t pid, int64_t pgid)
{
	struct lx *q = pid ? lx_process_by_pid((int)pid) : p;
	if (pgid < 0)
		return -EINVAL;
	if (!q || (q != p && q->parent != p))
		return -ESRCH;
	if (q->sid != p->sid || q->sid == q->pid)
		return -EPERM;
	if (!pgid)
		pgid = q->pid;
	bool exists = pgid == q->pid;
	for (struct lx *r = lx_k.procs; r && !exists; r = r->next)
		exists = !r->exited && r->pgid == pgid && r->sid == p->sid;
	if (!exists)
		return -EPERM;
	q->pgid = (int)pgid;
	return 0;
}

long lx_sys_proc(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	struct lx *q;
	*handled = true;
	switch (nr) {
	case NR_wait4:
		return sys_wait4(p, (int32_t)a[0], a[1], a[2], a[3]);
	case NR_waitid:
		return sys_waitid(p, a);
	case NR_kill:
		return sys_kill(p, (int32_t)a[0], (int32_t)a[1]);
	case NR_setpgid:
		return sys_setpgid(p, (int32_t)a[0], (int32_t)a[1]);
	case NR_getpgid: case NR_getsid:
		if (!(q = (int32_t)a[0] ? lx_process_by_pid((int32_t)a[0]) : p))
			return -ESRCH;
		return nr == NR_getpgid ? q->pgid : q->sid;
	case NR_setsid:
		if (p->pgid == p->pid)
			return -EPERM;   /* a group leader cannot start a session */
		p->sid = p->pgid = p->pid;
		return p->pid;
	}
	*handled = false;
	return 0;
}
