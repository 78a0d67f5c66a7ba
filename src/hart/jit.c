/* Block translation to x86-64 (see jit.h). Guest registers live in
 * h->x; within a block up to ten of them are kept in host registers and
 * written back at every exit. Generated code runs with rbx = the hart
 * and r15 = guest memory's host base; rax, rcx and rdx are scratch. It
 * is the hart's own: it also holds the hart's address (store_rax()). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "jit_cache.h"
#include "jit_models.h"
#include "jit_ops.h"
#include "mmu.h"
#include "retire.h"
#include "x86emit.h"

#define XREG(r) ((int32_t)(offsetof(struct hart, x) + 8 * (size_t)(r)))
#define FREG(r) ((int32_t)(offsetof(struct hart, f) + 8 * (size_t)(r)))

/* Host registers that hold guest registers (none is rax/rcx/rdx/rbx/rsp/r15);
 * with the models, all but the first: rbp holds the models' base */
#define NPOOL 10
static const uint8_t pool[NPOOL] = {RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14};

struct regs {
	int8_t in[NPOOL];      /* guest register in each pool register, -1 none */
	int8_t at[32];         /* pool index of each guest register, -1 none */
	uint32_t dirty;        /* guest registers newer than h->x */
	uint16_t pinned;       /* pool registers the current instruction uses */
	unsigned next;         /* round-robin eviction */
};

/* The most branches and jumps a block goes on past: a counting block's
 * records (struct uarch_block) have room for UARCH_IB */
#define JIT_IB 4
_Static_assert(JIT_IB >= UARCH_IB, "counting blocks' limit within the others'");

/* An exit taken on a slow access: written back from this state. */
struct side {
	uint8_t *at[7];        /* the jumps to it (one per check: alignment, three
				  of the TLB's with paging, size, flags; or a
				  row's six) */
	unsigned nat;
	uint64_t pc;
	uint32_t index;        /* of its instruction in the block */
	struct regs r;
};

/* A row of accesses whose page checks are done (jit_row.c): the bytes
 * [x[base] + lo, x[base] + hi) are in memory and allowed */
struct row {
	int on;
	int32_t lo, hi;
};

struct tx {
	struct em e;
	struct em cold;        /* into j->cold (jm_begin()) */
	struct jit *j;
	struct hart *h;
	struct retire_jblock *rb;  /* counting: what the block tells the retire stream */
	uint32_t block;
	uint32_t index;        /* of the instruction being translated */
	uint64_t cross;        /* those whose access may cross an L1D line (h->jit_xmask) */
	const uint8_t *page;   /* the host bytes of the page it translates */
	struct row row[2][32]; /* loads', stores' from each base register */
	struct regs r;
	struct side side[BLOCK_INSNS];
	unsigned nside;
	unsigned pool0;        /* pool[]'s first in use: 1 with the models */
	/* branches it went on past (a superblock): their ways out, taken */
	struct inner {
		uint8_t *at;           /* the jump to it */
		uint64_t target;
		uint32_t index;        /* of the branch in the block */
		struct regs r;         /* to write back */
	} in[JIT_IB];
	unsigned nin;
	unsigned nib;          /* branches and jumps it went on past (struct uarch_block) */
	uint64_t pc0;          /* where it starts */
	uint64_t go_on;        /* where it goes on after a jump it goes on past */
	struct { uint8_t *at; uint64_t pc; } out[2 + JIT_IB];  /* chainable exits */
	unsigned nout;
	uint32_t n;            /* instructions, once the block's end is known */
	int models;            /* its ways out do the models' hit paths (jm) */
	int hot;               /* they may (else retire_block(), HOT_RUNS) */
	struct jm jm;
};

static void regs_reset(struct regs *r)
{
	memset(r, 0, sizeof(*r));
	memset(r->in, -1, sizeof(r->in));
	memset(r->at, -1, sizeof(r->at));
}

static void writeback(struct em *e, const struct regs *r)
{
	for (int g = 1; g < 32; g++)
		if ((r->dirty >> g & 1) && r->at[g] >= 0)
			op_rm(e, 1, 0x89, pool[(int)r->at[g]], RBX, XREG(g));
}

/* A pool register for guest register g, loaded from h->x if load. */
static int pool_get(struct tx *t, int g, int load)
{
	struct regs *r = &t->r;
	int i = r->at[g];
	if (i < 0) {
		for (i = (int)t->pool0; i < NPOOL && r->in[i] >= 0; i++)
			;
		if (i == NPOOL) {
			do
				i = (int)(t->pool0 + r->next++ % (NPOOL - t->pool0));
			while (r->pinned >> i & 1);
			int old = r->in[i];
			if (r->dirty >> old & 1)
				op_rm(&t->e, 1, 0x89, pool[i], RBX, XREG(old));
			r->dirty &= ~(1u << old);
			r->at[old] = -1;
		}
		r->in[i] = (int8_t)g;
		r->at[g] = (int8_t)i;
		if (load)
			op_rm(&t->e, 1, 0x8b, pool[i], RBX, XREG(g));
	}
	r->pinned |= (uint16_t)(1u << i);
	return pool[i];
}

/* A host register holding source register g (x0: scratch, zeroed). */
static int src(struct tx *t, int g, int scratch)
{
	if (g == 0) {
		xor_zero(&t->e, scratch);
		return scratch;
	}
	return pool_get(t, g, 1);
}

/* The host register for destination g, or -1 for x0 (decoded as 32). */
static int dst(struct tx *t, int g)
{
	if (g == 0 || g == 32)
		return -1;
	t->r.dirty |= 1u << g;
	return pool_get(t, g, 0);
}

/* The jump at site goes to a side exit at this instruction. */
static void side_exit_at(struct tx *t, uint8_t *site, uint64_t pc)
{
	struct side *s = t->nside ? &t->side[t->nside - 1] : NULL;
	if (!s || s->index != t->index) {  /* one exit per instruction */
		s = &t->side[t->nside++];
		s->nat = 0;
		s->pc = pc;
		s->index = t->index;
		s->r = t->r;
	}
	s->at[s->nat++] = site;
}

/* Jump to a side exit at this instruction if cc holds. */
static void side_exit(struct tx *t, unsigned cc, uint64_t pc)
{
	side_exit_at(t, jcc32(&t->e, cc), pc);
}

/* mov [p], rax (movabs): a store to the hart that is not a guest
 * register's. Addressed from rbx as the registers are, such stores slow
 * translated code on some hosts (AMD Zen here: by a quarter on branchy),
 * most likely as the CPU's memory renaming takes them for the guest
 * register slots their displacement's low bits match. */
static void store_rax(struct em *e, const void *p)
{
	b1(e, 0x48); b1(e, 0xa3);
	d8(e, (uint64_t)(uintptr_t)p);
}

static void set_pc(struct em *e, uint64_t pc)
{
	mov_ri(e, RAX, pc);
	op_rm(e, 1, 0x89, RAX, RBX, OFF(pc));
}

/* Exits that leave h->pc set: tell the step loop who left and how, and
 * what to patch (rax, 0 for none), then return through the trampoline. */
static void leave(struct tx *t, uint8_t *site, int side)
{
	struct em *e = &t->e;
	op_rm(e, 0, 0xc7, 0, RBX, OFF(jit_last));
	d4(e, t->block | (uint32_t)side << 31);
	if (site)
		mov_ri(e, RAX, (uint64_t)(uintptr_t)site);
	else
		xor_zero(e, RAX);
	uint8_t *j = jmp32(e);
	patch32(j, t->j->leave);
}

/* The page-flag bits of v (GP_R, GP_W, GP_CODE) in the mode's terms:
 * below M in system mode, reads and writes are PMP's (pmp.h). */
static unsigned access_bits(const struct jit *j, unsigned v)
{
	return (v & GP_R ? j->rbit : 0) | (v & GP_W ? j->wbit : 0) | (v & GP_CODE);
}

/* rax = the physical address of virtual rax as the hart's TLB holds it
 * for acc (jit_tlb_lookup()); side exit when it does not. */
static void tlb_probe(struct tx *t, enum mmu_access acc, uint64_t pc)
{
	struct em *e = &t->e;
	uint8_t *miss[3];
	unsigned n = jit_tlb_lookup(e, RAX, RDX, RCX, OFF(jit_dkey), acc, miss);
	for (unsigned k = 0; k < n; k++)
		side_exit_at(t, miss[k], pc);
	shift_ri(e, 1, SH_SHL, RDX, 12);
	alu_ri(e, 0, G1_AND, RAX, 0xfff);
	alu_rr(e, 1, G1_OR, RAX, RDX);
}

/* rax = guest address rs1 + imm; side exit unless the access is aligned
 * (atomic, or when the hart traps misaligned accesses; else within its
 * page, and within one L1D line when the models look that line up), in
 * memory and allowed (flags need, compared under mask). */
static void address(struct tx *t, const struct dinsn *d, unsigned size, unsigned mask,
		    unsigned need, uint64_t pc, int atomic)
{
	struct em *e = &t->e;
	const enum mmu_access acc = need & GP_W ? MMU_STORE : MMU_LOAD;
	mask = access_bits(t->j, mask);
	need = access_bits(t->j, need);
	int a = src(t, d->rs1, RAX);
	if (a != RAX && d->imm)
		op_mem(e, 0, 1, 0, 0x8d, RAX, a, -1, 0, d->imm);   /* lea rax, [a + imm] */
	else if (a != RAX)
		mov_rr(e, RAX, a);
	else if (d->imm)
		alu_ri(e, 1, G1_ADD, RAX, d->imm);
	if (t->rb && t->j->uarch)   /* for the models */
		store_rax(e, &t->h->jit_addr[t->index]);
	if (size > 1 && (atomic || t->h->misaligned_trap)) {
		b1(e, 0xa8); b1(e, size - 1);  /* test al, size-1 */
		side_exit(t, CC_NE, pc);
	} else if (size > 1) {   /* as the step loop's load_slow()/store_slow() */
		b1(e, 0xa8); b1(e, size - 1);  /* test al, size-1 */
		uint8_t *mis = jcc32(e, CC_NE);
		uint8_t *back = e->p;
		/* misaligned, out of line: on unless it crosses the page; one
		 * that crosses an L1D line tells the models (h->jit_xmask) */
		const struct em hot = t->e;
		t->e = t->cold;
		patch32(mis, e->p);
		if (t->rb && t->j->uarch) {
			const int32_t line = 1 << t->j->uarch->dline_shift;
			mov_rr32(e, RDX, RAX);
			alu_ri(e, 0, G1_AND, RDX, line - 1);
			alu_ri(e, 0, G1_CMP, RDX, line - (int32_t)size);
			patch32(jcc32(e, CC_BE), back);
		}
		mov_rr32(e, RDX, RAX);
		alu_ri(e, 0, G1_AND, RDX, GPAGE_SIZE - 1);
		alu_ri(e, 0, G1_CMP, RDX, GPAGE_SIZE - (int32_t)size);
		side_exit(t, CC_A, pc);
		if (t->rb && t->j->uarch) {
			bt_mi(e, BTS, RBX, OFF(jit_xmask), t->index);
			t->cross |= UINT64_C(1) << t->index;
		}
		patch32(jmp32(e), back);
		t->cold = t->e;
		t->e = hot;
	}
	if (t->j->paged) {
		tlb_probe(t, acc, pc);
		if (t->rb && t->j->uarch)   /* the caches' address (UARCH_RF_PADDR) */
			store_rax(e, &t->h->jit_addr[HART_JIT_INSNS + t->index]);
	}
	uint8_t *fail[6];
	unsigned nf;
	/* rows (jit_row.c): not with paging (each access its translation) */
	if (!t->j->paged && !atomic) {
		struct row *w = &t->row[acc == MMU_STORE][d->rs1];
		if (w->on && d->imm >= w->lo && d->imm + (int32_t)size <= w->hi)
			return;   /* checked with its row */
		int32_t lo, hi;
		jit_row(t->page, pc, d, size, acc == MMU_STORE, &lo, &hi);
		if (hi - lo > (int32_t)size) {
			nf = jit_row_check(e, &t->cold, d->imm, lo, hi, mask, need, OFF(mem.size),
					   OFF(mem.pflags), fail);
			w->on = 1;
			w->lo = lo;
			w->hi = hi;
			goto exits;
		}
	}
	nf = jit_page_check(e, RAX, mask, need, OFF(mem.size), OFF(mem.pflags), fail);
exits:
	for (unsigned k = 0; k < nf; k++)
		side_exit_at(t, fail[k], pc);
}

/* The models' code for a data access looks up one L1D line
 * (jit_models.c data()), which an aligned access is within unless it is
 * wider than a line: with a profile's 4-byte lines, an 8-byte one is in
 * two, which the step loop looks up both of (uarch.c data_access_at()).
 * Such an access is left to the step loop: its instruction ends the
 * block. */
static int two_lines(const struct tx *t, unsigned size)
{
	return t->rb && t->j->uarch && size > 1u << t->j->uarch->dline_shift;
}

static int translate_load(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	static const struct { uint8_t size, w, esc, op; } f[] = {
		[0] = {1, 1, 1, 0xbe},  /* lb: movsx r64, byte */
		[1] = {2, 1, 1, 0xbf},  /* lh: movsx r64, word */
		[2] = {4, 1, 0, 0x63},  /* lw: movsxd */
		[3] = {8, 1, 0, 0x8b},  /* ld: mov r64 */
		[4] = {1, 0, 1, 0xb6},  /* lbu: movzx r32, byte */
		[5] = {2, 0, 1, 0xb7},  /* lhu: movzx r32, word */
		[6] = {4, 0, 0, 0x8b},  /* lwu: mov r32 */
	};
	int k;
	switch (d->id) {
	case INSN_LB: k = 0; break;
	case INSN_LH: k = 1; break;
	case INSN_LW: k = 2; break;
	case INSN_LD: k = 3; break;
	case INSN_LBU: k = 4; break;
	case INSN_LHU: k = 5; break;
	case INSN_LWU: k = 6; break;
	default: return 0;
	}
	if (two_lines(t, f[k].size))
		return 0;
	address(t, d, f[k].size, GP_R, GP_R, pc, 0);
	int rd = dst(t, d->rd);
	op_sib(&t->e, 0, f[k].w, f[k].esc, f[k].op, rd < 0 ? RCX : rd, R15, RAX, 0);
	return 1;
}

static int translate_store(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	unsigned size;
	switch (d->id) {
	case INSN_SB: size = 1; break;
	case INSN_SH: size = 2; break;
	case INSN_SW: size = 4; break;
	case INSN_SD: size = 8; break;
	default: return 0;
	}
	if (two_lines(t, size))
		return 0;
	int v = d->rs2 ? pool_get(t, d->rs2, 1) : -1;  /* before the checks clobber rcx */
	address(t, d, size, GP_W | GP_CODE, GP_W, pc, 0);
	if (v < 0) {
		xor_zero(&t->e, RCX);
		v = RCX;
	}
	op_sib(&t->e, size == 2 ? 0x66 : 0, size == 8, 0, size == 1 ? 0x88 : 0x89, v, R15, RAX,
	       size == 1);
	return 1;
}

/* AMOs, LR and SC (jit_atomic.c): at rs1 alone (the decoder leaves the
 * raw bits in their imm), aligned (else the step loop raises the
 * misaligned exception), readable, and for all but LR writable in a page
 * without decoded code, as the step loop's amo_ptr() asks: else a side
 * exit. An SC that will fail needs the same, as there. */
static int translate_atomic(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	const unsigned size = jit_atomic_size(d->id);
	if (!size || two_lines(t, size))
		return 0;
	const int writes = jit_atomic_writes(d->id);
	int v = writes && d->rs2 ? pool_get(t, d->rs2, 1) : -1;  /* before the checks clobber rcx */
	struct dinsn at = *d;
	at.imm = 0;
	address(t, &at, size, writes ? GP_R | GP_W | GP_CODE : GP_R, writes ? GP_R | GP_W : GP_R, pc, 1);
	/* the reservation is at rs1, the step loop's: translated with
	 * paging, rax is not it */
	int resv = RAX;
	if (t->j->paged && (d->id == INSN_LR_W || d->id == INSN_LR_D || d->id == INSN_SC_W ||
			    d->id == INSN_SC_D)) {
		resv = src(t, d->rs1, RDX);
		if (resv != RDX)
			mov_rr(&t->e, RDX, resv);
		resv = RDX;
	}
	jit_atomic(&t->e, d, v, dst(t, d->rd), resv);
	return 1;
}

/* rd = rax, or its low 32 bits sign-extended (the W forms) */
static void put_rax(struct em *e, int rd, int sext)
{
	if (sext)
		movsxd(e, rd, RAX);
	else
		mov_rr(e, rd, RAX);
}

/* rd = rs1 op rs2 / rs1 op imm for the plain ALU forms; returns 0 when
 * id is not one of them. */
static int translate_alu(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	struct em *e = &t->e;
	int w = 1, g1 = -1, sh = -1, imm = 0, sext = 0, cmp = -1;
	switch (d->id) {
	case INSN_ADD: g1 = G1_ADD; break;
	case INSN_SUB: g1 = G1_SUB; break;
	case INSN_AND: g1 = G1_AND; break;
	case INSN_OR: g1 = G1_OR; break;
	case INSN_XOR: g1 = G1_XOR; break;
	case INSN_ADDI: g1 = G1_ADD; imm = 1; break;
	case INSN_ANDI: g1 = G1_AND; imm = 1; break;
	case INSN_ORI: g1 = G1_OR; imm = 1; break;
	case INSN_XORI: g1 = G1_XOR; imm = 1; break;
	case INSN_ADDW: g1 = G1_ADD; w = 0; sext = 1; break;
	case INSN_SUBW: g1 = G1_SUB; w = 0; sext = 1; break;
	case INSN_ADDIW: g1 = G1_ADD; imm = 1; w = 0; sext = 1; break;
	case INSN_SLL: sh = SH_SHL; break;
	case INSN_SRL: sh = SH_SHR; break;
	case INSN_SRA: sh = SH_SAR; break;
	case INSN_SLLW: sh = SH_SHL; w = 0; sext = 1; break;
	case INSN_SRLW: sh = SH_SHR; w = 0; sext = 1; break;
	case INSN_SRAW: sh = SH_SAR; w = 0; sext = 1; break;
	case INSN_SLLI: sh = SH_SHL; imm = 1; break;
	case INSN_SRLI: sh = SH_SHR; imm = 1; break;
	case INSN_SRAI: sh = SH_SAR; imm = 1; break;
	case INSN_SLLIW: sh = SH_SHL; imm = 1; w = 0; sext = 1; break;
	case INSN_SRLIW: sh = SH_SHR; imm = 1; w = 0; sext = 1; break;
	case INSN_SRAIW: sh = SH_SAR; imm = 1; w = 0; sext = 1; break;
	case INSN_SLT: cmp = CC_L; break;
	case INSN_SLTU: cmp = CC_B; break;
	case INSN_SLTI: cmp = CC_L; imm = 1; break;
	case INSN_SLTIU: cmp = CC_B; imm = 1; break;
	case INSN_MUL: break;
	case INSN_MULW: w = 0; sext = 1; break;
	case INSN_LUI: case INSN_AUIPC: {
		int rd = dst(t, d->rd);
		if (rd >= 0)
			mov_ri(e, rd, (d->id == INSN_AUIPC ? pc : 0) + (uint64_t)(int64_t)d->imm);
		return 1;
	}
	default:
		return 0;
	}
	if (d->rd == 32)
		return 1;  /* x0: no effect, nothing can trap */
	if (d->rs1 == 0 && imm && (g1 == G1_ADD || g1 == G1_OR || g1 == G1_XOR)) {   /* li */
		mov_ri(e, dst(t, d->rd), (uint64_t)(int64_t)d->imm);
		return 1;
	}
	int a = src(t, d->rs1, RAX);
	int b = imm ? -1 : src(t, d->rs2, RDX);
	int rd = dst(t, d->rd);
	if (sh >= 0 && !imm)
		mov_rr32(e, RCX, b);
	if (cmp < 0 && imm && d->imm == 0 && (g1 >= 0 || sh >= 0) && g1 != G1_AND) {
		/* mv and sext.w (addi, addiw, ori, xori, a shift by 0) */
		if (sext)
			movsxd(e, rd, a);
		else if (rd != a)
			mov_rr(e, rd, a);
		return 1;
	}
	/* computed in rd itself, but for compares (setcc writes al) and,
	 * when rd is rs2, an operation whose operands do not commute: in rax */
	const int commutes = g1 == G1_ADD || g1 == G1_AND || g1 == G1_OR || g1 == G1_XOR ||
			     (cmp < 0 && g1 < 0 && sh < 0);   /* mul */
	const int r = cmp < 0 && (imm || rd != b || commutes) ? rd : RAX;
	int with = b;
	if (!imm && r == b)
		with = a;   /* rd = b op a */
	else if (r != a)
		mov_rr(e, r, a);
	if (cmp >= 0) {
		if (imm)
			alu_ri(e, 1, G1_CMP, RAX, d->imm);
		else
			alu_rr(e, 1, G1_CMP, RAX, b);
		setcc_eax(e, (unsigned)cmp);
	} else if (g1 >= 0 && imm) {
		alu_ri(e, w, (unsigned)g1, r, d->imm);
	} else if (g1 >= 0) {
		alu_rr(e, w, (unsigned)g1, r, with);
	} else if (sh >= 0 && imm) {
		shift_ri(e, w, (unsigned)sh, r, (unsigned)d->imm);
	} else if (sh >= 0) {
		shift_cl(e, w, (unsigned)sh, r);
	} else {
		imul_rr(e, w, r, with);
	}
	if (r == RAX)
		put_rax(e, rd, sext);
	else if (sext)
		movsxd(e, rd, rd);
	return 1;
}

/* Zba, Zbb, Zbs and mulhsu (jit_bitmanip.c) */
static int translate_bitmanip(struct tx *t, const struct dinsn *d)
{
	const int n = jit_bitmanip_srcs(d->id);
	if (!n)
		return 0;
	if (d->rd == 32)
		return 1;  /* x0: no effect, nothing can trap */
	int a = src(t, d->rs1, RAX);
	int b = n == 2 ? src(t, d->rs2, RDX) : -1;
	jit_bitmanip(&t->e, d, a, b, dst(t, d->rd));
	return 1;
}

/* mulh[u], div[u][w], rem[u][w] (jit_muldiv.c) */
static int translate_muldiv(struct tx *t, const struct dinsn *d)
{
	if (!jit_muldiv_is(d->id))
		return 0;
	if (d->rd == 32)
		return 1;
	int a = src(t, d->rs1, RAX);
	int b = src(t, d->rs2, RCX);
	jit_muldiv(&t->e, d, a, b, dst(t, d->rd));
	return 1;
}

/* An F/D operation: a call to jit_fp_op() with a copy of the decoded
 * instruction kept in the code. The call may read and write any register
 * and clobbers the caller-saved ones: everything is written back first. */
static int translate_fp(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	struct em *e = &t->e;
	if (!jit_fp_is(d->id) || t->h->fp_slow)
		return 0;
	writeback(e, &t->r);
	regs_reset(&t->r);
	uint8_t *over = jmp8(e);
	while ((uintptr_t)e->p & 15)
		b1(e, 0xcc);
	uint8_t *copy = e->p;
	memcpy(e->p, d, sizeof(*d));
	e->p += sizeof(*d);
	patch8(over, e->p);
	mov_rr(e, RDI, RBX);
	mov_ri(e, RSI, (uint64_t)(uintptr_t)copy);
	mov_ri(e, RAX, (uint64_t)(uintptr_t)jit_fp_op);
	b1(e, 0xff); b1(e, 0xd0);        /* call rax */
	alu_rr(e, 0, G1_AND, RAX, RAX);  /* nonzero: leave */
	side_exit(t, CC_NE, pc);
	return 1;
}

/* flw, fld, fsw, fsd: f registers stay in h->f */
static int translate_fmem(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	struct em *e = &t->e;
	int w = d->id == INSN_FLD || d->id == INSN_FSD;
	if (t->h->fp_slow || two_lines(t, w ? 8 : 4))
		return 0;
	switch (d->id) {
	case INSN_FLW:
	case INSN_FLD:
		address(t, d, w ? 8 : 4, GP_R, GP_R, pc, 0);
		op_sib(e, 0, w, 0, 0x8b, RCX, R15, RAX, 0);
		if (!w) {  /* NaN-box */
			mov_ri(e, RDX, 0xffffffff00000000ull);
			alu_rr(e, 1, G1_OR, RCX, RDX);
		}
		op_rm(e, 1, 0x89, RCX, RBX, FREG(d->rd));
		return 1;
	case INSN_FSW:
	case INSN_FSD:
		address(t, d, w ? 8 : 4, GP_W | GP_CODE, GP_W, pc, 0);
		op_rm(e, 1, 0x8b, RCX, RBX, FREG(d->rs2));
		op_sib(e, 0, w, 0, 0x89, RCX, R15, RAX, 0);
		return 1;
	}
	return 0;
}

/* Counting blocks: tell the retire stream that the block's first n
 * instructions retired, the last going on to next (from h->pc when
 * next_in_pc). Every guest register is written back by now, so the call
 * may clobber what it likes. */
static void emit_retire(struct tx *t, uint32_t n, uint64_t next, int next_in_pc, int taken)
{
	struct em *e = &t->e;
	if (!t->rb || !n)
		return;
	mov_rr(e, RDI, RBX);
	mov_ri(e, RSI, (uint64_t)(uintptr_t)t->rb);
	mov_ri(e, RDX, n);
	if (next_in_pc)
		op_rm(e, 1, 0x8b, RCX, RBX, OFF(pc));
	else
		mov_ri(e, RCX, next);
	mov_ri(e, R8, (uint64_t)taken);
	mov_ri(e, RAX, (uint64_t)(uintptr_t)retire_block);
	b1(e, 0xff); b1(e, 0xd0);        /* call rax */
}

/* The block ends after n instructions: counting blocks' records for the
 * retire stream are complete, and whether its ways out do the models'
 * hit paths is known. */
static void end_block(struct tx *t, uint32_t n)
{
	struct jit *j = t->j;
	t->n = n;
	if (!t->rb)
		return;
	retire_jblock_init(t->rb, j->uarch, &j->rec[j->nrec], (const uint8_t (*)[3])&j->ev[j->nrec], n);
	t->models = t->hot && jm_ok(j->uarch, &t->rb->ub);
}

/* With the models, the block's lookups (jm_begin()), which its ways out
 * share: once the guest registers are written back. */
static void begin_whole(struct tx *t)
{
	if (t->models) {
		t->jm.cross = t->cross;
		jm_begin(&t->jm, &t->e, &t->cold, t->j->uarch, t->j->uev, &t->rb->ub, t->j->hints);
	}
}

/* A way out of the whole block (after end_block()), as emit_retire():
 * with the models, what retire_block() does is inline (the class events
 * here, the models' hit paths in jit_models.c), and way_stubs() must
 * follow the way out's last jump; without any models, the class events
 * are all it does. */
static void emit_whole(struct tx *t, uint64_t next, int next_in_pc, int taken)
{
	struct em *e = &t->e;
	if (!t->models && (!t->rb || t->j->uarch)) {
		emit_retire(t, t->n, next, next_in_pc, taken);
		return;
	}
	/* with the models or without any, retire_block()'s class events are
	 * inline */
	if (t->j->classes) {   /* else no counter counts them; from rax, as store_rax() */
		mov_ri(e, RAX, (uint64_t)(uintptr_t)t->h->evc);
		for (unsigned i = 0; i < t->rb->nsum; i++)
			alu_mi(e, G1_ADD, RAX, 8 * t->rb->sum[i].ev, t->rb->sum[i].n);
		if (taken)
			alu_mi(e, G1_ADD, RAX, 8 * PMU_EV_BRANCH_TAKEN, 1);
	}
	if (t->models)
		jm_exit(&t->jm, next, next_in_pc, taken);
}

static void way_stubs(struct tx *t)
{
	if (t->models)
		jm_exit_stubs(&t->jm);
}

/* A chainable exit to guest pc: a jump (or Jcc) whose target starts as
 * a stub that sets h->pc and leaves. */
static void exit_to(struct tx *t, uint8_t *at, uint64_t pc)
{
	t->out[t->nout].at = at;
	t->out[t->nout].pc = pc;
	t->nout++;
}

/* The way out of a branch the block went on past, taken: as the way
 * out of a block of the instructions up to it, which has its own
 * records for the retire stream (and with the models its timings) */
static void emit_inner(struct tx *t, const struct inner *in, uint32_t n)
{
	struct em *e = &t->e;
	patch32(in->at, e->p);
	writeback(e, &in->r);
	if (n > in->index + 1)   /* those after it did not retire: their budget returns */
		alu_mi(e, G1_ADD, RBX, OFF(jit_budget), (int32_t)(n - in->index - 1));
	struct retire_jblock *whole = t->rb;
	if (whole)
		t->rb = &t->j->prb[t->j->nprb++];
	end_block(t, in->index + 1);
	begin_whole(t);
	emit_whole(t, in->target, 0, 1);
	exit_to(t, jmp32(e), in->target);
	way_stubs(t);
	if (t->models)
		jm_end(&t->jm);
	t->rb = whole;
}

/* Whether the block may go on past a control transfer here */
static int go_on(const struct tx *t)
{
	return t->j->superblocks && t->nib < (t->rb ? UARCH_IB : JIT_IB) &&
	       t->index + 1 < BLOCK_INSNS;
}

/* rax = a guest pc the block leaves for (in h->pc, every register
 * written back): go straight to the block entered there before, if it is
 * of this mode and, with paging, pc's page still maps to its page (the
 * hart's TLB holds that translation for fetches, as dpage_get() would
 * find it: the fetch was allowed when the block was made, and a PMP
 * change forgets every block). Else on, to leave. */
static void jump_cached(struct tx *t)
{
	_Static_assert(sizeof(struct jc) == 32, "indexed below");
	struct em *e = &t->e;
	mov_rr32(e, RDX, RAX);
	shift_ri(e, 0, SH_SHR, RDX, 1);
	alu_ri(e, 0, G1_AND, RDX, JUMP_CACHE - 1);
	shift_ri(e, 0, SH_SHL, RDX, 5);
	mov_ri(e, RCX, (uint64_t)(uintptr_t)t->j->jc);
	alu_rr(e, 1, G1_ADD, RDX, RCX);                       /* rdx = the entry */
	op_rm(e, 1, 0x3b, RAX, RDX, (int32_t)offsetof(struct jc, pc));
	uint8_t *miss[6];
	unsigned n = 0;
	miss[n++] = jcc32(e, CC_NE);
	op_rm(e, 0, 0x81, G1_CMP, RDX, (int32_t)offsetof(struct jc, mode));
	d4(e, t->j->mode);
	miss[n++] = jcc32(e, CC_NE);
	if (t->j->fpaged) {   /* the pool's registers are free: all written back */
		n += jit_tlb_lookup(e, RAX, RSI, RDI, OFF(jit_fkey), MMU_FETCH, &miss[n]);
		op_rm(e, 1, 0x3b, RSI, RDX, (int32_t)offsetof(struct jc, ppn));
		miss[n++] = jcc32(e, CC_NE);
	}
	op_rm(e, 0, 0xff, 4, RDX, (int32_t)offsetof(struct jc, code));   /* jmp [rdx+code] */
	for (unsigned i = 0; i < n; i++)
		patch32(miss[i], e->p);
}

/* The flags of a branch's rs1 - rs2 (against x0: a test, which leaves
 * them as cmp with 0 does) */
static void cmp_operands(struct tx *t, const struct dinsn *d)
{
	int a = src(t, d->rs1, RAX);
	if (d->rs2 == 0 && d->rs1 != 0) {
		op_rr(&t->e, 1, 0x85, a, a);   /* test a, a */
		return;
	}
	alu_rr(&t->e, 1, G1_CMP, a, src(t, d->rs2, RDX));
}

/* The block's last instruction when it is a control transfer: 1, or 2
 * when the block goes on past it (a conditional branch not taken, a
 * jump) at t->go_on; 0 when id is none. */
static int translate_jump(struct tx *t, const struct dinsn *d, uint64_t pc)
{
	struct em *e = &t->e;
	uint64_t next = pc + d->len;
	unsigned cc;
	switch (d->id) {
	case INSN_BEQ: cc = CC_E; break;
	case INSN_BNE: cc = CC_NE; break;
	case INSN_BLT: cc = CC_L; break;
	case INSN_BGE: cc = CC_GE; break;
	case INSN_BLTU: cc = CC_B; break;
	case INSN_BGEU: cc = CC_AE; break;
	case INSN_JAL: {
		const uint64_t target = pc + (uint64_t)(int64_t)d->imm;
		int rd = dst(t, d->rd);
		if (rd >= 0)
			mov_ri(e, rd, next);
		if (go_on(t) && target >> GPAGE_SHIFT == t->pc0 >> GPAGE_SHIFT) {
			/* the block goes on at the target, in the page the step
			 * loop fetched its first instruction from */
			t->nib++;
			t->go_on = target;
			return 2;
		}
		writeback(e, &t->r);
		end_block(t, t->index + 1);
		begin_whole(t);
		emit_whole(t, pc + (uint64_t)(int64_t)d->imm, 0, 0);
		exit_to(t, jmp32(e), pc + (uint64_t)(int64_t)d->imm);
		way_stubs(t);
		return 1;
	}
	case INSN_JALR: {
		int a = src(t, d->rs1, RAX);
		if (a != RAX)
			mov_rr(e, RAX, a);
		if (d->imm)
			alu_ri(e, 1, G1_ADD, RAX, d->imm);
		alu_ri(e, 1, G1_AND, RAX, -2);
		int rd = dst(t, d->rd);
		if (rd >= 0)
			mov_ri(e, rd, next);
		writeback(e, &t->r);
		store_rax(e, &t->h->pc);
		end_block(t, t->index + 1);
		if (t->rb) {
			begin_whole(t);
			emit_whole(t, 0, 1, 0);
			op_rm(e, 1, 0x8b, RAX, RBX, OFF(pc));
		}
		jump_cached(t);
		leave(t, NULL, 0);
		way_stubs(t);
		return 1;
	}
	default:
		return 0;
	}
	if (go_on(t)) {
		/* a superblock: it goes on past the branch not taken; taken,
		 * it leaves by emit_inner() */
		t->nib++;
		t->go_on = next;
		cmp_operands(t, d);
		struct inner *in = &t->in[t->nin++];
		in->at = jcc32(e, cc);
		in->target = pc + (uint64_t)(int64_t)d->imm;
		in->index = t->index;
		in->r = t->r;
		return 2;
	}
	writeback(e, &t->r);
	end_block(t, t->index + 1);
	if (t->models) {
		/* the ways' shared lookups take every register: then the
		 * operands come from h->x, where the writeback left them */
		begin_whole(t);
		if (d->rs1)
			op_rm(e, 1, 0x8b, RAX, RBX, XREG(d->rs1));
		else
			xor_zero(e, RAX);
		if (d->rs2)
			op_rm(e, 1, 0x3b, RAX, RBX, XREG(d->rs2));   /* cmp rax, [x + rs2] */
		else
			alu_ri(e, 1, G1_CMP, RAX, 0);
	} else {
		cmp_operands(t, d);
	}
	uint64_t target = pc + (uint64_t)(int64_t)d->imm;
	if (!t->rb) {
		exit_to(t, jcc32(e, cc), target);
		exit_to(t, jmp32(e), next);
		return 1;
	}
	/* each way tells the retire stream which it took */
	uint8_t *taken = jcc32(e, cc);
	emit_whole(t, next, 0, 0);
	exit_to(t, jmp32(e), next);
	way_stubs(t);
	patch32(taken, e->p);
	emit_whole(t, target, 0, 1);
	exit_to(t, jmp32(e), target);
	way_stubs(t);
	return 1;
}

/* FENCE, FENCE.TSO and PAUSE order nothing in a one-hart-at-a-time
 * machine (the step loop runs them as no-ops too): nothing to emit.
 * PAUSE is in Linux's cpu_relax(), in every spin-wait loop. */
static int is_fence(unsigned id)
{
	return id == INSN_FENCE || id == INSN_FENCE_TSO || id == INSN_PAUSE;
}

/* d translated: the rows from its destination register are no more */
static void drop_rows(struct tx *t, const struct dinsn *d)
{
	if (d->rd < 32 && jit_may_write_x(d, d->rd))   /* rd 32: x0, a sink (isa.h) */
		t->row[0][d->rd].on = t->row[1][d->rd].on = 0;
}

struct jit_block *jit_compile(struct jit *j, struct hart *h, uint64_t pc, uint64_t pa,
			      struct dinsn *slot, int hot)
{
	jit_room(j);
	static struct tx t;   /* large; one translation at a time */
	memset(&t, 0, offsetof(struct tx, side));
	t.nside = t.nout = t.nin = t.nib = 0;
	t.pc0 = pc;
	t.n = 0;
	t.models = 0;
	t.e.p = j->free;
	t.cold.p = j->cold_free;
	t.j = j;
	t.h = h;
	t.rb = j->counting ? &j->rb[j->nblocks] : NULL;
	t.pool0 = j->uarch != NULL;
	t.block = j->nblocks;
	t.page = h->mem.base + (pa & ~(uint64_t)(GPAGE_SIZE - 1));
	/* made twice in system mode only: a kernel's code runs a few times
	 * mostly, a program's mostly more (SQLite's speedtest1 under the u74
	 * models: 60% of its blocks reach HOT_RUNS, and it ran 12% slower) */
	t.hot = hot || !t.rb || !j->uarch || !h->system;
	regs_reset(&t.r);
	struct em *e = &t.e;
	uint8_t *head = e->p;
	uint8_t *promote_at = NULL;
	if (!t.hot) {   /* count the entries down: at 0, leave for jit_promote() */
		j->runs[t.block] = HOT_RUNS;
		b1(e, 0x83); b1(e, 0x2d);   /* sub dword [rip + disp32], 1 */
		d4(e, (uint32_t)((uint8_t *)&j->runs[t.block] - (e->p + 5)));
		b1(e, 1);
		promote_at = jcc32(e, CC_E);
	}
	/* head: charge the budget; when it goes below 0, give it back and
	 * leave for the step loop to run the block */
	op_rm(e, 1, 0x81, G1_SUB, RBX, OFF(jit_budget));
	uint8_t *n_at = e->p;
	d4(e, 0);
	uint8_t *short_at = jcc32(e, CC_L);

	uint32_t n = 0;
	uint64_t at = pc, lo_at = pc, hi_at = pc;  /* bytes read: [lo_at, hi_at) */
	int ended = 0;
	while (n < BLOCK_INSNS) {
		/* within the page the step loop fetched pc from: its bytes
		 * and translation are the ones checked, and a write into them
		 * finds the block (dpage_add_block()) */
		struct dinsn d;
		if (!jit_decode_in_page(t.page, pc, at, &d))
			break;
		lo_at = at < lo_at ? at : lo_at;
		hi_at = at + d.len > hi_at ? at + d.len : hi_at;
		t.r.pinned = 0;
		t.index = n;
		if (t.rb) {
			struct retire_rec *r = &j->rec[j->nrec + n];
			retire_static(r, j->ev[j->nrec + n], &d, at);
			r->fetch_pa = (pa & ~(uint64_t)(GPAGE_SIZE - 1)) | (at & (GPAGE_SIZE - 1));
			r->flags |= h->rr_bare;   /* system mode: untranslated */
			if (j->paged)
				r->flags |= UARCH_RF_PADDR;
		}
		const int jump = translate_jump(&t, &d, at);
		if (jump) {
			drop_rows(&t, &d);
			n++;
			at += d.len;
			if (jump == 2) {   /* a branch or jump it goes on past */
				at = t.go_on;
				continue;
			}
			ended = 1;
			break;
		}
		/* each translate_ returns 0 having emitted nothing when the
		 * instruction is not its kind; one no one takes ends the block */
		if (!translate_alu(&t, &d, at) && !translate_muldiv(&t, &d) &&
		    !translate_bitmanip(&t, &d) &&
		    !translate_load(&t, &d, at) && !translate_store(&t, &d, at) &&
		    !translate_atomic(&t, &d, at) &&
		    !translate_fmem(&t, &d, at) && !translate_fp(&t, &d, at) &&
		    !is_fence(d.id))
			break;
		drop_rows(&t, &d);
		n++;
		at += d.len;
	}
	if (!n)
		return NULL;
	if (!ended) {
		writeback(e, &t.r);
		end_block(&t, n);
		begin_whole(&t);
		emit_whole(&t, at, 0, 0);
		exit_to(&t, jmp32(e), at);
		way_stubs(&t);
	}
	if (t.models)
		jm_end(&t.jm);
	for (unsigned i = 0; i < t.nin; i++)
		emit_inner(&t, &t.in[i], n);
	memcpy(n_at, &n, 4);
	/* the rest seldom runs (side exits, exits before they are chained,
	 * too short a budget): out of line */
	const struct em hot_e = t.e;
	t.e = t.cold;
	/* side exits: the instruction there and those after it did not
	 * retire, so their share of the budget charged at the head returns */
	for (unsigned i = 0; i < t.nside; i++) {
		struct side *s = &t.side[i];
		for (unsigned k = 0; k < s->nat; k++)
			patch32(s->at[k], e->p);
		if (t.cross)   /* the models' lookups of these will not run */
			alu_mi(e, G1_AND, RBX, OFF(jit_xmask), 0);
		writeback(e, &s->r);
		emit_retire(&t, s->index, s->pc, 0, 0);
		alu_mi(e, G1_ADD, RBX, OFF(jit_budget), (int32_t)(n - s->index));
		set_pc(e, s->pc);
		leave(&t, NULL, 1);
	}
	for (unsigned i = 0; i < t.nout; i++) {
		patch32(t.out[i].at, e->p);
		set_pc(e, t.out[i].pc);
		if (j->fpaged && (t.out[i].pc ^ pc) >> GPAGE_SHIFT) {
			/* another page's translation may change: never chained */
			jump_cached(&t);
			leave(&t, NULL, 0);
		} else {
			leave(&t, t.out[i].at, 0);
		}
	}
	patch32(short_at, e->p);
	alu_mi(e, G1_ADD, RBX, OFF(jit_budget), (int32_t)n);
	set_pc(e, pc);
	leave(&t, NULL, 0);
	if (promote_at) {
		patch32(promote_at, e->p);
		set_pc(e, pc);
		op_rm(e, 0, 0xc7, 0, RBX, OFF(jit_promote));
		d4(e, t.block + 1);
		leave(&t, NULL, 0);
	}
	t.cold = t.e;
	t.e = hot_e;

	struct jit_block *b = &j->blocks[j->nblocks++];
	b->pc = pc;
	b->pa = pa;
	b->mode = j->mode;
	b->code = head;
	b->slot = slot;
	b->n = n;
	b->exits_out = 0;
	b->lo = (uint16_t)(lo_at & (GPAGE_SIZE - 1));
	b->hi = (uint16_t)(hi_at - (lo_at & ~(GPAGE_SIZE - 1)));
	jit_index(j, b);
	if ((size_t)(e->p - head) > BLOCK_ROOM || (size_t)(t.cold.p - j->cold_free) > BLOCK_ROOM)
		abort();   /* BLOCK_ROOM is too small: code past it may be overwritten */
	if ((uint32_t)(e->p - head) > j->largest)
		j->largest = (uint32_t)(e->p - head);
	jit_perf_map(head, (size_t)(e->p - head), j->cold_free, (size_t)(t.cold.p - j->cold_free), pc, t.models);
	j->made += (uint64_t)(e->p - head) + (uint64_t)(t.cold.p - j->cold_free);
	j->free = e->p;
	j->cold_free = t.cold.p;
	j->translated++;
	j->inner += t.nin;
	if (t.rb)
		j->nrec += n;
	return b;
}
