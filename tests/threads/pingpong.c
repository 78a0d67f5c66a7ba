/* Two threads hand a token back and forth through a plain variable,
 * spinning without a system call: on one hart this needs time slices. */
#include <pthread.h>
#include <stdio.h>
static volatile int token;
static void *other(void *x)
{
	(void)x;
	for (int i = 0; i < 5; i++) {
		while (token != 2 * i + 1)
			;
		token = 2 * i + 2;
	}
	return NULL;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, other, NULL);
	for (int i = 0; i < 5; i++) {
		token = 2 * i + 1;
		while (token != 2 * i + 2)
			;
	}
	pthread_join(t, NULL);
	printf("token %d\n", token);
	return 0;
}
