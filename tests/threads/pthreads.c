/* POSIX threads as a program uses them: mutex, condition variable,
 * barrier, thread-local storage, exit values through join, cancellation
 * of a thread asleep and of one waiting on a condition variable, a
 * detached thread, pthread_exit of the first thread while others run.
 * The output does not depend on the interleaving: the same under rvpmu
 * (any --cpus) and qemu-riscv64. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static long counter;
static int turn;
static __thread int tls = 7;

static void *count(void *a)
{
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&m);
		counter++;
		pthread_mutex_unlock(&m);
	}
	return (void *)((long)a * 10);
}

/* threads started in reverse order take their turns in order */
static void *in_turn(void *a)
{
	long id = (long)a;
	pthread_mutex_lock(&m);
	while (turn != id)
		pthread_cond_wait(&cv, &m);
	printf("turn %ld\n", id);
	turn++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *phases(void *a)
{
	tls = (int)(long)a * 100;
	for (int r = 0; r < 5; r++)
		pthread_barrier_wait(&bar);
	return (void *)(long)tls;
}

static void *sleeper(void *a)
{
	(void)a;
	for (;;)
		sleep(1000);   /* a cancellation point */
	return NULL;
}

static void unlock(void *a)
{
	pthread_mutex_unlock(a);
}

static void *cond_waiter(void *a)
{
	(void)a;
	pthread_mutex_lock(&m);
	pthread_cleanup_push(unlock, &m);
	for (;;)
		pthread_cond_wait(&cv, &m);   /* a cancellation point */
	pthread_cleanup_pop(1);
	return NULL;
}

static volatile int detached_done;
static void *detached(void *a)
{
	(void)a;
	detached_done = 1;
	return NULL;
}

static void *last(void *a)
{
	/* runs on after the first thread's pthread_exit */
	usleep(2000);
	printf("last thread: counter %ld\n", *(long *)a);
	fflush(stdout);
	return NULL;
}

int main(void)
{
	pthread_t t[8];
	void *r;
	long sum = 0;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, count, (void *)i);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("mutex: counter %ld, join values %ld\n", counter, sum);

	for (long i = 3; i >= 0; i--)
		pthread_create(&t[i], NULL, in_turn, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);

	pthread_barrier_init(&bar, NULL, 4);
	sum = 0;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, phases, (void *)(i + 1));
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("barrier and tls: %ld, the first thread's tls %d\n", sum, tls);

	pthread_create(&t[0], NULL, sleeper, NULL);
	usleep(1000);
	pthread_cancel(t[0]);
	pthread_join(t[0], &r);
	printf("cancelled in sleep: %d\n", r == PTHREAD_CANCELED);
	pthread_create(&t[0], NULL, cond_waiter, NULL);
	usleep(1000);
	pthread_cancel(t[0]);
	pthread_join(t[0], &r);
	printf("cancelled in pthread_cond_wait: %d\n", r == PTHREAD_CANCELED);

	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_create(&t[0], &at, detached, NULL);
	while (!detached_done)
		sched_yield();
	printf("detached thread ran, gettid %s getpid\n", gettid() == getpid() ? "==" : "!=");
	fflush(stdout);
	pthread_create(&t[1], NULL, last, &counter);
	pthread_exit(NULL);
}
