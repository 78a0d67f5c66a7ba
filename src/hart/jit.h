/* Block translation to x86-64 for user and system mode (jit.c).
 *
 * A block is a run of integer instructions starting at one guest pc and
 * ending at a control transfer, an instruction the translator leaves to
 * the step loop, or the page's end; it goes on past its first UARCH_IB
 * conditional branches, whose taken way leaves it, handing back the
 * budget of the instructions after, or jumps within its first page (a
 * superblock). Its code checks and charges the
 * instruction budget at its head, so retirement counts stay exact; any
 * access the fast path cannot do (misaligned, unmapped, a code page)
 * leaves the block before that instruction, which the step loop then
 * runs. While the models or instruction-class events count, blocks are
 * counting blocks: each exit first tells the retire stream what retired
 * (retire_block). CTR and --trace keep to the step loop. */
#ifndef RVPMU_HART_JIT_H
#define RVPMU_HART_JIT_H
#include <stdint.h>
#include "rvpmu/hart.h"

struct jit_block {
	uint64_t pc;
	uint64_t pa;          /* where pc's bytes are (system mode: translated) */
	uint32_t mode;        /* the mode it was made for (jit_set_mode) */
	uint8_t *code;
	struct dinsn *slot;   /* the step loop's slot of its first instruction */
	uint32_t n;           /* instructions, all retired when it runs through */
	uint32_t exits_out;   /* exits that landed on a step-loop instruction */
	uint16_t lo, hi;      /* its instructions lie in bytes [lo, hi) of its page */
};

/* NULL when the host refuses executable memory (the step loop is used). */
struct jit *jit_new(void);
void jit_free(struct jit *j);
/* Translate the block at pc, whose bytes are at physical pa (user mode:
 * pc) and whose first instruction the step loop decoded into slot, for
 * the current mode; NULL when that instruction is not translated. With
 * the models, hot: their code inline now (else after HOT_RUNS entries). */
struct jit_block *jit_compile(struct jit *j, struct hart *h, uint64_t pc, uint64_t pa,
			      struct dinsn *slot, int hot);
/* A block left at its entry to be made again with the models inline
 * (h->jit_promote: its index + 1, cleared here; h->pc its pc): the new
 * block, which replaces it, or NULL when none was made. */
struct jit_block *jit_promote(struct jit *j, struct hart *h);
/* The block of the current mode at pc, whose bytes are at pa. */
struct jit_block *jit_find(const struct jit *j, uint64_t pc, uint64_t pa);
/* Run from block b until a block exits; h->jit_budget is the budget in
 * and out, h->pc the next pc. Returns the block that exited; *side is set
 * when it left before an access for the step loop to do. The exit's jump
 * is patched to the next block entered, when that is its target. */
struct jit_block *jit_run(struct jit *j, struct hart *h, struct jit_block *b, int *side);
/* Counting blocks (on) report what they retire to the retire stream:
 * instruction-class events (when classes) and the models u (may be NULL),
 * of whose events translated code counts those in the mask uev itself (the
 * others matter to no counter; the models' C paths count them all). Only
 * blocks made for the current mode, models and events run: a change
 * forgets every block. Classes and events only add up until the mode or
 * the models change, so that counters taking turns (multiplexing) do not
 * flush blocks at each turn. 0 when memory for counting blocks is
 * refused. */
int jit_set_counting(struct jit *j, int on, const struct uarch *u, int classes, uint64_t uev);
/* No more superblocks (they are on from jit_new()); the first call
 * forgets every block. Near a cycle stop (a sampling counter's overflow)
 * a block runs only when all of it fits the cycles left at the most
 * cycles per instruction, which a longer block does less often: the step
 * loop would run more. */
void jit_no_superblocks(struct jit *j);
/* The mode blocks are made for and run in from now on (0 in user mode,
 * the default). In system mode it names the privilege, whether fetches
 * and data are translated (paged), PMP's view of data and FP's state;
 * blocks of other modes stay but do not run. An access needs the page
 * flags rbit (loads) or wbit (stores) of struct gmem's pflags: GP_R and
 * GP_W in user mode and for M, PMP's page bits below M. With paged data
 * an access looks its page up in the hart's TLB (h->tlb, under the key
 * h->jit_dkey), as the step loop's first look does, and leaves for the
 * step loop when that misses. With paged fetches (fpaged) a block goes
 * straight to another only on its own page; to another page's, only
 * when the TLB (key h->jit_fkey) still maps that page where the block's
 * bytes are. */
void jit_set_mode(struct jit *j, uint32_t mode, uint8_t rbit, uint8_t wbit, int paged, int fpaged);
/* Forget every block; each one's slot is reset to "decode on next use". */
void jit_flush(struct jit *j);
/* Changes at each flush: a block made in another generation is gone. */
uint64_t jit_generation(const struct jit *j);
/* What it did since jit_new (struct hart_jit_stats) */
void jit_stats(const struct jit *j, struct hart_jit_stats *s);
/* Names a block's host code for perf when RVPMU_PERF_MAP is set (jit_report.c) */
void jit_perf_map(const void *hot, size_t hot_len, const void *cold, size_t cold_len, uint64_t pc,
		  int models);
/* and a lookup subroutine of the models' (jit_models.c: its cache's
 * index k in struct jm_hints, and whether it writes) */
void jit_perf_map_sub(const void *code, size_t len, unsigned k, int write);

#endif
