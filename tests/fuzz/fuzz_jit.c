/* libFuzzer target for the block translator (src/hart/jit.c): any byte
 * string, run as user-mode code, must leave the same state translated and
 * in the step loop alone: registers, pc, retired instructions, the trap
 * that ended it and the data it wrote; and, run again with the default
 * models on (counting blocks, src/uarch/block.c), the same state and every
 * model event equal. Built and run by tests/fuzz/run_jit.sh (clang
 * -fsanitize=fuzzer,address,undefined). */
#include <stddef.h>
#include <stdint.h>
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
};

static void run(const uint8_t *code, size_t n, int no_jit, int models, struct outcome *o)
{
	static struct hart h;
	static struct uarch u;
	memset(o, 0, sizeof(*o));
	if (hart_init(&h))
		__builtin_trap();
	h.no_jit = (uint8_t)no_jit;
	if (models) {
		struct uarch_config c;
		uarch_config_default(&c);
		if (uarch_init(&u, &c, NULL, 0))
			__builtin_trap();
		h.uarch = &u;
		h.uev_always = ~0ull;   /* translated code counts every event: all are compared */
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
	if (models) {
		uarch_events(&u, o->ev);
		uarch_free(&u);
	}
	hart_free(&h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct outcome a, b, c, d;
	if (size < 2 || size > GPAGE_SIZE)
		return 0;
	run(data, size, 0, 0, &a);
	run(data, size, 1, 0, &b);
	if (memcmp(&a, &b, sizeof(a)))
		__builtin_trap();  /* translated and step-loop runs differ */
	run(data, size, 0, 1, &c);
	run(data, size, 1, 1, &d);
	if (memcmp(&c, &d, sizeof(c)) || memcmp(&a, &c, offsetof(struct outcome, ev)))
		__builtin_trap();  /* with the models: counts or state differ */
	return 0;
}
