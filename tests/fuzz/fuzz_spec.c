/* libFuzzer target for rvpmu's two text parsers and for what a parsed
 * profile sets up. The first byte picks:
 *  - even: the rest is an event list (-e), parsed against the u74 and
 *    virt profiles and against none: events, or -1 with a message;
 *  - 1 (of 4): the rest is a core profile (JSON);
 *  - 3 (of 4): the rest edits profiles/u74.json or virt.json: pairs of
 *    bytes set one of its geometry, latency or PMU numbers (or a
 *    replacement or predictor kind) to one of a list of values, so that
 *    most inputs still load and reach the models with odd shapes.
 * A profile that loads sets up its core with every model on and runs a
 * small loop of loads, stores, multiplies, divides, FP, calls and
 * branches, translated and in the step loop: both must end in the same
 * state with every model event equal.
 * Built and run by tests/fuzz/run_spec.sh (clang
 * -fsanitize=fuzzer,address,undefined). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "rvpmu/core.h"
#include "rvpmu/hart.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

#define CODE 0x10000ull
#define DATA 0x20000ull
#define DATA_BYTES 0x4000ull
#define MAX_INSNS 20000
/* larger models are allowed (up to 2^20 sets), but would make each run
 * allocate gigabytes */
#define MAX_LINES (1u << 16)

static const uint32_t loop[] = {
	0x12c00293, /* li t0, 300 */
	0x00020537, /* lui a0, 0x20 (DATA) */
	0x00000793, /* li a5, 0 */
	0x00053583, /* 1: ld a1, 0(a0) */
	0x005585b3, /* add a1, a1, t0 */
	0x00b53423, /* sd a1, 8(a0) */
	0x02558633, /* mul a2, a1, t0 */
	0x025656b3, /* divu a3, a2, t0 */
	0x01053507, /* fld fa0, 16(a0) */
	0x02a575d3, /* fadd.d fa1, fa0, fa0 */
	0x00b53c27, /* fsd fa1, 24(a0) */
	0x02850513, /* addi a0, a0, 40 */
	0x010000ef, /* jal ra, 2f */
	0xfff28293, /* addi t0, t0, -1 */
	0xfc029ae3, /* bnez t0, 1b */
	0x00100073, /* ebreak */
	0x00167713, /* 2: andi a4, a2, 1 */
	0x00070463, /* beqz a4, 3f */
	0x00c7c7b3, /* xor a5, a5, a2 */
	0x00008067, /* 3: ret */
};

struct outcome {
	uint64_t x[32], pc, instret, cause;
	uint64_t ev[UARCH_EV_COUNT];
};

static void run(const struct profile *p, int no_jit, struct outcome *o)
{
	static struct hart h;
	char err[256];
	memset(o, 0, sizeof(*o));
	if (hart_init(&h))
		__builtin_trap();
	h.no_jit = (uint8_t)no_jit;
	h.uev_always = ~0ull;   /* translated code counts every event: all are compared */
	if (core_setup(&h, p, true, err, sizeof err)) {
		/* a profile that loads must set up its models (too_big() keeps
		 * their memory small) */
		fprintf(stderr, "core_setup: %s\n", err);
		__builtin_trap();
	}
	if (gmem_map(&h.mem, CODE, GPAGE_SIZE, GP_R | GP_X) ||
	    gmem_map(&h.mem, DATA, DATA_BYTES, GP_R | GP_W))
		__builtin_trap();
	memcpy(h.mem.base + CODE, loop, sizeof loop);
	h.pc = CODE;
	while (h.instret < MAX_INSNS)
		if (hart_run(&h, MAX_INSNS - h.instret) == STOP_TRAP) {
			o->cause = h.cause + 1;
			break;
		}
	memcpy(o->x, h.x, sizeof(o->x));
	o->pc = h.pc;
	o->instret = h.instret;
	uarch_events(h.uarch, o->ev);
	core_free(&h);
	hart_free(&h);
}

static int too_big(const struct profile *p)
{
	const struct profile_cache *c[] = {&p->l1i, &p->l1d, &p->l2};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if ((uint64_t)c[i]->sets * c[i]->ways > MAX_LINES)
			return 1;
	return 0;
}

/* what mode 3 may set; a "|" list is strings to choose from */
static const char *const knobs[] = {
	"caches.l1i.sets", "caches.l1i.ways", "caches.l1i.line", "caches.l1i.hit_latency",
	"caches.l1i.replacement|lru|plru",
	"caches.l1d.sets", "caches.l1d.ways", "caches.l1d.line", "caches.l1d.hit_latency",
	"caches.l1d.replacement|lru|plru", "caches.l1d.write_policy|write-back|write-through",
	"caches.l2.sets", "caches.l2.ways", "caches.l2.line", "caches.l2.hit_latency",
	"caches.l2.replacement|lru|plru", "memory.latency",
	"tlbs.itlb.entries", "tlbs.itlb.ways", "tlbs.itlb.replacement|lru|plru",
	"tlbs.dtlb.entries", "tlbs.dtlb.ways", "tlbs.dtlb.replacement|lru|plru",
	"tlbs.l2tlb.entries", "tlbs.l2tlb.ways", "tlbs.l2tlb.hit_latency",
	"tlbs.page_size", "tlbs.walk_latency",
	"branch_predictor.kind|bimodal|gshare", "branch_predictor.bht_entries",
	"branch_predictor.counter_bits", "branch_predictor.history_bits",
	"branch_predictor.btb_entries", "branch_predictor.btb_ways",
	"branch_predictor.ras_depth", "branch_predictor.indirect_entries",
	"pipeline.issue_width", "pipeline.load_use_latency", "pipeline.mispredict_penalty",
	"pipeline.mul_latency", "pipeline.div_latency", "pipeline.fp_latency",
	"pipeline.fp_div_latency", "pmu.hpm_counters", "pmu.hpm_width", "pmu.skid", "clock_hz",
};
static const json_int_t values[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 31, 32, 40, 63, 64, 128, 256, 512, 1000,
	4096, 8192, 65536, 100000, 1 << 20, 1 << 24, 4294967295LL, 4294967296LL,
};

/* base with each (knob, value) byte pair of e applied, as JSON text */
static char *edit(json_t *base, const uint8_t *e, size_t n)
{
	json_t *root = json_deep_copy(base);
	for (size_t i = 0; root && i + 1 < n; i += 2) {
		char path[80];
		snprintf(path, sizeof path, "%s", knobs[e[i] % (sizeof(knobs) / sizeof(knobs[0]))]);
		char *choice = strchr(path, '|');
		if (choice)
			*choice++ = 0;
		json_t *o = root;
		char *key = path, *dot;
		while (o && (dot = strchr(key, '.'))) {
			*dot = 0;
			o = json_object_get(o, key);
			key = dot + 1;
		}
		if (!json_is_object(o) || !json_object_get(o, key))
			continue;   /* not in this profile */
		if (choice) {   /* the (v % options)-th string after the path */
			for (unsigned k = e[i + 1] % 2; k--;)
				choice = strchr(choice, '|') + 1;
			char *end = strchr(choice, '|');
			if (end)
				*end = 0;
			json_object_set_new(o, key, json_string(choice));
		} else {
			json_object_set_new(o, key,
				json_integer(values[e[i + 1] % (sizeof(values) / sizeof(values[0]))]));
		}
	}
	/* keep each cache's size its sets * ways * line, which the loader checks */
	json_t *caches = json_object_get(root, "caches"), *c;
	const char *name;
	json_object_foreach(caches, name, c) {
		uint64_t sz = (uint64_t)json_integer_value(json_object_get(c, "sets")) *
			      (uint64_t)json_integer_value(json_object_get(c, "ways")) *
			      (uint64_t)json_integer_value(json_object_get(c, "line"));
		json_object_set_new(c, "size", json_integer((json_int_t)(sz >> 62 ? 1 : sz)));
	}
	char *text = root ? json_dumps(root, 0) : NULL;
	json_decref(root);
	return text;
}

static json_t *base_json(const char *name)
{
	char path[512];
	const char *dir = getenv("RVPMU_PROFILE_DIR");
	snprintf(path, sizeof path, "%s/%s.json", dir ? dir : "profiles", name);
	json_t *j = json_load_file(path, 0, NULL);
	if (!j) {
		fprintf(stderr, "cannot read %s (set RVPMU_PROFILE_DIR)\n", path);
		abort();
	}
	return j;
}

static void events(const char *list, const struct profile *p)
{
	struct evspec ev[EVSPEC_MAX];
	char err[256];
	err[0] = 0;
	int n = evspec_parse(list, p, ev, 0, EVSPEC_MAX, err, sizeof err);
	if (n < 0 ? n != -1 || !err[0] : n == 0 || n > EVSPEC_MAX)
		__builtin_trap();   /* an error without a message, or no events */
}

/* runs compared, which tests/fuzz/replay.c reports */
unsigned long fuzz_compared;

static void run_profile(const char *text, size_t len)
{
	static struct profile p;
	static struct outcome a, b;
	char err[512];
	if (profile_parse(text, len, "fuzz.json", &p, err, sizeof err) || too_big(&p))
		return;
	run(&p, 0, &a);
	run(&p, 1, &b);
	if (memcmp(&a, &b, sizeof(a)))
		__builtin_trap();   /* translated and step-loop runs differ */
	fuzz_compared++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct profile u74, virt;
	static json_t *base[2];
	static int loaded;
	char err[512];
	if (!loaded) {
		base[0] = base_json("u74");
		base[1] = base_json("virt");
		if (profile_load("u74", &u74, err, sizeof err) ||
		    profile_load("virt", &virt, err, sizeof err)) {
			fprintf(stderr, "%s (set RVPMU_PROFILE_DIR)\n", err);
			abort();
		}
		loaded = 1;
	}
	if (size < 1)
		return 0;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	if (!(data[0] & 1)) {
		events(text, &u74);
		events(text, &virt);
		events(text, NULL);
	} else if (!(data[0] & 2)) {
		run_profile(text, size - 1);
	} else if (size > 1) {
		char *edited = edit(base[data[1] & 1], data + 2, size - 2);
		if (edited)
			run_profile(edited, strlen(edited));
		free(edited);
	}
	free(text);
	return 0;
}
