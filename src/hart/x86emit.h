/* The few x86-64 instruction forms the block translator emits (Intel SDM
 * vol. 2: REX prefix, ModRM, SIB). Registers are numbered as in the
 * encoding: rax 0, rcx 1, rdx 2, rbx 3, rsp 4, rbp 5, rsi 6, rdi 7,
 * r8-r15 8-15. */
#ifndef RVPMU_HART_X86EMIT_H
#define RVPMU_HART_X86EMIT_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
/* condition codes (the low nibble of Jcc/SETcc) */
enum { CC_B = 2, CC_AE = 3, CC_E = 4, CC_NE = 5, CC_BE = 6, CC_A = 7, CC_L = 0xc, CC_GE = 0xd,
       CC_LE = 0xe, CC_G = 0xf };
/* the /digit of the group-1 (81), shift (C1/D3) and group-3 (F7) opcodes */
enum { G1_ADD = 0, G1_OR = 1, G1_AND = 4, G1_SUB = 5, G1_XOR = 6, G1_CMP = 7 };
enum { SH_ROL = 0, SH_ROR = 1, SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };
enum { G3_NOT = 2, G3_NEG = 3, G3_MUL = 4, G3_IMUL = 5, G3_DIV = 6, G3_IDIV = 7 };

struct em {
	uint8_t *p;
};

static inline void b1(struct em *e, unsigned v) { *e->p++ = (uint8_t)v; }
static inline void d4(struct em *e, uint32_t v) { memcpy(e->p, &v, 4); e->p += 4; }
static inline void d8(struct em *e, uint64_t v) { memcpy(e->p, &v, 8); e->p += 8; }

/* REX with W, and the high bits of reg, index and base; always emitted
 * when force (byte registers spl..dil). */
static inline void rex(struct em *e, int w, int reg, int index, int base, int force)
{
	unsigned v = 0x40 | (unsigned)w << 3 | (unsigned)(reg >> 3) << 2 |
		     (unsigned)(index >> 3) << 1 | (unsigned)(base >> 3);
	if (v != 0x40 || force)
		b1(e, v);
}

/* op with a register-direct ModRM: reg field reg, r/m field rm */
static inline void op_rr(struct em *e, int w, unsigned op, int reg, int rm)
{
	rex(e, w, reg, 0, rm, 0);
	b1(e, op);
	b1(e, 0xc0 | (reg & 7) << 3 | (rm & 7));
}

static inline void op0f_rr(struct em *e, int w, unsigned op, int reg, int rm)
{
	rex(e, w, reg, 0, rm, 0);
	b1(e, 0x0f);
	b1(e, op);
	b1(e, 0xc0 | (reg & 7) << 3 | (rm & 7));
}

/* op with a [base + disp32] operand */
static inline void op_rm(struct em *e, int w, unsigned op, int reg, int base, int32_t disp)
{
	const int d8 = disp == (int8_t)disp;
	rex(e, w, reg, 0, base, 0);
	b1(e, op);
	b1(e, (d8 ? 0x40 : 0x80) | (reg & 7) << 3 | (base & 7));
	if ((base & 7) == RSP)
		b1(e, 0x24);  /* SIB: no index */
	if (d8)
		b1(e, (uint8_t)disp);
	else
		d4(e, (uint32_t)disp);
}

/* op with a [base + index] operand (base not rbp/r13), optional 0F
 * escape, optional prefix (0x66) */
static inline void op_sib(struct em *e, unsigned prefix, int w, int esc, unsigned op,
			  int reg, int base, int index, int force_rex)
{
	if (prefix)
		b1(e, prefix);
	rex(e, w, reg, index, base, force_rex);
	if (esc)
		b1(e, 0x0f);
	b1(e, op);
	b1(e, (reg & 7) << 3 | 4);
	b1(e, (index & 7) << 3 | (base & 7));
}

/* op with a [base + index * 2^scale + disp] operand (index -1: none),
 * always with a displacement (disp8 or disp32), so any base will do;
 * optional prefix (0x66) and 0F escape */
static inline void op_mem(struct em *e, unsigned prefix, int w, int esc, unsigned op, int reg,
			  int base, int index, unsigned scale, int32_t disp)
{
	if (prefix)
		b1(e, prefix);
	rex(e, w, reg, index < 0 ? 0 : index, base, 0);
	if (esc)
		b1(e, 0x0f);
	b1(e, op);
	const unsigned mod = disp == (int8_t)disp ? 0x40 : 0x80;
	if (index < 0 && (base & 7) != RSP) {
		b1(e, mod | (reg & 7) << 3 | (base & 7));
	} else {
		b1(e, mod | (reg & 7) << 3 | 4);
		b1(e, scale << 6 | (index < 0 ? 4u : (unsigned)(index & 7)) << 3 | (base & 7));
	}
	if (mod == 0x40)
		b1(e, (uint8_t)disp);
	else
		d4(e, (uint32_t)disp);
}

static inline void mov_rr(struct em *e, int dst, int src) { op_rr(e, 1, 0x89, src, dst); }
static inline void mov_rr32(struct em *e, int dst, int src) { op_rr(e, 0, 0x89, src, dst); }
static inline void movsxd(struct em *e, int dst, int src) { op_rr(e, 1, 0x63, dst, src); }
static inline void xor_zero(struct em *e, int r) { op_rr(e, 0, 0x31, r, r); }
/* dst op= src for the group-1 register forms (add 01 ... cmp 39) */
static inline void alu_rr(struct em *e, int w, unsigned g1, int dst, int src)
{
	op_rr(e, w, g1 << 3 | 1, src, dst);
}
static inline void alu_ri(struct em *e, int w, unsigned g1, int dst, int32_t imm)
{
	const int i8 = imm == (int8_t)imm;   /* 83: a sign-extended imm8 */
	rex(e, w, 0, 0, dst, 0);
	b1(e, i8 ? 0x83 : 0x81);
	b1(e, 0xc0 | g1 << 3 | (dst & 7));
	if (i8)
		b1(e, (uint8_t)imm);
	else
		d4(e, (uint32_t)imm);
}
static inline void shift_ri(struct em *e, int w, unsigned sh, int r, unsigned n)
{
	rex(e, w, 0, 0, r, 0);
	b1(e, 0xc1);
	b1(e, 0xc0 | sh << 3 | (r & 7));
	b1(e, n);
}
static inline void shift_cl(struct em *e, int w, unsigned sh, int r)
{
	rex(e, w, 0, 0, r, 0);
	b1(e, 0xd3);
	b1(e, 0xc0 | sh << 3 | (r & 7));
}
static inline void grp3(struct em *e, int w, unsigned g3, int r)
{
	rex(e, w, 0, 0, r, 0);
	b1(e, 0xf7);
	b1(e, 0xc0 | g3 << 3 | (r & 7));
}
static inline void imul_rr(struct em *e, int w, int dst, int src) { op0f_rr(e, w, 0xaf, dst, src); }
/* dst = src when cc holds (cmovcc) */
static inline void cmov(struct em *e, int w, unsigned cc, int dst, int src) { op0f_rr(e, w, 0x40 | cc, dst, src); }
/* the bit-test group with a register bit index (0F A3 bt, AB bts, B3 btr,
 * BB btc: the index taken modulo the width) and with an imm8 (0F BA /4../7) */
enum { BT = 4, BTS = 5, BTR = 6, BTC = 7 };
static inline void bt_rr(struct em *e, unsigned bt, int r, int index)
{
	op0f_rr(e, 1, 0xa3 | (bt - BT) << 3, index, r);
}
static inline void bt_ri(struct em *e, unsigned bt, int r, unsigned bit)
{
	rex(e, 1, 0, 0, r, 0);
	b1(e, 0x0f); b1(e, 0xba);
	b1(e, 0xc0 | bt << 3 | (r & 7));
	b1(e, bit);
}
/* the bit-test group on the qword at [base + disp], bit imm8 */
static inline void bt_mi(struct em *e, unsigned bt, int base, int32_t disp, unsigned bit)
{
	op_mem(e, 0, 1, 1, 0xba, (int)bt, base, -1, 0, disp);
	b1(e, bit);
}
static inline void bswap64(struct em *e, int r) { rex(e, 1, 0, 0, r, 0); b1(e, 0x0f); b1(e, 0xc8 | (r & 7)); }
static inline void mov_ri(struct em *e, int r, uint64_t v)
{
	if (v <= UINT32_MAX) {           /* B8+r: a 32-bit move zero-extends */
		rex(e, 0, 0, 0, r, 0);
		b1(e, 0xb8 | (r & 7));
		d4(e, (uint32_t)v);
	} else if ((int64_t)v == (int32_t)v) {  /* C7 /0: sign-extended imm32 */
		rex(e, 1, 0, 0, r, 0);
		b1(e, 0xc7);
		b1(e, 0xc0 | (r & 7));
		d4(e, (uint32_t)v);
	} else {
		rex(e, 1, 0, 0, r, 0);
		b1(e, 0xb8 | (r & 7));
		d8(e, v);
	}
}
/* eax = flags say cc ? 1 : 0 */
static inline void setcc_eax(struct em *e, unsigned cc)
{
	b1(e, 0x0f); b1(e, 0x90 | cc); b1(e, 0xc0);  /* setcc al */
	b1(e, 0x0f); b1(e, 0xb6); b1(e, 0xc0);       /* movzx eax, al */
}
/* qword [base + disp] op= imm (group 1; an imm8 when it fits) */
static inline void alu_mi(struct em *e, unsigned g1, int base, int32_t disp, int32_t imm)
{
	const int i8 = imm == (int8_t)imm;
	op_rm(e, 1, i8 ? 0x83 : 0x81, (int)g1, base, disp);
	if (i8)
		b1(e, (uint8_t)imm);
	else
		d4(e, (uint32_t)imm);
}
/* the low byte of r = cc holds (r zeroed before the flags were set) */
static inline void setcc(struct em *e, unsigned cc, int r)
{
	rex(e, 0, 0, 0, r, r >= 4 && r < 8);
	b1(e, 0x0f); b1(e, 0x90 | cc); b1(e, 0xc0 | (r & 7));
}
/* jumps: rel32 forms return the address of their displacement */
static inline uint8_t *jcc32(struct em *e, unsigned cc)
{
	b1(e, 0x0f); b1(e, 0x80 | cc);
	uint8_t *at = e->p;
	d4(e, 0);
	return at;
}
static inline uint8_t *jmp32(struct em *e)
{
	b1(e, 0xe9);
	uint8_t *at = e->p;
	d4(e, 0);
	return at;
}
static inline uint8_t *call32(struct em *e)
{
	b1(e, 0xe8);
	uint8_t *at = e->p;
	d4(e, 0);
	return at;
}
static inline void patch32(uint8_t *at, const uint8_t *target)
{
	int32_t rel = (int32_t)(target - (at + 4));
	memcpy(at, &rel, 4);
}
static inline uint8_t *jcc8(struct em *e, unsigned cc) { b1(e, 0x70 | cc); b1(e, 0); return e->p - 1; }
static inline uint8_t *jmp8(struct em *e) { b1(e, 0xeb); b1(e, 0); return e->p - 1; }
static inline void patch8(uint8_t *at, const uint8_t *target)
{
	ptrdiff_t rel = target - (at + 1);
	if (rel != (int8_t)rel)
		abort();   /* a translator bug: the jump needs the rel32 form */
	*at = (uint8_t)rel;
}
static inline void push(struct em *e, int r) { rex(e, 0, 0, 0, r, 0); b1(e, 0x50 | (r & 7)); }
static inline void pop(struct em *e, int r) { rex(e, 0, 0, 0, r, 0); b1(e, 0x58 | (r & 7)); }

#endif
