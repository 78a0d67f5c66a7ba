/* The models' branch predictor in translated code (jit_models.c has the
 * rest): a way out's conditional branch, jal or jalr, and the branches
 * and jumps a block went on past, predicted and trained inline as
 * bpred_branch() and uarch_bpred_retire() do when the BTB way a site's
 * hint names holds the branch; anything else through
 * uarch_btb_predict() out of line. A misprediction leaves its penalty
 * in r14d (the block's last) or its bit in r13d (one before it). */
#include "jit_models_emit.h"

/* The predictor was wrong with result bp: r14d = its penalty, its event
 * counted. */
static void wrong(struct jm *m, unsigned bp, unsigned ev)
{
	mov_ri(m->e, R14, uarch_timing_penalty(&m->u->tm, bp));
	jm_count(m, ev, -1);
}

/* wrong() when register w (set to 0 or 1) is 1, without a branch (the
 * host would mispredict it as often as the model does); at most one of
 * them is 1 for a control transfer. The first of them sets r14d, so
 * needs no jm_right(); the others add to it. */
static void wrong_if(struct jm *m, int w, unsigned bp, unsigned ev, int first)
{
	struct em *e = m->e;
	const uint32_t pen = uarch_timing_penalty(&m->u->tm, bp);
	if (pen == 1) {
		if (first)
			mov_rr32(e, R14, w);
		else
			alu_rr(e, 0, G1_ADD, R14, w);
	} else if (first && (pen == 3 || pen == 5 || pen == 9)) {   /* lea r14d, [w + w * (pen - 1)] */
		op_mem(e, 0, 0, 0, 0x8d, R14, w, w, pen == 3 ? 1 : pen == 5 ? 2 : 3, 0);
	} else {
		op_rr(e, 0, 0x69, first ? R14 : R11, w);   /* imul r, w, pen */
		d4(e, pen);
		if (!first)
			alu_rr(e, 0, G1_ADD, R14, R11);
	}
	if (m->uev >> ev & 1)
		op_mem(e, 0, 1, 0, 0x01, w, MB, -1, 0, EV(ev));   /* add [ev], w */
}

/* wrong_if() for a branch or jump ib before the block's last (see
 * jm_branch()): no penalty, which its timing has, but bit
 * UARCH_IB_SHIFT + ib of r13d = register w (0 or 1, clobbered) */
static void wrong_ib(struct jm *m, int w, unsigned ev, int ib)
{
	struct em *e = m->e;
	if (m->uev >> ev & 1)
		op_mem(e, 0, 1, 0, 0x01, w, MB, -1, 0, EV(ev));   /* add [ev], w */
	shift_ri(e, 0, SH_SHL, w, UARCH_IB_SHIFT + (unsigned)ib);
	if (ib)
		alu_rr(e, 0, G1_OR, R13, w);
	else
		mov_rr32(e, R13, w);
}

/* What a BTB lookup that was not right leads to (jm_btb_stub()) */
enum jm_btb {
	BTB_DYN,      /* a jalr's target, in r10: r9d = whether it was right */
	BTB_BRANCH,   /* the block's last branch, taken, the direction's wrong in r8d */
	BTB_JAL,      /* a jal, ib as jm_jal()'s */
};

/* btb_predict() for pc going to target (or, kind BTB_DYN, to the target
 * in r10), then trained: inline when the way pc's hint names holds pc
 * with that target (BTB_DYN: holds pc), a right prediction; else
 * uarch_btb_predict() (jm_btb_stub()). The caller emits what a right one
 * does, then btb_after(). */
static void btb(struct jm *m, uint64_t pc, uint64_t target, enum jm_btb kind, int ib)
{
	const struct uarch_bpred *b = &m->u->bp;
	struct em *e = m->e;
	const uint32_t pci = (uint32_t)(pc >> 1);
	const int32_t way0 = (int32_t)((pci & b->btb_set_mask) * b->btb_ways * 8);
	/* btb_target and btb_age follow btb_pc at this distance (jm_ok()) */
	const int32_t n8 = (int32_t)((b->btb_set_mask + 1) * b->btb_ways * 8);
	op_mem(e, 0, 0, 1, 0xb6, RSI, MB, -1, 0, U(bp.btb_hint) + (int32_t)(pci & 255));
	int base;
	const int32_t at = jm_arr(m, b->btb_pc, 3 * (size_t)n8, U(bp.btb_pc), RDI, &base) + way0;
	if ((pc | 1) == (uint64_t)(int32_t)(pc | 1)) {
		op_mem(e, 0, 1, 0, 0x81, G1_CMP, base, RSI, 3, at);
		d4(e, (uint32_t)(pc | 1));
	} else {
		mov_ri(e, RAX, pc | 1);
		op_mem(e, 0, 1, 0, 0x3b, RAX, base, RSI, 3, at);
	}
	struct jm_btb_site *s = &m->btb[m->nbtb++];
	s->pc = pc;
	s->target = target;
	s->kind = kind;
	s->ib = ib;
	s->at[0] = jcc32(e, CC_NE);
	s->at[1] = NULL;
	if (kind == BTB_DYN) {
		xor_zero(e, R9);
		op_mem(e, 0, 1, 0, 0x3b, R10, base, RSI, 3, at + n8);
		b1(e, 0x41); b1(e, 0x0f); b1(e, 0x94); b1(e, 0xc1);   /* sete r9b */
		op_mem(e, 0, 1, 0, 0x89, R10, base, RSI, 3, at + n8);
	} else {   /* the same target is right, and left as it is */
		if (target == (uint64_t)(int32_t)target) {
			op_mem(e, 0, 1, 0, 0x81, G1_CMP, base, RSI, 3, at + n8);
			d4(e, (uint32_t)target);
		} else {
			mov_ri(e, RAX, target);
			op_mem(e, 0, 1, 0, 0x3b, RAX, base, RSI, 3, at + n8);
		}
		s->at[1] = jcc32(e, CC_NE);
	}
	s->stamp = ++m->nstamp;
	op_mem(e, 0, 1, 0, 0x8d, RAX, BASE, -1, 0, (int32_t)s->stamp);   /* lea rax, [base + stamp] */
	op_mem(e, 0, 1, 0, 0x89, RAX, base, RSI, 3, at + 2 * n8);
	s->back = e->p;
	s->after = e->p;
}

/* where the stub of the last btb() goes on after a wrong prediction:
 * past what the caller emitted for a right one (else right after it) */
static void btb_after(struct jm *m)
{
	m->btb[m->nbtb - 1].after = m->e->p;
}

/* btb() i's out-of-line path: uarch_btb_predict() in C (keeping r8d),
 * then back when it was right, else what its kind does when wrong */
void jm_btb_stub(struct jm *m, unsigned i)
{
	struct em *e = m->e;
	const struct jm_btb_site *s = &m->btb[i];
	for (unsigned k = 0; k < 2; k++)
		if (s->at[k])
			patch32(s->at[k], e->p);
	jm_stamp_sync(m, s->stamp, 0);
	push(e, R8);
	push(e, R8);   /* rsp stays aligned for the call */
	op_mem(e, 0, 1, 0, 0x8d, RDI, MB, -1, 0, U(bp));   /* lea rdi, [rbp+bp] */
	mov_ri(e, RSI, s->pc);
	if (s->kind == BTB_DYN)
		mov_rr(e, RDX, R10);
	else
		mov_ri(e, RDX, s->target);
	mov_ri(e, RAX, (uint64_t)(uintptr_t)uarch_btb_predict);
	b1(e, 0xff); b1(e, 0xd0);                             /* call rax */
	pop(e, R8);
	pop(e, R8);
	jm_stamp_sync(m, s->stamp, 1);
	if (s->kind == BTB_DYN) {
		mov_rr32(e, R9, RAX);
		patch32(jmp32(e), s->back);
		return;
	}
	alu_rr(e, 0, G1_AND, RAX, RAX);
	patch32(jcc32(e, CC_NE), s->back);
	if (s->kind == BTB_BRANCH) {   /* right, but a direct target the BTB did not give: fixed at decode */
		mov_rr32(e, R9, R8);
		alu_ri(e, 0, G1_XOR, R9, 1);
		wrong_if(m, R9, UARCH_BP_TARGET | UARCH_BP_DECODE, UARCH_EV_BRANCH_TARGET_MISPREDICT, 0);
	} else if (s->ib >= 0) {
		mov_ri(e, R9, 1);
		wrong_ib(m, R9, UARCH_EV_BRANCH_TARGET_MISPREDICT, s->ib);
	} else {
		wrong(m, UARCH_BP_TARGET | UARCH_BP_DECODE, UARCH_EV_BRANCH_TARGET_MISPREDICT);
	}
	patch32(jmp32(e), s->after);
}

/* The redirect penalty the predictor leaves, in r14d (see wrong()): none
 * yet. */
void jm_right(struct em *e)
{
	xor_zero(e, R14);
}

/* bpred_branch() for the block's conditional branch r going to next:
 * its last instruction (ib < 0), or the one before it, not taken, that
 * is its branch ib (struct uarch_block), whose wrong direction goes to
 * r13d's bit UARCH_IB_SHIFT + ib. */
void jm_branch(struct jm *m, const struct retire_rec *r, uint64_t next, int taken, int ib)
{
	const struct uarch_bpred *b = &m->u->bp;
	struct em *e = m->e;
	const uint32_t pci = (uint32_t)(r->pc >> 1);
	/* eax = the counter's index, cl = the counter (rdx = the table when
	 * it is not near rbp); the history (r11d) takes the outcome */
	op_mem(e, 0, 0, 0, 0x8b, R11, MB, -1, 0, U(bp.ghist));
	if (b->dir == UARCH_DIR_GSHARE) {   /* a history within the mask needs none */
		mov_rr32(e, RAX, R11);
		if (b->hist_mask & ~b->pht_mask) {
			alu_ri(e, 0, G1_XOR, RAX, (int32_t)pci);
			alu_ri(e, 0, G1_AND, RAX, (int32_t)b->pht_mask);
		} else {
			alu_ri(e, 0, G1_XOR, RAX, (int32_t)(pci & b->pht_mask));
		}
	} else {
		mov_ri(e, RAX, pci & b->pht_mask);
	}
	op_mem(e, 0, 0, 0, 0x8d, R11, R11, R11, 0, taken);   /* lea r11d, [r11 + r11 + taken] */
	if (b->hist_mask != UINT32_MAX)
		alu_ri(e, 0, G1_AND, R11, (int32_t)b->hist_mask);
	int pht;
	const int32_t dp = jm_arr(m, b->pht, (size_t)b->pht_mask + 1, U(bp.pht), RDX, &pht);
	op_mem(e, 0, 0, 1, 0xb6, RCX, pht, RAX, 0, dp);       /* movzx ecx, byte [pht+rax] */
	op_mem(e, 0, 0, 0, 0x89, R11, MB, -1, 0, U(bp.ghist));
	/* r8d = the direction was wrong: the counter's top bit (ctr_thr) is
	 * the prediction (by ALU, not a table: the penalty it leads to is on
	 * the timing state's chain from one way out to the next) */
	if (taken) {
		xor_zero(e, R8);
		b1(e, 0x80); b1(e, 0xf9); b1(e, b->ctr_thr);  /* cmp cl, thr */
		setcc(e, CC_B, R8);
	} else {
		mov_rr32(e, R8, RCX);
		if (b->ctr_thr > 1)
			shift_ri(e, 0, SH_SHR, R8, (unsigned)__builtin_ctz(b->ctr_thr));
	}
	if (ib < 0)
		wrong_if(m, R8, UARCH_BP_DIR, UARCH_EV_BRANCH_DIR_MISPREDICT, 1);
	else
		wrong_ib(m, R8, UARCH_EV_BRANCH_DIR_MISPREDICT, ib);
	/* the counter saturates towards the outcome */
	op_mem(e, 0, 0, 1, 0xb6, RCX, MB, RCX, 0, U(bp.ctr_next[taken]));   /* movzx ecx, byte */
	op_mem(e, 0, 0, 0, 0x88, RCX, pht, RAX, 0, dp);       /* mov [pht+rax], cl */
	if (!taken)
		return;
	/* right, but a direct target the BTB did not give: fixed at decode */
	if (b->has_btb) {
		btb(m, r->pc, next, BTB_BRANCH, -1);   /* right: nothing to do */
	} else {
		mov_rr32(e, R9, R8);
		alu_ri(e, 0, G1_XOR, R9, 1);
		wrong_if(m, R9, UARCH_BP_TARGET | UARCH_BP_DECODE, UARCH_EV_BRANCH_TARGET_MISPREDICT, 0);
	}
}

static int is_link(unsigned r) { return r == 1 || r == 5; }

/* ras_push() of ra */
static void ras_push(struct jm *m, uint64_t ra)
{
	const struct uarch_bpred *b = &m->u->bp;
	struct em *e = m->e;
	if (!b->ras_depth)
		return;
	op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, U(bp.ras_top));
	int rb;
	const int32_t d = jm_arr(m, b->ras, b->ras_depth * sizeof(*b->ras), U(bp.ras), RDX, &rb);
	mov_ri(e, RCX, ra);
	op_mem(e, 0, 1, 0, 0x89, RCX, rb, RAX, 3, d);
	alu_ri(e, 0, G1_ADD, RAX, 1);
	xor_zero(e, RCX);
	alu_ri(e, 0, G1_CMP, RAX, (int32_t)b->ras_depth);
	op0f_rr(e, 0, 0x44, RAX, RCX);                        /* cmove eax, ecx */
	op_mem(e, 0, 0, 0, 0x89, RAX, MB, -1, 0, U(bp.ras_top));
	op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, U(bp.ras_count));
	alu_ri(e, 0, G1_CMP, RAX, (int32_t)b->ras_depth);     /* CF while not full */
	b1(e, 0x83); b1(e, 0xd0); b1(e, 0);                   /* adc eax, 0 */
	op_mem(e, 0, 0, 0, 0x89, RAX, MB, -1, 0, U(bp.ras_count));
}

/* uarch_bpred_retire() for a jal r to next: the block's last (ib < 0)
 * or its jump ib before that (as jm_branch()'s) */
void jm_jal(struct jm *m, const struct retire_rec *r, uint64_t next, int ib)
{
	struct em *e = m->e;
	if (m->u->bp.has_btb) {
		btb(m, r->pc, next, BTB_JAL, ib);
		if (ib < 0)
			jm_right(e);
		else if (!ib)   /* the first sets r13d (wrong_ib()) */
			xor_zero(e, R13);
		btb_after(m);
	} else if (ib >= 0) {   /* always wrong */
		mov_ri(e, R9, 1);
		wrong_ib(m, R9, UARCH_EV_BRANCH_TARGET_MISPREDICT, ib);
	} else {
		wrong(m, UARCH_BP_TARGET | UARCH_BP_DECODE, UARCH_EV_BRANCH_TARGET_MISPREDICT);
	}
	if (is_link(r->rd))
		ras_push(m, r->pc + (r->ilen ? r->ilen : 4));
}

/* uarch_bpred_retire() for a jalr r, its target in h->pc */
void jm_jalr(struct jm *m, const struct retire_rec *r)
{
	const struct uarch_bpred *b = &m->u->bp;
	struct em *e = m->e;
	const int rdl = is_link(r->rd), rsl = is_link(r->rs1);
	op_mem(e, 0, 1, 0, 0x8b, R10, RBX, -1, 0, HART(pc));
	if (rsl && (!rdl || r->rd != r->rs1) && b->ras_depth) {   /* a return: the RAS pops */
		op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, U(bp.ras_count));
		alu_rr(e, 0, G1_AND, RAX, RAX);
		uint8_t *empty = jcc8(e, CC_E);
		alu_ri(e, 0, G1_SUB, RAX, 1);
		op_mem(e, 0, 0, 0, 0x89, RAX, MB, -1, 0, U(bp.ras_count));
		op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, U(bp.ras_top));
		mov_ri(e, RCX, b->ras_depth - 1);
		alu_ri(e, 0, G1_SUB, RAX, 1);
		op0f_rr(e, 0, 0x42, RAX, RCX);                /* cmovb eax, ecx: from 0 round */
		op_mem(e, 0, 0, 0, 0x89, RAX, MB, -1, 0, U(bp.ras_top));
		int rb;
		const int32_t d = jm_arr(m, b->ras, b->ras_depth * sizeof(*b->ras), U(bp.ras), RDX, &rb);
		xor_zero(e, R8);
		op_mem(e, 0, 1, 0, 0x3b, R10, rb, RAX, 3, d);
		setcc(e, CC_NE, R8);
		wrong_if(m, R8, UARCH_BP_RAS, UARCH_EV_RAS_MISPREDICT, 1);
		uint8_t *done = jmp8(e);
		patch8(empty, e->p);
		wrong(m, UARCH_BP_RAS, UARCH_EV_RAS_MISPREDICT);
		patch8(done, e->p);
	} else if (b->ind_entries) {   /* ind_predict() */
		if (b->dir == UARCH_DIR_GSHARE) {
			op_mem(e, 0, 0, 0, 0x8b, RAX, MB, -1, 0, U(bp.ghist));
			alu_ri(e, 0, G1_XOR, RAX, (int32_t)(uint32_t)(r->pc >> 1));
		} else {
			mov_ri(e, RAX, (uint32_t)(r->pc >> 1));
		}
		alu_ri(e, 0, G1_AND, RAX, (int32_t)(b->ind_entries - 1));  /* jm_ok(): a power of two */
		int ib;
		const int32_t d = jm_arr(m, b->ind_target, b->ind_entries * sizeof(*b->ind_target),
				      U(bp.ind_target), RDX, &ib);
		mov_rr(e, RCX, R10);
		alu_ri(e, 1, G1_OR, RCX, 1);
		xor_zero(e, R8);
		op_mem(e, 0, 1, 0, 0x3b, RCX, ib, RAX, 3, d);
		setcc(e, CC_NE, R8);
		op_mem(e, 0, 1, 0, 0x89, RCX, ib, RAX, 3, d);
		wrong_if(m, R8, UARCH_BP_TARGET, UARCH_EV_BRANCH_TARGET_MISPREDICT, 1);
	} else if (b->has_btb) {
		btb(m, r->pc, 0, BTB_DYN, -1);
		alu_ri(e, 0, G1_XOR, R9, 1);
		wrong_if(m, R9, UARCH_BP_TARGET, UARCH_EV_BRANCH_TARGET_MISPREDICT, 1);
	} else {
		wrong(m, UARCH_BP_TARGET, UARCH_EV_BRANCH_TARGET_MISPREDICT);
	}
	if (rdl)
		ras_push(m, r->pc + (r->ilen ? r->ilen : 4));
}
