/* A NULL pointer dereference in C: fatal SIGSEGV, exit status 139. */
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argv;
	volatile int *p = (volatile int *)(intptr_t)(argc - 1);	/* 0, unknown to the compiler */
	printf("before\n");
	fflush(stdout);
	return *p;
}
