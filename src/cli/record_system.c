/* rvpmu record [-a] ... system ...: perf record -a of a system-mode run,
 * every hart sampled from outside (src/perf/record_system.c). */
#include <stdio.h>
#include "cli.h"
#include "rvpmu/machine.h"

struct rec_ctx {
	const struct record_opts *o;
	int argc;
	char **argv;
	struct record_system *r;
};

static int start(struct machine *m, void *ctx)
{
	struct rec_ctx *c = ctx;
	c->r = record_system_open(c->o, m->o.kernel, c->argc, c->argv);
	if (!c->r)
		return -1;
	for (unsigned i = 0; i < m->nharts; i++)
		record_system_attach(c->r, &m->hart[i], i);
	return 0;
}

static void end(struct machine *m, void *ctx)
{
	struct rec_ctx *c = ctx;
	if (!c->r)
		return;
	for (unsigned i = 0; i < m->nharts; i++)
		hart_sync_pmu(&m->hart[i]);   /* the last chunk's overflows */
	if (record_system_close(c->r))
		c->r = NULL;
}

int record_system(const struct record_opts *o, int quiet, int argc, char **argv)
{
	struct rec_ctx c = {.o = o, .argc = argc, .argv = argv};
	struct system_view v = {.profile = o->prof, .no_uarch = !o->models, .quiet = quiet,
				.start = start, .end = end, .ctx = &c};
	int status = system_main(argc, argv, &v);
	return c.r ? status : status ? status : 1;
}
