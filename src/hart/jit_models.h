/* The models' hit paths in translated code (jit_models.c), for jit.c. */
#ifndef RVPMU_HART_JIT_MODELS_H
#define RVPMU_HART_JIT_MODELS_H
#include "rvpmu/uarch.h"
#include "x86emit.h"

/* Where each lookup of a one-set cache (a TLB) found its line last time,
 * by cache (itlb, l1i, dtlb, l1d) and lookup site: a guess, checked
 * against the tag, so that a site keeps hitting its own page inline
 * whatever pages other sites touch in between. Sites take entries in
 * turn and share them when there are more; each entry is always a slot
 * of its cache (0 until a lookup finds one). */
#define JM_HINTS 16384
struct jm_hints {
	uint32_t slot[4][JM_HINTS];
	uint32_t next;
	/* the lookups' subroutines (lookup_sub()), by cache and whether
	 * they write; emitted once for all blocks, NULL after a flush, from
	 * sub_free on up to sub_end (a region of their own) */
	uint8_t *sub[4][2];
	uint8_t *sub_free, *sub_end;
};

/* an out-of-line path: the rest of a cache or TLB lookup */
struct jm_stub {
	uint8_t *at;           /* the displacement of the jump to it */
	uint8_t *hit;          /* where a hit goes on (to count it) */
	uint8_t *back;         /* where it goes on after uarch_block_slow() */
	int32_t cache;         /* the cache's offset in struct uarch */
	uint64_t line;         /* its line, or ~0: the key (line + 1) is in rcx */
	unsigned k;            /* the cache's index in struct jm_hints */
	uint8_t write;         /* a store */
	uint32_t part;         /* uarch_block_slow()'s at */
	uint32_t *hint;        /* one set: the site's hint */
	uint32_t stamp;        /* its LRU stamp's number (jit_models.c) */
};

/* a BTB lookup's way out of line (jm_btb_stub(), jit_predict.c) and back */
struct jm_btb_site {
	uint8_t *at[2];        /* the displacements of the jumps to it (at[1] may be NULL) */
	uint8_t *back;         /* where a right prediction goes on */
	uint8_t *after;        /* where a wrong one goes on */
	uint64_t pc, target;
	int kind, ib;          /* enum jm_btb in jit_predict.c; ib as jm_jal()'s */
	uint32_t stamp;        /* as struct jm_stub's */
};

/* One block's models' code being emitted */
struct jm {
	struct em *e;          /* where it emits: hot, or when out of line cold */
	struct em *hot, *cold;
	const struct uarch *u;
	uint64_t uev;          /* the model events to count (a mask) */
	struct uarch_block *ub;
	struct jm_hints *hints;
	uint64_t page;         /* its first fetch's ITLB line */
	int bare;              /* its addresses untranslated: no TLB lookups */
	uint64_t cross;        /* instructions whose access may cross an L1D line
				  (set before jm_begin(): h->jit_xmask says when one did) */
	uint32_t nstamp, nstamp0;   /* LRU stamp numbers taken, and by jm_begin()'s code */
	unsigned nlook;        /* its lookups' out-of-line paths */
	struct jm_stub look[2 * 3 * 64];
	/* the way out being emitted */
	uint64_t next;         /* where it goes, unless next_in_pc (h->pc holds it) */
	int next_in_pc, taken;
	uint8_t *cont;         /* the code after the models' */
	uint8_t *resume_at;    /* its jump past the inline timing checks */
	uint8_t *xc1_at;       /* the disp32 of their load of &xc[1] */
	const struct uarch_xc *xc;   /* its records of runs without a miss */
	const struct uarch_xm *xm;   /* its records of runs with one or two misses */
	/* BTB lookups: the block's jumps before its last (nbtb0 of them,
	 * jm_begin()'s), then the way out's */
	struct jm_btb_site btb[UARCH_IB + 1];
	unsigned nbtb, nbtb0;
};

/* What rbp holds for the models' code of models u (from translated code's
 * entry on) */
uintptr_t jm_base(const struct uarch *u);
/* Whether translated code can do the hit paths of block ub for models u */
int jm_ok(const struct uarch *u, const struct uarch_block *ub);
/* Block ub ran whole (all guest registers written back; rbx is the hart,
 * r15 guest memory, the others free): the models look its fetch blocks
 * and data accesses up, counting the model events in uev (UARCH_EV_CYCLES
 * always), with hints from and for hints. Its ways out follow and share
 * this. */
void jm_begin(struct jm *m, struct em *e, struct em *cold, const struct uarch *u, uint64_t uev,
	      struct uarch_block *ub, struct jm_hints *hints);
/* A way out to next (in h->pc when next_in_pc), taken for a taken branch:
 * the rest of retiring the block (the predictor and the timing). */
void jm_exit(struct jm *m, uint64_t next, int next_in_pc, int taken);
/* The way out's out-of-line code, once its own code has ended with a
 * jump (anywhere not reached by falling through). */
void jm_exit_stubs(struct jm *m);
/* The lookups' out-of-line code, once all of the block's is emitted. */
void jm_end(struct jm *m);

#endif
