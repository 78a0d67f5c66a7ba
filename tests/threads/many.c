/* 300 threads one after another: more than rvpmu stat --per-thread lists. */
#include <pthread.h>

static void *nothing(void *a)
{
	return a;
}

int main(void)
{
	for (int i = 0; i < 300; i++) {
		pthread_t t;
		if (pthread_create(&t, 0, nothing, 0) || pthread_join(t, 0))
			return 1;
	}
	return 0;
}
