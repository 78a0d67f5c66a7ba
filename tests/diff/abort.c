/* abort() raises SIGABRT, which kills the process: exit status 128 + 6.
 * diff: expect-exit 134 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	printf("about to abort\n");
	fflush(stdout);		/* abort does not flush stdio */
	abort();
}
