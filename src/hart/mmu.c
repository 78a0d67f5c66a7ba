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

unsigned mmu_data_priv(const struct hart *h)
{
	if (h->priv == PRIV_M && (h->csr.mstatus & MS_MPRV))
		return (unsigned)((h->csr.mstatus >> MS_MPP_SHIFT) & 3);
	return h->priv;
}

int mmu_fetch_on(const struct hart *h)
{
	return h->system && h->priv < PRIV_M && SATP_MODE(h->csr.satp) != SATP_BARE;
}

int mmu_data_on(const struct hart *h)
{
	return h->system && mmu_data_priv(h) < PRIV_M && SATP_MODE(h->csr.satp) != SATP_BARE;
}

void mmu_flush(struct hart *h)
{
	memset(h->tlb, 0, sizeof(h->tlb));
}

static int fault(enum mmu_access acc)
{
	return acc == MMU_FETCH ? CAUSE_FETCH_PAGE_FAULT :
	       acc == MMU_LOAD ? CAUSE_LOAD_PAGE_FAULT : CAUSE_STORE_PAGE_FAULT;
}

static int access_fault(enum mmu_access acc)
{
	return acc == MMU_FETCH ? CAUSE_FETCH_ACCESS :
	       acc == MMU_LOAD ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS;
}

/* May an access of this kind at priv use a leaf with these bits? */
static int permitted(const struct hart *h, uint64_t pte, enum mmu_access acc, unsigned priv)
{
	uint64_t ms = h->csr.mstatus;
	if (priv == PRIV_U && !(pte & PTE_U))
		return 0;
	if (priv == PRIV_S && (pte & PTE_U) && (acc == MMU_FETCH || !(ms & MS_SUM)))
		return 0;
	switch (acc) {
	case MMU_FETCH: return (pte & PTE_X) != 0;
	case MMU_LOAD: return (pte & PTE_R) || ((ms & MS_MXR) && (pte & PTE_X));
	case MMU_STORE: return (pte & PTE_W) != 0;
	}
	return 0;
}

unsigned hart_page_walk(void *ctx, uint64_t va, uint64_t *pte_pa, unsigned max)
{
	struct hart *h = ctx;
	if (!h->system || SATP_MODE(h->csr.satp) == SATP_BARE)
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

/* The walk (Privileged ISA, "Virtual Address Translation Process"). */
static int walk(struct hart *h, uint64_t va, enum mmu_access acc, unsigned priv,
		uint64_t *pa, uint64_t *leaf, int *level)
{
	unsigned levels = SATP_MODE(h->csr.satp) == SATP_SV48 ? 4 : 3;
	unsigned vabits = 12 + 9 * levels;
	/* bits above the VA width must copy its top bit */
	int64_t sx = (int64_t)(va << (64 - vabits)) >> (64 - vabits);
	if ((uint64_t)sx != va)
		return fault(acc);
	uint64_t table = SATP_PPN(h->csr.satp) << 12;
	for (int i = (int)levels - 1; i >= 0; i--) {
		uint64_t pte_addr = table + ((va >> (12 + 9 * i)) & 511) * 8, pte;
		/* the walk's own accesses are S-mode's for PMP */
		if (gmem_read(&h->mem, pte_addr, &pte, 8) ||
		    pmp_check(h, pte_addr, 8, MMU_LOAD, PRIV_S))
			return access_fault(acc);
		if (!(pte & PTE_V) || (!(pte & PTE_R) && (pte & PTE_W)) || (pte & PTE_RESERVED))
			return fault(acc);
		if (!(pte & (PTE_R | PTE_X))) {  /* pointer to the next level */
			if (i == 0 || (pte & (PTE_A | PTE_D | PTE_U)))
				return fault(acc);
			table = PTE_PPN(pte) << 12;
			continue;
		}
		if (!permitted(h, pte, acc, priv))
			return fault(acc);
		uint64_t ppn = PTE_PPN(pte), span = (1ull << (9 * i)) - 1;
		if (ppn & span)  /* misaligned superpage */
			return fault(acc);
		/* hardware A/D updating */
		uint64_t want = PTE_A | (acc == MMU_STORE ? PTE_D : 0);
		if ((pte & want) != want) {
			pte |= want;
			if (pmp_check(h, pte_addr, 8, MMU_STORE, PRIV_S) ||
			    gmem_write(&h->mem, pte_addr, &pte, 8))
				return access_fault(acc);
			hart_code_written(h, pte_addr, 8);
		}
		*pa = ((ppn | ((va >> 12) & span)) << 12) | (va & 0xfff);
		*leaf = pte;
		*level = i;
		return 0;
	}
	return fault(acc);
}

int mmu_translate(struct hart *h, uint64_t *addr, enum mmu_access acc, unsigned priv)
{
	uint64_t va = *addr, vpn = va >> 12;
	struct hart_tlb *t = &h->tlb[vpn % HART_TLB_SIZE];
	/* a cached 4 KiB translation, if its bits allow this access */
	if (t->valid && t->vpn == vpn && t->priv == priv && t->mstatus == (h->csr.mstatus & (MS_SUM | MS_MXR)) &&
	    (acc != MMU_STORE || (t->pte & PTE_D)) && permitted(h, t->pte, acc, priv)) {
		*addr = (t->ppn << 12) | (va & 0xfff);
		return 0;
	}
	uint64_t pa, pte;
	int level;
	int c = walk(h, va, acc, priv, &pa, &pte, &level);
	if (c)
		return c;
	t->valid = 1;
	t->vpn = vpn;
	t->ppn = pa >> 12;
	t->pte = pte;
	t->priv = (uint8_t)priv;
	t->mstatus = h->csr.mstatus & (MS_SUM | MS_MXR);
	*addr = pa;
	return 0;
}

/* Firmware emulation (the built-in SBI's misaligned accesses): n bytes
 * one at a time, each translated, PMP-checked and done as an access of
 * privilege priv would be. */
int hart_vaccess(struct hart *h, uint64_t va, void *buf, unsigned n, enum hart_vkind kind,
		 unsigned priv, uint64_t *bad)
{
	enum mmu_access acc = kind == HART_V_FETCH ? MMU_FETCH : kind == HART_V_STORE ? MMU_STORE : MMU_LOAD;
	uint8_t *b = buf;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = va + i, pa = a, v = b[i];
		int on = acc == MMU_FETCH ? mmu_fetch_on(h) : mmu_data_on(h);
		int c = on && priv < PRIV_M ? mmu_translate(h, &pa, acc, priv) : 0;
		if (!c && h->system && pmp_check(h, pa, 1, acc, priv))
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
