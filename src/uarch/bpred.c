/* Branch prediction: a 2-bit-counter direction predictor (bimodal, or
 * gshare: global history XOR pc), a tagged set-associative LRU BTB holding
 * the targets of taken branches and jumps, and a return-address stack
 * driven by the jal/jalr register hints.
 *
 * Prediction is judged at retirement, as if fetch had looked everything up:
 *  - branch: the counter predicts the direction; a direction miss counts
 *    UARCH_BP_DIR alone. A correctly predicted taken branch whose target is
 *    not in the BTB (or differs) counts UARCH_BP_TARGET|UARCH_BP_DECODE.
 *  - jal: the BTB supplies the target, like a taken branch.
 *  - jalr: a return (RAS pop) is predicted by the RAS (UARCH_BP_RAS when
 *    wrong or the stack is empty); any other jalr by the BTB (UARCH_BP_TARGET,
 *    an indirect target known only at execute).
 * Counters start weakly not-taken (1); history, BTB and RAS start empty. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

int uarch_bpred_init(struct uarch_bpred *b, const struct uarch_bpred_config *cfg)
{
	memset(b, 0, sizeof *b);
	if (!is_pow2(cfg->pht_entries) || cfg->hist_bits > 32 ||
	    (cfg->dir != UARCH_DIR_BIMODAL && cfg->dir != UARCH_DIR_GSHARE))
		return -1;
	if (cfg->btb_sets && (!is_pow2(cfg->btb_sets) || cfg->btb_ways < 1 || cfg->btb_ways > 64))
		return -1;
	if (cfg->ras_depth > 1024)
		return -1;
	b->dir = cfg->dir;
	b->pht_mask = cfg->pht_entries - 1;
	b->hist_mask = cfg->hist_bits >= 32 ? UINT32_MAX : (UINT32_C(1) << cfg->hist_bits) - 1;
	b->pht = malloc(cfg->pht_entries);
	int bad = !b->pht;
	if (cfg->btb_sets) {
		size_t n = (size_t)cfg->btb_sets * cfg->btb_ways;
		b->has_btb = 1;
		b->btb_set_mask = cfg->btb_sets - 1;
		b->btb_ways = cfg->btb_ways;
		b->btb_pc = calloc(n, sizeof *b->btb_pc);
		b->btb_target = calloc(n, sizeof *b->btb_target);
		b->btb_age = calloc(n, sizeof *b->btb_age);
		bad |= !b->btb_pc || !b->btb_target || !b->btb_age;
	}
	b->ras_depth = cfg->ras_depth;
	if (cfg->ras_depth) {
		b->ras = calloc(cfg->ras_depth, sizeof *b->ras);
		bad |= !b->ras;
	}
	if (bad) {
		uarch_bpred_free(b);
		return -1;
	}
	uarch_bpred_reset(b);
	return 0;
}

void uarch_bpred_free(struct uarch_bpred *b)
{
	free(b->pht);
	free(b->btb_pc);
	free(b->btb_target);
	free(b->btb_age);
	free(b->ras);
	memset(b, 0, sizeof *b);
}

void uarch_bpred_reset(struct uarch_bpred *b)
{
	memset(b->pht, 1, (size_t)b->pht_mask + 1);
	b->ghist = 0;
	if (b->has_btb) {
		size_t n = ((size_t)b->btb_set_mask + 1) * b->btb_ways;
		memset(b->btb_pc, 0, n * sizeof *b->btb_pc);
		memset(b->btb_target, 0, n * sizeof *b->btb_target);
		memset(b->btb_age, 0, n * sizeof *b->btb_age);
	}
	b->clock = 0;
	b->ras_top = b->ras_count = 0;
}

/* The target the BTB predicts for pc, training it with the actual target;
 * 1 when the prediction was right. */
static int btb_predict(struct uarch_bpred *b, uint64_t pc, uint64_t target)
{
	if (!b->has_btb)
		return 0;
	uint64_t key = pc | 1;
	uint32_t base = ((uint32_t)(pc >> 1) & b->btb_set_mask) * b->btb_ways, w, v = 0;
	uint64_t oldest = UINT64_MAX;
	for (w = 0; w < b->btb_ways; w++) {
		uint32_t s = base + w;
		if (b->btb_pc[s] == key) {
			int ok = b->btb_target[s] == target;
			b->btb_target[s] = target;
			b->btb_age[s] = ++b->clock;
			return ok;
		}
		if (b->btb_age[s] < oldest)     /* invalid entries have age 0 */
			oldest = b->btb_age[s], v = w;
	}
	b->btb_pc[base + v] = key;
	b->btb_target[base + v] = target;
	b->btb_age[base + v] = ++b->clock;
	return 0;
}

static void ras_push(struct uarch_bpred *b, uint64_t ra)
{
	if (!b->ras_depth)
		return;
	b->ras[b->ras_top] = ra;
	b->ras_top = b->ras_top + 1 == b->ras_depth ? 0 : b->ras_top + 1;
	if (b->ras_count < b->ras_depth)
		b->ras_count++;     /* on overflow the oldest entry is overwritten */
}

/* only when ras_count > 0 */
static uint64_t ras_pop(struct uarch_bpred *b)
{
	b->ras_count--;
	b->ras_top = b->ras_top ? b->ras_top - 1 : b->ras_depth - 1;
	return b->ras[b->ras_top];
}

static int is_link(uint8_t r) { return r == 1 || r == 5; }

/* Unprivileged ISA 2.5.1 "Unconditional Jumps", table "Return-address stack
 * prediction hints encoded in the register operands of a JALR instruction". */
unsigned uarch_bpred_retire(struct uarch_bpred *b, const struct retire_rec *r)
{
	uint64_t ra = r->pc + (r->ilen ? r->ilen : 4);
	unsigned res = 0;
	switch (r->cls) {
	case UARCH_CLS_BRANCH: {
		uint32_t i = (uint32_t)(r->pc >> 1);
		if (b->dir == UARCH_DIR_GSHARE)
			i ^= b->ghist;
		i &= b->pht_mask;
		uint8_t c = b->pht[i];
		int taken = r->taken != 0;
		if ((c >= 2) != taken)
			res = UARCH_BP_DIR;
		if (taken) {
			b->pht[i] = c < 3 ? c + 1 : 3;
			if (!btb_predict(b, r->pc, r->next_pc) && !res)
				res = UARCH_BP_TARGET | UARCH_BP_DECODE;
		} else {
			b->pht[i] = c ? c - 1 : 0;
		}
		b->ghist = ((b->ghist << 1) | (uint32_t)taken) & b->hist_mask;
		break;
	}
	case UARCH_CLS_JAL:
		if (!btb_predict(b, r->pc, r->next_pc))
			res = UARCH_BP_TARGET | UARCH_BP_DECODE;
		if (is_link(r->rd))
			ras_push(b, ra);
		break;
	case UARCH_CLS_JALR: {
		int rdl = is_link(r->rd), rsl = is_link(r->rs1);
		if (rsl && (!rdl || r->rd != r->rs1) && b->ras_depth) {
			/* pop, or pop then push when rd and rs1 are different links */
			if (!b->ras_count || ras_pop(b) != r->next_pc)
				res = UARCH_BP_RAS;
		} else if (!btb_predict(b, r->pc, r->next_pc)) {
			res = UARCH_BP_TARGET;
		}
		if (rdl)
			ras_push(b, ra);
		break;
	}
	default:
		break;
	}
	return res;
}
