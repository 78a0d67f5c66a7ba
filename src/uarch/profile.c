/* Core profile loader: profiles/NAME.json -> struct profile, with every
 * key checked (type, range, consistency). Keys are documented in
 * docs/profiles.md; an error names the file, the key path and what was
 * expected. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <jansson.h>
#include "rvpmu/profile.h"

#define MAX_FILE (1 << 20)

#include "profile_json.h"

/* ---- sections */

static int parse_ids(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "mvendorid", "marchid", "mimpid", NULL };
	char kp[KP];
	json_t *o;
	if (member(c, top, "", "ids", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys))
		return -1;
	/* mvendorid is 32 bits on RV64 too (priv spec, "Machine Vendor ID") */
	return get_u64(c, o, kp, "mvendorid", true, 0, UINT32_MAX, 0, &c->p->mvendorid) ||
	       get_u64(c, o, kp, "marchid", true, 0, UINT64_MAX, 0, &c->p->marchid) ||
	       get_u64(c, o, kp, "mimpid", true, 0, UINT64_MAX, 0, &c->p->mimpid) ? -1 : 0;
}

static int parse_classes(struct pc *c, json_t *arr, const char *path)
{
	static const char *const keys[] = { "class", "name", "bits", NULL };
	struct profile *p = c->p;
	size_t i;
	json_t *cl;
	if (!json_is_array(arr) || !json_array_size(arr))
		return fail(c, path, "expected a non-empty array of event classes");
	if (json_array_size(arr) > PROFILE_MAX_CLASSES)
		return fail(c, path, "expected at most %d classes", PROFILE_MAX_CLASSES);
	json_array_foreach(arr, i, cl) {
		char cp[KP], kp[KP];
		struct profile_class *k = &p->classes[i];
		json_t *bits;
		const char *bk;
		json_t *names;
		index_path(cp, path, i);
		if (need_object(c, cl, cp) || only_keys(c, cl, cp, keys) ||
		    get_uint(c, cl, cp, "class", true, 0, 255, 0, &k->id) ||
		    get_str(c, cl, cp, "name", true, k->name, sizeof k->name) ||
		    member(c, cl, cp, "bits", true, &bits, kp) || need_object(c, bits, kp))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (p->classes[j].id == k->id) {
				join(kp, cp, "class");
				return fail(c, kp, "duplicate class %u (also %s[%zu])", k->id, path, j);
			}
		if (!json_object_size(bits))
			return fail(c, kp, "expected at least one mask bit");
		pmu_evset seen = 0;
		json_object_foreach(bits, bk, names) {
			char bp[KP], *end;
			unsigned long b = strtoul(bk, &end, 10);
			size_t n;
			json_t *nm;
			join(bp, kp, bk);
			if (!(*bk >= '0' && *bk <= '9') || *end || b < 8 || b > 55)
				return fail(c, bp, "expected a mask bit number 8..55 as the key");
			if (!json_is_array(names) || !json_array_size(names))
				return fail(c, bp, "expected a non-empty array of canonical event names");
			json_array_foreach(names, n, nm) {
				char np[KP];
				index_path(np, bp, n);
				if (!json_is_string(nm))
					return fail(c, np, "expected a canonical event name, got %s", type_name(nm));
				int e = profile_event_id(json_string_value(nm));
				if (e < 0)
					return fail(c, np, "expected a canonical event name (docs/profiles.md), got \"%s\"",
						    json_string_value(nm));
				/* disjoint bits keep "sum of the set" equal to "any selected event" */
				if (seen & PROF_EV_BIT(e))
					return fail(c, np, "event \"%s\" is already selected by another bit of this class",
						    json_string_value(nm));
				seen |= PROF_EV_BIT(e);
				k->bit_events[b - 8] |= PROF_EV_BIT(e);
			}
		}
	}
	p->n_classes = (unsigned)json_array_size(arr);
	return 0;
}

static int parse_pmu(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "hpm_counters", "hpm_width", "s_mode", "u_mode",
		"extensions", "skid", "selector_encoding", "classes", NULL };
	static const char *const ext_keys[] = { "sscofpmf", "smcntrpmf", "smcdeleg", "smctr", "sstc", "h", "aia", NULL };
	static const char *const enc[] = { "sbi", "sifive", NULL };
	struct profile *p = c->p;
	char kp[KP], ep[KP], cp[KP];
	json_t *o, *ext, *cls;
	int e;
	if (member(c, top, "", "pmu", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    get_uint(c, o, kp, "hpm_counters", true, 0, 29, 0, &p->pmu.n_hpm) ||
	    get_uint(c, o, kp, "hpm_width", true, 1, 64, 0, &p->pmu.hpm_width) ||
	    get_bool(c, o, kp, "s_mode", true, false, &p->pmu.has_s) ||
	    get_bool(c, o, kp, "u_mode", true, false, &p->pmu.has_u) ||
	    get_uint(c, o, kp, "skid", true, 0, 4096, 0, &p->pmu.skid) ||
	    get_enum(c, o, kp, "selector_encoding", true, enc, 0, &e) ||
	    member(c, o, kp, "extensions", true, &ext, ep) || need_object(c, ext, ep) ||
	    only_keys(c, ext, ep, ext_keys) ||
	    get_bool(c, ext, ep, "sscofpmf", true, false, &p->pmu.sscofpmf) ||
	    get_bool(c, ext, ep, "smcntrpmf", true, false, &p->pmu.smcntrpmf) ||
	    get_bool(c, ext, ep, "smcdeleg", true, false, &p->pmu.smcdeleg) ||
	    get_bool(c, ext, ep, "smctr", false, false, &p->pmu.smctr) ||
	    get_bool(c, ext, ep, "sstc", false, false, &p->pmu.sstc) ||
	    get_bool(c, ext, ep, "h", false, false, &p->pmu.h) ||
	    get_bool(c, ext, ep, "aia", false, false, &p->pmu.aia) ||
	    member(c, o, kp, "classes", false, &cls, cp))
		return -1;
	p->pmu.encoding = e == 1 ? PROFILE_ENC_SIFIVE : PROFILE_ENC_SBI;
	if (p->pmu.has_s && !p->pmu.has_u) {
		join(cp, kp, "s_mode");
		return fail(c, cp, "S mode requires U mode (u_mode: true)");
	}
	if ((p->pmu.smcdeleg || p->pmu.sscofpmf) && !p->pmu.has_s) {
		join(cp, ep, p->pmu.smcdeleg ? "smcdeleg" : "sscofpmf");
		return fail(c, cp, "%s adds S-level CSRs: it requires S mode (s_mode: true)",
			    p->pmu.smcdeleg ? "Smcdeleg/Ssccfg" : "Sscofpmf");
	}
	if (p->pmu.aia && !p->pmu.has_s) {
		join(cp, ep, "aia");
		return fail(c, cp, "Smaia/Ssaia adds S-level CSRs: it requires S mode (s_mode: true)");
	}
	if (p->pmu.encoding == PROFILE_ENC_SIFIVE) {
		if (!cls)
			return fail(c, cp, "missing required key (selector_encoding \"sifive\" needs classes)");
		return parse_classes(c, cls, cp);
	}
	if (cls)
		return fail(c, cp, "only a \"sifive\" selector_encoding has classes");
	return 0;
}

/* counters that exist: mcycle, minstret, mhpmcounter3..(2+n_hpm) */
static uint32_t impl_counters(const struct profile *p)
{
	uint32_t hpm = p->pmu.n_hpm ? (uint32_t)(((UINT64_C(1) << p->pmu.n_hpm) - 1) << 3) : 0;
	return 0x5 | hpm;
}

static int check_counters(struct pc *c, const char *kp, uint32_t m, uint32_t allowed)
{
	if (!m)
		return fail(c, kp, "expected a non-empty counter mask");
	if (m & ~allowed)
		return fail(c, kp, "0x%x names counters this profile cannot use here (allowed 0x%x)",
			    m, allowed);
	return 0;
}

/* arr at kp is an array of at most max entries (what they are) */
static int array_upto(struct pc *c, json_t *arr, const char *kp, int max, const char *what)
{
	if (!json_is_array(arr))
		return fail(c, kp, "expected an array, got %s", type_name(arr));
	if (json_array_size(arr) > (size_t)max)
		return fail(c, kp, "expected at most %d %s", max, what);
	return 0;
}

/* SBI v3.0 PMU, "Event Identification"; OpenSBI fdt_pmu.c rules for the
 * riscv,event-to-mhpmcounters rows the map becomes. */
static int parse_sbi(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "event_idx", "selector", "counters", "comment", NULL };
	struct profile *p = c->p;
	char kp[KP];
	json_t *arr, *e;
	size_t i;
	if (member(c, top, "", "sbi_events", true, &arr, kp))
		return -1;
	if (array_upto(c, arr, kp, PROFILE_MAX_SBI, "entries"))
		return -1;
	json_array_foreach(arr, i, e) {
		struct profile_sbi_event *s = &p->sbi[i];
		char ep[KP], fp[KP], cm[64];
		uint64_t idx, sel, cnt;
		json_t *selv;
		index_path(ep, kp, i);
		if (need_object(c, e, ep) || only_keys(c, e, ep, keys) ||
		    get_u64(c, e, ep, "event_idx", true, 1, 0xfffff, 0, &idx) ||
		    get_u64(c, e, ep, "counters", true, 0, UINT32_MAX, 0, &cnt) ||
		    get_str(c, e, ep, "comment", false, cm, sizeof cm) ||
		    member(c, e, ep, "selector", false, &selv, fp))
			return -1;
		s->event_idx = (uint32_t)idx;
		s->counters = (uint32_t)cnt;
		unsigned type = idx >> 16, code = idx & 0xffff;
		join(fp, ep, "event_idx");
		if (!(type == 0 && code >= 1 && code <= 10) &&
		    !(type == 1 && (code >> 3) <= 6 && ((code >> 1) & 3) <= 2))
			return fail(c, fp, "expected an SBI hardware general (0x1..0xa) or cache (0x1xxxx) event_idx, got 0x%llx",
				    (unsigned long long)idx);
		for (size_t j = 0; j < i; j++)
			if (p->sbi[j].event_idx == s->event_idx)
				return fail(c, fp, "duplicate event_idx 0x%x (also %s[%zu])", s->event_idx, kp, j);
		/* fixed counters count only their own event */
		uint32_t allowed = impl_counters(p) & ~(idx == 1 ? 0 : 1u) & ~(idx == 2 ? 0 : 4u);
		join(fp, ep, "counters");
		if (check_counters(c, fp, s->counters, allowed))
			return -1;
		join(fp, ep, "selector");
		if (!(s->counters & ~5u)) {
			if (selv)
				return fail(c, fp, "only an event mapped to mhpmcounters takes a selector");
			s->selector = 0;
			continue;
		}
		if (!selv)
			return fail(c, fp, "missing required key (counters name mhpmcounters)");
		if (to_u64(c, selv, fp, 1, PMU_SELECTOR_MASK, &sel))
			return -1;
		s->selector = sel;
		pmu_evset set = profile_decode_set(p, sel);
		if (!set)
			return fail(c, fp, "0x%llx selects no event of this profile's encoding",
				    (unsigned long long)sel);
		if (p->pmu.encoding == PROFILE_ENC_SBI && sel != idx)
			return fail(c, fp, "expected the event_idx itself (0x%llx) in the \"sbi\" encoding",
				    (unsigned long long)idx);
		if ((idx == 1 && set != PROF_EV_BIT(PMU_EV_CYCLES)) ||
		    (idx == 2 && set != PROF_EV_BIT(PMU_EV_INSTRET)))
			return fail(c, fp, "0x%llx does not count exactly %s", (unsigned long long)sel,
				    idx == 1 ? "cycles" : "instructions");
	}
	p->n_sbi = (unsigned)json_array_size(arr);
	return 0;
}

static int parse_raw(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "match", "mask", "counters", "comment", NULL };
	struct profile *p = c->p;
	char kp[KP];
	json_t *arr, *e;
	size_t i;
	if (member(c, top, "", "raw_events", false, &arr, kp))
		return -1;
	if (!arr)
		return 0;
	if (array_upto(c, arr, kp, PROFILE_MAX_RAW, "entries"))
		return -1;
	json_array_foreach(arr, i, e) {
		struct profile_raw_event *r = &p->raw[i];
		char ep[KP], fp[KP], cm[64];
		uint64_t cnt;
		index_path(ep, kp, i);
		if (need_object(c, e, ep) || only_keys(c, e, ep, keys) ||
		    get_u64(c, e, ep, "match", true, 0, UINT64_MAX, 0, &r->match) ||
		    get_u64(c, e, ep, "mask", true, 0, UINT64_MAX, 0, &r->mask) ||
		    get_u64(c, e, ep, "counters", true, 0, UINT32_MAX, 0, &cnt) ||
		    get_str(c, e, ep, "comment", false, cm, sizeof cm))
			return -1;
		r->counters = (uint32_t)cnt;
		join(fp, ep, "match");
		if (r->match & ~r->mask)
			return fail(c, fp, "sets bits outside mask: no raw event can match");
		join(fp, ep, "counters");
		if (check_counters(c, fp, r->counters, impl_counters(p) & ~5u))
			return -1;
	}
	p->n_raw = (unsigned)json_array_size(arr);
	return 0;
}

/* Name i of a perf array (EventName, MetricName; the names are stride
 * bytes apart from first) at key path fp: letters, digits, '_' or '.',
 * and none before it the same, as perf matches them, case-insensitively. */
static int perf_name(struct pc *c, const char *fp, const char *kind, const char *first, size_t stride,
		     size_t i, const char *kp)
{
	const char *name = first + i * stride;
	for (const char *s = name; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.'))
			return fail(c, fp, "expected letters, digits, '_' or '.', got \"%s\"", name);
	for (size_t j = 0; j < i; j++)
		if (!strcasecmp(first + j * stride, name))
			return fail(c, fp, "duplicate %s name \"%s\" (also %s[%zu])", kind, name, kp, j);
	return 0;
}

/* Linux tools/perf/pmu-events vendor JSON: an array of objects; rvpmu uses
 * EventName, EventCode (a hex string) and BriefDescription. */
static int parse_events(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "EventName", "EventCode", "BriefDescription", NULL };
	struct profile *p = c->p;
	char kp[KP];
	json_t *arr, *e;
	size_t i;
	if (member(c, top, "", "perf_events", true, &arr, kp))
		return -1;
	if (array_upto(c, arr, kp, PROFILE_MAX_EVENTS, "events"))
		return -1;
	json_array_foreach(arr, i, e) {
		struct profile_perf_event *v = &p->events[i];
		char ep[KP], fp[KP];
		json_t *code;
		index_path(ep, kp, i);
		if (need_object(c, e, ep) || only_keys(c, e, ep, keys) ||
		    get_str(c, e, ep, "EventName", true, v->name, sizeof v->name) ||
		    get_str(c, e, ep, "BriefDescription", true, v->desc, sizeof v->desc) ||
		    member(c, e, ep, "EventCode", true, &code, fp))
			return -1;
		if (!json_is_string(code) || strncmp(json_string_value(code), "0x", 2))
			return fail(c, fp, "expected a \"0x...\" hex string (perf's format)");
		/* Linux riscv_pmu_sbi's "event" format is config:0-47 (raw events
		 * wider than 48 bits need SBI 3.0 raw v2) */
		if (to_u64(c, code, fp, 1, (UINT64_C(1) << 48) - 1, &v->code))
			return -1;
		if (!profile_decode_set(p, v->code))
			return fail(c, fp, "%s selects no event of this profile's encoding",
				    json_string_value(code));
		join(fp, ep, "EventName");
		if (perf_name(c, fp, "event", p->events[0].name, sizeof(p->events[0]), i, kp))
			return -1;
	}
	p->n_events = (unsigned)json_array_size(arr);
	return 0;
}

/* Linux tools/perf/pmu-events metrics: objects with MetricName,
 * MetricExpr, and optionally MetricGroup (';'-separated), ScaleUnit and
 * BriefDescription. The expressions are perf's (src/perf/metric.c
 * evaluates them; tests/stat checks that each one resolves). */
static int parse_metrics(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "MetricName", "MetricExpr", "MetricGroup", "ScaleUnit",
		"BriefDescription", NULL };
	struct profile *p = c->p;
	char kp[KP];
	json_t *arr, *e;
	size_t i;
	if (member(c, top, "", "perf_metrics", false, &arr, kp) || !arr)
		return arr ? -1 : 0;
	if (array_upto(c, arr, kp, PROFILE_MAX_METRICS, "metrics"))
		return -1;
	json_array_foreach(arr, i, e) {
		struct profile_metric *m = &p->metrics[i];
		char ep[KP], fp[KP];
		index_path(ep, kp, i);
		if (need_object(c, e, ep) || only_keys(c, e, ep, keys) ||
		    get_str(c, e, ep, "MetricName", true, m->name, sizeof m->name) ||
		    get_str(c, e, ep, "MetricExpr", true, m->expr, sizeof m->expr) ||
		    get_str(c, e, ep, "MetricGroup", false, m->group, sizeof m->group) ||
		    get_str(c, e, ep, "ScaleUnit", false, m->unit, sizeof m->unit) ||
		    get_str(c, e, ep, "BriefDescription", false, m->desc, sizeof m->desc))
			return -1;
		join(fp, ep, "MetricName");
		if (perf_name(c, fp, "metric", p->metrics[0].name, sizeof(p->metrics[0]), i, kp))
			return -1;
	}
	p->n_metrics = (unsigned)json_array_size(arr);
	return 0;
}

static int parse_top(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "name", "description", "isa", "ids", "clock_hz", "pmu",
		"caches", "memory", "tlbs", "branch_predictor", "pipeline", "sbi_events",
		"raw_events", "perf_events", "perf_metrics", "misaligned", NULL };
	static const char *const mis[] = { "handle", "trap", NULL };
	struct profile *p = c->p;
	int misaligned;
	if (!json_is_object(top))
		return fail(c, "", "expected a JSON object, got %s", type_name(top));
	if (only_keys(c, top, "", keys) ||
	    get_str(c, top, "", "name", true, p->name, sizeof p->name) ||
	    get_str(c, top, "", "description", true, p->description, sizeof p->description) ||
	    get_str(c, top, "", "isa", true, p->isa, sizeof p->isa) ||
	    get_u64(c, top, "", "clock_hz", true, 1000, UINT64_C(100000000000), 0, &p->clock_hz) ||
	    get_enum(c, top, "", "misaligned", false, mis, 0, &misaligned) ||
	    parse_ids(c, top) || parse_pmu(c, top) || profile_parse_model(c, top) ||
	    parse_sbi(c, top) || parse_raw(c, top) || parse_events(c, top) ||
	    parse_metrics(c, top))
		return -1;
	p->misaligned_trap = misaligned == 1;
	for (const char *s = p->name; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return fail(c, "name", "expected lower-case letters, digits, '-' or '_', got \"%s\"", p->name);
	if (strncmp(p->isa, "rv64", 4))
		return fail(c, "isa", "expected an RV64 ISA string (\"rv64...\"), got \"%s\"", p->isa);
	/* the PMU model has the final word on the counter configuration */
	struct pmu_config cfg;
	struct pmu pm;
	profile_pmu_config(p, &cfg);
	if (pmu_init(&pm, &cfg))
		return fail(c, "pmu", "the PMU model rejects this configuration");
	return 0;
}

/* a file's text, at most MAX_FILE bytes (malloc'd), or NULL with err set */
static char *read_text(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = malloc(MAX_FILE + 1);
	size_t n = buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
	int bad = !buf || ferror(f);
	fclose(f);
	if (bad || n > MAX_FILE) {
		snprintf(err, errlen, "%s: %s", path, bad ? "cannot read" : "expected at most 1 MiB");
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static json_t *load_json(const char *text, size_t len, const char *label, char *err, size_t errlen)
{
	json_error_t je;
	json_t *top = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!top && errlen)
		snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", label, je.line, je.column, je.text);
	return top;
}

/* "base": NAME (a file read from path only): the profile NAME.json beside
 * it, itself perhaps based on another, with this file's keys laid over
 * it, objects key by key, anything else replaced. Takes top; NULL on an
 * error. */
static json_t *with_base(struct pc *c, json_t *top, const char *path, int depth)
{
	json_t *b = json_object_get(top, "base");
	if (!b)
		return top;
	const char *name = json_string_value(b), *slash = path ? strrchr(path, '/') : NULL;
	char file[PATH_MAX];
	json_t *base = NULL;
	if (!path)
		fail(c, "base", "only a profile read from a file can have a base");
	else if (!name || !profile_is_name(name))
		fail(c, "base", "expected a profile name ([A-Za-z0-9_-]+)");
	else if (depth == 4)
		fail(c, "base", "more than 4 bases deep (a loop?)");
	else if (snprintf(file, sizeof file, "%.*s%s.json", slash ? (int)(slash - path + 1) : 0, path,
			  name) >= (int)sizeof file)
		fail(c, "base", "path too long");
	else {
		size_t n;
		char *text = read_text(file, &n, c->err, c->errlen);
		if (text && (base = load_json(text, n, file, c->err, c->errlen)))
			base = with_base(c, base, file, depth + 1);
		free(text);
	}
	if (base) {
		json_object_del(top, "base");
		if (json_object_update_recursive(base, top)) {
			fail(c, "base", "cannot merge with %s", file);
			json_decref(base);
			base = NULL;
		}
	}
	json_decref(top);
	return base;
}

/* path: where text was read from (NULL: not a file) */
static int parse_text(const char *text, size_t len, const char *label, const char *path,
		      struct profile *out, char *err, size_t errlen)
{
	struct pc c = { label ? label : "(profile)", err, errlen, out };
	if (errlen)
		err[0] = 0;
	memset(out, 0, sizeof *out);
	snprintf(out->file, sizeof out->file, "%s", c.file);
	json_t *top = load_json(text, len, c.file, err, errlen);
	if (top)
		top = with_base(&c, top, path, 0);
	if (!top)
		return -1;
	int r = parse_top(&c, top);
	json_decref(top);
	return r;
}

int profile_parse(const char *text, size_t len, const char *label,
		  struct profile *out, char *err, size_t errlen)
{
	return parse_text(text, len, label, NULL, out, err, errlen);
}

int profile_load_file(const char *path, struct profile *out, char *err, size_t errlen)
{
	size_t n;
	char *buf = read_text(path, &n, err, errlen);
	if (!buf)
		return -1;
	int r = parse_text(buf, n, path, path, out, err, errlen);
	free(buf);
	return r;
}

bool profile_is_name(const char *s)
{
	size_t n = strlen(s);
	if (!n || n >= 32)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return false;
	return true;
}
