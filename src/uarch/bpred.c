/* Branch prediction: a direction predictor of saturating counters,
 * counter_bits wide (bimodal, or gshare: global history XOR pc), a tagged
 * set-associative LRU BTB holding the targets of taken branches and jumps,
 * an optional tagless indirect-jump target predictor, and a return-address
 * stack driven by the jal/jalr register hints.
 *
 * Prediction is judged at retirement, as if fetch had looked everything up:
 *  - branch: the counter predicts the direction; a direction miss counts
 *    UARCH_BP_DIR alone. A correctly predicted taken branch whose target is
 *    not in the BTB (or differs) counts UARCH_BP_TARGET|UARCH_BP_DECODE.
 *  - jal: the BTB supplies the target, like a taken branch.
 *  - jalr: a return (RAS pop) is predicted by the RAS (UARCH_BP_RAS when
 *    wrong or the stack is empty); any other jalr by the indirect predictor
 *    when there is one, else by the BTB (UARCH_BP_TARGET either way: an
 *    indirect target is known only at execute).
 * Counters of n bits saturate at 0 and 2^n - 1 and predict taken from the
 * midpoint 2^(n-1) up; they start weakly not-taken (2^(n-1) - 1). History,
 * BTB, indirect predictor and RAS start empty.
 *
 * Indirect predictor: indirect_entries last targets, tagless and
 * direct-mapped, indexed by ((pc >> 1) XOR global history) mod entries
 * under gshare (its history: the last hist_bits conditional outcomes) and
 * by (pc >> 1) mod entries under bimodal. A jump whose target
 * follows from the branches before it is learnt, one that only ever repeats
 * its last target is learnt too, and one whose target correlates with
 * neither keeps missing as it would in the BTB. It is trained with every
 * outcome; distinct (pc, history) pairs may alias. */
#include <stdlib.h>
#include <string.h>
#include "rvpmu/uarch.h"
#include "bpred_impl.h"

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

int uarch_bpred_init(struct uarch_bpred *b, const struct uarch_bpred_config *cfg)
{
	memset(b, 0, sizeof *b);
	b->clock = &b->own_clock;
	if (!is_pow2(cfg->pht_entries) || cfg->hist_bits > 32 ||
	    (cfg->dir != UARCH_DIR_BIMODAL && cfg->dir != UARCH_DIR_GSHARE))
		return -1;
	if (cfg->btb_sets && (!is_pow2(cfg->btb_sets) || cfg->btb_ways < 1 || cfg->btb_ways > 65536))
		return -1;
	if (cfg->ras_depth > 1024 || cfg->counter_bits > 4 || cfg->indirect_entries > (1u << 16))
		return -1;
	uint32_t cb = cfg->counter_bits ? cfg->counter_bits : 2;
	const unsigned max = (1u << cb) - 1;   /* saturated */
	b->ctr_thr = (uint8_t)(1u << (cb - 1));
	b->ctr_init = (uint8_t)(b->ctr_thr - 1);
	for (unsigned c = 0; c <= max; c++) {
		b->ctr_next[0][c] = (uint8_t)(c ? c - 1 : 0);
		b->ctr_next[1][c] = (uint8_t)(c < max ? c + 1 : c);
	}
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
		/* one array: translated code finds all three at fixed distances */
		b->btb_pc = calloc(3 * n, sizeof *b->btb_pc);
		bad |= !b->btb_pc;
		b->btb_target = b->btb_pc ? b->btb_pc + n : NULL;
		b->btb_age = b->btb_pc ? b->btb_pc + 2 * n : NULL;
	}
	b->ras_depth = cfg->ras_depth;
	if (cfg->ras_depth) {
		b->ras = calloc(cfg->ras_depth, sizeof *b->ras);
		bad |= !b->ras;
	}
	b->ind_entries = cfg->indirect_entries;
	if (cfg->indirect_entries) {
		b->ind_target = calloc(cfg->indirect_entries, sizeof *b->ind_target);
		bad |= !b->ind_target;
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
	free(b->ras);
	free(b->ind_target);
	memset(b, 0, sizeof *b);
}

void uarch_bpred_reset(struct uarch_bpred *b)
{
	memset(b->pht, b->ctr_init, (size_t)b->pht_mask + 1);
	b->ghist = 0;
	if (b->has_btb) {
		size_t n = ((size_t)b->btb_set_mask + 1) * b->btb_ways;
		memset(b->btb_pc, 0, 3 * n * sizeof *b->btb_pc);   /* and btb_target, btb_age */
	}
	/* the clock goes on: it may be shared (struct uarch_cache's) */
	b->ras_top = b->ras_count = 0;
	if (b->ind_entries)
		memset(b->ind_target, 0, (size_t)b->ind_entries * sizeof *b->ind_target);
}

/* The indirect predictor's target for pc under the current history,
 * trained with the actual target; 1 when the prediction was right. */
static int ind_predict(struct uarch_bpred *b, uint64_t pc, uint64_t target)
{
	uint32_t i = (uint32_t)(pc >> 1);
	if (b->dir == UARCH_DIR_GSHARE)
		i ^= b->ghist;
	uint64_t *e = &b->ind_target[i % b->ind_entries];
	int ok = *e == (target | 1);
	*e = target | 1;
	return ok;
}

__attribute__((cold)) int uarch_btb_search(struct uarch_bpred *b, uint32_t base, uint64_t key,
					  uint64_t target, uint8_t *hint)
{
	/* one pass for both, without a branch on the way: a key is in at
	 * most one way of its set */
	const uint64_t *pc = b->btb_pc + base, *age = b->btb_age + base;
	uint32_t hit = UINT32_MAX, v = 0;
	uint64_t oldest = UINT64_MAX;
	for (uint32_t w = 0; w < b->btb_ways; w++) {
		hit = pc[w] == key ? w : hit;
		const int older = age[w] < oldest;   /* invalid ways have age 0 */
		oldest = older ? age[w] : oldest;
		v = older ? w : v;
	}
	int ok = 0;
	if (hit != UINT32_MAX) {
		v = hit;
		ok = b->btb_target[base + v] == target;
	} else {
		b->btb_pc[base + v] = key;
	}
	*hint = (uint8_t)v;
	b->btb_target[base + v] = target;
	b->btb_age[base + v] = ++*b->clock;
	return ok;
}

int uarch_btb_predict(struct uarch_bpred *b, uint64_t pc, uint64_t target)
{
	return btb_predict(b, pc, target);
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
unsigned uarch_bpred_retire(struct uarch_bpred *b, const struct retire_rec *r, uint64_t next_pc,
			    int taken)
{
	taken = taken != 0;
	uint64_t ra = r->pc + (r->ilen ? r->ilen : 4);
	unsigned res = 0;
	switch (r->cls) {
	case UARCH_CLS_BRANCH:
		res = bpred_branch(b, r->pc, next_pc, taken);
		break;
	case UARCH_CLS_JAL:
		if (!btb_predict(b, r->pc, next_pc))
			res = UARCH_BP_TARGET | UARCH_BP_DECODE;
		if (is_link(r->rd))
			ras_push(b, ra);
		break;
	case UARCH_CLS_JALR: {
		int rdl = is_link(r->rd), rsl = is_link(r->rs1);
		if (rsl && (!rdl || r->rd != r->rs1) && b->ras_depth) {
			/* pop, or pop then push when rd and rs1 are different links */
			if (!b->ras_count || ras_pop(b) != next_pc)
				res = UARCH_BP_RAS;
		} else if (b->ind_entries ? !ind_predict(b, r->pc, next_pc)
					  : !btb_predict(b, r->pc, next_pc)) {
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
