/* Rows of accesses in translated code (jit_ops.h): the page checks of
 * the loads, or the stores, that one block makes from the same base
 * register, done once.
 *
 * Compiled code reads a structure's fields or a stack frame's slots from
 * one pointer, and compares strings a byte at an offset at a time. Each
 * access checking its own page (its bound, then its flags) is seven host
 * instructions; without them zlib's compression takes a fifth less time.
 * The first access of a row checks instead that the row's bytes, from
 * its lowest offset to its highest, are in memory and allowed: within
 * one page, with one check; across two, out of line, with both pages'.
 * Later accesses of the row whose bytes are within those check nothing.
 * That holds while the base register keeps its value, and page flags do
 * not change while a block runs: mappings change in system calls, PMP in
 * CSR writes, a page's first touch and its decoded code in the step
 * loop, all outside translated code. The look ahead decodes from the
 * page as the translator does (jit_decode_in_page(), both use it). */
#include <string.h>
#include "rvpmu/gmem.h"
#include "jit_ops.h"

#define ROW_INSNS 16     /* how far ahead a row's accesses are looked for */
#define ROW_BYTES 2048   /* the widest row: never more than two pages */

unsigned jit_access_size(unsigned id, int *store)
{
	*store = 0;
	switch (id) {
	case INSN_LB: case INSN_LBU: return 1;
	case INSN_LH: case INSN_LHU: return 2;
	case INSN_LW: case INSN_LWU: case INSN_FLW: return 4;
	case INSN_LD: case INSN_FLD: return 8;
	}
	*store = 1;
	switch (id) {
	case INSN_SB: return 1;
	case INSN_SH: return 2;
	case INSN_SW: case INSN_FSW: return 4;
	case INSN_SD: case INSN_FSD: return 8;
	}
	*store = 0;
	return 0;
}

int jit_may_write_x(const struct dinsn *d, unsigned r)
{
	int store;
	if (jit_access_size(d->id, &store) && store)
		return 0;
	switch (d->id) {
	case INSN_BEQ: case INSN_BNE: case INSN_BLT: case INSN_BGE: case INSN_BLTU: case INSN_BGEU:
		return 0;
	}
	/* rd, or an f register's number, or a field that is no register:
	 * taken as written all the same */
	return d->rd == r;
}

int jit_decode_in_page(const uint8_t *page, uint64_t pc, uint64_t at, struct dinsn *d)
{
	const uint64_t off = at & (GPAGE_SIZE - 1);
	if ((at ^ pc) >> GPAGE_SHIFT || off > GPAGE_SIZE - 2)
		return 0;
	uint16_t half;
	memcpy(&half, page + off, 2);
	uint32_t raw = half;
	if (insn_length(half) == 4) {
		if (off > GPAGE_SIZE - 4)
			return 0;
		memcpy(&raw, page + off, 4);
	}
	insn_decode(raw, d);
	return 1;
}

void jit_row(const uint8_t *page, uint64_t pc, const struct dinsn *d, unsigned size, int store,
	     int32_t *lo, int32_t *hi)
{
	*lo = d->imm;
	*hi = d->imm + (int32_t)size;
	if (jit_may_write_x(d, d->rs1))   /* a load that replaces its base */
		return;
	uint64_t at = pc + d->len;
	struct dinsn x;
	for (unsigned k = 0; k < ROW_INSNS && jit_decode_in_page(page, pc, at, &x); k++) {
		int st;
		const unsigned s = jit_access_size(x.id, &st);
		if (s && st == store && x.rs1 == d->rs1) {
			const int32_t l = x.imm < *lo ? x.imm : *lo;
			const int32_t h = x.imm + (int32_t)s > *hi ? x.imm + (int32_t)s : *hi;
			if (h - l <= ROW_BYTES) {
				*lo = l;
				*hi = h;
			}
		}
		/* a jump: what comes after it may not be this block's */
		if (x.id == INSN_JAL || x.id == INSN_JALR || jit_may_write_x(&x, d->rs1))
			break;
		at += x.len;
	}
}

unsigned jit_page_check(struct em *e, int a, unsigned mask, unsigned need, int32_t size_at,
			int32_t pflags_at, uint8_t **fail)
{
	op_rm(e, 1, 0x3b, a, RBX, size_at);              /* cmp a, size */
	fail[0] = jcc32(e, CC_AE);
	if (a != RDX)
		mov_rr(e, RDX, a);
	shift_ri(e, 1, SH_SHR, RDX, GPAGE_SHIFT);
	op_rm(e, 1, 0x8b, RCX, RBX, pflags_at);
	if (mask == need && !(need & (need - 1))) {      /* one flag to have */
		op_sib(e, 0, 0, 0, 0xf6, 0, RCX, RDX, 0);    /* test byte [rcx+rdx], need */
		b1(e, (uint8_t)need);
		fail[1] = jcc32(e, CC_E);
		return 2;
	}
	op_sib(e, 0, 0, 1, 0xb6, RDX, RCX, RDX, 0);     /* movzx edx, byte [rcx+rdx] */
	b1(e, 0x80); b1(e, 0xe2); b1(e, (uint8_t)mask);  /* and dl, mask */
	b1(e, 0x80); b1(e, 0xfa); b1(e, (uint8_t)need);  /* cmp dl, need */
	fail[1] = jcc32(e, CC_NE);
	return 2;
}

unsigned jit_row_check(struct em *e, struct em *cold, int32_t imm, int32_t lo, int32_t hi,
		       unsigned mask, unsigned need, int32_t size_at, int32_t pflags_at,
		       uint8_t **fail)
{
	op_mem(e, 0, 1, 0, 0x8d, RDX, RAX, -1, 0, lo - imm);     /* lea rdx, [rax + lo - imm] */
	mov_rr32(e, RCX, RDX);
	alu_ri(e, 0, G1_AND, RCX, GPAGE_SIZE - 1);
	alu_ri(e, 0, G1_CMP, RCX, (int32_t)GPAGE_SIZE - (hi - lo));
	uint8_t *cross = jcc32(e, CC_A);
	unsigned n = jit_page_check(e, RDX, mask, need, size_at, pflags_at, fail);
	uint8_t *done = e->p;
	/* across two pages: the first one's, then the last byte's */
	patch32(cross, cold->p);
	n += jit_page_check(cold, RDX, mask, need, size_at, pflags_at, fail + n);
	op_mem(cold, 0, 1, 0, 0x8d, RDX, RAX, -1, 0, hi - 1 - imm);
	n += jit_page_check(cold, RDX, mask, need, size_at, pflags_at, fail + n);
	patch32(jmp32(cold), done);
	return n;
}
