/* rvpmu annotate: option parsing. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/annotate.h"

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = {.input = "perf.data"};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage("annotate", stdout);
			return 0;
		}
		if (!strcmp(a, "--stdio"))
			continue;  /* the only interface */
		if (!strcmp(a, "--no-source")) {
			o.no_source = 1;
			continue;
		}
		if (!strcmp(a, "-i") || !strcmp(a, "--input") || !strcmp(a, "--symfs")) {
			if (i + 1 >= argc)
				return cli_error("annotate: %s needs a value", a);
			if (a[1] == 'i' || a[2] == 'i')
				o.input = argv[++i];
			else
				o.symfs = argv[++i];
			continue;
		}
		if (!strcmp(a, "--") && i + 1 < argc) {
			a = argv[++i];
		} else if (a[0] == '-') {
			return cli_error("annotate: unknown option '%s' (see 'rvpmu help annotate')", a);
		}
		if (o.symbol)
			return cli_error("annotate: one symbol at a time ('%s' is a second)", a);
		o.symbol = a;
	}
	if (!o.symbol || !*o.symbol) {
		fprintf(stderr, "rvpmu: annotate: no symbol given (see 'rvpmu help annotate')\n");
		return 2;
	}
	return annotate_main(&o);
}
