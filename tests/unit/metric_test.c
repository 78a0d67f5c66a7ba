/* Host unit test of perf's MetricExpr language (src/perf/metric.c):
 * values from first principles, perf's precedence and keywords, errors.
 * One line per check: "PASS metric NAME" / "FAIL metric NAME: why".
 *
 *   metric_test            the checks
 *   metric_test --corpus   read expressions (one a line) from stdin and
 *                          print "FAIL metric corpus: EXPR: why" for each
 *                          one that does not parse; then "N parsed" */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

static int failed;

/* a = 10, b = 4, branch-misses = 3, x.y:z@w = 2, iffy = 5; 1abc = 7 */
static int ids(void *ctx, const char *id, double *v)
{
	static const struct { const char *id; double v; } t[] = {
		{"a", 10}, {"b", 4}, {"branch-misses", 3}, {"x.y:z@w", 2}, {"iffy", 5}, {"1abc", 7},
	};
	(void)ctx;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].id, id)) {
			*v = t[i].v;
			return 0;
		}
	return -1;
}

static void value(const char *expr, double want)
{
	char err[256];
	double v = NAN;
	int r = metric_eval(expr, ids, NULL, 0, &v, err, sizeof(err));
	if (r || fabs(v - want) > 1e-9 * (fabs(want) + 1)) {
		failed = 1;
		printf("FAIL metric value %s: got %s%g, want %g\n", expr, r ? "error " : "", r ? 0 : v, want);
		if (r)
			printf("  (%s)\n", err);
	} else {
		printf("PASS metric value %s = %g\n", expr, want);
	}
}

static void error(const char *expr, const char *why)
{
	char err[256] = "";
	double v;
	int r = metric_eval(expr, ids, NULL, 0, &v, err, sizeof(err));
	if (!r || !strstr(err, why)) {
		failed = 1;
		printf("FAIL metric error %s: %s (want '%s')\n", expr, r ? err : "no error", why);
	} else {
		printf("PASS metric error %s: %s\n", expr, err);
	}
}

static int any_id(void *ctx, const char *id, double *v)
{
	(void)ctx, (void)id;
	*v = 1;
	return 0;
}

/* Linux's own metrics: each must parse (collect mode: names only). */
static int corpus(void)
{
	char line[8192], err[256];
	int n = 0, bad = 0;
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		double v;
		if (metric_eval(line, any_id, NULL, 1, &v, err, sizeof(err))) {
			printf("FAIL metric corpus: %s: %s\n", line, err);
			bad++;
		}
		n++;
	}
	printf("%d parsed, %d failed\n", n - bad, bad);
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--corpus"))
		return corpus();
	/* numbers as perf's lexer reads them */
	value("1", 1);
	value("2.5", 2.5);
	value("1e3", 1000);
	value("2e-1", 0.2);
	value(".5", 0.5);
	value("5.", 5);
	/* precedence and associativity (expr.y: | ^ & < > + - * / %, unary -) */
	value("1 + 2 * 3", 7);
	value("(1 + 2) * 3", 9);
	value("10 - 4 - 3", 3);
	value("8 / 4 / 2", 1);
	value("7 % 4 * 2", 6);
	value("-2 * 3", -6);
	value("- -3", 3);
	value("1 + 1 < 3", 1);
	value("3 > 4", 0);
	value("6 & 3", 2);
	value("6 | 3", 7);
	value("6 ^ 3", 5);
	value("1 | 2 & 3", 3);
	value("4 ^ 6 & 3", 6);
	/* if/else: loosest, nests to the right */
	value("1 if 1 else 2", 1);
	value("1 if 0 else 2", 2);
	value("1 + 1 if 0 else 7", 7);
	value("5 if 0 else 3 if 1 else 4", 3);
	value("(2 if a > b else 3) * 10", 20);
	/* functions and literals */
	value("min(3, 4)", 3);
	value("max(3, 4)", 4);
	value("d_ratio(6, 3)", 2);
	value("d_ratio(1, 0)", 0);
	value("source_count(a)", 1);
	value("#num_cpus", 1);
	value("#smt_on", 0);
	value("2 * #num_packages", 2);
	/* names: events and metrics through the callback */
	value("a / b", 2.5);
	value("1000 * a / b", 2500);
	value("branch\\-misses / a", 0.3);
	value("x.y:z@w", 2);
	value("iffy + 1", 6);
	value("1abc", 7);
	value("min(a, b) + max(a, b)", 14);
	/* errors */
	error("1 / 0", "division by zero");
	error("a % (b - 4)", "division by zero");
	error("1 +", "unexpected end");
	error("(1", "expected ')'");
	error("min(1)", "expected ','");
	error("1 2", "unexpected '2'");
	error("", "unexpected end");
	error("nosuch * 2", "unknown event or metric 'nosuch'");
	error("#bogus", "unknown literal '#bogus'");
	error("1 if 1", "expected 'else'");
	error("a $ b", "unexpected '$'");
	char deep[400];
	memset(deep, '(', 200);
	strcpy(deep + 200, "1");
	error(deep, "nested too deeply");
	/* collect mode gathers names and lets a zero divisor pass */
	double v;
	char err[64];
	int ok = !metric_eval("a / (b - b)", ids, NULL, 1, &v, err, sizeof(err));
	printf("%s metric collect mode: a zero divisor passes\n", ok ? "PASS" : "FAIL");
	failed |= !ok;
	/* -M's matching: name or one of the ';' groups, any case; all; No_group */
	struct profile_metric m = {.name = "L1D_MPKI", .group = "Cache;TLB"}, lone = {.name = "X"};
	ok = metric_matches(&m, "l1d_mpki") && metric_matches(&m, "cache") && metric_matches(&m, "TLB") &&
	     metric_matches(&m, "all") && !metric_matches(&m, "Cach") && !metric_matches(&m, "No_group") &&
	     metric_matches(&lone, "No_group") && !metric_matches(&lone, "Cache");
	printf("%s metric matching of -M items\n", ok ? "PASS" : "FAIL");
	failed |= !ok;
	return failed;
}
