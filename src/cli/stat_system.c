/* rvpmu stat -a [-A] [-C LIST] ... system ...: perf stat's system-wide
 * view of a system-mode run. The machine is the workload, so it is always
 * counted whole (-a is implied, as perf's -C implies it); -C keeps the
 * listed harts, -A prints each. */
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "rvpmu/machine.h"
#include "rvpmu/profile.h"

struct view_ctx {
	const struct stat_opts *o;
	const char *cpu_list;
	int per_cpu;
	int counted;            /* the machine ran and the table was printed */
	int bad_list;           /* -C named a hart the machine does not have */
};

/* perf's CPU list ("0,2-3") as a mask of the machine's harts: 0 after a
 * message when it names a hart the machine does not have. */
static uint64_t cpu_mask(const char *list, unsigned nharts)
{
	uint64_t mask = 0;
	const char *s = list;
	for (;;) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;
		if (end == s)
			goto bad;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s || hi < lo)
				goto bad;
		}
		if (hi >= nharts) {
			fprintf(stderr, "rvpmu stat: -C %s: the machine has CPUs 0-%u\n", list, nharts - 1);
			return 0;
		}
		for (unsigned long c = lo; c <= hi; c++)
			mask |= 1ull << c;
		if (!*end)
			return mask;
		if (*end != ',')
			goto bad;
		s = end + 1;
	}
bad:
	fprintf(stderr, "rvpmu stat: -C '%s': not a CPU list (as 0,2-3)\n", list);
	return 0;
}

static uint64_t tally[MACHINE_MAX_HARTS][HART_MODES][PMU_EV_MAX];

static void end(struct machine *m, void *ctx)
{
	struct view_ctx *c = ctx;
	uint64_t cpus = c->cpu_list ? cpu_mask(c->cpu_list, m->nharts) : (1ull << m->nharts) - 1;
	if (!cpus) {
		c->bad_list = 1;
		return;
	}
	const struct hart *h0 = &m->hart[0];
	double secs = (double)hart_time(h0) / (double)h0->time_hz;
	stat_system_print(c->o, (const uint64_t (*)[HART_MODES][PMU_EV_MAX])tally, m->nharts, cpus,
			  c->per_cpu, secs);
	c->counted = 1;
}

int stat_system(const struct stat_opts *o, const char *cpu_list, int per_cpu, int quiet,
		int argc, char **argv)
{
	if (cpu_list && !cpu_mask(cpu_list, MACHINE_MAX_HARTS))
		return -2;   /* checked again against the machine after the run */
	struct view_ctx c = {.o = o, .cpu_list = cpu_list, .per_cpu = per_cpu};
	struct system_view v = {.tally = tally, .profile = o->prof, .no_uarch = !o->models,
				.quiet = quiet, .end = end, .ctx = &c};
	for (int i = 0; i < o->nev; i++)
		v.observe |= stat_system_set(o->prof, o->models, &o->ev[i]);
	int status = system_main(argc, argv, &v);
	if (c.bad_list)
		return -2;
	if (!c.counted)
		return -(status ? status : 1);
	return status;
}
