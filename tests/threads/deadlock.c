/* Two threads take two mutexes in opposite orders and deadlock; the
 * first thread waits to join one of them. */
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;
static void *ab(void *x)
{
	(void)x;
	pthread_mutex_lock(&a);
	pthread_barrier_wait(&bar);
	pthread_mutex_lock(&b);
	return NULL;
}
static void *ba(void *x)
{
	(void)x;
	pthread_mutex_lock(&b);
	pthread_barrier_wait(&bar);
	pthread_mutex_lock(&a);
	return NULL;
}
int main(void)
{
	pthread_t t1, t2;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&t1, NULL, ab, NULL);
	pthread_create(&t2, NULL, ba, NULL);
	pthread_join(t1, NULL);
	printf("not reached\n");
	return 0;
}
