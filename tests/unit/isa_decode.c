/* Host unit tests of the instruction table, the decoder and rvc_expand.
 * Build: cc -Iinclude tests/unit/isa_decode.c src/isa/{table,decode,rvc,disasm}.c
 * Prints "PASS isa-unit <check>" or "FAIL isa-unit <check>: why" per check. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/isa.h"

static int failed;

static void report(const char *check, int nbad, const char *first)
{
	if (nbad)
		printf("FAIL isa-unit %s: %d failures, first: %s\n", check, nbad, first);
	else
		printf("PASS isa-unit %s\n", check);
	failed |= nbad != 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

#define NOTE(...) do { if (!bad++) snprintf(first, sizeof(first), __VA_ARGS__); } while (0)

/* Every entry: a 32-bit encoding, its match inside its mask, the opcode in
 * the mask; names unique. */
static void table_well_formed(void)
{
	int bad = 0;
	char first[200] = "";
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		const struct insn_desc *e = &insn_table[id];
		if ((e->match & ~e->mask) || (e->mask & 0x7f) != 0x7f || (e->match & 3) != 3)
			NOTE("%s match %08x mask %08x", e->name, e->match, e->mask);
		for (int j = INSN_ILLEGAL + 1; j < id; j++)
			if (!strcmp(insn_table[j].name, e->name))
				NOTE("duplicate name %s", e->name);
	}
	report("table-well-formed", bad, first);
}

/* Each entry's match value decodes to that entry: no earlier entry
 * swallows it. */
static void table_self_decode(void)
{
	int bad = 0;
	char first[200] = "";
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		enum insn_id got = insn_lookup(insn_table[id].match);
		if (got != (enum insn_id)id)
			NOTE("%s (%08x) decodes as %s", insn_table[id].name, insn_table[id].match,
			     insn_table[got].name);
	}
	report("table-self-decode", bad, first);
}

/* Any word in an entry's encoding space decodes to it or to an earlier,
 * strictly more specific entry nested inside it (fence.tso inside fence). */
static void table_no_shadowing(void)
{
	int bad = 0;
	char first[200] = "";
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		const struct insn_desc *e = &insn_table[id];
		for (int k = 0; k < 4000; k++) {
			uint32_t r = rnd();
			if (k & 1)
				r &= rnd() & rnd(); /* sparse: reach the special cases */
			uint32_t w = e->match | (r & ~e->mask);
			enum insn_id got = insn_lookup(w);
			if (got == (enum insn_id)id)
				continue;
			const struct insn_desc *x = &insn_table[got];
			if (got != INSN_ILLEGAL && (int)got < id && (x->mask & e->mask) == e->mask &&
			    x->mask != e->mask && (x->match & e->mask) == e->match)
				continue;
			NOTE("%08x in %s's space decodes as %s", w, e->name, x->name);
			break;
		}
	}
	report("table-no-shadowing", bad, first);
}

/* Encoders written from the Unprivileged ISA's "Base Instruction Formats"
 * figure, independent of decode.c. */
static uint32_t enc_i(uint32_t op, int rd, int rs1, int32_t imm)
{
	return (uint32_t)imm << 20 | (uint32_t)rs1 << 15 | (uint32_t)rd << 7 | op;
}
static uint32_t enc_s(uint32_t op, int rs1, int rs2, int32_t imm)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 5 & 0x7f) << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 |
	       (u & 31) << 7 | op;
}
static uint32_t enc_b(uint32_t op, int rs1, int rs2, int32_t imm)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | (uint32_t)rs2 << 20 |
	       (uint32_t)rs1 << 15 | (u >> 1 & 15) << 8 | (u >> 11 & 1) << 7 | op;
}
static uint32_t enc_j(uint32_t op, int rd, int32_t imm)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
	       (u >> 12 & 0xff) << 12 | (uint32_t)rd << 7 | op;
}

static int32_t srand_bits(int bits)
{
	return (int32_t)(rnd() << (32 - bits)) >> (32 - bits);
}

/* Operand extraction round-trips for each immediate format; rd x0 goes to
 * the sink register 32, an FP rd 0 stays f0. */
static void decode_fields(void)
{
	int bad = 0;
	char first[200] = "";
	struct dinsn d;
	for (int k = 0; k < 20000; k++) {
		int rd = (int)(rnd() & 31), rs1 = (int)(rnd() & 31), rs2 = (int)(rnd() & 31);
		int sink = rd ? rd : 32;
		int32_t i12 = srand_bits(12), b13 = srand_bits(13) & ~1, j21 = srand_bits(21) & ~1;
		int32_t u = srand_bits(20) * 4096;
		uint32_t w;

		w = enc_i(0x13, rd, rs1, i12); /* addi */
		insn_decode(w, &d);
		if (d.id != INSN_ADDI || d.rd != sink || d.rs1 != rs1 || d.imm != i12 || d.len != 4)
			NOTE("addi %08x: rd %d rs1 %d imm %lld", w, d.rd, d.rs1, (long long)d.imm);
		w = enc_i(0x3003, rd, rs1, i12); /* ld */
		insn_decode(w, &d);
		if (d.id != INSN_LD || d.rd != sink || d.rs1 != rs1 || d.imm != i12)
			NOTE("ld %08x: imm %lld", w, (long long)d.imm);
		w = enc_s(0x3023, rs1, rs2, i12); /* sd */
		insn_decode(w, &d);
		if (d.id != INSN_SD || d.rs1 != rs1 || d.rs2 != rs2 || d.imm != i12)
			NOTE("sd %08x: imm %lld", w, (long long)d.imm);
		w = enc_b(0x5063, rs1, rs2, b13); /* bge */
		insn_decode(w, &d);
		if (d.id != INSN_BGE || d.rs1 != rs1 || d.rs2 != rs2 || d.imm != b13)
			NOTE("bge %08x: imm %lld want %d", w, (long long)d.imm, b13);
		w = enc_j(0x6f, rd, j21); /* jal */
		insn_decode(w, &d);
		if (d.id != INSN_JAL || d.rd != sink || d.imm != j21)
			NOTE("jal %08x: imm %lld want %d", w, (long long)d.imm, j21);
		w = (uint32_t)u | (uint32_t)rd << 7 | 0x37; /* lui */
		insn_decode(w, &d);
		if (d.id != INSN_LUI || d.rd != sink || d.imm != u)
			NOTE("lui %08x: imm %lld", w, (long long)d.imm);
		w = enc_i(0x1013, rd, rs1, (int32_t)(rnd() & 63)); /* slli */
		insn_decode(w, &d);
		if (d.id != INSN_SLLI || d.imm != (int32_t)(w >> 20 & 63))
			NOTE("slli %08x: shamt %lld", w, (long long)d.imm);
		w = enc_i(0x2073, rd, rs1, (int32_t)(rnd() & 0xfff)); /* csrrs */
		insn_decode(w, &d);
		if (d.id != INSN_CSRRS || d.imm != (int32_t)(w >> 20) || d.rs1 != rs1)
			NOTE("csrrs %08x: csr %llx", w, (long long)d.imm);
		w = enc_i(0x3007, rd, rs1, i12); /* fld: FP rd is architectural */
		insn_decode(w, &d);
		if (d.id != INSN_FLD || d.rd != rd || d.imm != i12)
			NOTE("fld %08x: rd %d", w, d.rd);
		unsigned rm = rnd() & 7, rs3 = rnd() & 31;
		w = rs3 << 27 | 1u << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | rm << 12 |
		    (uint32_t)rd << 7 | 0x43; /* fmadd.d */
		insn_decode(w, &d);
		int ok = rm == 5 || rm == 6 ? d.id == INSN_ILLEGAL :
			 d.id == INSN_FMADD_D && d.rd == rd && d.rs1 == rs1 && d.rs2 == rs2 &&
			 d.rs3 == rs3 && d.rm == rm;
		if (!ok)
			NOTE("fmadd.d %08x rm %u: id %s", w, rm, insn_table[d.id].name);
	}
	report("decode-fields", bad, first);
}

/* Compressed forms against expansions known from the C chapter (the
 * encodings GCC emits for every function prologue and epilogue). */
static void rvc_known(void)
{
	static const struct { uint16_t c; uint32_t w; } k[] = {
		{0x1141, 0xff010113}, /* c.addi sp,-16 = addi sp,sp,-16 */
		{0x0141, 0x01010113}, /* c.addi sp,16 */
		{0xe406, 0x00113423}, /* c.sdsp ra,8(sp) = sd ra,8(sp) */
		{0x60a2, 0x00813083}, /* c.ldsp ra,8(sp) = ld ra,8(sp) */
		{0x8082, 0x00008067}, /* c.jr ra = jalr x0,0(ra) */
		{0x9002, 0x00100073}, /* c.ebreak */
		{0x0001, 0x00000013}, /* c.nop */
		{0x852e, 0x00b00533}, /* c.mv a0,a1 = add a0,x0,a1 */
		{0x4515, 0x00500513}, /* c.li a0,5 = addi a0,x0,5 */
	};
	int bad = 0;
	char first[200] = "";
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (rvc_expand(k[i].c) != k[i].w)
			NOTE("%04x -> %08x, want %08x", k[i].c, rvc_expand(k[i].c), k[i].w);
	report("rvc-known", bad, first);
}

/* Reserved compressed encodings expand to 0; every other 16-bit word
 * expands to a 32-bit instruction the table knows, and decodes as len 2. */
static void rvc_reserved_and_total(void)
{
	static const uint16_t reserved[] = {
		0x0000, /* c.addi4spn nzuimm = 0 (and the defined illegal insn) */
		0x2001, /* c.addiw rd = 0 */
		0x4002, /* c.lwsp rd = 0 */
		0x6002, /* c.ldsp rd = 0 */
		0x8002, /* c.jr rs1 = 0 */
		0x6081, /* c.lui nzimm = 0 */
		0x6101, /* c.addi16sp nzimm = 0 */
		0x8000, /* quadrant 0, funct3 100 */
		0x9c41, /* quadrant 1, funct6 100111, funct2 10 */
		0x9c61, /* quadrant 1, funct6 100111, funct2 11 */
	};
	int bad = 0;
	char first[200] = "";
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (rvc_expand(reserved[i]))
			NOTE("reserved %04x expands to %08x", reserved[i], rvc_expand(reserved[i]));
	for (uint32_t c = 0; c < 65536; c++) {
		if ((c & 3) == 3)
			continue;
		uint32_t w = rvc_expand((uint16_t)c);
		struct dinsn d;
		insn_decode(c, &d);
		if (w && ((w & 3) != 3 || insn_lookup(w) == INSN_ILLEGAL))
			NOTE("%04x expands to unknown %08x", c, w);
		if (d.len != 2 || (d.id == INSN_ILLEGAL) != !w)
			NOTE("%04x decodes len %d id %s", c, d.len, insn_table[d.id].name);
	}
	report("rvc-reserved-and-total", bad, first);
}

/* insn_disasm keeps snprintf's contract. */
static void disasm_contract(void)
{
	int bad = 0;
	char first[200] = "", full[64], small[5];
	uint32_t w = 0x00b50533; /* add a0,a0,a1 */
	int n = insn_disasm(full, sizeof(full), w, 0);
	if (n != (int)strlen(full) || n < 5)
		NOTE("returned %d for \"%s\"", n, full);
	memset(small, 'x', sizeof(small));
	if (insn_disasm(small, sizeof(small), w, 0) != n || strlen(small) != 4 ||
	    strncmp(small, full, 4))
		NOTE("truncation gave \"%.5s\"", small);
	char one = 'x';
	if (insn_disasm(&one, 0, w, 0) != n || one != 'x')
		NOTE("size 0 wrote to the buffer");
	for (uint32_t i = 0; i < 200000; i++) {
		uint32_t r = rnd();
		char b[128];
		int m = insn_disasm(b, sizeof(b), r, 0x80000000u);
		if (m <= 0 || m != (int)strlen(b) || m > 60)
			NOTE("%08x: length %d \"%s\"", r, m, b);
	}
	report("disasm-contract", bad, first);
}

int main(void)
{
	table_well_formed();
	table_self_decode();
	table_no_shadowing();
	decode_fields();
	rvc_known();
	rvc_reserved_and_total();
	disasm_contract();
	return failed;
}
