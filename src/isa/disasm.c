/* Disassembly in the syntax of GNU objdump 2.40 (riscv64-linux-gnu-objdump
 * -d), pseudo-instructions included, so rvpmu listings read like the
 * toolchain's. Operands come from the table's format string; the alias
 * rules below pick a pseudo name and a different format where objdump does.
 *
 * Output: "mnemonic operands" with one space between (objdump uses a tab),
 * no symbolic " <sym+off>" suffix after targets, and none of objdump's
 * "# value" comments (those need the register values of earlier
 * instructions; this is a one-instruction disassembler). CSR names are
 * those of privileged spec 1.12, objdump's default.
 *
 * Where objdump 2.40 rejects an encoding the ISA manual defines (FENCE with
 * non-zero reserved fields, FCVT.D.S/.D.W/.D.WU with a static rm) this
 * shows what rvpmu executes; where objdump decodes a reserved one (C.ADDI16SP
 * with nzimm 0) this prints it as data. Reserved rm values 101/110 are
 * shown as objdump shows them ("unknown") although rvpmu traps on them.
 * tests/isa-disasm checks all of this against objdump. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/isa.h"

static const char *const xreg[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const freg[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
	"fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
	"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

/* Static rounding modes (F chapter, "Floating-Point Control and Status
 * Register"); 5 and 6 are reserved and objdump prints them "unknown". */
static const char *const rm_name[8] = {
	"rne", "rtz", "rdn", "rup", "rmm", "unknown", "unknown", "dyn",
};

/* CSR names (Privileged ISA 1.12 chapter 2 plus the extensions objdump
 * 2.40 knows: Sstc, Smstateen, AIA, Sscofpmf, H, debug, V, Zkr). Numbered
 * families are handled in csr_name(). */
static const struct { uint16_t num; const char *name; } csr_names[] = {
	{0x001, "fflags"}, {0x002, "frm"}, {0x003, "fcsr"},
	{0x008, "vstart"}, {0x009, "vxsat"}, {0x00a, "vxrm"}, {0x00f, "vcsr"},
	{0x015, "seed"},
	{0x100, "sstatus"}, {0x104, "sie"}, {0x105, "stvec"},
	{0x106, "scounteren"}, {0x10a, "senvcfg"}, {0x10c, "sstateen0"},
	{0x10d, "sstateen1"}, {0x10e, "sstateen2"}, {0x10f, "sstateen3"},
	{0x114, "sieh"}, {0x140, "sscratch"}, {0x141, "sepc"},
	{0x142, "scause"}, {0x143, "stval"}, {0x144, "sip"},
	{0x14d, "stimecmp"}, {0x150, "siselect"}, {0x151, "sireg"},
	{0x154, "siph"}, {0x15c, "stopei"}, {0x15d, "stimecmph"},
	{0x180, "satp"},
	{0x200, "vsstatus"}, {0x204, "vsie"}, {0x205, "vstvec"},
	{0x214, "vsieh"}, {0x240, "vsscratch"}, {0x241, "vsepc"},
	{0x242, "vscause"}, {0x243, "vstval"}, {0x244, "vsip"},
	{0x24d, "vstimecmp"}, {0x250, "vsiselect"}, {0x251, "vsireg"},
	{0x254, "vsiph"}, {0x25c, "vstopei"}, {0x25d, "vstimecmph"},
	{0x280, "vsatp"},
	{0x300, "mstatus"}, {0x301, "misa"}, {0x302, "medeleg"},
	{0x303, "mideleg"}, {0x304, "mie"}, {0x305, "mtvec"},
	{0x306, "mcounteren"}, {0x308, "mvien"}, {0x309, "mvip"},
	{0x30a, "menvcfg"}, {0x30c, "mstateen0"}, {0x30d, "mstateen1"},
	{0x30e, "mstateen2"}, {0x30f, "mstateen3"}, {0x310, "mstatush"},
	{0x313, "midelegh"}, {0x314, "mieh"}, {0x318, "mvienh"},
	{0x319, "mviph"}, {0x31a, "menvcfgh"}, {0x31c, "mstateen0h"},
	{0x31d, "mstateen1h"}, {0x31e, "mstateen2h"}, {0x31f, "mstateen3h"},
	{0x320, "mcountinhibit"}, {0x340, "mscratch"}, {0x341, "mepc"},
	{0x342, "mcause"}, {0x343, "mtval"}, {0x344, "mip"},
	{0x34a, "mtinst"}, {0x34b, "mtval2"}, {0x350, "miselect"},
	{0x351, "mireg"}, {0x354, "miph"}, {0x35c, "mtopei"},
	{0x5a8, "scontext"},
	{0x600, "hstatus"}, {0x602, "hedeleg"}, {0x603, "hideleg"},
	{0x604, "hie"}, {0x605, "htimedelta"}, {0x606, "hcounteren"},
	{0x607, "hgeie"}, {0x608, "hvien"}, {0x609, "hvictl"},
	{0x60a, "henvcfg"}, {0x60c, "hstateen0"}, {0x60d, "hstateen1"},
	{0x60e, "hstateen2"}, {0x60f, "hstateen3"}, {0x613, "hidelegh"},
	{0x615, "htimedeltah"}, {0x618, "hvienh"}, {0x61a, "henvcfgh"},
	{0x61c, "hstateen0h"}, {0x61d, "hstateen1h"}, {0x61e, "hstateen2h"},
	{0x61f, "hstateen3h"}, {0x643, "htval"}, {0x644, "hip"},
	{0x645, "hvip"}, {0x646, "hviprio1"}, {0x647, "hviprio2"},
	{0x64a, "htinst"}, {0x655, "hviph"}, {0x656, "hviprio1h"},
	{0x657, "hviprio2h"}, {0x680, "hgatp"}, {0x6a8, "hcontext"},
	{0x747, "mseccfg"}, {0x757, "mseccfgh"},
	{0x7a0, "tselect"}, {0x7a1, "tdata1"}, {0x7a2, "tdata2"},
	{0x7a3, "tdata3"}, {0x7a4, "tinfo"}, {0x7a5, "tcontrol"},
	{0x7a8, "mcontext"}, {0x7aa, "mscontext"}, {0x7b0, "dcsr"},
	{0x7b1, "dpc"}, {0x7b2, "dscratch0"}, {0x7b3, "dscratch1"},
	{0xb00, "mcycle"}, {0xb02, "minstret"},
	{0xb80, "mcycleh"}, {0xb82, "minstreth"},
	{0xc00, "cycle"}, {0xc01, "time"}, {0xc02, "instret"},
	{0xc20, "vl"}, {0xc21, "vtype"}, {0xc22, "vlenb"},
	{0xc80, "cycleh"}, {0xc81, "timeh"}, {0xc82, "instreth"},
	{0xda0, "scountovf"}, {0xdb0, "stopi"}, {0xe12, "hgeip"},
	{0xeb0, "vstopi"},
	{0xf11, "mvendorid"}, {0xf12, "marchid"}, {0xf13, "mimpid"},
	{0xf14, "mhartid"}, {0xf15, "mconfigptr"}, {0xfb0, "mtopi"},
};

/* Name of CSR num in tmp (or a static string); hex when unnamed. */
static const char *csr_name(unsigned num, char *tmp, size_t n)
{
	static const struct { uint16_t base; uint8_t first, last; const char *fmt; } fam[] = {
		{0x320, 3, 31, "mhpmevent%u"}, {0x720, 3, 31, "mhpmevent%uh"},
		{0x3a0, 0, 15, "pmpcfg%u"}, {0x3b0, 0, 63, "pmpaddr%u"},
		{0xb00, 3, 31, "mhpmcounter%u"}, {0xb80, 3, 31, "mhpmcounter%uh"},
		{0xc00, 3, 31, "hpmcounter%u"}, {0xc80, 3, 31, "hpmcounter%uh"},
	};
	for (size_t i = 0; i < sizeof(csr_names) / sizeof(csr_names[0]); i++)
		if (csr_names[i].num == num)
			return csr_names[i].name;
	for (size_t i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		unsigned k = num - fam[i].base;
		if (num >= fam[i].base && k >= fam[i].first && k <= fam[i].last) {
			snprintf(tmp, n, fam[i].fmt, k);
			return tmp;
		}
	}
	snprintf(tmp, n, "0x%x", num);
	return tmp;
}

/* Bounded appender: keeps snprintf's contract (returns the full length). */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *s)
{
	size_t n = strlen(s);
	if (o->len < o->size) {
		size_t room = o->size - o->len - 1;
		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = 0;
	}
	o->len += n;
}

static void putf(struct out *o, const char *fmt, long long v)
{
	char t[32];
	snprintf(t, sizeof(t), fmt, v);
	put(o, t);
}

static int64_t sext(uint64_t v, int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* I-immediate of a 32-bit word, for the alias rules. */
static int64_t imm_i(uint32_t w) { return sext(w >> 20, 12); }

static void put_iorw(struct out *o, unsigned set)
{
	char t[5];
	int n = 0;
	if (set & 8) t[n++] = 'i';
	if (set & 4) t[n++] = 'o';
	if (set & 2) t[n++] = 'r';
	if (set & 1) t[n++] = 'w';
	t[n] = 0;
	put(o, n ? t : "unknown");
}

/* Print the operands of a decoded instruction as fmt describes them.
 * The operands come from insn_decode(), so comparing this output with
 * objdump's also checks the decoder the interpreter runs on. Besides the
 * table's letters: 'M', the rounding mode even when it is dyn. */
static void operands(struct out *o, const char *fmt, const struct dinsn *d, uint64_t pc)
{
	char tmp[24];
	for (const char *f = fmt; *f; f++) {
		switch (*f) {
		case 'd': put(o, xreg[d->rd & 31]); break;
		case 's': put(o, xreg[d->rs1]); break;
		case 't': put(o, xreg[d->rs2]); break;
		case 'D': put(o, freg[d->rd & 31]); break;
		case 'S': put(o, freg[d->rs1]); break;
		case 'T': put(o, freg[d->rs2]); break;
		case 'R': put(o, freg[d->rs3]); break;
		case 'j': case 'o': case 'q': putf(o, "%lld", d->imm); break;
		case 'p': case 'a': putf(o, "%llx", (long long)(pc + (uint64_t)d->imm)); break;
		case 'u': putf(o, "0x%llx", (long long)((uint64_t)d->imm >> 12 & 0xfffff)); break;
		case '>': case '<': putf(o, "0x%llx", d->imm); break;
		case 'E': put(o, csr_name((unsigned)d->imm, tmp, sizeof(tmp))); break;
		case 'Z': putf(o, "%lld", d->rs1); break;
		case 'P': put_iorw(o, (unsigned)d->imm >> 4 & 15); break;
		case 'Q': put_iorw(o, (unsigned)d->imm & 15); break;
		case 'm': case 'M': put(o, rm_name[d->rm & 7]); break;
		case '0': break; /* AMO address: no offset printed */
		case ',':
			/* the dynamic rounding mode is left implicit */
			if (f[1] == 'm' && d->rm == 7)
				f++;
			else
				put(o, ",");
			break;
		default: {
			char c[2] = {*f, 0};
			put(o, c);
		}
		}
	}
}

/* The pseudo-instruction objdump shows for a 32-bit word, as a name and a
 * format; returns 0 to keep the table's. */
static int alias32(enum insn_id id, uint32_t w, const char **name, const char **fmt)
{
	unsigned rd = w >> 7 & 31, rs1 = w >> 15 & 31, rs2 = w >> 20 & 31;
	int64_t i = imm_i(w);
	unsigned csr = w >> 20;
#define A(n, f) do { *name = n; *fmt = f; return 1; } while (0)
	switch (id) {
	case INSN_ADDI:
		if (!rd && !rs1 && !i) A("nop", "");
		if (!rs1) A("li", "d,j");
		if (!i) A("mv", "d,s");
		A("add", "d,s,j");
	/* objdump names most register-immediate forms after the
	 * register-register ones */
	case INSN_XORI:
		if (i == -1) A("not", "d,s");
		A("xor", "d,s,j");
	case INSN_ORI: A("or", "d,s,j");
	case INSN_ANDI:
		if (i == 255) A("zext.b", "d,s");
		A("and", "d,s,j");
	case INSN_ADDIW:
		if (!i) A("sext.w", "d,s");
		A("addw", "d,s,j");
	case INSN_SLTIU: if (i == 1) A("seqz", "d,s"); break;
	case INSN_SUB: if (!rs1) A("neg", "d,t"); break;
	case INSN_SUBW: if (!rs1) A("negw", "d,t"); break;
	case INSN_SLTU: if (!rs1) A("snez", "d,t"); break;
	case INSN_SLT:
		if (!rs2) A("sltz", "d,s");
		if (!rs1) A("sgtz", "d,t");
		break;
	case INSN_ADD_UW: if (!rs2) A("zext.w", "d,s"); break;
	case INSN_SLLI: A("sll", "d,s,>");
	case INSN_SRLI: A("srl", "d,s,>");
	case INSN_SRAI: A("sra", "d,s,>");
	case INSN_SLLIW: A("sllw", "d,s,<");
	case INSN_SRLIW: A("srlw", "d,s,<");
	case INSN_SRAIW: A("sraw", "d,s,<");
	case INSN_RORI: A("ror", "d,s,>");
	case INSN_RORIW: A("rorw", "d,s,<");
	case INSN_BCLRI: A("bclr", "d,s,>");
	case INSN_BEXTI: A("bext", "d,s,>");
	case INSN_BINVI: A("binv", "d,s,>");
	case INSN_BSETI: A("bset", "d,s,>");
	case INSN_BEQ: if (!rs2) A("beqz", "s,p"); break;
	case INSN_BNE: if (!rs2) A("bnez", "s,p"); break;
	case INSN_BGE:
		if (!rs1) A("blez", "t,p");
		if (!rs2) A("bgez", "s,p");
		break;
	case INSN_BLT:
		if (!rs2) A("bltz", "s,p");
		if (!rs1) A("bgtz", "t,p");
		break;
	case INSN_JAL:
		if (rd == 0) A("j", "a");
		if (rd == 1) A("jal", "a");
		break;
	case INSN_JALR:
		if (rd == 0 && rs1 == 1 && !i) A("ret", "");
		if (rd == 0) A("jr", i ? "o(s)" : "s");
		if (rd == 1) A("jalr", i ? "o(s)" : "s");
		if (!i) A("jalr", "d,s");
		break;
	case INSN_FSGNJ_S: if (rs1 == rs2) A("fmv.s", "D,S"); break;
	case INSN_FSGNJN_S: if (rs1 == rs2) A("fneg.s", "D,S"); break;
	case INSN_FSGNJX_S: if (rs1 == rs2) A("fabs.s", "D,S"); break;
	case INSN_FSGNJ_D: if (rs1 == rs2) A("fmv.d", "D,S"); break;
	case INSN_FSGNJN_D: if (rs1 == rs2) A("fneg.d", "D,S"); break;
	case INSN_FSGNJX_D: if (rs1 == rs2) A("fabs.d", "D,S"); break;
	/* Exact conversions: objdump 2.40 knows only rm = rne and prints
	 * no rm; any other rm (valid, if unusual) is shown, dyn included. */
	case INSN_FCVT_D_S: case INSN_FCVT_D_W: case INSN_FCVT_D_WU:
		if ((w >> 12 & 7) == 0) A(insn_table[id].name, id == INSN_FCVT_D_S ? "D,S" : "D,s");
		A(insn_table[id].name, id == INSN_FCVT_D_S ? "D,S,M" : "D,s,M");
	case INSN_CSRRS:
		if (rs1 == 0) {
			switch (csr) {
			case 0x001: A("frflags", "d");
			case 0x002: A("frrm", "d");
			case 0x003: A("frcsr", "d");
			case 0xc00: A("rdcycle", "d");
			case 0xc01: A("rdtime", "d");
			case 0xc02: A("rdinstret", "d");
			}
			A("csrr", "d,E");
		}
		if (rd == 0) A("csrs", "E,s");
		break;
	case INSN_CSRRC: if (rd == 0) A("csrc", "E,s"); break;
	case INSN_CSRRW:
		if (csr == 0xc00 && !rd && !rs1) A("unimp", "");
		switch (csr) {
		case 0x001: A("fsflags", rd ? "d,s" : "s");
		case 0x002: A("fsrm", rd ? "d,s" : "s");
		case 0x003: A("fscsr", rd ? "d,s" : "s");
		}
		if (rd == 0) A("csrw", "E,s");
		break;
	case INSN_CSRRWI:
		if (csr == 0x001) A("fsflagsi", "d,Z");
		if (csr == 0x002) A("fsrmi", "d,Z");
		if (rd == 0) A("csrw", "E,Z");
		A("csrrw", "d,E,Z");
	case INSN_CSRRSI:
		if (rd == 0) A("csrs", "E,Z");
		A("csrrs", "d,E,Z");
	case INSN_CSRRCI:
		if (rd == 0) A("csrc", "E,Z");
		A("csrrc", "d,E,Z");
	case INSN_FENCE:
		if ((w >> 20 & 0xff) == 0xff) A("fence", "");
		break;
	case INSN_SFENCE_VMA:
		if (!rs2) A("sfence.vma", rs1 ? "s" : "");
		break;
	case INSN_HFENCE_VVMA:
		if (!rs2) A("hfence.vvma", rs1 ? "s" : "");
		break;
	case INSN_HFENCE_GVMA:
		if (!rs2) A("hfence.gvma", rs1 ? "s" : "");
		break;
	default:
		break;
	}
#undef A
	return 0;
}

/* w is a 32-bit encoding (for a 16-bit form, its expansion) and d its
 * decoding. */
static void print_insn(struct out *o, uint32_t w, const struct dinsn *d, uint64_t pc)
{
	enum insn_id id = (enum insn_id)d->id;
	const char *name = insn_table[id].name, *fmt = insn_table[id].fmt;
	alias32(id, w, &name, &fmt);
	put(o, name);
	/* A extension: acquire/release bits 26:25 as mnemonic suffixes */
	if ((w & 0x7f) == 0x2f && (w >> 25 & 3))
		put(o, (w >> 25 & 3) == 3 ? ".aqrl" : (w >> 26 & 1) ? ".aq" : ".rl");
	if (*fmt) {
		put(o, " ");
		operands(o, fmt, d, pc);
	}
}

static void disasm32(struct out *o, uint32_t w, uint64_t pc)
{
	struct dinsn d;
	insn_decode(w, &d);
	unsigned rm = w >> 12 & 7;
	enum insn_id id = insn_lookup(w);
	if (d.id == INSN_ILLEGAL && id != INSN_ILLEGAL && (rm == 5 || rm == 6) &&
	    id != INSN_FCVT_D_S && id != INSN_FCVT_D_W && id != INSN_FCVT_D_WU) {
		/* Reserved static rounding mode: rvpmu traps, objdump still
		 * shows the operation (with rm "unknown"). */
		insn_decode(w | 7u << 12, &d);
		d.rm = (uint8_t)rm;
	}
	if (d.id == INSN_ILLEGAL) {
		putf(o, ".4byte 0x%llx", w);
		return;
	}
	print_insn(o, w, &d, pc);
}

/* 16-bit forms (Unprivileged ISA, "C" chapter). objdump prints them from
 * its own compressed table: with base mnemonics, but its register-immediate
 * forms reuse the register-register names (c.addi is "add a0,a0,1"), and
 * HINT encodings keep their "c." names. */
static void disasm16(struct out *o, uint16_t c, uint64_t pc)
{
	struct dinsn d;
	if (c == 0) {
		put(o, "unimp"); /* the defined illegal instruction */
		return;
	}
	insn_decode(c, &d);
	if (d.id == INSN_ILLEGAL) {
		putf(o, ".2byte 0x%llx", c);
		return;
	}
	uint32_t w = rvc_expand(c);
	unsigned rd = c >> 7 & 31, rs2 = c >> 2 & 31;
	int nz6 = (c >> 12 & 1) || rs2; /* 6-bit immediate/shamt is non-zero */
	const char *name = NULL, *fmt = NULL;
	switch ((c & 3) << 3 | c >> 13) {
	case 0x00: name = "add", fmt = "d,s,j"; break;    /* c.addi4spn */
	case 0x08: /* c.addi, c.nop */
		if (!rd)
			name = nz6 ? "c.nop" : "nop", fmt = nz6 ? "j" : "";
		else
			name = "add", fmt = "d,s,j";
		break;
	case 0x09: if (nz6) name = "addw", fmt = "d,s,j"; break; /* c.addiw */
	case 0x0a: if (!rd) name = "c.li", fmt = "d,j"; break;
	case 0x0b:
		if (rd == 2)
			name = "add", fmt = "d,s,j";     /* c.addi16sp */
		else if (!rd)
			name = "c.lui", fmt = "d,u";
		break;
	case 0x0c:
		switch (c >> 10 & 3) {
		case 0: name = nz6 ? "srl" : "c.srli64", fmt = nz6 ? "d,s,>" : "d"; break;
		case 1: name = nz6 ? "sra" : "c.srai64", fmt = nz6 ? "d,s,>" : "d"; break;
		case 2: name = "and", fmt = "d,s,j"; break;
		}
		break;
	case 0x10: /* c.slli */
		if (!nz6)
			name = "c.slli64", fmt = "d";
		else
			name = rd ? "sll" : "c.slli", fmt = rd ? "d,s,>" : "d,>";
		break;
	case 0x14:
		if (!(c >> 12 & 1) && rs2)
			name = rd ? "mv" : "c.mv", fmt = "d,t";
		else if ((c >> 12 & 1) && rs2 && !rd)
			name = "c.add", fmt = "d,t";
		break;
	}
	if (!name) {
		/* the same text as the 32-bit equivalent */
		print_insn(o, w, &d, pc);
		return;
	}
	put(o, name);
	if (*fmt) {
		put(o, " ");
		operands(o, fmt, &d, pc);
	}
}

/* Disassemble one instruction (see isa.h). */
int insn_disasm(char *buf, size_t size, uint32_t raw, uint64_t pc)
{
	struct out o = {buf, size, 0};
	if (size)
		buf[0] = 0;
	if ((raw & 3) == 3)
		disasm32(&o, raw, pc);
	else
		disasm16(&o, (uint16_t)raw, pc);
	return (int)o.len;
}
