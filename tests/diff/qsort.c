/* qsort and bsearch over ints, doubles, strings and structs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t s = 88172645463325252u;
static uint64_t xorshift(void)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}

static int icmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}
static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}
static int scmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
struct rec { int key; char name[12]; double w; };
static int rcmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return strcmp(x->name, y->name);
}

enum { N = 20000 };
static int iv[N];
static double dv[N];
static char sbuf[N][8];
static char *sv[N];
static struct rec rv[2000];

int main(void)
{
	for (int i = 0; i < N; i++) {
		iv[i] = (int)(xorshift() % 100000) - 50000;
		dv[i] = (double)(int64_t)xorshift() / 1e12;
		snprintf(sbuf[i], sizeof sbuf[i], "%07u", (unsigned)(xorshift() % 10000000));
		sv[i] = sbuf[i];
	}
	qsort(iv, N, sizeof iv[0], icmp);
	qsort(dv, N, sizeof dv[0], dcmp);
	qsort(sv, N, sizeof sv[0], scmp);
	int sorted = 1;
	for (int i = 1; i < N; i++)
		sorted &= iv[i - 1] <= iv[i] && dv[i - 1] <= dv[i] && strcmp(sv[i - 1], sv[i]) <= 0;
	printf("sorted %d\n", sorted);
	for (int i = 0; i < N; i += N / 10)
		printf("%d %d %.6f %s\n", i, iv[i], dv[i], sv[i]);
	int found = 0;
	for (int k = -50000; k < 50000; k += 37)
		found += bsearch(&k, iv, N, sizeof iv[0], icmp) != NULL;
	printf("bsearch found %d\n", found);

	for (int i = 0; i < 2000; i++) {
		rv[i].key = (int)(xorshift() % 50);
		snprintf(rv[i].name, sizeof rv[i].name, "n%05d", (int)(xorshift() % 100000));
		rv[i].w = (double)i;
	}
	qsort(rv, 2000, sizeof rv[0], rcmp);
	double h = 0;
	for (int i = 0; i < 2000; i++)
		h = h * 0.999 + rv[i].w * (i + 1);
	printf("records first %d %s last %d %s hash %.6f\n", rv[0].key, rv[0].name, rv[1999].key,
	       rv[1999].name, h);
	return 0;
}
