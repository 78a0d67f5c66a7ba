/* rvpmu stat: count events of a user-mode program the way Linux's
 * riscv_pmu_sbi driver and perf's core do. Each event gets a counter
 * through SBI PMU config_matching; when there are more events than the
 * counters can hold, events and groups take turns on the counters at a
 * fixed modelled-time tick (perf's multiplexing), each accumulating its
 * count, time enabled and time running, and the printout scales
 * count * enabled / running. Output follows perf stat's table, -x CSV and
 * -j JSON layouts (Linux 6.1, the perf Debian 12 ships). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

/* Linux rotates flexible events every perf_event_mux_interval_ms, by
 * default 1000/HZ ms: 4 ms with Debian's HZ=250. Here: modelled time. */
#define MUX_HZ 250

#define EVNAME_LEN 32   /* perf's column widths */
#define COUNTS_LEN 18
#define METRIC_LEN 38
#define UNIT_WIDTH 4

struct counted {
	int supported;
	uint64_t mask;          /* counters that can count it (probed) */
	int on;                 /* on a counter now */
	unsigned idx, csr;      /* SBI counter id and CSR while on */
	uint64_t since;         /* cycle it went on */
	uint64_t value;         /* raw count over the time it ran */
	uint64_t enabled, running;  /* modelled cycles */
};

/* What perf schedules as one: a group, or an event on its own. */
struct unit {
	int n;
	int m[EVSPEC_MAX];
};

/* What one thread counted (--per-thread, --no-inherit). */
#define STAT_MAX_THREADS 256
struct thread_counts {
	int pid, tid;
	char comm[16];
	uint64_t v[EVSPEC_MAX];
};

struct stat_state {
	struct session ss;
	/* per-task counting: each hart's counter values when its counts
	 * were last charged, what each thread and each hart counted */
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
	uint64_t interval, next, start, end;
	/* cycles of the busiest hart and of every hart: the time elapsed and
	 * the user time perf prints (one hart: end - start both) */
	uint64_t busiest, busy;
	unsigned runs;          /* the runs the printed counts are from */
};

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
	for (unsigned c = 0; c < st->ss.ncpus; c++)
		session_sbi_on(&st->ss, c, SBI_PMU_STOP, st->c[i].idx, 1, SBI_STOP_RESET, 0, 0, NULL);
}

/* What hart c counted for event i since the last charge goes to the
 * thread on it (perf's per-task counts); the value read is v. */
static void charge(struct stat_state *st, unsigned c, int i, uint64_t v, const struct linux_task *t)
{
	uint64_t d = v - st->last[c][i];
	st->last[c][i] = v;
	if (st->o->no_inherit && (!t || t->tid != st->first_tid))
		return;   /* -A --no-inherit: the first thread on each hart */
	st->cpu_v[c][i] += d;
	if (!t)
		return;
	int k = 0;
	while (k < st->nthr && st->thr[k].tid != t->tid)
		k++;
	if (k == st->nthr) {
		if (k == STAT_MAX_THREADS) {
			st->thr_dropped = 1;   /* --per-thread lists the first 256 */
			return;
		}
		st->nthr++;
		st->thr[k] = (struct thread_counts){ .pid = t->pid, .tid = t->tid };
	}
	snprintf(st->thr[k].comm, sizeof(st->thr[k].comm), "%s", t->comm);
	st->thr[k].v[i] += d;
}

/* A thread leaves hart h: what h counted is that thread's. */
static void switch_out(void *ctx, struct hart *h, const struct linux_task *t)
{
	struct stat_state *st = ctx;
	unsigned c = 0;
	while (c < st->ss.ncpus && st->ss.cpu[c] != h)
		c++;
	if (c == st->ss.ncpus)
		return;
	hart_sync_pmu(h);
	for (int i = 0; i < st->o->nev; i++)
		if (st->c[i].on) {
			uint64_t v = 0;
			hart_csr(h, PRIV_S, st->c[i].csr, HART_CSR_READ, 0, &v);
			charge(st, c, i, v, t);
		}
}

/* Bipartite matching of a unit's members onto free counters (Kuhn's
 * augmenting paths): owner[ctr] = member index or -1. */
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
		if (!augment(st, u, k, avail, owner, &seen))
			return 0;
	}
	return 1;
}

/* Stop, read and release every event on a counter. */
static void sched_out(struct stat_state *st, uint64_t now)
{
	struct session *ss = &st->ss;
	for (unsigned k = 0; k < ss->ncpus; k++) {
		struct linux_task t;
		int has = !linux_task_on(ss->cpu[k], &t);
		hart_sync_pmu(ss->cpu[k]);
		for (int i = 0; i < st->o->nev; i++) {
			struct counted *c = &st->c[i];
			if (!c->on)
				continue;
			uint64_t v = 0;
			session_sbi_on(ss, k, SBI_PMU_STOP, c->idx, 1, 0, 0, 0, NULL);
			hart_csr(ss->cpu[k], PRIV_S, c->csr, HART_CSR_READ, 0, &v);
			charge(st, k, i, v, has ? &t : NULL);
			c->value += v;
		}
	}
	for (int i = 0; i < st->o->nev; i++) {
		struct counted *c = &st->c[i];
		if (!c->on)
			continue;
		release(st, i);
		c->running += now - c->since;
		c->on = 0;
	}
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
			int i = u->m[owner[b]];
			if (claim(st, i, b)) {
				ok = 0;  /* the probe said it could: not expected */
				break;
			}
			for (unsigned k = 0; k < ss->ncpus; k++) {
				session_sbi_on(ss, k, SBI_PMU_START, st->c[i].idx, 1, SBI_START_SET_INIT_VALUE,
					       0, 0, NULL);
				st->last[k][i] = 0;
			}
			st->c[i].on = 1;
			st->c[i].since = now;
			used |= 1ull << b;
		}
		if (!ok) {
			for (int j = 0; j < u->n; j++)  /* all or nothing */
				if (st->c[u->m[j]].on) {
					release(st, u->m[j]);
					st->c[u->m[j]].on = 0;
				}
			return 0;
		}
	}
	return 1;
}

/* The multiplexing timer: at each tick, everything comes off, the first
 * unit moves to the end of the list (perf's rotate_ctx) and the list is
 * scheduled again. Between ticks the hart runs in shrinking steps so that
 * it stops within a few cycles after the tick. */
static uint64_t mux_tick(void *ctx, struct hart *h)
{
	struct stat_state *st = ctx;
	if (!st->rotate)
		return 0;
	uint64_t now = hart_cycles(h);
	if (now >= st->next) {
		sched_out(st, now);
		int first = st->order[0];
		memmove(st->order, st->order + 1, (size_t)(st->nunits - 1) * sizeof(st->order[0]));
		st->order[st->nunits - 1] = first;
		sched_in(st, now);
		while (st->next <= now)
			st->next += st->interval;
	}
	return (st->next - now) / 8 + 1;
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
 * the run, as perf's open of the group would fail. */
static int check_groups(struct stat_state *st)
{
	const struct stat_opts *o = st->o;
	for (int k = 0; k < st->nunits; k++) {
		const struct unit *u = &st->u[k];
		int owner[64];
		if (o->ev[u->m[0]].group < 0 || match(st, u, st->ss.cmask, owner))
			continue;
		char name[1024], list[512], b[24];
		size_t n = 0, l = 0;
		uint64_t any = 0;
		int g = o->ev[u->m[0]].group;
		for (int i = 0; i < o->nev && n < sizeof(name); i++)
			if (o->ev[i].group == g)
				n += (size_t)snprintf(name + n, sizeof(name) - n, "%s%s", n ? "," : "{", o->ev[i].name);
		if (n < sizeof(name))
			snprintf(name + n, sizeof(name) - n, "}");
		for (int j = 0; j < u->n; j++)
			any |= st->c[u->m[j]].mask;
		for (unsigned i = 0; i < 64 && l < sizeof(list); i++)
			if ((any >> i) & 1)
				l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s", l ? ", " : "",
						      counter_name(i, b, sizeof(b)));
		int cnt = __builtin_popcountll(any);
		fprintf(stderr, "rvpmu: stat: group %s does not fit on the %s core's counters at once: "
				"its %d events %s %d counter%s (%s)\n",
			name, o->prof->name, u->n, cnt < u->n ? "can use only" : "cannot share out the",
			cnt, cnt == 1 ? "" : "s", list);
		return -1;
	}
	return 0;
}

/* One run. Returns the program's exit status, or -1 (message printed). */
static int run_once(struct stat_state *st, const struct linux_opts *lo_in, int argc, char **argv,
		    char **envp)
{
	const struct stat_opts *o = st->o;
	struct linux_opts lo = *lo_in;
	lo.tick = mux_tick;
	lo.tick_ctx = st;
	lo.switch_out = switch_out;
	lo.task_ctx = st;
	if (session_open(&st->ss, o->prof, o->models, &lo, argc, argv, envp))
		return -1;
	struct session *ss = &st->ss;
	struct linux_task first;
	st->first_tid = linux_task_on(&ss->h, &first) ? -1 : first.tid;
	/* which counters can count each event: ask the firmware for each */
	for (int i = 0; i < o->nev; i++) {
		struct counted *c = &st->c[i];
		for (unsigned b = 0; b < 64; b++)
			if (((ss->cmask >> b) & 1) && !claim(st, i, b)) {
				c->mask |= 1ull << b;
				release(st, i);
			}
		c->supported = c->mask != 0;
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
		if (u->n) {
			st->order[st->nunits] = st->nunits;
			st->nunits++;
		}
	}
	if (check_groups(st)) {
		session_close(ss);
		return -1;
	}
	st->interval = o->mux_interval ? o->mux_interval : o->prof->clock_hz / MUX_HZ;
	if (!st->interval)
		st->interval = 1;
	st->start = hart_cycles(&ss->h);
	st->next = st->start + st->interval;
	st->rotate = !sched_in(st, st->start);

	int status = linux_run(&ss->h, &lo);

	st->end = hart_cycles(&ss->h);
	sched_out(st, st->end);
	for (unsigned k = 0; k < ss->ncpus; k++) {
		uint64_t c = hart_cycles(ss->cpu[k]) - (k ? 0 : st->start);
		st->busy += c;
		if (c > st->busiest)
			st->busiest = c;
	}
	for (int i = 0; i < o->nev; i++)
		if (st->c[i].supported)
			st->c[i].enabled = st->end - st->start;
	if (o->no_inherit) {   /* perf's --no-inherit: the first thread alone */
		int k = 0;
		while (k < st->nthr && st->thr[k].tid != st->first_tid)
			k++;
		for (int i = 0; i < o->nev; i++)
			st->c[i].value = k < st->nthr ? st->thr[k].v[i] : 0;
		if (k < st->nthr)
			st->thr[0] = st->thr[k];
		st->nthr = k < st->nthr;
	}
	session_close(ss);
	return status;
}

/* ---- printing, as perf's stat-display.c and stat-shadow.c ---- */

struct row {
	int ok;                 /* counted for some time */
	double val;             /* scaled count */
	uint64_t run, ena;      /* cycles */
};

struct metric {
	const char *fmt, *unit; /* either NULL: an empty metric column */
	double v;
};

/* What one row of the printout counts: the whole run, a thread
 * (--per-thread) or a hart (-A); v[i] is event i's raw count. */
struct view {
	const uint64_t *v;
	const char *thread;     /* comm, or NULL */
	int id;                 /* the thread's tid or the hart, -1: totals */
};

static struct row row_of(const struct stat_state *st, const struct view *w, int i)
{
	const struct counted *c = &st->c[i];
	struct row r = {.run = c->running, .ena = c->enabled};
	r.ok = c->supported && r.run && r.ena;
	if (r.ok) {
		/* perf_counts_values__scale: (u64)(val * ena / run); a thread
		 * or hart shares its event's time on the counters */
		double v = (double)w->v[i];
		r.val = r.run < r.ena ? (double)(uint64_t)(v * (double)r.ena / (double)r.run) : v;
	}
	return r;
}

/* perf's runtime_stat for the shadow metrics: the mean of the counted
 * events of one generic kind with the same :u/:k context. */
static int stat_of(const struct stat_state *st, const struct view *w, int i, uint32_t idx,
		   double *avg)
{
	const struct evspec *e = &st->o->ev[i];
	double sum = 0;
	int n = 0;
	for (int j = 0; j < st->o->nev; j++) {
		const struct evspec *f = &st->o->ev[j];
		struct row r = row_of(st, w, j);
		if (f->event_idx == idx && r.ok && f->exclude_user == e->exclude_user &&
		    f->exclude_kernel == e->exclude_kernel)
			sum += r.val, n++;
	}
	*avg = n ? sum / n : 0;
	return n;
}

/* The metrics perf 6.1 prints for the generic events; returns how many
 * (a second one goes on its own line). */
static int metrics(const struct stat_state *st, const struct view *w, int i, double val,
		   struct metric *m)
{
	static const struct { uint32_t idx, base; const char *fmt, *unit; } ratio[] = {
		{0x6, 0x5, "%7.2f%%", "of all branches"},
		{0x4, 0x3, "%8.3f %%", "of all cache refs"},
		{0x10001, 0x10000, "%7.2f%%", "of all L1-dcache accesses"},
		{0x10009, 0x10008, "%7.2f%%", "of all L1-icache accesses"},
		{0x10011, 0x10010, "%7.2f%%", "of all LL-cache accesses"},
		{0x10019, 0x10018, "%7.2f%%", "of all dTLB cache accesses"},
		{0x10021, 0x10020, "%7.2f%%", "of all iTLB cache accesses"},
	};
	uint32_t idx = st->o->ev[i].event_idx;
	double total, t2;
	m[0] = (struct metric){NULL, NULL, 0};
	if (idx == 0x2) {
		stat_of(st, w, i, 0x1, &total);
		m[0] = total ? (struct metric){"%7.2f ", "insn per cycle", val / total}
			     : (struct metric){NULL, "insn per cycle", 0};
		stat_of(st, w, i, 0x8, &total);
		stat_of(st, w, i, 0x9, &t2);
		if (t2 > total)
			total = t2;
		if (total && val) {
			m[1] = (struct metric){"%7.2f ", "stalled cycles per insn", total / val};
			return 2;
		}
		return 1;
	}
	if (idx == 0x1) {  /* GHz needs task-clock, which rvpmu has not */
		m[0] = (struct metric){NULL, "Ghz", 0};
		return 1;
	}
	if (idx == 0x8 || idx == 0x9) {
		stat_of(st, w, i, 0x1, &total);
		m[0] = (struct metric){"%7.2f%%", idx == 0x8 ? "frontend cycles idle" : "backend cycles idle",
				       total ? val / total * 100.0 : 0};
		return 1;
	}
	for (size_t k = 0; k < sizeof(ratio) / sizeof(ratio[0]); k++)
		if (ratio[k].idx == idx) {
			if (stat_of(st, w, i, ratio[k].base, &total))
				m[0] = (struct metric){ratio[k].fmt, ratio[k].unit, total ? val / total * 100.0 : 0};
			else
				m[0] = (struct metric){NULL, ratio[k].unit, 0};
			return 1;
		}
	return 1;
}

static uint64_t cycles_ns(const struct stat_state *st, uint64_t cycles)
{
	return (uint64_t)((unsigned __int128)cycles * 1000000000u / st->o->prof->clock_hz);
}

/* perf's CSV and JSON percentage is integer arithmetic on u64 */
static double pcnt_int(const struct row *r)
{
	return r->run != r->ena ? (double)(100 * r->run / r->ena) : 100.0;
}

static void print_count(FILE *f, double v)
{
	/* %'18.0f in a locale with ',' thousands grouping */
	char digits[40], out[56];
	int n = snprintf(digits, sizeof(digits), "%.0f", v), k = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = 0;
	fprintf(f, "%*s ", COUNTS_LEN, out);
}

static void metric_std(FILE *f, const struct metric *m)
{
	if (!m->fmt || !m->unit) {
		fprintf(f, "%-*s", METRIC_LEN, "");
		return;
	}
	int n = fprintf(f, " # ");
	n += fprintf(f, m->fmt, m->v);
	fprintf(f, " %-*s", METRIC_LEN - n - 1, m->unit);
}

static void metric_csv(FILE *f, const char *x, const struct metric *m)
{
	if (!m->fmt || !m->unit) {
		fprintf(f, "%s%s", x, x);
		return;
	}
	/* the number alone, without padding or a % sign */
	char buf[64], *v = buf, *end;
	snprintf(buf, sizeof(buf), m->fmt, m->v);
	while (*v == ' ')
		v++;
	for (end = v; (*end >= '0' && *end <= '9') || *end == '.'; end++)
		;
	*end = 0;
	fprintf(f, "%s%s%s%s", x, v, x, m->unit);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The thread or hart a row is about, as perf's aggr_printout. */
static void print_who(const struct stat_state *st, const struct view *w)
{
	FILE *f = st->o->out;
	const char *x = st->o->csv_sep;
	if (w->id < 0)
		return;
	if (st->o->json && w->thread)
		fprintf(f, "\"thread\" : \"%s-%d\", ", w->thread, w->id);
	else if (st->o->json)
		fprintf(f, "\"cpu\" : \"%d\", ", w->id);
	else if (w->thread)
		fprintf(f, "%*s-%*d%s", x ? 0 : 16, w->thread, x ? 0 : -8, w->id, x ? x : " ");
	else
		fprintf(f, "CPU%*d%s", x ? 0 : -7, w->id, x ? x : " ");
}

static void print_row(const struct stat_state *st, const struct view *w, int i)
{
	const struct stat_opts *o = st->o;
	FILE *f = o->out;
	const char *x = o->csv_sep, *name = o->ev[i].name;
	const char *bad = st->c[i].supported ? "<not counted>" : "<not supported>";
	struct row r = row_of(st, w, i);
	struct metric m[2];
	int nm = r.ok ? metrics(st, w, i, r.val, m) : 0;
	if (!r.ok)  /* perf prints an empty metric for an uncounted event */
		m[0] = (struct metric){NULL, "", 0}, nm = 1;
	if (o->json) {
		fputc('{', f);
		print_who(st, w);
		if (r.ok)
			fprintf(f, "\"counter-value\" : \"%f\", ", r.val);
		else
			fprintf(f, "\"counter-value\" : \"%s\", ", bad);
		fprintf(f, "\"unit\" : \"\", \"event\" : ");
		json_str(f, name);
		fprintf(f, ", ");
		if (st->runs > 1)  /* identical runs: no variance */
			fprintf(f, "\"variance\" : %.2f, ", 0.0);
		fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)cycles_ns(st, r.run), pcnt_int(&r));
		for (int k = 0; k < nm; k++) {
			if (k)
				fprintf(f, "\n{");
			/* perf prints a missing unit with printf's "(null)" */
			fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}", m[k].v,
				m[k].unit ? m[k].unit : "(null)");
		}
		fputc('\n', f);
	} else if (x) {
		print_who(st, w);
		if (r.ok)
			fprintf(f, "%.0f%s", r.val, x);
		else
			fprintf(f, "%s%s", bad, x);
		fprintf(f, "%s%s", x, name);  /* empty unit */
		if (st->runs > 1)
			fprintf(f, "%s%.2f%%", x, 0.0);
		fprintf(f, "%s%llu%s%.2f", x, (unsigned long long)cycles_ns(st, r.run), x, pcnt_int(&r));
		for (int k = 0; k < nm; k++) {
			if (k)
				fprintf(f, "\n%s%s%s", x, x, x);
			metric_csv(f, x, &m[k]);
		}
		fputc('\n', f);
	} else {
		print_who(st, w);
		if (r.ok)
			print_count(f, r.val);
		else
			fprintf(f, "%*s ", COUNTS_LEN, bad);
		fprintf(f, "%-*s %-*s", UNIT_WIDTH, "", EVNAME_LEN, name);
		for (int k = 0; k < nm; k++) {
			if (k)
				fprintf(f, "\n%49s", "");
			metric_std(f, &m[k]);
		}
		if (r.run != r.ena)
			fprintf(f, "  (%.2f%%)", 100.0 * (double)r.run / (double)r.ena);
		fputc('\n', f);
	}
}

/* perf's --per-thread order: an event's threads by count, highest first */
static int by_count_event;
static int by_count(const void *a, const void *b)
{
	const struct thread_counts *x = a, *y = b;
	uint64_t u = x->v[by_count_event], v = y->v[by_count_event];
	return u != v ? (u < v ? 1 : -1) : x->tid - y->tid;
}

/* --per-thread and -A: for each event, a row per thread or hart. */
static void print_split(struct stat_state *st)
{
	const struct stat_opts *o = st->o;
	for (int i = 0; i < o->nev; i++) {
		if (o->per_cpu) {
			for (unsigned c = 0; c < st->ss.ncpus; c++)
				print_row(st, &(struct view){st->cpu_v[c], NULL, (int)c}, i);
			continue;
		}
		by_count_event = i;
		qsort(st->thr, (size_t)st->nthr, sizeof(st->thr[0]), by_count);
		for (int k = 0; k < st->nthr; k++)
			print_row(st, &(struct view){st->thr[k].v, st->thr[k].comm, st->thr[k].tid}, i);
	}
	if (o->per_thread && st->thr_dropped)
		fprintf(stderr, "rvpmu: stat: --per-thread lists the first %d threads only\n",
			STAT_MAX_THREADS);
}

static void print_all(struct stat_state *st, int argc, char **argv)
{
	const struct stat_opts *o = st->o;
	FILE *f = o->out;
	int table = !o->json && !o->csv_sep;
	if (table) {
		fprintf(f, "\n Performance counter stats for '");
		for (int i = 0; i < argc; i++)
			fprintf(f, "%s%s", i ? " " : "", argv[i]);
		fprintf(f, "'");
		if (st->runs > 1)
			fprintf(f, " (%u runs)", st->runs);
		fprintf(f, ":\n\n");
	}
	if (o->per_thread || o->per_cpu) {
		print_split(st);
	} else {
		uint64_t v[EVSPEC_MAX];
		for (int i = 0; i < o->nev; i++)
			v[i] = st->c[i].value;
		for (int i = 0; i < o->nev; i++)
			print_row(st, &(struct view){v, NULL, -1}, i);
	}
	if (!table)
		return;
	double secs = (double)st->busiest / (double)o->prof->clock_hz;
	double user = (double)st->busy / (double)o->prof->clock_hz;
	char note[128];
	snprintf(note, sizeof(note), " (modelled: %s at %.2f GHz%s)", o->prof->name,
		 (double)o->prof->clock_hz / 1e9, o->models ? "" : ", one cycle per instruction");
	fprintf(f, "\n");
	if (st->runs > 1) {
		fprintf(f, " %17.9f +- %.9f seconds time elapsed%s", secs, 0.0, note);
	} else {
		/* the user-mode kernel takes no modelled time: all of it is user */
		fprintf(f, " %17.9f seconds time elapsed%s\n\n", secs, note);
		fprintf(f, " %17.9f seconds user\n", user);
		fprintf(f, " %17.9f seconds sys\n", 0.0);
	}
	fprintf(f, "\n\n");
}

int stat_run(struct stat_opts *o, const void *linux_opts, int argc, char **argv, char **envp)
{
	static struct stat_state st, first;
	const struct linux_opts *lo = linux_opts;
	int status = 0;
	for (unsigned r = 0; r < (o->repeat ? o->repeat : 1); r++) {
		memset(&st, 0, sizeof(st));
		st.o = o;
		status = run_once(&st, linux_opts, argc, argv, envp);
		if (status < 0)
			return -1;
		if (r == 0) {
			memcpy(first.c, st.c, sizeof(st.c));
			first.start = st.start, first.end = st.end;
			first.busiest = st.busiest, first.busy = st.busy;
			first.o = o;
			memcpy(first.thr, st.thr, sizeof(st.thr));
			memcpy(first.cpu_v, st.cpu_v, sizeof(st.cpu_v));
			first.nthr = st.nthr;
			first.thr_dropped = st.thr_dropped;
			first.ss.ncpus = st.ss.ncpus;
		}
		if (lo->stop && *lo->stop) {
			/* interrupted: as perf stat, the counts so far (of a first
			 * run cut short), else those of the runs that completed */
			first.runs = r ? r : 1;
			break;
		}
		first.runs = r + 1;
		if (r && (st.end - st.start != first.end - first.start ||
			  memcmp(first.c, st.c, sizeof(st.c)))) {
			/* the model is deterministic: a difference is a bug */
			fprintf(stderr, "rvpmu: stat: run %u differs from run 1\n", r + 1);
			return -1;
		}
	}
	print_all(&first, argc, argv);
	return status;
}
