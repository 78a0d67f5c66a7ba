/* The hypervisor extension's CSRs (Privileged ISA, "Hypervisor Extension":
 * hstatus, hie/hip/hvip, the VS CSRs) and the rule by which VS-mode
 * reaches the vs* registers through the supervisor CSR numbers. The plain
 * ones (hedeleg, htval, vsepc, ...) are rows of csr.c's table, whose
 * satp hook serves vsatp and hgatp. GEILEN is 0
 * (no IMSIC): hgeie, hgeip and hstatus.VGEIN are read-only zero. */
#include "csr.h"

#define HS_GVA  (1ull << 6)
#define HS_SPV  (1ull << 7)
#define HS_SPVP (1ull << 8)
#define HS_HU   (1ull << 9)
#define HS_VTVM (1ull << 20)
#define HS_VTW  (1ull << 21)
#define HS_VTSR (1ull << 22)
#define HS_VSXL (2ull << 32)   /* VSXL = 64, read-only */
/* VSBE is 0 (little-endian only), VGEIN 0 (GEILEN = 0) */
#define HSTATUS_W (HS_GVA | HS_SPV | HS_SPVP | HS_HU | HS_VTVM | HS_VTW | HS_VTSR)

#define MS_SIE  (1ull << 1)
#define MS_SPIE (1ull << 5)
#define MS_SPP  (1ull << 8)
#define MS_FS   (3ull << 13)
#define MS_SUM  (1ull << 18)
#define MS_MXR  (1ull << 19)
#define MS_UXL  (2ull << 32)   /* UXL = 64, read-only */
#define MS_SD   (1ull << 63)
#define VSSTATUS_W (MS_SIE | MS_SPIE | MS_SPP | MS_FS | MS_SUM | MS_MXR)
#define SGEIP   (1ull << 12)

int pred_h(const struct hart *h, unsigned csr)
{
	(void)csr;
	return h->has_h;
}

int rd_hstatus(struct hart *h, unsigned csr, uint64_t *v)
{
	(void)csr;
	*v = h->csr.hstatus | HS_VSXL;
	return 0;
}

int wr_hstatus(struct hart *h, unsigned csr, uint64_t v)
{
	(void)csr;
	h->csr.hstatus = v & HSTATUS_W;
	return 0;
}

int rd_vsstatus(struct hart *h, unsigned csr, uint64_t *v)
{
	(void)csr;
	uint64_t s = h->csr.vsstatus | MS_UXL;
	*v = (s & MS_FS) == MS_FS ? s | MS_SD : s;
	return 0;
}

int wr_vsstatus(struct hart *h, unsigned csr, uint64_t v)
{
	(void)csr;
	h->csr.vsstatus = v & VSSTATUS_W;
	hart_update_mstatus(h, h->csr.mstatus);  /* FP gating with V=1 */
	return 0;
}

/* hie (0x604) and hip (0x644): the VS bits and SGEI (0 with GEILEN = 0)
 * of mie and mip */
int rd_hie(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = (csr == 0x604 ? h->csr.mie : h->csr.mip | h->mip_hw) & (HYP_VS_IRQS | SGEIP);
	return 0;
}

int wr_hie(struct hart *h, unsigned csr, uint64_t v)
{
	(void)csr;
	h->csr.mie = (h->csr.mie & ~HYP_VS_IRQS) | (v & HYP_VS_IRQS);
	return 0;
}

/* Hypervisor "Hypervisor and Virtual Supervisor CSRs": with V=1 these
 * supervisor CSR numbers reach the VS CSRs. satp under hstatus.VTVM is a
 * virtual instruction; so is the indirect window without AIA (no
 * vsiselect), and with AIA sip and sie under hvictl.VTI; stimecmp reaches vstimecmp (Sstc), whose predicate makes it
 * illegal without menvcfg.STCE or mcounteren.TM, and is virtual when
 * those allow it but henvcfg.STCE or hcounteren.TM do not. */
int hyp_vs_csr(const struct hart *h, unsigned csr)
{
	const uint64_t stce = 1ull << 63;
	if (csr == 0x14d)
		return hart_stce(h) && (h->pmu.mcounteren & 2) &&
		       (!(h->csr.henvcfg & stce) || !(h->pmu.hcounteren & 2)) ? -1 : 0x24d;
	switch (csr) {
	case 0x104: case 0x144:  /* AIA "Virtual interrupts for VS level": VTI */
		return h->csr.hvictl & (1ull << 30) ? -1 : (int)(csr + 0x100);
	case 0x100: case 0x105: case 0x140: case 0x141: case 0x142: case 0x143:
		return (int)(csr + 0x100);
	case 0x180:
		return h->csr.hstatus & HS_VTVM ? -1 : 0x280;
	case 0x150 ... 0x157:   /* siselect, sireg* -> vsiselect, vsireg* */
		return h->aia ? (int)(csr + 0x100) : -1;
	case 0xdb0:             /* stopi -> vstopi */
		return 0xeb0;
	}
	return (int)csr;
}
