/* The M extension's high multiplies, divides and remainders in translated
 * code (jit_ops.h): through rax and rdx, as x86 requires. The RISC-V
 * results for a zero divisor and for overflow (M chapter, "Division
 * Operations") come from branches around the divide, which would fault
 * on x86. mul and mulw are jit.c's ALU forms, mulhsu jit_bitmanip.c's. */
#include "jit_ops.h"

int jit_muldiv_is(unsigned id)
{
	switch (id) {
	case INSN_MULH: case INSN_MULHU:
	case INSN_DIV: case INSN_DIVU: case INSN_REM: case INSN_REMU:
	case INSN_DIVW: case INSN_DIVUW: case INSN_REMW: case INSN_REMUW:
		return 1;
	}
	return 0;
}

void jit_muldiv(struct em *e, const struct dinsn *d, int a, int b, int rd)
{
	int w = 1, sign = 0, rem = 0, high = 0;
	switch (d->id) {
	case INSN_MULH: high = 1; sign = 1; break;
	case INSN_MULHU: high = 1; break;
	case INSN_DIV: sign = 1; break;
	case INSN_DIVU: break;
	case INSN_REM: sign = 1; rem = 1; break;
	case INSN_REMU: rem = 1; break;
	case INSN_DIVW: sign = 1; w = 0; break;
	case INSN_DIVUW: w = 0; break;
	case INSN_REMW: sign = 1; rem = 1; w = 0; break;
	case INSN_REMUW: rem = 1; w = 0; break;
	}
	if (b != RCX)
		mov_rr(e, RCX, b);
	if (a != RAX)
		mov_rr(e, RAX, a);
	if (high) {
		grp3(e, 1, sign ? G3_IMUL : G3_MUL, RCX);
		mov_rr(e, rd, RDX);
		return;
	}
	uint8_t *done[3];
	unsigned nd = 0;
	alu_rr(e, w, G1_AND, RCX, RCX);             /* test the divisor */
	uint8_t *nonzero = jcc8(e, CC_NE);
	if (!rem)
		mov_ri(e, RAX, ~0ull);              /* x / 0 = all ones */
	done[nd++] = jmp8(e);                       /* x % 0 = x */
	patch8(nonzero, e->p);
	if (sign) {
		alu_ri(e, w, G1_CMP, RCX, -1);
		uint8_t *notm1 = jcc8(e, CC_NE);
		if (rem)
			xor_zero(e, RAX);           /* x % -1 = 0 */
		else
			grp3(e, w, G3_NEG, RAX);    /* x / -1 = -x, MIN / -1 = MIN */
		done[nd++] = jmp8(e);
		patch8(notm1, e->p);
		if (w)
			b1(e, 0x48);
		b1(e, 0x99);                        /* cqo / cdq */
	} else {
		xor_zero(e, RDX);
	}
	grp3(e, w, sign ? G3_IDIV : G3_DIV, RCX);
	if (rem)
		mov_rr(e, RAX, RDX);
	for (unsigned i = 0; i < nd; i++)
		patch8(done[i], e->p);
	if (w)
		mov_rr(e, rd, RAX);
	else
		movsxd(e, rd, RAX);   /* the W forms sign-extend their 32-bit result */
}
