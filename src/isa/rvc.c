/* RVC: every RV64 compressed form expanded to its 32-bit equivalent
 * (Unprivileged ISA, chapter "C" Standard Extension). */
#include "rvpmu/isa.h"

#define BIT(x, n) (((x) >> (n)) & 1u)
#define BITS(x, hi, lo) (((x) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

static uint32_t i_type(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t s_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned op)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | op;
}

static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t b_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3)
{
	uint32_t u = (uint32_t)imm;
	return BIT(u, 12) << 31 | BITS(u, 10, 5) << 25 | rs2 << 20 | rs1 << 15 |
	       f3 << 12 | BITS(u, 4, 1) << 8 | BIT(u, 11) << 7 | 0x63;
}

static uint32_t j_type(int32_t imm, unsigned rd)
{
	uint32_t u = (uint32_t)imm;
	return BIT(u, 20) << 31 | BITS(u, 10, 1) << 21 | BIT(u, 11) << 20 |
	       BITS(u, 19, 12) << 12 | rd << 7 | 0x6f;
}

static int32_t sext(uint32_t v, int bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

uint32_t rvc_expand(uint16_t c)
{
	unsigned f3 = BITS(c, 15, 13);
	unsigned rd = BITS(c, 11, 7), rs2 = BITS(c, 6, 2);
	unsigned rdp = 8 + BITS(c, 4, 2), rs1p = 8 + BITS(c, 9, 7);
	int32_t imm6 = sext(BIT(c, 12) << 5 | BITS(c, 6, 2), 6);
	/* offsets of the register-based loads and stores */
	uint32_t off_w = BITS(c, 12, 10) << 3 | BIT(c, 6) << 2 | BIT(c, 5) << 6;
	uint32_t off_d = BITS(c, 12, 10) << 3 | BITS(c, 6, 5) << 6;

	switch ((c & 3) << 3 | f3) {
	/* quadrant 0 */
	case 0x00: { /* c.addi4spn */
		uint32_t nz = BITS(c, 12, 11) << 4 | BITS(c, 10, 7) << 6 | BIT(c, 6) << 2 | BIT(c, 5) << 3;
		return nz ? i_type(nz, 2, 0, rdp, 0x13) : 0;
	}
	case 0x01: return i_type(off_d, rs1p, 3, rdp, 0x07);      /* c.fld */
	case 0x02: return i_type(off_w, rs1p, 2, rdp, 0x03);      /* c.lw */
	case 0x03: return i_type(off_d, rs1p, 3, rdp, 0x03);      /* c.ld */
	case 0x05: return s_type(off_d, rdp, rs1p, 3, 0x27);      /* c.fsd */
	case 0x06: return s_type(off_w, rdp, rs1p, 2, 0x23);      /* c.sw */
	case 0x07: return s_type(off_d, rdp, rs1p, 3, 0x23);      /* c.sd */
	/* quadrant 1 */
	case 0x08: return i_type(imm6, rd, 0, rd, 0x13);          /* c.addi, c.nop */
	case 0x09: return rd ? i_type(imm6, rd, 0, rd, 0x1b) : 0; /* c.addiw */
	case 0x0a: return i_type(imm6, 0, 0, rd, 0x13);           /* c.li */
	case 0x0b:
		if (rd == 2) { /* c.addi16sp */
			int32_t nz = sext(BIT(c, 12) << 9 | BIT(c, 6) << 4 | BIT(c, 5) << 6 |
					  BITS(c, 4, 3) << 7 | BIT(c, 2) << 5, 10);
			return nz ? i_type(nz, 2, 0, 2, 0x13) : 0;
		}
		/* c.lui */
		return imm6 ? ((uint32_t)imm6 << 12 | rd << 7 | 0x37) : 0;
	case 0x0c: {
		unsigned shamt = BIT(c, 12) << 5 | BITS(c, 6, 2);
		switch (BITS(c, 11, 10)) {
		case 0: return i_type(shamt, rs1p, 5, rs1p, 0x13);          /* c.srli */
		case 1: return i_type(0x400 | shamt, rs1p, 5, rs1p, 0x13);  /* c.srai */
		case 2: return i_type(imm6, rs1p, 7, rs1p, 0x13);           /* c.andi */
		}
		static const unsigned f3s[4] = {0, 4, 6, 7};
		unsigned sel = BITS(c, 6, 5);
		if (!BIT(c, 12)) /* c.sub c.xor c.or c.and */
			return r_type(sel ? 0 : 0x20, rdp, rs1p, f3s[sel], rs1p, 0x33);
		if (sel >= 2)
			return 0;
		/* c.subw c.addw */
		return r_type(sel ? 0 : 0x20, rdp, rs1p, 0, rs1p, 0x3b);
	}
	case 0x0d: { /* c.j */
		int32_t off = sext(BIT(c, 12) << 11 | BIT(c, 11) << 4 | BITS(c, 10, 9) << 8 |
				   BIT(c, 8) << 10 | BIT(c, 7) << 6 | BIT(c, 6) << 7 |
				   BITS(c, 5, 3) << 1 | BIT(c, 2) << 5, 12);
		return j_type(off, 0);
	}
	case 0x0e: case 0x0f: { /* c.beqz c.bnez */
		int32_t off = sext(BIT(c, 12) << 8 | BITS(c, 11, 10) << 3 | BITS(c, 6, 5) << 6 |
				   BITS(c, 4, 3) << 1 | BIT(c, 2) << 5, 9);
		return b_type(off, 0, rs1p, f3 == 6 ? 0 : 1);
	}
	/* quadrant 2 */
	case 0x10: return i_type(BIT(c, 12) << 5 | rs2, rd, 1, rd, 0x13); /* c.slli */
	case 0x11: /* c.fldsp */
		return i_type(BIT(c, 12) << 5 | BITS(c, 6, 5) << 3 | BITS(c, 4, 2) << 6, 2, 3, rd, 0x07);
	case 0x12: /* c.lwsp */
		return rd ? i_type(BIT(c, 12) << 5 | BITS(c, 6, 4) << 2 | BITS(c, 3, 2) << 6, 2, 2, rd, 0x03) : 0;
	case 0x13: /* c.ldsp */
		return rd ? i_type(BIT(c, 12) << 5 | BITS(c, 6, 5) << 3 | BITS(c, 4, 2) << 6, 2, 3, rd, 0x03) : 0;
	case 0x14:
		if (!BIT(c, 12)) {
			if (rs2 == 0) /* c.jr */
				return rd ? i_type(0, rd, 0, 0, 0x67) : 0;
			return r_type(0, rs2, 0, 0, rd, 0x33);             /* c.mv */
		}
		if (rs2 == 0)
			return rd ? i_type(0, rd, 0, 1, 0x67) : 0x00100073; /* c.jalr, c.ebreak */
		return r_type(0, rs2, rd, 0, rd, 0x33);                    /* c.add */
	case 0x15: /* c.fsdsp */
		return s_type(BITS(c, 12, 10) << 3 | BITS(c, 9, 7) << 6, rs2, 2, 3, 0x27);
	case 0x16: /* c.swsp */
		return s_type(BITS(c, 12, 9) << 2 | BITS(c, 8, 7) << 6, rs2, 2, 2, 0x23);
	case 0x17: /* c.sdsp */
		return s_type(BITS(c, 12, 10) << 3 | BITS(c, 9, 7) << 6, rs2, 2, 3, 0x23);
	}
	return 0; /* quadrant 0 funct3 100 (reserved) */
}
