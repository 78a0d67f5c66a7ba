/* rvpmu annotate: option parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/annotate.h"

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = {.input = "perf.data"};
	static const struct cli_opt opts[] = {
		{"-i", "--input", 1}, {"-s", "--symbol", 1}, {"--symfs", NULL, 1}, {"--stdio", NULL, 0},
		{"--no-source", NULL, 0}, {"--percent-limit", NULL, 1}, {NULL, NULL, 0},
	};
	enum { O_IN, O_SYM, O_SYMFS, O_STDIO, O_NO_SOURCE, O_LIMIT };
	const char *v;
	char *end;
	int i = 1, k;
	for (;;) {
		while ((k = cli_next("annotate", opts, argc, argv, &i, &v)) >= 0) {
			switch (k) {
			case O_IN: o.input = v; break;
			case O_SYM:
				if (o.symbol)
					return cli_error("annotate: one symbol at a time ('%s' is a second)", v);
				o.symbol = v;
				break;
			case O_SYMFS: o.symfs = v; break;
			case O_STDIO: break;  /* the only interface */
			case O_NO_SOURCE: o.no_source = 1; break;
			case O_LIMIT:
				o.percent_limit = strtod(v, &end);
				if (!*v || *end || !(o.percent_limit >= 0 && o.percent_limit <= 100))
					return cli_error("annotate: --percent-limit: '%s' is not a percentage "
							 "(0..100)", v);
				break;
			}
		}
		int end_rc = cli_end("annotate", k);
		if (end_rc >= 0)
			return end_rc;
		if (i >= argc)
			break;
		/* the symbol may come among the options, as perf takes it */
		if (o.symbol)
			return cli_error("annotate: one symbol at a time ('%s' is a second)", argv[i]);
		o.symbol = argv[i++];
	}
	if (o.symbol && !*o.symbol)
		return cli_error("annotate: an empty symbol name%s", "");
	return annotate_main(&o);
}
