/* Core profiles: the models' part (caches, memory, TLBs, branch
 * predictor, pipeline), each key checked for type, range and consistency
 * (docs/profiles.md). */
#include <string.h>
#include "rvpmu/uarch.h"
#include "profile_json.h"

/* memory and walk latencies, in cycles: two lines' worst misses, with
 * PTE walks, then fit the timing's UARCH_MC_CYCLES */
#define MEMORY_MAX_CYCLES 2000

/* caches.KEY.mshrs: the L1D's and the L2's */
static int parse_mshrs(struct pc *c, json_t *o, const char *kp, const char *key,
		       struct profile_cache *k)
{
	char mp[KP];
	json_t *v;
	if (member(c, o, kp, "mshrs", false, &v, mp))
		return -1;
	if (v && strcmp(key, "l1d") && strcmp(key, "l2"))
		return fail(c, mp, "only the L1D and the L2 have MSHRs");
	return get_uint(c, o, kp, "mshrs", false, 0, strcmp(key, "l1d") ? 64 : UARCH_MSHR_MAX, 0,
			&k->mshrs);
}

/* caches.l2.prefetcher */
static int parse_prefetcher(struct pc *c, json_t *o, const char *kp, const char *key)
{
	static const char *const keys[] = { "streams", "distance", "window", "stores",
		"cross_page", NULL };
	struct profile_prefetch *f = &c->p->l2pf;
	char fp[KP];
	json_t *v;
	if (member(c, o, kp, "prefetcher", false, &v, fp))
		return -1;
	if (!v)
		return 0;
	if (strcmp(key, "l2"))
		return fail(c, fp, "only the L2 has a prefetcher");
	return need_object(c, v, fp) || only_keys(c, v, fp, keys) ||
	       get_uint(c, v, fp, "streams", true, 1, UARCH_PF_STREAMS_MAX, 0, &f->streams) ||
	       get_uint(c, v, fp, "distance", true, 1, UARCH_PF_DIST_MAX, 0, &f->distance) ||
	       get_uint(c, v, fp, "window", true, 1, 1u << 16, 0, &f->window) ||
	       get_bool(c, v, fp, "stores", false, false, &f->stores) ||
	       get_bool(c, v, fp, "cross_page", false, false, &f->cross_page) ? -1 : 0;
}

static int parse_cache(struct pc *c, json_t *caches, const char *path, const char *key,
		       bool req, struct profile_cache *k)
{
	static const char *const keys[] = { "size", "sets", "ways", "line", "replacement",
		"write_policy", "write_allocate", "hit_latency", "mshrs", "prefetcher", "shared", NULL };
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
	    parse_mshrs(c, o, kp, key, k) || parse_prefetcher(c, o, kp, key) ||
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

/* cycles of n ns at the profile's clock, rounded */
static uint64_t ns_cycles(const struct profile *p, uint64_t ns)
{
	return (ns * p->clock_hz + 500000000) / 1000000000;
}

/* memory: its latency in cycles or ns, and the channel's bandwidths */
static int parse_memory(struct pc *c, json_t *top, unsigned below)
{
	static const char *const keys[] = { "latency", "latency_ns", "read_bandwidth",
		"write_bandwidth", NULL };
	struct profile *p = c->p;
	char mp[KP], ep[KP], np[KP];
	json_t *m, *cyc, *ns;
	if (member(c, top, "", "memory", true, &m, mp) || need_object(c, m, mp) ||
	    only_keys(c, m, mp, keys) ||
	    member(c, m, mp, "latency", false, &cyc, ep) || member(c, m, mp, "latency_ns", false, &ns, np) ||
	    get_uint(c, m, mp, "read_bandwidth", false, 1, 10000000, 0, &p->read_bandwidth) ||
	    get_uint(c, m, mp, "write_bandwidth", false, 1, 10000000, 0, &p->write_bandwidth))
		return -1;
	if (!cyc == !ns)
		return fail(c, mp, "expected exactly one of latency (cycles) and latency_ns");
	if (ns) {
		if (get_uint(c, m, mp, "latency_ns", true, 1, MEMORY_MAX_CYCLES, 0, &p->memory_latency_ns))
			return -1;
		uint64_t n = ns_cycles(p, p->memory_latency_ns);
		if (n > MEMORY_MAX_CYCLES)
			return fail(c, np, "%u ns is %llu cycles at clock_hz, expected at most %u",
				    p->memory_latency_ns, (unsigned long long)n, MEMORY_MAX_CYCLES);
		p->memory_latency = (unsigned)n;
	} else if (get_uint(c, m, mp, "latency", true, 1, MEMORY_MAX_CYCLES, 0, &p->memory_latency)) {
		return -1;
	}
	if (p->memory_latency <= below)
		return fail(c, ns ? np : ep, "expected more than the last cache's hit latency (%u), got %u%s",
			    below, p->memory_latency, ns ? " cycles" : "");
	if ((p->read_bandwidth || p->write_bandwidth) && !(p->l2.present && p->l2.mshrs)) {
		join(ep, mp, p->read_bandwidth ? "read_bandwidth" : "write_bandwidth");
		return fail(c, ep, "a limited channel needs caches.l2.mshrs (how many lines it queues)");
	}
	return 0;
}

static int parse_caches(struct pc *c, json_t *top)
{
	static const char *const keys[] = { "l1i", "l1d", "l2", NULL };
	struct profile *p = c->p;
	char kp[KP], ep[KP];
	json_t *o;
	if (member(c, top, "", "caches", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    parse_cache(c, o, kp, "l1i", true, &p->l1i) ||
	    parse_cache(c, o, kp, "l1d", true, &p->l1d) ||
	    parse_cache(c, o, kp, "l2", false, &p->l2))
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
	return parse_memory(c, top, below);
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
	    get_uint(c, o, kp, "walk_latency", true, 1, MEMORY_MAX_CYCLES, 0, &p->walk_latency))
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
	static const char *const keys[] = { "issue_width", "pairing", "load_use_latency",
		"late_alu", "mispredict_penalty", "mul_latency", "div_latency", "div32_latency",
		"fp_latency", "fp32_latency", "fp_move_latency", "fp_div_latency",
		"fp32_div_latency", NULL };
	static const char *const pairing[] = { "units", "pipes", NULL };
	struct profile *p = c->p;
	struct profile_pipeline *q = &p->pipe;
	char kp[KP], lp[KP];
	json_t *o;
	int pipes;
	if (member(c, top, "", "pipeline", true, &o, kp) || need_object(c, o, kp) ||
	    only_keys(c, o, kp, keys) ||
	    get_uint(c, o, kp, "issue_width", true, 1, 2, 0, &q->issue_width) ||
	    get_enum(c, o, kp, "pairing", false, pairing, 0, &pipes) ||
	    get_uint(c, o, kp, "load_use_latency", true, 1, 1000, 0, &q->load_use_latency) ||
	    get_uint(c, o, kp, "late_alu", false, 0, 1000, 0, &q->late_alu) ||
	    get_uint(c, o, kp, "mispredict_penalty", true, 0, 1000, 0, &q->mispredict_penalty) ||
	    get_uint(c, o, kp, "mul_latency", true, 1, 1000, 0, &q->mul_latency) ||
	    get_uint(c, o, kp, "div_latency", true, 1, 1000, 0, &q->div_latency) ||
	    get_uint(c, o, kp, "div32_latency", false, 1, 1000, 0, &q->div32_latency) ||
	    get_uint(c, o, kp, "fp_latency", true, 1, 1000, 0, &q->fp_latency) ||
	    get_uint(c, o, kp, "fp32_latency", false, 1, 1000, 0, &q->fp32_latency) ||
	    get_uint(c, o, kp, "fp_move_latency", false, 1, 1000, 0, &q->fp_move_latency) ||
	    get_uint(c, o, kp, "fp_div_latency", true, 1, 1000, 0, &q->fp_div_latency) ||
	    get_uint(c, o, kp, "fp32_div_latency", false, 1, 1000, 0, &q->fp32_div_latency))
		return -1;
	q->pipes = pipes == 1;
	join(lp, kp, "load_use_latency");
	if (q->load_use_latency < p->l1d.hit_latency)
		return fail(c, lp, "expected at least caches.l1d.hit_latency (%u), got %u",
			    p->l1d.hit_latency, q->load_use_latency);
	join(lp, kp, "late_alu");
	if (q->late_alu >= q->load_use_latency)
		return fail(c, lp, "expected less than load_use_latency (%u), got %u",
			    q->load_use_latency, q->late_alu);
	return 0;
}

int profile_parse_model(struct pc *c, json_t *top)
{
	return parse_caches(c, top) || parse_tlbs(c, top) || parse_bpred(c, top) ||
	       parse_pipeline(c, top) ? -1 : 0;
}
