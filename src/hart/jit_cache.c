/* The translation cache: the code buffer and its trampolines, the
 * blocks and their index, flushes, chaining blocks as they run, and the
 * second making of a block with the models inline (jit_promote()). The
 * translation itself is jit.c's. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "jit_cache.h"
#include "x86emit.h"

static unsigned hash(uint64_t pc) { return (unsigned)((pc >> 1) ^ (pc >> 17)) & (INDEX_SIZE - 1); }

struct jit *jit_new(void)
{
#ifndef __x86_64__
	return NULL;  /* the code generated is x86-64's */
#endif
	struct jit *j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	void *p = mmap(NULL, CODE_BYTES, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		free(j);
		return NULL;
	}
	j->code = p;
	j->end = j->code + CODE_BYTES - COLD_BYTES;
	j->cold = j->end;
	j->cold_free = j->cold + SUB_ROOM;
	j->superblocks = 1;
	/* enter(h, code, models): save what the SysV ABI says a callee
	 * keeps, then jump into the block (rbp = the models' base, for
	 * their code); leave: restore and return rax */
	struct em e = {j->code};
	static const uint8_t saved[] = {RBX, RBP, R12, R13, R14, R15};
	j->enter = e.p;
	for (unsigned i = 0; i < sizeof(saved); i++)
		push(&e, saved[i]);
	alu_ri(&e, 1, G1_SUB, RSP, 8);  /* 16-byte aligned for jit_fp_op calls */
	mov_rr(&e, RBX, RDI);
	mov_rr(&e, RBP, RDX);
	op_rm(&e, 1, 0x8b, R15, RBX, OFF(mem.base));
	b1(&e, 0xff); b1(&e, 0xe6);  /* jmp rsi */
	j->leave = e.p;
	alu_ri(&e, 1, G1_ADD, RSP, 8);
	for (unsigned i = sizeof(saved); i-- > 0;)
		pop(&e, saved[i]);
	b1(&e, 0xc3);
	/* the blocks' counters on their own lines, then the blocks */
	j->runs = (uint32_t *)(((uintptr_t)e.p + 63) & ~(uintptr_t)63);
	j->free = j->blocks_start = (uint8_t *)(j->runs + MAX_BLOCKS) + 64;
	j->rbit = GP_R;
	j->wbit = GP_W;
	memset(j->index, -1, sizeof(j->index));
	memset(j->jc, 0xff, sizeof(j->jc));
	return j;
}

void jit_stats(const struct jit *j, struct hart_jit_stats *s)
{
	s->translated = j->translated;
	s->flushes = j->flushes;
	s->inner = j->inner;
	s->largest = j->largest;
	s->room = BLOCK_ROOM;
	s->bytes = j->made;
}

void jit_free(struct jit *j)
{
	if (!j)
		return;
	munmap(j->code, CODE_BYTES);
	free(j->rb);
	free(j->prb);
	free(j->rec);
	free(j->ev);
	free(j->hints);
	free(j);
}

void jit_flush(struct jit *j)
{
	j->flushes++;
	for (uint32_t i = 0; i < j->nblocks; i++)
		j->blocks[i].slot->handler = 0;
	j->nblocks = 0;
	j->nrec = 0;
	j->nprb = 0;
	j->free = j->blocks_start;
	j->cold_free = j->cold + SUB_ROOM;
	j->chain_site = NULL;
	if (j->hints) {   /* the code of the lookups' subroutines is gone */
		memset(j->hints->sub, 0, sizeof(j->hints->sub));
		j->hints->sub_free = j->cold;
		j->hints->sub_end = j->cold + SUB_ROOM;
	}
	memset(j->index, -1, sizeof(j->index));
	memset(j->jc, 0xff, sizeof(j->jc));
}

void jit_set_mode(struct jit *j, uint32_t mode, uint8_t rbit, uint8_t wbit, int paged, int fpaged)
{
	j->mode = mode;
	j->rbit = rbit;
	j->wbit = wbit;
	j->paged = (uint8_t)paged;
	j->fpaged = (uint8_t)fpaged;
}

uint64_t jit_generation(const struct jit *j)
{
	return j->flushes;
}

struct jit_block *jit_find(const struct jit *j, uint64_t pc, uint64_t pa)
{
	for (unsigned i = hash(pc);; i = (i + 1) & (INDEX_SIZE - 1)) {
		int32_t b = j->index[i];
		if (b < 0)
			return NULL;
		const struct jit_block *k = &j->blocks[b];
		if (k->pc == pc && k->pa == pa && k->mode == j->mode)
			return (struct jit_block *)k;
	}
}

/* The buffer is full: share it between hot and cold code as the blocks
 * there did (the models' blocks have more cold code than hot, blocks
 * without them far less), so that the next fill holds as many blocks as
 * the buffer can. */
static void resplit(struct jit *j)
{
	const size_t hot = (size_t)(j->free - j->blocks_start), cold = (size_t)(j->cold_free - j->cold);
	const size_t room = (size_t)(j->code + CODE_BYTES - j->blocks_start);
	size_t at = (size_t)((double)room * (double)hot / (double)(hot + cold + 1));
	if (at < room / 8)
		at = room / 8;
	if (at > room - room / 8)
		at = room - room / 8;
	j->end = j->cold = (uint8_t *)((uintptr_t)(j->blocks_start + at) & ~(uintptr_t)4095);
}

void jit_room(struct jit *j)
{
	if (j->nblocks == MAX_BLOCKS || (size_t)(j->end - j->free) < BLOCK_ROOM ||
	    (size_t)(j->code + CODE_BYTES - j->cold_free) < BLOCK_ROOM ||
	    (j->counting && (j->nrec + BLOCK_INSNS > STATIC_INSNS || j->nprb + UARCH_IB > MAX_BLOCKS))) {
		resplit(j);
		jit_flush(j);
	}
}

void jit_index(struct jit *j, const struct jit_block *b)
{
	unsigned i = hash(b->pc);
	for (int32_t k; (k = j->index[i]) >= 0; i = (i + 1) & (INDEX_SIZE - 1)) {
		const struct jit_block *o = &j->blocks[k];
		if (o->mode == DEAD && o->pc == b->pc && o->pa == b->pa)
			break;   /* made again (jit_promote()): in its place */
	}
	j->index[i] = (int32_t)(b - j->blocks);
}

struct jit_block *jit_promote(struct jit *j, struct hart *h)
{
	const uint32_t i = h->jit_promote - 1;
	h->jit_promote = 0;
	if (i >= j->nblocks || j->blocks[i].pc != h->pc || j->blocks[i].mode != j->mode)
		return NULL;
	struct jit_block *old = &j->blocks[i];
	const uint64_t flushes = j->flushes;
	/* the old one is found no more: the new one takes its index entry
	 * (jit_index()), so that lookups stay as short as they were */
	old->mode = DEAD;
	struct jit_block *b = jit_compile(j, h, old->pc, old->pa, old->slot, 1);
	if (!b && j->flushes == flushes)
		old->mode = j->mode;
	if (b && j->flushes == flushes) {
		/* what still jumps to the old one (chained exits, the jump
		 * cache) goes on to the new one */
		uint8_t *p = old->code;
		*p++ = 0xe9;   /* jmp rel32 */
		patch32(p, b->code);
	}
	return b;
}

struct jit_block *jit_run(struct jit *j, struct hart *h, struct jit_block *b, int *side)
{
	/* the last exit went to b's pc and can go straight there from now on:
	 * from a block of b's mode, and with paging from b's page (whose
	 * translation it was entered under) */
	const struct jit_block *from = &j->blocks[j->chain_from];
	if (j->chain_site && j->chain_pc == b->pc && from->mode == b->mode &&
	    (!j->fpaged || ((from->pc ^ b->pc) >> GPAGE_SHIFT == 0 &&
			   (from->pa ^ b->pa) >> GPAGE_SHIFT == 0)))
		patch32(j->chain_site, b->code);
	struct jc *c = &j->jc[(b->pc >> 1) & (JUMP_CACHE - 1)];   /* for jump_cached() */
	c->pc = b->pc;
	c->code = b->code;
	c->ppn = b->pa >> GPAGE_SHIFT;
	c->mode = b->mode;
	void *(*enter)(struct hart *, uint8_t *, uintptr_t) =
		(void *(*)(struct hart *, uint8_t *, uintptr_t))(void *)j->enter;
	j->chain_site = enter(h, b->code, j->uarch ? jm_base(j->uarch) : 0);
	j->chain_pc = h->pc;
	j->chain_from = h->jit_last & 0x7fffffff;
	*side = (int)(h->jit_last >> 31);
	return &j->blocks[h->jit_last & 0x7fffffff];
}

void jit_no_superblocks(struct jit *j)
{
	if (j->superblocks) {
		jit_flush(j);   /* superblocks must not run */
		j->superblocks = 0;
	}
}

int jit_set_counting(struct jit *j, int on, const struct uarch *u, int classes, uint64_t uev)
{
	on = !!on;
	classes = on && classes;
	if (!on || !u) {
		u = NULL;
		uev = 0;
	}
	/* the models' hit paths are made for a hart alone or among others */
	if (on == j->counting && u == j->uarch && (u && u->dom) == j->coherent) {
		classes |= j->classes;
		uev |= j->uev;
		if (classes == j->classes && uev == j->uev)
			return 1;
	}
	if (on && !j->rb) {
		j->rb = calloc(MAX_BLOCKS, sizeof(*j->rb));
		j->prb = calloc(MAX_BLOCKS, sizeof(*j->prb));
		j->rec = calloc(STATIC_INSNS, sizeof(*j->rec));
		j->ev = calloc(STATIC_INSNS, sizeof(*j->ev));
		j->hints = malloc(sizeof(*j->hints));
		if (!j->rb || !j->prb || !j->rec || !j->ev || !j->hints) {
			free(j->rb);
			free(j->prb);
			j->prb = NULL;
			free(j->rec);
			free(j->ev);
			free(j->hints);
			j->rb = NULL;
			j->rec = NULL;
			j->ev = NULL;
			j->hints = NULL;
			return 0;
		}
	}
	if (j->hints)   /* slots of these models' caches only */
		memset(j->hints, 0, sizeof(*j->hints));
	jit_flush(j);   /* blocks of the other kind must not run */
	j->counting = (uint8_t)on;
	j->classes = (uint8_t)classes;
	j->uarch = u;
	j->coherent = u && u->dom;
	j->uev = uev;
	return 1;
}
