/* Deep recursion and large stack frames (about 4 MiB of stack in all),
 * variable-length arrays, and a recursive Ackermann. */
#include <stdio.h>
#include <string.h>

static unsigned long deep(unsigned n, unsigned long acc)
{
	volatile unsigned char pad[48];
	pad[n % 48] = (unsigned char)n;
	if (n == 0)
		return acc;
	return deep(n - 1, acc * 31 + n) + pad[n % 48];
}

static unsigned ack(unsigned m, unsigned n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static unsigned long big_frame(int k)
{
	char buf[256 * 1024];
	memset(buf, k, sizeof buf);
	unsigned long s = 0;
	for (size_t i = 0; i < sizeof buf; i += 1000)
		s += (unsigned char)buf[i];
	return k ? s + big_frame(k - 1) : s;
}

int main(void)
{
	printf("deep %lu\n", deep(40000, 1));
	printf("ack(2,300) %u ack(3,6) %u\n", ack(2, 300), ack(3, 6));
	printf("big frames %lu\n", big_frame(7));
	int n = 100000;
	int vla[n];
	for (int i = 0; i < n; i++)
		vla[i] = i * i;
	long s = 0;
	for (int i = 0; i < n; i += 7)
		s += vla[i];
	printf("vla %ld\n", s);
	return 0;
}
