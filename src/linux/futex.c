/* futex(2): waits on a 32-bit word parked in the scheduler, wakes in the
 * order the waits began (one queue for every word: a requeued waiter
 * goes to its end, as to the end of the new word's queue on Linux),
 * bitsets, requeue, WAKE_OP and the PI locks. A word's key is its
 * address space and address (kernel/futex/core.c get_futex_key for
 * private mappings). Timeouts are modelled time. */
#include <errno.h>
#include "lx.h"

/* include/uapi/linux/futex.h */
enum {
	FUTEX_WAIT = 0, FUTEX_WAKE = 1, FUTEX_REQUEUE = 3, FUTEX_CMP_REQUEUE = 4,
	FUTEX_WAKE_OP = 5, FUTEX_LOCK_PI = 6, FUTEX_UNLOCK_PI = 7, FUTEX_TRYLOCK_PI = 8,
	FUTEX_WAIT_BITSET = 9, FUTEX_WAKE_BITSET = 10, FUTEX_LOCK_PI2 = 13,
};
#define FUTEX_PRIVATE_FLAG   128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK       (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_ANY     0xffffffffu
#define FUTEX_WAITERS        0x80000000u
#define FUTEX_TID_MASK       0x3fffffffu

#define NS 1000000000ull

static void key_of(struct lx *p, uint64_t uaddr, uint64_t *key)
{
	key[0] = (uint64_t)(uintptr_t)p->mm;
	key[1] = uaddr;
}

static bool same(const uint64_t *a, const uint64_t *b)
{
	return a[0] == b[0] && a[1] == b[1];
}

void lx_futex_unqueue(struct lx_thread *t)
{
	for (struct lx_thread **q = &lx_k.fq; *q; q = &(*q)->fq_next)
		if (*q == t) {
			*q = t->fq_next;
			break;
		}
	t->fq_next = NULL;
}

static void enqueue(struct lx_thread *t)
{
	struct lx_thread **q = &lx_k.fq;
	while (*q)
		q = &(*q)->fq_next;
	t->fq_next = NULL;
	*q = t;
}

/* Wake up to n waiters on key whose bitset meets bits; how many woke. */
static long wake(const uint64_t *key, long n, uint32_t bits)
{
	long woke = 0;
	for (struct lx_thread *t = lx_k.fq, *next; t && woke < n; t = next) {
		next = t->fq_next;
		if (same(t->w.key, key) && (t->w.bitset & bits)) {
			lx_wake(t, LX_WOKE_EVENT, 0);
			woke++;
		}
	}
	return woke;
}

long lx_futex_wake_addr(struct lx *p, uint64_t uaddr, long n)
{
	uint64_t key[2];
	key_of(p, uaddr, key);
	return wake(key, n, FUTEX_BITSET_ANY);
}

/* Requeue: wake up to n waiters on k1, move up to m more to k2. */
static long requeue(const uint64_t *k1, const uint64_t *k2, long n, long m)
{
	long woke = wake(k1, n, FUTEX_BITSET_ANY), moved = 0;
	struct lx_thread *move = NULL, **tail = &move;
	for (struct lx_thread **q = &lx_k.fq; *q && moved < m;) {
		struct lx_thread *t = *q;
		if (!same(t->w.key, k1)) {
			q = &t->fq_next;
			continue;
		}
		*q = t->fq_next;
		t->w.key[0] = k2[0];
		t->w.key[1] = k2[1];
		t->fq_next = NULL;
		*tail = t;
		tail = &t->fq_next;
		moved++;
	}
	struct lx_thread **q = &lx_k.fq;
	while (*q)
		q = &(*q)->fq_next;
	*q = move;
	return woke + moved;
}

/* A timeout argument as a deadline on the guest's clock: relative
 * (FUTEX_WAIT) or absolute on CLOCK_MONOTONIC, or CLOCK_REALTIME with
 * the flag. ~0 for none; -EFAULT or -EINVAL as Linux answers. */
static int64_t deadline(struct lx *p, uint64_t ua, bool absolute, bool realtime)
{
	if (!ua)
		return (int64_t)~0ull;
	int64_t ts[2];
	if (lx_get(p, ua, ts, sizeof(ts)))
		return -EFAULT;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (int64_t)NS)
		return -EINVAL;
	uint64_t t = (uint64_t)ts[0] > (UINT64_MAX >> 2) / NS ? UINT64_MAX >> 2 : (uint64_t)ts[0] * NS + (uint64_t)ts[1];
	if (!absolute)
		return (int64_t)(lx_now_ns(p) + t);
	if (realtime)
		t = t > LX_EPOCH * NS ? t - LX_EPOCH * NS : 0;
	return (int64_t)t;
}

static long wait_on(struct lx *p, uint64_t uaddr, uint32_t val, uint32_t bits, int64_t dl)
{
	uint32_t cur;
	if (!bits)
		return -EINVAL;
	if (dl < 0 && dl != (int64_t)~0ull)
		return dl;
	if (lx_get(p, uaddr, &cur, 4))
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	if ((uint64_t)dl <= lx_now_ns(p))
		return -ETIMEDOUT;
	struct lx_thread *t = p->t;
	key_of(p, uaddr, t->w.key);
	t->w.bitset = bits;
	enqueue(t);
	return lx_wait_begin(p, LX_W_FUTEX, (uint64_t)dl, false);
}

/* FUTEX_WAKE_OP's operation on the word at uaddr2 and its comparison of
 * the old value (include/uapi/linux/futex.h FUTEX_OP encoding). */
static long wake_op(struct lx *p, uint64_t ua, uint64_t ua2, long n, long n2, uint32_t enc)
{
	uint32_t old, nv;
	int32_t oparg = (int32_t)(enc << 8) >> 20, cmparg = (int32_t)(enc << 20) >> 20;
	if (enc & 0x80000000u)
		oparg = (int32_t)(1u << (oparg & 31));
	if (lx_get(p, ua2, &old, 4))
		return -EFAULT;
	switch ((enc >> 28) & 7) {
	case 0: nv = (uint32_t)oparg; break;
	case 1: nv = old + (uint32_t)oparg; break;
	case 2: nv = old | (uint32_t)oparg; break;
	case 3: nv = old & ~(uint32_t)oparg; break;
	case 4: nv = old ^ (uint32_t)oparg; break;
	default: return -ENOSYS;
	}
	if (lx_put(p, ua2, &nv, 4))
		return -EFAULT;
	int32_t o = (int32_t)old;
	bool hit;
	switch ((enc >> 24) & 15) {
	case 0: hit = o == cmparg; break;
	case 1: hit = o != cmparg; break;
	case 2: hit = o < cmparg; break;
	case 3: hit = o <= cmparg; break;
	case 4: hit = o > cmparg; break;
	case 5: hit = o >= cmparg; break;
	default: return -ENOSYS;
	}
	uint64_t k1[2], k2[2];
	key_of(p, ua, k1);
	key_of(p, ua2, k2);
	long woke = wake(k1, n, FUTEX_BITSET_ANY);
	return woke + (hit ? wake(k2, n2, FUTEX_BITSET_ANY) : 0);
}

/* The PI lock word holds its owner's tid and FUTEX_WAITERS while a
 * thread waits for it; unlock hands it to the first waiter. */
static long lock_pi(struct lx *p, uint64_t ua, bool try, int64_t dl)
{
	struct lx_thread *t = p->t;
	uint32_t cur;
	if (lx_get(p, ua, &cur, 4))
		return -EFAULT;
	if ((cur & FUTEX_TID_MASK) == (uint32_t)t->tid)
		return -EDEADLK;
	if (!(cur & FUTEX_TID_MASK)) {
		cur = (cur & FUTEX_WAITERS) | (uint32_t)t->tid;
		return lx_put(p, ua, &cur, 4) ? -EFAULT : 0;
	}
	if (try)
		return -EAGAIN;
	if (dl < 0 && dl != (int64_t)~0ull)
		return dl;
	cur |= FUTEX_WAITERS;
	if (lx_put(p, ua, &cur, 4))
		return -EFAULT;
	key_of(p, ua, t->w.key);
	t->w.bitset = FUTEX_BITSET_ANY;
	enqueue(t);
	return lx_wait_begin(p, LX_W_FUTEX, (uint64_t)dl, false);
}

/* The new owner's word keeps FUTEX_WAITERS, as wake_futex_pi sets it,
 * whether or not others still wait (the next unlock comes to the kernel). */
static long unlock_pi(struct lx *p, uint64_t ua)
{
	uint32_t cur;
	uint64_t key[2];
	if (lx_get(p, ua, &cur, 4))
		return -EFAULT;
	if ((cur & FUTEX_TID_MASK) != (uint32_t)p->t->tid)
		return -EPERM;
	key_of(p, ua, key);
	struct lx_thread *next = lx_k.fq;
	while (next && !same(next->w.key, key))
		next = next->fq_next;
	cur = next ? (uint32_t)next->tid | FUTEX_WAITERS : 0;
	if (lx_put(p, ua, &cur, 4))
		return -EFAULT;
	if (next)
		lx_wake(next, LX_WOKE_EVENT, 0);
	return 0;
}

long lx_sys_futex(struct lx *p, const uint64_t *a)
{
	uint64_t ua = a[0];
	int op = (int)a[1] & FUTEX_CMD_MASK;
	bool rt = a[1] & FUTEX_CLOCK_REALTIME;
	uint32_t val = (uint32_t)a[2];
	uint64_t k1[2], k2[2];
	if (ua & 3)
		return -EINVAL;
	if (rt && op != FUTEX_WAIT && op != FUTEX_WAIT_BITSET && op != FUTEX_LOCK_PI2)
		return -ENOSYS;
	key_of(p, ua, k1);
	key_of(p, a[4], k2);
	switch (op) {
	case FUTEX_WAIT:
		return wait_on(p, ua, val, FUTEX_BITSET_ANY, deadline(p, a[3], false, rt));
	case FUTEX_WAIT_BITSET:
		return wait_on(p, ua, val, (uint32_t)a[5], deadline(p, a[3], true, rt));
	case FUTEX_WAKE:
		return wake(k1, (int32_t)val, FUTEX_BITSET_ANY);
	case FUTEX_WAKE_BITSET:
		return (uint32_t)a[5] ? wake(k1, (int32_t)val, (uint32_t)a[5]) : -EINVAL;
	case FUTEX_REQUEUE:
		return requeue(k1, k2, (int32_t)val, (int32_t)a[3]);
	case FUTEX_CMP_REQUEUE: {
		uint32_t cur;
		if (lx_get(p, ua, &cur, 4))
			return -EFAULT;
		if (cur != (uint32_t)a[5])
			return -EAGAIN;
		return requeue(k1, k2, (int32_t)val, (int32_t)a[3]);
	}
	case FUTEX_WAKE_OP:
		return wake_op(p, ua, a[4], (int32_t)val, (int32_t)a[3], (uint32_t)a[5]);
	case FUTEX_LOCK_PI: case FUTEX_LOCK_PI2:
		/* LOCK_PI's timeout is absolute on CLOCK_REALTIME */
		return lock_pi(p, ua, false, deadline(p, a[3], true, op == FUTEX_LOCK_PI || rt));
	case FUTEX_TRYLOCK_PI:
		return lock_pi(p, ua, true, 0);
	case FUTEX_UNLOCK_PI:
		return unlock_pi(p, ua);
	}
	return -ENOSYS;
}
