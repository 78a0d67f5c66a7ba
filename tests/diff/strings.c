/* String and memory functions at every alignment and length near word
 * boundaries, formatted output into buffers, parsing, tokenising. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char a[256], b[256];

static uint32_t sum(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;
	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

int main(void)
{
	uint32_t h = 0;
	for (int off = 0; off < 16; off++)
		for (int len = 0; len < 40; len++) {
			for (int i = 0; i < 256; i++)
				a[i] = (unsigned char)(i * 7 + 1), b[i] = 0;
			memcpy(b + off, a + (15 - off), (size_t)len);
			h = h * 3 + sum(b, 96);
			memmove(a + off, a + off + 3, (size_t)len);	/* overlap, forward */
			memmove(a + off + 5, a + off, (size_t)len);	/* overlap, backward */
			h = h * 3 + sum(a, 96);
			memset(b + off, 0xa5, (size_t)len);
			h = h * 3 + sum(b, 96);
			int c = memcmp(a + off, b + off, (size_t)len);
			h = h * 3 + (uint32_t)(c > 0) - (uint32_t)(c < 0);
			/* a C string of length len at offset off */
			memset(b, 'x', sizeof b);
			b[off + len] = 0;
			h = h * 3 + (uint32_t)strlen((char *)b + off);
			char *p = memchr(b + off, 0, 64);
			h = h * 3 + (uint32_t)(p - (char *)b);
			p = strchr((char *)b + off, 'y');
			h = h * 3 + (p == NULL);
			h = h * 3 + (uint32_t)(strrchr((char *)b, 'x') - (char *)b);
		}
	printf("mem hash %08x\n", h);

	char s[128], t[128];
	strcpy(s, "Hello");
	strcat(s, ", ");
	volatile size_t six = 6;
	strncat(s, "world!!!", six);
	printf("'%s' len %zu\n", s, strlen(s));
	printf("cmp %d %d %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0,
	       strcmp("same", "same"), strncmp("abcX", "abcY", 3), strcmp("\xff", "\x01") > 0);
	printf("casecmp %d %d\n", strcasecmp("HeLLo", "hello"), strncasecmp("ABCd", "abce", 3));
	printf("strstr '%s' '%s' %p\n", strstr(s, "wor"), strstr(s, ""), (void *)strstr(s, "xyz"));
	printf("spn %zu %zu pbrk '%s'\n", strspn("aabbcxd", "abc"), strcspn("hello", "lo"),
	       strpbrk("hello", "lo"));
	strncpy(t, "abc", 6);
	printf("strncpy %d %d %d\n", t[3], t[4], t[5]);
	char *d = strdup(s);
	for (char *q = d; *q; q++)
		*q = (char)(isalpha((unsigned char)*q) ? toupper((unsigned char)*q) : *q);
	printf("upper '%s'\n", d);
	free(d);

	char line[] = "  one,two;;three , four,,five ";
	for (char *tok = strtok(line, ",; "); tok; tok = strtok(NULL, ",; "))
		printf("tok '%s'\n", tok);

	printf("strtol %ld %ld %ld %ld\n", strtol("  -0x1f", NULL, 0), strtol("0777", NULL, 0),
	       strtol("101", NULL, 2), strtol("zz", NULL, 36));
	char *end;
	long v = strtol("12345abc", &end, 10);
	printf("strtol %ld rest '%s' atoi %d atol %ld\n", v, end, atoi("-77"), atol("99999999999"));
	unsigned long long u = strtoull("18446744073709551616", &end, 10);
	printf("overflow %llu\n", u);

	int n = snprintf(t, sizeof t, "[%10s|%-10s|%.2s|%c|%5.1s]", "right", "left", "trunc", 'Z', "xy");
	printf("%s %d\n", t, n);
	n = sprintf(t, "%s-%d-%x", "k", 12, 255);
	printf("%s %d\n", t, n);
	int x1, x2;
	char w[16];
	n = sscanf("  17 0x2a word rest", "%d %i %15s", &x1, &x2, w);
	printf("sscanf %d %d %d '%s'\n", n, x1, x2, w);

	/* character classes over the whole 8-bit range */
	unsigned cls = 0;
	for (int c = 0; c < 256; c++)
		cls = cls * 7 + (unsigned)(!!isalpha(c) + 2 * !!isdigit(c) + 4 * !!isspace(c) +
					  8 * !!ispunct(c) + 16 * !!isupper(c) + 32 * !!isprint(c));
	printf("ctype %08x\n", cls);
	return 0;
}
