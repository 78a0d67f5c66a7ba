/* The translation cache (jit_cache.c) as the translator (jit.c) sees
 * it: the code buffer, the blocks and their index, the jump cache, and
 * the records counting blocks keep. Private to src/hart/jit*.c. */
#ifndef RVPMU_HART_JIT_CACHE_H
#define RVPMU_HART_JIT_CACHE_H
#include <stddef.h>
#include "jit.h"
#include "jit_models.h"
#include "retire.h"

#define CODE_BYTES  (256u << 20)
#define COLD_BYTES  (64u << 20)   /* its last part: code that seldom runs */
#define BLOCK_ROOM  (128u << 10)  /* the most one block can need */
/* the cold part's first bytes: the models' lookup subroutines, which all
 * blocks share (jm_end()), apart from any block's code */
#define SUB_ROOM    (16u << 10)
#define MAX_BLOCKS  65536
#define INDEX_SIZE  (2 * MAX_BLOCKS)
#define BLOCK_INSNS HART_JIT_INSNS
#define STATIC_INSNS (1u << 19)   /* records of counting blocks' instructions */
#define JUMP_CACHE  4096          /* entries: guest pc -> block, for jalr */
/* With the models in system mode, a block is made first with their
 * lookups and timing in C at its ways out (retire_block()): small, and
 * quick to make. After this many entries it is made again with them
 * inline (jit_promote()): most of a kernel's blocks run a few times only,
 * and the inline code is several times larger and slower to make. */
#define HOT_RUNS    16
#define DEAD        (~0u)    /* the mode of a block made again: never found */

struct jit {
	uint8_t *code, *end, *free;   /* code buffer: trampolines, then blocks */
	/* the buffer's last part (COLD_BYTES at first, then as resplit()
	 * shares it): code that seldom runs, kept apart so that the code
	 * that runs is dense in the host's caches */
	uint8_t *cold, *cold_free;
	uint8_t *enter, *leave;       /* the trampolines */
	uint32_t *runs;               /* entries left before jit_promote(), by block (in the buffer:
					 translated code counts them down RIP-relative) */
	uint8_t *blocks_start;        /* where blocks begin after them */
	uint8_t *chain_site;          /* the last exit's jump, if chainable, */
	uint64_t chain_pc;            /* and where it went */
	/* blocks entered lately by pc, which jalr's code looks up before
	 * leaving (pc ~0 = empty: a jalr target is even) */
	struct jc { uint64_t pc; uint8_t *code; uint64_t ppn; uint32_t mode; } jc[JUMP_CACHE];
	struct jit_block blocks[MAX_BLOCKS];
	uint32_t nblocks;
	uint64_t translated, flushes;  /* since jit_new */
	uint64_t inner;                /* branches blocks went on past, since jit_new */
	uint32_t largest;              /* code bytes of the largest block */
	uint64_t made;                 /* code bytes made, flushed ones too */
	/* counting blocks: their exits give the retire stream what they ran
	 * (retire_block), from records made at translation */
	uint8_t counting, classes;
	uint8_t superblocks;            /* blocks go on past branches and jumps */
	/* the mode blocks are made for and run in (jit_set_mode): the page
	 * flags an access needs, and whether data addresses are translated */
	uint32_t mode;
	uint8_t rbit, wbit;
	uint8_t paged, fpaged;          /* data, fetches translated */
	uint32_t chain_from;            /* the block whose exit chain_site is */
	const struct uarch *uarch;      /* the models they were made for */
	uint8_t coherent;               /* with other harts' (uarch->dom): stores' L1D parts in C */
	uint64_t uev;                   /* and the model events they count */
	struct retire_jblock *rb;       /* [block] */
	struct retire_jblock *prb;      /* [MAX_BLOCKS], nprb used: of inner ways out */
	uint32_t nprb;
	struct retire_rec *rec;         /* [STATIC_INSNS], nrec used */
	struct jm_hints *hints;         /* of their lookups (jit_models.h) */
	uint8_t (*ev)[3];
	uint32_t nrec;
	int32_t index[INDEX_SIZE];    /* pc hash -> block, -1 empty */
};

#define OFF(field) ((int32_t)offsetof(struct hart, field))

/* Room for one more block: when the buffer, the blocks or the counting
 * records are full, share the buffer anew and forget every block (the
 * step loop is outside all code). */
void jit_room(struct jit *j);
/* Block b, filled in, is found by jit_find() from now on. */
void jit_index(struct jit *j, const struct jit_block *b);

#endif
