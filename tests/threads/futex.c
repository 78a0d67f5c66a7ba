/* futex(2) and the thread calls under it, called directly: WAIT and its
 * timeouts, WAKE counts, WAKE_BITSET, CMP_REQUEUE, WAKE_OP, the PI
 * locks, tgkill to one thread, exit of one thread, a robust mutex whose
 * owner died. Waiters are known to wait before a wake (they say they
 * are about to, then the waker sleeps), so the counts do not depend on
 * the interleaving: the output is the same under rvpmu (any --cpus) and
 * qemu-riscv64. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long fx(void *u, int op, int val, const void *ts_or_val2, void *u2, int val3)
{
	long r = syscall(SYS_futex, u, op, val, ts_or_val2, u2, val3);
	return r < 0 ? -errno : r;
}

static _Atomic int arrived, woke_mask;
static int word_a, word_b;

struct waiter {
	int *word, val, bit;
	unsigned bitset;
};

static void *wait_on(void *a)
{
	struct waiter *w = a;
	atomic_fetch_add(&arrived, 1);
	long r = w->bitset ? fx(w->word, FUTEX_WAIT_BITSET_PRIVATE, w->val, NULL, NULL, (int)w->bitset)
			   : fx(w->word, FUTEX_WAIT_PRIVATE, w->val, NULL, NULL, 0);
	if (r == 0)
		atomic_fetch_or(&woke_mask, w->bit);
	return NULL;
}

/* start n waiters and give them time to wait */
static void start(pthread_t *t, struct waiter *w, int n)
{
	arrived = 0;
	woke_mask = 0;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, wait_on, &w[i]);
	while (arrived < n)
		usleep(100);
	usleep(20000);
}

static void join(pthread_t *t, int n)
{
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static int pi_word;
static _Atomic int pi_state;
static void *pi_taker(void *a)
{
	(void)a;
	long r = fx(&pi_word, FUTEX_TRYLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	printf("trylock_pi held by another: %s\n", strerror((int)-r));
	pi_state = 1;
	r = fx(&pi_word, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	printf("lock_pi after the unlock: %ld, word is my tid: %d, waiters bit: %d\n", r,
	       (pi_word & FUTEX_TID_MASK) == gettid(), !!(pi_word & FUTEX_WAITERS));
	fx(&pi_word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static _Atomic int sig_tid;
static void on_usr1(int s)
{
	(void)s;
	sig_tid = gettid();
}
static _Atomic int target_tid, stop_spin;
static void *spin(void *a)
{
	(void)a;
	target_tid = gettid();
	while (!stop_spin)
		usleep(100);
	return NULL;
}

static void *just_exit(void *a)
{
	(void)a;
	syscall(SYS_exit, 0);   /* this thread only */
	return NULL;
}

static pthread_mutex_t robust;
static void *die_holding(void *a)
{
	(void)a;
	pthread_mutex_lock(&robust);
	return NULL;   /* ends with the lock held */
}

int main(void)
{
	pthread_t t[4];
	struct timespec ts = { 0, 1000000 };
	int v = 1;
	printf("wait, wrong value: %s\n", strerror((int)-fx(&v, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0)));
	printf("wait, 1 ms: %s\n", strerror((int)-fx(&v, FUTEX_WAIT_PRIVATE, 1, &ts, NULL, 0)));
	struct timespec past = { 0, 1 };
	printf("wait_bitset, deadline passed: %s\n",
	       strerror((int)-fx(&v, FUTEX_WAIT_BITSET_PRIVATE, 1, &past, NULL, -1)));
	printf("wait_bitset, bitset 0: %s\n", strerror((int)-fx(&v, FUTEX_WAIT_BITSET_PRIVATE, 1, NULL, NULL, 0)));
	printf("wake, nobody waits: %ld\n", fx(&v, FUTEX_WAKE_PRIVATE, 5, NULL, NULL, 0));

	struct waiter w[3] = { { &word_a, 0, 1, 0 }, { &word_a, 0, 2, 0 }, { &word_a, 0, 4, 0 } };
	start(t, w, 3);
	long one = fx(&word_a, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	long rest = fx(&word_a, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	join(t, 3);
	printf("wake 1 of 3: %ld, then the rest: %ld, all woke: %d\n", one, rest, woke_mask == 7);

	struct waiter wb[2] = { { &word_a, 0, 1, 1 }, { &word_a, 0, 2, 2 } };
	start(t, wb, 2);
	long b2 = fx(&word_a, FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, NULL, NULL, 2);
	usleep(20000);
	int first = woke_mask;
	long b1 = fx(&word_a, FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, NULL, NULL, 1);
	join(t, 2);
	printf("wake_bitset 2: %ld (woke mask %d), then bitset 1: %ld\n", b2, first, b1);

	start(t, w, 3);
	long bad = fx(&word_a, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, &word_b, 99);
	long rq = fx(&word_a, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, &word_b, 0);
	usleep(20000);
	long on_b = fx(&word_b, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	long on_a = fx(&word_a, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	join(t, 3);
	printf("cmp_requeue, value changed: %s; woken+requeued %ld, then on b %ld, on a %ld\n",
	       strerror((int)-bad), rq, on_b, on_a);

	word_b = 5;
	struct waiter wo[2] = { { &word_a, 0, 1, 0 }, { &word_b, 5, 2, 0 } };
	start(t, wo, 2);
	long op = fx(&word_a, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &word_b,
		     FUTEX_OP(FUTEX_OP_ADD, 3, FUTEX_OP_CMP_GT, 4));
	join(t, 2);
	printf("wake_op add 3 (old 5 > 4): woke %ld, word now %d\n", op, word_b);

	printf("lock_pi free word: %ld, word is my tid: %d\n", fx(&pi_word, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0),
	       pi_word == gettid());
	pthread_create(&t[0], NULL, pi_taker, NULL);
	while (!pi_state)
		usleep(100);
	usleep(20000);
	printf("unlock_pi with a waiter: %ld\n", fx(&pi_word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0));
	pthread_join(t[0], NULL);
	printf("unlock_pi not held: %s\n", strerror((int)-fx(&pi_word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0)));

	signal(SIGUSR1, on_usr1);
	pthread_create(&t[0], NULL, spin, NULL);
	while (!target_tid)
		usleep(100);
	syscall(SYS_tgkill, getpid(), target_tid, SIGUSR1);
	while (!sig_tid)
		usleep(100);
	stop_spin = 1;
	pthread_join(t[0], NULL);
	printf("tgkill reached its thread: %d (not the sender: %d)\n", sig_tid == target_tid, sig_tid != gettid());
	printf("tgkill, no such thread: %s\n", strerror(syscall(SYS_tgkill, getpid(), 99999, SIGUSR1) ? errno : 0));

	pthread_create(&t[0], NULL, just_exit, NULL);
	pthread_join(t[0], NULL);
	printf("exit of one thread: the process goes on\n");

	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &ma);
	pthread_create(&t[0], NULL, die_holding, NULL);
	pthread_join(t[0], NULL);
	int e = pthread_mutex_lock(&robust);
	printf("robust mutex of a thread that ended: %s\n", e == EOWNERDEAD ? "EOWNERDEAD" : strerror(e));
	pthread_mutex_consistent(&robust);
	pthread_mutex_unlock(&robust);

	/* exit_group ends a thread that waits for ever */
	pthread_create(&t[0], NULL, wait_on, &w[0]);
	while (!arrived)
		usleep(100);
	fflush(stdout);
	return 3;
}
