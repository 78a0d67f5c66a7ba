/* rvpmu stat: count events of a user-mode program the way Linux's
 * riscv_pmu_sbi driver and perf's core do. Each event gets a counter
 * through SBI PMU config_matching; when there are more events than the
 * counters can hold, events and groups take turns on the counters at a
 * fixed modelled-time tick (perf's multiplexing), each accumulating its
 * count, time enabled and time running, and the printout scales
 * count * enabled / running. Software events (task-clock, page-faults,
 * context-switches, ...) are what rvpmu's kernel did for the program
 * (linux_sw_read), taken on and off with their group as perf does.
 *
 * Every event is programmed alike on each --cpus hart; as perf's
 * per-task events with inherit, what a hart counted while a thread ran
 * is that thread's (read as it leaves the hart, linux_opts.switch_out),
 * so the default count is the whole process tree's, --per-thread gives
 * each thread's, -A each hart's and --no-inherit the first thread's.
 *
 * Time is modelled: the busiest hart's cycles, plus the time the whole
 * run slept (every thread waiting). -D starts counting, -I prints and
 * --timeout stops the program at modelled times; stat_print.c prints
 * (Linux 6.1's formats). */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "stat_int.h"

/* Linux rotates flexible events every perf_event_mux_interval_ms, by
 * default 1000/HZ ms: 4 ms with Debian's HZ=250. Here: modelled time. */
#define MUX_HZ 250
#define NS 1000000000ull
#define MAX_RUNS 1000

struct counted {
	int supported;
	uint64_t mask;          /* counters that can count it (probed) */
	int on;                 /* counting now */
	unsigned idx, csr;      /* SBI counter id and CSR while on */
	uint64_t since;         /* cycle it went on */
	uint64_t base[SESSION_MAX_CPUS]; /* a software event's source on each
	                           hart when it went on */
	uint64_t value;         /* raw count over the time it ran, all harts' */
	uint64_t running;       /* cycles it ran */
};

/* What perf schedules as one: a group, or an event on its own. */
struct unit {
	int n;
	int m[EVSPEC_MAX];
};

/* An event's totals at some moment: raw count, cycles enabled, running. */
struct snap {
	uint64_t val, ena, run;
};

/* What one thread counted (--per-thread, --no-inherit). */
struct thread_counts {
	int pid, tid;
	char comm[16];
	uint64_t v[EVSPEC_MAX];
};

struct stat_state {
	struct session ss;
	/* per-task counting: each hart's event values when its counts were
	 * last charged, what each thread and each hart counted */
	uint64_t last[SESSION_MAX_CPUS][EVSPEC_MAX];
	uint64_t cpu_v[SESSION_MAX_CPUS][EVSPEC_MAX];
	struct thread_counts thr[STAT_MAX_THREADS];
	int nthr;
	int first_tid;          /* the program's first thread */
	int thr_dropped;        /* threads past STAT_MAX_THREADS ran */
	const struct stat_opts *o;
	struct counted c[EVSPEC_MAX];
	struct unit u[EVSPEC_MAX];
	int nunits;
	int order[EVSPEC_MAX];  /* rotation order of the units */
	int rotate;             /* some unit could not go on: multiplex */
	uint64_t mux, next;     /* multiplexing tick and the next one (cycles) */
	uint64_t c0[SESSION_MAX_CPUS]; /* each hart's cycles when the program started */
	int counting;           /* the events are enabled (after -D) */
	uint64_t start;         /* run_cycles when counting began */
	uint64_t wall_start;    /* modelled ns (since the program started) then */
	uint64_t sleep_seen;    /* the kernel's sleep ns at the last tick */
	uint64_t wall_end;      /* --timeout: when the program was stopped */
	/* -I */
	uint64_t next_print;    /* ns after wall_start of the next interval */
	uint64_t printed;       /* intervals printed */
	struct snap prev[EVSPEC_MAX];
	/* with --per-thread or -A: each thread's and hart's counts then */
	uint64_t prev_thr[STAT_MAX_THREADS][EVSPEC_MAX];
	uint64_t prev_cpu[SESSION_MAX_CPUS][EVSPEC_MAX];
	/* the run's stop flag (linux_opts.stop): the user's signal, or
	 * SIGTERM at --timeout (perf kills the program with it) */
	volatile int stop;
	const volatile int *user_stop;
	int argc;
	char **argv;
};

static uint64_t cycles_ns(const struct stat_state *st, uint64_t cycles)
{
	return (uint64_t)((unsigned __int128)cycles * NS / st->o->prof->clock_hz);
}

static uint64_t ns_cycles(const struct stat_state *st, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * st->o->prof->clock_hz / NS);
}

/* The run's clock: the busiest hart's cycles since the program started
 * (with one hart, its cycles). */
static uint64_t run_cycles(const struct stat_state *st)
{
	uint64_t most = 0;
	for (unsigned k = 0; k < st->ss.ncpus; k++) {
		uint64_t c = hart_cycles(st->ss.cpu[k]) - st->c0[k];
		most = c > most ? c : most;
	}
	return most;
}

/* Every hart's cycles since the program started: the time it ran. */
static uint64_t ran_cycles(const struct stat_state *st)
{
	uint64_t sum = 0;
	for (unsigned k = 0; k < st->ss.ncpus; k++)
		sum += hart_cycles(st->ss.cpu[k]) - st->c0[k];
	return sum;
}

/* Modelled time since the program started: the run's clock and the time
 * it slept. */
static uint64_t wall_ns(const struct stat_state *st, const struct linux_sw *sw)
{
	return cycles_ns(st, run_cycles(st)) + sw->sleep_ns;
}

/* A software event's source now (perf's swevents, as rvpmu's kernel
 * counts them). Context switches happen in the kernel, so :u never sees
 * one (Linux counts them with kernel registers); page faults are the
 * program's own touches (user) or the kernel's on its behalf. */
static uint64_t sw_source(const struct stat_state *st, unsigned k, const struct evspec *e)
{
	struct linux_sw sw;
	linux_sw_read(st->ss.cpu[k], &sw);
	switch (e->sw_id) {
	case PERF_COUNT_SW_CPU_CLOCK:
	case PERF_COUNT_SW_TASK_CLOCK:
		return cycles_ns(st, hart_cycles(st->ss.cpu[k]));
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
		return (e->exclude_user ? 0 : sw.faults_user) + (e->exclude_kernel ? 0 : sw.faults_kernel);
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
		return e->exclude_kernel ? 0 : sw.switches;
	case EVSPEC_DURATION:   /* the run's, not a hart's: counted on hart 0 */
		return k ? 0 : wall_ns(st, &sw);
	default:   /* migrations, major, alignment and emulation faults: none */
		return 0;
	}
}

/* config_matching for event i offering only counter ctr, as the driver
 * would after picking it. */
static int claim(struct stat_state *st, int i, unsigned ctr)
{
	struct session *ss = &st->ss;
	uint64_t all = ss->cmask;
	ss->cmask = 1ull << ctr;
	long r = session_config_all(ss, &st->o->ev[i], 0, &st->c[i].idx, &st->c[i].csr);
	ss->cmask = all;
	return r == SBI_SUCCESS ? 0 : -1;
}

static void release(struct stat_state *st, int i)
{
	for (unsigned k = 0; k < st->ss.ncpus; k++)
		session_sbi_on(&st->ss, k, SBI_PMU_STOP, st->c[i].idx, 1, SBI_STOP_RESET, 0, 0, NULL);
}

/* Bipartite matching of a unit's hardware members onto free counters
 * (Kuhn's augmenting paths): owner[ctr] = member index or -1. */
static int augment(const struct stat_state *st, const struct unit *u, int k, uint64_t avail,
		   int *owner, uint64_t *seen)
{
	uint64_t m = st->c[u->m[k]].mask & avail & ~*seen;
	for (unsigned b = 0; b < 64; b++) {
		if (!((m >> b) & 1))
			continue;
		*seen |= 1ull << b;
		if (owner[b] < 0 || augment(st, u, owner[b], avail, owner, seen)) {
			owner[b] = k;
			return 1;
		}
	}
	return 0;
}

static int match(const struct stat_state *st, const struct unit *u, uint64_t avail, int *owner)
{
	for (int b = 0; b < 64; b++)
		owner[b] = -1;
	for (int k = 0; k < u->n; k++) {
		uint64_t seen = 0;
		if (!st->o->ev[u->m[k]].software && !augment(st, u, k, avail, owner, &seen))
			return 0;
	}
	return 1;
}

/* Event i, on, on hart k: its count there since it went on. */
static uint64_t read_on(const struct stat_state *st, unsigned k, int i)
{
	const struct counted *c = &st->c[i];
	uint64_t v = 0;
	if (st->o->ev[i].software)
		return sw_source(st, k, &st->o->ev[i]) - c->base[k];
	hart_csr(st->ss.cpu[k], PRIV_S, c->csr, HART_CSR_READ, 0, &v);
	return v;
}

/* What hart k counted for event i since the last charge goes to the
 * thread t on it (perf's per-task counts); the value read is v. */
static void charge(struct stat_state *st, unsigned k, int i, uint64_t v, const struct linux_task *t)
{
	uint64_t d = v - st->last[k][i];
	st->last[k][i] = v;
	if (st->o->no_inherit && (!t || t->tid != st->first_tid))
		return;   /* -A --no-inherit: the first thread on each hart */
	st->cpu_v[k][i] += d;
	if (!t)
		return;
	int n = 0;
	while (n < st->nthr && st->thr[n].tid != t->tid)
		n++;
	if (n == st->nthr) {
		if (n == STAT_MAX_THREADS) {
			st->thr_dropped = 1;   /* --per-thread lists the first 256 */
			return;
		}
		st->nthr++;
		st->thr[n] = (struct thread_counts){ .pid = t->pid, .tid = t->tid };
	}
	snprintf(st->thr[n].comm, sizeof(st->thr[n].comm), "%s", t->comm);
	st->thr[n].v[i] += d;
}

/* A thread leaves hart h: what h counted is that thread's. */
static void switch_out(void *ctx, struct hart *h, const struct linux_task *t)
{
	struct stat_state *st = ctx;
	unsigned k = 0;
	while (k < st->ss.ncpus && st->ss.cpu[k] != h)
		k++;
	if (k == st->ss.ncpus)
		return;
	hart_sync_pmu(h);
	for (int i = 0; i < st->o->nev; i++)
		if (st->c[i].on)
			charge(st, k, i, read_on(st, k, i), t);
}

/* The counts so far of each hart's thread are that thread's (as at a
 * switch), for rows by thread or hart now. */
static void charge_all(struct stat_state *st)
{
	for (unsigned k = 0; k < st->ss.ncpus; k++) {
		struct linux_task t;
		int has = !linux_task_on(st->ss.cpu[k], &t);
		hart_sync_pmu(st->ss.cpu[k]);
		for (int i = 0; i < st->o->nev; i++)
			if (st->c[i].on)
				charge(st, k, i, read_on(st, k, i), has ? &t : NULL);
	}
}

/* Stop, read (charging each hart's thread) and release every event that
 * is on. */
static void sched_out(struct stat_state *st, uint64_t now)
{
	struct session *ss = &st->ss;
	charge_all(st);
	for (unsigned k = 0; k < ss->ncpus; k++)
		for (int i = 0; i < st->o->nev; i++) {
			struct counted *c = &st->c[i];
			if (!c->on)
				continue;
			if (!st->o->ev[i].software)
				session_sbi_on(ss, k, SBI_PMU_STOP, c->idx, 1, 0, 0, 0, NULL);
			c->value += read_on(st, k, i);
		}
	for (int i = 0; i < st->o->nev; i++) {
		struct counted *c = &st->c[i];
		if (!c->on)
			continue;
		if (!st->o->ev[i].software)
			release(st, i);
		c->running += now - c->since;
		c->on = 0;
	}
}

static void go_on(struct stat_state *st, int i, uint64_t now)
{
	struct counted *c = &st->c[i];
	for (unsigned k = 0; k < st->ss.ncpus; k++) {
		if (st->o->ev[i].software)
			c->base[k] = sw_source(st, k, &st->o->ev[i]);
		else
			session_sbi_on(&st->ss, k, SBI_PMU_START, c->idx, 1, SBI_START_SET_INIT_VALUE, 0, 0, NULL);
		st->last[k][i] = 0;
	}
	c->on = 1;
	c->since = now;
}

/* perf's flexible scheduling: units in list order, each all or nothing,
 * and the first that does not fit ends the pass (can_add_hw = 0). Returns
 * whether every unit went on. */
static int sched_in(struct stat_state *st, uint64_t now)
{
	struct session *ss = &st->ss;
	uint64_t used = 0;
	for (unsigned k = 0; k < ss->ncpus; k++)
		hart_sync_pmu(ss->cpu[k]);
	for (int k = 0; k < st->nunits; k++) {
		const struct unit *u = &st->u[st->order[k]];
		int owner[64], ok = match(st, u, ss->cmask & ~used, owner);
		for (unsigned b = 0; ok && b < 64; b++) {
			if (owner[b] < 0)
				continue;
			if (claim(st, u->m[owner[b]], b)) {
				ok = 0;  /* the probe said it could: not expected */
				break;
			}
			used |= 1ull << b;
		}
		if (!ok) {
			for (unsigned b = 0; b < 64; b++)  /* all or nothing */
				if (owner[b] >= 0 && st->c[u->m[owner[b]]].idx)
					release(st, u->m[owner[b]]);
			return 0;
		}
		for (int j = 0; j < u->n; j++)
			go_on(st, u->m[j], now);
	}
	return 1;
}

static const char *counter_name(unsigned i, char *buf, size_t len)
{
	if (i == 0)
		return "cycle";
	if (i == 2)
		return "instret";
	snprintf(buf, len, "hpmcounter%u", i);
	return buf;
}

/* A group that can never be on the counters at once is refused before
 * the run, as perf's open of the group would fail; a weak group (:W,
 * the groups of -M's metrics) falls apart into single events instead. */
static int check_groups(struct stat_state *st)
{
	const struct stat_opts *o = st->o;
	for (int k = 0; k < st->nunits; k++) {
		struct unit *u = &st->u[k];
		int owner[64];
		if (o->ev[u->m[0]].group < 0 || match(st, u, st->ss.cmask, owner))
			continue;
		if (o->ev[u->m[0]].weak) {
			memmove(u + u->n, u + 1, (size_t)(st->nunits - k - 1) * sizeof(*u));
			struct unit g = *u;
			for (int j = 0; j < g.n; j++)
				u[j] = (struct unit){.n = 1, .m = {g.m[j]}};
			st->nunits += g.n - 1;
			k += g.n - 1;
			continue;
		}
		char name[1024], list[512], b[24];
		size_t n = 0, l = 0;
		uint64_t any = 0;
		int g = o->ev[u->m[0]].group, hw = 0;
		for (int i = 0; i < o->nev && n < sizeof(name); i++)
			if (o->ev[i].group == g)
				n += (size_t)snprintf(name + n, sizeof(name) - n, "%s%s", n ? "," : "{", o->ev[i].name);
		if (n < sizeof(name))
			snprintf(name + n, sizeof(name) - n, "}");
		for (int j = 0; j < u->n; j++) {
			any |= st->c[u->m[j]].mask;
			hw += !o->ev[u->m[j]].software;
		}
		for (unsigned i = 0; i < 64 && l < sizeof(list); i++)
			if ((any >> i) & 1)
				l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s", l ? ", " : "",
						      counter_name(i, b, sizeof(b)));
		int cnt = __builtin_popcountll(any);
		fprintf(stderr, "rvpmu stat: group %s does not fit on the %s core's counters at once: "
				"its %d events %s %d counter%s (%s)\n",
			name, o->prof->name, hw, cnt < hw ? "can use only" : "cannot share out the",
			cnt, cnt == 1 ? "" : "s", list);
		return -1;
	}
	for (int k = 0; k < st->nunits; k++)
		st->order[k] = k;
	return 0;
}

/* Every event's totals now, counting what is on so far. */
static void totals(struct stat_state *st, uint64_t now, struct snap *out)
{
	for (unsigned k = 0; k < st->ss.ncpus; k++)
		hart_sync_pmu(st->ss.cpu[k]);
	for (int i = 0; i < st->o->nev; i++) {
		const struct counted *c = &st->c[i];
		out[i] = (struct snap){c->value, 0, c->running};
		if (!c->supported || !st->counting)
			continue;
		out[i].ena = now - st->start;
		if (c->on) {
			for (unsigned k = 0; k < st->ss.ncpus; k++)
				out[i].val += read_on(st, k, i);
			out[i].run += now - c->since;
		}
	}
}

/* A row from a window's counts: perf_counts_values__scale's count. */
static struct stat_row row(const struct stat_state *st, int i, const struct snap *s)
{
	struct stat_row r = {.supported = st->c[i].supported, .val = s->val,
			     .ena = cycles_ns(st, s->ena), .run = cycles_ns(st, s->run)};
	if (s->run && s->run < s->ena)
		r.val = (uint64_t)((double)s->val * (double)s->ena / (double)s->run);
	r.mean = (double)r.val;
	return r;
}

/* --per-thread and -A: the rows of each thread or hart, each event
 * scaled by its time on the counters as the whole run's (s). With -I
 * (interval), what each counted since the last interval. How many. */
static int split_rows(struct stat_state *st, const struct snap *s, int interval,
		      struct stat_split *out)
{
	const struct stat_opts *o = st->o;
	int n = o->per_cpu ? (int)st->ss.ncpus : st->nthr;
	for (int k = 0; k < n; k++) {
		const uint64_t *val = o->per_cpu ? st->cpu_v[k] : st->thr[k].v;
		uint64_t *prev = o->per_cpu ? st->prev_cpu[k] : st->prev_thr[k];
		snprintf(out[k].comm, sizeof(out[k].comm), "%s", o->per_cpu ? "" : st->thr[k].comm);
		out[k].id = o->per_cpu ? k : st->thr[k].tid;
		for (int i = 0; i < o->nev; i++) {
			struct snap sn = {val[i] - (interval ? prev[i] : 0), s[i].ena, s[i].run};
			if (interval)
				prev[i] = val[i];
			out[k].r[i] = row(st, i, &sn);
		}
	}
	return n;
}

/* -I: print the interval that ended at the boundary, its counts the
 * change since the last one. The time stamp is when the counts were read:
 * where the program ran past the boundary, when it stopped (a few cycles
 * later); where it slept through it, the boundary itself. */
static void print_interval(struct stat_state *st, uint64_t now, uint64_t ran_to, uint64_t boundary)
{
	static struct stat_view v;
	static struct stat_split split[STAT_MAX_THREADS];
	struct snap cur[EVSPEC_MAX], d[EVSPEC_MAX];
	totals(st, now, cur);
	memset(&v, 0, sizeof(v));
	v.o = st->o;
	v.runs = 1;
	for (int i = 0; i < st->o->nev; i++) {
		d[i] = (struct snap){cur[i].val - st->prev[i].val, cur[i].ena - st->prev[i].ena,
				     cur[i].run - st->prev[i].run};
		v.r[i] = row(st, i, &d[i]);
		st->prev[i] = cur[i];
	}
	if (st->o->per_thread || st->o->per_cpu) {
		charge_all(st);
		v.split = split;
		v.nsplit = split_rows(st, d, 1, split);
	}
	v.wall_ns = (double)st->o->interval_ms * 1e6;   /* perf: the interval */
	v.interval = 1;
	v.stamp_ns = ran_to > boundary ? ran_to : boundary;
	stat_print(&v);
	st->printed++;
}

/* -I: are intervals still to be printed (--interval-count)? */
static int intervals_left(const struct stat_state *st)
{
	const struct stat_opts *o = st->o;
	return st->counting && o->interval_ms && (!o->interval_count || st->printed < o->interval_count);
}

/* Enable the events at cycle now; wall is the modelled time (since the
 * program started) that counts as the start: -D's, where the program
 * slept through it. */
static void start_counting(struct stat_state *st, uint64_t now, uint64_t wall)
{
	st->counting = 1;
	st->start = now;
	st->wall_start = wall;
	st->next = now + st->mux;
	st->next_print = st->o->interval_ms * 1000000;
	st->rotate = !sched_in(st, now);
	if (st->o->delay_ms)
		fprintf(stderr, "Events enabled\n");
}

/* Called after every stop of the hart: start counting at -D, rotate the
 * units at each multiplexing tick (everything comes off, the first unit
 * moves to the end, as perf's rotate_ctx, and the list goes on again),
 * print each -I interval, stop the program at --timeout. Returns how
 * many instructions may run before the next of these is due: shrinking
 * steps, so that the hart stops within a few cycles after it. */
static uint64_t tick(void *ctx, struct hart *h)
{
	struct stat_state *st = ctx;
	const struct stat_opts *o = st->o;
	uint64_t now = run_cycles(st), due = UINT64_MAX;
	struct linux_sw sw;
	linux_sw_read(h, &sw);
	uint64_t wall = wall_ns(st, &sw);
	uint64_t ran_to = cycles_ns(st, now) + st->sleep_seen;  /* before this sleep */
	st->sleep_seen = sw.sleep_ns;
	if (st->user_stop && *st->user_stop)
		st->stop = *st->user_stop;
	if (!st->counting && o->delay_ms >= 0) {
		uint64_t at = (uint64_t)o->delay_ms * 1000000;
		if (wall >= at)
			start_counting(st, now, ran_to > at ? ran_to : at);
		else
			due = at - wall;
	}
	if (st->counting && st->rotate) {
		if (now >= st->next) {
			sched_out(st, now);
			int first = st->order[0];
			memmove(st->order, st->order + 1, (size_t)(st->nunits - 1) * sizeof(st->order[0]));
			st->order[st->nunits - 1] = first;
			sched_in(st, now);
			while (st->next <= now)
				st->next += st->mux;
		}
		if (cycles_ns(st, st->next - now) < due)
			due = cycles_ns(st, st->next - now);
	}
	if (intervals_left(st)) {
		uint64_t since = wall - st->wall_start;
		uint64_t ran = ran_to > st->wall_start ? ran_to - st->wall_start : 0;
		while (since >= st->next_print && intervals_left(st)) {
			print_interval(st, now, ran, st->next_print);
			st->next_print += o->interval_ms * 1000000;
		}
		if (st->next_print - since < due)
			due = st->next_print - since;
	}
	if (o->timeout_ms && !st->stop) {
		uint64_t at = o->timeout_ms * 1000000;
		if (wall >= at) {   /* the program ends at the timeout, asleep or not */
			st->stop = SIGTERM;
			st->wall_end = ran_to > at ? ran_to : at;
		} else if (at - wall < due) {
			due = at - wall;
		}
	}
	return due == UINT64_MAX ? 0 : ns_cycles(st, due) / 8 + 1;
}

/* What one run leaves for the printout. */
struct result {
	struct snap s[EVSPEC_MAX];
	uint64_t wall, user;    /* ns of the counting window; of it, running */
};

/* One run. Returns the program's exit status, or -1 (message printed). */
static int run_once(struct stat_state *st, const struct linux_opts *lo_in, int argc, char **argv,
		    char **envp, struct result *res)
{
	const struct stat_opts *o = st->o;
	struct linux_opts lo = *lo_in;
	lo.tick = tick;
	lo.tick_ctx = st;
	lo.switch_out = switch_out;
	lo.task_ctx = st;
	st->user_stop = lo_in->stop;
	lo.stop = &st->stop;
	if (session_open(&st->ss, o->prof, o->models, &lo, argc, argv, envp))
		return -1;
	struct session *ss = &st->ss;
	struct linux_task first;
	st->first_tid = linux_task_on(&ss->h, &first) ? -1 : first.tid;
	/* which counters can count each event: ask the firmware for each */
	for (int i = 0; i < o->nev; i++) {
		struct counted *c = &st->c[i];
		for (unsigned b = 0; b < 64 && !o->ev[i].software; b++)
			if (((ss->cmask >> b) & 1) && !claim(st, i, b)) {
				c->mask |= 1ull << b;
				release(st, i);
			}
		c->supported = o->ev[i].software || c->mask != 0;
	}
	/* units in list order; unsupported members are left out, as perf
	 * skips events that fail to open */
	st->nunits = 0;
	for (int i = 0; i < o->nev; i++) {
		int g = o->ev[i].group;
		if (g >= 0 && g != i)
			continue;  /* counted with its leader */
		struct unit *u = &st->u[st->nunits];
		u->n = 0;
		for (int j = i; j < o->nev; j++)
			if ((j == i || (g >= 0 && o->ev[j].group == g)) && st->c[j].supported)
				u->m[u->n++] = j;
		st->nunits += u->n > 0;
	}
	if (check_groups(st)) {
		session_close(ss);
		return -1;
	}
	st->mux = o->mux_interval ? o->mux_interval : o->prof->clock_hz / MUX_HZ;
	if (!st->mux)
		st->mux = 1;
	for (unsigned k = 0; k < ss->ncpus; k++)
		st->c0[k] = hart_cycles(ss->cpu[k]);
	struct linux_sw sw;
	if (o->delay_ms)
		fprintf(stderr, "Events disabled\n");
	else
		start_counting(st, 0, 0);

	int status = linux_run(&ss->h, &lo);

	uint64_t end = run_cycles(st);
	linux_sw_read(&ss->h, &sw);
	uint64_t wall = st->wall_end ? st->wall_end : wall_ns(st, &sw);
	/* -I: the interval the program's end cut short (perf prints it when
	 * the child's exit interrupts its wait) */
	if (intervals_left(st) && wall - st->wall_start > st->next_print - o->interval_ms * 1000000)
		print_interval(st, end, wall - st->wall_start, 0);
	totals(st, end, res->s);
	sched_out(st, end);
	if (o->no_inherit) {   /* perf's --no-inherit: the first thread alone */
		int k = 0;
		while (k < st->nthr && st->thr[k].tid != st->first_tid)
			k++;
		for (int i = 0; i < o->nev; i++)
			res->s[i].val = k < st->nthr ? st->thr[k].v[i] : 0;
		if (k < st->nthr)
			st->thr[0] = st->thr[k];
		st->nthr = k < st->nthr;
	}
	res->wall = st->counting ? wall - st->wall_start : 0;
	/* perf: the child's rusage, every thread's time on every hart */
	res->user = cycles_ns(st, ran_cycles(st));
	session_close(ss);
	return status;
}

/* Welford's running mean and variance (perf's update_stats). */
struct stats {
	double n, mean, m2;
};

static void update(struct stats *s, double x)
{
	s->n++;
	double d = x - s->mean;
	s->mean += d / s->n;
	s->m2 += d * (x - s->mean);
}

/* perf's stddev_stats: the standard deviation of the mean */
static double stddev(const struct stats *s)
{
	return s->n < 2 ? 0 : sqrt(s->m2 / (s->n - 1) / s->n);
}

int stat_run(struct stat_opts *o, const void *linux_opts, int argc, char **argv, char **envp)
{
	static struct stat_state st;
	static struct result res;
	static struct stat_view v;
	static struct stats ev[EVSPEC_MAX], wall;
	static uint64_t run_wall[MAX_RUNS];
	static struct stat_split split[STAT_MAX_THREADS];
	const struct linux_opts *lo = linux_opts;
	unsigned runs = o->repeat ? o->repeat : 1;
	int status = 0;
	memset(&v, 0, sizeof(v));
	memset(ev, 0, sizeof(ev));
	memset(&wall, 0, sizeof(wall));
	v.o = o;
	for (unsigned r = 0; r < runs; r++) {
		if (runs > 1 && o->verbose)
			fprintf(o->out, "[ perf stat: executing run #%u ... ]\n", r + 1);
		memset(&st, 0, sizeof(st));
		st.o = o;
		status = run_once(&st, linux_opts, argc, argv, envp, &res);
		if (status < 0)
			return -1;
		int cut = lo->stop && *lo->stop;
		if (cut && r)   /* as perf stat: the runs that completed */
			break;
		for (int i = 0; i < o->nev; i++) {
			v.r[i] = row(&st, i, &res.s[i]);
			update(&ev[i], (double)v.r[i].val);
		}
		if (o->per_thread || o->per_cpu) {
			v.split = split;
			v.nsplit = split_rows(&st, res.s, 0, split);
		}
		update(&wall, (double)res.wall);
		run_wall[r] = res.wall;
		v.user_ns = (double)res.user;
		v.runs = r + 1;
		if (o->verbose)
			stat_print_verbose(&v);
		if (cut)
			break;
	}
	for (int i = 0; i < o->nev; i++) {
		v.r[i].mean = ev[i].mean;
		v.r[i].noise = ev[i].mean ? 100.0 * stddev(&ev[i]) / ev[i].mean : 0;
	}
	v.wall_ns = wall.mean;
	v.wall_sd = stddev(&wall);
	v.run_wall = run_wall;
	v.argc = argc;
	v.argv = argv;
	/* -I prints intervals only (perf 6.1 without --summary) */
	if (!o->interval_ms)
		stat_print(&v);
	if (o->per_thread && st.thr_dropped)
		fprintf(stderr, "rvpmu stat: --per-thread lists the first %d threads only\n",
			STAT_MAX_THREADS);
	return status;
}
