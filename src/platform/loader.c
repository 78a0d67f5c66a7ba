/* Bare-metal images: an ELF's PT_LOAD segments at their physical
 * addresses, or a raw binary at the start of RAM. Everything must land in
 * RAM; anything else is a clear error. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rvpmu/machine.h"

static int in_ram(const struct machine *m, uint64_t addr, uint64_t len)
{
	uint64_t end = VIRT_DRAM_BASE + (m->o.ram_mb << 20);
	return addr >= VIRT_DRAM_BASE && addr <= end && len <= end - addr;
}

static int load_elf(struct machine *m, const char *path, const uint8_t *buf, size_t n,
		    uint64_t *entry, char *err, size_t errlen)
{
	int rc = -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_memory((char *)buf, n);
	GElf_Ehdr eh;
	size_t phnum;
	if (!e || !gelf_getehdr(e, &eh) || elf_getphdrnum(e, &phnum)) {
		snprintf(err, errlen, "%s: malformed ELF file", path);
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_RISCV) {
		snprintf(err, errlen, "%s: not a 64-bit RISC-V ELF file", path);
		goto out;
	}
	int loaded = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph)) {
			snprintf(err, errlen, "%s: malformed program header %zu", path, i);
			goto out;
		}
		if (ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_offset > n || ph.p_filesz > n - ph.p_offset) {
			snprintf(err, errlen, "%s: segment %zu lies outside the file", path, i);
			goto out;
		}
		if (!in_ram(m, ph.p_paddr, ph.p_memsz)) {
			snprintf(err, errlen, "%s: segment %zu at 0x%llx is outside RAM (0x%llx, %llu MiB)",
				 path, i, (unsigned long long)ph.p_paddr,
				 (unsigned long long)VIRT_DRAM_BASE, (unsigned long long)m->o.ram_mb);
			goto out;
		}
		uint8_t *dst = m->hart[0].mem.base + ph.p_paddr;
		memcpy(dst, buf + ph.p_offset, ph.p_filesz);
		memset(dst + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
		loaded = 1;
	}
	if (!loaded) {
		snprintf(err, errlen, "%s: no loadable segment", path);
		goto out;
	}
	*entry = eh.e_entry;
	rc = 0;
out:
	if (e)
		elf_end(e);
	return rc;
}

int load_image(struct machine *m, const char *path, uint64_t base, uint64_t *entry,
	       char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	size_t n = (size_t)st.st_size;
	uint8_t *buf = malloc(n ? n : 1);
	size_t got = 0;
	while (buf && got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (!buf || got != n) {
		snprintf(err, errlen, "%s: cannot read file", path);
		free(buf);
		return -1;
	}
	int rc;
	if (n >= 4 && !memcmp(buf, ELFMAG, 4)) {
		rc = load_elf(m, path, buf, n, entry, err, errlen);
	} else if (!n) {
		snprintf(err, errlen, "%s: empty file", path);
		rc = -1;
	} else if (!in_ram(m, base, n)) {
		snprintf(err, errlen, "%s: raw image of %zu bytes does not fit in RAM", path, n);
		rc = -1;
	} else {
		memcpy(m->hart[0].mem.base + base, buf, n);
		*entry = base;
		rc = 0;
	}
	free(buf);
	return rc;
}

/* The initramfs goes high in RAM, below the device tree, as QEMU puts it;
 * the device tree's chosen node tells the kernel where. */
int load_initrd(struct machine *m, char *err, size_t errlen)
{
	FILE *f = fopen(m->o.initrd, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", m->o.initrd, strerror(errno));
		return -1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	uint64_t top = VIRT_DRAM_BASE + (m->o.ram_mb << 20) - (2u << 20);  /* dtb above */
	uint64_t start = n > 0 ? ((top - (uint64_t)n) & ~0xfffull) : 0;
	if (n <= 0 || start < VIRT_KERNEL_BASE + (64u << 20)) {
		fclose(f);
		snprintf(err, errlen, "%s: %s", m->o.initrd,
			 n < 0 ? "cannot read file" : !n ? "empty file" : "does not fit in RAM above the kernel");
		return -1;
	}
	size_t got = fread(m->hart[0].mem.base + start, 1, (size_t)n, f);
	fclose(f);
	if (got != (size_t)n) {
		snprintf(err, errlen, "%s: cannot read", m->o.initrd);
		return -1;
	}
	m->initrd_start = start;
	m->initrd_end = start + (uint64_t)n;
	return 0;
}

/* OpenSBI's fw_dynamic boot protocol: a2 points at struct fw_dynamic_info
 * (six xlen fields). It goes in the boot ROM, as QEMU puts it after its
 * reset vector: the firmware reads it during its own initialisation, and
 * in ROM nothing it relocates, clears or uses as heap can overwrite it. */
#define FW_DYNAMIC_MAGIC   0x4942534full   /* "OSBI" */
#define FW_DYNAMIC_VERSION 2               /* has boot_hart */
#define FW_DYNAMIC_NEXT_S  1

uint64_t fw_dynamic_info(struct machine *m, uint64_t next_addr)
{
	const uint64_t info[6] = {
		FW_DYNAMIC_MAGIC, FW_DYNAMIC_VERSION, next_addr, FW_DYNAMIC_NEXT_S,
		0,      /* options */
		0,      /* boot_hart */
	};
	memcpy(m->hart[0].mem.base + VIRT_MROM_BASE, info, sizeof(info));
	return VIRT_MROM_BASE;
}
