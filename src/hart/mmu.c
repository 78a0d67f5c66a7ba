/* Sv39 and Sv48 page-table walks with a small software TLB. */
#include <string.h>
#include "mmu.h"
#include "pmp.h"

#define SATP_MODE(s) ((s) >> 60)
#define SATP_PPN(s)  ((s) & ((1ull << 44) - 1))
enum { SATP_BARE = 0, SATP_SV39 = 8, SATP_SV48 = 9 };

#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_U (1u << 4)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)
#define PTE_PPN(p) (((p) >> 10) & ((1ull << 44) - 1))
#define PTE_RESERVED (~0ull << 54)   /* N, PBMT, reserved: no Svnapot/Svpbmt */

#define MS_MPRV (1ull << 17)
#define MS_SUM  (1ull << 18)
#define MS_MXR  (1ull << 19)
#define MS_MPP_SHIFT 11
#define MS_MPV  (1ull << 39)

/* hgatp's modes: Sv39x4 and Sv48x4 share satp's numbers (8, 9) */
#define HGATP_PPN(s) (SATP_PPN(s) & ~3ull)   /* 16 KiB aligned root */

/* htinst for a guest-page fault on an implicit access of the VS-stage
 * walk (Hypervisor "Transformed Instruction or Pseudoinstruction for
 * mtinst or htinst"): the 64-bit read or write pseudoinstructions, as
 * Spike writes them; explicit accesses leave 0, as QEMU 7.2 does. */
#define TINST_PTE_READ  0x00003000ull
#define TINST_PTE_WRITE 0x00003020ull

unsigned mmu_data_priv(const struct hart *h)
{
	if (h->priv == PRIV_M && (h->csr.mstatus & MS_MPRV))
		return (unsigned)((h->csr.mstatus >> MS_MPP_SHIFT) & 3);
	return h->priv;
}

unsigned mmu_data_mode(const struct hart *h)
{
	unsigned p = mmu_data_priv(h);
	if (h->priv == PRIV_M && (h->csr.mstatus & MS_MPRV))   /* MPV: as V=1 */
		return p | (p != PRIV_M && (h->csr.mstatus & MS_MPV) ? MODE_V : 0);
	return hart_mode(h);
}

/* Is translation on for an access in mode (priv | V << 2)? */
static int xlate_on(const struct hart *h, unsigned mode)
{
	if (!h->system || (mode & 3) == PRIV_M)
		return 0;
	if (mode & MODE_V)
		return SATP_MODE(h->csr.vsatp) != SATP_BARE || SATP_MODE(h->csr.hgatp) != SATP_BARE;
	return SATP_MODE(h->csr.satp) != SATP_BARE;
}

int mmu_fetch_on(const struct hart *h)
{
	return xlate_on(h, hart_mode(h));
}

int mmu_data_on(const struct hart *h)
{
	return xlate_on(h, mmu_data_mode(h));
}

void mmu_flush(struct hart *h)
{
	memset(h->tlb, 0, sizeof(h->tlb));
}

static int fault(enum mmu_access acc)
{
	return acc == MMU_FETCH ? CAUSE_FETCH_PAGE_FAULT :
	       acc == MMU_STORE ? CAUSE_STORE_PAGE_FAULT : CAUSE_LOAD_PAGE_FAULT;
}

static int guest_fault(enum mmu_access acc)
{
	return acc == MMU_FETCH ? CAUSE_FETCH_GUEST_PAGE_FAULT :
	       acc == MMU_STORE ? CAUSE_STORE_GUEST_PAGE_FAULT : CAUSE_LOAD_GUEST_PAGE_FAULT;
}

static int access_fault(enum mmu_access acc)
{
	return acc == MMU_FETCH ? CAUSE_FETCH_ACCESS :
	       acc == MMU_STORE ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS;
}

/* May an access of this kind at priv use a leaf with these bits, given
 * the SUM and MXR bits in status? */
static int permitted(uint64_t pte, enum mmu_access acc, unsigned priv, uint64_t status)
{
	if (priv == PRIV_U && !(pte & PTE_U))
		return 0;
	if (priv == PRIV_S && (pte & PTE_U) && (acc == MMU_FETCH || !(status & MS_SUM)))
		return 0;
	switch (acc) {
	case MMU_FETCH: case MMU_HLVX: return (pte & PTE_X) != 0;
	case MMU_LOAD: return (pte & PTE_R) || ((status & MS_MXR) && (pte & PTE_X));
	case MMU_STORE: return (pte & PTE_W) != 0;
	}
	return 0;
}

/* The accesses (1 << enum mmu_access) a leaf allows with no A/D update:
 * what a TLB entry may serve. */
static unsigned leaf_perm(uint64_t pte, unsigned priv, uint64_t status)
{
	unsigned p = 0;
	for (unsigned a = MMU_LOAD; a <= MMU_FETCH; a++)
		if (permitted(pte, (enum mmu_access)a, priv, status))
			p |= 1u << a;
	return (pte & PTE_D) ? p : p & ~(1u << MMU_STORE);
}

unsigned hart_page_walk(void *ctx, uint64_t va, uint64_t *pte_pa, unsigned max)
{
	struct hart *h = ctx;
	/* V=1: the two-stage walk is not modelled for the models' TLBs */
	if (!h->system || h->virt || SATP_MODE(h->csr.satp) == SATP_BARE)
		return 0;
	unsigned levels = SATP_MODE(h->csr.satp) == SATP_SV48 ? 4 : 3, n = 0;
	uint64_t table = SATP_PPN(h->csr.satp) << 12;
	for (int i = (int)levels - 1; i >= 0 && n < max; i--) {
		uint64_t a = table + ((va >> (12 + 9 * i)) & 511) * 8, pte;
		pte_pa[n++] = a;
		if (gmem_read(&h->mem, a, &pte, 8) || !(pte & PTE_V) || (pte & (PTE_R | PTE_X)))
			break;  /* a leaf, or where a faulting walk stops */
		table = PTE_PPN(pte) << 12;
	}
	return n;
}

/* The stage a walk translates: the single stage under satp, or with V=1
 * the VS-stage (vsatp; its page tables sit at guest-physical addresses)
 * and the G-stage (hgatp; guest-physical to physical). */
enum stage { ST_SINGLE, ST_VS, ST_G };

static int gstage(struct hart *h, uint64_t *addr, enum mmu_access acc, enum mmu_access orig,
		  uint64_t tinst, unsigned *perm);

/* A PTE's guest-physical address to a physical one for the VS-stage walk:
 * an implicit read, or write (A/D update), through the G-stage, whose
 * fault is a guest-page fault of the original access (Hypervisor
 * "Guest-Page Faults"). */
static int pte_address(struct hart *h, enum stage st, uint64_t *a, int write, enum mmu_access orig)
{
	if (st != ST_VS)
		return 0;
	unsigned perm;
	return gstage(h, a, write ? MMU_STORE : MMU_LOAD, orig,
		      write ? TINST_PTE_WRITE : TINST_PTE_READ, &perm);
}

/* One stage's walk (Privileged ISA, "Virtual Address Translation
 * Process"; Hypervisor "Two-Stage Address Translation"). Returns 0 with
 * *pa and *leaf set, -1 for a page fault of this stage (the caller names
 * it), or a cause: an access fault, or a guest-page fault of the
 * VS-stage walk's own accesses. acc decides the permissions, orig names
 * the faults. */
static int walk(struct hart *h, enum stage st, uint64_t va, enum mmu_access acc,
		enum mmu_access orig, unsigned priv, uint64_t status, uint64_t *pa, uint64_t *leaf)
{
	uint64_t atp = st == ST_SINGLE ? h->csr.satp : st == ST_VS ? h->csr.vsatp : h->csr.hgatp;
	unsigned levels = SATP_MODE(atp) == SATP_SV48 ? 4 : 3;
	/* the G-stage root table has 2048 entries: 2 more address bits */
	unsigned extra = st == ST_G ? 2 : 0, vabits = 12 + 9 * levels + extra;
	uint64_t table = (st == ST_G ? HGATP_PPN(atp) : SATP_PPN(atp)) << 12;
	if (st == ST_G) {
		if (va >> vabits)  /* guest-physical bits above the width must be 0 */
			return -1;
	} else {
		/* bits above the VA width must copy its top bit */
		int64_t sx = (int64_t)(va << (64 - vabits)) >> (64 - vabits);
		if ((uint64_t)sx != va)
			return -1;
	}
	for (int i = (int)levels - 1; i >= 0; i--) {
		unsigned bits = 9 + (i == (int)levels - 1 ? extra : 0);
		uint64_t pte_addr = table + ((va >> (12 + 9 * i)) & ((1ull << bits) - 1)) * 8, pte;
		int c = pte_address(h, st, &pte_addr, 0, orig);
		if (c)
			return c;
		/* the walk's own accesses are S-mode's for PMP */
		if (gmem_read(&h->mem, pte_addr, &pte, 8) ||
		    pmp_check(h, pte_addr, 8, MMU_LOAD, PRIV_S))
			return access_fault(orig);
		if (!(pte & PTE_V) || (!(pte & PTE_R) && (pte & PTE_W)) || (pte & PTE_RESERVED))
			return -1;
		if (!(pte & (PTE_R | PTE_X))) {  /* pointer to the next level */
			if (i == 0 || (pte & (PTE_A | PTE_D | PTE_U)))
				return -1;
			table = PTE_PPN(pte) << 12;
			continue;
		}
		/* G-stage leaves are U-mode's: a leaf without U faults */
		if (!permitted(pte, acc, priv, status))
			return -1;
		uint64_t ppn = PTE_PPN(pte), span = (1ull << (9 * i)) - 1;
		if (ppn & span)  /* misaligned superpage */
			return -1;
		/* hardware A/D updating; the VS-stage's write goes through the
		 * G-stage as a store (re-translated: the read may have been
		 * through a read-only G-stage page) */
		uint64_t want = PTE_A | (acc == MMU_STORE ? PTE_D : 0);
		if ((pte & want) != want) {
			uint64_t wa = table + ((va >> (12 + 9 * i)) & ((1ull << bits) - 1)) * 8;
			if ((c = pte_address(h, st, &wa, 1, orig)))
				return c;
			pte |= want;
			if (pmp_check(h, wa, 8, MMU_STORE, PRIV_S) ||
			    gmem_write(&h->mem, wa, &pte, 8))
				return access_fault(orig);
			hart_code_written(h, wa, 8);
		}
		*pa = ((ppn | ((va >> 12) & span)) << 12) | (va & 0xfff);
		*leaf = pte;
		return 0;
	}
	return -1;
}

/* The G-stage: guest-physical *addr to physical, for an access acc (the
 * guest's own access, or an implicit one of the VS-stage walk), faulting
 * as a guest-page fault of orig with htval/mtval2 = GPA >> 2 and the
 * given htinst. *perm: what the G-stage leaf allows (TLB). */
static int gstage(struct hart *h, uint64_t *addr, enum mmu_access acc, enum mmu_access orig,
		  uint64_t tinst, unsigned *perm)
{
	*perm = 7;
	if (SATP_MODE(h->csr.hgatp) == SATP_BARE)
		return 0;
	uint64_t gpa = *addr, pa, leaf;
	/* G-stage accesses are U-mode's; only mstatus.MXR (HS's) applies */
	int c = walk(h, ST_G, gpa, acc, orig, PRIV_U, h->csr.mstatus & MS_MXR, &pa, &leaf);
	if (c) {
		if (c != -1)
			return c;
		h->tval2 = gpa >> 2;
		h->tinst = tinst;
		return guest_fault(orig);
	}
	*perm = leaf_perm(leaf, PRIV_U, h->csr.mstatus & MS_MXR);
	*addr = pa;
	return 0;
}

/* The VS-stage's SUM and MXR: vsstatus's, with HS's mstatus.MXR too. */
static uint64_t vs_status(const struct hart *h)
{
	return (h->csr.vsstatus & (MS_SUM | MS_MXR)) | (h->csr.mstatus & MS_MXR);
}

/* Two-stage translation of guest virtual address va (V=1). */
static int translate_v(struct hart *h, uint64_t va, enum mmu_access acc, unsigned priv,
		       uint64_t *pa, unsigned *perm)
{
	uint64_t gpa = va, leaf;
	unsigned vperm = 7, gperm;
	if (SATP_MODE(h->csr.vsatp) != SATP_BARE) {
		int c = walk(h, ST_VS, va, acc, acc, priv, vs_status(h), &gpa, &leaf);
		if (c)
			return c == -1 ? fault(acc) : c;
		vperm = leaf_perm(leaf, priv, vs_status(h));
	}
	int c = gstage(h, &gpa, acc, acc, 0, &gperm);
	if (c)
		return c;
	*pa = gpa;
	*perm = vperm & gperm;
	return 0;
}

/* The TLB key: the mode and the status bits permissions depend on. */
uint64_t mmu_tlb_key(const struct hart *h, unsigned mode)
{
	uint64_t k = mode | (h->csr.mstatus & (MS_SUM | MS_MXR));
	return mode & MODE_V ? k | (h->csr.vsstatus & (MS_SUM | MS_MXR)) >> 15 : k;
}

int mmu_translate(struct hart *h, uint64_t *addr, enum mmu_access acc, unsigned mode)
{
	uint64_t va = *addr, vpn = va >> 12, key = mmu_tlb_key(h, mode);
	struct hart_tlb *t = &h->tlb[vpn % HART_TLB_SIZE];
	/* a cached 4 KiB translation, if it allows this access */
	if (t->valid && t->vpn == vpn && t->key == key && ((t->perm >> acc) & 1)) {
		*addr = (t->ppn << 12) | (va & 0xfff);
		return 0;
	}
	unsigned priv = mode & 3, perm;
	uint64_t pa, pte;
	int c;
	if (mode & MODE_V) {
		c = translate_v(h, va, acc, priv, &pa, &perm);
		if (c)
			h->tval_gva = 1;   /* tval is a guest virtual address */
	} else {
		c = walk(h, ST_SINGLE, va, acc, acc, priv, h->csr.mstatus, &pa, &pte);
		if (c == -1)
			c = fault(acc);
		else if (!c)
			perm = leaf_perm(pte, priv, h->csr.mstatus);
	}
	if (c)
		return c;
	if (acc != MMU_HLVX) {  /* HLVX's reading of executable pages is its own */
		t->valid = 1;
		t->vpn = vpn;
		t->ppn = pa >> 12;
		t->key = key;
		t->perm = (uint8_t)perm;
	}
	*addr = pa;
	return 0;
}

/* Firmware emulation (the built-in SBI's misaligned accesses): n bytes
 * one at a time, each translated, PMP-checked and done as an access of
 * privilege priv would be. */
int hart_vaccess(struct hart *h, uint64_t va, void *buf, unsigned n, enum hart_vkind kind,
		 unsigned priv, uint64_t *bad)
{
	enum mmu_access acc = kind == HART_V_FETCH ? MMU_FETCH : kind == HART_V_STORE ? MMU_STORE :
			      kind == HART_V_LOADX ? MMU_HLVX : MMU_LOAD;
	enum mmu_access pacc = acc == MMU_HLVX ? MMU_LOAD : acc;   /* for PMP and faults */
	uint8_t *b = buf;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = va + i, pa = a, v = b[i];
		int c = xlate_on(h, priv) ? mmu_translate(h, &pa, acc, priv) : 0;
		if (!c && h->system && pmp_check(h, pa, 1, pacc, priv & 3))
			c = access_fault(acc);
		if (!c) {
			int r = acc == MMU_STORE ? gmem_write(&h->mem, pa, &v, 1) : gmem_read(&h->mem, pa, &v, 1);
			if (r && !(acc != MMU_FETCH && h->mmio && !h->mmio(h->mmio_ctx, pa, 1, &v, acc == MMU_STORE)))
				c = access_fault(acc);
			else if (acc == MMU_STORE)
				hart_code_written(h, pa, 1);
		}
		if (c) {
			*bad = a;
			return c;
		}
		if (acc != MMU_STORE)
			b[i] = (uint8_t)v;
	}
	return 0;
}
