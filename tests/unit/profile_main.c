/* Runs every group of tests/unit/profile_*.c; one line per group. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "profile_test.h"

static int fails;
static char first[600];

void prt_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[500];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "  %s:%d: %s\n", file, line, msg);
	if (!fails++)
		snprintf(first, sizeof first, "%s:%d: %s", file, line, msg);
}

const char *prt_src(void)
{
	const char *s = getenv("PROFILE_SRC");
	return s && *s ? s : "profiles";
}

const char *prt_tmp(void)
{
	const char *s = getenv("PROFILE_TMP");
	return s && *s ? s : "/tmp";
}

struct profile *prt_load(const char *name)
{
	static struct profile slots[2];
	static int next;
	struct profile *p = &slots[next++ & 1];
	char path[512], err[512];
	snprintf(path, sizeof path, "%s/%s.json", prt_src(), name);
	if (profile_load_file(path, p, err, sizeof err)) {
		CHECK(0, "loading %s: %s", path, err);
		return NULL;
	}
	return p;
}

char *prt_text(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s.json", prt_src(), name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		CHECK(0, "cannot open %s", path);
		return NULL;
	}
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

int main(void)
{
	int bad = 0;
#define RUN(g) \
	fails = 0; \
	fprintf(stderr, "group %s\n", #g); \
	test_##g(); \
	if (fails) { \
		printf("FAIL profiles %s: %s%s\n", #g, first, fails > 1 ? " (and more, see stderr)" : ""); \
		bad = 1; \
	} else \
		printf("PASS profiles %s\n", #g);
	PROFILE_GROUPS(RUN)
#undef RUN
	return bad;
}
