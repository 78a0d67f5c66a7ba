/* Host checker for rvpmu's decoder and disassembler against GNU objdump.
 * Links the src/isa sources directly.
 *
 *   disasm_check gen32 N SEED FILE   table-guided words, then N random ones
 *   disasm_check gen16 FILE          every 16-bit encoding (49152 halves)
 *   disasm_check cmp NAME            stdin: objdump -d; compare disassembly
 *   disasm_check legal NAME [cover]  stdin: objdump -d -M no-aliases;
 *                                    compare decoder legality and mnemonic
 *                                    (cover: and require every table entry
 *                                    and every compressed form)
 *
 * cmp compares the text after the mnemonic/operand tab is made a space and
 * objdump's " <symbol+off>" suffix and "# value" comment are cut: rvpmu
 * disassembles one instruction at a time and knows no symbols.
 *
 * Where objdump 2.40 and the ISA manual disagree about whether an encoding
 * is legal, rvpmu follows the manual; those encodings are recognised by
 * the precise predicates in deviation() and counted in the PASS/FAIL line,
 * never silently dropped. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/isa.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: deterministic for a given seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void put32(FILE *f, uint32_t w)
{
	unsigned char b[4] = {w, w >> 8, w >> 16, w >> 24};
	fwrite(b, 1, 4, f);
}

/* A random 32-bit word (bits 1:0 = 11, bits 4:2 != 111: not a longer
 * encoding). */
static uint32_t rand32(void)
{
	uint32_t w;
	do
		w = (uint32_t)rng() | 3;
	while ((w & 0x1c) == 0x1c);
	return w;
}

static int gen32(long n, uint64_t seed, const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return perror(path), 2;
	rng_state = seed | 1;
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		const struct insn_desc *e = &insn_table[id];
		put32(f, e->match);
		for (int k = 0; k < 400; k++) {
			uint32_t r = (uint32_t)rng();
			/* bias fields towards zero/one so aliases get exercised */
			if (k % 4 == 1)
				r &= 0xfff07fff & (uint32_t)rng(); /* thin out */
			if (k % 4 == 2)
				r &= ~(31u << 15);                  /* rs1 = 0 */
			if (k % 4 == 3)
				r &= ~(31u << 20 | 31u << 7);       /* rs2 = rd = 0 */
			put32(f, e->match | (r & ~e->mask));
		}
		/* rounding-mode field: every value */
		for (uint32_t rm = 0; rm < 8; rm++)
			put32(f, (e->match & ~(7u << 12)) | rm << 12 |
				 ((uint32_t)rng() & ~e->mask & ~(7u << 12)));
	}
	/* every CSR number with each CSR instruction, rd/rs1 in {0, a0} */
	for (uint32_t csr = 0; csr < 4096; csr++)
		for (uint32_t f3 = 1; f3 < 8; f3++)
			if (f3 != 4)
				for (int v = 0; v < 4; v++)
					put32(f, csr << 20 | (v & 1 ? 10u : 0) << 15 |
						 f3 << 12 | (v & 2 ? 11u : 0) << 7 | 0x73);
	for (long i = 0; i < n; i++)
		put32(f, rand32());
	return fclose(f) ? 2 : 0;
}

static int gen16(const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return perror(path), 2;
	for (unsigned c = 0; c < 65536; c++)
		if ((c & 3) != 3) {
			unsigned char b[2] = {c, c >> 8};
			fwrite(b, 1, 2, f);
		}
	return fclose(f) ? 2 : 0;
}

/* One disassembly line of objdump -d: "  addr:\tHEX   \ttext". */
struct line {
	uint64_t addr;
	uint32_t raw;
	int len;
	char text[256];
};

static int parse(char *s, struct line *l)
{
	char *p = s, *e;
	while (*p == ' ')
		p++;
	l->addr = strtoull(p, &e, 16);
	if (e == p || e[0] != ':' || e[1] != '\t')
		return 0;
	p = e + 2;
	int n = 0;
	while (isxdigit((unsigned char)p[n]))
		n++;
	if (n != 4 && n != 8)
		return 0;
	l->raw = (uint32_t)strtoul(p, NULL, 16);
	l->len = n / 2;
	p += n;
	while (*p == ' ')
		p++;
	if (*p++ != '\t')
		return 0;
	/* normalise: tab -> space, cut comment and symbol, trailing space */
	snprintf(l->text, sizeof(l->text), "%s", p);
	char *t;
	if ((t = strchr(l->text, '\t')))
		*t = ' ';
	if ((t = strstr(l->text, " #")))
		*t = 0;
	if ((t = strstr(l->text, " <")))
		*t = 0;
	for (t = l->text + strlen(l->text); t > l->text && isspace((unsigned char)t[-1]);)
		*--t = 0;
	return 1;
}

static int is_directive(const char *text)
{
	return text[0] == '.';
}

static int rvpmu_accepts(uint32_t raw)
{
	struct dinsn d;
	insn_decode(raw, &d);
	return d.id != INSN_ILLEGAL;
}

/* Encodings on which objdump 2.40 and the ISA manual disagree. Returns a
 * short label, or NULL. */
static const char *deviation(uint32_t raw, int len)
{
	if (len == 2) {
		/* C.ADDI16SP with nzimm = 0 is reserved (C chapter);
		 * objdump shows "add sp,sp,0". */
		if (raw == 0x6101)
			return "c.addi16sp-nzimm0(reserved;objdump-decodes)";
		return NULL;
	}
	enum insn_id id = insn_lookup(raw);
	unsigned rm = raw >> 12 & 7;
	switch (id) {
	case INSN_FCVT_D_S: case INSN_FCVT_D_W: case INSN_FCVT_D_WU:
		/* rm is an ordinary field of these exact conversions (F/D
		 * chapters: "implementations must treat the rm field as
		 * usual"); objdump 2.40 decodes only rm = 000. */
		if (rm != 0 && rm != 5 && rm != 6)
			return "fcvt.d.{s,w,wu}-static-rm(valid;objdump-rejects)";
		break;
	case INSN_SCTRCLR:
		/* Smctr (2024) postdates binutils 2.40, which still decodes
		 * this word as privileged-1.9 "sfence.vm zero". */
		return "sctrclr(smctr;objdump-2.40-predates)";
	case INSN_FENCE: case INSN_FENCE_TSO: case INSN_FENCE_I:
		/* "base implementations shall ignore these fields" and treat
		 * reserved fm as a normal fence (RV32I, FENCE / Zifencei). */
		if (raw & (31u << 15 | 31u << 7))
			return "fence-reserved-rs1/rd(ignored;objdump-rejects)";
		if (id == INSN_FENCE && (raw >> 28) != 0 &&
		    !((raw >> 28) == 8 && (raw >> 20 & 0xff) == 0x33))
			return "fence-reserved-fm(ignored;objdump-rejects)";
		if (id == INSN_FENCE_I && (raw >> 20))
			return "fence.i-reserved-imm(ignored;objdump-rejects)";
		break;
	default:
		break;
	}
	/* Static rm 101/110 is reserved (F chapter); objdump prints
	 * "unknown". */
	if (id != INSN_ILLEGAL && strchr(insn_table[id].fmt, 'm') && (rm == 5 || rm == 6))
		return "reserved-rm(illegal;objdump-decodes)";
	return NULL;
}

/* Counted labels, for the report line. */
struct tally {
	char name[64][80];
	long count[64];
	int n;
};

static void tally(struct tally *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], name)) {
			t->count[i]++;
			return;
		}
	if (t->n < 64) {
		snprintf(t->name[t->n], sizeof(t->name[0]), "%s", name);
		t->count[t->n++] = 1;
	}
}

static long tally_total(const struct tally *t)
{
	long s = 0;
	for (int i = 0; i < t->n; i++)
		s += t->count[i];
	return s;
}

static void tally_print(const struct tally *t, const char *what)
{
	printf("; %ld %s", tally_total(t), what);
	for (int i = 0; i < t->n; i++)
		printf("%s%s x%ld", i ? ", " : ": ", t->name[i], t->count[i]);
}

/* Mnemonics rvpmu's disassembler can print: when objdump shows one of
 * these for an encoding rvpmu rejects, that is a decoder bug, not an
 * extension rvpmu lacks. */
static char (*vocab)[24];
static int vocab_n;

static void vocab_add(const char *text)
{
	char m[24];
	size_t n = strcspn(text, " ");
	if (n >= sizeof(m) || text[0] == '.')
		return;
	memcpy(m, text, n);
	m[n] = 0;
	for (int i = 0; i < vocab_n; i++)
		if (!strcmp(vocab[i], m))
			return;
	vocab = realloc(vocab, (size_t)(vocab_n + 1) * sizeof(*vocab));
	strcpy(vocab[vocab_n++], m);
}

static int in_vocab(const char *text)
{
	size_t n = strcspn(text, " ");
	for (int i = 0; i < vocab_n; i++)
		if (strlen(vocab[i]) == n && !strncmp(vocab[i], text, n))
			return 1;
	return 0;
}

static void build_vocab(void)
{
	char buf[128];
	rng_state = 12345;
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		const struct insn_desc *e = &insn_table[id];
		for (int k = 0; k < 64; k++) {
			uint32_t r = (uint32_t)rng();
			if (k & 1)
				r &= ~(31u << 15 | 31u << 20 | 31u << 7);
			insn_disasm(buf, sizeof(buf), e->match | (r & ~e->mask), 0);
			vocab_add(buf);
		}
		for (int aqrl = 1; aqrl < 4 && (e->match & 0x7f) == 0x2f; aqrl++) {
			insn_disasm(buf, sizeof(buf), e->match | (uint32_t)aqrl << 25, 0);
			vocab_add(buf);
		}
	}
	for (uint32_t c = 0; c < 65536; c++)
		if ((c & 3) != 3) {
			insn_disasm(buf, sizeof(buf), c, 0);
			vocab_add(buf);
		}
	for (uint32_t csr = 0; csr < 4096; csr++)
		for (uint32_t f3 = 1; f3 < 8; f3++)
			for (uint32_t rd = 0; rd < 2; rd++) {
				insn_disasm(buf, sizeof(buf), csr << 20 | f3 << 12 | rd << 7 | 0x73, 0);
				vocab_add(buf);
			}
}

static int cmp(const char *name)
{
	char s[512], mine[256], first[600] = "";
	long total = 0, bad = 0;
	struct tally unknown = {0}, dev = {0};
	struct line l;
	build_vocab();
	while (fgets(s, sizeof(s), stdin)) {
		s[strcspn(s, "\n")] = 0;
		if (!parse(s, &l))
			continue;
		total++;
		insn_disasm(mine, sizeof(mine), l.raw, l.addr);
		if (!strcmp(mine, l.text))
			continue;
		const char *why = deviation(l.raw, l.len);
		/* a deviation that renames (objdump predates the extension) or
		 * one where objdump prints a directive or rvpmu rejects */
		if (why && (is_directive(l.text) || !rvpmu_accepts(l.raw) || strstr(why, "predates"))) {
			tally(&dev, why);
			continue;
		}
		if (!rvpmu_accepts(l.raw) && !is_directive(l.text) && !in_vocab(l.text)) {
			char m[32];
			snprintf(m, sizeof(m), "%.*s", (int)strcspn(l.text, " "), l.text);
			tally(&unknown, m);
			continue;
		}
		if (!bad++)
			snprintf(first, sizeof(first), "%llx %0*x: objdump \"%s\" rvpmu \"%s\"",
				 (unsigned long long)l.addr, l.len * 2, l.raw, l.text, mine);
		fprintf(stderr, "disasm %s: %llx %0*x: objdump \"%s\" rvpmu \"%s\"\n", name,
			(unsigned long long)l.addr, l.len * 2, l.raw, l.text, mine);
	}
	if (total == 0) {
		printf("FAIL disasm %s: no instructions in objdump output\n", name);
		return 1;
	}
	if (bad)
		printf("FAIL disasm %s: %ld mismatches of %ld, first: %s", name, bad, total, first);
	else
		printf("PASS disasm %s (%ld insns", name, total);
	tally_print(&unknown, "not implemented by rvpmu");
	if (dev.n)
		tally_print(&dev, "objdump-2.40/ISA-manual differences");
	printf("%s\n", bad ? "" : ")");
	return bad != 0;
}

/* objdump's canonical (-M no-aliases) name of a compressed form, and the
 * table entry rvc_expand must map it to (C chapter, RV64 column). With
 * no-aliases objdump shows c.nop as c.addi. */
static const char *const cmap[][2] = {
	{"c.addi4spn", "addi"}, {"c.fld", "fld"}, {"c.lw", "lw"}, {"c.ld", "ld"},
	{"c.fsd", "fsd"}, {"c.sw", "sw"}, {"c.sd", "sd"},
	{"c.addi", "addi"}, {"c.addiw", "addiw"}, {"c.li", "addi"},
	{"c.addi16sp", "addi"}, {"c.lui", "lui"}, {"c.srli", "srli"},
	{"c.srli64", "srli"}, {"c.srai", "srai"}, {"c.srai64", "srai"},
	{"c.andi", "andi"}, {"c.sub", "sub"}, {"c.xor", "xor"}, {"c.or", "or"},
	{"c.and", "and"}, {"c.subw", "subw"}, {"c.addw", "addw"}, {"c.j", "jal"},
	{"c.beqz", "beq"}, {"c.bnez", "bne"}, {"c.slli", "slli"},
	{"c.slli64", "slli"}, {"c.fldsp", "fld"}, {"c.lwsp", "lw"},
	{"c.ldsp", "ld"}, {"c.jr", "jalr"}, {"c.mv", "add"}, {"c.ebreak", "ebreak"},
	{"c.jalr", "jalr"}, {"c.add", "add"}, {"c.fsdsp", "fsd"},
	{"c.swsp", "sw"}, {"c.sdsp", "sd"},
};

/* With cover set, also require every table entry as a 32-bit word and
 * every compressed form of cmap. */
static int legal(const char *name, int cover)
{
	static char seen[INSN_COUNT], cseen[sizeof(cmap) / sizeof(cmap[0])];
	char s[512], first[600] = "";
	long total = 0, bad = 0, acc = 0;
	struct tally dev = {0};
	struct line l;
	while (fgets(s, sizeof(s), stdin)) {
		s[strcspn(s, "\n")] = 0;
		if (!parse(s, &l))
			continue;
		total++;
		struct dinsn d;
		insn_decode(l.raw, &d);
		int ours = d.id != INSN_ILLEGAL;
		/* c.unimp (0x0000) is the defined illegal instruction */
		int theirs = !is_directive(l.text) && strcmp(l.text, "c.unimp") != 0;
		char m[32], want[40] = "";
		snprintf(m, sizeof(m), "%.*s", (int)strcspn(l.text, " "), l.text);
		acc += ours;
		if (ours && l.len == 4)
			seen[d.id] = 1;
		for (size_t i = 0; i < sizeof(cmap) / sizeof(cmap[0]); i++)
			if (l.len == 2 && !strcmp(cmap[i][0], m))
				cseen[i] = 1;
		if (ours && theirs) {
			if (l.len == 4) {
				snprintf(want, sizeof(want), "%s%s", insn_table[d.id].name,
					 (l.raw & 0x7f) != 0x2f ? "" :
					 (l.raw >> 25 & 3) == 3 ? ".aqrl" :
					 (l.raw >> 25 & 3) == 2 ? ".aq" :
					 (l.raw >> 25 & 3) == 1 ? ".rl" : "");
				/* "unimp" is csrrw x0,cycle,x0: decoded, traps */
				if (!strcmp(want, m) || (l.raw == 0xc0001073 && !strcmp(m, "unimp")))
					continue;
				const char *why = deviation(l.raw, l.len);
				if (why && strstr(why, "predates")) {
					tally(&dev, why);
					continue;
				}
			} else {
				for (size_t i = 0; i < sizeof(cmap) / sizeof(cmap[0]); i++)
					if (!strcmp(cmap[i][0], m)) {
						snprintf(want, sizeof(want), "%s", cmap[i][1]);
						break;
					}
				if (!strcmp(want, insn_table[d.id].name))
					continue;
			}
		} else if (ours == theirs) {
			continue;
		} else {
			const char *why = deviation(l.raw, l.len);
			if (why) {
				tally(&dev, why);
				continue;
			}
		}
		if (!bad++)
			snprintf(first, sizeof(first), "%0*x: objdump \"%s\" rvpmu %s",
				 l.len * 2, l.raw, l.text,
				 ours ? insn_table[d.id].name : "illegal");
		fprintf(stderr, "legal %s: %0*x: objdump \"%s\" rvpmu %s\n", name,
			l.len * 2, l.raw, l.text, ours ? insn_table[d.id].name : "illegal");
	}
	if (total == 0) {
		printf("FAIL decode %s: no instructions in objdump output\n", name);
		return 1;
	}
	char missing[2048] = "";
	size_t ml = 0;
	for (int id = INSN_ILLEGAL + 1; cover && id < INSN_COUNT; id++)
		if (!seen[id] && ml < sizeof(missing) - 40)
			ml += (size_t)snprintf(missing + ml, sizeof(missing) - ml, " %s", insn_table[id].name);
	for (size_t i = 0; cover && i < sizeof(cmap) / sizeof(cmap[0]); i++)
		if (!cseen[i] && ml < sizeof(missing) - 40)
			ml += (size_t)snprintf(missing + ml, sizeof(missing) - ml, " %s", cmap[i][0]);
	if (ml && !bad++)
		snprintf(first, sizeof(first), "not covered:%s", missing);
	if (bad)
		printf("FAIL decode %s: %ld disagreements of %ld, first: %s", name, bad, total, first);
	else
		printf("PASS decode %s (%ld words, %ld legal", name, total, acc);
	if (dev.n)
		tally_print(&dev, "objdump-2.40/ISA-manual differences");
	printf("%s\n", bad ? "" : ")");
	return bad != 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "gen32"))
		return gen32(atol(argv[2]), strtoull(argv[3], NULL, 0), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "gen16"))
		return gen16(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cmp"))
		return cmp(argv[2]);
	if ((argc == 3 || (argc == 4 && !strcmp(argv[3], "cover"))) && !strcmp(argv[1], "legal"))
		return legal(argv[2], argc == 4);
	fprintf(stderr, "usage: disasm_check gen32 N SEED FILE | gen16 FILE | cmp NAME | legal NAME [cover]\n");
	return 2;
}
