/* Unit tests of the perf.data writer and reader: a round trip of every
 * field the writer takes, a file laid out by hand from the format
 * description (not by the writer), and the writer's errors. Prints
 * "PASS perfdata-unit NAME" / "FAIL perfdata-unit NAME: why" lines.
 *   perfdata_test DIR    (scratch files go to DIR) */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/perfdata.h"

static int failed;
static const char *dir = "/tmp";

#define CHECK(name, cond, ...) do { \
	if (cond) printf("PASS perfdata-unit %s\n", name); \
	else { printf("FAIL perfdata-unit %s: ", name); printf(__VA_ARGS__); printf("\n"); failed = 1; } \
} while (0)

static void round_trip(void)
{
	char path[512], err[512];
	snprintf(path, sizeof(path), "%s/rt.data", dir);
	struct perfdata_event ev[3] = {
		{ .name = "cycles", .type = PERFDATA_TYPE_HARDWARE, .config = 0,
		  .sample_period = 1000, .exclude_kernel = 1, .callchain = 1 },
		{ .name = "r8001", .type = PERFDATA_TYPE_RAW, .config = 0x8001,
		  .sample_period = 4000, .freq = 1, .branch_stack = 1 },
		{ .name = "branches", .type = PERFDATA_TYPE_HARDWARE, .config = 4,
		  .sample_period = 77, .callchain = 1, .branch_stack = 1,
		  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
		  PERF_SAMPLE_BRANCH_HW_INDEX },
	};
	char *argv[] = { "rvpmu", "record", "-e", "cycles", "./prog" };
	struct perfdata_writer *w = perfdata_create(path, ev, 3, 5, argv, err, sizeof(err));
	CHECK("create", w, "%s", err);
	if (!w)
		return;
	int rc = perfdata_comm(w, 7, 8, "a-very-long-command-name", 1);
	rc |= perfdata_mmap2(w, 7, 8, 0x10000, 0x5000, 0x1000, 5, "/proc/self/exe");
	enum { N = 300 };
	for (unsigned i = 0; i < N; i++) {
		uint64_t cc[5] = { 0x10000 + i, 0x20000 + i, 0x30000 + i, 0x40000, 0x50000 };
		struct perfdata_branch br[3] = {
			{ 0x100 + i, 0x200 + i, 65535, 1, 0, PERFDATA_BR_COND, 1 },
			{ 0x300, 0x400, (uint16_t)i, 0, 1, PERFDATA_BR_RET, 2 },
			{ 0x500, 0x600, 0, 1, 1, PERFDATA_BR_IND_CALL, 3 },
		};
		struct perfdata_sample s = {
			.ip = 0x10000 + i, .pid = 7, .tid = 8 + i % 2, .time = 100 + i, .period = 10 + i,
			.cpu = i % 4, .callchain = cc, .nr_callchain = i % 6, .branches = br,
			.nr_branches = i % 4,
		};
		rc |= perfdata_sample(w, i % 3, &s);
	}
	CHECK("bad-event-index", perfdata_sample(w, 3, &(struct perfdata_sample){ .ip = 1 }) < 0,
	      "event 3 of 3 accepted");
	rc |= perfdata_exit(w, 7, 7, 8, 8, 1000);
	CHECK("records", !rc, "a record write failed");
	CHECK("nsamples", perfdata_nsamples(w) == N, "%llu", (unsigned long long)perfdata_nsamples(w));
	CHECK("close", !perfdata_close(w, err, sizeof(err)), "%s", err);

	struct perfdata_file f;
	if (perfdata_read(path, &f, err, sizeof(err))) {
		CHECK("read", 0, "%s", err);
		return;
	}
	CHECK("read", 1, "-");
	CHECK("events", f.nevents == 3 && !strcmp(f.events[0].name, "cycles") &&
	      !strcmp(f.events[1].name, "r8001") && !strcmp(f.events[2].name, "branches") &&
	      f.events[1].type == PERFDATA_TYPE_RAW && f.events[1].config == 0x8001 &&
	      f.events[1].freq && f.events[1].sample_period == 4000 && f.events[0].exclude_kernel &&
	      !f.events[1].exclude_kernel && f.events[2].sample_period == 77,
	      "names/attrs differ");
	CHECK("sample-types", (f.events[0].sample_type & PERF_SAMPLE_CALLCHAIN) &&
	      !(f.events[0].sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	      (f.events[1].sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	      !(f.events[1].sample_type & PERF_SAMPLE_CALLCHAIN) &&
	      (f.events[2].branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX),
	      "0x%llx 0x%llx", (unsigned long long)f.events[0].sample_type,
	      (unsigned long long)f.events[1].sample_type);
	CHECK("features", !strcmp(f.arch, "riscv64") && f.nr_cpus_online == 1 && f.cmdline &&
	      !strcmp(f.cmdline, "rvpmu record -e cycles ./prog"),
	      "arch '%s' cmdline '%s'", f.arch, f.cmdline ? f.cmdline : "(none)");
	CHECK("comm", f.ncomms == 1 && f.comms[0].pid == 7 && f.comms[0].tid == 8 &&
	      !strcmp(f.comms[0].name, "a-very-long-com"), "'%s'", f.ncomms ? f.comms[0].name : "");
	CHECK("mmap", f.nmmaps == 1 && f.mmaps[0].addr == 0x10000 && f.mmaps[0].len == 0x5000 &&
	      f.mmaps[0].pgoff == 0x1000 && f.mmaps[0].prot == 5 &&
	      !strcmp(f.mmaps[0].path, "/proc/self/exe"), "mmap differs");
	uint8_t id[20];
	unsigned idlen = sym_build_id("/proc/self/exe", id, sizeof(id));
	CHECK("build-id", idlen ? f.nbuildids == 1 && f.buildids[0].len == idlen &&
	      !memcmp(f.buildids[0].id, id, idlen) : f.nbuildids == 0, "%zu build ids", f.nbuildids);
	int bad = -1;
	for (unsigned i = 0; i < N && f.nsamples == N && bad < 0; i++) {
		const struct perfdata_rd_sample *s = &f.samples[i];
		unsigned e = i % 3;
		int has_cc = e != 1, bs = e != 0;
		unsigned ncc = has_cc ? i % 6 : 0, nbr = bs ? i % 4 : 0;
		if (s->event != e || s->ip != 0x10000 + i || s->pid != 7 || s->tid != 8 + i % 2 ||
		    s->time != 100 + i || s->period != 10 + i || s->cpu != i % 4 ||
		    s->nr_branches != nbr || s->nr_callchain != (ncc ? ncc + 1 : 0))
			bad = (int)i;
		uint64_t cc[5] = { 0x10000 + i, 0x20000 + i, 0x30000 + i, 0x40000, 0x50000 };
		if (ncc && (s->callchain[0] != PERF_CONTEXT_USER ||
			    memcmp(s->callchain + 1, cc, 8 * ncc)))
			bad = (int)i;
		for (unsigned k = 0; k < nbr; k++) {
			const struct perfdata_branch *b = &s->branches[k];
			static const uint8_t type[3] = { PERFDATA_BR_COND, PERFDATA_BR_RET,
							 PERFDATA_BR_IND_CALL };
			if (b->type != type[k] || b->priv != k + 1 ||
			    (k == 0 && (b->cycles != 65535 || !b->mispred || b->predicted ||
					b->from != 0x100 + i || b->to != 0x200 + i)) ||
			    (k == 1 && (b->cycles != (uint16_t)i || b->mispred || !b->predicted)) ||
			    (k == 2 && (!b->mispred || !b->predicted || b->cycles)))
				bad = (int)i;
		}
	}
	CHECK("samples", f.nsamples == N && bad < 0, "%zu samples, first bad %d", f.nsamples, bad);
	CHECK("per-event-counts", f.events[0].nsamples == N / 3 && f.events[1].nsamples == N / 3,
	      "%llu", (unsigned long long)f.events[0].nsamples);
	perfdata_file_free(&f);
}

/* A file laid out from perf.data-file-format.txt by hand: one event with
 * sample_type IP|TID|PERIOD, no IDENTIFIER, no sample_id_all, an MMAP
 * (not MMAP2) record, a LOST record, an unknown record type and the
 * HEADER_ARCH feature. */
static void hand_made(void)
{
	static uint8_t b[4096];
	size_t at = 0;
#define PUT(v, n) do { uint64_t _v = (v); memcpy(b + at, &_v, n); at += n; } while (0)
	memcpy(b, "PERFILE2", 8);
	at = 8;
	PUT(104, 8);
	PUT(64 + 16, 8);               /* attr_size: a VER0 attr + ids section */
	PUT(104, 8); PUT(80, 8);       /* attrs */
	PUT(184, 8); PUT(0, 8);        /* data: size patched below */
	PUT(0, 8); PUT(0, 8);          /* event_types */
	PUT(1ull << 6, 8);             /* HEADER_ARCH */
	PUT(0, 8); PUT(0, 8); PUT(0, 8);
	/* attr (64 bytes): type 4 (raw), size 64, config 0x42, period 500 */
	PUT(4 | 64ull << 32, 8);
	PUT(0x42, 8);
	PUT(500, 8);
	PUT(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD, 8);
	at += 32;
	PUT(0, 8); PUT(0, 8);          /* no ids */
	size_t data = at;
	/* MMAP: pid tid addr len pgoff filename */
	PUT(PERF_RECORD_MMAP | (uint64_t)PERF_RECORD_MISC_USER << 32 | (8 + 8 + 24 + 8ull) << 48, 8);
	PUT(5 | 5ull << 32, 8); PUT(0x1000, 8); PUT(0x100, 8); PUT(0, 8);
	memcpy(b + at, "/bin/x\0", 8); at += 8;
	for (int i = 0; i < 3; i++) {  /* SAMPLE: ip, pid/tid, period */
		PUT(PERF_RECORD_SAMPLE | (uint64_t)PERF_RECORD_MISC_USER << 32 | 32ull << 48, 8);
		PUT(0x1010 + 4 * i, 8); PUT(5 | 6ull << 32, 8); PUT(500 + i, 8);
	}
	PUT(PERF_RECORD_LOST | 24ull << 48, 8); PUT(0, 8); PUT(9, 8);
	PUT(99 | 16ull << 48, 8); PUT(0, 8);   /* unknown type 99: skipped */
	uint64_t dsize = at - data;
	memcpy(b + 48, &dsize, 8);
	size_t feat = at;
	PUT(feat + 16, 8); PUT(4 + 8, 8);
	PUT(8, 4); memcpy(b + at, "x86_64\0", 8); at += 8;
	struct perfdata_file f;
	char err[256];
	int rc = perfdata_parse(b, at, &f, err, sizeof(err));
	CHECK("hand-made", !rc && f.nevents == 1 && !strcmp(f.events[0].name, "r42") &&
	      f.nsamples == 3 && f.samples[2].ip == 0x1018 && f.samples[2].period == 502 &&
	      f.samples[1].tid == 6 && f.nmmaps == 1 && !strcmp(f.mmaps[0].path, "/bin/x") &&
	      f.lost == 9 && !strcmp(f.arch, "x86_64") && f.nrecords == 6,
	      "%s", rc ? err : "fields differ");
	if (!rc)
		perfdata_file_free(&f);
	/* the same with the data section one byte short: a clear error */
	dsize--;
	memcpy(b + 48, &dsize, 8);
	rc = perfdata_parse(b, at, &f, err, sizeof(err));
	CHECK("hand-made-short", rc && strstr(err, "record"), "%s", rc ? err : "accepted");
	if (!rc)
		perfdata_file_free(&f);
}

static void errors(void)
{
	char err[512] = "";
	struct perfdata_event ev = { .name = "cycles" };
	struct perfdata_writer *w = perfdata_create("/nonexistent-dir/x.data", &ev, 1, 0, NULL,
						    err, sizeof(err));
	CHECK("create-bad-path", !w && strstr(err, "/nonexistent-dir/x.data"), "'%s'", err);
	err[0] = 0;
	w = perfdata_create("/tmp/x.data", &ev, 0, 0, NULL, err, sizeof(err));
	CHECK("create-no-events", !w && err[0], "'%s'", err);
	struct perfdata_file f;
	err[0] = 0;
	CHECK("read-missing", perfdata_read("/nonexistent-dir/x.data", &f, err, sizeof(err)) &&
	      strstr(err, "No such file"), "'%s'", err);
	CHECK("parse-magic", perfdata_parse("PERFILE3xxxxxxxxxxxxxxxxxxxxxxx", 30, &f, err,
					    sizeof(err)) && strstr(err, "magic"), "'%s'", err);
	/* an empty recording is a valid file */
	char path[512];
	snprintf(path, sizeof(path), "%s/empty.data", dir);
	w = perfdata_create(path, &ev, 1, 0, NULL, err, sizeof(err));
	int rc = w ? perfdata_close(w, err, sizeof(err)) : -1;
	rc = rc ? rc : perfdata_read(path, &f, err, sizeof(err));
	CHECK("empty", !rc && f.nsamples == 0 && f.nevents == 1, "%s", err);
	if (!rc)
		perfdata_file_free(&f);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	round_trip();
	hand_made();
	errors();
	return failed;
}
