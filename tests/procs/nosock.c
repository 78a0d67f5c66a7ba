/* socket(2) under rvpmu: no network, EAFNOSUPPORT, and no warning. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
int main(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	printf("socket: %d %s\n", s, strerror(errno));
	return 0;
}
