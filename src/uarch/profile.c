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

#define KP 160                  /* longest key path */

struct pc {                     /* parse context */
	const char *file;
	char *err;
	size_t errlen;
	struct profile *p;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct pc *c, const char *path, const char *fmt, ...)
{
	if (!c->errlen)
		return -1;
	int n = snprintf(c->err, c->errlen, "%s: %s: ", c->file, *path ? path : "(top level)");
	if (n >= 0 && (size_t)n < c->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Key paths are truncated, never overflowed: over-long ones are only
 * ever in an error message. */
static void join(char *out, const char *parent, const char *key)
{
	if (snprintf(out, KP, *parent ? "%s.%s" : "%s%s", parent, key) >= KP)
		out[KP - 1] = 0;
}

static void index_path(char *out, const char *parent, size_t i)
{
	if (snprintf(out, KP, "%s[%zu]", parent, i) >= KP)
		out[KP - 1] = 0;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/* Rejects keys outside keys[] (NULL-terminated): a typo is an error, not
 * a silently ignored default. */
static int only_keys(struct pc *c, json_t *obj, const char *path, const char *const *keys)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		size_t i;
		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i]) {
			char kp[KP], list[400] = "";
			size_t n = 0;
			for (i = 0; keys[i] && n < sizeof list; i++)
				n += snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", keys[i]);
			join(kp, path, k);
			return fail(c, kp, "unknown key (expected one of: %s)", list);
		}
	}
	return 0;
}

/* obj[key] into *out (NULL when absent and optional); kp gets its path */
static int member(struct pc *c, json_t *obj, const char *path, const char *key,
		  bool req, json_t **out, char *kp)
{
	join(kp, path, key);
	*out = json_object_get(obj, key);
	if (!*out && req)
		return fail(c, kp, "missing required key");
	return 0;
}

static int need_object(struct pc *c, json_t *v, const char *kp)
{
	return json_is_object(v) ? 0 : fail(c, kp, "expected an object, got %s", type_name(v));
}

/* An integer, or a string holding one (decimal or 0x hex: 64-bit ids do
 * not fit a JSON integer), in [min, max]. */
static int to_u64(struct pc *c, json_t *v, const char *kp, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t x;
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < 0)
			goto range;
		x = (uint64_t)i;
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		if (!(*s >= '0' && *s <= '9') || (s[0] == '0' && s[1] && s[1] != 'x' && s[1] != 'X'))
			return fail(c, kp, "expected an integer or a \"0x...\" string, got \"%s\"", s);
		errno = 0;
		x = strtoull(s, &end, 0);
		if (*end || errno)
			return fail(c, kp, "expected an integer or a \"0x...\" string, got \"%s\"", s);
	} else {
		return fail(c, kp, "expected an integer, got %s", type_name(v));
	}
	if (x < min || x > max)
		goto range;
	*out = x;
	return 0;
range:
	if (max == UINT64_MAX)
		return fail(c, kp, "expected an integer >= %llu", (unsigned long long)min);
	return fail(c, kp, "expected an integer in %llu..%llu",
		    (unsigned long long)min, (unsigned long long)max);
}

static int get_u64(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		   uint64_t min, uint64_t max, uint64_t def, uint64_t *out)
{
	char kp[KP];
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	if (!v) {
		*out = def;
		return 0;
	}
	return to_u64(c, v, kp, min, max, out);
}

static int get_uint(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    unsigned min, unsigned max, unsigned def, unsigned *out)
{
	uint64_t x;
	if (get_u64(c, obj, path, key, req, min, max, def, &x))
		return -1;
	*out = (unsigned)x;
	return 0;
}

static int get_bool(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    bool def, bool *out)
{
	char kp[KP];
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	if (!v) {
		*out = def;
		return 0;
	}
	if (!json_is_boolean(v))
		return fail(c, kp, "expected true or false, got %s", type_name(v));
	*out = json_is_true(v);
	return 0;
}

static int to_str(struct pc *c, json_t *v, const char *kp, char *buf, size_t n)
{
	if (!json_is_string(v))
		return fail(c, kp, "expected a string, got %s", type_name(v));
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	if (len == 0 || len >= n || strlen(s) != len)
		return fail(c, kp, "expected a non-empty string of at most %zu characters", n - 1);
	memcpy(buf, s, len + 1);
	return 0;
}

static int get_str(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		   char *buf, size_t n)
{
	char kp[KP];
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	return v ? to_str(c, v, kp, buf, n) : 0;
}

/* one of names[] (NULL-terminated) -> its index */
static int get_enum(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    const char *const *names, int def, int *out)
{
	char kp[KP], list[200] = "";
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	if (!v) {
		*out = def;
		return 0;
	}
	if (json_is_string(v))
		for (int i = 0; names[i]; i++)
			if (!strcmp(names[i], json_string_value(v))) {
				*out = i;
				return 0;
			}
	size_t n = 0;
	for (int i = 0; names[i] && n < sizeof list; i++)
		n += snprintf(list + n, sizeof list - n, "%s\"%s\"", i ? " or " : "", names[i]);
	return fail(c, kp, "expected %s", list);
}

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static unsigned log2u(uint64_t x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

static int get_pow2(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    unsigned min, unsigned max, unsigned def, unsigned *out)
{
	char kp[KP];
	if (get_uint(c, obj, path, key, req, min, max, def, out))
		return -1;
	join(kp, path, key);
	if (*out && !pow2(*out))
		return fail(c, kp, "expected a power of two, got %u", *out);
	return 0;
}

/* ---- sections */

static const char *const repl_names[] = { "lru", "plru", NULL };

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
	static const char *const ext_keys[] = { "sscofpmf", "smcntrpmf", "smcdeleg", "smctr", "sstc", NULL };
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
	if (p->pmu.encoding == PROFILE_ENC_SIFIVE) {
		if (!cls)
			return fail(c, cp, "missing required key (selector_encoding \"sifive\" needs classes)");
		return parse_classes(c, cls, cp);
	}
	if (cls)
		return fail(c, cp, "only a \"sifive\" selector_encoding has classes");
	return 0;
}

static int parse_cache(struct pc *c, json_t *caches, const char *path, const char *key,
		       bool req, struct profile_cache *k)
{
	static const char *const keys[] = { "size", "sets", "ways", "line", "replacement",
		"write_policy", "write_allocate", "hit_latency", "shared", NULL };
	static const char *const wp[] = { "write-back", "write-through", NULL };
	char kp[KP], sp[KP];
	json_t *o;
	int r, w;
	uint64_t size;
	if (member(c, caches, path, key, req, &o, kp))
		return -1;
	if (!o)
		return 0;
	if (need_object(c, o, kp) || only_keys(c, o, kp, keys) ||
	    get_pow2(c, o, kp, "sets", true, 1, 1u << 20, 0, &k->sets) ||
	    get_uint(c, o, kp, "ways", true, 1, 64, 0, &k->ways) ||
	    get_pow2(c, o, kp, "line", true, 4, 4096, 0, &k->line) ||
	    get_enum(c, o, kp, "replacement", true, repl_names, 0, &r) ||
	    get_enum(c, o, kp, "write_policy", false, wp, 0, &w) ||
	    get_bool(c, o, kp, "write_allocate", false, true, &k->write_allocate) ||
	    get_uint(c, o, kp, "hit_latency", true, 1, 1000, 0, &k->hit_latency) ||
	    get_u64(c, o, kp, "size", false, 1, UINT64_MAX, 0, &size) ||
	    /* as a core complex has it: an L2 shared by the harts, their own L1s */
	    get_bool(c, o, kp, "shared", false, !strcmp(key, "l2"), &k->shared))
		return -1;
	k->present = true;
	k->repl = r ? PROFILE_REPL_PLRU : PROFILE_REPL_LRU;
	k->write_back = w == 0;
	uint64_t geom = (uint64_t)k->sets * k->ways * k->line;
	join(sp, kp, "size");
	if (size && size != geom)
		return fail(c, sp, "%llu bytes disagrees with sets * ways * line = %llu",
			    (unsigned long long)size, (unsigned long long)geom);
	if (k->repl == PROFILE_REPL_PLRU && !pow2(k->ways)) {
		join(sp, kp, "replacement");
		return fail(c, sp, "\"plru\" (tree pseudo-LRU) needs a power-of-two ways, got %u", k->ways);
	}
	return 0;
}

static int parse_caches(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "l1i", "l1d", "l2", NULL };
	static const char *const mkeys[] = { "latency", NULL };
	struct profile *p = c->p;
	char kp[KP], mp[KP], ep[KP];
	json_t *o, *m;
	if (member(c, top, "", "caches", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    parse_cache(c, o, kp, "l1i", true, &p->l1i) ||
	    parse_cache(c, o, kp, "l1d", true, &p->l1d) ||
	    parse_cache(c, o, kp, "l2", false, &p->l2) ||
	    member(c, top, "", "memory", true, &m, mp) || need_object(c, m, mp) ||
	    only_keys(c, m, mp, mkeys) ||
	    get_uint(c, m, mp, "latency", true, 1, 100000, 0, &p->memory_latency))
		return -1;
	/* the harts share the last level only: L1s are kept coherent below it */
	if (p->l1i.shared || p->l1d.shared) {
		join(ep, kp, p->l1i.shared ? "l1i.shared" : "l1d.shared");
		return fail(c, ep, "only the last level, l2, may be shared (each hart has its own L1s)");
	}
	unsigned below = p->l1d.hit_latency > p->l1i.hit_latency ? p->l1d.hit_latency : p->l1i.hit_latency;
	if (p->l2.present) {
		if (p->l2.line < p->l1d.line || p->l2.line < p->l1i.line) {
			join(ep, kp, "l2.line");
			return fail(c, ep, "expected at least the L1 line sizes (%u, %u), got %u",
				    p->l1i.line, p->l1d.line, p->l2.line);
		}
		if (p->l2.hit_latency <= below) {
			join(ep, kp, "l2.hit_latency");
			return fail(c, ep, "expected more than the L1 hit latencies (%u), got %u",
				    below, p->l2.hit_latency);
		}
		below = p->l2.hit_latency;
	}
	if (p->memory_latency <= below) {
		join(ep, mp, "latency");
		return fail(c, ep, "expected more than the last cache's hit latency (%u), got %u",
			    below, p->memory_latency);
	}
	return 0;
}

static int parse_tlb(struct pc *c, json_t *tlbs, const char *path, const char *key,
		     bool req, struct profile_tlb *t)
{
	static const char *const keys[] = { "entries", "ways", "replacement", "hit_latency", NULL };
	char kp[KP], wp[KP];
	json_t *o;
	int r;
	if (member(c, tlbs, path, key, req, &o, kp))
		return -1;
	if (!o)
		return 0;
	if (need_object(c, o, kp) || only_keys(c, o, kp, keys) ||
	    get_uint(c, o, kp, "entries", true, 1, 65536, 0, &t->entries) ||
	    get_uint(c, o, kp, "ways", true, 1, 65536, 0, &t->ways) ||
	    get_enum(c, o, kp, "replacement", true, repl_names, 0, &r) ||
	    get_uint(c, o, kp, "hit_latency", false, 0, 1000, 0, &t->hit_latency))
		return -1;
	t->present = true;
	t->repl = r ? PROFILE_REPL_PLRU : PROFILE_REPL_LRU;
	join(wp, kp, "ways");
	if (t->ways > t->entries || t->entries % t->ways || !pow2(t->entries / t->ways))
		return fail(c, wp, "expected ways dividing entries (%u) into a power-of-two number of sets, got %u",
			    t->entries, t->ways);
	if (t->repl == PROFILE_REPL_PLRU && (!pow2(t->ways) || t->ways > 64))
		return fail(c, wp, "\"plru\" (tree pseudo-LRU) needs a power-of-two ways up to 64, got %u",
			    t->ways);
	return 0;
}

static int parse_tlbs(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "itlb", "dtlb", "l2tlb", "page_size", "walk_latency", NULL };
	struct profile *p = c->p;
	char kp[KP];
	json_t *o;
	if (member(c, top, "", "tlbs", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    parse_tlb(c, o, kp, "itlb", true, &p->itlb) ||
	    parse_tlb(c, o, kp, "dtlb", true, &p->dtlb) ||
	    parse_tlb(c, o, kp, "l2tlb", false, &p->l2tlb) ||
	    get_pow2(c, o, kp, "page_size", true, 4096, 1u << 30, 0, &p->page_size) ||
	    get_uint(c, o, kp, "walk_latency", true, 1, 100000, 0, &p->walk_latency))
		return -1;
	return 0;
}

static int parse_bpred(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "kind", "bht_entries", "counter_bits", "history_bits",
		"btb_entries", "btb_ways", "ras_depth", "indirect_entries", NULL };
	static const char *const kinds[] = { "bimodal", "gshare", NULL };
	struct profile_bpred *b = &c->p->bpred;
	char kp[KP], hp[KP];
	json_t *o, *h;
	int k;
	if (member(c, top, "", "branch_predictor", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    get_enum(c, o, kp, "kind", true, kinds, 0, &k) ||
	    get_pow2(c, o, kp, "bht_entries", true, 1, 1u << 24, 0, &b->bht_entries) ||
	    get_uint(c, o, kp, "counter_bits", false, 1, 4, 2, &b->counter_bits) ||
	    get_pow2(c, o, kp, "btb_entries", true, 0, 1u << 16, 0, &b->btb_entries) ||
	    get_uint(c, o, kp, "btb_ways", false, 1, 1u << 16, b->btb_entries ? b->btb_entries : 1, &b->btb_ways) ||
	    get_uint(c, o, kp, "ras_depth", true, 0, 64, 0, &b->ras_depth) ||
	    get_uint(c, o, kp, "indirect_entries", false, 0, 1u << 16, 0, &b->indirect_entries) ||
	    member(c, o, kp, "history_bits", false, &h, hp))
		return -1;
	b->kind = k ? PROFILE_BP_GSHARE : PROFILE_BP_BIMODAL;
	if (b->kind == PROFILE_BP_GSHARE) {
		unsigned max = log2u(b->bht_entries);
		if (!h)
			return fail(c, hp, "missing required key (kind \"gshare\" needs a history length)");
		if (!max) {
			join(hp, kp, "bht_entries");
			return fail(c, hp, "kind \"gshare\" needs at least 2 entries");
		}
		if (get_uint(c, o, kp, "history_bits", true, 1, max, 0, &b->history_bits))
			return -1;
	} else if (h) {
		return fail(c, hp, "only kind \"gshare\" has a global history");
	}
	if (b->btb_entries) {
		char wp[KP];
		join(wp, kp, "btb_ways");
		if (b->btb_ways > b->btb_entries || b->btb_entries % b->btb_ways)
			return fail(c, wp, "expected a divisor of btb_entries (%u), got %u",
				    b->btb_entries, b->btb_ways);
	}
	return 0;
}

static int parse_pipeline(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "issue_width", "load_use_latency", "mispredict_penalty",
		"mul_latency", "div_latency", "fp_latency", "fp_div_latency", NULL };
	struct profile *p = c->p;
	struct profile_pipeline *q = &p->pipe;
	char kp[KP], lp[KP];
	json_t *o;
	if (member(c, top, "", "pipeline", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    get_uint(c, o, kp, "issue_width", true, 1, 2, 0, &q->issue_width) ||
	    get_uint(c, o, kp, "load_use_latency", true, 1, 1000, 0, &q->load_use_latency) ||
	    get_uint(c, o, kp, "mispredict_penalty", true, 0, 1000, 0, &q->mispredict_penalty) ||
	    get_uint(c, o, kp, "mul_latency", true, 1, 1000, 0, &q->mul_latency) ||
	    get_uint(c, o, kp, "div_latency", true, 1, 1000, 0, &q->div_latency) ||
	    get_uint(c, o, kp, "fp_latency", true, 1, 1000, 0, &q->fp_latency) ||
	    get_uint(c, o, kp, "fp_div_latency", true, 1, 1000, 0, &q->fp_div_latency))
		return -1;
	join(lp, kp, "load_use_latency");
	if (q->load_use_latency < p->l1d.hit_latency)
		return fail(c, lp, "expected at least caches.l1d.hit_latency (%u), got %u",
			    p->l1d.hit_latency, q->load_use_latency);
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
	    parse_ids(c, top) || parse_pmu(c, top) || parse_caches(c, top) ||
	    parse_tlbs(c, top) || parse_bpred(c, top) || parse_pipeline(c, top) ||
	    parse_sbi(c, top) || parse_raw(c, top) || parse_events(c, top) || parse_metrics(c, top))
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

int profile_parse(const char *text, size_t len, const char *label,
		  struct profile *out, char *err, size_t errlen)
{
	struct pc c = { label ? label : "(profile)", err, errlen, out };
	json_error_t je;
	if (errlen)
		err[0] = 0;
	memset(out, 0, sizeof *out);
	snprintf(out->file, sizeof out->file, "%s", c.file);
	json_t *top = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!top) {
		if (errlen)
			snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", c.file, je.line, je.column, je.text);
		return -1;
	}
	int r = parse_top(&c, top);
	json_decref(top);
	return r;
}
