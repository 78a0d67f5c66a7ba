/* perf report --header and perf buildid-list: what a perf.data's header
 * and features say, in perf's words (tools/perf/util/header.c,
 * util/perf_event_attr_fprintf.c). */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "perfdata_int.h"
#include "rvpmu/report.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

static void bits(char *buf, size_t len, uint64_t v, const struct bit_name *b)
{
	size_t at = 0;
	buf[0] = 0;
	for (; b->name; b++)
		if ((v & b->bit) && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "|" : "", b->name);
}

/* ", name = value" for each attr field that is not zero, in perf's order */
static void print_attr(FILE *out, const struct perf_event_attr *a)
{
#define B(n) { PERF_SAMPLE_##n, #n }
	static const struct bit_name st[] = {
		B(IP), B(TID), B(TIME), B(ADDR), B(READ), B(CALLCHAIN), B(ID), B(CPU), B(PERIOD),
		B(STREAM_ID), B(RAW), B(BRANCH_STACK), B(REGS_USER), B(STACK_USER), B(IDENTIFIER),
		B(REGS_INTR), B(DATA_SRC), B(WEIGHT), B(PHYS_ADDR), { 0, NULL },
	};
#undef B
#define B(n) { PERF_FORMAT_##n, #n }
	static const struct bit_name rf[] = {
		B(TOTAL_TIME_ENABLED), B(TOTAL_TIME_RUNNING), B(ID), B(GROUP), { 0, NULL },
	};
#undef B
#define B(n) { PERF_SAMPLE_BRANCH_##n, #n }
	static const struct bit_name br[] = {
		B(USER), B(KERNEL), B(HV), B(ANY), B(ANY_CALL), B(ANY_RETURN), B(IND_CALL),
		B(ABORT_TX), B(IN_TX), B(NO_TX), B(COND), B(CALL_STACK), B(IND_JUMP), B(CALL),
		B(NO_FLAGS), B(NO_CYCLES), B(TYPE_SAVE), B(HW_INDEX), { 0, NULL },
	};
#undef B
	char buf[512];
#define U(name, v) do { if (v) fprintf(out, ", %s = %llu", name, (unsigned long long)(v)); } while (0)
#define X(name, v) do { if (v) fprintf(out, ", %s = %#llx", name, (unsigned long long)(v)); } while (0)
#define S(name, v, t) do { if (v) { bits(buf, sizeof(buf), v, t); fprintf(out, ", %s = %s", name, buf); } } while (0)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	S("sample_type", a->sample_type, st);
	S("read_format", a->read_format, rf);
	U("disabled", a->disabled);
	U("inherit", a->inherit);
	U("pinned", a->pinned);
	U("exclusive", a->exclusive);
	U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel);
	U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle);
	U("mmap", a->mmap);
	U("comm", a->comm);
	U("freq", a->freq);
	U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec);
	U("task", a->task);
	U("watermark", a->watermark);
	U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data);
	U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host);
	U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user);
	U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec);
	U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	S("branch_sample_type", a->branch_sample_type, br);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	U("sample_max_stack", a->sample_max_stack);
#undef U
#undef X
#undef S
}

static void usec(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u / 1000u));
}

static int has(const struct perfdata_file *f, int feat)
{
	return f->feat_bits[feat / 64] >> (feat % 64) & 1;
}

void report_header(FILE *out, const char *path, const struct perfdata_file *f)
{
	static const char *const names[] = {
		"", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
		"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC",
		"CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",
		"AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID",
		"DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
		"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
	};
	struct stat st;
	fputs("# ========\n", out);
	if (!f->pipe && !stat(path, &st)) {
		char when[64];
		fprintf(out, "# captured on    : %s", ctime_r(&st.st_mtime, when));
		fprintf(out, "# header version : 1\n# data offset    : %llu\n# data size      : %llu\n"
			"# feat offset    : %llu\n", (unsigned long long)f->data_offset,
			(unsigned long long)f->data_size, (unsigned long long)f->feat_offset);
	}
	if (has(f, HEADER_HOSTNAME))
		fprintf(out, "# hostname : %s\n", f->hostname);
	if (has(f, HEADER_OSRELEASE))
		fprintf(out, "# os release : %s\n", f->osrelease);
	if (has(f, HEADER_VERSION))
		fprintf(out, "# perf version : %s\n", f->version);
	if (has(f, HEADER_ARCH))
		fprintf(out, "# arch : %s\n", f->arch);
	if (has(f, HEADER_NRCPUS))
		fprintf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n", f->nr_cpus_online,
			f->nr_cpus_avail);
	if (has(f, HEADER_CPUDESC) && f->cpudesc[0])
		fprintf(out, "# cpudesc : %s\n", f->cpudesc);
	if (has(f, HEADER_CMDLINE))
		fprintf(out, "# cmdline : %s \n", f->cmdline ? f->cmdline : "");
	for (unsigned i = 0; i < f->nevents; i++) {
		const struct perfdata_rd_event *e = &f->events[i];
		fprintf(out, "# event : name = %s, ", e->name);
		if (e->nids) {
			fputs(", id = {", out);
			for (unsigned k = 0; k < e->nids; k++)
				fprintf(out, "%s %llu", k ? "," : "", (unsigned long long)e->ids[k]);
			fputs(" }", out);
		}
		if (e->attr)
			print_attr(out, e->attr);
		fputc('\n', out);
	}
	if (has(f, HEADER_SAMPLE_TIME)) {
		char a[32], b[32];
		usec(a, sizeof(a), f->first_time);
		usec(b, sizeof(b), f->last_time);
		fprintf(out, "# time of first sample : %s\n# time of last sample : %s\n"
			"# sample duration : %10.3f ms\n", a, b,
			(double)(f->last_time - f->first_time) / 1e6);
	}
	fputs("# missing features:", out);
	for (int k = 1; k < (int)(sizeof(names) / sizeof(names[0])); k++)
		if (!has(f, k))
			fprintf(out, " %s", names[k]);
	fputs(" \n# ========\n#\n", out);
}

int buildid_list_main(const char *input)
{
	struct perfdata_file f;
	char err[512];
	if (perfdata_read(input, &f, err, sizeof(err))) {
		fprintf(stderr, "rvpmu buildid-list: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < f.nbuildids; i++) {
		for (unsigned k = 0; k < f.buildids[i].len; k++)
			printf("%02x", f.buildids[i].id[k]);
		printf(" %s\n", f.buildids[i].path);
	}
	perfdata_file_free(&f);
	return 0;
}
