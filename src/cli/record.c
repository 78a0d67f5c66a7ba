/* rvpmu record: option parsing. */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

extern char **environ;

/* perf record -j: a comma-separated list of branch filter names into
 * PERF_SAMPLE_BRANCH_* bits. The program runs in U only, so a privilege
 * other than u is refused; no type means any. */
static int parse_branch_filter(const char *v, uint64_t *out)
{
	static const struct { const char *name; uint64_t bit; } f[] = {
		{"any", PERF_SAMPLE_BRANCH_ANY}, {"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
		{"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN}, {"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
		{"call", PERF_SAMPLE_BRANCH_CALL}, {"cond", PERF_SAMPLE_BRANCH_COND},
		{"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP}, {"u", PERF_SAMPLE_BRANCH_USER},
	};
	uint64_t bits = 0;
	for (const char *p = v; ; ) {
		size_t n = strcspn(p, ",");
		size_t k = 0;
		while (k < sizeof(f) / sizeof(f[0]) && (strlen(f[k].name) != n || strncmp(f[k].name, p, n)))
			k++;
		if (k == sizeof(f) / sizeof(f[0])) {
			if ((n == 1 && *p == 'k') || (n == 2 && !strncmp(p, "hv", 2)))
				fprintf(stderr, "rvpmu record: -j %.*s: a user-mode program has only u "
						"branches\n", (int)n, p);
			else
				fprintf(stderr, "rvpmu record: -j '%.*s': unknown branch filter (use any, "
						"any_call, any_ret, ind_call, call, cond, ind_jmp, u)\n", (int)n, p);
			return 2;
		}
		bits |= f[k].bit;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (!(bits & ~(uint64_t)PERF_SAMPLE_BRANCH_USER))
		bits |= PERF_SAMPLE_BRANCH_ANY;
	*out = bits | PERF_SAMPLE_BRANCH_USER;
	return 0;
}

#define MAX_SAMPLE_RATE 100000

/* --call-graph fp|dwarf[,SIZE]|ctr */
static int parse_call_graph(const char *v, struct record_opts *o)
{
	o->callchain = 1;
	o->callchain_ctr = !strcmp(v, "ctr");
	o->callchain_dwarf = !strncmp(v, "dwarf", 5) && (!v[5] || v[5] == ',');
	if (!o->callchain_dwarf && strcmp(v, "fp") && !o->callchain_ctr) {
		cli_error("--call-graph '%s': use fp, dwarf[,SIZE] or ctr", v);
		return -1;
	}
	uint64_t size = 8192;   /* perf's default stack dump */
	if (o->callchain_dwarf && v[5] && cli_parse_count("--call-graph dwarf", v + 6, &size))
		return -1;
	/* as perf: a multiple of 8, at most what a sample record can hold */
	if (o->callchain_dwarf && (!size || size % 8 || size > 65528 - 1024)) {
		cli_error("--call-graph dwarf,%s: the stack size must be a multiple of 8 "
			  "from 8 to 64504", v + 6);
		return -1;
	}
	o->stack_dump = (uint32_t)size;
	return 0;
}

/* --switch-output[=signal|SIZE|TIME]: SIZE with B, K, M or G; TIME with
 * s, m, h or d, in modelled time */
static int parse_switch(const char *v, struct record_opts *o)
{
	char *end;
	if (!strcmp(v, "signal")) {
		o->switch_signal = 1;
		return 0;
	}
	unsigned long long n = strtoull(v, &end, 10);
	static const struct { char c; uint64_t size, ms; } u[] = {
		{'B', 1, 0}, {'K', 1 << 10, 0}, {'M', 1 << 20, 0}, {'G', 1 << 30, 0},
		{'s', 0, 1000}, {'m', 0, 60000}, {'h', 0, 3600000}, {'d', 0, 86400000},
	};
	for (size_t i = 0; n && end != v && end[0] && !end[1] && i < sizeof(u) / sizeof(u[0]); i++)
		if (end[0] == u[i].c || (u[i].size && end[0] == u[i].c + 32)) {
			o->switch_size = n * u[i].size;
			o->switch_ms = n * u[i].ms;
			return 0;
		}
	cli_error("--switch-output='%s': use signal, a size (10M) or a modelled time (30s)", v);
	return -1;
}

int cmd_record(int argc, char **argv)
{
	static struct record_opts o;
	static struct profile prof;
	struct linux_opts lo = {0};
	static struct cli_events events;
	const char *profile = "virt";
	static const struct cli_opt opts[] = {
		{"-e", "--event", 1}, {"-c", "--count", 1}, {"-F", "--freq", 1}, {"-o", "--output", 1},
		{"--profile", NULL, 1}, {"--max-insns", NULL, 1}, {"--max-mem", NULL, 1},
		{"--call-graph", NULL, 1},
		{"-j", "--branch-filter", 1}, {"--trace", NULL, 1}, {"-g", NULL, 0}, {"-b", "--branch-any", 0},
		{"--no-uarch", NULL, 0}, {"--no-jit", NULL, 0}, {"-q", "--quiet", 0},
		{"-T", "--timestamp", 0}, {"-D", "--delay", 1}, {"--switch-output", NULL, CLI_OPTARG},
		{"--cpus", NULL, 1}, {"--sysroot", NULL, 1}, {"-a", "--all-cpus", 0}, {NULL, NULL, 0},
	};
	enum { O_EVENT, O_PERIOD, O_FREQ, O_OUT, O_PROFILE, O_MAX_INSNS, O_MAX_MEM, O_CALL_GRAPH, O_FILTER,
	       O_TRACE, O_G, O_B, O_NO_UARCH, O_NO_JIT, O_QUIET, O_TIMESTAMP, O_DELAY, O_SWITCH, O_CPUS,
	       O_SYSROOT, O_ALL };
	int all_cpus = 0;
	char err[512];
	const char *v;
	uint64_t n;
	int i = 1, k, quiet = 0;
	o.freq = 4000;
	o.output = "perf.data";
	o.models = 1;
	for (;;) {
		if ((k = cli_next("record", opts, argc, argv, &i, &v)) < 0)
			break;
		switch (k) {
		case O_EVENT:
			if (cli_add_events("record", &events, v))
				return 2;
			break;
		case O_OUT: o.output = v; break;
		case O_PROFILE: profile = v; break;
		case O_MAX_INSNS:
			if (cli_parse_count("--max-insns", v, &lo.max_insns))
				return 2;
			break;
		case O_MAX_MEM:
			if (cli_max_mem(v, &lo.max_mem_mb))
				return 2;
			break;
		case O_CALL_GRAPH:
			/* perf's fp and dwarf[,SIZE], rvpmu's ctr (CTR call
			 * records); each implies -g */
			if (parse_call_graph(v, &o))
				return 2;
			break;
		case O_TIMESTAMP: break;  /* samples always carry their (modelled) time */
		case O_DELAY:
			if (cli_parse_count("-D", v, &o.delay_ms))
				return 2;
			break;
		case O_SWITCH:
			if (parse_switch(v ? v : "signal", &o))
				return 2;
			break;
		case O_FILTER:
			/* perf refuses a second list rather than drop one */
			if (o.branch_filter)
				return cli_error("-j given twice: put every branch filter "
						 "in one list (-j %s,...)", v);
			if (parse_branch_filter(v, &o.branch_filter))
				return 2;
			o.branch_stack = 1;  /* as perf: a filter implies -b */
			break;
		case O_TRACE: o.trace = v; break;
		case O_PERIOD:
		case O_FREQ:
			if (k == O_FREQ && !strcmp(v, "max")) {
				/* Linux's default perf_event_max_sample_rate */
				fprintf(stderr, "info: Using a maximum frequency rate of %d Hz\n",
					MAX_SAMPLE_RATE);
				n = MAX_SAMPLE_RATE;
			} else if (cli_parse_count(opts[k].name, v, &n)) {
				return 2;
			}
			if (!n)
				return cli_error("%s must be positive", opts[k].name);
			if (k == O_PERIOD)
				o.period = n, o.freq = 0;
			else
				o.freq = n, o.period = 0;
			break;
		case O_CPUS:
			if (cli_cpus(v, &lo.cpus))
				return 2;
			break;
		case O_G: o.callchain = 1; break;
		case O_B: o.branch_stack = 1; break;
		case O_NO_UARCH: o.models = 0; break;
		case O_NO_JIT: lo.no_jit = 1; break;
		case O_QUIET: quiet = 1; break;   /* no progress line */
		case O_SYSROOT: lo.sysroot = v; break;
		case O_ALL: all_cpus = 1; break;
		}
	}
	int end = cli_end("record", k);
	if (end >= 0)
		return end;
	if (i >= argc) {
		fprintf(stderr, "rvpmu record: no program given (see 'rvpmu help record')\n");
		return 2;
	}
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	if (o.freq > prof.clock_hz)
		return cli_error("-F is above the core's clock");
	if (!strcmp(o.output, "-") && (o.switch_signal || o.switch_size || o.switch_ms))
		return cli_error("--switch-output needs a file, not -o -");
	if ((o.nev = cli_events("record", &events, "cycles", &prof, o.ev)) < 0)
		return 2;
	if (!strcmp(argv[i], "system")) {
		/* the machine is the workload: every hart, as perf record -a */
		if (o.callchain || o.branch_stack || o.callchain_ctr || o.callchain_dwarf || o.trace ||
		    o.delay_ms || o.switch_signal || o.switch_size || o.switch_ms || lo.max_insns ||
		    lo.max_mem_mb || lo.no_jit || lo.cpus || lo.sysroot)
			return cli_error("a system-mode run takes -e, -c, -F, -o, --profile, "
					 "--no-uarch and -q (its own options after 'system')");
		return record_system(&o, quiet, argc - i, argv + i);
	}
	if (all_cpus)
		return cli_error("-a samples a system-mode run: rvpmu record -a [OPTIONS] system "
				 "[SYSTEM OPTIONS]");
	progress_begin("record", lo.max_insns, quiet);
	progress_samples(1);
	lo.progress = progress_tick;
	lo.on_trap = progress_on_trap;
	lo.stop = cli_interrupt_begin();
	int status = record_run(&o, &lo, argc - i, argv + i, environ);
	progress_end();
	return status;
}
