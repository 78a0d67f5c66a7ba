/* Signals: dispositions (per process), masks and alternate stacks (per
 * thread), signals sent to a process or to one of its threads, the
 * riscv64 rt_sigframe (arch/riscv/kernel/signal.c) and default
 * actions, and the mapping of hart exceptions to the signals Linux sends
 * (arch/riscv/kernel/traps.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lx.h"

#define BIT(sig) (1ull << ((sig) - 1))
#define UNBLOCKABLE (BIT(LX_SIGKILL) | BIT(LX_SIGSTOP))
#define SIG_DFL_ 0
#define SIG_IGN_ 1

/* siginfo si_code values (include/uapi/asm-generic/siginfo.h). */
enum {
	SEGV_MAPERR = 1, SEGV_ACCERR = 2,
	BUS_ADRALN = 1, BUS_ADRERR = 2, ILL_ILLOPC = 1, TRAP_BRKPT = 1,
};

/* struct rt_sigframe { siginfo_t info; struct ucontext uc; } offsets. */
enum {
	SIGINFO_SIZE = 128,
	UC_STACK = 16, UC_SIGMASK = 40, UC_MCONTEXT = 176, /* 16-aligned */
	SC_FPREGS = 256,               /* after user_regs_struct */
	FP_STATE_SIZE = 528,           /* union __riscv_fp_state (q_ext) */
	UC_SIZE = UC_MCONTEXT + SC_FPREGS + FP_STATE_SIZE,
	FRAME_SIZE = SIGINFO_SIZE + UC_SIZE,
	MINSIGSTKSZ_ = 2048,
};

static const char *const signames[LX_NSIG + 1] = {
	[1] = "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
	"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
	"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
	"SIGSYS",
};

const char *lx_signame(int sig)
{
	static char buf[16];
	if (sig > 0 && sig <= LX_NSIG && signames[sig])
		return signames[sig];
	snprintf(buf, sizeof(buf), "SIG%d", sig);
	return buf;
}

static bool default_ignored(int sig)
{
	/* Ign and Stop default actions: a lone user-mode process cannot be
	 * stopped, so stop signals are ignored too. */
	return sig == LX_SIGCHLD || sig == LX_SIGURG || sig == LX_SIGWINCH ||
	       sig == LX_SIGCONT || sig == LX_SIGSTOP || sig == LX_SIGTSTP ||
	       sig == LX_SIGTTIN || sig == LX_SIGTTOU;
}

void lx_die(struct lx *p, int sig)
{
	p->term_sig = sig;
	lx_group_exit(p, LINUX_EXIT_SIGNAL_BASE + sig);
}

static void report_fault(struct lx *p, int sig)
{
	struct hart *h = p->h;
	char dis[128] = "<unreadable>";
	uint16_t lo;
	uint32_t raw = 0;
	struct gmem *m = &p->mm->mem;
	if (gmem_check(m, h->pc, 2, GP_X) || gmem_check(m, h->pc, 2, GP_R)) {
		memcpy(&lo, m->base + h->pc, 2);
		raw = lo;
		bool ok = true;
		if (insn_length(lo) == 4) {
			uint16_t hi16;
			ok = gmem_check(m, h->pc + 2, 2, GP_X) || gmem_check(m, h->pc + 2, 2, GP_R);
			if (ok) {
				memcpy(&hi16, m->base + h->pc + 2, 2);
				raw |= (uint32_t)hi16 << 16;
			}
		}
		if (ok) {
			char d[96];
			insn_disasm(d, sizeof(d), raw, h->pc);
			snprintf(dis, sizeof(dis), insn_length(lo) == 4 ? "%08x %s" : "%04x %s", raw, d);
		}
	}
	lx_warn(p, "rvpmu: %s: fatal signal %s at pc 0x%llx: %s (cause %llu), tval 0x%llx: %s",
		p->name, lx_signame(sig), (unsigned long long)h->pc, hart_cause_name(h->cause, 0),
		(unsigned long long)h->cause, (unsigned long long)h->tval, dis);
}

static void put32(uint8_t *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }
static void put64(uint8_t *b, size_t off, uint64_t v) { memcpy(b + off, &v, 8); }
static uint64_t get64(const uint8_t *b, size_t off) { uint64_t v; memcpy(&v, b + off, 8); return v; }

static bool on_altstack(const struct lx_thread *t, uint64_t sp)
{
	return t->ss_size && sp > t->ss_sp && sp <= t->ss_sp + t->ss_size;
}

/* Build the rt_sigframe and enter the handler (setup_rt_frame). */
static bool enter_handler(struct lx *p, int sig, int code, uint64_t addr)
{
	struct hart *h = p->h;
	struct lx_thread *t = p->t;
	struct lx_sigaction *sa = &p->sa[sig];
	uint64_t sp = h->x[2];
	if ((sa->flags & LX_SA_ONSTACK) && t->ss_size && !(t->ss_flags & LX_SS_DISABLE) &&
	    !on_altstack(t, sp))
		sp = t->ss_sp + t->ss_size;
	uint64_t fa = (sp - FRAME_SIZE) & ~15ull;
	uint8_t f[FRAME_SIZE];
	memset(f, 0, sizeof(f));
	put32(f, 0, (uint32_t)sig);
	put32(f, 8, (uint32_t)code);
	if (sig == LX_SIGSEGV || sig == LX_SIGBUS || sig == LX_SIGILL || sig == LX_SIGTRAP) {
		put64(f, 16, addr);
	} else {
		const struct lx_sigsrc *src = &t->sigsrc[sig];
		put32(f, 8, (uint32_t)src->code);
		put32(f, 16, (uint32_t)src->pid);
		put32(f, 20, getuid());
		put32(f, 24, (uint32_t)src->status);
	}
	uint8_t *uc = f + SIGINFO_SIZE;
	put64(uc, UC_STACK, t->ss_sp);
	put32(uc, UC_STACK + 8, t->ss_size ? (on_altstack(t, h->x[2]) ? LX_SS_ONSTACK : t->ss_flags) : LX_SS_DISABLE);
	put64(uc, UC_STACK + 16, t->ss_size);
	/* after sigsuspend the handler returns to the mask from before it */
	put64(uc, UC_SIGMASK, t->restore_mask ? t->saved_mask : t->sigmask);
	uint8_t *mc = uc + UC_MCONTEXT;
	put64(mc, 0, h->pc);
	for (int i = 1; i < 32; i++)
		put64(mc, 8 * (size_t)i, h->x[i]);
	for (int i = 0; i < 32; i++)
		put64(mc, SC_FPREGS + 8 * (size_t)i, h->f[i]);
	put32(mc, SC_FPREGS + 256, (h->frm << 5) | h->fflags);
	if (lx_put(p, fa, f, sizeof(f)))
		return false;
	if (t->restore_mask) {
		t->restore_mask = false;
		t->sigmask = t->saved_mask;
	}

	t->sigmask |= sa->mask & ~UNBLOCKABLE;
	if (!(sa->flags & LX_SA_NODEFER))
		t->sigmask |= BIT(sig);
	h->x[1] = LX_TRAMPOLINE(p);
	h->x[2] = fa;
	h->x[10] = (uint64_t)sig;
	h->x[11] = fa;
	h->x[12] = fa + SIGINFO_SIZE;
	h->pc = sa->handler;
	if (sa->flags & LX_SA_RESETHAND)
		sa->handler = SIG_DFL_, sa->flags &= ~LX_SA_SIGINFO;
	return true;
}

/* The calling thread takes sig now: a fault (which cannot be blocked
 * or ignored), or a pending signal it does not block. */
static void raise_sig(struct lx *p, int sig, int code, bool fault, uint64_t addr)
{
	struct lx_sigaction *sa = &p->sa[sig];
	bool blocked = (p->t->sigmask & BIT(sig)) != 0;
	if (fault && (blocked || sa->handler == SIG_IGN_))
		sa->handler = SIG_DFL_;   /* force_sig */
	if (sa->handler == SIG_IGN_ || (sa->handler == SIG_DFL_ && default_ignored(sig)))
		return;
	if (sa->handler == SIG_DFL_ || sig == LX_SIGKILL) {
		if (fault)
			report_fault(p, sig);
		else if (p == lx_k.procs)   /* a child's parent learns it from wait */
			lx_warn(p, "rvpmu: %s: killed by signal %s", p->name, lx_signame(sig));
		lx_die(p, sig);
		return;
	}
	if (!enter_handler(p, sig, code, addr)) {
		lx_warn(p, "rvpmu: %s: cannot build the frame for %s: killed by SIGSEGV",
			p->name, lx_signame(sig));
		lx_die(p, LX_SIGSEGV);
	}
}

void lx_signal_return(struct lx *p)
{
	struct lx_thread *t = p->t;
	uint64_t ready = (t->sigpending | p->sigpending) & ~t->sigmask;
	if (ready) {
		int sig = __builtin_ctzll(ready) + 1;
		if (t->sigpending & BIT(sig)) {
			t->sigpending &= ~BIT(sig);
		} else {
			p->sigpending &= ~BIT(sig);
			t->sigsrc[sig] = p->sigsrc[sig];
		}
		raise_sig(p, sig, 0, false, 0);
	}
	if (t->restore_mask) {   /* sigsuspend whose signal built no frame */
		t->restore_mask = false;
		t->sigmask = t->saved_mask;
	}
}

/* arch/riscv/kernel/traps.c: which signal each exception sends, with
 * its si_code. */
static int fault_signal(const struct hart *h, int *code)
{
	switch (h->cause) {
	case CAUSE_MISALIGNED_FETCH: case CAUSE_MISALIGNED_LOAD: case CAUSE_MISALIGNED_STORE:
		*code = BUS_ADRALN;
		return LX_SIGBUS;
	case CAUSE_BREAKPOINT:
		*code = TRAP_BRKPT;
		return LX_SIGTRAP;
	case CAUSE_FETCH_ACCESS: case CAUSE_LOAD_ACCESS: case CAUSE_STORE_ACCESS:
		*code = SEGV_ACCERR;
		return LX_SIGSEGV;
	case CAUSE_FETCH_PAGE_FAULT: case CAUSE_LOAD_PAGE_FAULT: case CAUSE_STORE_PAGE_FAULT: {
		/* mapped but not permitted is ACCERR, unmapped is MAPERR */
		uint64_t a = h->tval;
		bool mapped = a < h->mem.size && h->mem.pflags[a >> GPAGE_SHIFT];
		*code = mapped ? SEGV_ACCERR : SEGV_MAPERR;
		return LX_SIGSEGV;
	}
	}
	*code = ILL_ILLOPC;   /* illegal instruction, and anything else */
	return LX_SIGILL;
}

void lx_trap(struct lx *p)
{
	struct hart *h = p->h;
	int code, sig = fault_signal(h, &code);
	if (h->cause == CAUSE_FETCH_PAGE_FAULT || h->cause == CAUSE_LOAD_PAGE_FAULT ||
	    h->cause == CAUSE_STORE_PAGE_FAULT) {
		/* a file mapping's page past the file's end is SIGBUS ADRERR,
		 * unless the file has grown since: then the access goes on */
		unsigned need = h->cause == CAUSE_FETCH_PAGE_FAULT ? GP_X :
				h->cause == CAUSE_LOAD_PAGE_FAULT ? GP_R : GP_W;
		int past_end = lx_fmap_fault(p, h->tval, need);
		if (past_end == LX_FMAP_RETRY)
			return;
		if (past_end == LX_FMAP_SIGBUS)
			sig = LX_SIGBUS, code = BUS_ADRERR;
	}
	uint64_t addr = sig == LX_SIGILL || sig == LX_SIGTRAP ? h->pc : h->tval;
	raise_sig(p, sig, code, true, addr);
}

void lx_trap_storm(struct lx *p)
{
	struct hart *h = p->h;
	char what[256], how[96];
	hart_storm_describe(h, what, sizeof(what));
	int nr = (int)h->x[17], code, sig = fault_signal(h, &code);
	if (h->cause == CAUSE_USER_ECALL)
		snprintf(how, sizeof(how), "the system call %s (%d)",
			 nr >= 0 && nr < LX_NSYSCALLS && lx_sysname[nr] ? lx_sysname[nr] : "?", nr);
	else
		snprintf(how, sizeof(how), "the %s handler at 0x%llx", lx_signame(sig),
			 (unsigned long long)p->sa[sig].handler);
	lx_warn(p, "rvpmu: %s: trap storm: %s; handled by %s", p->name, what, how);
	lx_group_exit(p, LINUX_EXIT_TRAP_STORM);
}

static long sys_rt_sigaction(struct lx *p, const uint64_t *a)
{
	int sig = (int)a[0];
	if (a[3] != 8 || sig < 1 || sig > LX_NSIG)
		return -EINVAL;
	if (a[2]) {
		uint64_t old[3] = { p->sa[sig].handler, p->sa[sig].flags, p->sa[sig].mask };
		if (lx_put(p, a[2], old, sizeof(old)))
			return -EFAULT;
	}
	if (a[1]) {
		uint64_t v[3];
		if (lx_get(p, a[1], v, sizeof(v)))
			return -EFAULT;
		if (sig == LX_SIGKILL || sig == LX_SIGSTOP)
			return -EINVAL;
		p->sa[sig].handler = v[0];
		p->sa[sig].flags = v[1];
		p->sa[sig].mask = v[2];
		/* Setting SIG_IGN discards a pending instance (POSIX). */
		if (v[0] == SIG_IGN_ || (v[0] == SIG_DFL_ && default_ignored(sig))) {
			p->sigpending &= ~BIT(sig);
			for (struct lx_thread *t = lx_k.threads; t; t = t->next)
				if (t->p == p)
					t->sigpending &= ~BIT(sig);
		}
	}
	return 0;
}

static long sys_rt_sigprocmask(struct lx *p, const uint64_t *a)
{
	struct lx_thread *t = p->t;
	if (a[3] != 8)
		return -EINVAL;
	uint64_t old = t->sigmask, set;
	if (a[1]) {
		if (lx_get(p, a[1], &set, 8))
			return -EFAULT;
		switch (a[0]) {
		case 0: t->sigmask |= set; break;      /* SIG_BLOCK */
		case 1: t->sigmask &= ~set; break;     /* SIG_UNBLOCK */
		case 2: t->sigmask = set; break;       /* SIG_SETMASK */
		default: return -EINVAL;
		}
		t->sigmask &= ~UNBLOCKABLE;
	}
	if (a[2] && lx_put(p, a[2], &old, 8)) {
		t->sigmask = old;
		return -EFAULT;
	}
	return 0;
}

static long sys_sigaltstack(struct lx *p, const uint64_t *a)
{
	struct lx_thread *t = p->t;
	bool on = on_altstack(t, p->h->x[2]);
	if (a[1]) {
		uint8_t o[24] = { 0 };
		put64(o, 0, t->ss_sp);
		put32(o, 8, t->ss_size ? (on ? LX_SS_ONSTACK : t->ss_flags) : LX_SS_DISABLE);
		put64(o, 16, t->ss_size);
		if (lx_put(p, a[1], o, sizeof(o)))
			return -EFAULT;
	}
	if (a[0]) {
		uint8_t s[24];
		if (lx_get(p, a[0], s, sizeof(s)))
			return -EFAULT;
		if (on)
			return -EPERM;
		uint32_t fl;
		memcpy(&fl, s + 8, 4);
		if (fl & ~(uint32_t)LX_SS_DISABLE)
			return -EINVAL;
		if (fl & LX_SS_DISABLE) {
			t->ss_sp = t->ss_size = 0;
			t->ss_flags = LX_SS_DISABLE;
		} else {
			uint64_t size = get64(s, 16);
			if (size < MINSIGSTKSZ_)
				return -ENOMEM;
			t->ss_sp = get64(s, 0);
			t->ss_size = size;
			t->ss_flags = 0;
		}
	}
	return 0;
}

static long sys_rt_sigreturn(struct lx *p)
{
	struct hart *h = p->h;
	uint8_t uc[UC_SIZE];
	if (lx_get(p, h->x[2] + SIGINFO_SIZE, uc, sizeof(uc))) {
		lx_warn(p, "rvpmu: %s: bad signal frame in rt_sigreturn: killed by SIGSEGV", p->name);
		lx_die(p, LX_SIGSEGV);
		return 0;
	}
	const uint8_t *mc = uc + UC_MCONTEXT;
	h->pc = get64(mc, 0);
	for (int i = 1; i < 32; i++)
		h->x[i] = get64(mc, 8 * (size_t)i);
	for (int i = 0; i < 32; i++)
		h->f[i] = get64(mc, SC_FPREGS + 8 * (size_t)i);
	uint32_t fcsr;
	memcpy(&fcsr, mc + SC_FPREGS + 256, 4);
	h->fflags = fcsr & 0x1f;
	h->frm = (fcsr >> 5) & 7;
	p->t->sigmask = get64(uc, UC_SIGMASK) & ~UNBLOCKABLE;
	p->noret = true;
	/* back at the instruction that faulted: the handler was no progress */
	hart_storm_resume(h, h->instret);
	return 0;
}

/* The signals thread t has pending and does not block. */
static uint64_t deliverable(const struct lx_thread *t)
{
	return (t->sigpending | t->p->sigpending) & ~t->sigmask;
}

/* A signal t does not block is pending: a wait that a signal ends
 * ends (sigtimedwait's own signals it takes itself). */
static void interrupt(struct lx_thread *t)
{
	if (t->state != LX_T_WAIT)
		return;
	if (t->w.kind == LX_W_SIGWAIT && ((t->sigpending | t->p->sigpending) & t->w.set)) {
		lx_wake(t, LX_WOKE_EVENT, 0);
		return;
	}
	if (deliverable(t))
		lx_wake(t, LX_WOKE_SIGNAL, -EINTR);
}

/* The thread of p that takes a signal sent to p: the first that does not
 * block it (its first thread first, as Linux tries the thread named). */
static struct lx_thread *taker(struct lx *p, int sig)
{
	for (struct lx_thread *t = lx_k.threads; t; t = t->next)
		if (t->p == p && t->state != LX_T_DEAD &&
		    (!(t->sigmask & BIT(sig)) || (t->state == LX_T_WAIT && t->w.kind == LX_W_SIGWAIT &&
						   (t->w.set & BIT(sig)))))
			return t;
	return NULL;
}

void lx_signal_send(struct lx *p, struct lx_thread *to, int sig, struct lx_sigsrc src)
{
	struct lx_sigaction *sa = &p->sa[sig];
	if (!sig || p->exited)
		return;
	/* an ignored signal is dropped where it is sent (unless blocked,
	 * as Linux keeps a blocked one pending) */
	bool ign = sa->handler == SIG_IGN_ || (sa->handler == SIG_DFL_ && default_ignored(sig));
	if (ign && sig != LX_SIGKILL && !(to && (to->sigmask & BIT(sig))))
		return;
	if (to) {
		to->sigpending |= BIT(sig);
		to->sigsrc[sig] = src;
		interrupt(to);
		return;
	}
	p->sigpending |= BIT(sig);
	p->sigsrc[sig] = src;
	if ((to = taker(p, sig)))
		interrupt(to);
}

static long sys_rt_sigsuspend(struct lx *p, const uint64_t *a)
{
	struct lx_thread *t = p->t;
	uint64_t set;
	if (a[1] != 8)
		return -EINVAL;
	if (lx_get(p, a[0], &set, 8))
		return -EFAULT;
	t->saved_mask = t->sigmask;
	t->restore_mask = true;
	t->sigmask = set & ~UNBLOCKABLE;
	if (deliverable(t))
		return -EINTR;
	return lx_wait_begin(p, LX_W_SIGNAL, ~0ull, false);
}

/* sigtimedwait: takes a pending signal of set, or waits for one (a
 * retried wait that sees its timeout is EAGAIN). */
static long sys_rt_sigtimedwait(struct lx *p, const uint64_t *a)
{
	struct lx_thread *t = p->t;
	uint64_t set;
	if (a[3] != 8)
		return -EINVAL;
	if (lx_get(p, a[0], &set, 8))
		return -EFAULT;
	uint64_t ready = (t->sigpending | p->sigpending) & set;
	if (!ready) {
		if (t->w.woke == LX_WOKE_TIMEOUT)
			return -EAGAIN;
		uint64_t dl = ~0ull;
		if (a[2]) {
			int64_t ts[2];
			if (lx_get(p, a[2], ts, sizeof(ts)))
				return -EFAULT;
			if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
				return -EINVAL;
			dl = lx_now_ns(p) + (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1];
		}
		t->w.set = set;
		return lx_wait_begin(p, LX_W_SIGWAIT, dl, true);
	}
	int sig = __builtin_ctzll(ready) + 1;
	const struct lx_sigsrc *src = t->sigpending & BIT(sig) ? &t->sigsrc[sig] : &p->sigsrc[sig];
	if (a[1]) {
		uint8_t si[SIGINFO_SIZE] = { 0 };
		put32(si, 0, (uint32_t)sig);
		put32(si, 8, (uint32_t)src->code);
		put32(si, 16, (uint32_t)src->pid);
		put32(si, 20, getuid());
		put32(si, 24, (uint32_t)src->status);
		if (lx_put(p, a[1], si, sizeof(si)))
			return -EFAULT;
	}
	if (t->sigpending & BIT(sig))
		t->sigpending &= ~BIT(sig);
	else
		p->sigpending &= ~BIT(sig);
	return sig;
}

/* tgkill(tgid, tid, sig), tkill(tid, sig) (tgid -1): one thread. */
static long sys_tgkill(struct lx *p, int64_t tgid, int64_t tid, int64_t sig)
{
	if (sig < 0 || sig > LX_NSIG || tid <= 0 || (tgid != -1 && tgid <= 0))
		return -EINVAL;
	struct lx_thread *t = tid <= INT32_MAX ? lx_thread_by_tid((int)tid) : NULL;
	if (!t || (tgid != -1 && t->p->pid != tgid))
		return -ESRCH;
	lx_signal_send(t->p, t, (int)sig, (struct lx_sigsrc){ p->pid, LX_SI_TKILL, 0 });
	return 0;
}

long lx_sys_signal(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	*handled = true;
	switch (nr) {
	case NR_rt_sigaction: return sys_rt_sigaction(p, a);
	case NR_rt_sigprocmask: return sys_rt_sigprocmask(p, a);
	case NR_sigaltstack: return sys_sigaltstack(p, a);
	case NR_rt_sigreturn: return sys_rt_sigreturn(p);
	case NR_rt_sigsuspend: return sys_rt_sigsuspend(p, a);
	case NR_rt_sigtimedwait: return sys_rt_sigtimedwait(p, a);
	case NR_rt_sigpending: {
		uint64_t pend = p->t->sigpending | p->sigpending;
		if (a[1] > 8)
			return -EINVAL;
		return lx_put(p, a[0], &pend, a[1]);
	}
	case NR_tkill:
		return sys_tgkill(p, -1, (int32_t)a[0], (int32_t)a[1]);
	case NR_tgkill:
		return sys_tgkill(p, (int32_t)a[0], (int32_t)a[1], (int32_t)a[2]);
	}
	*handled = false;
	return 0;
}
