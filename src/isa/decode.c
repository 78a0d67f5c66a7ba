/* Decoding: table lookup by major opcode, then operand extraction. */
#include <string.h>
#include "rvpmu/isa.h"

/* For each 7-bit major opcode, the table entries that can match, in table
 * order (which puts the more specific encodings first). A row can hold the
 * whole table, so no opcode can overflow it (OP-FP alone has 50). */
static uint16_t bucket[128][INSN_COUNT];
static uint16_t bucket_len[128];
static int buckets_ready;

static void build_buckets(void)
{
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		unsigned op = insn_table[id].match & 0x7f;
		bucket[op][bucket_len[op]++] = (uint16_t)id;
	}
	buckets_ready = 1;
}

enum insn_id insn_lookup(uint32_t raw)
{
	if (!buckets_ready)
		build_buckets();
	unsigned op = raw & 0x7f;
	for (int i = 0; i < bucket_len[op]; i++) {
		const struct insn_desc *e = &insn_table[bucket[op][i]];
		if ((raw & e->mask) == e->match)
			return (enum insn_id)bucket[op][i];
	}
	return INSN_ILLEGAL;
}

static int32_t sext32(uint32_t v, int bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* What insn_table's format string of an instruction says decode needs,
 * read once: the kind of its immediate (the first that applies, in this
 * order), an FP destination, a rounding-mode field */
enum { F_NONE, F_U, F_J, F_B, F_S, F_SH6, F_SH5, F_CSR, F_I, F_IMM = 15, F_FPRD = 16, F_RM = 32 };

static unsigned fmt_flags(enum insn_id id)
{
	static uint8_t flags[INSN_COUNT];
	static int ready;
	if (!ready) {
		for (unsigned k = 0; k < INSN_COUNT; k++) {
			const char *fmt = insn_table[k].fmt;
			unsigned f = strchr(fmt, 'u') ? F_U : strchr(fmt, 'a') ? F_J : strchr(fmt, 'p') ? F_B :
				     strchr(fmt, 'q') ? F_S : strchr(fmt, '>') ? F_SH6 : strchr(fmt, '<') ? F_SH5 :
				     strchr(fmt, 'E') || strchr(fmt, 'P') ? F_CSR :
				     strchr(fmt, 'j') || strchr(fmt, 'o') ? F_I : F_NONE;
			if (strchr(fmt, 'D'))
				f |= F_FPRD;
			if (strchr(fmt, 'm'))
				f |= F_RM;
			flags[k] = (uint8_t)f;
		}
		ready = 1;
	}
	return flags[id];
}

void insn_decode(uint32_t raw, struct dinsn *d)
{
	memset(d, 0, sizeof(*d));
	d->len = (uint8_t)insn_length((uint16_t)raw);
	d->id = INSN_ILLEGAL;
	d->imm = (int32_t)(d->len == 2 ? (uint16_t)raw : raw);
	uint32_t w = raw;
	if (d->len == 2) {
		w = rvc_expand((uint16_t)raw);
		if (!w)
			return;
	}
	enum insn_id id = insn_lookup(w);
	if (id == INSN_ILLEGAL)
		return;
	unsigned rd = (w >> 7) & 31;
	d->id = (uint16_t)id;
	d->rd = rd ? (uint8_t)rd : 32;
	d->rs1 = (w >> 15) & 31;
	d->rs2 = (w >> 20) & 31;
	d->rs3 = (w >> 27) & 31;
	d->rm = (w >> 12) & 7;
	const unsigned f = fmt_flags(id);
	/* FP destinations are real registers (f0 is not hardwired). */
	if (f & F_FPRD)
		d->rd = (uint8_t)rd;
	switch (f & F_IMM) {
	case F_U:
		d->imm = (int32_t)(w & 0xfffff000);
		break;
	case F_J:
		d->imm = sext32((w >> 31 & 1) << 20 | (w >> 12 & 0xff) << 12 |
				(w >> 20 & 1) << 11 | (w >> 21 & 0x3ff) << 1, 21);
		break;
	case F_B:
		d->imm = sext32((w >> 31 & 1) << 12 | (w >> 7 & 1) << 11 |
				(w >> 25 & 0x3f) << 5 | (w >> 8 & 0xf) << 1, 13);
		break;
	case F_S:
		d->imm = sext32((w >> 25) << 5 | (w >> 7 & 31), 12);
		break;
	case F_SH6:
		d->imm = (int32_t)((w >> 20) & 63);
		break;
	case F_SH5:
		d->imm = (int32_t)((w >> 20) & 31);
		break;
	case F_CSR:
		d->imm = (int32_t)(w >> 20);
		break;
	case F_I:
		d->imm = sext32(w >> 20, 12);
		break;
	}
	/* Reserved static rounding modes 5 and 6 are illegal (F chapter). */
	if ((f & F_RM) && (d->rm == 5 || d->rm == 6))
		d->id = INSN_ILLEGAL, d->imm = (int32_t)(d->len == 2 ? (uint16_t)raw : raw);
}
