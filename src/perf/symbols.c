/* Symbols of a guest ELF for rvpmu report: functions from .symtab (or
 * .dynsym) with libelf, source lines from DWARF with libdw, the GNU build
 * id from its note. Works on any ELF class/machine (the host reads a
 * riscv64 ELF). */
#include <elfutils/libdw.h>
#include <errno.h>
#include <libiberty/demangle.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rvpmu/perfdata.h"

struct fsym {
	uint64_t start, size;
	const char *name;       /* in the ELF's string table */
	char *dname;            /* demangled (C++, Rust), or NULL when not mangled */
	int bind;
};

struct seg {
	uint64_t off, filesz, vaddr;
};

struct sym_elf {
	int fd;
	Elf *elf;
	Dwarf *dw;
	struct fsym *syms;
	size_t nsyms;
	struct seg *segs;
	size_t nsegs;
};

static int underscores(const char *s)
{
	int n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* By address; among aliases the one perf shows first (util/symbol.c,
 * choose_best_symbol): sized, not weak, global, fewer leading
 * underscores, then the longer name. */
static int by_start(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (!x->size != !y->size)
		return x->size ? -1 : 1;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	if (underscores(x->name) != underscores(y->name))
		return underscores(x->name) < underscores(y->name) ? -1 : 1;
	size_t nx = strlen(x->name), ny = strlen(y->name);
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int load_symtab(struct sym_elf *s, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return 0;
	size_t n = sh->sh_size / sh->sh_entsize;
	struct fsym *v = realloc(s->syms, (s->nsyms + n + 1) * sizeof(*v));
	if (!v)
		return -1;
	s->syms = v;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC && GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		const char *name = elf_strptr(s->elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		v[s->nsyms++] = (struct fsym){ sym.st_value, sym.st_size, name, NULL,
					       GELF_ST_BIND(sym.st_info) };
	}
	return 0;
}

struct sym_elf *sym_open(const char *path, char *err, size_t errlen)
{
	struct sym_elf *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	s->fd = open(path, O_RDONLY);
	if (s->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(s);
		return NULL;
	}
	elf_version(EV_CURRENT);
	s->elf = elf_begin(s->fd, ELF_C_READ, NULL);
	if (!s->elf || elf_kind(s->elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		sym_close(s);
		return NULL;
	}
	size_t nph = 0;
	if (!elf_getphdrnum(s->elf, &nph) && nph && nph < 65536) {
		s->segs = calloc(nph, sizeof(*s->segs));
		for (size_t i = 0; s->segs && i < nph; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(s->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
				s->segs[s->nsegs++] = (struct seg){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
		}
	}
	/* .symtab when present (static binaries keep it), else .dynsym */
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dsh;
	int have = 0;
	while ((scn = elf_nextscn(s->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			if (load_symtab(s, scn, &sh)) {
				snprintf(err, errlen, "%s: out of memory", path);
				sym_close(s);
				return NULL;
			}
			have = 1;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (!have && dyn && load_symtab(s, dyn, &dsh)) {
		snprintf(err, errlen, "%s: out of memory", path);
		sym_close(s);
		return NULL;
	}
	if (s->nsyms) {
		qsort(s->syms, s->nsyms, sizeof(*s->syms), by_start);
		size_t k = 0;
		for (size_t i = 0; i < s->nsyms; i++)
			if (!k || s->syms[k - 1].start != s->syms[i].start)
				s->syms[k++] = s->syms[i];
		s->nsyms = k;
		for (size_t i = 0; i < k; i++)
			s->syms[i].dname = sym_demangle(s->syms[i].name);
	}
	s->dw = dwarf_begin_elf(s->elf, DWARF_C_READ, NULL);   /* NULL: no DWARF */
	return s;
}

void sym_close(struct sym_elf *s)
{
	if (!s)
		return;
	if (s->dw)
		dwarf_end(s->dw);
	if (s->elf)
		elf_end(s->elf);
	if (s->fd >= 0)
		close(s->fd);
	for (size_t i = 0; i < s->nsyms; i++)
		free(s->syms[i].dname);
	free(s->syms);
	free(s->segs);
	free(s);
}

int sym_offset_to_addr(const struct sym_elf *s, uint64_t off, uint64_t *addr)
{
	for (size_t i = 0; i < s->nsegs; i++) {
		const struct seg *g = &s->segs[i];
		if (off >= g->off && off - g->off < g->filesz) {
			*addr = g->vaddr + (off - g->off);
			return 1;
		}
	}
	return 0;
}

char *sym_demangle(const char *name)
{
	/* as perf without -v: no parameter lists; C++ (_Z) and Rust (legacy
	 * _ZN...17h<hash>E without its hash, and v0 _R) alike */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}

const char *sym_lookup_dm(const struct sym_elf *s, uint64_t addr, uint64_t *off,
			  uint64_t *start, int demangle)
{
	size_t lo = 0, hi = s->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct fsym *f = &s->syms[lo - 1];
	/* a sized symbol must contain addr; an unsized one reaches the next */
	if (f->size && addr - f->start >= f->size)
		return NULL;
	if (off)
		*off = addr - f->start;
	if (start)
		*start = f->start;
	return demangle && f->dname ? f->dname : f->name;
}

int sym_read(const struct sym_elf *s, uint64_t addr, void *buf, size_t len)
{
	for (size_t i = 0; i < s->nsegs; i++) {
		const struct seg *g = &s->segs[i];
		if (addr >= g->vaddr && addr - g->vaddr < g->filesz && len <= g->filesz - (addr - g->vaddr))
			return pread(s->fd, buf, len, (off_t)(g->off + addr - g->vaddr)) == (ssize_t)len ? 0 : -1;
	}
	return -1;
}

const char *sym_lookup(const struct sym_elf *s, uint64_t addr, uint64_t *off)
{
	return sym_lookup_dm(s, addr, off, NULL, 0);
}

int sym_srcline(struct sym_elf *s, uint64_t addr, char *buf, size_t len)
{
	if (!s->dw)
		return -1;
	Dwarf_Die cu;
	if (!dwarf_addrdie(s->dw, addr, &cu))
		return -1;
	Dwarf_Line *line = dwarf_getsrc_die(&cu, addr);
	int lineno = 0;
	const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(line, &lineno))
		return -1;
	const char *base = strrchr(file, '/');
	snprintf(buf, len, "%s:%d", base ? base + 1 : file, lineno);
	return 0;
}

/* The build id's length (0: none); *elf: whether path is a readable ELF. */
static unsigned read_build_id(const char *path, uint8_t *id, unsigned max, int *elf)
{
	*elf = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	unsigned got = 0;
	*elf = e && elf_kind(e) == ELF_K_ELF;
	Elf_Scn *scn = NULL;
	while (e && elf_kind(e) == ELF_K_ELF && !got && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t at = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while (d && (at = gelf_getnote(d, at, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz) {
				got = nh.n_descsz < max ? nh.n_descsz : max;
				memcpy(id, (char *)d->d_buf + desc_off, got);
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return got;
}

unsigned sym_build_id(const char *path, uint8_t *id, unsigned max)
{
	int elf;
	return read_build_id(path, id, max, &elf);
}

static void hex(const uint8_t *id, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

int sym_check_build_id(const struct perfdata_file *f, const char *path, const char *file,
		       char *err, size_t errlen)
{
	/* perf.data's build id of path (the reader keeps b->len <= 20) */
	const struct perfdata_buildid *b = NULL;
	for (size_t i = 0; i < f->nbuildids && !b; i++)
		if (!strcmp(f->buildids[i].path, path))
			b = &f->buildids[i];
	if (!b)
		return 0;  /* nothing recorded to compare with */
	uint8_t id[20];
	int elf;
	unsigned n = read_build_id(file, id, sizeof(id), &elf), len = b->len;
	if (!elf)
		return 0;  /* nothing to compare: the caller's open of it says why */
	/* an id without its length (older perf) is zero-padded to 20 bytes */
	int same = n && n <= len && !memcmp(id, b->id, n);
	for (unsigned i = n; same && i < len; i++)
		same = !b->id[i];
	if (same)
		return 0;
	char want[41], got[41];
	hex(b->id, len, want);
	hex(id, n, got);
	perfdata_errf(err, errlen, "%s is not the file that was recorded (build id %s in perf.data, %s "
		      "in the file)", file, want, n ? got : "none");
	return -1;
}
