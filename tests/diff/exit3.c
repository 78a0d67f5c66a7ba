/* Returning from main exits with that value; stdio is flushed by exit,
 * and atexit handlers run in reverse order of registration.
 * diff: expect-exit 3 */
#include <stdio.h>
#include <stdlib.h>

static void first(void) { printf("atexit first-registered\n"); }
static void second(void) { printf("atexit second-registered\n"); }

int main(void)
{
	atexit(first);
	atexit(second);
	printf("buffered output, flushed at exit\n");
	return 3;
}
