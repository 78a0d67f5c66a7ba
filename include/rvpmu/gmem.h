/* User-mode guest memory: one flat host reservation covering the whole
 * guest virtual address space, plus one permission byte per 4 KiB page.
 * Guest address a lives at host address base + a. The fast path is one
 * bounds compare and one permission-byte test per access. */
#ifndef RVPMU_GMEM_H
#define RVPMU_GMEM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GPAGE_SHIFT 12
#define GPAGE_SIZE  (1ull << GPAGE_SHIFT)
/* The space is the Sv39 user half (256 GiB) when the host grants that
 * reservation, else smaller (valgrind allows 32 GiB): see gmem.size. */
#define GMEM_SPACE_MAX (1ull << 38)
/* The most gmem_init tries to reserve (GMEM_SPACE_MAX; at least 4 GiB):
 * the system-mode fuzzer asks for less, which its sanitizer sets up and
 * tears down far faster at each run. */
extern uint64_t gmem_space;

enum {
	GP_R = 1, GP_W = 2, GP_X = 4,
	GP_CODE = 8,   /* decoded instructions are cached for this page */
	GP_ABSENT = 0x80,  /* in absent[]: mapped, not touched yet */
};

/* What is mapped, one record per address space: every copy of its
 * struct gmem (each hart that runs it holds one) points at the same. */
struct gmem_acct {
	uint64_t max_bytes; /* cap on mapped bytes (--max-mem), 0 = none */
	uint64_t mapped;    /* bytes currently mapped */
	bool hit_max;       /* a map was refused for max_bytes */
	bool demand;        /* map pages absent (demand paging) */
	bool in_kernel;     /* the kernel is touching memory for the program */
	uint64_t faults[2]; /* first touches: [0] the program's, [1] the kernel's */
};

/* Demand paging (user mode, as Linux's): with acct->demand set, a page
 * mapped is absent until its first touch; its pflags grant nothing, so
 * every fast path refuses it and the slow paths (gmem_check and the
 * fetch path's gmem_touch) make it present with the R/W/X kept in
 * absent[], counting one fault. The touch is no trap: the program's
 * counts are those of a run without demand paging. */
struct gmem {
	uint8_t *base;      /* host address of guest address 0 */
	uint8_t *pflags;    /* size >> GPAGE_SHIFT permission bytes */
	uint8_t *absent;    /* per page: 0 present, else GP_ABSENT | R/W/X */
	uint64_t size;      /* guest addresses are [0, size) */
	struct gmem_acct *acct;
};

/* Memory this host lets rvpmu use: physical RAM, or the cgroup v2 limit
 * of the container it runs in when that is smaller; 0 if unknown. */
uint64_t gmem_host_bytes(void);

int gmem_init(struct gmem *m);
void gmem_free(struct gmem *m);
/* Make [addr, addr+len) accessible with GP_R/W/X bits (page aligned).
 * Newly mapped memory reads as zero. Returns 0 or -ENOMEM. */
int gmem_map(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot);
void gmem_unmap(struct gmem *m, uint64_t addr, uint64_t len);
/* Back [addr, addr+len) (page aligned) by the host file fd from offset
 * off, MAP_SHARED or MAP_PRIVATE, so guest accesses, other mappings and
 * the file's reads and writes all see the same page cache. The host
 * mapping is writable only when writable (a shared mapping of a file
 * opened read-only is not); the guest's own permission is prot. Pages
 * the host maps past the file's end fault on the host: the caller maps
 * only pages that hold file data. 0 or -errno (the host mmap's). */
int gmem_map_file(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot,
		  int fd, uint64_t off, bool shared, bool writable);
/* Put anonymous reserved memory back under [addr, addr+len) after
 * gmem_map_file (the guest permissions stay as they are). 0 or -errno. */
int gmem_unfile(struct gmem *m, uint64_t addr, uint64_t len);
/* Change protection of mapped pages; -ENOMEM if any page is unmapped. */
int gmem_protect(struct gmem *m, uint64_t addr, uint64_t len, unsigned prot);
/* True when every page of [addr, addr+len) has all bits of need (an
 * absent page that would have them is made present: a fault). */
bool gmem_check(struct gmem *m, uint64_t addr, uint64_t len, unsigned need);
/* The absent page holding addr, if it grants need, made present (one
 * fault): true. False for any other page. */
bool gmem_touch(struct gmem *m, uint64_t addr, unsigned need);
/* Make the absent pages of [addr, addr+len) present without a fault (the
 * pages exec writes, as Linux's exec does before the program runs). */
void gmem_present(struct gmem *m, uint64_t addr, uint64_t len);
/* The R/W/X bits of the page holding addr, present or not. */
static inline unsigned gmem_prot(const struct gmem *m, uint64_t addr)
{
	return (m->pflags[addr >> GPAGE_SHIFT] | m->absent[addr >> GPAGE_SHIFT]) & 7;
}
/* Find a free, page-aligned range of len bytes at or below hint. 0 = none. */
uint64_t gmem_find_free(const struct gmem *m, uint64_t len, uint64_t top);
/* Copies with permission checks: 0 or -EFAULT. Host writes to code pages
 * must go through gmem_write so decoded instructions are invalidated by
 * the caller (see hart_invalidate_code). */
int gmem_read(struct gmem *m, uint64_t addr, void *buf, uint64_t len);
int gmem_write(struct gmem *m, uint64_t addr, const void *buf, uint64_t len);
/* Host pointer to [addr, addr+len) when accessible with need, else NULL. */
void *gmem_ptr(struct gmem *m, uint64_t addr, uint64_t len, unsigned need);
/* Length of the NUL-terminated guest string at addr (-EFAULT if it is not
 * readable within max bytes). */
long gmem_strlen(struct gmem *m, uint64_t addr, uint64_t max);

static inline bool gmem_fast_ok(const struct gmem *m, uint64_t addr, unsigned size, unsigned need)
{
	/* aligned, inside the space, and the page has the permission */
	return !(addr & (size - 1)) && addr < m->size &&
	       (m->pflags[addr >> GPAGE_SHIFT] & need);
}

#endif
