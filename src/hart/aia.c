/* The Advanced Interrupt Architecture's hart-local part (Smaia/Ssaia
 * v1.0, "Control and Status Registers Added to Harts", "Interrupts for
 * Machine and Supervisor Levels", "Interrupts for Virtual Machines (VS
 * Level)") without an IMSIC: which interrupt each level has pending
 * (mtopi, stopi, vstopi) and so which trap is taken, the S-level views
 * sip/sie with mvien/mvip, the VS-level views vsip/vsie with hvien/hvip
 * and hvictl, and the iprio windows. Without h->aia the registers added
 * here do not exist and mvien = hvien = hvictl = 0, which leaves the
 * Privileged ISA's rules.
 *
 * Choices the spec leaves open, and what rvpmu does:
 *  - the iprio arrays (miselect/siselect 0x30-0x3F) are all read-only
 *    zero ("If all bytes in the iprio array are read-only zeros"), so
 *    every level uses the default priority order and the IPRIO field of
 *    mtopi/stopi is the simplified 1;
 *  - mvien: bits 1 (SSI), 9 (SEI) and 13 (LCOFI, the one local interrupt
 *    the hart has) are writable, the rest read-only zero; mvip bit 13 is
 *    its own bit, bits 1 and 9 as the spec makes them;
 *  - hvien: bit 13 writable, the rest read-only zero, so hvip bits 14-63
 *    are read-only zero too ("should be read-only zero in hvip");
 *  - hideleg bit 13 is writable while mideleg or mvien bit 13 is set
 *    (and acts only while one is);
 *  - hviprio1/hviprio2 are read-only zero (the spec's "minimal
 *    implementation"); hvictl implements all of IID's 12 bits;
 *  - no IMSIC (GEILEN = 0): mtopei and stopei do not exist (illegal
 *    instruction), vstopei and selects 0x70-0xFF are inaccessible. */
#include "csr.h"
#include "trap.h"

#define BIT(n) (1ull << (n))
#define LOW13  0x1fffull           /* interrupts 0-12: the Privileged ISA's */
#define LOCAL_IRQS BIT(IRQ_LCOFI)  /* the local interrupts the hart has */
#define MVIEN_W (BIT(IRQ_SSI) | BIT(IRQ_SEI) | LOCAL_IRQS)
#define HVIEN_W LOCAL_IRQS
/* sip bits S-mode may write: SSIP and the local interrupts */
#define SIP_SW  (BIT(IRQ_SSI) | LOCAL_IRQS)
#define MS_MIE  (1ull << 3)
#define MS_SIE  (1ull << 1)
/* hvictl fields */
#define HVICTL_VTI    BIT(30)
#define HVICTL_IID(v) (((v) >> 16) & 0xfff)
#define HVICTL_DPR    BIT(9)
#define HVICTL_IPRIOM BIT(8)
#define HVICTL_IPRIO(v) ((v) & 0xff)
#define HVICTL_W (HVICTL_VTI | 0xfffull << 16 | HVICTL_DPR | HVICTL_IPRIOM | 0xffull)

/* The default priority order ("Defined major interrupts and default
 * priorities"), highest first; at VS level the same numbers are the
 * guest's (9, 1, 5 for its external, software, timer interrupts). */
static const unsigned default_order[] = {
	IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI, IRQ_SSI, IRQ_STI, 12,
	IRQ_VSEI, IRQ_VSSI, IRQ_VSTI, IRQ_LCOFI,
};

/* The highest-priority interrupt in set (default order), or 0. Only
 * interrupts the hart can raise are in the order: 13 is the only local one. */
static unsigned top(uint64_t set)
{
	for (unsigned i = 0; i < sizeof(default_order) / sizeof(default_order[0]); i++)
		if ((set >> default_order[i]) & 1)
			return default_order[i];
	return 0;
}

/* mip as read: the software-writable bits and the devices' lines; the
 * software-writable SEIP leaves mip.SEIP while mvien.SEI is set */
uint64_t aia_mip(const struct hart *h)
{
	uint64_t sw = h->csr.mip;
	if (h->csr.mvien & BIT(IRQ_SEI))
		sw &= ~BIT(IRQ_SEI);
	return sw | h->mip_hw;
}

/* mvip: bit 1 is mip.SSIP unless mvien.SSI makes it its own, bit 5
 * mip.STIP while that is writable (not under Sstc's STCE), bit 9 the
 * software-writable SEIP always, bits 13-63 its own */
uint64_t aia_mvip(const struct hart *h)
{
	const struct hart_csrs *c = &h->csr;
	uint64_t v = (c->mvip & ~LOW13) | (c->mip & BIT(IRQ_SEI));
	v |= (c->mvien & BIT(IRQ_SSI) ? c->mvip : c->mip) & BIT(IRQ_SSI);
	if (!hart_stce(h))
		v |= c->mip & BIT(IRQ_STI);
	return v;
}

static void write_mvip(struct hart *h, uint64_t mask, uint64_t v)
{
	struct hart_csrs *c = &h->csr;
	uint64_t own = (mask & MVIEN_W & ~LOW13) | (c->mvien & mask & BIT(IRQ_SSI));
	uint64_t in_mip = mask & (BIT(IRQ_SEI) | (c->mvien & BIT(IRQ_SSI) ? 0 : BIT(IRQ_SSI)) |
				  (hart_stce(h) ? 0 : BIT(IRQ_STI)));
	c->mvip = (c->mvip & ~own) | (v & own);
	c->mip = (c->mip & ~in_mip) | (v & in_mip);
}

/* hideleg as it acts: bit 13 only while mideleg or mvien bit 13 is set */
uint64_t aia_hideleg(const struct hart *h)
{
	const struct hart_csrs *c = &h->csr;
	return c->hideleg & (HYP_VS_IRQS | ((c->mideleg | c->mvien) & LOCAL_IRQS));
}

/* sip and sie ("Interrupt filtering and virtual interrupts for supervisor
 * level"): a bit delegated by mideleg is mip's/mie's; one that mvien
 * enables instead is mvip's, and sie's own bit. The VS-level bits are
 * hip's and hie's, not these. */
static uint64_t s_virtual(const struct hart *h)
{
	return h->csr.mvien & ~h->csr.mideleg;
}

uint64_t aia_sip(const struct hart *h)
{
	return (aia_mip(h) & h->csr.mideleg & ~HYP_VS_IRQS) | (aia_mvip(h) & s_virtual(h));
}

uint64_t aia_sie(const struct hart *h)
{
	return (h->csr.mie & h->csr.mideleg & ~HYP_VS_IRQS) | (h->csr.sie_v & s_virtual(h));
}

/* Write the bits of mask in sip (SSIP and the local interrupts; under
 * Sstc STIP is the compare's) or sie. */
static void write_sip(struct hart *h, uint64_t mask, uint64_t v)
{
	uint64_t del = mask & SIP_SW & h->csr.mideleg & ~HYP_VS_IRQS;
	h->csr.mip = (h->csr.mip & ~del) | (v & del);
	write_mvip(h, mask & SIP_SW & s_virtual(h), v);
}

static void write_sie(struct hart *h, uint64_t mask, uint64_t v)
{
	struct hart_csrs *c = &h->csr;
	uint64_t del = mask & c->mideleg & ~HYP_VS_IRQS &
		       (BIT(IRQ_SSI) | BIT(IRQ_STI) | BIT(IRQ_SEI) | LOCAL_IRQS);
	uint64_t own = mask & s_virtual(h);
	c->mie = (c->mie & ~del) | (v & del);
	c->sie_v = (c->sie_v & ~own) | (v & own);
}

/* vsip and vsie, in VS-mode's numbering: bits 1, 5, 9 are hip's/hie's
 * VS bits 2, 6, 10 that hideleg delegates; bits 13-63 are sip's/sie's
 * where hideleg delegates them, else, where hvien enables them, hvip's
 * and vsie's own ("Virtual interrupts for VS level"). */
static uint64_t vs_virtual(const struct hart *h)
{
	return h->csr.hvien & ~aia_hideleg(h) & ~LOW13;
}

uint64_t aia_vsip(const struct hart *h)
{
	uint64_t hd = aia_hideleg(h);
	return ((aia_mip(h) & hd & HYP_VS_IRQS) >> 1) | (aia_sip(h) & hd & ~LOW13) |
	       (h->csr.hvip_v & vs_virtual(h));
}

uint64_t aia_vsie(const struct hart *h)
{
	uint64_t hd = aia_hideleg(h);
	return ((h->csr.mie & hd & HYP_VS_IRQS) >> 1) | (aia_sie(h) & hd & ~LOW13) |
	       (h->csr.vsie_v & vs_virtual(h));
}

/* The levels' pending-and-enabled interrupts, global enables aside:
 * M (mip & mie, not delegated), HS (sip & sie or hip & hie, not
 * delegated on by hideleg), in the hart's numbering. */
static uint64_t m_level(const struct hart *h)
{
	return aia_mip(h) & h->csr.mie & ~h->csr.mideleg;
}

static uint64_t s_level(const struct hart *h)
{
	const struct hart_csrs *c = &h->csr;
	uint64_t s = (aia_mip(h) & c->mie & c->mideleg) | (aia_mvip(h) & c->sie_v & s_virtual(h));
	return s & ~aia_hideleg(h);
}

/* A candidate's place in the VS order (stopi's table): priority number
 * p, 0 meaning above or below the external interrupt by default order */
static unsigned vs_rank(unsigned p, int above_sei)
{
	return p ? p : above_sei ? 0 : 1000;
}

static uint64_t topi_value(unsigned iid, unsigned prio)
{
	return (uint64_t)iid << 16 | prio;
}

uint64_t aia_vstopi(const struct hart *h)
{
	const uint64_t ctl = h->csr.hvictl;
	uint64_t vs = aia_vsip(h) & aia_vsie(h);
	int have = 0, above = 0;
	unsigned iid = 0, p = 0, rank = 0;
	/* the (virtual) external interrupt: hvictl's priority when IID = 9
	 * and IPRIO is not 0, else 256 (VGEIN is always 0: no IMSIC) */
	if (vs & BIT(IRQ_SEI)) {
		have = 1, iid = IRQ_SEI;
		p = rank = HVICTL_IID(ctl) == IRQ_SEI && HVICTL_IPRIO(ctl) ? HVICTL_IPRIO(ctl) : 256;
	}
	/* the other candidate: with VTI = 0 the highest of vsip & vsie but
	 * 9, its hviprio number 0 (every such one, 1, 5, 13, is below 9 by
	 * default order); with VTI = 1 and IID != 9, hvictl's, above or
	 * below 9 as DPR says */
	int c_have = 0, c_above = 0;
	unsigned c_iid = 0, c_p = 0;
	if (!(ctl & HVICTL_VTI)) {
		c_iid = top(vs & ~BIT(IRQ_SEI));
		c_have = c_iid != 0;
	} else if (HVICTL_IID(ctl) != IRQ_SEI) {
		c_have = 1, c_iid = HVICTL_IID(ctl), c_p = HVICTL_IPRIO(ctl);
		c_above = !(ctl & HVICTL_DPR);
	}
	if (c_have) {
		unsigned r = vs_rank(c_p, c_above);
		if (!have || r < rank || (r == rank && c_above))
			have = 1, iid = c_iid, p = c_p, above = c_above;
	}
	if (!have)
		return 0;
	if (!(ctl & HVICTL_IPRIOM))
		return topi_value(iid, 1);
	return topi_value(iid, p >= 1 && p <= 255 ? p : p == 0 && above ? 0 : 255);
}

uint64_t aia_mtopi(const struct hart *h)
{
	unsigned i = top(m_level(h));
	return i ? topi_value(i, 1) : 0;
}

uint64_t aia_stopi(const struct hart *h)
{
	unsigned i = top(s_level(h));
	return i ? topi_value(i, 1) : 0;
}

/* The interrupt to take now and its target: M-level ones below M or in
 * M with MIE; HS-level ones below HS (VS, VU too) or in HS with SIE; a
 * VS-level one (vstopi's) only with V=1, in VU or in VS with
 * vsstatus.SIE. Returns the cause (VS-mode's number for VS), or -1. */
int aia_pending(const struct hart *h, int *target)
{
	const struct hart_csrs *c = &h->csr;
	int m_on = h->priv < PRIV_M || (c->mstatus & MS_MIE);
	int s_on = h->virt || h->priv < PRIV_S || (h->priv == PRIV_S && (c->mstatus & MS_SIE));
	int vs_on = h->virt && (h->priv == PRIV_U || (c->vsstatus & MS_SIE));
	unsigned i;
	if (m_on && (i = top(m_level(h)))) {
		*target = PRIV_M;
		return (int)i;
	}
	if (s_on && (i = top(s_level(h)))) {
		*target = PRIV_S;
		return (int)i;
	}
	if (vs_on) {
		uint64_t t = aia_vstopi(h);
		if (t) {
			*target = PRIV_VS;
			return (int)(t >> 16);
		}
	}
	return -1;
}

int aia_any_pending(const struct hart *h)
{
	return m_level(h) || s_level(h) || aia_vstopi(h);
}

/* ---- CSR hooks ---- */

int pred_aia(const struct hart *h, unsigned csr)
{
	(void)csr;
	return h->aia;
}

int pred_aia_h(const struct hart *h, unsigned csr)
{
	(void)csr;
	return h->aia && h->has_h;
}

int rd_topi(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr == 0xfb0 ? aia_mtopi(h) : csr == 0xdb0 ? aia_stopi(h) : aia_vstopi(h);
	return 0;
}

int rd_mvien(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr == 0x308 ? h->csr.mvien : aia_mvip(h);
	return 0;
}

int wr_mvien(struct hart *h, unsigned csr, uint64_t v)
{
	if (csr == 0x309) {
		write_mvip(h, ~0ull, v);
		return 0;
	}
	h->csr.mvien = v & MVIEN_W;
	return 0;
}

int rd_sip(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr == 0x144 ? aia_sip(h) : aia_sie(h);
	return 0;
}

int wr_sip(struct hart *h, unsigned csr, uint64_t v)
{
	if (csr == 0x144)
		write_sip(h, ~0ull, v);
	else
		write_sie(h, ~0ull, v);
	return 0;
}

int rd_vsip(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr == 0x244 ? aia_vsip(h) : aia_vsie(h);
	return 0;
}

/* vsip: SSIP (hvip.VSSIP) and bits 13-63 where delegated or enabled;
 * vsie: the delegated VS bits and bits 13-63 likewise */
int wr_vsip(struct hart *h, unsigned csr, uint64_t v)
{
	struct hart_csrs *c = &h->csr;
	uint64_t hd = aia_hideleg(h), own = vs_virtual(h);
	if (csr == 0x244) {
		uint64_t lo = hd & BIT(IRQ_VSSI);
		c->mip = (c->mip & ~lo) | ((v << 1) & lo);
		write_sip(h, hd & ~LOW13, v);
		c->hvip_v = (c->hvip_v & ~own) | (v & own);
	} else {
		uint64_t lo = hd & HYP_VS_IRQS;
		c->mie = (c->mie & ~lo) | ((v << 1) & lo);
		write_sie(h, hd & ~LOW13, v);
		c->vsie_v = (c->vsie_v & ~own) | (v & own);
	}
	return 0;
}

/* hvip (0x645): VSSIP, VSTIP, VSEIP in mip, bits 13-63 its own; hip
 * (0x644): VSSIP only */
int rd_hvip(struct hart *h, unsigned csr, uint64_t *v)
{
	(void)csr;
	*v = (h->csr.mip & HYP_VS_IRQS) | h->csr.hvip_v;
	return 0;
}

int wr_hvip(struct hart *h, unsigned csr, uint64_t v)
{
	uint64_t mask = csr == 0x644 ? BIT(IRQ_VSSI) : HYP_VS_IRQS;
	h->csr.mip = (h->csr.mip & ~mask) | (v & mask);
	if (csr == 0x645 && h->aia)
		h->csr.hvip_v = v & HVIEN_W;
	return 0;
}

int rd_hvien(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr == 0x608 ? h->csr.hvien : csr == 0x609 ? h->csr.hvictl : 0;  /* hviprio: 0 */
	return 0;
}

int wr_hvien(struct hart *h, unsigned csr, uint64_t v)
{
	if (csr == 0x608)
		h->csr.hvien = v & HVIEN_W;
	else if (csr == 0x609)
		h->csr.hvictl = v & HVICTL_W;
	return 0;   /* hviprio1/2: read-only zero */
}

int rd_hideleg(struct hart *h, unsigned csr, uint64_t *v)
{
	(void)csr;
	*v = aia_hideleg(h);
	return 0;
}

int wr_hideleg(struct hart *h, unsigned csr, uint64_t v)
{
	(void)csr;
	uint64_t local = h->aia ? (h->csr.mideleg | h->csr.mvien) & LOCAL_IRQS : 0;
	h->csr.hideleg = v & (HYP_VS_IRQS | local);
	return 0;
}

/* The iprio arrays behind miselect/siselect 0x30-0x3F: the even numbers
 * are read-only zero (writes ignored), the odd ones do not exist in RV64.
 * Returns 0, -1 (illegal), or 1 when sel is not an iprio number. */
int aia_iprio_access(const struct hart *h, uint64_t sel, unsigned n, uint64_t *old)
{
	if (!h->aia || sel < 0x30 || sel > 0x3f)
		return 1;
	if ((sel & 1) || n != 1)   /* mireg2-6 / sireg2-6 are illegal here */
		return -1;
	*old = 0;
	return 0;
}
