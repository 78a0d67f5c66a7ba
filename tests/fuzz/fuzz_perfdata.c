/* libFuzzer target for the perf.data reader and report: any byte string
 * must parse or give a one-line reason, and whatever parses must report
 * (table, folded stacks, flame graph) without a crash or a leak. Built
 * and run by tests/fuzz/run_perfdata.sh. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/perfdata.h"
#include "rvpmu/report.h"

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
	struct report_opts o = { .out = null, .symfs = "/nonexistent-symfs", .nkeys = 1,
				 .graph = -1, .children = -1, .caller = -1, .graph_min = 0.5 };
	static const int keys[] = { RK_SYM, RK_DSO, RK_SRCLINE, RK_PID };
	for (int k = 0; k < 4; k++) {
		o.keys[0] = keys[k];
		o.children = k & 1 ? -1 : 0;  /* call graphs, with and without children */
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
