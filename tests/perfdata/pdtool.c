/* Test driver for the perf.data writer, reader and report (the rvpmu CLI
 * does not have record/report yet):
 *   pdtool gen OUT ELF N HOT_LO HOT_HI COLD_LO COLD_HI RA_CALLER RA_MAIN_C RA_MAIN_K
 *          [--pcs FILE] [--multi] [--kernel]
 *      N synthetic samples, 90% at pcs inside [HOT_LO,HOT_HI) with the
 *      call chain main->caller->hot, 10% inside [COLD_LO,COLD_HI) with
 *      main->cold (RA_* are the return addresses of those calls). --pcs
 *      writes every sample pc, one hex number a line; --multi adds a
 *      second event and branch stacks; --kernel makes every 20th sample
 *      a kernel-mode one at 0xffffffff80001000.
 *   pdtool report IN [--sort KEY] [--folded] [--flamegraph SVG] [--symfs DIR]
 *   pdtool dump IN        header, features and counts, one "key: value" a line
 *   pdtool mutate IN      truncations and byte flips of IN must parse or fail
 *                         with a one-line error; prints "mutate ok N M"
 * All numbers are hex (0x optional) except N. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/perfdata.h"
#include "rvpmu/report.h"

static uint64_t hex(const char *s)
{
	return strtoull(s, NULL, 16);
}

static int gen(int argc, char **argv)
{
	if (argc < 12) {
		fprintf(stderr, "pdtool gen: too few arguments\n");
		return 2;
	}
	const char *out = argv[2], *elf = argv[3];
	long n = atol(argv[4]);
	uint64_t hlo = hex(argv[5]), hhi = hex(argv[6]), clo = hex(argv[7]), chi = hex(argv[8]);
	uint64_t ra_caller = hex(argv[9]), ra_main_c = hex(argv[10]), ra_main_k = hex(argv[11]);
	const char *pcs = NULL;
	int multi = 0, kernel = 0;
	for (int i = 12; i < argc; i++) {
		if (!strcmp(argv[i], "--pcs") && i + 1 < argc)
			pcs = argv[++i];
		else if (!strcmp(argv[i], "--multi"))
			multi = 1;
		else if (!strcmp(argv[i], "--kernel"))
			kernel = 1;
	}
	struct perfdata_event ev[2] = {
		{ .name = "cycles", .type = PERFDATA_TYPE_HARDWARE, .config = 0,
		  .sample_period = 10000, .exclude_kernel = 1, .exclude_hv = 1,
		  .callchain = 1, .branch_stack = multi },
		{ .name = "instructions", .type = PERFDATA_TYPE_HARDWARE, .config = 1,
		  .sample_period = 20000, .exclude_kernel = 1, .exclude_hv = 1,
		  .callchain = 1, .branch_stack = multi },
	};
	char err[512];
	char *rec_argv[] = { "rvpmu", "record", "--", (char *)elf };
	struct perfdata_writer *w = perfdata_create(out, ev, multi ? 2 : 1, 4, rec_argv, err,
						    sizeof(err));
	if (!w) {
		fprintf(stderr, "pdtool: %s\n", err);
		return 1;
	}
	FILE *pf = pcs ? fopen(pcs, "w") : NULL;
	int rc = perfdata_comm(w, 1000, 1000, "hot", 1);
	rc |= perfdata_mmap_elf(w, 1000, 1000, elf, 0);
	uint64_t hsteps = (hhi - hlo) / 2, csteps = (chi - clo) / 2;
	for (long i = 0; i < n && !rc; i++) {
		/* every tenth sample is cold: exactly 90% hot when n % 10 == 0 */
		int is_cold = i % 10 == 9;
		uint64_t pc = is_cold ? clo + 2 * ((uint64_t)i / 10 % csteps)
				      : hlo + 2 * ((uint64_t)i * 7 % hsteps);
		uint64_t chain[3] = { pc, is_cold ? ra_main_k : ra_caller, ra_main_c };
		struct perfdata_branch br[2] = {
			{ .from = ra_caller - 4, .to = hlo, .type = PERFDATA_BR_CALL, .predicted = 1,
			  .cycles = 12, .priv = 1 },
			{ .from = hhi - 2, .to = ra_caller, .type = PERFDATA_BR_RET, .mispred = 1,
			  .cycles = 3, .priv = 1 },
		};
		struct perfdata_sample s = {
			.ip = pc, .pid = 1000, .tid = 1000, .time = 1000000 + 1000 * (uint64_t)i,
			.period = 10000, .callchain = chain, .nr_callchain = is_cold ? 2 : 3,
			.branches = br, .nr_branches = 2,
		};
		if (kernel && i % 20 == 19) {
			s.kernel = 1;
			s.ip = chain[0] = 0xffffffff80001000ull;
			s.nr_callchain = 1;
		}
		rc = perfdata_sample(w, 0, &s);
		if (multi && !rc && i % 2 == 0) {
			s.period = 20000;
			rc = perfdata_sample(w, 1, &s);
		}
		if (pf)
			fprintf(pf, "%llx\n", (unsigned long long)pc);
	}
	if (pf)
		fclose(pf);
	rc |= perfdata_exit(w, 1000, 1000, 1000, 1000, 1000000 + 1000 * (uint64_t)n);
	if (perfdata_close(w, err, sizeof(err)) || rc) {
		fprintf(stderr, "pdtool: %s\n", rc ? "writing a record failed" : err);
		return 1;
	}
	return 0;
}

static int report(int argc, char **argv)
{
	/* perf report --no-children -g none -n --sort KEY (default sym) */
	struct report_opts o = { .input = argc > 2 ? argv[2] : NULL, .keys = { RK_SYM }, .nkeys = 1,
				 .nr_samples = 1, .graph_min = 0.5, .caller = -1 };
	char err[256];
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--sort") && i + 1 < argc) {
			if (report_parse_keys(argv[++i], 0, o.keys, &o.nkeys, err, sizeof(err))) {
				fprintf(stderr, "pdtool: %s\n", err);
				return 2;
			}
		} else if (!strcmp(argv[i], "--folded")) {
			o.folded = 1;
		} else if (!strcmp(argv[i], "--flamegraph") && i + 1 < argc) {
			o.flamegraph = argv[++i];
		} else if (!strcmp(argv[i], "--symfs") && i + 1 < argc) {
			o.symfs = argv[++i];
		}
	}
	return report_main(&o);
}

static int dump(const char *path)
{
	struct perfdata_file f;
	char err[512];
	if (perfdata_read(path, &f, err, sizeof(err))) {
		fprintf(stderr, "pdtool: %s\n", err);
		return 1;
	}
	printf("arch: %s\nhostname: %s\nosrelease: %s\nnrcpus: %u %u\ncmdline: %s\n",
	       f.arch, f.hostname, f.osrelease, f.nr_cpus_avail, f.nr_cpus_online,
	       f.cmdline ? f.cmdline : "");
	for (unsigned i = 0; i < f.nevents; i++)
		printf("event: %s type=%u config=0x%llx period=%llu samples=%llu total=%llu\n",
		       f.events[i].name, f.events[i].type, (unsigned long long)f.events[i].config,
		       (unsigned long long)f.events[i].sample_period,
		       (unsigned long long)f.events[i].nsamples,
		       (unsigned long long)f.events[i].total_period);
	for (size_t i = 0; i < f.nbuildids; i++) {
		printf("buildid: ");
		for (unsigned k = 0; k < f.buildids[i].len; k++)
			printf("%02x", f.buildids[i].id[k]);
		printf(" %s\n", f.buildids[i].path);
	}
	for (size_t i = 0; i < f.nmmaps; i++)
		printf("mmap: pid=%u 0x%llx+0x%llx pgoff=0x%llx %s\n", f.mmaps[i].pid,
		       (unsigned long long)f.mmaps[i].addr, (unsigned long long)f.mmaps[i].len,
		       (unsigned long long)f.mmaps[i].pgoff, f.mmaps[i].path);
	for (size_t i = 0; i < f.ncomms; i++)
		printf("comm: %u/%u %s\n", f.comms[i].pid, f.comms[i].tid, f.comms[i].name);
	size_t nb = 0, nc = 0;
	for (size_t i = 0; i < f.nsamples; i++) {
		nb += f.samples[i].nr_branches;
		nc += f.samples[i].nr_callchain;
	}
	printf("samples: %zu\ncallchain-entries: %zu\nbranches: %zu\n", f.nsamples, nc, nb);
	if (f.nsamples && f.samples[0].nr_branches) {
		const struct perfdata_branch *b = &f.samples[0].branches[1];
		printf("branch1: 0x%llx->0x%llx mispred=%u predicted=%u cycles=%u type=%u\n",
		       (unsigned long long)b->from, (unsigned long long)b->to, b->mispred,
		       b->predicted, b->cycles, b->type);
	}
	perfdata_file_free(&f);
	return 0;
}

/* The message of a failed parse must be one line of text. */
static int check_err(int rc, const char *err, const char *what, size_t at)
{
	if (rc && (!err[0] || strchr(err, '\n'))) {
		fprintf(stderr, "pdtool mutate: %s at %zu: bad message '%s'\n", what, at, err);
		return 1;
	}
	return 0;
}

static int mutate(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return 1;
	static uint8_t img[1 << 20], m[1 << 20];
	size_t len = fread(img, 1, sizeof(img), fp);
	fclose(fp);
	struct perfdata_file f;
	char err[512];
	if (perfdata_parse(img, len, &f, err, sizeof(err))) {
		fprintf(stderr, "pdtool mutate: the original does not parse: %s\n", err);
		return 1;
	}
	perfdata_file_free(&f);
	FILE *null = fopen("/dev/null", "w");
	unsigned long ok = 0, failed = 0, bad = 0;
	/* every truncation loses at least the feature payloads' end: each one
	 * must be reported, not accepted */
	for (size_t cut = 0; cut < len; cut++) {
		/* a copy of exactly cut bytes, so ASan sees any read past it */
		uint8_t *t = malloc(cut ? cut : 1);
		memcpy(t, img, cut);
		err[0] = 0;
		int rc = perfdata_parse(t, cut, &f, err, sizeof(err));
		if (!rc) {
			fprintf(stderr, "pdtool mutate: truncation at %zu accepted\n", cut);
			bad++;
			perfdata_file_free(&f);
		}
		bad += check_err(rc, err, "truncation", cut);
		failed++;
		free(t);
	}
	static const int pats[] = { 0x01, 0x80, 0xff, -1 /* set 0 */, -2 /* set 0xff */ };
	unsigned long reports = 0;
	for (size_t at = 0; at < len; at++) {
		for (unsigned p = 0; p < sizeof(pats) / sizeof(pats[0]); p++) {
			memcpy(m, img, len);
			m[at] = pats[p] == -1 ? 0 : pats[p] == -2 ? 0xff : m[at] ^ pats[p];
			uint8_t *t = malloc(len);
			memcpy(t, m, len);
			err[0] = 0;
			int rc = perfdata_parse(t, len, &f, err, sizeof(err));
			bad += check_err(rc, err, "flip", at);
			if (!rc) {
				ok++;
				/* what parses must also report without harm */
				if (at % 13 == p) {
					static const int keys[] = { RK_SYM, RK_DSO, RK_SRCLINE };
					struct report_opts o = { .out = null, .keys = { keys[at % 3] }, .nkeys = 1,
								 .graph = -1, .children = -1, .caller = -1,
								 .graph_min = 0.5 };
					report_file(&o, &f, err, sizeof(err));
					o.folded = 1;
					report_file(&o, &f, err, sizeof(err));
					o.folded = 0;
					o.flamegraph = "/dev/null";
					report_file(&o, &f, err, sizeof(err));
					reports++;
				}
				perfdata_file_free(&f);
			} else {
				failed++;
			}
			free(t);
		}
	}
	fclose(null);
	if (bad)
		return 1;
	printf("mutate ok %lu %lu %lu\n", ok, failed, reports);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return gen(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "report"))
		return report(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mutate"))
		return mutate(argv[2]);
	fprintf(stderr, "usage: pdtool gen|report|dump|mutate ...\n");
	return 2;
}
