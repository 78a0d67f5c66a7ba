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
	const char *fmt = insn_table[id].fmt;
	unsigned rd = (w >> 7) & 31;
	d->id = (uint16_t)id;
	d->rd = rd ? (uint8_t)rd : 32;
	d->rs1 = (w >> 15) & 31;
	d->rs2 = (w >> 20) & 31;
	d->rs3 = (w >> 27) & 31;
	d->rm = (w >> 12) & 7;
	/* FP destinations are real registers (f0 is not hardwired). */
	if (strchr(fmt, 'D'))
		d->rd = (uint8_t)rd;
	if (strchr(fmt, 'u'))
		d->imm = (int32_t)(w & 0xfffff000);
	else if (strchr(fmt, 'a'))
		d->imm = sext32((w >> 31 & 1) << 20 | (w >> 12 & 0xff) << 12 |
				(w >> 20 & 1) << 11 | (w >> 21 & 0x3ff) << 1, 21);
	else if (strchr(fmt, 'p'))
		d->imm = sext32((w >> 31 & 1) << 12 | (w >> 7 & 1) << 11 |
				(w >> 25 & 0x3f) << 5 | (w >> 8 & 0xf) << 1, 13);
	else if (strchr(fmt, 'q'))
		d->imm = sext32((w >> 25) << 5 | (w >> 7 & 31), 12);
	else if (strchr(fmt, '>'))
		d->imm = (int32_t)((w >> 20) & 63);
	else if (strchr(fmt, '<'))
		d->imm = (int32_t)((w >> 20) & 31);
	else if (strchr(fmt, 'E') || strchr(fmt, 'P'))
		d->imm = (int32_t)(w >> 20);
	else if (strchr(fmt, 'j') || strchr(fmt, 'o'))
		d->imm = sext32(w >> 20, 12);
	/* Reserved static rounding modes 5 and 6 are illegal (F chapter). */
	if (strchr(fmt, 'm') && (d->rm == 5 || d->rm == 6))
		d->id = INSN_ILLEGAL, d->imm = (int32_t)(d->len == 2 ? (uint16_t)raw : raw);
}
