/* Loading the shipped profiles, decoding every documented selector, the
 * perf vendor-JSON output and the wiring into the PMU model. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "profile_test.h"

/* "a,b,c" canonical names -> their set; unknown names fail the check */
static pmu_evset set_of(const char *names)
{
	pmu_evset s = 0;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", names);
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
		int e = profile_event_id(t);
		CHECK(e > 0, "test names unknown canonical event \"%s\"", t);
		if (e > 0)
			s |= PROF_EV_BIT(e);
	}
	return s;
}

void test_load_virt(void)
{
	struct profile *p = prt_load("virt");
	if (!p)
		return;
	CHECK(!strcmp(p->name, "virt"), "name %s", p->name);
	CHECK_EQ(p->pmu.encoding, PROFILE_ENC_SBI, "encoding");
	CHECK_EQ(p->pmu.n_hpm, 16, "hpm counters");
	CHECK_EQ(p->pmu.hpm_width, 64, "hpm width");
	CHECK(p->pmu.sscofpmf && p->pmu.smcntrpmf && p->pmu.smcdeleg, "virt has every PMU extension");
	CHECK(p->pmu.h && p->pmu.aia, "virt has H and the AIA CSRs (Smaia/Ssaia)");
	CHECK(p->pmu.has_s && p->pmu.has_u, "S and U");
	CHECK(p->clock_hz > 0 && p->n_sbi > 0 && p->n_events > 0, "clock, SBI map, events present");
	CHECK(p->l1d.present && p->l1i.present && p->itlb.present && p->dtlb.present, "L1 and TLBs");
	CHECK_EQ((uint64_t)p->l1d.sets * p->l1d.ways * p->l1d.line, 32768, "L1D bytes");
	CHECK(p->l2.shared && !p->l1d.shared && !p->l1i.shared, "one L2 for all harts, L1s each hart's own");
}

void test_load_u74(void)
{
	struct profile *p = prt_load("u74");
	if (!p)
		return;
	CHECK_EQ(p->pmu.encoding, PROFILE_ENC_SIFIVE, "encoding");
	CHECK_EQ(p->n_classes, 5, "SiFive's three event classes and rvpmu's 0xf0 and 0xf1");
	CHECK_EQ(p->pmu.n_hpm, 2, "mhpmcounter3 and 4");
	CHECK(!p->pmu.sscofpmf && !p->pmu.smcntrpmf && !p->pmu.smcdeleg, "U74 predates Sscofpmf/Smcntrpmf/Smcdeleg");
	CHECK(!p->pmu.aia, "U74 has no AIA");
	CHECK_EQ(p->pipe.issue_width, 2, "dual issue");
	/* U74-MC: each core's own L1s, the L2 shared by the core complex */
	CHECK(p->l2.shared && !p->l1d.shared && !p->l1i.shared, "L2 shared, L1s private");
	/* FU740 device tree: 32 KiB, 128 sets x 64 B (I), 64 sets x 64 B (D),
	 * 40-entry single-set TLBs, 2 MiB L2 with 2048 sets of 64 B */
	CHECK_EQ((uint64_t)p->l1i.sets * p->l1i.ways * p->l1i.line, 32768, "L1I bytes");
	CHECK_EQ(p->l1i.sets, 128, "L1I sets");
	CHECK_EQ(p->l1d.sets, 64, "L1D sets");
	CHECK_EQ((uint64_t)p->l1d.sets * p->l1d.ways * p->l1d.line, 32768, "L1D bytes");
	CHECK_EQ(p->itlb.entries, 40, "ITLB entries");
	CHECK_EQ(p->itlb.entries / p->itlb.ways, 1, "ITLB sets");
	CHECK_EQ(p->dtlb.entries, 40, "DTLB entries");
	CHECK(p->l2.present, "L2 present");
	CHECK_EQ((uint64_t)p->l2.sets * p->l2.ways * p->l2.line, 2097152, "L2 bytes");
	CHECK_EQ(p->l2.sets, 2048, "L2 sets");
	CHECK_EQ(p->bpred.ras_depth, 6, "RAS depth");
	CHECK_EQ(p->bpred.btb_entries, 16, "BTB entries");
}

/* jh7110.json is u74.json (its "base") with its own clock, ids and memory:
 * the core's keys come from the base, the memory's latency in ns becomes
 * cycles at the JH7110's clock */
void test_load_jh7110(void)
{
	struct profile *p = prt_load("jh7110"), *u = prt_load("u74");
	if (!p || !u)
		return;
	CHECK(!strcmp(p->name, "jh7110"), "name %s", p->name);
	CHECK_EQ(p->clock_hz, 1500000000, "1.5 GHz");
	CHECK_EQ(u->clock_hz, 1200000000, "the base keeps 1.2 GHz");
	CHECK_EQ(p->memory_latency, (p->memory_latency_ns * 1500 + 500) / 1000, "latency_ns at 1.5 GHz");
	CHECK_EQ(u->memory_latency, 120, "the FU740's 100 ns at 1.2 GHz");
	CHECK(p->read_bandwidth && !u->read_bandwidth, "only the JH7110's channel is limited");
	CHECK_EQ(p->l2.sets, u->l2.sets, "L2 from the base");
	CHECK_EQ(p->l2pf.distance, u->l2pf.distance, "prefetcher from the base");
	CHECK_EQ(p->pipe.late_alu, 2, "late ALUs from the base");
	CHECK_EQ(p->n_events, u->n_events, "events from the base");
	CHECK_EQ(p->n_classes, u->n_classes, "classes from the base");
}

/* Linux tools/perf/pmu-events/arch/riscv/mapfile.csv: the SiFive U74 row
 * matches "MVENDORID-MARCHID-MIMPID" formatted as perf does (0x%lx). */
void test_ids_mapfile(void)
{
	struct profile *p = prt_load("u74");
	if (!p)
		return;
	char id[80];
	regex_t re;
	snprintf(id, sizeof id, "0x%llx-0x%llx-0x%llx", (unsigned long long)p->mvendorid,
		 (unsigned long long)p->marchid, (unsigned long long)p->mimpid);
	int r = regcomp(&re, "^0x489-0x8000000000000007-0x[[:xdigit:]]+$", REG_EXTENDED | REG_NOSUB);
	CHECK(r == 0, "regcomp");
	if (!r) {
		CHECK(regexec(&re, id, 0, NULL, 0) == 0, "%s does not match perf's u74 mapfile row", id);
		regfree(&re);
	}
	struct profile *v = prt_load("virt");
	if (v)
		CHECK(v->mvendorid == 0 && v->marchid == 0, "virt: a non-commercial core (ids 0)");
}

void test_event_names(void)
{
	for (unsigned e = 1; e < PROF_EV_COUNT; e++) {
		const char *n = profile_event_name(e);
		CHECK(n && *n, "event %u has no name", e);
		if (n)
			CHECK_EQ(profile_event_id(n), e, n);
		CHECK(profile_event_desc(e) != NULL, "event %u has no description", e);
		for (unsigned f = 1; f < e; f++)
			CHECK(!n || strcmp(n, profile_event_name(f)), "events %u and %u share name %s", f, e, n);
	}
	CHECK(profile_event_name(PROF_EV_COUNT) == NULL, "name past the end");
	CHECK(profile_event_id("none") == -1, "\"none\" is no event");
	CHECK(profile_event_id("no-such-event") == -1, "unknown name");
	CHECK(PROF_EV_COUNT <= 8 * sizeof(pmu_evset), "a set holds every id");
}

/* SBI v3.0 PMU event_idx, expectations composed from the spec's names */
void test_decode_sbi(void)
{
	struct profile *p = prt_load("virt");
	if (!p)
		return;
	static const char *const general[16] = {
		[1] = "cycles", [2] = "instructions",
		[3] = "ll-read-accesses,ll-write-accesses", [4] = "ll-read-misses,ll-write-misses",
		[5] = "branches,jal,jalr", [6] = "branch-mispredicts,target-mispredicts",
		[8] = "stall-frontend", [9] = "stall-backend", [10] = "cycles",
	};
	for (unsigned code = 0; code < 16; code++) {
		char what[40];
		snprintf(what, sizeof what, "event_idx 0x%x", code);
		CHECK_SET(profile_decode_set(p, code), general[code] ? set_of(general[code]) : 0, what);
	}
	static const char *const cache[] = { "l1d", "l1i", "ll", "dtlb", "itlb", "bpu", "node", "bad" };
	static const char *const op[] = { "read", "write", "prefetch", "bad" };
	static const char *const res[] = { "accesses", "misses" };
	for (unsigned c = 0; c < 8; c++)
		for (unsigned o = 0; o < 4; o++)
			for (unsigned r = 0; r < 2; r++) {
				uint32_t idx = 0x10000 | c << 3 | o << 1 | r;
				char name[64], what[40];
				pmu_evset want = 0;
				bool rw = !strcmp(cache[c], "l1d") || !strcmp(cache[c], "ll") || !strcmp(cache[c], "dtlb");
				bool ro = !strcmp(cache[c], "l1i") || !strcmp(cache[c], "itlb");
				if (rw && o < 2) {
					snprintf(name, sizeof name, "%s-%s-%s", cache[c], op[o], res[r]);
					want = set_of(name);
				} else if (ro && o == 0) {
					snprintf(name, sizeof name, "%s-%s", cache[c], res[r]);
					want = set_of(name);
				} else if (c == 2 && o == 2) {   /* the L2's prefetcher */
					snprintf(name, sizeof name, "ll-prefetch-%s", res[r]);
					want = set_of(name);
				} else if (c == 5 && o == 0) {
					want = set_of(r ? "branch-mispredicts,target-mispredicts" : "branches,jal,jalr");
				}
				snprintf(what, sizeof what, "event_idx 0x%x", idx);
				CHECK_SET(profile_decode_set(p, idx), want, what);
				CHECK_SET(profile_sbi_event_set(idx), want, what);
			}
	/* raw, firmware and reserved types, bits beyond event_idx */
	static const uint64_t none[] = { 0, 0x20000, 0x30000, 0xf0000, 0xf0005, 0x40001,
		0x100001, 0x1000010001, UINT64_C(1) << 56 };
	for (unsigned i = 0; i < sizeof none / sizeof none[0]; i++)
		CHECK_SET(profile_decode_set(p, none[i]), 0, "selector counting nothing");
	/* bits 63:56 of mhpmevent are not selector bits */
	CHECK_SET(profile_decode_set(p, PMU_OF | PMU_MINH | 2), set_of("instructions"), "OF/MINH ignored");
}

void test_decode_canon(void)
{
	struct profile *p = prt_load("virt");
	if (!p)
		return;
	for (unsigned e = 1; e < PROF_EV_COUNT; e++)
		CHECK_SET(profile_decode_set(p, PROFILE_SEL_CANON | e), PROF_EV_BIT(e), profile_event_name(e));
	CHECK_SET(profile_decode_set(p, PROFILE_SEL_CANON), 0, "canonical 0");
	CHECK_SET(profile_decode_set(p, PROFILE_SEL_CANON | PROF_EV_COUNT), 0, "past the last id");
	CHECK_SET(profile_decode_set(p, PROFILE_SEL_CANON | 0x100 | 2), 0, "bits 23:8 must be 0");
}

/* U74 manual, mhpmevent table: class 0 instruction commit, 1 micro-
 * architectural, 2 memory system; each bit's meaning as canonical events */
static const struct { unsigned cls, bit; const char *events; } u74_bits[] = {
	{0, 8, "exceptions"}, {0, 9, "int-loads"}, {0, 10, "int-stores"}, {0, 11, "atomics"},
	{0, 12, "csr-accesses,system-other"}, {0, 13, "int-arith"}, {0, 14, "branches"},
	{0, 15, "jal"}, {0, 16, "jalr"}, {0, 17, "int-mul"}, {0, 18, "int-div"},
	{0, 19, "fp-loads"}, {0, 20, "fp-stores"}, {0, 21, "fp-add"}, {0, 22, "fp-mul"},
	{0, 23, "fp-fma"}, {0, 24, "fp-divsqrt"}, {0, 25, "fp-other"},
	{1, 8, "stall-load-use"}, {1, 9, "stall-long-latency"}, {1, 10, "stall-csr-read"},
	{1, 11, "stall-icache-busy"}, {1, 12, "stall-dcache-busy"}, {1, 13, "branch-mispredicts"},
	{1, 14, "target-mispredicts"}, {1, 15, "flush-csr-write"}, {1, 16, "flush-other"},
	{1, 17, "stall-int-mul"}, {1, 18, "stall-fp"},
	{2, 8, "l1i-misses"}, {2, 9, "l1d-read-misses,l1d-write-misses,mmio-accesses"},
	{2, 10, "l1d-writebacks"}, {2, 11, "itlb-misses"}, {2, 12, "dtlb-read-misses,dtlb-write-misses"},
	{2, 13, "l2tlb-misses"},
};

void test_decode_u74(void)
{
	struct profile *p = prt_load("u74");
	if (!p)
		return;
	pmu_evset all[3] = { 0, 0, 0 };
	uint64_t allmask[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < sizeof u74_bits / sizeof u74_bits[0]; i++) {
		uint64_t sel = UINT64_C(1) << u74_bits[i].bit | u74_bits[i].cls;
		char what[48];
		snprintf(what, sizeof what, "class %u bit %u", u74_bits[i].cls, u74_bits[i].bit);
		CHECK_SET(profile_decode_set(p, sel), set_of(u74_bits[i].events), what);
		all[u74_bits[i].cls] |= set_of(u74_bits[i].events);
		allmask[u74_bits[i].cls] |= UINT64_C(1) << u74_bits[i].bit;
	}
	/* several mask bits select the union; the manual's 0x4200 example is
	 * "a load or a conditional branch retires" */
	CHECK_SET(profile_decode_set(p, 0x4200), set_of("int-loads,branches"), "0x4200");
	for (unsigned c = 0; c < 3; c++)
		CHECK_SET(profile_decode_set(p, allmask[c] | c), all[c], "every bit of a class");
	/* bits without a meaning and classes without events count nothing */
	CHECK_SET(profile_decode_set(p, UINT64_C(1) << 30), 0, "class 0 bit 30");
	CHECK_SET(profile_decode_set(p, UINT64_C(1) << 30 | 0x200), set_of("int-loads"), "undefined bit ignored");
	CHECK_SET(profile_decode_set(p, 0x0), 0, "selector 0");
	CHECK_SET(profile_decode_set(p, 0xff00 | 3), 0, "class 3");
	CHECK_SET(profile_decode_set(p, 0x200 | 0x80), 0, "class 0x80");
	CHECK_SET(profile_decode_set(p, 0x00), 0, "class 0 with no mask");
	CHECK_SET(profile_decode_set(p, PMU_OF | 0x200), set_of("int-loads"), "bits 63:56 ignored");
	/* rvpmu's own class 0xf0 (docs/profiles.md): coherence and the L2 */
	static const char *const coh[] = { "coherence-misses", "coherence-invalidations",
		"coherence-upgrades", "snoop-hits", "ll-read-accesses,ll-write-accesses",
		"ll-read-misses,ll-write-misses" };
	for (unsigned b = 0; b < 6; b++)
		CHECK_SET(profile_decode_set(p, UINT64_C(0x100) << b | 0xf0), set_of(coh[b]), coh[b]);
	CHECK_SET(profile_decode_set(p, 0x4000 | 0xf0), 0, "class 0xf0 bit 14");
	/* and 0xf1: the top-down's stall parts, whose sums one counter takes
	 * (docs/topdown.md) */
	static const char *const td[] = { "stall-mispredict", "stall-flush", "stall-icache-busy",
		"stall-fetch-redirect", "stall-dcache-busy" };
	for (unsigned b = 0; b < 5; b++)
		CHECK_SET(profile_decode_set(p, UINT64_C(0x100) << b | 0xf1), set_of(td[b]), td[b]);
	CHECK_SET(profile_decode_set(p, 0x3f1), set_of("stall-mispredict,stall-flush"), "0x3f1: bad speculation");
	CHECK_SET(profile_decode_set(p, 0xcf1), set_of("stall-icache-busy,stall-fetch-redirect"), "0xcf1: frontend");
	CHECK_SET(profile_decode_set(p, 0x2000 | 0xf1), 0, "class 0xf1 bit 13");
	/* the classes partition retirement: no event in two class-0 bits */
	pmu_evset seen = 0;
	for (unsigned b = 8; b < 56; b++) {
		pmu_evset s = profile_decode_set(p, UINT64_C(1) << b);
		CHECK((s & seen) == 0, "class 0 bit %u overlaps another bit", b);
		seen |= s;
	}
}

void test_documented_selectors(void)
{
	const char *names[] = { "virt", "u74" };
	for (int n = 0; n < 2; n++) {
		struct profile *p = prt_load(names[n]);
		if (!p)
			continue;
		for (unsigned i = 0; i < p->n_sbi; i++) {
			const struct profile_sbi_event *s = &p->sbi[i];
			CHECK(profile_sbi_lookup(p, s->event_idx) == s, "%s: lookup 0x%x", names[n], s->event_idx);
			if (s->counters & ~5u)
				CHECK(profile_decode_set(p, s->selector) != 0, "%s: SBI 0x%x selector 0x%llx",
				      names[n], s->event_idx, (unsigned long long)s->selector);
			else
				CHECK(s->selector == 0, "%s: fixed-counter event 0x%x", names[n], s->event_idx);
			CHECK(!(s->counters & 2), "%s: 0x%x maps to the time CSR", names[n], s->event_idx);
			if (p->pmu.encoding == PROFILE_ENC_SBI && s->selector)
				CHECK_SET(profile_decode_set(p, s->selector), profile_sbi_event_set(s->event_idx),
					 "virt selector = event_idx");
		}
		for (unsigned i = 0; i < p->n_events; i++) {
			CHECK(profile_decode_set(p, p->events[i].code) != 0, "%s: %s", names[n], p->events[i].name);
			CHECK(profile_find_event(p, p->events[i].name) == &p->events[i], "find %s", p->events[i].name);
		}
		CHECK(profile_find_event(p, "NO_SUCH_EVENT") == NULL, "unknown event name");
		for (unsigned i = 0; i < p->n_raw; i++)
			CHECK((p->raw[i].match & ~p->raw[i].mask) == 0, "%s raw row %u", names[n], i);
	}
	/* cycles and instructions always have a counter */
	struct profile *u = prt_load("u74");
	if (u) {
		CHECK(profile_sbi_lookup(u, 1) && profile_sbi_lookup(u, 1)->counters == 1, "u74 cycles on mcycle");
		CHECK(profile_sbi_lookup(u, 2) && profile_sbi_lookup(u, 2)->counters == 4, "u74 instret on minstret");
		CHECK(profile_find_event(u, "int_loads_retired") != NULL, "event names are case-insensitive");
	}
}

/* virt's named events: NAME = the canonical name upper-cased */
void test_virt_named(void)
{
	struct profile *p = prt_load("virt");
	if (!p)
		return;
	unsigned found = 0;
	for (unsigned e = 1; e < PROF_EV_COUNT; e++) {
		char name[64];
		snprintf(name, sizeof name, "%s", profile_event_name(e));
		for (char *s = name; *s; s++)
			*s = *s == '-' ? '_' : (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s);
		const struct profile_perf_event *v = profile_find_event(p, name);
		CHECK(v != NULL, "virt lacks %s", name);
		if (v) {
			CHECK_SET(profile_decode_set(p, v->code), PROF_EV_BIT(e), name);
			found++;
		}
	}
	CHECK_EQ(found, p->n_events, "every virt event is one canonical event");
}

/* The vendor-JSON shape of tools/perf/pmu-events/arch/riscv/sifive/u74/
 * *.json: an array of objects with string EventName, EventCode ("0x" hex)
 * and BriefDescription. */
static void check_perf_file(const char *path, const struct profile *p)
{
	json_error_t je;
	json_t *a = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	CHECK(a && json_is_array(a), "%s: not a JSON array (%s)", path, a ? "" : je.text);
	if (!a)
		return;
	CHECK_EQ(json_array_size(a), p->n_events, "event count");
	size_t i;
	json_t *o;
	json_array_foreach(a, i, o) {
		CHECK(json_is_object(o) && json_object_size(o) == 3, "%s[%zu]: 3 keys", path, i);
		json_t *n = json_object_get(o, "EventName"), *c = json_object_get(o, "EventCode"),
		       *d = json_object_get(o, "BriefDescription");
		CHECK(json_is_string(n) && json_is_string(c) && json_is_string(d), "%s[%zu]: string fields", path, i);
		if (!json_is_string(n) || !json_is_string(c) || i >= p->n_events)
			continue;
		const char *code = json_string_value(c);
		CHECK(!strncmp(code, "0x", 2) && code[2] && strspn(code + 2, "0123456789abcdef") == strlen(code + 2),
		      "%s[%zu]: EventCode %s", path, i, code);
		CHECK_EQ(strtoull(code, NULL, 16), p->events[i].code, p->events[i].name);
		CHECK(!strcmp(json_string_value(n), p->events[i].name), "%s[%zu] name", path, i);
	}
	json_decref(a);
}

void test_perf_json(void)
{
	const char *names[] = { "virt", "u74" };
	for (int n = 0; n < 2; n++) {
		struct profile *p = prt_load(names[n]);
		if (!p)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s-events.json", prt_tmp(), names[n]);
		FILE *f = fopen(path, "w");
		CHECK(f != NULL, "cannot write %s", path);
		if (!f)
			continue;
		CHECK(profile_write_perf_json(p, f) == 0, "write %s", path);
		fclose(f);
		check_perf_file(path, p);
		/* the metrics beside them, for perf's jevents.py (tests/profiles) */
		snprintf(path, sizeof path, "%s/%s-metrics.json", prt_tmp(), names[n]);
		f = fopen(path, "w");
		CHECK(f != NULL, "cannot write %s", path);
		if (!f)
			continue;
		CHECK(p->n_metrics > 0, "%s has no metrics", names[n]);
		CHECK(profile_write_perf_metrics(p, f) == 0, "write %s", path);
		fclose(f);
	}
}

/* A profile drives the PMU model: counts follow the decoded selector. */
void test_pmu_wiring(void)
{
	struct profile *p = prt_load("u74");
	if (!p)
		return;
	struct pmu_config cfg;
	struct pmu pm;
	profile_pmu_config(p, &cfg);
	CHECK(pmu_init(&pm, &cfg) == 0, "pmu_init(u74)");
	CHECK_EQ(pm.impl, 0x1d, "counters 0, 2, 3, 4");
	CHECK_EQ(pm.hpm_mask, (UINT64_C(1) << 40) - 1, "40-bit hpm counters");
	uint64_t old;
	/* JAL or JALR (class 0, bits 15 and 16) on mhpmcounter3 */
	CHECK(pmu_csr_access(&pm, PMU_PRIV_M, PMU_CSR_MHPMEVENT3, PMU_CSR_WRITE, 0x18000, 1, &old, NULL) == PMU_OK,
	      "write mhpmevent3");
	CHECK(pmu_csr_access(&pm, PMU_PRIV_M, PMU_CSR_MCOUNTINHIBIT, PMU_CSR_WRITE, 0, 1, &old, NULL) == PMU_OK,
	      "clear mcountinhibit");
	uint64_t counts[PMU_EV_MAX] = { 0 };
	counts[PMU_EV_INSTRET] = 1;
	pmu_retire(&pm, PMU_PRIV_M, counts);
	counts[PMU_EV_INSTRET] = 10;
	counts[PMU_EV_JAL] = 3;
	counts[PMU_EV_JALR] = 4;
	counts[PMU_EV_BRANCH] = 5;
	pmu_retire(&pm, PMU_PRIV_M, counts);
	CHECK_EQ(pm.ctr[3], 7, "mhpmcounter3 counts JAL + JALR");
	/* the PMU's decoder sees the whole canonical set, within its arrays */
	for (unsigned i = 0; i < sizeof u74_bits / sizeof u74_bits[0]; i++) {
		uint64_t sel = UINT64_C(1) << u74_bits[i].bit | u74_bits[i].cls;
		pmu_evset s = profile_decode(p, sel);
		CHECK(PROF_EV_COUNT <= PMU_EV_MAX, "canonical ids fit the PMU's event arrays");
		CHECK_SET(s, profile_decode_set(p, sel), "decoder passes the full set");
	}
}
