/* System call entry: riscv64 Linux calling convention (a7 = number,
 * a0..a5 = arguments, result or -errno in a0; Linux errno values are the
 * asm-generic ones, the same numbers as the x86_64 host's), guest pointer
 * checks, and the once-per-number warning for what is not implemented. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lx.h"

void lx_warn(struct lx *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	ssize_t w = write(p->o.warn_fd, line, (size_t)n);
	(void)w;
}

const void *lx_rptr(struct lx *p, uint64_t addr, uint64_t len)
{
	if (!len)
		return p->mm->mem.base;
	return gmem_ptr(&p->mm->mem, addr, len, GP_R);
}

void *lx_wptr(struct lx *p, uint64_t addr, uint64_t len)
{
	struct gmem *m = &p->mm->mem;
	if (!len)
		return m->base;
	void *q = gmem_ptr(m, addr, len, GP_W);
	if (!q)
		return NULL;
	/* The host is about to write: decoded instructions there go stale. */
	for (uint64_t a = addr & ~(GPAGE_SIZE - 1); a < addr + len; a += GPAGE_SIZE)
		if (m->pflags[a >> GPAGE_SHIFT] & GP_CODE) {
			hart_invalidate_code(p->h, addr, len);
			break;
		}
	return q;
}

int lx_put(struct lx *p, uint64_t addr, const void *v, size_t len)
{
	void *q = lx_wptr(p, addr, len);
	if (!q)
		return -EFAULT;
	memcpy(q, v, len);
	return 0;
}

int lx_get(struct lx *p, uint64_t addr, void *v, size_t len)
{
	const void *q = lx_rptr(p, addr, len);
	if (!q)
		return -EFAULT;
	memcpy(v, q, len);
	return 0;
}

void lx_syscall(struct lx *p)
{
	struct hart *h = p->h;
	struct lx_thread *t = p->t;
	int nr = h->x[17] > 0x7fffffff ? -1 : (int)h->x[17];
	const uint64_t a[6] = { h->x[10], h->x[11], h->x[12], h->x[13], h->x[14], h->x[15] };
	bool handled = false;
	long r = 0;
	p->noret = false;
	lx_enter(p);
	long (*const part[])(struct lx *, int, const uint64_t *, bool *) = {
		lx_sys_fs, lx_sys_mm, lx_sys_signal, lx_sys_thread, lx_sys_proc, lx_sys_exec,
		lx_sys_shm, lx_sys_misc, lx_sys_perf,
	};
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]) && !handled; i++)
		r = part[i](p, nr, a, &handled);
	if (!handled) {
		if (nr >= 0 && nr < LX_NSYSCALLS) {
			if (!(p->warned[nr / 8] & (1u << (nr % 8)))) {
				p->warned[nr / 8] |= (uint8_t)(1u << (nr % 8));
				lx_warn(p, "rvpmu: warning: unsupported syscall %d (%s)", nr,
					lx_sysname[nr] ? lx_sysname[nr] : "unknown");
			}
		} else if (!p->warned_big) {
			p->warned_big = true;
			lx_warn(p, "rvpmu: warning: unsupported syscall %lld (unknown)",
				(long long)h->x[17]);
		}
		r = -ENOSYS;
	}
	if (p->exited) {   /* its last thread ended it: nothing to return to */
		if (p->strace)
			lx_warn(p, "rvpmu: strace: %s(%#llx) ends the process",
				nr >= 0 && nr < LX_NSYSCALLS && lx_sysname[nr] ? lx_sysname[nr] : "?",
				(unsigned long long)a[0]);
		return;
	}
	struct gmem_acct *m = p->mm->mem.acct;
	if (m->mapped > p->mm->vm_peak)
		p->mm->vm_peak = m->mapped;
	if (m->hit_max && !p->warned_max) {
		/* once: the program may not say why its allocation failed */
		p->warned_max = true;
		lx_warn(p, "rvpmu: warning: %s: memory bound of %llu MiB reached: brk/mmap fail with ENOMEM (--max-mem sets the bound)",
			p->name, (unsigned long long)(m->max_bytes >> 20));
	}
	if (p->strace && r == LX_BLOCK)
		lx_warn(p, "rvpmu: strace: [%d] %s(%#llx, %#llx, %#llx, %#llx) waits", t->tid,
			nr >= 0 && nr < LX_NSYSCALLS && lx_sysname[nr] ? lx_sysname[nr] : "?",
			(unsigned long long)a[0], (unsigned long long)a[1],
			(unsigned long long)a[2], (unsigned long long)a[3]);
	else if (p->strace)
		lx_warn(p, "rvpmu: strace: %s(%#llx, %#llx, %#llx, %#llx) = %ld",
			nr >= 0 && nr < LX_NSYSCALLS && lx_sysname[nr] ? lx_sysname[nr] : "?",
			(unsigned long long)a[0], (unsigned long long)a[1],
			(unsigned long long)a[2], (unsigned long long)a[3], r);
	if (r == LX_BLOCK || t->state == LX_T_DEAD)
		return;   /* it waits, off its hart: a waker or its retry finishes the call */
	t->w.woke = LX_WOKE_NONE;
	t->w.done = 0;
	if (!p->noret) {
		h->x[10] = (uint64_t)r;
		h->pc += 4;
	}
	/* A signal the call raised (kill to self, an unblocking
	 * sigprocmask) is taken on the way back to user mode. */
	lx_signal_return(p);
}
