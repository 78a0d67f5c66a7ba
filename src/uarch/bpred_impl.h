/* The predictor's per-branch path (rules: the top of bpred.c), inline so
 * that the retire stream and translated blocks predict a conditional
 * branch without a call. Private to src/uarch. */
#ifndef RVPMU_UARCH_BPRED_IMPL_H
#define RVPMU_UARCH_BPRED_IMPL_H
#include "rvpmu/uarch.h"

/* btb_predict() past the hint: the set's way holding key, else its least
 * recently used way, which takes key (a miss) */
int uarch_btb_search(struct uarch_bpred *b, uint32_t base, uint64_t key, uint64_t target,
		     uint8_t *hint);

/* The target the BTB predicts for pc, training it with the actual target;
 * 1 when the prediction was right. */
static inline __attribute__((always_inline)) int btb_predict(struct uarch_bpred *b, uint64_t pc,
							 uint64_t target)
{
	if (!b->has_btb)
		return 0;
	uint64_t key = pc | 1;
	uint32_t base = ((uint32_t)(pc >> 1) & b->btb_set_mask) * b->btb_ways;
	uint8_t *hint = &b->btb_hint[(pc >> 1) & 255];
	const uint32_t s = base + *hint;
	if (b->btb_pc[s] != key)
		return uarch_btb_search(b, base, key, target, hint);
	const int ok = b->btb_target[s] == target;
	b->btb_target[s] = target;
	b->btb_age[s] = ++*b->clock;
	return ok;
}

/* A conditional branch at pc going to next_pc, taken or not (0 or 1): its
 * UARCH_BP_* result, the counter, BTB and history trained. */
static inline __attribute__((always_inline)) unsigned bpred_branch(struct uarch_bpred *b,
								   uint64_t pc, uint64_t next_pc,
								   int taken)
{
	unsigned res = 0;
	uint32_t i = (uint32_t)(pc >> 1);
	if (b->dir == UARCH_DIR_GSHARE)
		i ^= b->ghist;
	i &= b->pht_mask;
	const uint8_t c = b->pht[i];
	if ((c >= b->ctr_thr) != taken)
		res = UARCH_BP_DIR;
	b->pht[i] = b->ctr_next[taken][c];
	if (taken && !btb_predict(b, pc, next_pc) && !res)
		res = UARCH_BP_TARGET | UARCH_BP_DECODE;
	b->ghist = ((b->ghist << 1) | (uint32_t)taken) & b->hist_mask;
	return res;
}

#endif
