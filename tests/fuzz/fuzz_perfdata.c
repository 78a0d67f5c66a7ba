/* libFuzzer target for the perf.data reader and report: any byte string
 * must parse or give a one-line reason, and whatever parses must report
 * (table, folded stacks, flame graph) without a crash or a leak. Built
 * and run by tests/fuzz/run_perfdata.sh. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null && !(null = fopen("/dev/null", "w")))
		return 0;
	struct perfdata_file f;
	char err[512];
	err[0] = 0;
	if (perfdata_parse(data, size, &f, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
		return 0;
	}
	/* symbols come from the files the input names: keep them unopenable
	 * so a run does not depend on the host's files */
	struct report_opts o = { .out = null, .symfs = "/nonexistent-symfs" };
	for (int sort = 0; sort < 3; sort++) {
		o.sort = (enum report_sort)sort;
		report_file(&o, &f, err, sizeof(err));
	}
	o.folded = 1;
	report_file(&o, &f, err, sizeof(err));
	o.folded = 0;
	o.flamegraph = "/dev/null";
	report_file(&o, &f, err, sizeof(err));
	o.flamegraph = NULL;
	o.branch = 1;   /* report --branch: edges and basic blocks */
	report_file(&o, &f, err, sizeof(err));
	perfdata_file_free(&f);
	return 0;
}
