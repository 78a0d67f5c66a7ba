/* rvpmu stat: perf stat for a user-mode program. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/linux.h"
#include "rvpmu/outfile.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

extern char **environ;

#define DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"

int cmd_stat(int argc, char **argv)
{
	static struct stat_opts o;
	static struct profile prof;
	struct linux_opts lo = {0};
	static struct cli_events events;
	const char *outfile = NULL, *profile = "virt";
	static const struct cli_opt opts[] = {
		{"-e", "--event", 1}, {"-x", NULL, 1}, {"-o", NULL, 1}, {"-r", NULL, 1},
		{"--max-insns", NULL, 1}, {"--max-mem", NULL, 1}, {"--profile", NULL, 1}, {"--mux-interval", NULL, 1},
		{"--user-counters", NULL, 1}, {"-j", "--json", 0}, {"--json-output", NULL, 0},
		{"--no-uarch", NULL, 0}, {"--no-jit", NULL, 0}, {"-q", "--quiet", 0}, {"--cpus", NULL, 1},
		{"--per-thread", NULL, 0}, {"-i", "--no-inherit", 0}, {"--sysroot", NULL, 1},
		{"-a", "--all-cpus", 0}, {"-A", "--no-aggr", 0}, {"--per-cpu", NULL, 0}, {"-C", "--cpu", 1},
		{NULL, NULL, 0},
	};
	enum { O_EVENT, O_CSV, O_OUT, O_REPEAT, O_MAX_INSNS, O_MAX_MEM, O_PROFILE, O_MUX, O_UCNT, O_JSON,
	       O_JSON2, O_NO_UARCH, O_NO_JIT, O_QUIET, O_CPUS, O_PER_THREAD, O_NO_INHERIT, O_SYSROOT,
	       O_ALL, O_NO_AGGR, O_PER_CPU, O_CPU };
	const char *cpu_list = NULL;
	int all_cpus = 0;
	uint64_t n;
	char err[512];
	const char *v;
	int i = 1, k, quiet = 0;
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
				return cli_error("stat: -x needs a separator%s", "");
			o.csv_sep = v;
			break;
		case O_OUT: outfile = v; break;
		case O_PROFILE: profile = v; break;
		case O_MUX:
			if (cli_parse_count("--mux-interval", v, &o.mux_interval))
				return 2;
			if (!o.mux_interval)
				return cli_error("stat: --mux-interval: '%s' must be at least 1 cycle", v);
			break;
		case O_REPEAT:
			if (cli_parse_count("-r", v, &n))
				return 2;
			if (!n || n > 1000)
				return cli_error("stat: -r: '%s' is out of range (1..1000)", v);
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
		case O_JSON: case O_JSON2: o.json = 1; break;
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
	if (o.json && o.csv_sep)
		return cli_error("stat: -x and -j cannot be used together%s", "");
	if (o.per_thread && o.per_cpu)
		return cli_error("stat: --per-thread and -A cannot be used together%s", "");
	if (i >= argc) {
		fprintf(stderr, "rvpmu: stat: no program given (see 'rvpmu help stat')\n");
		return 2;
	}
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	if ((o.nev = cli_events("stat", &events, DEFAULT_EVENTS, &prof, o.ev)) < 0)
		return 2;
	int system = !strcmp(argv[i], "system");
	if (!system && (all_cpus || cpu_list))
		return cli_error("stat: -a and -C count a system-mode run: rvpmu stat -a [OPTIONS] system [SYSTEM OPTIONS]%s", "");
	if (system && (o.per_thread || o.no_inherit || lo.cpus || lo.sysroot))
		return cli_error("stat: --per-thread, --no-inherit, --cpus and --sysroot are for a program; "
				 "a system-mode run takes its options after 'system'%s", "");
	if (system && (o.repeat > 1 || o.json))
		return cli_error("stat: -r and -j are not available for a system-mode run%s", "");
	if (system && (lo.max_insns || lo.max_mem_mb || lo.user_counters || lo.no_jit))
		return cli_error("stat: --max-insns, --max-mem, --user-counters and --no-jit are for a program; "
				 "a system-mode run takes its options after 'system'%s", "");
	/* the table goes to FILE only once it is complete */
	struct outfile of;
	if (outfile) {
		if (outfile_open(&of, outfile, 0, err, sizeof(err)))
			return cli_error("stat: %s", err);
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
			fprintf(stderr, "rvpmu: stat: %s\n", err);
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
		fprintf(stderr, "rvpmu: stat: %s\n", err);
		status = status ? status : 1;
	}
	return status;
}

int cmd_list(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_usage("list", stdout);
		return 0;
	}
	static struct profile prof;
	char err[512];
	const char *name = "virt";
	if (argc > 2 && !strcmp(argv[1], "--profile"))
		name = argv[2], argc -= 2, argv += 2;
	if (argc > 1)
		return cli_error("list: unexpected argument '%s'", argv[1]);
	if (profile_load(name, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	evspec_list(stdout, &prof);
	return 0;
}
