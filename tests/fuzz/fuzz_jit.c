/* libFuzzer target for the block translator (src/hart/jit.c): any byte
 * string, run as user-mode code, must leave the same state translated and
 * in the step loop alone: registers, pc, retired instructions, the trap
 * that ended it and the data it wrote; and, run again with the default
 * models on (counting blocks, src/uarch/block.c), the same state and every
 * model event equal; and again with those models in a coherence domain
 * with another hart's, which holds half the data's lines Modified and
 * shares the rest with this hart (so its stores upgrade, and its misses
 * take lines from the other), every event of both harts equal; and with
 * the SiFive 7-series rules and a timed memory system. Built and
 * run by tests/fuzz/run_jit.sh (clang -fsanitize=fuzzer,address,undefined);
 * with -DFUZZ_JIT_REPLAY, a program (tests/jit/suite.sh, gcc) that runs
 * the files it is given and prints what the coherent runs did. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/hart.h"

#define CODE 0x10000ull
#define DATA 0x20000ull
#define DATA_BYTES 0x4000ull
#define MAX_INSNS 20000

struct outcome {
	uint64_t x[32], f[32], pc, instret, cause, tval;
	uint32_t fflags;
	uint8_t data[DATA_BYTES];
	uint64_t ev[UARCH_EV_COUNT];  /* last: only the model runs compare it */
	uint64_t peer_ev[UARCH_EV_COUNT];   /* the other hart's, in a domain */
	uint64_t translated;                /* blocks (not compared) */
};

/* The other hart p writes the first half of the data's lines (Modified
 * there), reads the rest, which u then reads too (Shared by both). */
static void share(struct uarch *u, struct uarch *p)
{
	for (uint64_t a = DATA; a < DATA + DATA_BYTES; a += 64) {
		int w = a < DATA + DATA_BYTES / 2;
		struct retire_rec r = { .pc = CODE, .next_pc = CODE + 4, .ilen = 4, .fetch_pa = CODE,
					.cls = w ? UARCH_CLS_STORE : UARCH_CLS_LOAD, .size = 8,
					.addr = a, .paddr = a };
		uarch_retire(p, &r);
		if (!w)
			uarch_retire(u, &r);
	}
	memset(u->ev, 0, sizeof(u->ev));   /* the run's events from here */
	memset(p->ev, 0, sizeof(p->ev));
}

/* the default models, or (sifive7) with the SiFive 7-series rules and a
 * timed memory system (MSHRs, a limited channel, the L2 prefetcher) */
static void config(struct uarch_config *c, int sifive7)
{
	uarch_config_default(c);
	if (!sifive7)
		return;
	c->l1d.sets = 16;   /* small enough for misses */
	c->timing.pairing = UARCH_PAIR_PIPES;
	c->timing.late_alu = 1;
	c->timing.l1d_mshrs = 3;
	c->timing.l2_mshrs = 6;
	c->timing.bus_read = 7;
	c->timing.bus_write = 5;
	c->prefetch = (struct uarch_prefetch_config){ .streams = 4, .distance = 3, .window = 4 };
}

/* models: 0 none, 1 the default ones, 2 in a domain with another hart's,
 * 3 the SiFive 7-series rules with a timed memory system */
static void run(const uint8_t *code, size_t n, int no_jit, int models, struct outcome *o)
{
	static struct hart h;
	static struct uarch u, peer;
	static struct uarch_domain dom;
	memset(o, 0, sizeof(*o));
	if (hart_init(&h))
		__builtin_trap();
	h.no_jit = (uint8_t)no_jit;
	if (models) {
		struct uarch_config c;
		config(&c, models == 3);
		if (uarch_init(&u, &c, NULL, 0))
			__builtin_trap();
		h.uarch = &u;
		h.uev_always = ~0ull;   /* translated code counts every event: all are compared */
	}
	if (models == 2) {
		struct uarch_config c;
		uarch_config_default(&c);
		struct uarch *two[2] = { &u, &peer };
		if (uarch_init(&peer, &c, NULL, 0) || uarch_domain_init(&dom, two, 2, 1))
			__builtin_trap();
		share(&u, &peer);
	}
	if (gmem_map(&h.mem, CODE, GPAGE_SIZE, GP_R | GP_X) ||
	    gmem_map(&h.mem, DATA, DATA_BYTES, GP_R | GP_W))
		__builtin_trap();
	memcpy(h.mem.base + CODE, code, n);
	/* odd registers point into the data (some misaligned), even ones hold
	 * scattered bits: negative, huge, with bit 31 either way */
	for (int i = 1; i < 32; i++)
		h.x[i] = i & 1 ? DATA + 0x100 * (uint64_t)i + (uint64_t)(i & 6)
			       : (uint64_t)i * 0x9e3779b97f4a7c15ull;
	h.x[2] = DATA;  /* gen_random.py --fuzz-seed code's buffer */
	h.pc = CODE;
	while (h.instret < MAX_INSNS) {
		enum hart_stop r = hart_run(&h, MAX_INSNS - h.instret);
		if (r == STOP_TRAP) {
			o->cause = h.cause + 1;
			o->tval = h.tval;
			break;
		}
	}
	memcpy(o->x, h.x, sizeof(o->x));
	memcpy(o->f, h.f, sizeof(o->f));
	o->pc = h.pc;
	o->instret = h.instret;
	o->fflags = h.fflags;
	memcpy(o->data, h.mem.base + DATA, DATA_BYTES);
	struct hart_jit_stats js;
	hart_jit_stats(&h, &js);
	if (models) {
		uarch_events(&u, o->ev);
		uarch_free(&u);
	}
	if (models == 2) {
		uarch_events(&peer, o->peer_ev);
		uarch_free(&peer);
		uarch_domain_free(&dom);
	}
	hart_free(&h);
	o->translated = js.translated;
}

/* a and b equal up to field f, but what was translated */
static int differ(const struct outcome *x, const struct outcome *y, size_t f)
{
	return memcmp(x, y, f < offsetof(struct outcome, translated) ? f : offsetof(struct outcome, translated));
}

static struct outcome a, b, c, d;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > GPAGE_SIZE)
		return 0;
	const size_t all = sizeof(a), state = offsetof(struct outcome, ev);
	run(data, size, 0, 0, &a);
	run(data, size, 1, 0, &b);
	if (differ(&a, &b, all))
		__builtin_trap();  /* translated and step-loop runs differ */
	run(data, size, 0, 1, &c);
	run(data, size, 1, 1, &d);
	if (differ(&c, &d, all) || differ(&a, &c, state))
		__builtin_trap();  /* with the models: counts or state differ */
	run(data, size, 0, 3, &c);
	run(data, size, 1, 3, &d);
	if (differ(&c, &d, all) || differ(&a, &c, state))
		__builtin_trap();  /* timed memory: counts or state differ */
	run(data, size, 0, 2, &c);
	run(data, size, 1, 2, &d);
	if (differ(&c, &d, all) || differ(&a, &c, state))
		__builtin_trap();  /* among harts: counts or state differ */
	return 0;
}

#ifdef FUZZ_JIT_REPLAY
/* Each file named runs as one input; a line per file says what its
 * coherent runs did (the check passed when the program gets that far). */
int main(int argc, char **argv)
{
	static uint8_t buf[GPAGE_SIZE];
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
		if (f)
			fclose(f);
		if (n < 2) {
			fprintf(stderr, "%s: cannot read it\n", argv[i]);
			return 2;
		}
		LLVMFuzzerTestOneInput(buf, n);
		printf("%s: %llu blocks translated, %llu upgrades, %llu coherence misses, "
		       "%llu invalidations of the other's lines\n", argv[i],
		       (unsigned long long)c.translated, (unsigned long long)c.ev[UARCH_EV_UPGRADE],
		       (unsigned long long)c.ev[UARCH_EV_COHERENCE_MISS],
		       (unsigned long long)c.peer_ev[UARCH_EV_INVALIDATION]);
	}
	return 0;
}
#endif
