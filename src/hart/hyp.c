/* The hypervisor extension's instructions (Privileged ISA, "Hypervisor
 * Extension": "Hypervisor Virtual-Machine Load and Store Instructions",
 * "Hypervisor Memory-Management Fence Instructions"). Traps, xRETs and
 * the VS CSRs are trap.c's and hyp_csr.c's; two-stage translation is
 * mmu.c's. */
#include "csr.h"
#include "hyp.h"
#include "mmu.h"

#define MS_TVM  (1ull << 20)
#define HS_SPVP (1ull << 8)
#define HS_HU   (1ull << 9)

/* HLV/HLVX/HSV: an access as VS or VU (hstatus.SPVP) would make it, V=1,
 * two-stage translated. Allowed in M and HS, and in U with hstatus.HU;
 * with V=1 a virtual instruction. */
static int hyp_access(struct hart *h, const struct dinsn *d, uint64_t *x)
{
	static const struct { uint8_t size, sign; enum hart_vkind kind; } op[] = {
		[INSN_HLV_B - INSN_HLV_B] = {1, 1, HART_V_LOAD},
		[INSN_HLV_BU - INSN_HLV_B] = {1, 0, HART_V_LOAD},
		[INSN_HLV_H - INSN_HLV_B] = {2, 1, HART_V_LOAD},
		[INSN_HLV_HU - INSN_HLV_B] = {2, 0, HART_V_LOAD},
		[INSN_HLVX_HU - INSN_HLV_B] = {2, 0, HART_V_LOADX},
		[INSN_HLV_W - INSN_HLV_B] = {4, 1, HART_V_LOAD},
		[INSN_HLV_WU - INSN_HLV_B] = {4, 0, HART_V_LOAD},
		[INSN_HLVX_WU - INSN_HLV_B] = {4, 0, HART_V_LOADX},
		[INSN_HLV_D - INSN_HLV_B] = {8, 1, HART_V_LOAD},
		[INSN_HSV_B - INSN_HLV_B] = {1, 0, HART_V_STORE},
		[INSN_HSV_H - INSN_HLV_B] = {2, 0, HART_V_STORE},
		[INSN_HSV_W - INSN_HLV_B] = {4, 0, HART_V_STORE},
		[INSN_HSV_D - INSN_HLV_B] = {8, 0, HART_V_STORE},
	};
	unsigned k = d->id - INSN_HLV_B, n = op[k].size;
	uint64_t va = x[d->rs1], v = op[k].kind == HART_V_STORE ? x[d->rs2] : 0, bad = va;
	unsigned mode = ((h->csr.hstatus & HS_SPVP) ? PRIV_S : PRIV_U) | MODE_V;
	int c;
	if (h->misaligned_trap && (va & (n - 1)))
		c = op[k].kind == HART_V_STORE ? CAUSE_MISALIGNED_STORE : CAUSE_MISALIGNED_LOAD;
	else
		c = hart_vaccess(h, va, &v, n, op[k].kind, mode, &bad);
	if (c) {
		h->cause = (uint64_t)c;
		h->tval = bad;
		h->tval_gva = 1;   /* a guest virtual address */
		return HART_TRAPPED;
	}
	if (op[k].kind != HART_V_STORE) {
		if (op[k].sign && n < 8)
			v = (uint64_t)((int64_t)(v << (64 - 8 * n)) >> (64 - 8 * n));
		x[d->rd] = v;
	}
	return 0;
}

int hyp_insn(struct hart *h, const struct dinsn *d, uint64_t *x)
{
	if (!h->has_h || !h->system)
		return -1;
	if (h->virt)
		return HART_VIRTUAL_INSN;
	if (d->id == INSN_HFENCE_VVMA || d->id == INSN_HFENCE_GVMA) {
		/* HS and M only; HFENCE.GVMA is illegal in HS under mstatus.TVM */
		if (h->priv == PRIV_U ||
		    (d->id == INSN_HFENCE_GVMA && h->priv == PRIV_S && (h->csr.mstatus & MS_TVM)))
			return -1;
		/* the soft TLB holds every translation with its V in the key:
		 * both drop it all, as SFENCE.VMA does */
		hart_sfence_vma(h);
	} else {
		if (h->priv == PRIV_U && !(h->csr.hstatus & HS_HU))
			return -1;
		int r = hyp_access(h, d, x);
		if (r)
			return r;
	}
	h->pc += d->len;
	return 0;
}
