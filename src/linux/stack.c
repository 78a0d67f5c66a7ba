/* The initial process stack as Linux builds it (fs/binfmt_elf.c
 * create_elf_tables): argc, argv[], NULL, envp[], NULL, auxv pairs ending
 * in AT_NULL, and the strings and AT_RANDOM bytes above them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lx.h"

/* Auxiliary vector types (include/uapi/linux/auxvec.h). */
enum {
	AT_NULL = 0, AT_PHDR = 3, AT_PHENT = 4, AT_PHNUM = 5, AT_PAGESZ = 6,
	AT_BASE = 7, AT_FLAGS = 8, AT_ENTRY = 9, AT_UID = 11, AT_EUID = 12,
	AT_GID = 13, AT_EGID = 14, AT_PLATFORM = 15, AT_HWCAP = 16,
	AT_CLKTCK = 17, AT_SECURE = 23, AT_RANDOM = 25, AT_HWCAP2 = 26,
	AT_EXECFN = 31,
};

/* riscv AT_HWCAP: one bit per single-letter extension, bit = letter - 'a'
 * (arch/riscv/include/uapi/asm/hwcap.h). */
#define HWCAP_ISA(c) (1ull << ((c) - 'a'))
#define LX_HWCAP (HWCAP_ISA('i') | HWCAP_ISA('m') | HWCAP_ISA('a') | \
		  HWCAP_ISA('f') | HWCAP_ISA('d') | HWCAP_ISA('c'))

/* splitmix64: a fixed seed keeps AT_RANDOM and getrandom deterministic. */
uint64_t lx_random64(struct lx *p)
{
	uint64_t z = (p->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void lx_random_bytes(struct lx *p, uint8_t *b, uint64_t n)
{
	for (uint64_t i = 0; i < n; i += 8) {
		uint64_t r = lx_random64(p);
		memcpy(b + i, &r, n - i < 8 ? n - i : 8);
	}
}

static uint64_t push_bytes(struct lx *p, uint64_t *sp, const void *b, size_t n)
{
	*sp -= n;
	memcpy(p->mm->mem.base + *sp, b, n);
	return *sp;
}

int lx_stack_init(struct lx *p, const struct lx_image *img, int argc,
		  char **argv, char **envp, char *err, size_t errlen)
{
	struct hart *h = p->h;
	uint64_t bottom = LX_STACK_TOP(p) - LX_STACK_SIZE;
	if (gmem_map(&p->mm->mem, bottom, LX_STACK_SIZE, GP_R | GP_W)) {
		snprintf(err, errlen, "out of memory for the %llu MiB stack",
			 (unsigned long long)(LX_STACK_SIZE >> 20));
		return -1;
	}
	int envc = 0;
	size_t total = strlen(p->name) + 64;
	for (int i = 0; i < argc; i++)
		total += strlen(argv[i]) + 1 + 8;
	for (; envp && envp[envc]; envc++)
		total += strlen(envp[envc]) + 1 + 8;
	total += (size_t)img->phnum * img->phent;
	/* Linux refuses (E2BIG) argument strings beyond a quarter of the stack. */
	if (total > LX_STACK_SIZE / 4) {
		snprintf(err, errlen, "argument list too long");
		return -1;
	}

	uint64_t sp = LX_STACK_TOP(p) - 8;
	uint64_t execfn = push_bytes(p, &sp, p->name, strlen(p->name) + 1);
	uint64_t *envs = calloc((size_t)envc + 1, 8), *args = calloc((size_t)argc + 1, 8);
	if (!envs || !args) {
		free(envs);
		free(args);
		snprintf(err, errlen, "out of host memory");
		return -1;
	}
	for (int i = envc; i-- > 0;)
		envs[i] = push_bytes(p, &sp, envp[i], strlen(envp[i]) + 1);
	for (int i = argc; i-- > 0;)
		args[i] = push_bytes(p, &sp, argv[i], strlen(argv[i]) + 1);
	uint64_t platform = push_bytes(p, &sp, "riscv64", 8);
	uint8_t rnd[16];
	for (int i = 0; i < 16; i += 8) {
		uint64_t r = lx_random64(p);
		memcpy(rnd + i, &r, 8);
	}
	sp &= ~15ull;
	uint64_t random = push_bytes(p, &sp, rnd, 16);
	uint64_t phdr = img->phdr;
	if (!img->phdr_loaded) {
		/* The headers are not in any segment: give the program a copy,
		 * since static glibc finds its TLS segment through AT_PHDR. */
		phdr = push_bytes(p, &sp, img->phdr_bytes, img->phnum * img->phent);
		sp &= ~15ull;
	}

	uint64_t aux[][2] = {
		{ AT_PHDR, phdr }, { AT_PHENT, img->phent }, { AT_PHNUM, img->phnum },
		{ AT_PAGESZ, GPAGE_SIZE }, { AT_BASE, 0 }, { AT_FLAGS, 0 },
		{ AT_ENTRY, img->entry }, { AT_UID, getuid() }, { AT_EUID, geteuid() },
		{ AT_GID, getgid() }, { AT_EGID, getegid() }, { AT_HWCAP, LX_HWCAP },
		{ AT_HWCAP2, 0 }, { AT_CLKTCK, 100 }, { AT_PLATFORM, platform },
		{ AT_SECURE, 0 }, { AT_RANDOM, random }, { AT_EXECFN, execfn },
		{ AT_NULL, 0 },
	};
	size_t naux = sizeof(aux) / sizeof(aux[0]);
	_Static_assert(sizeof(aux) <= sizeof(p->mm->ex.auxv), "auxv fits lx_exec");
	memcpy(p->mm->ex.auxv, aux, sizeof(aux));
	p->mm->ex.auxv_bytes = sizeof(aux);
	/* the strings lie in order: argv's, envp's, then AT_EXECFN's */
	p->mm->ex.env_start = envc ? envs[0] : execfn;
	p->mm->ex.env_end = envc ? envs[envc - 1] + strlen(envp[envc - 1]) + 1 : execfn;
	p->mm->ex.arg_start = argc ? args[0] : p->mm->ex.env_start;
	p->mm->ex.arg_end = p->mm->ex.env_start;
	size_t words = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * naux;
	sp = (sp - words * 8) & ~15ull;   /* psABI: sp 16-byte aligned at entry */
	uint64_t *w = (uint64_t *)(p->mm->mem.base + sp);
	size_t k = 0;
	w[k++] = (uint64_t)argc;
	for (int i = 0; i < argc; i++)
		w[k++] = args[i];
	w[k++] = 0;
	for (int i = 0; i < envc; i++)
		w[k++] = envs[i];
	w[k++] = 0;
	for (size_t i = 0; i < naux; i++) {
		w[k++] = aux[i][0];
		w[k++] = aux[i][1];
	}
	free(envs);
	free(args);

	/* ELF psABI process start: registers zero except sp; a0 = 0 means no
	 * rtld_fini to register. */
	memset(h->x, 0, sizeof(h->x));
	memset(h->f, 0, sizeof(h->f));
	h->fflags = h->frm = 0;
	h->x[2] = sp;
	h->pc = img->entry;
	p->mm->ex.start_stack = sp;
	return 0;
}
