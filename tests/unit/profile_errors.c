/* Bad profiles: every error names the file, the key path and what was
 * expected; truncated and garbage input never crash. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "profile_test.h"

static struct profile scratch;

/* root with the value at path ("a.b[2].c") replaced by v (NULL: deleted) */
static int mutate(json_t *root, const char *path, json_t *v)
{
	char buf[200];
	snprintf(buf, sizeof buf, "%s", path);
	json_t *cur = root;
	char *tok = buf;
	for (;;) {
		char *dot = strchr(tok, '.');
		if (dot)
			*dot = 0;
		char *br = strchr(tok, '[');
		long idx = -1;
		if (br) {
			*br = 0;
			idx = strtol(br + 1, NULL, 10);
		}
		bool last = !dot;
		if (idx < 0 && last) {
			if (!v)
				return json_object_del(cur, tok);
			return json_object_set_new(cur, tok, v);
		}
		json_t *next = json_object_get(cur, tok);
		if (!next)
			return -1;
		if (idx >= 0) {
			if (last) {
				if (!v)
					return json_array_remove(next, idx);
				return json_array_set_new(next, idx, v);
			}
			next = json_array_get(next, idx);
			if (!next)
				return -1;
		}
		cur = next;
		tok = dot + 1;
	}
}

struct mcase {
	const char *path;       /* key to change */
	const char *value;      /* new JSON value; NULL deletes the key */
	const char *err_path;   /* NULL: the profile must still load */
	const char *err_text;
};

static void run_cases(const char *name, const struct mcase *cs, size_t n)
{
	size_t len;
	char *text = prt_text(name, &len);
	if (!text)
		return;
	for (size_t i = 0; i < n; i++) {
		json_error_t je;
		json_t *root = json_loads(text, 0, &je);
		CHECK(root != NULL, "reparse %s", name);
		if (!root)
			break;
		json_t *v = cs[i].value ? json_loads(cs[i].value, JSON_DECODE_ANY, &je) : NULL;
		CHECK(!cs[i].value || v, "test value %s", cs[i].value);
		CHECK(mutate(root, cs[i].path, v) == 0, "test cannot set %s", cs[i].path);
		char *out = json_dumps(root, JSON_PRESERVE_ORDER);
		char err[512] = "";
		int r = profile_parse(out, strlen(out), "mut.json", &scratch, err, sizeof err);
		if (!cs[i].err_path) {
			CHECK(r == 0, "%s = %s: should load, got: %s", cs[i].path, cs[i].value, err);
		} else {
			char want[256];
			snprintf(want, sizeof want, "mut.json: %s", cs[i].err_path);
			CHECK(r == -1, "%s = %s: loaded", cs[i].path, cs[i].value ? cs[i].value : "(deleted)");
			CHECK(!strncmp(err, want, strlen(want)), "%s: error does not start with \"%s\": %s",
			      cs[i].path, want, err);
			CHECK(strstr(err, cs[i].err_text) != NULL, "%s: error lacks \"%s\": %s",
			      cs[i].path, cs[i].err_text, err);
		}
		free(out);
		json_decref(root);
	}
	free(text);
}

void test_errors(void)
{
	static const struct mcase cs[] = {
		{ "pmu.hpm_width", NULL, "pmu.hpm_width: ", "missing required key" },
		{ "pmu.hpm_width", "\"wide\"", "pmu.hpm_width: ", "expected an integer" },
		{ "pmu.hpm_width", "65", "pmu.hpm_width: ", "1..64" },
		{ "pmu.hpm_width", "0", "pmu.hpm_width: ", "1..64" },
		{ "pmu.hpm_width", "true", "pmu.hpm_width: ", "got a boolean" },
		{ "pmu.hpm_counters", "30", "pmu.hpm_counters: ", "0..29" },
		{ "caches.l1d.sets", "-64", "caches.l1d.sets: ", "expected an integer in 1..1048576" },
		{ "caches.l1d.sets", "0", "caches.l1d.sets: ", "1..1048576" },
		{ "caches.l1d.sets", "48", "caches.l1d.sets: ", "power of two" },
		{ "caches.l1d.sets", "\"0x40\"", NULL, NULL },
		{ "caches.l1d.sets", "\"064\"", "caches.l1d.sets: ", "\"0x...\" string" },
		{ "caches.l1d.line", "48", "caches.l1d.line: ", "power of two" },
		{ "caches.l1d.line", "8192", "caches.l1d.line: ", "4..4096" },
		{ "caches.l1d.size", "1234", "caches.l1d.size: ", "disagrees with sets * ways * line" },
		{ "caches.l1d.ways", "3.0", "caches.l1d.ways: ", "got a real number" },
		{ "caches.l1d", "{\"sets\": 64, \"ways\": 6, \"line\": 64, \"replacement\": \"plru\", \"hit_latency\": 3}",
		  "caches.l1d.replacement: ", "power-of-two ways" },
		{ "caches.l1d.replacement", "\"random\"", "caches.l1d.replacement: ", "\"lru\" or \"plru\"" },
		{ "caches.l1d.write_policy", "\"sometimes\"", "caches.l1d.write_policy: ", "\"write-back\" or \"write-through\"" },
		{ "caches.l1d", "[]", "caches.l1d: ", "expected an object, got an array" },
		{ "caches.l1i", NULL, "caches.l1i: ", "missing required key" },
		{ "caches.l2", NULL, NULL, NULL },
		{ "caches.l2.hit_latency", "2", "caches.l2.hit_latency: ", "more than the L1" },
		{ "caches.l2.line", "32", "caches.l2.size: ", "disagrees" },
		{ "caches.l2", "{\"sets\": 2048, \"ways\": 16, \"line\": 32, \"replacement\": \"plru\", \"hit_latency\": 20}",
		  "caches.l2.line: ", "at least the L1 line sizes" },
		{ "caches.l1d.shared", "true", "caches.l1d.shared: ", "only the last level, l2, may be shared" },
		{ "caches.l1i.shared", "true", "caches.l1i.shared: ", "only the last level" },
		{ "caches.l1d.shared", "false", NULL, NULL },
		{ "caches.l2.shared", "false", NULL, NULL },
		{ "caches.l2.shared", "1", "caches.l2.shared: ", "expected true or false" },
		{ "cahces", "{}", "cahces: ", "unknown key" },
		{ "caches.l1d.assoc", "8", "caches.l1d.assoc: ", "unknown key" },
		{ "memory.latency_ns", "10", "memory.latency_ns: ", "more than the last cache's hit latency (20), got 12 cycles" },
		{ "memory.latency_ns", "0", "memory.latency_ns: ", "1..2000" },
		{ "memory.latency_ns", "1800", "memory.latency_ns: ", "2160 cycles at clock_hz, expected at most 2000" },
		{ "memory.latency", "120", "memory: ", "exactly one of latency (cycles) and latency_ns" },
		{ "memory.latency_ns", NULL, "memory: ", "exactly one of" },
		{ "memory.read_bandwidth", "0", "memory.read_bandwidth: ", "1..10000000" },
		{ "memory.write_bandwidth", "8000", NULL, NULL },
		{ "caches.l2.mshrs", NULL, NULL, NULL },
		{ "caches.l1i.mshrs", "2", "caches.l1i.mshrs: ", "only the L1D and the L2" },
		{ "caches.l1d.mshrs", "9", "caches.l1d.mshrs: ", "0..8" },
		{ "caches.l1d.prefetcher", "{}", "caches.l1d.prefetcher: ", "only the L2" },
		{ "caches.l2.prefetcher.distance", "7", "caches.l2.prefetcher.distance: ", "1..6" },
		{ "caches.l2.prefetcher.window", NULL, "caches.l2.prefetcher.window: ", "missing required key" },
		{ "caches.l2.prefetcher.depth", "2", "caches.l2.prefetcher.depth: ", "unknown key" },
		{ "pipeline.late_alu", "3", "pipeline.late_alu: ", "less than load_use_latency (3)" },
		{ "pipeline.pairing", "\"both\"", "pipeline.pairing: ", "\"units\" or \"pipes\"" },
		{ "pipeline.fp32_latency", "0", "pipeline.fp32_latency: ", "1..1000" },
		{ "base", "\"virt\"", "base: ", "only a profile read from a file" },
		{ "tlbs.itlb.ways", "3", "tlbs.itlb.ways: ", "dividing entries" },
		{ "tlbs.itlb.entries", "0", "tlbs.itlb.entries: ", "1..65536" },
		{ "tlbs.itlb", "{\"entries\": 128, \"ways\": 128, \"replacement\": \"plru\"}",
		  "tlbs.itlb.ways: ", "power-of-two ways up to 64" },
		{ "tlbs.itlb", "{\"entries\": 128, \"ways\": 128, \"replacement\": \"lru\"}", NULL, NULL },
		{ "tlbs.page_size", "1000", "tlbs.page_size: ", "4096..1073741824" },
		{ "tlbs.page_size", "12288", "tlbs.page_size: ", "power of two" },
		{ "branch_predictor.history_bits", "20", "branch_predictor.history_bits: ", "1..14" },
		{ "branch_predictor.kind", "\"bimodal\"", "branch_predictor.history_bits: ", "only kind \"gshare\"" },
		{ "branch_predictor.kind", "\"tage\"", "branch_predictor.kind: ", "\"bimodal\" or \"gshare\"" },
		{ "branch_predictor.btb_ways", "3", "branch_predictor.btb_ways: ", "divisor of btb_entries" },
		{ "branch_predictor.bht_entries", "3000", "branch_predictor.bht_entries: ", "power of two" },
		{ "pipeline.load_use_latency", "1", "pipeline.load_use_latency: ", "at least caches.l1d.hit_latency" },
		{ "pipeline.issue_width", "9", "pipeline.issue_width: ", "1..2" },
		{ "ids.marchid", "1.5", "ids.marchid: ", "got a real number" },
		{ "ids.mvendorid", "\"0x100000000\"", "ids.mvendorid: ", "0..4294967295" },
		{ "ids.mimpid", "\"0xfffffffffffffffff\"", "ids.mimpid: ", "\"0x...\" string" },
		{ "clock_hz", "0", "clock_hz: ", "1000..100000000000" },
		{ "name", "\"U74\"", "name: ", "lower-case" },
		{ "isa", "\"rv32imac\"", "isa: ", "RV64" },
		{ "description", "\"\"", "description: ", "non-empty string" },
		{ "pmu.u_mode", "false", "pmu.s_mode: ", "requires U mode" },
		{ "pmu.extensions.sscofpmf", "true", NULL, NULL },
		{ "pmu.extensions.zihpm", "true", "pmu.extensions.zihpm: ", "unknown key" },
		{ "pmu.selector_encoding", "\"sbi\"", "pmu.classes: ", "only a \"sifive\"" },
		{ "pmu.selector_encoding", "\"andes\"", "pmu.selector_encoding: ", "\"sbi\" or \"sifive\"" },
		{ "pmu.classes", NULL, "pmu.classes: ", "missing required key" },
		{ "pmu.classes", "[]", "pmu.classes: ", "non-empty array" },
		{ "pmu.classes[0].bits.9", "[\"no-such\"]", "pmu.classes[0].bits.9[0]: ", "canonical event name" },
		{ "pmu.classes[0].bits.9", "[7]", "pmu.classes[0].bits.9[0]: ", "got an integer" },
		{ "pmu.classes[0].bits.9", "[]", "pmu.classes[0].bits.9: ", "non-empty array" },
		{ "pmu.classes[0].bits.60", "[\"jal\"]", "pmu.classes[0].bits.60: ", "8..55" },
		{ "pmu.classes[0].bits.x", "[\"jal\"]", "pmu.classes[0].bits.x: ", "8..55" },
		{ "pmu.classes[0].bits.25", "[\"jal\"]", "pmu.classes[0].bits.", "already selected" },
		{ "pmu.classes[1].class", "0", "pmu.classes[1].class: ", "duplicate class 0" },
		{ "pmu.classes[1].class", "256", "pmu.classes[1].class: ", "0..255" },
		{ "sbi_events", "{}", "sbi_events: ", "expected an array" },
		{ "sbi_events[2].counters", "\"0x19\"", "sbi_events[2].counters: ", "cannot use" },
		{ "sbi_events[2].counters", "\"0x20\"", "sbi_events[2].counters: ", "cannot use" },
		{ "sbi_events[2].counters", "\"0x0\"", "sbi_events[2].counters: ", "non-empty" },
		{ "sbi_events[2].selector", "\"0x7\"", "sbi_events[2].selector: ", "selects no event" },
		{ "sbi_events[2].selector", "\"0x100000000000000\"", "sbi_events[2].selector: ", "1..72057594037927935" },
		{ "sbi_events[2].selector", NULL, "sbi_events[2].selector: ", "missing required key" },
		{ "sbi_events[0].selector", "\"0x200\"", "sbi_events[0].selector: ", "only an event mapped to mhpmcounters" },
		{ "sbi_events[3].event_idx", "\"0x5\"", "sbi_events[3].event_idx: ", "duplicate event_idx 0x5" },
		{ "sbi_events[2].event_idx", "\"0x20000\"", "sbi_events[2].event_idx: ", "SBI hardware general" },
		{ "sbi_events[2].event_idx", "\"0x1003f\"", "sbi_events[2].event_idx: ", "SBI hardware general" },
		{ "sbi_events[2].event_idx", "\"0x1\"", "sbi_events[2].", "" },
		{ "sbi_events[2].colour", "1", "sbi_events[2].colour: ", "unknown key" },
		{ "raw_events[0].match", "\"0x1\"", "raw_events[0].match: ", "outside mask" },
		{ "raw_events[0].counters", "\"0x1c\"", "raw_events[0].counters: ", "cannot use" },
		{ "raw_events", NULL, NULL, NULL },
		{ "perf_events[1].EventName", "\"exceptions_taken\"", "perf_events[1].EventName: ", "duplicate event name" },
		{ "perf_events[1].EventName", "\"BAD NAME\"", "perf_events[1].EventName: ", "letters, digits" },
		{ "perf_events[0].EventCode", "256", "perf_events[0].EventCode: ", "hex string" },
		{ "perf_events[0].EventCode", "\"0x3\"", "perf_events[0].EventCode: ", "selects no event" },
		{ "perf_events[0].EventCode", "\"0xzz\"", "perf_events[0].EventCode: ", "\"0x...\" string" },
		{ "perf_events[0].EventCode", "\"0x1000000000000\"", "perf_events[0].EventCode: ", "1..281474976710655" },
		{ "perf_events[0].BriefDescription", "\"\"", "perf_events[0].BriefDescription: ", "non-empty string" },
		{ "perf_events[0].BriefDescription", NULL, "perf_events[0].BriefDescription: ", "missing required key" },
		{ "perf_events[0].Topic", "\"x\"", "perf_events[0].Topic: ", "unknown key" },
		{ "perf_events[0]", "\"EVENT\"", "perf_events[0]: ", "expected an object" },
		{ "perf_metrics[1].MetricName", "\"ipc\"", "perf_metrics[1].MetricName: ", "duplicate metric name" },
		{ "perf_metrics[0].MetricName", "\"I P C\"", "perf_metrics[0].MetricName: ", "letters, digits" },
		{ "perf_metrics[0].MetricExpr", NULL, "perf_metrics[0].MetricExpr: ", "missing required key" },
		{ "perf_metrics[0].MetricExpr", "7", "perf_metrics[0].MetricExpr: ", "string" },
		{ "perf_metrics[0].MetricGroup", "[]", "perf_metrics[0].MetricGroup: ", "string" },
		{ "perf_metrics[0].Unit", "\"x\"", "perf_metrics[0].Unit: ", "unknown key" },
		{ "perf_metrics", "{}", "perf_metrics: ", "expected an array" },
	};
	run_cases("u74", cs, sizeof cs / sizeof cs[0]);
}

void test_errors_virt(void)
{
	static const struct mcase cs[] = {
		{ "sbi_events[0].selector", "\"0x2\"", "sbi_events[0].selector: ", "the event_idx itself" },
		{ "sbi_events[1].selector", "\"0x1\"", "sbi_events[1].selector: ", "the event_idx itself" },
		{ "sbi_events[2].counters", "\"0x7fffa\"", "sbi_events[2].counters: ", "cannot use" },
		{ "sbi_events[2].counters", "\"0x100000\"", "sbi_events[2].counters: ", "cannot use" },
		{ "pmu.classes", "[]", "pmu.classes: ", "only a \"sifive\"" },
		{ "pmu.s_mode", "false", "pmu.extensions.smcdeleg: ", "requires S mode" },
		{ "pmu.hpm_counters", "3", "sbi_events[0].counters: ", "cannot use" },
		{ "perf_events[0].EventCode", "\"0x1000000\"", "perf_events[0].EventCode: ", "selects no event" },
		{ "perf_events[0].EventCode", "\"0x20000\"", "perf_events[0].EventCode: ", "selects no event" },
		{ "pmu.skid", "-1", "pmu.skid: ", "0..4096" },
		{ "pmu.hpm_width", "32", NULL, NULL },
	};
	run_cases("virt", cs, sizeof cs / sizeof cs[0]);
}

static void expect_parse_error(const char *text, size_t len, const char *want1, const char *want2)
{
	char err[512] = "";
	int r = profile_parse(text, len, "mut.json", &scratch, err, sizeof err);
	CHECK(r == -1, "loaded: %.40s", text);
	CHECK(strstr(err, want1) == err, "error does not start with \"%s\": %s", want1, err);
	CHECK(strstr(err, want2) != NULL, "error lacks \"%s\": %s", want2, err);
}

void test_syntax(void)
{
	expect_parse_error("", 0, "mut.json:", "invalid JSON");
	expect_parse_error("[1, 2]", 6, "mut.json: (top level): ", "expected a JSON object, got an array");
	expect_parse_error("{\"name\": \"x\"", 12, "mut.json:1:", "invalid JSON");
	expect_parse_error("{}", 2, "mut.json: name: ", "missing required key");
	size_t len;
	char *text = prt_text("u74", &len);
	if (!text)
		return;
	/* a repeated key is an error, not a silent override */
	char *dup = malloc(len + 32);
	char *brace = strchr(text, '{');
	size_t pre = (size_t)(brace - text) + 1;
	memcpy(dup, text, pre);
	int k = sprintf(dup + pre, "\"name\": \"x\",");
	memcpy(dup + pre + k, text + pre, len - pre + 1);
	expect_parse_error(dup, strlen(dup), "mut.json:", "duplicate");
	free(dup);
	/* a NUL inside a string (jansson refuses it) */
	char *nul = strstr(text, "\"u74\"");
	CHECK(nul != NULL, "u74.json names itself");
	if (nul) {
		char *t2 = strdup(text);
		size_t at = (size_t)(nul - text);
		char *out = malloc(len + 16);
		memcpy(out, t2, at);
		int m = sprintf(out + at, "\"u\\u0000x\"");
		memcpy(out + at + m, t2 + at + 5, len - at - 5 + 1);
		expect_parse_error(out, strlen(out), "mut.json:", "invalid JSON");
		free(out);
		free(t2);
	}
	free(text);
}

/* every proper prefix of a good profile is an error naming the file */
void test_truncated(void)
{
	const char *names[] = { "u74", "virt" };
	for (int n = 0; n < 2; n++) {
		size_t len;
		char *text = prt_text(names[n], &len);
		if (!text)
			continue;
		char err[512];
		unsigned loaded = 0;
		for (size_t cut = 0; cut < len; cut++) {
			char *copy = malloc(cut ? cut : 1);   /* exact size: ASan sees over-reads */
			memcpy(copy, text, cut);
			err[0] = 0;
			int r = profile_parse(copy, cut, "cut.json", &scratch, err, sizeof err);
			/* only trailing whitespace may be cut from a valid file */
			if (r == 0) {
				loaded++;
				CHECK(strspn(text + cut, " \t\r\n") == len - cut, "%s cut at %zu loaded", names[n], cut);
			} else {
				CHECK(!strncmp(err, "cut.json:", 9), "%s cut at %zu: %s", names[n], cut, err);
			}
			free(copy);
		}
		CHECK(profile_parse(text, len, "full.json", &scratch, err, sizeof err) == 0, "full %s: %s", names[n], err);
		CHECK(loaded <= 1, "%s: %u truncations loaded", names[n], loaded);
		free(text);
	}
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* random byte damage and random bytes: an error or a load, never a crash
 * (the suite also runs this under ASan/UBSan) */
void test_garbage(void)
{
	size_t len;
	char *text = prt_text("u74", &len);
	if (!text)
		return;
	char err[512];
	unsigned ok = 0, bad = 0;
	for (int it = 0; it < 3000; it++) {
		char *copy = malloc(len);
		memcpy(copy, text, len);
		int flips = 1 + (int)(next() % 4);
		for (int f = 0; f < flips; f++)
			copy[next() % len] = (char)(next() & 0xff);
		err[0] = 0;
		int r = profile_parse(copy, len, "junk.json", &scratch, err, sizeof err);
		if (r == 0) {
			ok++;
		} else {
			bad++;
			CHECK(r == -1 && !strncmp(err, "junk.json", 9), "iteration %d: %d %s", it, r, err);
		}
		free(copy);
	}
	for (int it = 0; it < 500; it++) {
		size_t n = 1 + next() % 2000;
		char *buf = malloc(n);
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)(next() & 0xff);
		if (it & 1)
			buf[0] = '{';
		int r = profile_parse(buf, n, "junk.json", &scratch, err, sizeof err);
		CHECK(r == -1, "random bytes loaded");
		free(buf);
	}
	/* a zero-length error buffer is allowed */
	CHECK(profile_parse("{", 1, "x.json", &scratch, err, 0) == -1, "errlen 0");
	fprintf(stderr, "  garbage: %u damaged files loaded, %u rejected\n", ok, bad);
	CHECK(bad > 0, "no damage was detected");
	free(text);
}

void test_resolve(void)
{
	char err[512], path[600];
	struct profile *p = &scratch;
	setenv("RVPMU_PROFILE_DIR", prt_src(), 1);
	CHECK(profile_load("u74", p, err, sizeof err) == 0, "u74 by name: %s", err);
	CHECK(!strcmp(p->name, "u74"), "loaded %s", p->name);
	snprintf(path, sizeof path, "%s/u74.json", prt_src());
	CHECK(!strcmp(p->file, path), "file %s, want %s", p->file, path);
	CHECK(profile_load("virt", p, err, sizeof err) == 0, "virt by name: %s", err);
	CHECK(profile_load(path, p, err, sizeof err) == 0, "by path: %s", err);
	CHECK(!strcmp(p->name, "u74"), "by path loaded %s", p->name);

	/* a copy under another name must say so */
	size_t len;
	char *text = prt_text("u74", &len);
	if (text) {
		snprintf(path, sizeof path, "%s/foo.json", prt_tmp());
		FILE *f = fopen(path, "w");
		CHECK(f != NULL, "write %s", path);
		if (f) {
			fwrite(text, 1, len, f);
			fclose(f);
		}
		setenv("RVPMU_PROFILE_DIR", prt_tmp(), 1);
		CHECK(profile_load("foo", p, err, sizeof err) == -1, "foo loaded");
		CHECK(strstr(err, path) == err && strstr(err, "name: expected \"foo\""), "foo: %s", err);
		CHECK(profile_load(path, p, err, sizeof err) == 0, "a path needs no matching name: %s", err);
		free(text);
	}
	CHECK(profile_load("no-such-core", p, err, sizeof err) == -1, "missing profile loaded");
	CHECK(strstr(err, "no-such-core.json") && strstr(err, prt_tmp()), "missing: %s", err);
	CHECK(profile_load("/nonexistent/x.json", p, err, sizeof err) == -1, "missing path");
	CHECK(strstr(err, "/nonexistent/x.json: cannot open") == err, "missing path: %s", err);
	CHECK(profile_load("bad name!", p, err, sizeof err) == -1 && strstr(err, "expected a name"), "bad name: %s", err);
	CHECK(profile_load("", p, err, sizeof err) == -1, "empty name");

	snprintf(path, sizeof path, "%s/big.json", prt_tmp());
	FILE *f = fopen(path, "w");
	if (f) {
		for (int i = 0; i < (1 << 20) + 1; i++)
			fputc(' ', f);
		fclose(f);
		CHECK(profile_load(path, p, err, sizeof err) == -1 && strstr(err, "at most 1 MiB"), "big: %s", err);
	}
	unsetenv("RVPMU_PROFILE_DIR");
}
