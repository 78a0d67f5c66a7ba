/* rvpmu annotate: one function of a sampled ELF, instruction by
 * instruction in rvpmu's own disassembly (objdump's text), with the
 * samples of each event that landed on each instruction and, where the
 * ELF has DWARF line information, the source lines between them.
 *
 * Samples are attributed exactly as rvpmu report attributes them (the
 * newest mapping holding the ip, its file offset converted to a link-time
 * address, the function from sym_lookup), so the per-instruction counts
 * of a function add up to its row in the report. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rvpmu/annotate.h"
#include "rvpmu/isa.h"
#include "rvpmu/perfdata.h"
#include "hist.h"

#define MAX_FUNC_BYTES (16u << 20)   /* a larger "function" is not code */
#define MAX_SRC_BYTES (64u << 20)
#define NSRC 8

/* The function as found in one ELF. */
struct func {
	const char *path;          /* the mapped path, as perf.data names it */
	char full[4096];           /* with --symfs in front */
	uint64_t start, size;      /* link-time; size may be derived */
	uint8_t *code;
	int fd;
	Elf *elf;
	Dwarf *dw;
	struct sym_elf *se;        /* rvpmu report's view of the symbols */
};

struct insn {
	uint64_t pc;
	unsigned len;              /* bytes it covers (1..4) */
	uint32_t raw;
	int data;                  /* trailing bytes that are no whole instruction */
};

/* A source file's text split into lines, for the listing. */
struct src {
	char *path;
	char *text;
	size_t *line_at;           /* line k (1-based) starts at text + line_at[k-1] */
	size_t nlines;
	int missing;
};

struct ann {
	const struct annotate_opts *o;
	const char *symbol;        /* the function being listed */
	const struct perfdata_file *f;
	struct src src[NSRC];
	unsigned nsrc_used;
};

static void func_close(struct func *fn)
{
	sym_close(fn->se);
	fn->se = NULL;
	if (fn->dw)
		dwarf_end(fn->dw);
	if (fn->elf)
		elf_end(fn->elf);
	if (fn->fd >= 0)
		close(fn->fd);
	free(fn->code);
	fn->dw = NULL;
	fn->elf = NULL;
	fn->fd = -1;
	fn->code = NULL;
}

/* Look name up among the function symbols of one symbol table. Returns
 * 1 with *sym and the start of the next function after it (0 if none). */
static int scan_symtab(Elf *elf, Elf_Scn *scn, const char *name, GElf_Sym *sym,
		       uint64_t *next)
{
	GElf_Shdr sh;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!gelf_getshdr(scn, &sh) || !d || !sh.sh_entsize)
		return 0;
	size_t n = sh.sh_size / sh.sh_entsize;
	int found = 0;
	for (size_t i = 0; i < n && !found; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			break;
		int t = GELF_ST_TYPE(s.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		const char *sn = elf_strptr(elf, sh.sh_link, s.st_name);
		char *dn = sn ? sym_demangle(sn) : NULL;  /* the name report shows */
		if (sn && (!strcmp(sn, name) || (dn && !strcmp(dn, name)))) {
			*sym = s;
			found = 1;
		}
		free(dn);
	}
	if (!found)
		return 0;
	/* an unsized symbol reaches the next function, as sym_lookup has it */
	*next = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			break;
		int t = GELF_ST_TYPE(s.st_info);
		if ((t == STT_FUNC || t == STT_GNU_IFUNC) && s.st_shndx != SHN_UNDEF &&
		    s.st_value > sym->st_value && (!*next || s.st_value < *next))
			*next = s.st_value;
	}
	return 1;
}

/* Find name in fn->full: 1 found (bytes loaded), 0 not there, -1 error. */
static int func_open(struct func *fn, const char *name, char *err, size_t errlen)
{
	fn->fd = open(fn->full, O_RDONLY);
	if (fn->fd < 0) {
		perfdata_errf(err, errlen, "cannot read %s: %s", fn->full, strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	fn->elf = elf_begin(fn->fd, ELF_C_READ, NULL);
	if (!fn->elf || elf_kind(fn->elf) != ELF_K_ELF) {
		perfdata_errf(err, errlen, "%s: not an ELF file", fn->full);
		return -1;
	}
	/* .symtab first (static binaries keep it), else .dynsym */
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	while ((scn = elf_nextscn(fn->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !symtab)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM && !dynsym)
			dynsym = scn;
	}
	GElf_Sym sym;
	uint64_t next = 0;
	if (!(symtab && scan_symtab(fn->elf, symtab, name, &sym, &next)) &&
	    !(!symtab && dynsym && scan_symtab(fn->elf, dynsym, name, &sym, &next)))
		return 0;
	Elf_Scn *code = sym.st_shndx < SHN_LORESERVE ? elf_getscn(fn->elf, sym.st_shndx) : NULL;
	GElf_Shdr sh;
	Elf_Data *d = code ? elf_getdata(code, NULL) : NULL;
	if (!code || !gelf_getshdr(code, &sh) || sh.sh_type != SHT_PROGBITS || !d ||
	    sym.st_value < sh.sh_addr || sym.st_value - sh.sh_addr >= d->d_size) {
		perfdata_errf(err, errlen, "%s: the code of '%s' is not in the file", fn->full, name);
		return -1;
	}
	uint64_t at = sym.st_value - sh.sh_addr, room = d->d_size - at;
	uint64_t size = sym.st_size;
	if (!size)
		size = next ? next - sym.st_value : room;
	if (size > room)
		size = room;
	if (!size || size > MAX_FUNC_BYTES) {
		perfdata_errf(err, errlen, "%s: '%s' has no code to show (%llu bytes)", fn->full, name,
		     (unsigned long long)size);
		return -1;
	}
	if (!(fn->code = malloc(size))) {
		perfdata_errf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(fn->code, (const uint8_t *)d->d_buf + at, size);
	fn->start = sym.st_value;
	fn->size = size;
	fn->dw = dwarf_begin_elf(fn->elf, DWARF_C_READ, NULL);  /* NULL: no DWARF */
	return 1;
}

/* Split the function into instructions by the RVC length rule. */
static struct insn *decode_all(const struct func *fn, size_t *n_out)
{
	struct insn *v = calloc(fn->size / 2 + 1, sizeof(*v));
	size_t n = 0;
	if (!v)
		return NULL;
	for (uint64_t at = 0; at < fn->size;) {
		struct insn *i = &v[n++];
		uint64_t left = fn->size - at;
		i->pc = fn->start + at;
		if (left < 2) {
			i->len = 1, i->raw = fn->code[at], i->data = 1;
		} else {
			uint16_t lo = (uint16_t)(fn->code[at] | fn->code[at + 1] << 8);
			i->len = (unsigned)insn_length(lo);
			i->raw = lo;
			if (i->len == 4 && left < 4)
				i->len = 2, i->data = 1;
			else if (i->len == 4)
				i->raw |= (uint32_t)(fn->code[at + 2] | fn->code[at + 3] << 8) << 16;
		}
		at += i->len;
	}
	*n_out = n;
	return v;
}

/* The instruction holding addr (the function's range is checked by the
 * caller). */
static size_t insn_at(const struct insn *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].pc <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Count the samples of fn per event and instruction: counts[ev * n + k];
 * counts[nevents * n + ev] gets those past the decoded bytes. Returns
 * the samples of fn of every event, or -1 when its symbols cannot load. */
static long long count_samples(const struct ann *a, const struct func *fn,
			       const struct insn *v, size_t n, uint64_t *counts)
{
	const struct perfdata_file *f = a->f;
	const struct sym_elf *se = fn->se;
	long long total = 0;
	uint64_t end = fn->start + fn->size;
	for (size_t i = 0; i < f->nsamples; i++) {
		const struct perfdata_rd_sample *s = &f->samples[i];
		const struct perfdata_rd_mmap *m = resolve_map(f, s->space, s->ip);
		uint64_t addr, off;
		if (!m || strcmp(m->path, fn->path) || s->event >= f->nevents ||
		    !sym_offset_to_addr(se, s->ip - m->addr + m->pgoff, &addr))
			continue;
		/* the report's function for addr must be this one */
		if (!sym_lookup(se, addr, &off) || addr - off != fn->start)
			continue;
		if (addr >= end)
			counts[(size_t)f->nevents * n + s->event]++;
		else
			counts[(size_t)s->event * n + insn_at(v, n, addr)]++;
		total++;
	}
	return total;
}

/* ---- source lines ---- */

static struct src *src_get(struct ann *a, const char *path)
{
	for (unsigned i = 0; i < a->nsrc_used; i++)
		if (!strcmp(a->src[i].path, path))
			return &a->src[i];
	if (a->nsrc_used == NSRC)
		return NULL;  /* enough files for one function: show no text */
	struct src *s = &a->src[a->nsrc_used];
	memset(s, 0, sizeof(*s));
	if (!(s->path = strdup(path)))
		return NULL;
	a->nsrc_used++;
	s->missing = 1;
	FILE *in = fopen(path, "rb");
	struct stat st;
	if (!in)
		return s;
	if (fstat(fileno(in), &st) || !S_ISREG(st.st_mode) || st.st_size > MAX_SRC_BYTES ||
	    !(s->text = malloc((size_t)st.st_size + 1))) {
		fclose(in);
		return s;
	}
	size_t len = fread(s->text, 1, (size_t)st.st_size, in);
	fclose(in);
	s->text[len] = 0;
	size_t cap = 1;
	for (size_t i = 0; i < len; i++)
		cap += s->text[i] == '\n';
	if (!(s->line_at = malloc(cap * sizeof(*s->line_at))))
		return s;
	s->line_at[s->nlines++] = 0;
	for (size_t i = 0; i < len; i++) {
		if (s->text[i] == '\n') {
			s->text[i] = 0;
			if (i + 1 < len)
				s->line_at[s->nlines++] = i + 1;
		}
	}
	s->missing = 0;
	return s;
}

static void src_free(struct ann *a)
{
	for (unsigned i = 0; i < a->nsrc_used; i++) {
		free(a->src[i].path);
		free(a->src[i].text);
		free(a->src[i].line_at);
	}
}

/* file and line of addr from DWARF; the file made absolute with the
 * unit's compilation directory. 0, or -1 without line information. */
static int line_of(const struct func *fn, uint64_t addr, char *file, size_t len, int *line)
{
	Dwarf_Die cu;
	if (!fn->dw || !dwarf_addrdie(fn->dw, addr, &cu))
		return -1;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	const char *name = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!name || dwarf_lineno(l, line))
		return -1;
	Dwarf_Attribute at;
	const char *dir = name[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
	if (dir)
		snprintf(file, len, "%s/%s", dir, name);
	else
		snprintf(file, len, "%s", name);
	return 0;
}

/* Source text must not carry terminal controls into the listing. */
static void put_clean(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 && *s != '\t' ? '?' : *s, out);
}

/* ---- the listing ---- */

/* objdump's text, with its " <sym+off>" after a branch or jump target. */
static void disasm(const struct func *fn, const struct insn *i, char *buf, size_t len)
{
	int k = insn_disasm(buf, len, i->raw, i->pc);
	struct dinsn d;
	insn_decode(i->raw, &d);
	if (d.id != INSN_JAL && !(d.id >= INSN_BEQ && d.id <= INSN_BGEU))
		return;
	uint64_t to = i->pc + (uint64_t)(int64_t)d.imm, off;
	const char *name = sym_lookup(fn->se, to, &off);
	if (name && k > 0 && (size_t)k < len) {
		if (off)
			snprintf(buf + k, len - (size_t)k, " <%s+0x%llx>", name, (unsigned long long)off);
		else
			snprintf(buf + k, len - (size_t)k, " <%s>", name);
	}
}

static void listing(struct ann *a, const struct func *fn, const struct insn *v, size_t n,
		    unsigned ev, const uint64_t *counts, uint64_t outside, uint64_t total)
{
	FILE *out = a->o->out ? a->o->out : stdout;
	const struct perfdata_rd_event *e = &a->f->events[ev];
	const char *sym = a->symbol;
	fprintf(out, "# Annotate: %s\n", sym);
	fprintf(out, "# File: %s\n", fn->path);
	fprintf(out, "# Symbol: %s at 0x%llx, %llu bytes, %zu instructions\n", sym,
		(unsigned long long)fn->start, (unsigned long long)fn->size, n);
	fprintf(out, "# Event: %s: %llu samples in %s, %.2f%% of %llu\n", e->name,
		(unsigned long long)total, sym, e->nsamples ? 100.0 * total / e->nsamples : 0.0,
		(unsigned long long)e->nsamples);
	fprintf(out, "#\n#  Percent   Samples   Address  Encoding  Disassembly\n"
		     "#  .......   .......   .......  ........  ...........\n#\n");
	char last_file[4096] = "";
	int last_line = -1;
	for (size_t k = 0; k < n; k++) {
		const struct insn *i = &v[k];
		char file[4096];
		int line;
		if (!a->o->no_source && !line_of(fn, i->pc, file, sizeof(file), &line) &&
		    (line != last_line || strcmp(file, last_file))) {
			const char *base = strrchr(file, '/');
			struct src *s = src_get(a, file);
			fprintf(out, "%38s", "");
			put_clean(out, base ? base + 1 : file);
			fprintf(out, ":%d", line);
			if (s && !s->missing && line >= 1 && (size_t)line <= s->nlines) {
				fputs("  ", out);
				put_clean(out, s->text + s->line_at[line - 1]);
			}
			fputc('\n', out);
			last_line = line;
			snprintf(last_file, sizeof(last_file), "%s", file);
		}
		char text[128];
		if (i->data)
			snprintf(text, sizeof(text), i->len == 1 ? ".byte 0x%x" : ".2byte 0x%x", i->raw);
		else
			disasm(fn, i, text, sizeof(text));
		uint64_t c = counts[(size_t)ev * n + k];
		fprintf(out, "%10.2f %9llu %9llx:  %-8.*x  %s\n", total ? 100.0 * c / total : 0.0,
			(unsigned long long)c, (unsigned long long)i->pc, (int)(2 * i->len), i->raw,
			text);
	}
	if (outside)
		fprintf(out, "%10.2f %9llu  (past the end of the symbol's bytes)\n",
			100.0 * outside / total, (unsigned long long)outside);
}

/* The listings of one function: 0, or -1 with the reason in err. */
static int annotate_one(const struct annotate_opts *o, const struct perfdata_file *f,
			const char *symbol, char *err, size_t errlen)
{
	struct ann a = { .o = o, .symbol = symbol, .f = f };
	if (!f->nmmaps)
		return perfdata_errf(err, errlen, "the file maps no executable, so '%s' cannot be found",
			    symbol), -1;
	/* every mapped file that holds the symbol; the one with the most
	 * samples of it wins (one file in a static program) */
	struct func best = { .fd = -1 };
	struct insn *bv = NULL;
	uint64_t *bc = NULL;
	size_t bn = 0;
	long long btotal = -1;
	char why[4400] = "";
	int rc = -1;
	for (size_t mi = 0; mi < f->nmmaps; mi++) {
		const char *path = f->mmaps[mi].path;
		int seen = 0;
		for (size_t j = 0; j < mi && !seen; j++)
			seen = !strcmp(f->mmaps[j].path, path);
		if (seen || !path[0])
			continue;
		struct func fn = { .path = path, .fd = -1 };
		snprintf(fn.full, sizeof(fn.full), "%s%s", o->symfs ? o->symfs : "", path);
		char e1[4400];
		if (sym_check_build_id(f, path, fn.full, e1, sizeof(e1))) {
			/* as perf: never list a rebuilt file's code as the recorded one's */
			if (!why[0])
				snprintf(why, sizeof(why), "%s", e1);
			continue;
		}
		int got = func_open(&fn, symbol, e1, sizeof(e1));
		if (got <= 0) {
			if (got < 0 && !why[0])
				snprintf(why, sizeof(why), "%s", e1);
			func_close(&fn);
			continue;
		}
		size_t n = 0;
		struct insn *v = decode_all(&fn, &n);
		uint64_t *c = v ? calloc((size_t)f->nevents * (n + 1), sizeof(*c)) : NULL;
		if (!c)
			snprintf(e1, sizeof(e1), "out of memory");
		else
			fn.se = sym_open(fn.full, e1, sizeof(e1));
		long long t = fn.se ? count_samples(&a, &fn, v, n, c) : -1;
		if (t < 0) {
			if (!why[0])
				snprintf(why, sizeof(why), "%s", e1);
			free(v);
			free(c);
			func_close(&fn);
			continue;
		}
		if (t > btotal) {
			func_close(&best);
			free(bv);
			free(bc);
			best = fn, bv = v, bc = c, bn = n, btotal = t;
		} else {
			free(v);
			free(c);
			func_close(&fn);
		}
	}
	if (btotal < 0) {
		if (why[0])
			perfdata_errf(err, errlen, "no function '%s' found (%s)", symbol, why);
		else
			perfdata_errf(err, errlen, "no function '%s' in the files perf.data maps", symbol);
	} else if (!btotal) {
		perfdata_errf(err, errlen, "'%s' in %s has no samples", symbol, best.path);
	} else {
		int first = 1;
		for (unsigned ev = 0; ev < f->nevents; ev++) {
			uint64_t out = bc[(size_t)f->nevents * bn + ev], t = out;
			for (size_t k = 0; k < bn; k++)
				t += bc[(size_t)ev * bn + k];
			if (!t)
				continue;
			if (!first)
				fputc('\n', o->out ? o->out : stdout);
			listing(&a, &best, bv, bn, ev, bc, out, t);
			first = 0;
		}
		rc = 0;
	}
	func_close(&best);
	free(bv);
	free(bc);
	src_free(&a);
	return rc;
}

/* perf annotate without a symbol: every sampled function (of the first
 * sampled event) with at least the percent limit, hottest first. */
static int annotate_all(const struct annotate_opts *o, const struct perfdata_file *f, char *err,
			size_t errlen)
{
	static const int keys[] = { RK_DSO, RK_SYM };
	struct report_opts ro = {0};
	struct resolver r;
	struct frames fs;
	struct hists h = { .o = &ro, .keys = keys, .nkeys = 2 };
	unsigned ev = 0;
	while (ev < f->nevents && !f->events[ev].nsamples)
		ev++;
	if (ev == f->nevents)
		return perfdata_errf(err, errlen, "the file has no samples"), -1;
	resolver_init(&r, f, o->symfs, 1, "annotate");
	frames_init(&fs, &r);
	int rc = hists_add(&h, &fs, f, ev);
	if (rc)
		perfdata_errf(err, errlen, "out of memory");
	hists_finish(&h);
	double limit = o->percent_limit > 0 ? o->percent_limit : 0.5;
	int shown = 0;
	for (size_t i = 0; !rc && i < h.n; i++) {
		const struct hentry *e = &h.e[i];
		if (!e->fr->l.sym || 100.0 * e->period < limit * h.total_period)
			continue;
		if (shown++)
			fputc('\n', o->out ? o->out : stdout);
		rc = annotate_one(o, f, e->fr->l.sym, err, errlen);
	}
	if (!rc && !shown)
		rc = (perfdata_errf(err, errlen, "no function has %.2f%% of the samples or more "
				    "(--percent-limit)", limit), -1);
	hists_free(&h);
	frames_free(&fs);
	resolver_free(&r);
	return rc;
}

int annotate_file(const struct annotate_opts *o, const struct perfdata_file *f, char *err,
		  size_t errlen)
{
	if (!o->symbol)
		return annotate_all(o, f, err, errlen);
	if (!*o->symbol)
		return perfdata_errf(err, errlen, "no symbol given"), -1;
	return annotate_one(o, f, o->symbol, err, errlen);
}

int annotate_main(const struct annotate_opts *o)
{
	struct perfdata_file f;
	char err[1024];
	const char *in = o->input ? o->input : "perf.data";
	if (perfdata_read(in, &f, err, sizeof(err))) {
		fprintf(stderr, "rvpmu annotate: %s\n", err);
		return 1;
	}
	int rc = annotate_file(o, &f, err, sizeof(err));
	if (rc)
		fprintf(stderr, "rvpmu annotate: %s\n", err);
	perfdata_file_free(&f);
	return rc ? 1 : 0;
}
