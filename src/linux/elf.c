/* ELF loader for static riscv64 executables (ET_EXEC and static-pie).
 * Every field that decides where bytes go is checked before anything is
 * mapped, so a malformed file gets a one-line reason, never a crash. */
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "lx.h"

#define PAGE_DOWN(a) ((a) & ~(GPAGE_SIZE - 1))
#define PAGE_UP(a)   (((a) + GPAGE_SIZE - 1) & ~(GPAGE_SIZE - 1))
#define MAX_PHNUM    1024
#define MIN_VADDR    GPAGE_SIZE      /* the NULL page stays unmapped */

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static unsigned seg_prot(uint32_t pf)
{
	return (pf & PF_R ? GP_R : 0) | (pf & PF_W ? GP_W : 0) |
	       (pf & PF_X ? GP_X : 0);
}

/* Map the pages of [lo, hi) that no earlier segment mapped: two segments
 * may share a page, and remapping it would wipe the first one's bytes. */
static int map_fresh(struct gmem *m, uint64_t lo, uint64_t hi)
{
	for (uint64_t a = lo; a < hi;) {
		if (m->pflags[a >> GPAGE_SHIFT]) {
			a += GPAGE_SIZE;
			continue;
		}
		uint64_t b = a;
		while (b < hi && !m->pflags[b >> GPAGE_SHIFT])
			b += GPAGE_SIZE;
		if (gmem_map(m, a, b - a, GP_R | GP_W))
			return -1;
		a = b;
	}
	return 0;
}

/* What /proc/self/maps and stat show of a loaded segment: its file-backed
 * pages with their file offset, and Linux's start/end_code/data
 * (fs/binfmt_elf.c: code from the executable segments, data up to the
 * highest file byte of any). */
static void note_segment(struct lx_exec *ex, const GElf_Phdr *s, uint64_t base)
{
	uint64_t v = s->p_vaddr + base, fend = v + s->p_filesz;
	if (s->p_filesz && ex->nseg < LX_MAX_SEGS)
		ex->seg[ex->nseg++] = (typeof(ex->seg[0])){ PAGE_DOWN(v), PAGE_UP(fend), PAGE_DOWN(s->p_offset) };
	if ((s->p_flags & PF_X) && (!ex->start_code || v < ex->start_code))
		ex->start_code = v;
	if ((s->p_flags & PF_X) && fend > ex->end_code)
		ex->end_code = fend;
	if (v > ex->start_data)
		ex->start_data = v;
	if (fend > ex->end_data)
		ex->end_data = fend;
}

/* System V gABI ch. 5 "Program Loading"; Linux fs/binfmt_elf.c semantics
 * for static programs (no PT_INTERP). */
int lx_elf_load(struct lx *p, const uint8_t *buf, size_t len,
		struct lx_image *img, char *err, size_t errlen)
{
	struct hart *h = p->h;
	memset(img, 0, sizeof(*img));
	if (len == 0)
		return fail(err, errlen, "empty file");
	if (len < SELFMAG || memcmp(buf, ELFMAG, SELFMAG))
		return fail(err, errlen, "not an ELF file");
	if (len < EI_NIDENT)
		return fail(err, errlen, "truncated ELF header");
	if (buf[EI_CLASS] != ELFCLASS64)
		return fail(err, errlen, "not a 64-bit ELF file (EI_CLASS %u)", buf[EI_CLASS]);
	if (buf[EI_DATA] != ELFDATA2LSB)
		return fail(err, errlen, "not a little-endian ELF file (EI_DATA %u)", buf[EI_DATA]);
	if (buf[EI_VERSION] != EV_CURRENT)
		return fail(err, errlen, "unknown ELF version %u", buf[EI_VERSION]);
	if (len < sizeof(Elf64_Ehdr))
		return fail(err, errlen, "truncated ELF header");

	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(err, errlen, "libelf: %s", elf_errmsg(-1));
	Elf *e = elf_memory((char *)buf, len);
	if (!e)
		return fail(err, errlen, "libelf: %s", elf_errmsg(-1));
	int rc = -1;
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh)) {
		fail(err, errlen, "bad ELF header: %s", elf_errmsg(-1));
		goto out;
	}
	if (eh.e_machine != EM_RISCV) {
		fail(err, errlen, "not a RISC-V program (e_machine %u)", eh.e_machine);
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		fail(err, errlen, "not an executable (e_type %u)", eh.e_type);
		goto out;
	}
	if (eh.e_phnum == 0 || eh.e_phnum >= MAX_PHNUM) {
		fail(err, errlen, "bad program header count %u", eh.e_phnum);
		goto out;
	}
	if (eh.e_phentsize != sizeof(Elf64_Phdr)) {
		fail(err, errlen, "bad program header size %u", eh.e_phentsize);
		goto out;
	}
	if (eh.e_phoff > len || (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > len - eh.e_phoff) {
		fail(err, errlen, "program header table beyond end of file");
		goto out;
	}

	/* Pass 1: validate every header and find the extent and alignment. */
	GElf_Phdr ph[MAX_PHNUM];
	unsigned n = eh.e_phnum, nload = 0;
	uint64_t lo = UINT64_MAX, hi = 0, align = GPAGE_SIZE, need = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!gelf_getphdr(e, (int)i, &ph[i])) {
			fail(err, errlen, "bad program header %u: %s", i, elf_errmsg(-1));
			goto out;
		}
		if (ph[i].p_type == PT_INTERP) {
			fail(err, errlen, "dynamically linked programs are not supported; link with -static");
			goto out;
		}
		if (ph[i].p_type != PT_LOAD)
			continue;
		const GElf_Phdr *s = &ph[i];
		if (s->p_offset > len || s->p_filesz > len - s->p_offset) {
			fail(err, errlen, "segment %u: file data beyond end of file", i);
			goto out;
		}
		if (s->p_filesz > s->p_memsz) {
			fail(err, errlen, "segment %u: p_filesz larger than p_memsz", i);
			goto out;
		}
		if (s->p_memsz == 0)
			continue;
		if (s->p_vaddr >= p->mm->mem.size || s->p_memsz > p->mm->mem.size - s->p_vaddr) {
			fail(err, errlen, "segment %u (0x%llx, %llu bytes) does not fit in the %llu GiB address space",
			     i, (unsigned long long)s->p_vaddr, (unsigned long long)s->p_memsz,
			     (unsigned long long)(p->mm->mem.size >> 30));
			goto out;
		}
		if (s->p_align > 1 && (s->p_align & (s->p_align - 1))) {
			fail(err, errlen, "segment %u: p_align 0x%llx is not a power of two",
			     i, (unsigned long long)s->p_align);
			goto out;
		}
		if (s->p_align > align)
			align = s->p_align;
		for (unsigned j = 0; j < i; j++) {
			const GElf_Phdr *t = &ph[j];
			if (t->p_type != PT_LOAD || !t->p_memsz)
				continue;
			if (s->p_vaddr < t->p_vaddr + t->p_memsz && t->p_vaddr < s->p_vaddr + s->p_memsz) {
				fail(err, errlen, "segments %u and %u overlap", j, i);
				goto out;
			}
		}
		if (PAGE_DOWN(s->p_vaddr) < lo)
			lo = PAGE_DOWN(s->p_vaddr);
		if (PAGE_UP(s->p_vaddr + s->p_memsz) > hi)
			hi = PAGE_UP(s->p_vaddr + s->p_memsz);
		need += PAGE_UP(s->p_vaddr + s->p_memsz) - PAGE_DOWN(s->p_vaddr);
		nload++;
	}
	if (!nload) {
		fail(err, errlen, "no loadable segments");
		goto out;
	}

	/* A static-pie is placed like Linux places an ET_DYN: at
	 * ELF_ET_DYN_BASE, aligned to its largest segment alignment. */
	uint64_t base = 0;
	if (eh.e_type == ET_DYN) {
		if (align > (1ull << 30)) {
			fail(err, errlen, "segment alignment 0x%llx too large", (unsigned long long)align);
			goto out;
		}
		base = ((LX_PIE_BASE(p) + align - 1) & ~(align - 1)) - PAGE_DOWN(lo);
	}
	uint64_t space = LX_MMAP_TOP(p);  /* the stack and trampoline sit above */
	if (lo + base < MIN_VADDR || hi + base > space || hi + base < lo + base) {
		fail(err, errlen, "segments (0x%llx-0x%llx) do not fit in the address space below 0x%llx",
		     (unsigned long long)(lo + base), (unsigned long long)(hi + base),
		     (unsigned long long)space);
		goto out;
	}
	uint64_t cap = p->mm->mem.acct->max_bytes;
	if (cap && need + LX_STACK_SIZE + GPAGE_SIZE > cap) {
		fail(err, errlen, "program needs %llu MiB, more than the %llu MiB memory limit",
		     (unsigned long long)((need + LX_STACK_SIZE + (1 << 20) - 1) >> 20),
		     (unsigned long long)(cap >> 20));
		goto out;
	}

	p->mm->load_bias = base;
	uint64_t entry = eh.e_entry + base;
	bool entry_ok = false;
	for (unsigned i = 0; i < n; i++) {
		const GElf_Phdr *s = &ph[i];
		if (s->p_type == PT_LOAD && (s->p_flags & PF_X) &&
		    entry >= s->p_vaddr + base && entry < s->p_vaddr + base + s->p_memsz)
			entry_ok = true;
	}
	if (!entry_ok) {
		fail(err, errlen, "entry point 0x%llx is not in an executable segment",
		     (unsigned long long)entry);
		goto out;
	}

	/* Pass 2: map, copy, then set the final protections (the union where
	 * two segments share a page). */
	struct gmem *m = &p->mm->mem;
	for (unsigned i = 0; i < n; i++) {
		const GElf_Phdr *s = &ph[i];
		if (s->p_type != PT_LOAD || !s->p_memsz)
			continue;
		uint64_t v = s->p_vaddr + base;
		if (map_fresh(m, PAGE_DOWN(v), PAGE_UP(v + s->p_memsz))) {
			fail(err, errlen, "out of memory loading segment %u (memory limit %llu MiB)",
			     i, (unsigned long long)(m->acct->max_bytes >> 20));
			goto out;
		}
		memcpy(m->base + v, buf + s->p_offset, s->p_filesz);
		note_segment(&p->mm->ex, s, base);
	}
	for (unsigned i = 0; i < n; i++) {
		const GElf_Phdr *s = &ph[i];
		if (s->p_type == PT_LOAD && s->p_memsz) {
			uint64_t v = s->p_vaddr + base;
			gmem_protect(m, PAGE_DOWN(v), PAGE_UP(v + s->p_memsz) - PAGE_DOWN(v), 0);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		const GElf_Phdr *s = &ph[i];
		if (s->p_type != PT_LOAD || !s->p_memsz)
			continue;
		uint64_t v = s->p_vaddr + base;
		for (uint64_t a = PAGE_DOWN(v); a < PAGE_UP(v + s->p_memsz); a += GPAGE_SIZE)
			gmem_protect(m, a, GPAGE_SIZE, gmem_prot(m, a) | seg_prot(s->p_flags));
	}
	hart_invalidate_code(h, lo + base, hi - lo);

	/* AT_PHDR: where the program headers are in guest memory. */
	uint64_t phbytes = (uint64_t)n * sizeof(Elf64_Phdr);
	for (unsigned i = 0; i < n && !img->phdr_loaded; i++) {
		const GElf_Phdr *s = &ph[i];
		if (s->p_type == PT_PHDR && s->p_memsz >= phbytes &&
		    gmem_check(m, s->p_vaddr + base, phbytes, GP_R)) {
			img->phdr = s->p_vaddr + base;
			img->phdr_loaded = true;
		}
	}
	for (unsigned i = 0; i < n && !img->phdr_loaded; i++) {
		const GElf_Phdr *s = &ph[i];
		if (s->p_type == PT_LOAD && eh.e_phoff >= s->p_offset &&
		    eh.e_phoff + phbytes <= s->p_offset + s->p_filesz) {
			img->phdr = s->p_vaddr + base + (eh.e_phoff - s->p_offset);
			img->phdr_loaded = true;
		}
	}
	img->phdr_bytes = buf + eh.e_phoff;
	img->phent = sizeof(Elf64_Phdr);
	img->phnum = n;
	img->entry = entry;
	img->base = base;
	img->end = hi + base;
	rc = 0;
out:
	elf_end(e);
	return rc;
}
