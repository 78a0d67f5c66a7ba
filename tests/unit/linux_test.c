/* Host test of src/linux: ELF images built here byte by byte are loaded
 * with linux_load_image and the resulting guest memory, registers and
 * run results are checked against the Linux ABI (initial stack layout per
 * fs/binfmt_elf.c create_elf_tables, psABI sp alignment).
 *
 * Build: gcc -Iinclude tests/unit/linux_test.c plus the .c files of every
 * src directory but src/cli, -lelf -ldw -lfdt -ljansson -liberty -lm.
 * Prints one "PASS linux_NAME" / "FAIL linux_NAME: why" line per check. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"

static int fails;
static void check(const char *name, int ok, const char *why)
{
	if (ok)
		printf("PASS linux_%s\n", name);
	else {
		printf("FAIL linux_%s: %s\n", name, why);
		fails++;
	}
}
#define CHECK(name, cond) check(name, (cond), #cond)

#define TEXT_VA 0x10000ull
#define DATA_VA 0x20000ull

struct img {
	uint8_t b[8192];
	size_t len;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
};

/* An ET_EXEC with an R+X text segment holding code and an RW data
 * segment of 16 file bytes plus 8 KiB of bss. */
static void build(struct img *m, const uint32_t *code, size_t ncode, uint16_t type)
{
	memset(m, 0, sizeof(*m));
	m->eh = (Elf64_Ehdr *)m->b;
	m->ph = (Elf64_Phdr *)(m->b + sizeof(Elf64_Ehdr));
	Elf64_Ehdr *e = m->eh;
	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = ELFDATA2LSB;
	e->e_ident[EI_VERSION] = EV_CURRENT;
	e->e_type = type;
	e->e_machine = EM_RISCV;
	e->e_version = EV_CURRENT;
	e->e_phoff = sizeof(Elf64_Ehdr);
	e->e_ehsize = sizeof(Elf64_Ehdr);
	e->e_phentsize = sizeof(Elf64_Phdr);
	e->e_phnum = 2;
	size_t text_off = 0x1000, data_off = 0x1800;
	memcpy(m->b + text_off, code, ncode * 4);
	memcpy(m->b + data_off, "data-segment-xyz", 16);
	m->ph[0] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, 0, TEXT_VA, TEXT_VA,
				 text_off + ncode * 4, text_off + ncode * 4, 0x1000 };
	m->ph[1] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_W, data_off, DATA_VA + 0x800, DATA_VA + 0x800,
				 16, 16 + 8192, 0x1000 };
	e->e_entry = TEXT_VA + text_off;
	m->len = data_off + 16;
}

static struct hart h;
static char err[512];

static int load(struct img *m, const struct linux_opts *o)
{
	hart_free(&h);
	if (hart_init(&h))
		return -2;
	char *argv[] = { "prog", "arg-one", NULL }, *envp[] = { "K=V", "EMPTY=", NULL };
	err[0] = 0;
	return linux_load_image(&h, o, m->b, m->len, "prog", 2, argv, envp, err, sizeof(err));
}

static uint64_t rd64(uint64_t a)
{
	uint64_t v = 0;
	gmem_read(&h.mem, a, &v, 8);
	return v;
}

static const char *rdstr(uint64_t a)
{
	long n = gmem_strlen(&h.mem, a, 4096);
	return n < 0 ? "<bad>" : (const char *)h.mem.base + a;
}

/* RISC-V encodings used below (RV64I base, unprivileged spec ch. 2). */
#define ADDI(rd, rs, imm) ((uint32_t)((imm) & 0xfff) << 20 | (rs) << 15 | (rd) << 7 | 0x13)
#define ECALL 0x00000073u
#define JSELF 0x0000006fu          /* jal x0, 0 */
#define LD0 0x00003503u            /* ld a0, 0(zero) */

static void test_stack(void)
{
	static const uint32_t code[] = { ADDI(17, 0, 93), ADDI(10, 0, 7), ECALL };
	struct img m;
	build(&m, code, 3, ET_EXEC);
	struct linux_opts o = { .warn_fd = 2 };
	CHECK("load_ok", load(&m, &o) == 0);
	uint64_t sp = h.x[2];
	CHECK("sp_aligned", (sp & 15) == 0 && sp > h.mem.size - (8u << 20));
	CHECK("pc_entry", h.pc == m.eh->e_entry);
	CHECK("argc", rd64(sp) == 2);
	CHECK("argv", !strcmp(rdstr(rd64(sp + 8)), "prog") && !strcmp(rdstr(rd64(sp + 16)), "arg-one") &&
	      rd64(sp + 24) == 0);
	CHECK("envp", !strcmp(rdstr(rd64(sp + 32)), "K=V") && !strcmp(rdstr(rd64(sp + 40)), "EMPTY=") &&
	      rd64(sp + 48) == 0);
	uint64_t aux[64] = { 0 };
	int seen_null = 0;
	for (uint64_t a = sp + 56; a < sp + 56 + 2 * 8 * 40; a += 16) {
		uint64_t t = rd64(a), v = rd64(a + 8);
		if (t == AT_NULL) {
			seen_null = 1;
			break;
		}
		if (t < 64)
			aux[t] = v;
	}
	CHECK("auxv_null", seen_null);
	CHECK("auxv_pagesz", aux[AT_PAGESZ] == 4096);
	CHECK("auxv_entry", aux[AT_ENTRY] == m.eh->e_entry);
	CHECK("auxv_phnum", aux[AT_PHNUM] == 2 && aux[AT_PHENT] == sizeof(Elf64_Phdr));
	/* the headers live at file offset 64, inside the text segment */
	CHECK("auxv_phdr", aux[AT_PHDR] == TEXT_VA + 64 && rd64(aux[AT_PHDR]) == *(uint64_t *)m.ph);
	uint64_t hw = 0;
	for (const char *c = "imafdc"; *c; c++)
		hw |= 1ull << (*c - 'a');
	CHECK("auxv_hwcap", aux[AT_HWCAP] == hw);
	CHECK("auxv_clktck", aux[AT_CLKTCK] == 100);
	CHECK("auxv_secure", aux[AT_SECURE] == 0);
	CHECK("auxv_ids", aux[AT_UID] == getuid() && aux[AT_EUID] == geteuid() &&
	      aux[AT_GID] == getgid() && aux[AT_EGID] == getegid());
	CHECK("auxv_platform", !strcmp(rdstr(aux[AT_PLATFORM]), "riscv64"));
	CHECK("auxv_execfn", !strcmp(rdstr(aux[AT_EXECFN]), "prog"));
	CHECK("auxv_random", aux[AT_RANDOM] > sp && gmem_check(&h.mem, aux[AT_RANDOM], 16, GP_R));
	uint8_t r1[16];
	gmem_read(&h.mem, aux[AT_RANDOM], r1, 16);
	CHECK("text_perms", gmem_check(&h.mem, TEXT_VA, 4096, GP_R | GP_X) &&
	      !gmem_check(&h.mem, TEXT_VA, 1, GP_W));
	CHECK("data_copied", !memcmp(h.mem.base + DATA_VA + 0x800, "data-segment-xyz", 16));
	CHECK("bss_zero", gmem_check(&h.mem, DATA_VA + 0x810, 8192, GP_R | GP_W) &&
	      rd64(DATA_VA + 0x810) == 0 && rd64(DATA_VA + 0x810 + 8184) == 0);
	CHECK("null_page_unmapped", !gmem_check(&h.mem, 0, 1, GP_R));
	CHECK("run_exit_status", linux_run(&h, &o) == 7);

	/* same image again: AT_RANDOM is deterministic */
	load(&m, &o);
	sp = h.x[2];
	for (uint64_t a = sp + 56; rd64(a) != AT_NULL; a += 16)
		if (rd64(a) == AT_RANDOM) {
			uint8_t r2[16];
			gmem_read(&h.mem, rd64(a + 8), r2, 16);
			CHECK("random_deterministic", !memcmp(r1, r2, 16));
		}
}

static void test_pie(void)
{
	static const uint32_t code[] = { ADDI(17, 0, 93), ADDI(10, 0, 0), ECALL };
	struct img m;
	build(&m, code, 3, ET_DYN);
	/* a static-pie is linked at 0 */
	m.ph[0].p_vaddr = m.ph[0].p_paddr = 0;
	m.ph[1].p_vaddr = m.ph[1].p_paddr = 0x1800;
	m.eh->e_entry = 0x1000;
	struct linux_opts o = { .warn_fd = 2 };
	CHECK("pie_load", load(&m, &o) == 0);
	CHECK("pie_base", h.pc > 0x1000 && ((h.pc - 0x1000) & 0xfff) == 0 &&
	      gmem_check(&h.mem, h.pc - 0x1000, 4096, GP_X));
	CHECK("pie_run", linux_run(&h, &o) == 0);
}

static void expect_error(const char *name, struct img *m, const char *want)
{
	struct linux_opts o = { .warn_fd = 2 };
	int rc = load(m, &o);
	char why[600];
	snprintf(why, sizeof(why), "rc %d, message '%s', want '%s'", rc, err, want);
	check(name, rc == -1 && strstr(err, want) && !strchr(err, '\n') && !strncmp(err, "prog: ", 6), why);
}

static void test_errors(void)
{
	static const uint32_t code[] = { ECALL };
	struct img m;
	build(&m, code, 1, ET_EXEC);
	m.eh->e_machine = EM_X86_64;
	expect_error("err_machine", &m, "not a RISC-V program");
	build(&m, code, 1, ET_EXEC);
	m.eh->e_ident[EI_CLASS] = ELFCLASS32;
	expect_error("err_class", &m, "not a 64-bit ELF");
	build(&m, code, 1, ET_EXEC);
	m.len = 20;
	expect_error("err_truncated", &m, "truncated ELF header");
	build(&m, code, 1, ET_EXEC);
	m.ph[1].p_filesz = 1 << 20;
	m.ph[1].p_memsz = 1 << 20;
	expect_error("err_beyond_file", &m, "beyond end of file");
	build(&m, code, 1, ET_EXEC);
	m.ph[1].p_memsz = 8;
	expect_error("err_filesz", &m, "p_filesz larger than p_memsz");
	build(&m, code, 1, ET_EXEC);
	m.ph[1].p_vaddr = TEXT_VA + 0x100;
	expect_error("err_overlap", &m, "overlap");
	build(&m, code, 1, ET_EXEC);
	m.ph[1].p_memsz = 1ull << 52;
	expect_error("err_huge", &m, "does not fit");
	build(&m, code, 1, ET_EXEC);
	m.eh->e_entry = DATA_VA + 0x800;
	expect_error("err_entry", &m, "not in an executable segment");
	build(&m, code, 1, ET_EXEC);
	m.ph[0].p_type = PT_INTERP;
	expect_error("err_dynamic", &m, "link with -static");

	build(&m, code, 1, ET_EXEC);
	m.ph[1].p_memsz = 200 << 20;
	struct linux_opts o = { .max_mem_mb = 64, .warn_fd = 2 };
	int rc = load(&m, &o);
	check("err_max_mem", rc == -1 && strstr(err, "memory limit"), err);
}

static void test_run(void)
{
	struct img m;
	struct linux_opts o = { .warn_fd = 2 };
	static const uint32_t loop[] = { JSELF };
	build(&m, loop, 1, ET_EXEC);
	o.max_insns = 12345;
	int pf[2];
	if (pipe(pf))
		return;
	o.warn_fd = pf[1];
	load(&m, &o);
	int rc = linux_run(&h, &o);
	char buf[256] = { 0 };
	ssize_t n = read(pf[0], buf, sizeof(buf) - 1);
	CHECK("max_insns_status", rc == LINUX_EXIT_MAX_INSNS);
	CHECK("max_insns_exact", h.instret == 12345);
	CHECK("max_insns_message", n > 0 && !strcmp(buf, "rvpmu: instruction limit 12345 reached\n"));

	/* an unknown syscall: -ENOSYS in a0 and one warning however often */
	static const uint32_t unk[] = { ADDI(17, 0, 2000), ECALL, ECALL,
					ADDI(17, 0, 93), ECALL };
	build(&m, unk, 5, ET_EXEC);
	o.max_insns = 0;
	load(&m, &o);
	rc = linux_run(&h, &o);
	memset(buf, 0, sizeof(buf));
	n = read(pf[0], buf, sizeof(buf) - 1);
	CHECK("enosys_status", rc == (-38 & 0xff));
	CHECK("enosys_warn_once", n > 0 && !strcmp(buf, "rvpmu: warning: unsupported syscall 2000 (unknown)\n"));

	static const uint32_t segv[] = { LD0 };
	build(&m, segv, 1, ET_EXEC);
	load(&m, &o);
	rc = linux_run(&h, &o);
	memset(buf, 0, sizeof(buf));
	n = read(pf[0], buf, sizeof(buf) - 1);
	CHECK("segv_status", rc == 128 + 11);
	CHECK("segv_message", n > 0 && strstr(buf, "SIGSEGV") && strstr(buf, "cause 13") &&
	      strstr(buf, "ld") && strchr(buf, '\n') == buf + n - 1);
	close(pf[0]);
	close(pf[1]);
}

int main(void)
{
	test_stack();
	test_pie();
	test_errors();
	test_run();
	linux_free();
	hart_free(&h);
	return fails != 0;
}
