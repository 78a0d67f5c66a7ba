/* Guest program with a known profile shape: main -> caller -> hot does
 * most of the work, main -> cold a little. noinline keeps each function
 * a symbol of its own; the loops are long enough to have many pcs. */
volatile long sink;

__attribute__((noinline)) long hot(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		s += i * i ^ (s >> 3);
		s ^= s << 7;
		if (s & 0x100)
			s += i;
	}
	return s;
}

__attribute__((noinline)) long cold(long n)
{
	long s = 1;
	for (long i = 0; i < n; i++)
		s = s * 3 + i;
	return s;
}

__attribute__((noinline)) long caller(long n)
{
	return hot(n) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	long r = caller(9000L * argc);
	r += cold(1000L * argc);
	sink = r;
	return 0;
}
