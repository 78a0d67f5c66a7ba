/* F and D arithmetic for translated code (jit_ops.h): jit.c emits a call
 * to jit_fp_op() with the decoded instruction, which computes it with the
 * step loop's own expressions (fp_insns.h's FP_OPS), so both give the
 * same results and flags. */
#include "fp_insns.h"
#include "jit_ops.h"

int jit_fp_is(unsigned id)
{
	switch (id) {
#define CASE(name, kind, expr) case INSN_##name:
	FP_OPS(CASE)
#undef CASE
		return 1;
	}
	return 0;
}

uint64_t jit_fp_op(struct hart *h, const struct dinsn *d)
{
	uint64_t *x = h->x, *f = h->f;
	if (h->fp_slow)
		return 1;
#define RS1 x[d->rs1]
#define RM() ({ unsigned r_ = d->rm == 7 ? h->frm : d->rm; if (r_ > 4) return 1; (int)r_; })
#define PUT_S(v) f[d->rd] = BOX32(v)
#define PUT_D(v) f[d->rd] = (v)
#define PUT_I(v) x[d->rd] = (v)
#define CASE(name, kind, expr) case INSN_##name: PUT_##kind(expr); return 0;
	switch (d->id) {
	FP_OPS(CASE)
	}
#undef CASE
#undef PUT_I
#undef PUT_D
#undef PUT_S
#undef RM
#undef RS1
	return 1;
}
