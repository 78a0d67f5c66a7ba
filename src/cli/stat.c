/* rvpmu stat and rvpmu list: perf stat and perf list for a user-mode
 * program. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "rvpmu/linux.h"
#include "rvpmu/outfile.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

extern char **environ;

/* perf stat's default events where the PMU shows no stalled-cycles
 * events in sysfs (Linux's riscv_pmu_sbi shows none) */
#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults," \
	"cycles,instructions,branches,branch-misses"

/* a system-mode run's (perf's software events would be the guest
 * kernel's, which rvpmu does not see) */
#define SYSTEM_EVENTS "cycles,instructions,branches,branch-misses"

#define MSEC_MAX 1000000000000ull   /* 31 years: ns fit in 64 bits */

/* the top-down levels the profiles' metric groups give (docs/topdown.md) */
#define TOPDOWN_MAX_LEVEL 2

/* A count of milliseconds (-I, -D, --timeout), at least min. */
static int msec(const char *opt, const char *v, uint64_t min, uint64_t *out)
{
	if (cli_parse_count(opt, v, out))
		return -1;
	if (*out < min || *out > MSEC_MAX) {
		cli_error("%s: '%s' is out of range (%llu..%llu ms%s)", opt, v, (unsigned long long)min,
			  MSEC_MAX, min ? ", as perf" : "");
		return -1;
	}
	return 0;
}

/* --append: FILE's text so far goes first into the file that replaces it */
static int keep_old(FILE *to, const char *path)
{
	FILE *from = fopen(path, "r");
	char buf[4096];
	size_t n;
	if (!from)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			break;
	int bad = ferror(from) || ferror(to);
	fclose(from);
	return bad ? -1 : 0;
}

int cmd_stat(int argc, char **argv)
{
	static struct stat_opts o;
	static struct profile prof;
	struct linux_opts lo = {0};
	static struct cli_events events;
	const char *outfile = NULL, *profile = "virt", *metrics = NULL;
	static const struct cli_opt opts[] = {
		{"-e", "--event", 1}, {"-x", "--field-separator", 1}, {"-o", "--output", 1},
		{"-r", "--repeat", 1}, {"--max-insns", NULL, 1}, {"--max-mem", NULL, 1},
		{"--profile", NULL, 1}, {"--mux-interval", NULL, 1}, {"--user-counters", NULL, 1},
		{"-j", "--json-output", 0}, {"--json", NULL, 0}, {"--no-uarch", NULL, 0},
		{"--no-jit", NULL, 0}, {"-q", "--quiet", 0}, {"-I", "--interval-print", 1},
		{"--interval-count", NULL, 1}, {"-d", "--detailed", 0}, {"-M", "--metrics", 1},
		{"--metric-only", NULL, 0}, {"--all-user", NULL, 0}, {"--all-kernel", NULL, 0},
		{"-D", "--delay", 1}, {"--timeout", NULL, 1}, {"-B", "--big-num", 0},
		{"--no-big-num", NULL, 0}, {"--append", NULL, 0}, {"-n", "--null", 0},
		{"-v", "--verbose", 0}, {"--table", NULL, 0}, {"-A", "--no-aggr", 0},
		{"--per-cpu", NULL, 0}, {"--per-thread", NULL, 0}, {"--metric-no-group", NULL, 0},
		{"-a", "--all-cpus", 0}, {"-C", "--cpu", 1}, {"--cpus", NULL, 1},
		{"-i", "--no-inherit", 0}, {"--sysroot", NULL, 1}, {"--topdown", NULL, 0},
		{"--td-level", NULL, 1}, {"--no-metric-only", NULL, 0}, {NULL, NULL, 0},
	};
	enum { O_EVENT, O_CSV, O_OUT, O_REPEAT, O_MAX_INSNS, O_MAX_MEM, O_PROFILE, O_MUX, O_UCNT, O_JSON,
	       O_JSON2, O_NO_UARCH, O_NO_JIT, O_QUIET, O_INTERVAL, O_INTERVAL_COUNT, O_DETAILED,
	       O_METRICS, O_METRIC_ONLY, O_ALL_USER, O_ALL_KERNEL, O_DELAY, O_TIMEOUT, O_BIG_NUM,
	       O_NO_BIG_NUM, O_APPEND, O_NULL, O_VERBOSE, O_TABLE, O_NO_AGGR, O_PER_CPU, O_PER_THREAD,
	       O_METRIC_NO_GROUP, O_ALL, O_CPU, O_CPUS, O_NO_INHERIT, O_SYSROOT, O_TOPDOWN, O_TD_LEVEL,
	       O_NO_METRIC_ONLY };
	const char *cpu_list = NULL;
	int all_cpus = 0;
	uint64_t n;
	char err[512];
	const char *v;
	int i = 1, k, quiet = 0, all_user = 0, all_kernel = 0, append = 0, detail = 0;
	int topdown = 0, no_metric_only = 0;
	uint64_t td_level = 0;   /* 0: not given */
	o.out = stderr;
	o.repeat = 1;
	o.models = 1;
	while ((k = cli_next("stat", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_EVENT:
			if (cli_add_events("stat", &events, v))
				return 2;
			break;
		case O_CSV:
			if (!*v)
				return cli_error("-x needs a separator");
			o.csv_sep = v;
			break;
		case O_OUT: outfile = v; break;
		case O_PROFILE: profile = v; break;
		case O_MUX:
			if (cli_parse_count("--mux-interval", v, &o.mux_interval))
				return 2;
			if (!o.mux_interval)
				return cli_error("--mux-interval: '%s' must be at least 1 cycle", v);
			break;
		case O_REPEAT:
			if (cli_parse_count("-r", v, &n))
				return 2;
			if (!n || n > 1000)
				return cli_error("-r: '%s' is out of range (1..1000)", v);
			o.repeat = (unsigned)n;
			break;
		case O_MAX_INSNS:
			if (cli_parse_count("--max-insns", v, &lo.max_insns))
				return 2;
			break;
		case O_MAX_MEM:
			if (cli_max_mem(v, &lo.max_mem_mb))
				return 2;
			break;
		case O_UCNT:
			if (cli_user_counters(v, &lo.user_counters))
				return 2;
			break;
		case O_INTERVAL:   /* 0: none, as perf */
			if (msec("-I", v, 0, &o.interval_ms))
				return 2;
			break;
		case O_INTERVAL_COUNT:
			if (cli_parse_count("--interval-count", v, &o.interval_count))
				return 2;
			break;
		case O_DELAY:
			if (!strcmp(v, "-1")) {   /* perf: start with the events disabled */
				o.delay_ms = -1;
				break;
			}
			if (msec("-D", v, 0, &n))
				return 2;
			o.delay_ms = (int64_t)n;
			break;
		case O_TIMEOUT:
			if (msec("--timeout", v, 10, &o.timeout_ms))
				return 2;
			break;
		case O_METRICS:
			if (metrics)
				return cli_error("-M given twice: put every metric in one list (-M %s,...)", v);
			metrics = v;
			break;
		case O_DETAILED:   /* perf takes -dddd... as -ddd */
			detail += detail < 3;
			break;
		case O_JSON: case O_JSON2: o.json = 1; break;
		case O_METRIC_ONLY: o.metric_only = 1; break;
		case O_NO_METRIC_ONLY: no_metric_only = 1; break;
		case O_TOPDOWN: topdown = 1; break;
		case O_TD_LEVEL:
			if (cli_parse_count("--td-level", v, &td_level))
				return 2;
			if (td_level > TOPDOWN_MAX_LEVEL)   /* perf's words */
				return cli_error("--td-level: Invalid top-down metrics level. The max level is %d.",
						 TOPDOWN_MAX_LEVEL);
			if (!td_level)   /* perf: 0 is the highest level */
				td_level = TOPDOWN_MAX_LEVEL;
			break;
		case O_METRIC_NO_GROUP: o.metric_no_group = 1; break;
		case O_ALL_USER: all_user = 1; break;
		case O_ALL_KERNEL: all_kernel = 1; break;
		case O_BIG_NUM: o.no_big_num = 0; break;
		case O_NO_BIG_NUM: o.no_big_num = 1; break;
		case O_APPEND: append = 1; break;
		case O_NULL: o.null_run = 1; break;
		case O_VERBOSE: o.verbose = 1; break;
		case O_TABLE: o.table = 1; break;
		case O_NO_UARCH: o.models = 0; break;
		case O_NO_JIT: lo.no_jit = 1; break;
		case O_QUIET: quiet = 1; break;   /* no progress line */
		case O_CPUS:
			if (cli_cpus(v, &lo.cpus))
				return 2;
			break;
		case O_PER_THREAD: o.per_thread = 1; break;
		case O_NO_INHERIT: o.no_inherit = 1; break;
		case O_SYSROOT: lo.sysroot = v; break;
		case O_ALL: all_cpus = 1; break;
		case O_NO_AGGR: case O_PER_CPU: o.per_cpu = 1; break;
		case O_CPU: cpu_list = v; break;
		}
	}
	int end = cli_end("stat", k);
	if (end >= 0)
		return end;
	/* perf's own refusals of these combinations */
	if (o.json && o.csv_sep)
		return cli_error("-x and -j cannot be used together");
	if (o.table && o.repeat < 2)
		return cli_error("--table is only supported with -r");
	if (o.timeout_ms && o.interval_ms)
		return cli_error("--timeout is not supported with -I (interval-print)");
	if (o.interval_count && !o.interval_ms)
		return cli_error("--interval-count should be used together with -I (interval-print)");
	if (o.per_thread && o.per_cpu)
		return cli_error("--per-thread and -A cannot be used together");
	if (td_level && !topdown)
		return cli_error("--td-level needs --topdown");
	if (topdown && !o.models)
		return cli_error("--topdown needs the timing model: not with --no-uarch");
	/* perf's --topdown: the TopdownL1 (.. TopdownLn) metric groups, and
	 * --metric-only unless --no-metric-only */
	char td_metrics[256];
	if (topdown) {
		size_t len = (size_t)snprintf(td_metrics, sizeof(td_metrics), "%s%s", metrics ? metrics : "",
					      metrics ? "," : "");
		for (unsigned l = 1; l <= (td_level ? td_level : 1) && len < sizeof(td_metrics); l++)
			len += (size_t)snprintf(td_metrics + len, sizeof(td_metrics) - len, "%sTopdownL%u",
						l > 1 ? "," : "", l);
		if (len >= sizeof(td_metrics))
			return cli_error("-M: the list is too long with --topdown");
		metrics = td_metrics;
		o.metric_only |= !no_metric_only;
	}
	if (i >= argc) {
		fprintf(stderr, "rvpmu stat: no program given (see 'rvpmu help stat')\n");
		return 2;
	}
	int system = !strcmp(argv[i], "system");
	/* perf gives per-CPU and per-thread counts only system-wide (-a) or
	 * for an existing process (-p, -t); rvpmu gives them for its program
	 * too, whose threads run on the --cpus harts (-A: a row per hart,
	 * --per-thread: per thread). -a and -C stay a system-mode run's. */
	if (!system && (all_cpus || cpu_list))
		return cli_error("-a and -C count a system-mode run: rvpmu stat -a [OPTIONS] "
				 "system [SYSTEM OPTIONS]");
	if (!system && (o.per_thread || o.per_cpu) && (o.interval_ms || o.metric_only))
		return cli_error("--per-thread and -A print the whole run's counts: not with -I "
				 "or --metric-only");
	if (system && (o.per_thread || o.no_inherit || lo.cpus || lo.sysroot))
		return cli_error("--per-thread, --no-inherit, --cpus and --sysroot are for a program; "
				 "a system-mode run takes its options after 'system'");
	if (system && (o.repeat > 1 || o.json))
		return cli_error("-r and -j are not available for a system-mode run");
	if (system && (lo.max_insns || lo.max_mem_mb || lo.user_counters || lo.no_jit))
		return cli_error("--max-insns, --max-mem, --user-counters and --no-jit are for a program; "
				 "a system-mode run takes its options after 'system'");
	/* a system-mode run prints perf -a's plain table of hardware events */
	if (system && (o.interval_ms || o.interval_count || o.delay_ms || o.timeout_ms || metrics ||
		       o.metric_only || o.metric_no_group || detail || o.null_run || o.verbose))
		return cli_error("-I, -D, --timeout, -M, --topdown, --metric-only, -d, -n and -v are "
				 "for a program, not a system-mode run");
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	/* the events: -e's, -M's metrics', perf's default when neither gave
	 * any (and not -n), then -d's */
	if (events.n && (o.nev = cli_events("stat", &events, NULL, &prof, o.ev)) < 0)
		return 2;
	if (metrics && stat_add_metrics(&o, &prof, metrics, err, sizeof(err)))
		return cli_error("%s: %s", topdown ? "--topdown" : "-M", err);
	if (!o.nev && !o.null_run &&
	    (o.nev = cli_events("stat", &events, system ? SYSTEM_EVENTS : DEFAULT_EVENTS, &prof, o.ev)) < 0)
		return 2;
	static const int detailed[] = {0, 4, 10, 12};   /* perf's -d, -dd, -ddd */
	for (int d = 0; d < detailed[detail]; d++)
		if ((o.nev = evspec_parse(evspec_detailed[d], &prof, o.ev, o.nev, EVSPEC_MAX, err, sizeof(err))) < 0)
			return cli_error("%s", err);
	for (int e = 0; e < o.nev; e++) {   /* perf's order: --all-user wins */
		if (all_kernel)
			o.ev[e].exclude_user = 1, o.ev[e].exclude_kernel = 0;
		if (all_user)
			o.ev[e].exclude_kernel = 1, o.ev[e].exclude_user = 0;
	}
	if (evspec_check(o.ev, o.nev, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	for (int e = 0; system && e < o.nev; e++)
		if (o.ev[e].software)
			return cli_error("%s: software events are rvpmu's user-mode kernel's; a "
					 "system-mode run's kernel is the guest's own", o.ev[e].name);
	/* the table goes to FILE only once it is complete */
	struct outfile of;
	if (outfile) {
		if (outfile_open(&of, outfile, 0, err, sizeof(err)))
			return cli_error("%s", err);
		if (append && keep_old(of.f, outfile)) {
			outfile_discard(&of);
			return cli_error("--append: cannot copy %s", outfile);
		}
		time_t now = time(NULL);
		fprintf(of.f, "# started on %s\n", ctime(&now));   /* perf's first line */
		o.out = of.f;
	}
	if (system) {   /* the machine's own progress line, interrupt and limits */
		int status = stat_system(&o, cpu_list, o.per_cpu, quiet, argc - i, argv + i);
		if (status < 0) {   /* nothing counted */
			if (outfile)
				outfile_discard(&of);
			return -status;
		}
		if (outfile && outfile_commit(&of, err, sizeof(err))) {
			fprintf(stderr, "rvpmu stat: %s\n", err);
			status = status ? status : 1;
		}
		return status;
	}
	progress_begin("stat", lo.max_insns, quiet);
	lo.progress = progress_tick;
	lo.on_trap = progress_on_trap;
	lo.stop = cli_interrupt_begin();
	int status = stat_run(&o, &lo, argc - i, argv + i, environ);
	progress_end();
	if (status < 0) {   /* nothing counted: an existing FILE stays as it was */
		if (outfile)
			outfile_discard(&of);
		return 1;
	}
	if (outfile && outfile_commit(&of, err, sizeof(err))) {
		fprintf(stderr, "rvpmu stat: %s\n", err);
		status = status ? status : 1;
	}
	return status;
}

int cmd_list(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		{"--profile", NULL, 1}, {"-d", "--desc", 0}, {"--no-desc", NULL, 0},
		{"-v", "--long-desc", 0}, {"--details", NULL, 0}, {"--raw-dump", NULL, 0},
		{NULL, NULL, 0},
	};
	enum { O_PROFILE, O_DESC, O_NO_DESC, O_LONG_DESC, O_DETAILS, O_RAW };
	static struct profile prof;
	char err[512];
	const char *name = "virt", *v;
	int i = 1, k, flags = LIST_DESC;
	while ((k = cli_next("list", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_PROFILE: name = v; break;
		case O_DESC: case O_LONG_DESC: flags |= LIST_DESC; break;
		case O_NO_DESC: flags &= ~LIST_DESC; break;
		case O_DETAILS: flags |= LIST_DETAILS; break;
		case O_RAW: flags |= LIST_RAW; break;
		}
	}
	int end = cli_end("list", k);
	if (end >= 0)
		return end;
	if (profile_load(name, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	if (i == argc)
		evspec_list(stdout, &prof, NULL, flags);
	for (; i < argc; i++)
		evspec_list(stdout, &prof, argv[i], flags);
	return 0;
}
