/* rvpmu stat: perf stat for a user-mode program. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/linux.h"
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
	const char *events = DEFAULT_EVENTS, *outfile = NULL, *profile = "virt";
	uint64_t n;
	char err[512];
	int i = 1, quiet = 0;
	o.out = stderr;
	o.repeat = 1;
	o.models = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage("stat", stdout);
			return 0;
		}
		if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;  /* no progress line */
			continue;
		}
		if (!strcmp(a, "--no-uarch")) {
			o.models = 0;
			continue;
		}
		if (!strncmp(a, "--user-counters", 15)) {
			if (cli_user_counters(argc, argv, &i, &lo.user_counters))
				return 2;
			continue;
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json") || !strcmp(a, "--json-output")) {
			o.json = 1;
			continue;
		}
		/* single-letter options also take their value attached (-x,) */
		char opt[3] = {a[0], a[1], 0};
		const char *v = NULL;
		if (strchr("exor", a[1]) && a[1] && a[2]) {
			v = a + 2;
			a = opt;
		}
		int takes = !strcmp(a, "-e") || !strcmp(a, "--event") || !strcmp(a, "-x") ||
			    !strcmp(a, "-o") || !strcmp(a, "-r") || !strcmp(a, "--max-insns") ||
			    !strcmp(a, "--profile") || !strcmp(a, "--mux-interval");
		if (!takes) {
			fprintf(stderr, "rvpmu: stat: unknown option '%s' (see 'rvpmu help stat')\n", a);
			return 2;
		}
		if (!v) {
			if (i + 1 >= argc)
				return cli_error("stat: %s needs a value", a);
			v = argv[++i];
		}
		if (!strcmp(a, "-e") || !strcmp(a, "--event")) {
			events = v;
		} else if (!strcmp(a, "-x")) {
			if (!*v)
				return cli_error("stat: -x needs a separator%s", "");
			o.csv_sep = v;
		} else if (!strcmp(a, "-o")) {
			outfile = v;
		} else if (!strcmp(a, "--profile")) {
			profile = v;
		} else if (!strcmp(a, "--mux-interval")) {
			if (cli_parse_count(a, v, &o.mux_interval))
				return 2;
			if (!o.mux_interval)
				return cli_error("stat: --mux-interval: '%s' must be at least 1 cycle", v);
		} else if (!strcmp(a, "-r")) {
			if (cli_parse_count(a, v, &n))
				return 2;
			if (!n || n > 1000)
				return cli_error("stat: -r: '%s' is out of range (1..1000)", v);
			o.repeat = (unsigned)n;
		} else if (cli_parse_count(a, v, &lo.max_insns)) {
			return 2;
		}
	}
	if (o.json && o.csv_sep)
		return cli_error("stat: -x and -j cannot be used together%s", "");
	if (i >= argc) {
		fprintf(stderr, "rvpmu: stat: no program given (see 'rvpmu help stat')\n");
		return 2;
	}
	if (profile_load(profile, &prof, err, sizeof(err)))
		return cli_error("%s", err);
	o.prof = &prof;
	o.nev = evspec_parse(events, &prof, o.ev, EVSPEC_MAX, err, sizeof(err));
	if (o.nev < 0)
		return cli_error("stat: %s", err);
	if (outfile && !(o.out = fopen(outfile, "w")))
		return cli_error("stat: cannot write '%s'", outfile);
	progress_begin("stat", lo.max_insns, quiet);
	lo.progress = progress_tick;
	lo.on_trap = progress_on_trap;
	int status = stat_run(&o, &lo, argc - i, argv + i, environ);
	progress_end();
	if (outfile)
		fclose(o.out);
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
