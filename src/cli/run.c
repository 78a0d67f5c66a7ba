/* rvpmu run: execute a riscv64 Linux program in user mode. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

extern char **environ;

int cmd_run(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		{"--max-insns", NULL, 1}, {"--max-mem", NULL, 1}, {"--sysroot", NULL, 1},
		{"--insn-count", NULL, 1}, {"--profile", NULL, 1}, {"--user-counters", NULL, 1},
		{"--no-uarch", NULL, 0}, {"--no-jit", NULL, 0}, {"-q", "--quiet", 0}, {"--cpus", NULL, 1},
		{NULL, NULL, 0},
	};
	enum { O_MAX_INSNS, O_MAX_MEM, O_SYSROOT, O_INSN_COUNT, O_PROFILE, O_UCNT, O_NO_UARCH, O_NO_JIT, O_QUIET,
	       O_CPUS };
	struct linux_opts o = {0};
	const char *count_file = NULL, *profile = NULL, *v;
	int i = 1, k, quiet = 0, models = 1;
	while ((k = cli_next("run", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_MAX_INSNS:
			if (cli_parse_count("--max-insns", v, &o.max_insns))
				return 2;
			if (!o.max_insns)
				return cli_error("--max-insns must be positive");
			break;
		case O_MAX_MEM:
			if (cli_max_mem(v, &o.max_mem_mb))
				return 2;
			break;
		case O_SYSROOT: o.sysroot = v; break;
		case O_INSN_COUNT: count_file = v; break;
		case O_PROFILE: profile = v; break;
		case O_UCNT:
			if (cli_user_counters(v, &o.user_counters))
				return 2;
			break;
		case O_NO_UARCH: models = 0; break;
		case O_NO_JIT: o.no_jit = 1; break;
		case O_QUIET: quiet = 1; break;   /* no progress line */
		case O_CPUS:
			if (cli_cpus(v, &o.cpus))
				return 2;
			break;
		}
	}
	int end = cli_end("run", k);
	if (end >= 0)
		return end;
	if (i >= argc) {
		fprintf(stderr, "rvpmu run: no program given (see 'rvpmu help run')\n");
		return 2;
	}

	/* A session on a core: by default virt without models (functional
	 * speed); with --profile that core, its models too unless --no-uarch.
	 * The program's rdcycle and its own perf_event_open reach this PMU
	 * (the latter through the firmware). */
	static struct profile prof;
	static struct session ss;
	char err[512];
	if (profile_load(profile ? profile : "virt", &prof, err, sizeof(err)))
		return cli_error("%s", err);
	if (session_open(&ss, &prof, profile && models, &o, argc - i, argv + i, environ))
		return 1;
	/* cycle and instret count from the start, as rdcycle and rdinstret
	 * in rvpmu run always saw them (the firmware starts with all stopped) */
	for (unsigned c = 0; c < ss.ncpus; c++)
		session_sbi_on(&ss, c, SBI_PMU_START, 0, 5, 0, 0, 0, NULL);
	progress_begin("run", o.max_insns, quiet);
	o.progress = progress_tick;
	o.on_trap = progress_on_trap;
	o.stop = cli_interrupt_begin();
	int status = linux_run(&ss.h, &o);
	progress_end();
	if (count_file) {   /* every hart's: the program's threads and processes */
		uint64_t n = 0;
		for (unsigned c = 0; c < ss.ncpus; c++)
			n += ss.cpu[c]->instret;
		FILE *f = fopen(count_file, "w");
		if (!f || fprintf(f, "%llu\n", (unsigned long long)n) < 0 || fclose(f)) {
			fprintf(stderr, "rvpmu run: cannot write %s\n", count_file);
			status = status ? status : 1;
		}
	}
	session_close(&ss);
	return status;
}
