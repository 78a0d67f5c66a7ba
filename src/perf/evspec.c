/* perf event specifications: perf's generic names (as Linux maps them to
 * SBI events: PERF_TYPE_HARDWARE n -> SBI code n+1, PERF_TYPE_HW_CACHE ->
 * type 1), raw rNNN (SBI raw v2), rvpmu's canonical events by name, and
 * groups with :u/:k modifiers. */
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
	{"bus-cycles", 0x7}, {"stalled-cycles-frontend", 0x8},
	{"stalled-cycles-backend", 0x9}, {"ref-cycles", 0xa},
	/* HW cache: 0x10000 | cache << 3 | op << 1 | result */
	{"L1-dcache-loads", 0x10000}, {"L1-dcache-load-misses", 0x10001},
	{"L1-dcache-stores", 0x10002}, {"L1-dcache-store-misses", 0x10003},
	{"L1-icache-loads", 0x10008}, {"L1-icache-load-misses", 0x10009},
	{"LLC-loads", 0x10010}, {"LLC-load-misses", 0x10011},
	{"LLC-stores", 0x10012}, {"LLC-store-misses", 0x10013},
	{"dTLB-loads", 0x10018}, {"dTLB-load-misses", 0x10019},
	{"dTLB-stores", 0x1001a}, {"dTLB-store-misses", 0x1001b},
	{"iTLB-loads", 0x10020}, {"iTLB-load-misses", 0x10021},
	{"branch-loads", 0x10028}, {"branch-load-misses", 0x10029},
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

/* :u, :k and, on a group (sr not NULL), perf's S: leader sampling */
static int modifiers(const char *m, int *eu, int *ek, int *sr, char *err, size_t errlen)
{
	int u = 0, k = 0;
	for (; *m; m++) {
		if (*m == 'u') u = 1;
		else if (*m == 'k') k = 1;
		else if (*m == 'S' && sr) *sr = 1;
		else {
			snprintf(err, errlen, *m == 'S' ? "modifier S is a group's ({a,b}:S: the leader "
				 "samples, the others are read with it)" :
				 "unknown event modifier '%c' (rvpmu knows u and k, and S on a group)", *m);
			return -1;
		}
	}
	/* perf: ":u" counts user only, ":k" kernel only, both = both */
	*eu = k && !u;
	*ek = u && !k;
	return 0;
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
		if (lookup(tok, prof, ev, err, errlen) ||
		    (colon && modifiers(colon + 1, &ev->exclude_user, &ev->exclude_kernel, NULL, err,
					errlen)))
			return -1;
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
				int eu, ek, sr = 0;
				if (modifiers(mods, &eu, &ek, &sr, err, errlen))
					return -1;
				for (int i = group_start; i < n; i++) {
					out[i].exclude_user |= eu, out[i].exclude_kernel |= ek;
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
	/* privilege filters are mhpmevent's xINH bits, which Sscofpmf adds;
	 * Linux refuses exclude_* without it (PERF_PMU_CAP_NO_EXCLUDE) */
	for (int i = 0; prof && !prof->pmu.sscofpmf && i < n; i++)
		if (out[i].exclude_user || out[i].exclude_kernel) {
			snprintf(err, errlen, "event '%s': the %s core has no Sscofpmf, so its counters "
				 "cannot count user or kernel mode alone (:u/:k modifiers)",
				 out[i].name, prof->name);
			return -1;
		}
	return n;
}

void evspec_list(FILE *f, const struct profile *p)
{
	fprintf(f, "\nList of pre-defined events (to be used in -e) for the %s core:\n\n", p->name);
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		uint32_t e = generic[i].idx;
		const struct profile_sbi_event *m = profile_sbi_lookup(p, e);
		fprintf(f, "  %-40s [%s event%s]\n", generic[i].name,
			e >> 16 ? "Hardware cache" : "Hardware", m ? "" : ", not supported by this core");
	}
	if (p->n_events)
		fprintf(f, "\n%s:\n", p->name);
	for (unsigned i = 0; i < p->n_events; i++)
		fprintf(f, "  %-40s\n       [%s]\n", p->events[i].name, p->events[i].desc);
	fprintf(f, "\n  rNNN                                     [Raw hardware event descriptor]\n\n");
}
