/* The A extension in translated code (jit_ops.h): AMOs, LR and SC, as
 * the step loop does them (exec_ops.h). User mode's harts take turns on
 * one host thread, so an AMO is a plain read, operation and write, and
 * aq/rl order nothing more; a reservation is h->resv_addr, the address
 * of the hart's last LR, which an SC at that same address consumes and
 * any SC clears (as does the end of the hart's turn, outside translated
 * code). Misaligned and refused accesses never get here: jit.c's checks
 * leave them to the step loop, which raises their exceptions. */
#include <stddef.h>
#include "rvpmu/hart.h"
#include "jit_ops.h"

#define RESV ((int32_t)offsetof(struct hart, resv_addr))

unsigned jit_atomic_size(unsigned id)
{
	switch (id) {
	case INSN_LR_W: case INSN_SC_W:
	case INSN_AMOSWAP_W: case INSN_AMOADD_W: case INSN_AMOXOR_W: case INSN_AMOAND_W:
	case INSN_AMOOR_W: case INSN_AMOMIN_W: case INSN_AMOMAX_W: case INSN_AMOMINU_W:
	case INSN_AMOMAXU_W:
		return 4;
	case INSN_LR_D: case INSN_SC_D:
	case INSN_AMOSWAP_D: case INSN_AMOADD_D: case INSN_AMOXOR_D: case INSN_AMOAND_D:
	case INSN_AMOOR_D: case INSN_AMOMIN_D: case INSN_AMOMAX_D: case INSN_AMOMINU_D:
	case INSN_AMOMAXU_D:
		return 8;
	}
	return 0;
}

int jit_atomic_writes(unsigned id)
{
	return id != INSN_LR_W && id != INSN_LR_D;
}

/* [r15 + rax] as the access's operand */
static void mem(struct em *e, int w, unsigned op, int reg)
{
	op_sib(e, 0, w, 0, op, reg, R15, RAX, 0);
}

void jit_atomic(struct em *e, const struct dinsn *d, int v, int rd, int resv)
{
	const int w = jit_atomic_size(d->id) == 8;
	if (d->id == INSN_LR_W || d->id == INSN_LR_D) {
		if (rd >= 0)
			mem(e, 1, w ? 0x8b : 0x63, rd);   /* mov / movsxd: lr.w sign-extends */
		op_rm(e, 1, 0x89, resv, RBX, RESV);
		return;
	}
	if (v < 0) {
		xor_zero(e, RCX);
		v = RCX;
	}
	if (d->id == INSN_SC_W || d->id == INSN_SC_D) {
		/* it succeeds at its LR's address; either way the
		 * reservation is gone, rd = 0 on success, 1 on failure */
		op_rm(e, 1, 0x3b, resv, RBX, RESV);         /* cmp resv, [resv] */
		op_rm(e, 1, 0xc7, 0, RBX, RESV);            /* mov qword [resv], -1 */
		d4(e, 0xffffffffu);
		uint8_t *fail = jcc8(e, CC_NE);
		mem(e, w, 0x89, v);
		patch8(fail, e->p);
		if (rd >= 0) {
			setcc_eax(e, CC_NE);                /* the flags are cmp's still */
			mov_rr32(e, rd, RAX);
		}
		return;
	}
	/* an AMO: rdx = the old value, rcx = the new, from rs2 */
	mem(e, w, 0x8b, RDX);
	if (v != RCX)
		mov_rr(e, RCX, v);
	switch (d->id) {
	case INSN_AMOSWAP_W: case INSN_AMOSWAP_D:
		break;
	case INSN_AMOADD_W: case INSN_AMOADD_D:
		alu_rr(e, w, G1_ADD, RCX, RDX);
		break;
	case INSN_AMOXOR_W: case INSN_AMOXOR_D:
		alu_rr(e, w, G1_XOR, RCX, RDX);
		break;
	case INSN_AMOAND_W: case INSN_AMOAND_D:
		alu_rr(e, w, G1_AND, RCX, RDX);
		break;
	case INSN_AMOOR_W: case INSN_AMOOR_D:
		alu_rr(e, w, G1_OR, RCX, RDX);
		break;
	default: {
		/* min/max: the old value stays when it is below (min) or
		 * above (max) rs2's, compared in the access's width */
		const unsigned id = d->id;
		const unsigned cc = id == INSN_AMOMIN_W || id == INSN_AMOMIN_D ? CC_L :
				    id == INSN_AMOMAX_W || id == INSN_AMOMAX_D ? CC_G :
				    id == INSN_AMOMINU_W || id == INSN_AMOMINU_D ? CC_B : CC_A;
		alu_rr(e, w, G1_CMP, RDX, RCX);
		cmov(e, w, cc, RCX, RDX);
		break;
	}
	}
	mem(e, w, 0x89, RCX);
	if (rd >= 0) {
		if (w)
			mov_rr(e, rd, RDX);
		else
			movsxd(e, rd, RDX);   /* the old word, sign-extended */
	}
}
