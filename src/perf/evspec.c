/* perf event specifications: perf's generic names (as Linux maps them to
 * SBI events: PERF_TYPE_HARDWARE n -> SBI code n+1, PERF_TYPE_HW_CACHE ->
 * type 1), its software events (counted by rvpmu's kernel), raw rNNN
 * (SBI raw v2), rvpmu's canonical events by name, and groups with :u/:k
 * modifiers. And perf list's sections for a profile. */
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rvpmu/perf.h"
#include "rvpmu/pmu.h"
#include "rvpmu/profile.h"

#define SBI_RAW_V2 0x30000u
#define MAX_HINTS 3  /* "did you mean" names */

static const struct { const char *name; uint32_t idx; } generic[] = {
	{"cycles", 0x1}, {"cpu-cycles", 0x1}, {"instructions", 0x2},
	{"cache-references", 0x3}, {"cache-misses", 0x4},
	{"branches", 0x5}, {"branch-instructions", 0x5}, {"branch-misses", 0x6},
	{"bus-cycles", 0x7}, {"stalled-cycles-frontend", 0x8}, {"idle-cycles-frontend", 0x8},
	{"stalled-cycles-backend", 0x9}, {"idle-cycles-backend", 0x9}, {"ref-cycles", 0xa},
	/* HW cache: 0x10000 | cache << 3 | op << 1 | result */
	{"L1-dcache-loads", 0x10000}, {"L1-dcache-load-misses", 0x10001},
	{"L1-dcache-stores", 0x10002}, {"L1-dcache-store-misses", 0x10003},
	{"L1-dcache-prefetches", 0x10004}, {"L1-dcache-prefetch-misses", 0x10005},
	{"L1-icache-loads", 0x10008}, {"L1-icache-load-misses", 0x10009},
	{"LLC-loads", 0x10010}, {"LLC-load-misses", 0x10011},
	{"LLC-stores", 0x10012}, {"LLC-store-misses", 0x10013},
	{"dTLB-loads", 0x10018}, {"dTLB-load-misses", 0x10019},
	{"dTLB-stores", 0x1001a}, {"dTLB-store-misses", 0x1001b},
	{"iTLB-loads", 0x10020}, {"iTLB-load-misses", 0x10021},
	{"branch-loads", 0x10028}, {"branch-load-misses", 0x10029},
};

/* perf's software events and its duration_time tool event (perf list's
 * spellings, aliases after the name). */
static const struct { const char *name, *alias; unsigned id; } software[] = {
	{"alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS},
	{"context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES},
	{"cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK},
	{"cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
	{"emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS},
	{"major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
	{"minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN},
	{"page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS},
	{"task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK},
	{"duration_time", NULL, EVSPEC_DURATION},
};

const char *const evspec_detailed[12] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses",
	"L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses",
	"iTLB-loads", "iTLB-load-misses", "L1-dcache-prefetches", "L1-dcache-prefetch-misses",
};

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[80];
	if (lb >= 80)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			if (up + 1 < best) best = up + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* Insert name into the sorted hint list if it is close enough and new. */
static void try_hint(const char *s, const char *name, const char **best, size_t *bd, int *n)
{
	size_t d = edit_distance(s, name);
	for (int k = 0; k < *n; k++)
		if (!strcasecmp(best[k], name))
			return;
	int at = *n < MAX_HINTS ? *n : MAX_HINTS - 1;
	if (d >= bd[at])
		return;
	while (at > 0 && d < bd[at - 1]) {
		bd[at] = bd[at - 1];
		best[at] = best[at - 1];
		at--;
	}
	bd[at] = d;
	best[at] = name;
	if (*n < MAX_HINTS)
		(*n)++;
}

/* Up to 3 known names closest to s (best first, table order on ties), for
 * "did you mean". */
static int closest(const char *s, const struct profile *p, const char **best)
{
	size_t bd[MAX_HINTS], limit = strlen(s) / 3 + 1;  /* a typo, not another word */
	int n = 0;
	for (int k = 0; k < MAX_HINTS; k++)
		bd[k] = limit;
#define TRY(name) try_hint(s, (name), best, bd, &n)
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		TRY(generic[i].name);
	for (size_t i = 0; i < sizeof(software) / sizeof(software[0]); i++)
		TRY(software[i].name);
	for (unsigned i = 0; p && i < p->n_events; i++)
		TRY(p->events[i].name);
	for (unsigned e = PMU_EV_CYCLES; p && p->pmu.encoding == PROFILE_ENC_SBI && e < PROF_EV_COUNT; e++)
		if (profile_event_name(e))
			TRY(profile_event_name(e));
#undef TRY
	return n;
}

static int lookup(const char *name, const struct profile *p, struct evspec *ev, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (!strcmp(name, generic[i].name)) {
			ev->event_idx = generic[i].idx;
			return 0;
		}
	for (size_t i = 0; i < sizeof(software) / sizeof(software[0]); i++)
		if (!strcmp(name, software[i].name) || (software[i].alias && !strcmp(name, software[i].alias))) {
			ev->software = 1;
			ev->sw_id = software[i].id;
			return 0;
		}
	/* the profile's vendor events: raw selectors */
	const struct profile_perf_event *pe = p ? profile_find_event(p, name) : NULL;
	if (pe) {
		ev->event_idx = SBI_RAW_V2;
		ev->event_data = pe->code;
		return 0;
	}
	/* canonical events by name, where the encoding can select one alone */
	int id = profile_event_id(name);
	if (id > 0 && p && p->pmu.encoding == PROFILE_ENC_SBI) {
		ev->event_idx = SBI_RAW_V2;
		ev->event_data = PROFILE_SEL_CANON | (uint64_t)id;
		return 0;
	}
	if (name[0] == 'r' && name[1] && strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1) &&
	    strlen(name + 1) <= 14) {
		ev->event_idx = SBI_RAW_V2;
		ev->event_data = strtoull(name + 1, NULL, 16);
		return 0;
	}
	const char *hint[MAX_HINTS];
	int nh = closest(name, p, hint);
	if (nh) {
		char list[256];
		size_t k = 0;
		for (int i = 0; i < nh && k < sizeof(list); i++)
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s'%s'", i ? (i + 1 < nh ? ", " : " or ") : "", hint[i]);
		snprintf(err, errlen, "unknown event '%s' (did you mean %s? 'rvpmu list' shows them all)",
			 name, list);
	} else
		snprintf(err, errlen, "unknown event '%s' ('rvpmu list' shows the known events)", name);
	return -1;
}

/* What an event's modifiers exclude. */
struct mods {
	int eu, ek, eh, eg;   /* exclude user, kernel, host, guest */
};

/* :u, :k, :G, :H and, on a group (sr not NULL), perf's S: leader sampling */
static int modifiers(const char *m, struct mods *o, int *sr, char *err, size_t errlen)
{
	int u = 0, k = 0, g = 0, h = 0;
	for (; *m; m++) {
		if (*m == 'u') u = 1;
		else if (*m == 'k') k = 1;
		else if (*m == 'G') g = 1;
		else if (*m == 'H') h = 1;
		else if (*m == 'S' && sr) *sr = 1;
		else {
			snprintf(err, errlen, *m == 'S' ? "modifier S is a group's ({a,b}:S: the leader "
				 "samples, the others are read with it)" :
				 "unknown event modifier '%c' (rvpmu knows u, k, G and H, and S on a group)",
				 *m);
			return -1;
		}
	}
	/* perf: ":u" counts user only, ":k" kernel only, both = both; ":G"
	 * guests only (exclude_host), ":H" the host only (exclude_guest),
	 * both = both. Without G or H both sides count, as later perf
	 * has it outside perf kvm (6.1's :u alone also set exclude_guest). */
	o->eu = k && !u;
	o->ek = u && !k;
	o->eh = g && !h;
	o->eg = h && !g;
	return 0;
}

unsigned evspec_modes(const struct evspec *e)
{
	unsigned user = 1u << PRIV_U | 1u << PRIV_VU;
	unsigned kernel = 1u << PRIV_S | 1u << PRIV_M | 1u << PRIV_VS;
	unsigned host = 1u << PRIV_U | 1u << PRIV_S | 1u << PRIV_M;
	unsigned guest = 1u << PRIV_VU | 1u << PRIV_VS;
	unsigned m = user | kernel;
	if (e->exclude_user) m &= ~user;
	if (e->exclude_kernel) m &= ~kernel;
	if (e->exclude_host) m &= ~host;
	if (e->exclude_guest) m &= ~guest;
	return m;
}

int evspec_parse(const char *list, const struct profile *prof, struct evspec *out, int n,
		 int max, char *err, size_t errlen)
{
	int group = -1, group_start = n;
	const char *p = list;
	if (!*p) {
		snprintf(err, errlen, "empty event list");
		return -1;
	}
	while (*p) {
		if (*p == '{') {
			if (group >= 0) {
				snprintf(err, errlen, "event syntax error: nested group in '%s'", list);
				return -1;
			}
			group = n, group_start = n;
			p++;
		}
		size_t len = strcspn(p, ",{}");
		char tok[64];
		if (!len || len >= sizeof(tok)) {
			snprintf(err, errlen, "event syntax error: '%s'", list);
			return -1;
		}
		memcpy(tok, p, len);
		tok[len] = 0;
		p += len;
		if (n >= max) {
			snprintf(err, errlen, "too many events (at most %d)", max);
			return -1;
		}
		struct evspec *ev = &out[n];
		memset(ev, 0, sizeof(*ev));
		snprintf(ev->name, sizeof(ev->name), "%s", tok);
		ev->group = group;
		char *colon = strchr(tok, ':');
		if (colon)
			*colon = 0;
		struct mods md = {0, 0, 0, 0};
		if (lookup(tok, prof, ev, err, errlen) ||
		    (colon && modifiers(colon + 1, &md, NULL, err, errlen)))
			return -1;
		ev->exclude_user = md.eu, ev->exclude_kernel = md.ek;
		ev->exclude_host = md.eh, ev->exclude_guest = md.eg;
		n++;
		if (*p == '}') {
			if (group < 0) {
				snprintf(err, errlen, "event syntax error: unmatched '}' in '%s'", list);
				return -1;
			}
			p++;
			if (*p == ':') {  /* group modifiers apply to every member */
				size_t ml = strcspn(p + 1, ",");
				char mods[16];
				if (ml >= sizeof(mods)) {
					snprintf(err, errlen, "event syntax error: '%s'", list);
					return -1;
				}
				memcpy(mods, p + 1, ml);
				mods[ml] = 0;
				struct mods md;
				int sr = 0;
				if (modifiers(mods, &md, &sr, err, errlen))
					return -1;
				for (int i = group_start; i < n; i++) {
					out[i].exclude_user |= md.eu, out[i].exclude_kernel |= md.ek;
					out[i].exclude_host |= md.eh, out[i].exclude_guest |= md.eg;
					out[i].sample_read = sr;
					/* named as perf names them: "cycles:u" */
					size_t nl = strlen(out[i].name);
					snprintf(out[i].name + nl, sizeof(out[i].name) - nl, "%s%s",
						 strchr(out[i].name, ':') ? "" : ":", mods);
				}
				p += 1 + ml;
			}
			group = -1;
		}
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errlen, "event syntax error: trailing ',' in '%s'", list);
				return -1;
			}
		} else if (*p) {   /* events and groups are separated by ',' */
			snprintf(err, errlen, "event syntax error: '%s'", list);
			return -1;
		}
	}
	if (group >= 0) {
		snprintf(err, errlen, "event syntax error: unterminated group in '%s'", list);
		return -1;
	}
	return evspec_check(out, n, prof, err, errlen) ? -1 : n;
}

int evspec_check(const struct evspec *ev, int n, const struct profile *p, char *err, size_t errlen)
{
	/* privilege filters are mhpmevent's xINH bits, which Sscofpmf adds;
	 * Linux refuses exclude_* without it (PERF_PMU_CAP_NO_EXCLUDE) */
	for (int i = 0; p && !p->pmu.sscofpmf && i < n; i++)
		if ((ev[i].exclude_user || ev[i].exclude_kernel || ev[i].exclude_host ||
		     ev[i].exclude_guest) && !ev[i].software) {
			snprintf(err, errlen, "event '%s': the %s core has no Sscofpmf, so its counters "
				 "cannot count some modes alone (:u/:k/:G/:H modifiers)",
				 ev[i].name, p->name);
			return -1;
		}
	return 0;
}

/* ---- perf list (Linux 6.1's print-events.c, pmu.c, metricgroup.c) */

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A section of "name [type]" lines, sorted as perf sorts them. */
struct lines {
	char *s[160];
	int n;
};

static void add(struct lines *l, const char *name, const char *alias, const char *glob)
{
	if (glob && fnmatch(glob, name, 0) && (!alias || fnmatch(glob, alias, 0)))
		return;
	if (l->n < (int)(sizeof(l->s) / sizeof(l->s[0])) &&
	    (l->s[l->n] = malloc(strlen(name) + (alias ? strlen(alias) : 0) + 5)))
		sprintf(l->s[l->n++], alias ? "%s OR %s" : "%s", name, alias);
}

static void put(FILE *f, struct lines *l, const char *type, int raw)
{
	qsort(l->s, (size_t)l->n, sizeof(l->s[0]), by_str);
	for (int i = 0; i < l->n; i++) {
		if (raw)   /* --raw-dump: the names alone (perf's name_only) */
			fprintf(f, "%.*s ", (int)strcspn(l->s[i], " "), l->s[i]);
		else
			fprintf(f, "  %-50s [%s]\n", l->s[i], type);
		free(l->s[i]);
	}
	l->n = 0;
}

/* Hardware (HW_CACHE when cache) events the core can count: perf lists
 * those it can open. */
static void hw_events(FILE *f, const struct profile *p, const char *glob, int cache, int raw)
{
	static const char *const alias_of[][2] = {
		{"cpu-cycles", "cycles"}, {"branch-instructions", "branches"},
		{"stalled-cycles-frontend", "idle-cycles-frontend"},
		{"stalled-cycles-backend", "idle-cycles-backend"},
	};
	static struct lines l;
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		const char *name = generic[i].name, *alias = NULL;
		int is_alias = 0;
		if (!(generic[i].idx >> 16) != !cache || !profile_sbi_lookup(p, generic[i].idx))
			continue;
		for (size_t a = 0; a < sizeof(alias_of) / sizeof(alias_of[0]); a++) {
			is_alias |= !strcmp(name, alias_of[a][1]);
			if (!strcmp(name, alias_of[a][0]))
				alias = alias_of[a][1];
		}
		if (!is_alias)
			add(&l, name, alias, glob);
	}
	put(f, &l, cache ? "Hardware cache event" : "Hardware event", raw);
}

static void sw_events(FILE *f, const char *glob, int raw)
{
	static struct lines l;
	size_t n = sizeof(software) / sizeof(software[0]);
	for (size_t i = 0; i + 1 < n; i++)
		add(&l, software[i].name, software[i].alias, glob);
	put(f, &l, "Software event", raw);
	add(&l, software[n - 1].name, NULL, glob);   /* duration_time */
	put(f, &l, "Tool event", raw);
}

/* perf's wordwrap: words from column start, a new line before one that
 * would reach max. */
static void wordwrap(FILE *f, const char *s, int start, int max)
{
	int column = start;
	while (*s) {
		int w = (int)strcspn(s, " \t");
		if (column + w >= max && column > start) {
			fprintf(f, "\n%*s", start, "");
			column = start;
		}
		column += fprintf(f, "%s%.*s", column > start ? " " : "", w, s);
		s += w;
		while (*s == ' ' || *s == '\t')
			s++;
	}
}

/* The profile's vendor events, as perf shows pmu-events aliases: the
 * name in lower case, the description under it. */
static void pmu_events(FILE *f, const struct profile *p, const char *glob, int flags)
{
	const char *cols = getenv("COLUMNS");
	int max = cols ? atoi(cols) : 78, shown = 0;
	const struct profile_perf_event *ev[PROFILE_MAX_EVENTS];
	char lower[PROFILE_MAX_EVENTS][64];
	int n = 0;
	for (unsigned i = 0; i < p->n_events; i++) {
		size_t k = 0;
		for (; p->events[i].name[k] && k < 63; k++)
			lower[n][k] = (char)tolower((unsigned char)p->events[i].name[k]);
		lower[n][k] = 0;
		if (!glob || !fnmatch(glob, lower[n], FNM_CASEFOLD))
			ev[n++] = &p->events[i];
	}
	for (int i = 0; i < n; i++)   /* by name, as perf sorts them */
		for (int j = i; j > 0 && strcmp(lower[j - 1], lower[j]) > 0; j--) {
			char t[64];
			const struct profile_perf_event *te = ev[j];
			memcpy(t, lower[j], 64), memcpy(lower[j], lower[j - 1], 64), memcpy(lower[j - 1], t, 64);
			ev[j] = ev[j - 1], ev[j - 1] = te;
		}
	for (int i = 0; i < n; i++) {
		if (flags & LIST_RAW) {
			fprintf(f, "%s ", lower[i]);
		} else if (flags & LIST_DESC) {
			if (!shown++)
				fputc('\n', f);
			fprintf(f, "  %-50s\n%*s", lower[i], 8, "[");
			wordwrap(f, ev[i]->desc, 8, max);
			fprintf(f, "]\n");
			if (flags & LIST_DETAILS)
				fprintf(f, "%*scpu/event=0x%llx/ \n", 8, "", (unsigned long long)ev[i]->code);
		} else {
			fprintf(f, "  %-50s [Kernel PMU event]\n", lower[i]);
		}
	}
}

/* Metrics (groups: by their groups, each with its metrics; else the
 * metrics alone), matching the glob by name or group. */
static void metric_list(FILE *f, const struct profile *p, const char *glob, int groups, int flags)
{
	static char grp[PROFILE_MAX_METRICS * 4][96];
	static struct lines l;
	int ng = 0;
	for (unsigned i = 0; groups && i < p->n_metrics; i++)
		for (const char *g = p->metrics[i].group; ; ) {
			size_t k = strcspn(g, ";");
			char name[96];
			snprintf(name, sizeof(name), "%.*s", (int)k, k ? g : "No_group");
			int seen = 0;
			for (int j = 0; j < ng; j++)
				seen |= !strcmp(grp[j], name);
			if (!seen && ng < (int)(sizeof(grp) / sizeof(grp[0])))
				snprintf(grp[ng++], sizeof(grp[0]), "%s", name);
			if (!g[k])
				break;
			g += k + 1;
		}
	qsort(grp, (size_t)ng, sizeof(grp[0]), (int (*)(const void *, const void *))strcmp);
	for (int gi = 0; gi < (groups ? ng : 1); gi++) {
		for (unsigned i = 0; i < p->n_metrics; i++) {
			const struct profile_metric *m = &p->metrics[i];
			if ((groups && !metric_matches(m, grp[gi])) ||
			    (glob && fnmatch(glob, m->name, FNM_CASEFOLD) &&
			     (groups ? fnmatch(glob, grp[gi], FNM_CASEFOLD) : 1)))
				continue;
			char *s = malloc(sizeof(*m) + 32);
			if (!s || l.n == (int)(sizeof(l.s) / sizeof(l.s[0]))) {
				free(s);
				continue;
			}
			if (flags & LIST_RAW)
				snprintf(s, sizeof(*m) + 32, "%s", m->name);
			else
				snprintf(s, sizeof(*m) + 32, (flags & LIST_DETAILS) ? "%s\n%*s%s]\n%*s%s]" : "%s\n%*s%s]",
					 m->name, 8, "[", m->desc, 8, "[", m->expr);
			l.s[l.n++] = s;
		}
		if (!l.n)
			continue;
		if (groups && !(flags & LIST_RAW))
			fprintf(f, "%s:\n", grp[gi]);
		else if (groups)
			fprintf(f, "%s ", grp[gi]);
		qsort(l.s, (size_t)l.n, sizeof(l.s[0]), by_str);
		for (int i = 0; i < l.n; i++) {
			if (flags & LIST_RAW)
				fprintf(f, "%s%s", i ? " " : "", l.s[i]);
			else
				fprintf(f, "  %s\n", l.s[i]);
			free(l.s[i]);
		}
		if (flags & LIST_RAW)
			fputc('\n', f);
		l.n = 0;
	}
}

void evspec_list(FILE *f, const struct profile *p, const char *what, int flags)
{
	static const char *const sections[] = {"hw", "hardware", "sw", "software", "cache", "hwcache",
		"pmu", "metric", "metrics", "metricgroup", "metricgroups", "tracepoint", "sdt"};
	int raw = flags & LIST_RAW;
	size_t s = 0;
	while (what && s < sizeof(sections) / sizeof(sections[0]) && strcmp(what, sections[s]))
		s++;
	if (what && s < sizeof(sections) / sizeof(sections[0])) {
		if (s < 2)
			hw_events(f, p, NULL, 0, raw);
		else if (s < 4)
			sw_events(f, NULL, raw);
		else if (s < 6)
			hw_events(f, p, NULL, 1, raw);
		else if (s == 6)
			pmu_events(f, p, NULL, flags);
		else if (s < 11 && p->n_metrics) {
			if (!raw)
				fprintf(f, s < 9 ? "\nMetrics:\n\n" : "\nMetric Groups:\n\n");
			metric_list(f, p, NULL, s >= 9, flags);
		}
		return;   /* rvpmu has no tracepoints or SDT markers */
	}
	/* a filter matches anywhere in the name, as perf's "*FILTER*" */
	char glob[256];
	if (what)
		snprintf(glob, sizeof(glob), "*%s*", what);
	const char *g = what ? glob : NULL;
	hw_events(f, p, g, 0, raw);
	sw_events(f, g, raw);
	hw_events(f, p, g, 1, raw);
	pmu_events(f, p, g, flags);
	if (!what && !raw)
		fprintf(f, "  %-50s [%s]\n", "rNNN", "Raw hardware event descriptor");
	int any = !what;
	for (unsigned i = 0; what && i < p->n_metrics; i++)
		any |= !fnmatch(glob, p->metrics[i].name, FNM_CASEFOLD) ||
		       !fnmatch(glob, p->metrics[i].group, FNM_CASEFOLD);
	if (p->n_metrics && any) {
		if (!raw)
			fprintf(f, "\nMetric Groups:\n\n");
		metric_list(f, p, g, 1, flags);
	}
}
