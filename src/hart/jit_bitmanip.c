/* Zba, Zbb and Zbs (the B chapter of the unprivileged ISA) and mulhsu in
 * translated code (jit_ops.h). Only baseline x86-64 is emitted: no BMI,
 * POPCNT or LZCNT, which a host may lack, so clz and ctz are bsr and bsf
 * with their zero case apart, cpop and orc.b are SWAR sequences. The
 * results are the step loop's (exec_ops.h) bit for bit. */
#include "jit_ops.h"

int jit_bitmanip_srcs(unsigned id)
{
	switch (id) {
	case INSN_ADD_UW: case INSN_SH1ADD: case INSN_SH2ADD: case INSN_SH3ADD:
	case INSN_SH1ADD_UW: case INSN_SH2ADD_UW: case INSN_SH3ADD_UW:
	case INSN_ANDN: case INSN_ORN: case INSN_XNOR:
	case INSN_MAX: case INSN_MAXU: case INSN_MIN: case INSN_MINU:
	case INSN_ROL: case INSN_ROLW: case INSN_ROR: case INSN_RORW:
	case INSN_BCLR: case INSN_BEXT: case INSN_BINV: case INSN_BSET:
	case INSN_MULHSU:
		return 2;
	case INSN_SLLI_UW:
	case INSN_CLZ: case INSN_CLZW: case INSN_CTZ: case INSN_CTZW:
	case INSN_CPOP: case INSN_CPOPW:
	case INSN_SEXT_B: case INSN_SEXT_H: case INSN_ZEXT_H:
	case INSN_RORI: case INSN_RORIW: case INSN_ORC_B: case INSN_REV8:
	case INSN_BCLRI: case INSN_BEXTI: case INSN_BINVI: case INSN_BSETI:
		return 1;
	}
	return 0;
}

/* rax = the number of bits set in rax (rcx, rdx clobbered): the SWAR
 * count, pairs, nibbles, then bytes summed by one multiply */
static void popcount(struct em *e)
{
	mov_rr(e, RCX, RAX);
	shift_ri(e, 1, SH_SHR, RCX, 1);
	mov_ri(e, RDX, 0x5555555555555555ull);
	alu_rr(e, 1, G1_AND, RCX, RDX);
	alu_rr(e, 1, G1_SUB, RAX, RCX);
	mov_ri(e, RDX, 0x3333333333333333ull);
	mov_rr(e, RCX, RAX);
	shift_ri(e, 1, SH_SHR, RCX, 2);
	alu_rr(e, 1, G1_AND, RCX, RDX);
	alu_rr(e, 1, G1_AND, RAX, RDX);
	alu_rr(e, 1, G1_ADD, RAX, RCX);
	mov_rr(e, RCX, RAX);
	shift_ri(e, 1, SH_SHR, RCX, 4);
	alu_rr(e, 1, G1_ADD, RAX, RCX);
	mov_ri(e, RDX, 0x0f0f0f0f0f0f0f0full);
	alu_rr(e, 1, G1_AND, RAX, RDX);
	mov_ri(e, RDX, 0x0101010101010101ull);
	imul_rr(e, 1, RAX, RDX);
	shift_ri(e, 1, SH_SHR, RAX, 56);
}

/* rcx = orc.b of rax (rdx clobbered): a byte's top bit is set after
 * (low seven bits + 0x7f) | byte exactly when the byte is not zero; no
 * sum carries into the next byte. Each such bit, moved to its byte's
 * bottom, times 0xff is the byte's result. */
static void orc_b(struct em *e)
{
	mov_ri(e, RDX, 0x7f7f7f7f7f7f7f7full);
	mov_rr(e, RCX, RAX);
	alu_rr(e, 1, G1_AND, RCX, RDX);
	alu_rr(e, 1, G1_ADD, RCX, RDX);
	alu_rr(e, 1, G1_OR, RCX, RAX);
	grp3(e, 1, G3_NOT, RDX);   /* 0x8080... */
	alu_rr(e, 1, G1_AND, RCX, RDX);
	shift_ri(e, 1, SH_SHR, RCX, 7);
	op_rr(e, 1, 0x69, RCX, RCX);   /* imul rcx, rcx, imm32 */
	d4(e, 0xff);
}

/* rcx = the index of rax's highest (bsr) or lowest (bsf) set bit, or
 * zero_value when rax (eax when !w) is 0, where bsr and bsf leave their
 * destination undefined */
static void bit_scan(struct em *e, int w, unsigned op, uint32_t zero_value)
{
	op0f_rr(e, w, op, RCX, RAX);
	uint8_t *nonzero = jcc8(e, CC_NE);
	mov_ri(e, RCX, zero_value);
	patch8(nonzero, e->p);
}

/* rax = host register a (rs1) */
static void to_rax(struct em *e, int a)
{
	if (a != RAX)
		mov_rr(e, RAX, a);
}

void jit_bitmanip(struct em *e, const struct dinsn *d, int a, int b, int rd)
{
	const unsigned imm = (unsigned)d->imm;
	int res = RAX, sext = 0;
	if (b >= 0 && b != RCX)
		mov_rr(e, RCX, b);   /* first: b may be rdx, a rax */
	switch (d->id) {
	case INSN_ADD_UW:
	case INSN_SH1ADD_UW: case INSN_SH2ADD_UW: case INSN_SH3ADD_UW:
	case INSN_SH1ADD: case INSN_SH2ADD: case INSN_SH3ADD: {
		const unsigned n = d->id == INSN_ADD_UW ? 0 :
			d->id == INSN_SH1ADD || d->id == INSN_SH1ADD_UW ? 1 :
			d->id == INSN_SH2ADD || d->id == INSN_SH2ADD_UW ? 2 : 3;
		if (d->id == INSN_SH1ADD || d->id == INSN_SH2ADD || d->id == INSN_SH3ADD)
			mov_rr(e, RAX, a);
		else
			mov_rr32(e, RAX, a);   /* .uw: rs1's low word, zero-extended */
		if (n)
			shift_ri(e, 1, SH_SHL, RAX, n);
		alu_rr(e, 1, G1_ADD, RAX, RCX);
		break;
	}
	case INSN_SLLI_UW:
		mov_rr32(e, RAX, a);
		shift_ri(e, 1, SH_SHL, RAX, imm);
		break;
	case INSN_ANDN:
	case INSN_ORN:
		mov_rr(e, RDX, RCX);
		grp3(e, 1, G3_NOT, RDX);
		to_rax(e, a);
		alu_rr(e, 1, d->id == INSN_ANDN ? G1_AND : G1_OR, RAX, RDX);
		break;
	case INSN_XNOR:
		to_rax(e, a);
		alu_rr(e, 1, G1_XOR, RAX, RCX);
		grp3(e, 1, G3_NOT, RAX);
		break;
	case INSN_CLZ:    /* 63 - index = 63 ^ index; 127 ^ 63 = 64 */
	case INSN_CLZW: { /* 31 ^ index; 63 ^ 31 = 32 */
		const int w = d->id == INSN_CLZ;
		to_rax(e, a);
		bit_scan(e, w, 0xbd, w ? 127 : 63);
		alu_ri(e, 0, G1_XOR, RCX, w ? 63 : 31);
		res = RCX;
		break;
	}
	case INSN_CTZ:
	case INSN_CTZW: {
		const int w = d->id == INSN_CTZ;
		to_rax(e, a);
		bit_scan(e, w, 0xbc, w ? 64 : 32);
		res = RCX;
		break;
	}
	case INSN_CPOP:
	case INSN_CPOPW:
		if (d->id == INSN_CPOPW)
			mov_rr32(e, RAX, a);
		else
			to_rax(e, a);
		popcount(e);
		break;
	case INSN_MAX: case INSN_MAXU: case INSN_MIN: case INSN_MINU: {
		/* rs2 replaces rs1 when rs1 is below (max) or above (min) it */
		const unsigned cc = d->id == INSN_MAX ? CC_L : d->id == INSN_MAXU ? CC_B :
				    d->id == INSN_MIN ? CC_G : CC_A;
		to_rax(e, a);
		alu_rr(e, 1, G1_CMP, RAX, RCX);
		cmov(e, 1, cc, RAX, RCX);
		break;
	}
	case INSN_SEXT_B:
		op0f_rr(e, 1, 0xbe, RAX, a);   /* movsx rax, a's low byte (REX.W: sil, dil, bpl) */
		break;
	case INSN_SEXT_H:
		op0f_rr(e, 1, 0xbf, RAX, a);   /* movsx rax, a's low word */
		break;
	case INSN_ZEXT_H:
		op0f_rr(e, 0, 0xb7, RAX, a);   /* movzx eax, a's low word */
		break;
	case INSN_ROL: case INSN_ROR: case INSN_ROLW: case INSN_RORW: {
		/* x86 takes the count modulo 64 (32 for the W forms), as
		 * RISC-V takes rs2's low six (five) bits */
		const int w = d->id == INSN_ROL || d->id == INSN_ROR;
		to_rax(e, a);
		shift_cl(e, w, d->id == INSN_ROL || d->id == INSN_ROLW ? SH_ROL : SH_ROR, RAX);
		sext = !w;
		break;
	}
	case INSN_RORI:
	case INSN_RORIW:
		to_rax(e, a);
		shift_ri(e, d->id == INSN_RORI, SH_ROR, RAX, imm);
		sext = d->id == INSN_RORIW;
		break;
	case INSN_ORC_B:
		to_rax(e, a);
		orc_b(e);
		res = RCX;
		break;
	case INSN_REV8:
		to_rax(e, a);
		bswap64(e, RAX);
		break;
	case INSN_BCLR: case INSN_BINV: case INSN_BSET: case INSN_BEXT:
		to_rax(e, a);
		bt_rr(e, d->id == INSN_BCLR ? BTR : d->id == INSN_BINV ? BTC : d->id == INSN_BSET ? BTS : BT,
		      RAX, RCX);
		if (d->id == INSN_BEXT)
			setcc_eax(e, CC_B);   /* the bit tested is in CF */
		break;
	case INSN_BCLRI: case INSN_BINVI: case INSN_BSETI: case INSN_BEXTI:
		to_rax(e, a);
		bt_ri(e, d->id == INSN_BCLRI ? BTR : d->id == INSN_BINVI ? BTC : d->id == INSN_BSETI ? BTS : BT,
		      RAX, imm);
		if (d->id == INSN_BEXTI)
			setcc_eax(e, CC_B);
		break;
	case INSN_MULHSU:
		/* the unsigned high half, less rs2 when rs1 is negative
		 * (rs1 = u - 2^64 then); nothing to take when rs1 is x0 */
		to_rax(e, a);
		grp3(e, 1, G3_MUL, RCX);
		if (a != RAX) {
			mov_rr(e, RAX, a);
			shift_ri(e, 1, SH_SAR, RAX, 63);
			alu_rr(e, 1, G1_AND, RAX, RCX);
			alu_rr(e, 1, G1_SUB, RDX, RAX);
		}
		res = RDX;
		break;
	default:
		abort();   /* jit_bitmanip_srcs() said it was one */
	}
	if (sext)
		movsxd(e, rd, res);
	else
		mov_rr(e, rd, res);
}
