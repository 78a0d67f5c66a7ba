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
	int i = 1, k;
	for (;;) {
		k = cli_next("annotate", opts, argc, argv, &i, &v);
		/* as perf annotate: the symbol may come among the options */
		if (k == CLI_DONE && i < argc) {
			v = argv[i++];
			k = O_SYM;
		}
		if (k < 0)
			break;
		switch (k) {
		case O_IN: o.input = v; break;
		case O_SYM:
			if (o.symbol)
				return cli_error("one symbol at a time ('%s' is a second)", v);
			o.symbol = v;
			break;
		case O_SYMFS: o.symfs = v; break;
		case O_STDIO: break;  /* the only interface */
		case O_NO_SOURCE: o.no_source = 1; break;
		case O_LIMIT:
			if (cli_parse_percent(v, &o.percent_limit))
				return 2;
			break;
		}
	}
	int rc = cli_end("annotate", k);
	if (rc >= 0)
		return rc;
	if (o.symbol && !*o.symbol)
		return cli_error("an empty symbol name");
	return annotate_main(&o);
}
