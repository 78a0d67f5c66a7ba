/* Runs every group of tests/unit/pmu_*.c; one line per group on stdout. */
#include <stdarg.h>
#include <string.h>
#include "pmu_test.h"

static int fails;
static char first[512];

void pt_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "  %s:%d: %s\n", file, line, msg);
	if (!fails++)
		snprintf(first, sizeof first, "%s:%d: %s", file, line, msg);
}

void pt_make(struct pmu *p, void (*fix)(struct pmu_config *))
{
	struct pmu_config c;
	pmu_config_default(&c);
	if (fix)
		fix(&c);
	int r = pmu_init(p, &c);
	CHECK(r == 0, "pmu_init refused the test's config");
}

void pt_fix_h(struct pmu_config *c)
{
	c->has_h = true;
}

int pt_rd(struct pmu *p, unsigned priv, unsigned csr, uint64_t *v)
{
	uint64_t t = 0;
	int r = pmu_csr_access(p, priv, csr, PMU_CSR_SET, 0, 0, &t, NULL);
	if (v)
		*v = t;
	return r;
}

/* a whole CSR instruction: the access, then its own retirement (with no
 * events, so tests count only the events they raise) */
int pt_wr(struct pmu *p, unsigned priv, unsigned csr, uint64_t v)
{
	static const uint64_t none[PMU_EV_MAX];
	uint64_t old;
	int r = pmu_csr_access(p, priv, csr, PMU_CSR_WRITE, v, 1, &old, NULL);
	pmu_retire(p, priv, none);
	return r;
}

uint64_t pt_rdm(struct pmu *p, unsigned csr)
{
	uint64_t v = 0;
	int r = pt_rd(p, M, csr, &v);
	CHECK(r == PMU_OK, "M read of 0x%03x: status %d", csr, r);
	return v;
}

void pt_wrm(struct pmu *p, unsigned csr, uint64_t v)
{
	int r = pt_wr(p, M, csr, v);
	CHECK(r == PMU_OK, "M write of 0x%03x: status %d", csr, r);
}

static int group(const char *name, void (*fn)(void))
{
	fails = 0;
	fprintf(stderr, "pmu %s\n", name);
	fn();
	if (fails)
		printf("FAIL pmu %s: %d check(s) failed; first %s\n", name, fails, first);
	else
		printf("PASS pmu %s\n", name);
	return fails != 0;
}

int main(void)
{
	int bad = 0;
#define RUN(g) bad += group(#g, test_##g);
	PMU_GROUPS(RUN)
#undef RUN
	return bad != 0;
}
