/* rvpmu run: execute a riscv64 Linux program in user mode. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"

extern char **environ;

int cmd_run(int argc, char **argv)
{
	struct linux_opts o = {0};
	const char *count_file = NULL;
	uint64_t mb;
	int i = 1;
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
		if (i + 1 >= argc && (!strcmp(a, "--max-insns") || !strcmp(a, "--max-mem") ||
				      !strcmp(a, "--sysroot") || !strcmp(a, "--insn-count")))
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
		} else {
			fprintf(stderr, "rvpmu: run: unknown option '%s' (see 'rvpmu help run')\n", a);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "rvpmu: run: no program given (see 'rvpmu help run')\n");
		return 2;
	}

	static struct hart h;
	if (hart_init(&h)) {
		fprintf(stderr, "rvpmu: cannot reserve guest memory\n");
		return 1;
	}
	char err[512];
	if (linux_load(&h, &o, argv[i], argc - i, argv + i, environ, err, sizeof(err))) {
		fprintf(stderr, "rvpmu: %s\n", err);
		hart_free(&h);
		return 1;
	}
	int status = linux_run(&h, &o);
	if (count_file) {
		FILE *f = fopen(count_file, "w");
		if (!f || fprintf(f, "%llu\n", (unsigned long long)h.instret) < 0 || fclose(f)) {
			fprintf(stderr, "rvpmu: cannot write %s\n", count_file);
			status = status ? status : 1;
		}
	}
	hart_free(&h);
	return status;
}
