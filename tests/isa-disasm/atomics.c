/* Atomics and threads (A extension, LR/SC, fences) for the disassembly
 * comparison. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static _Atomic long counter;
static _Atomic int flag;

static void *worker(void *arg)
{
	for (int i = 0; i < 1000; i++) {
		atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
		atomic_fetch_or(&flag, 1 << (i & 7));
		atomic_fetch_and_explicit(&flag, ~0x100, memory_order_release);
		long e = atomic_load_explicit(&counter, memory_order_acquire);
		atomic_compare_exchange_weak(&counter, &e, e + 1);
		atomic_thread_fence(memory_order_seq_cst);
	}
	return arg;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %d\n", atomic_exchange(&counter, 0), atomic_load(&flag));
	return 0;
}
