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
	struct linux_opts o = {0};
	const char *count_file = NULL, *profile = NULL;
	uint64_t mb;
	int i = 1, quiet = 0, models = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage("run", stdout);
			return 0;
		}
		if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;  /* no progress line */
			continue;
		}
		if (!strcmp(a, "--no-uarch")) {
			models = 0;
			continue;
		}
		if (!strncmp(a, "--user-counters", 15)) {
			if (cli_user_counters(argc, argv, &i, &o.user_counters))
				return 2;
			continue;
		}
		if (i + 1 >= argc && (!strcmp(a, "--max-insns") || !strcmp(a, "--max-mem") ||
				      !strcmp(a, "--sysroot") || !strcmp(a, "--insn-count") ||
				      !strcmp(a, "--profile")))
			return cli_error("%s needs a value", a);
		if (!strcmp(a, "--max-insns")) {
			if (cli_parse_count(a, argv[++i], &o.max_insns))
				return 2;
			if (!o.max_insns)
				return cli_error("--max-insns must be positive%s", "");
		} else if (!strcmp(a, "--max-mem")) {
			if (cli_parse_count(a, argv[++i], &mb))
				return 2;
			if (!mb || mb > (GMEM_SPACE_MAX >> 20))
				return cli_error("--max-mem: '%s' is out of range", argv[i]);
			o.max_mem_mb = mb;
		} else if (!strcmp(a, "--sysroot")) {
			o.sysroot = argv[++i];
		} else if (!strcmp(a, "--insn-count")) {
			count_file = argv[++i];
		} else if (!strcmp(a, "--profile")) {
			profile = argv[++i];
		} else {
			fprintf(stderr, "rvpmu: run: unknown option '%s' (see 'rvpmu help run')\n", a);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "rvpmu: run: no program given (see 'rvpmu help run')\n");
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
	session_sbi(&ss, SBI_PMU_START, 0, 5, 0, 0, 0, NULL);
	progress_begin("run", o.max_insns, quiet);
	o.progress = progress_tick;
	o.on_trap = progress_on_trap;
	int status = linux_run(&ss.h, &o);
	progress_end();
	if (count_file) {
		FILE *f = fopen(count_file, "w");
		if (!f || fprintf(f, "%llu\n", (unsigned long long)ss.h.instret) < 0 || fclose(f)) {
			fprintf(stderr, "rvpmu: cannot write %s\n", count_file);
			status = status ? status : 1;
		}
	}
	session_close(&ss);
	return status;
}
