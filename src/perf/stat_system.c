/* rvpmu stat on a system-mode run: perf stat -a, -A and -C over the
 * machine's harts. The counts are the host's own view: every event each
 * hart's PMU is handed, by privilege mode (struct hart's tally), never
 * the guest's counters, which stay the guest's to program. An event
 * counts what a counter programmed with it would count in every mode the
 * event's modifiers leave in: :u user mode, :k supervisor and machine
 * mode (the firmware is part of the system perf -a sees; machine mode has
 * no modifier of its own), :G the guest's VS and VU modes (V=1), :H the
 * host's (V=0), u and k then choosing within that side (evspec_modes). */
#include <stdio.h>
#include <string.h>
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "stat_int.h"

/* The canonical events an event spec stands for on profile p (what the
 * SBI implementation programs a counter with), 0 when not countable:
 * firmware events, and events only the models raise when they are off. */
pmu_evset stat_system_set(const struct profile *p, int models, const struct evspec *e)
{
	pmu_evset set = 0;
	switch (e->event_idx >> 16) {
	case 0: case 1: {
		if (e->event_idx == 1)   /* SBI_PMU_HW_CPU_CYCLES: mcycle */
			return PMU_EV_BIT(PMU_EV_CYCLES);
		if (e->event_idx == 2)   /* SBI_PMU_HW_INSTRUCTIONS: minstret */
			return PMU_EV_BIT(PMU_EV_INSTRET);
		const struct profile_sbi_event *m = profile_sbi_lookup(p, e->event_idx);
		set = m && m->selector ? profile_decode_set(p, m->selector) : 0;
		break;
	}
	case 2: case 3:   /* raw: the selector itself */
		set = profile_decode_set(p, e->event_data);
		break;
	default:
		return 0;
	}
	if (!models && (set & ~PROF_EV_RETIRE_SET) >> PMU_EV_COUNT)
		return 0;
	return set;
}

static uint64_t count_of(const uint64_t tally[HART_MODES][PMU_EV_MAX], pmu_evset set,
			 const struct evspec *e)
{
	uint64_t n = 0;
	unsigned modes = evspec_modes(e);
	for (unsigned mode = 0; mode < HART_MODES; mode++) {
		if (!(modes >> mode & 1))
			continue;
		for (unsigned ev = 0; ev < PMU_EV_MAX; ev++)
			if (set >> ev & 1)
				n += tally[mode][ev];
	}
	return n;
}

/* One line: "CPUn" (cpu >= 0, -A) or the sum (cpu < 0). */
static void print_line(const struct stat_opts *o, int cpu, int ok, uint64_t v,
		       const struct evspec *e, double secs)
{
	FILE *f = o->out;
	char where[16] = "";
	if (cpu >= 0)
		snprintf(where, sizeof(where), "CPU%d", cpu);
	if (o->csv_sep) {   /* perf -x: [cpu,]count,unit,event,run ns,run %,, */
		const char *s = o->csv_sep;
		if (cpu >= 0)
			fprintf(f, "%s%s", where, s);
		if (ok)
			fprintf(f, "%llu%s%s%s%s%llu%s100.00%s%s\n", (unsigned long long)v, s, s, e->name,
				s, (unsigned long long)(secs * 1e9), s, s, s);
		else
			fprintf(f, "<not supported>%s%s%s%s0%s100.00%s%s\n", s, s, e->name, s, s, s, s);
		return;
	}
	if (cpu >= 0)
		fprintf(f, "%-8s", where);
	char num[64];
	if (ok)
		fprintf(f, "%18s ", stat_grouped(num, (double)v, 0, !o->no_big_num));
	else
		fprintf(f, "%18s ", "<not supported>");
	fprintf(f, "     %s\n", e->name);
}

void stat_system_print(const struct stat_opts *o, const uint64_t (*tally)[HART_MODES][PMU_EV_MAX],
		       unsigned nharts, uint64_t cpus, int per_cpu, double secs)
{
	FILE *f = o->out;
	if (!o->csv_sep)
		fprintf(f, "\n Performance counter stats for 'system wide':\n\n");
	for (int i = 0; i < o->nev; i++) {
		const struct evspec *e = &o->ev[i];
		pmu_evset set = stat_system_set(o->prof, o->models, e);
		uint64_t sum = 0;
		for (unsigned c = 0; c < nharts; c++) {
			if (!(cpus >> c & 1))
				continue;
			uint64_t v = count_of(tally[c], set, e);
			if (per_cpu)
				print_line(o, (int)c, set != 0, v, e, secs);
			sum += v;
		}
		if (!per_cpu)
			print_line(o, -1, set != 0, sum, e, secs);
	}
	if (!o->csv_sep)
		fprintf(f, "\n %17.9f seconds time elapsed (modelled: %s at %.2f GHz%s)\n\n", secs,
			o->prof->name, (double)o->prof->clock_hz / 1e9,
			o->models ? "" : ", one cycle per instruction");
}
