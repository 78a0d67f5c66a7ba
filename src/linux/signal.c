/* Signals for a single-threaded process: dispositions, the mask, kill to
 * self, the riscv64 rt_sigframe (arch/riscv/kernel/signal.c) and default
 * actions, and the mapping of hart exceptions to the signals Linux sends
 * (arch/riscv/kernel/traps.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lx.h"

#define BIT(sig) (1ull << ((sig) - 1))
#define UNBLOCKABLE (BIT(LX_SIGKILL) | BIT(LX_SIGSTOP))
#define SIG_DFL_ 0
#define SIG_IGN_ 1

/* siginfo si_code values (include/uapi/asm-generic/siginfo.h). */
enum {
	SI_USER = 0, SEGV_MAPERR = 1, SEGV_ACCERR = 2,
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
	p->exited = true;
	p->status = LINUX_EXIT_SIGNAL_BASE + sig;
}

static void report_fault(struct lx *p, int sig)
{
	struct hart *h = p->h;
	char dis[128] = "<unreadable>";
	uint16_t lo;
	uint32_t raw = 0;
	struct gmem *m = &h->mem;
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

static bool on_altstack(struct lx *p, uint64_t sp)
{
	return p->ss_size && sp > p->ss_sp && sp <= p->ss_sp + p->ss_size;
}

/* Build the rt_sigframe and enter the handler (setup_rt_frame). */
static bool enter_handler(struct lx *p, int sig, int code, uint64_t addr)
{
	struct hart *h = p->h;
	struct lx_sigaction *sa = &p->sa[sig];
	uint64_t sp = h->x[2];
	if ((sa->flags & LX_SA_ONSTACK) && p->ss_size && !(p->ss_flags & LX_SS_DISABLE) &&
	    !on_altstack(p, sp))
		sp = p->ss_sp + p->ss_size;
	uint64_t fa = (sp - FRAME_SIZE) & ~15ull;
	uint8_t f[FRAME_SIZE];
	memset(f, 0, sizeof(f));
	put32(f, 0, (uint32_t)sig);
	put32(f, 8, (uint32_t)code);
	if (sig == LX_SIGSEGV || sig == LX_SIGBUS || sig == LX_SIGILL || sig == LX_SIGTRAP) {
		put64(f, 16, addr);
	} else {
		put32(f, 16, LX_PID);
	}
	uint8_t *uc = f + SIGINFO_SIZE;
	put64(uc, UC_STACK, p->ss_sp);
	put32(uc, UC_STACK + 8, p->ss_size ? (on_altstack(p, h->x[2]) ? LX_SS_ONSTACK : p->ss_flags) : LX_SS_DISABLE);
	put64(uc, UC_STACK + 16, p->ss_size);
	/* after sigsuspend the handler returns to the mask from before it */
	put64(uc, UC_SIGMASK, p->restore_mask ? p->saved_mask : p->sigmask);
	uint8_t *mc = uc + UC_MCONTEXT;
	put64(mc, 0, h->pc);
	for (int i = 1; i < 32; i++)
		put64(mc, 8 * (size_t)i, h->x[i]);
	for (int i = 0; i < 32; i++)
		put64(mc, SC_FPREGS + 8 * (size_t)i, h->f[i]);
	put32(mc, SC_FPREGS + 256, (h->frm << 5) | h->fflags);
	if (lx_put(p, fa, f, sizeof(f)))
		return false;
	if (p->restore_mask) {
		p->restore_mask = false;
		p->sigmask = p->saved_mask;
	}

	p->sigmask |= sa->mask & ~UNBLOCKABLE;
	if (!(sa->flags & LX_SA_NODEFER))
		p->sigmask |= BIT(sig);
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

static void raise_sig(struct lx *p, int sig, int code, bool fault, uint64_t addr)
{
	struct lx_sigaction *sa = &p->sa[sig];
	bool blocked = (p->sigmask & BIT(sig)) != 0;
	if (fault && (blocked || sa->handler == SIG_IGN_)) {
		/* force_sig: a fault cannot be ignored or blocked. */
		sa->handler = SIG_DFL_;
	} else if (!fault && blocked) {
		p->sigpending |= BIT(sig);
		return;
	}
	if (sa->handler == SIG_IGN_ || (sa->handler == SIG_DFL_ && default_ignored(sig)))
		return;
	if (sa->handler == SIG_DFL_ || sig == LX_SIGKILL) {
		if (fault)
			report_fault(p, sig);
		else
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

void lx_signal_deliver_pending(struct lx *p)
{
	uint64_t ready = p->sigpending & ~p->sigmask;
	if (!ready)
		return;
	int sig = __builtin_ctzll(ready) + 1;
	p->sigpending &= ~BIT(sig);
	raise_sig(p, sig, SI_USER, false, 0);
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
	p->exited = true;
	p->status = LINUX_EXIT_TRAP_STORM;
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
		if (v[0] == SIG_IGN_ || (v[0] == SIG_DFL_ && default_ignored(sig)))
			p->sigpending &= ~BIT(sig);
	}
	return 0;
}

static long sys_rt_sigprocmask(struct lx *p, const uint64_t *a)
{
	if (a[3] != 8)
		return -EINVAL;
	uint64_t old = p->sigmask, set;
	if (a[1]) {
		if (lx_get(p, a[1], &set, 8))
			return -EFAULT;
		switch (a[0]) {
		case 0: p->sigmask |= set; break;      /* SIG_BLOCK */
		case 1: p->sigmask &= ~set; break;     /* SIG_UNBLOCK */
		case 2: p->sigmask = set; break;       /* SIG_SETMASK */
		default: return -EINVAL;
		}
		p->sigmask &= ~UNBLOCKABLE;
	}
	if (a[2] && lx_put(p, a[2], &old, 8)) {
		p->sigmask = old;
		return -EFAULT;
	}
	return 0;
}

static long sys_sigaltstack(struct lx *p, const uint64_t *a)
{
	struct hart *h = p->h;
	bool on = on_altstack(p, h->x[2]);
	if (a[1]) {
		uint8_t o[24] = { 0 };
		put64(o, 0, p->ss_sp);
		put32(o, 8, p->ss_size ? (on ? LX_SS_ONSTACK : p->ss_flags) : LX_SS_DISABLE);
		put64(o, 16, p->ss_size);
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
			p->ss_sp = p->ss_size = 0;
			p->ss_flags = LX_SS_DISABLE;
		} else {
			uint64_t size = get64(s, 16);
			if (size < MINSIGSTKSZ_)
				return -ENOMEM;
			p->ss_sp = get64(s, 0);
			p->ss_size = size;
			p->ss_flags = 0;
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
	p->sigmask = get64(uc, UC_SIGMASK) & ~UNBLOCKABLE;
	p->noret = true;
	/* back at the instruction that faulted: the handler was no progress */
	hart_storm_resume(h, h->instret);
	return 0;
}

static void deadlock(struct lx *p, const char *what)
{
	lx_warn(p, "rvpmu: %s: deadlock: %s waits for a signal nothing can send", p->name, what);
	p->exited = true;
	p->status = LINUX_EXIT_DEADLOCK;
}

static long sys_rt_sigsuspend(struct lx *p, const uint64_t *a)
{
	uint64_t set;
	if (a[1] != 8)
		return -EINVAL;
	if (lx_get(p, a[0], &set, 8))
		return -EFAULT;
	set &= ~UNBLOCKABLE;
	if (!(p->sigpending & ~set)) {
		deadlock(p, "sigsuspend");
		return 0;
	}
	p->saved_mask = p->sigmask;
	p->restore_mask = true;
	p->sigmask = set;
	return -EINTR;
}

static long sys_rt_sigtimedwait(struct lx *p, const uint64_t *a)
{
	uint64_t set;
	if (a[3] != 8)
		return -EINVAL;
	if (lx_get(p, a[0], &set, 8))
		return -EFAULT;
	uint64_t ready = p->sigpending & set;
	if (!ready) {
		if (a[2]) {
			int64_t ts[2];
			if (lx_get(p, a[2], ts, sizeof(ts)))
				return -EFAULT;
			if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
				return -EINVAL;
			lx_sleep(p, (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1]);
			return -EAGAIN;
		}
		deadlock(p, "sigtimedwait");
		return 0;
	}
	int sig = __builtin_ctzll(ready) + 1;
	if (a[1]) {
		uint8_t si[SIGINFO_SIZE] = { 0 };
		put32(si, 0, (uint32_t)sig);
		put32(si, 8, SI_USER);
		put32(si, 16, LX_PID);
		if (lx_put(p, a[1], si, sizeof(si)))
			return -EFAULT;
	}
	p->sigpending &= ~BIT(sig);
	return sig;
}

static long send_self(struct lx *p, int sig)
{
	if (sig < 0 || sig > LX_NSIG)
		return -EINVAL;
	/* Taken as the call returns (lx_syscall), so a handler's context
	 * resumes after the ecall with a0 = 0. */
	if (sig)
		p->sigpending |= BIT(sig);
	return 0;
}

long lx_sys_signal(struct lx *p, int nr, const uint64_t *a, bool *handled)
{
	*handled = true;
	int64_t pid = (int32_t)a[0];
	switch (nr) {
	case NR_rt_sigaction: return sys_rt_sigaction(p, a);
	case NR_rt_sigprocmask: return sys_rt_sigprocmask(p, a);
	case NR_sigaltstack: return sys_sigaltstack(p, a);
	case NR_rt_sigreturn: return sys_rt_sigreturn(p);
	case NR_rt_sigsuspend: return sys_rt_sigsuspend(p, a);
	case NR_rt_sigtimedwait: return sys_rt_sigtimedwait(p, a);
	case NR_rt_sigpending:
		if (a[1] > 8)
			return -EINVAL;
		return lx_put(p, a[0], &p->sigpending, a[1]);
	case NR_kill:
		if (pid != LX_PID && pid != 0 && pid != -1 && pid != -LX_PID)
			return -ESRCH;
		return send_self(p, (int)a[1]);
	case NR_tkill:
		if (pid != LX_PID)
			return -ESRCH;
		return send_self(p, (int)a[1]);
	case NR_tgkill:
		if (pid != LX_PID || (int32_t)a[1] != LX_PID)
			return -ESRCH;
		return send_self(p, (int)a[2]);
	}
	*handled = false;
	return 0;
}
