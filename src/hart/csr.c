/* The CSR table (Zicsr; Privileged ISA "CSR listing"). One row per CSR
 * number with its name, an existence predicate, and read/write hooks.
 * Privilege and read-only-ness come from the address bits, as the spec
 * lays them out: csr[9:8] is the lowest privilege that may access it and
 * csr[11:10] == 3 marks it read-only. The counter CSRs belong to the PMU
 * (src/pmu) and are reached through pmu_csr_access. */
#include <stdio.h>
#include <string.h>
#include "csr.h"
#include "fpu.h"
#include "mmu.h"
#include "pmp.h"
#include "trap.h"
#include "rvpmu/ctr.h"

/* mstatus fields */
#define MS_SIE  (1ull << 1)
#define MS_MIE  (1ull << 3)
#define MS_SPIE (1ull << 5)
#define MS_MPIE (1ull << 7)
#define MS_SPP  (1ull << 8)
#define MS_MPP  (3ull << 11)
#define MS_FS   (3ull << 13)
#define MENVCFG_STCE (1ull << 63)
#define MS_MPRV (1ull << 17)
#define MS_SUM  (1ull << 18)
#define MS_MXR  (1ull << 19)
#define MS_TVM  (1ull << 20)
#define MS_TW   (1ull << 21)
#define MS_TSR  (1ull << 22)
#define MS_UXL  (3ull << 32)
#define MS_SXL  (3ull << 34)
#define MS_SD   (1ull << 63)
#define MS_GVA  (1ull << 38)
#define MS_MPV  (1ull << 39)
#define MSTATUS_W (MS_SIE | MS_MIE | MS_SPIE | MS_MPIE | MS_SPP | MS_MPP | MS_FS | \
		   MS_MPRV | MS_SUM | MS_MXR | MS_TVM | MS_TW | MS_TSR)
#define SSTATUS_V (MS_SIE | MS_SPIE | MS_SPP | MS_FS | MS_SUM | MS_MXR | MS_UXL | MS_SD)
/* vsstatus: sstatus's fields, UXL read-only 64, SD derived */
#define VSSTATUS_W (MS_SIE | MS_SPIE | MS_SPP | MS_FS | MS_SUM | MS_MXR)

/* interrupts that S-mode may own (delegable) and that software may set */
#define MIDELEG_W ((1ull << IRQ_SSI) | (1ull << IRQ_STI) | (1ull << IRQ_SEI) | (1ull << IRQ_LCOFI))
#define MIE_W     (MIDELEG_W | (1ull << IRQ_MSI) | (1ull << IRQ_MTI) | (1ull << IRQ_MEI))
#define MIP_W     MIDELEG_W
/* exceptions that may be delegated: all but ecall from M (cause 11) */
#define MEDELEG_W 0xb3ffull
/* with the hypervisor extension, also ecall from VS (10) and causes
 * 20-23; HS may delegate to VS neither ecalls from HS, VS, M nor those */
#define MEDELEG_H ((1ull << 10) | (0xfull << 20))
#define HEDELEG_W 0xb1ffull

struct csr_def {
	const char *name;
	csr_pred_fn *exists;   /* NULL: always (given the address bits) */
	csr_read_fn *read;
	csr_write_fn *write;   /* NULL for read-only CSRs */
};

void hart_update_mstatus(struct hart *h, uint64_t v)
{
	v &= ~(MS_SD | MS_UXL | MS_SXL);
	v |= 2ull << 32 | 2ull << 34;  /* UXL = SXL = 64 (read-only) */
	if ((v & MS_FS) == MS_FS)
		v |= MS_SD;
	h->csr.mstatus = v;
	/* with V=1, vsstatus.FS gates FP as well (Hypervisor "vsstatus") */
	h->fp_slow = (v & MS_FS) != MS_FS || (h->virt && (h->csr.vsstatus & MS_FS) != MS_FS);
}

/* ---- hooks ---- */

static uint64_t *field(struct hart *h, unsigned csr)
{
	struct hart_csrs *c = &h->csr;
	switch (csr) {
	case 0x302: return &c->medeleg;
	case 0x303: return &c->mideleg;
	case 0x304: return &c->mie;
	case 0x305: return &c->mtvec;
	case 0x30a: return &c->menvcfg;
	case 0x340: return &c->mscratch;
	case 0x341: return &c->mepc;
	case 0x342: return &c->mcause;
	case 0x343: return &c->mtval;
	case 0x350: return &c->miselect;
	case 0x105: return &c->stvec;
	case 0x10a: return &c->senvcfg;
	case 0x140: return &c->sscratch;
	case 0x141: return &c->sepc;
	case 0x142: return &c->scause;
	case 0x143: return &c->stval;
	case 0x150: return &c->siselect;
	case 0x250: return &c->vsiselect;
	case 0x180: return &c->satp;
	case 0x280: return &c->vsatp;
	case 0x14d: return &c->stimecmp;
	case 0x24d: return &c->vstimecmp;
	case 0x680: return &c->hgatp;
	case 0x240: return &c->vsscratch;
	case 0x241: return &c->vsepc;
	case 0x242: return &c->vscause;
	case 0x243: return &c->vstval;
	case 0x205: return &c->vstvec;
	case 0x602: return &c->hedeleg;
	case 0x603: return &c->hideleg;
	case 0x605: return &c->htimedelta;
	case 0x60a: return &c->henvcfg;
	case 0x643: return &c->htval;
	case 0x64a: return &c->htinst;
	case 0x34a: return &c->mtinst;
	case 0x34b: return &c->mtval2;
	case 0xf11: return &c->mvendorid;
	case 0xf12: return &c->marchid;
	case 0xf13: return &c->mimpid;
	case 0xf14: return &c->mhartid;
	case 0x301: return &c->misa;
	}
	return NULL;
}

static int rd_plain(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = *field(h, csr);
	return 0;
}

static int rd_zero(struct hart *h, unsigned csr, uint64_t *v)
{
	(void)h, (void)csr;
	*v = 0;
	return 0;
}

static int wr_plain(struct hart *h, unsigned csr, uint64_t v)
{
	*field(h, csr) = v;
	return 0;
}

/* Sstc: S-mode (HS, and VS through the substitution) reaches stimecmp
 * and vstimecmp (with H) only with menvcfg.STCE and mcounteren.TM */
static int pred_stimecmp(const struct hart *h, unsigned csr)
{
	if (!h->sstc || (csr == 0x24d && !h->has_h))
		return 0;
	return h->priv == PRIV_M || (hart_stce(h) && ((h->pmu.mcounteren >> 1) & 1));
}

int hart_stce(const struct hart *h)
{
	return h->sstc && (h->csr.menvcfg & MENVCFG_STCE);
}

uint64_t hart_timer_lines(const struct hart *h)
{
	if (!hart_stce(h))
		return 0;
	uint64_t t = hart_time(h), lines = t >= h->csr.stimecmp ? 1ull << IRQ_STI : 0;
	if ((h->csr.henvcfg & MENVCFG_STCE) && t + h->csr.htimedelta >= h->csr.vstimecmp)
		lines |= 1ull << IRQ_VSTI;
	return lines;
}

static int wr_ignore(struct hart *h, unsigned csr, uint64_t v)
{
	(void)h, (void)csr, (void)v;  /* WARL with a single legal value */
	return 0;
}

/* Masked WARL registers: bits outside the mask read zero. */
static int wr_masked(struct hart *h, unsigned csr, uint64_t v)
{
	uint64_t mask = csr == 0x302 ? MEDELEG_W | (h->has_h ? MEDELEG_H : 0) :
			csr == 0x303 ? MIDELEG_W : csr == 0x304 ? MIE_W | (h->has_h ? HYP_VS_IRQS : 0) :
			csr == 0x602 ? HEDELEG_W : ~0ull;
	if (csr == 0x30a)
		mask = 1 | pmu_menvcfg_mask(&h->pmu) |  /* FIOM, CDE */
		       (h->sstc ? MENVCFG_STCE : 0);
	if (csr == 0x10a)
		mask = 1;  /* senvcfg.FIOM */
	if (csr == 0x60a)  /* henvcfg.FIOM, STCE while menvcfg.STCE is set */
		mask = 1 | (hart_stce(h) ? MENVCFG_STCE : 0);
	*field(h, csr) = v & mask;
	if (csr == 0x30a && !hart_stce(h))
		h->csr.henvcfg &= ~MENVCFG_STCE;  /* read-only zero with it */
	if (csr == 0x303 && h->has_h)
		h->csr.mideleg |= HYP_VS_IRQS;  /* read-only one with H */
	if (csr == 0x30a)
		pmu_set_cde(&h->pmu, (v & PMU_MENVCFG_CDE) != 0);
	return 0;
}

/* xepc: bit 0 is always zero with IALIGN=16 (C is implemented) */
static int wr_epc(struct hart *h, unsigned csr, uint64_t v)
{
	*field(h, csr) = v & ~1ull;
	return 0;
}

/* xtvec: MODE 0 (direct) and 1 (vectored); reserved modes keep direct */
static int wr_tvec(struct hart *h, unsigned csr, uint64_t v)
{
	*field(h, csr) = (v & 3) >= 2 ? v & ~3ull : v & ~2ull;
	return 0;
}

static int rd_mstatus(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = h->csr.mstatus & (csr == 0x100 ? SSTATUS_V : ~0ull);
	return 0;
}

static int wr_mstatus(struct hart *h, unsigned csr, uint64_t v)
{
	uint64_t mask = csr == 0x100 ? SSTATUS_V & MSTATUS_W :
			MSTATUS_W | (h->has_h ? MS_MPV | MS_GVA : 0);
	uint64_t nv = (h->csr.mstatus & ~mask) | (v & mask);
	/* MPP is WARL over the implemented modes: 2 is reserved */
	if (((nv & MS_MPP) >> 11) == 2)
		nv = (nv & ~MS_MPP) | (h->csr.mstatus & MS_MPP);
	hart_update_mstatus(h, nv);
	return 0;
}

/* mip (sip, sie and the VS views are aia.c's, which reduce to the
 * Privileged ISA's rules when mvien and hvien are 0) */
static int rd_mip(struct hart *h, unsigned csr, uint64_t *v)
{
	(void)csr;
	*v = aia_mip(h);
	return 0;
}

static int wr_mip(struct hart *h, unsigned csr, uint64_t v)
{
	(void)csr;
	uint64_t mask = MIP_W | (h->has_h ? 1ull << IRQ_VSSI : 0);  /* mip.VSSIP: hvip's */
	if (hart_stce(h))
		mask &= ~(1ull << IRQ_STI);  /* Sstc: STIP is stimecmp's, read-only */
	if (h->csr.mvien & (1ull << IRQ_SEI))
		mask &= ~(1ull << IRQ_SEI);  /* AIA: mip.SEIP is then the line alone */
	h->csr.mip = (h->csr.mip & ~mask) | (v & mask);
	return 0;
}

/* satp and vsatp: Bare, Sv39 and Sv48, ASIDLEN 16; hgatp: Bare, Sv39x4
 * and Sv48x4 (the same mode numbers), VMIDLEN 14, PPN[1:0] read zero (a
 * 16 KiB root). A write of an unsupported MODE has no effect at all
 * (Privileged ISA, satp; for hgatp QEMU and Spike do the same). */
static int wr_satp(struct hart *h, unsigned csr, uint64_t v)
{
	uint64_t mode = v >> 60, ppn = (1ull << 44) - 1;
	uint64_t keep = csr == 0x680 ? 0xfull << 60 | 0x3fffull << 44 | (ppn & ~3ull)
				     : 0xfull << 60 | 0xffffull << 44 | ppn;
	if (mode == 0)
		*field(h, csr) = 0;
	else if (mode == 8 || mode == 9)
		*field(h, csr) = v & keep;
	mmu_flush(h);
	return 0;
}

static int pred_satp(const struct hart *h, unsigned csr)
{
	(void)csr;  /* mstatus.TVM traps HS-mode satp (and hgatp) accesses */
	return !(h->priv == PRIV_S && !h->virt && (h->csr.mstatus & MS_TVM));
}

static int pred_hgatp(const struct hart *h, unsigned csr)
{
	return h->has_h && pred_satp(h, csr);
}

/* F CSRs exist only while mstatus.FS is not Off. */
static int pred_fp(const struct hart *h, unsigned csr)
{
	(void)csr;
	return !h->system || ((h->csr.mstatus & MS_FS) && (!h->virt || (h->csr.vsstatus & MS_FS)));
}

static int rd_fp(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr == 1 ? h->fflags : csr == 2 ? h->frm : (h->frm << 5 | h->fflags);
	return 0;
}

static int wr_fp(struct hart *h, unsigned csr, uint64_t v)
{
	fpu_reset_host_flags();  /* fflags may lose bits: see fpu.h */
	if (csr == 1)
		h->fflags = v & 0x1f;
	else if (csr == 2)
		h->frm = v & 7;  /* reserved values are kept and trap on use */
	else
		h->fflags = v & 0x1f, h->frm = (v >> 5) & 7;
	if (h->system)
		hart_fp_dirty(h);
	return 0;
}

/* PMP CSRs (pmp.c enforces them): RV64 has the even pmpcfg registers only; a locked entry ignores writes;
 * R=0 W=1 is reserved and reads back as no access. */
static int pred_pmpcfg(const struct hart *h, unsigned csr)
{
	(void)h;
	return !(csr & 1);
}

static int rd_pmp(struct hart *h, unsigned csr, uint64_t *v)
{
	*v = csr < 0x3b0 ? h->csr.pmpcfg[csr - 0x3a0] : h->csr.pmpaddr[csr - 0x3b0];
	return 0;
}

static uint8_t pmpcfg_byte(const struct hart *h, unsigned i)
{
	return (uint8_t)(h->csr.pmpcfg[(i / 8) * 2] >> (8 * (i % 8)));
}

static int wr_pmp(struct hart *h, unsigned csr, uint64_t v)
{
	if (csr >= 0x3b0) {
		unsigned i = csr - 0x3b0;
		int next_tor = i < 63 && (pmpcfg_byte(h, i + 1) & 0x98) == 0x88;
		if (!(pmpcfg_byte(h, i) & 0x80) && !next_tor)
			h->csr.pmpaddr[i] = v & ((1ull << 54) - 1);
		pmp_update(h);
		return 0;
	}
	uint64_t old = h->csr.pmpcfg[csr - 0x3a0], nv = 0;
	for (int b = 0; b < 8; b++) {
		uint8_t o = (uint8_t)(old >> (8 * b)), n = (uint8_t)(v >> (8 * b));
		if (o & 0x80)
			n = o;               /* locked */
		n &= 0x9f;                   /* bits 6:5 are reserved */
		if ((n & 3) == 2)
			n &= (uint8_t)~3;    /* R=0 W=1 is reserved */
		nv |= (uint64_t)n << (8 * b);
	}
	h->csr.pmpcfg[csr - 0x3a0] = nv;
	pmp_update(h);
	return 0;
}

/* Smcsrind/Sscsrind: sireg* reach the Smcdeleg counter window. */
static int ireg_access(struct hart *h, unsigned csr, enum csr_op op, uint64_t val,
		       int writes, uint64_t *old)
{
	static const unsigned nums[] = {1, 2, 3, 0, 4, 5, 6};  /* sireg .. sireg6 */
	unsigned idx = (csr & 0xf) - 1;
	if (idx >= 7 || !nums[idx])
		return -1;
	unsigned lvl = (csr >> 8) & 3;
	if (lvl == 2) {
		/* vsireg* (sireg* from VS): CTR's entries; every other number,
		 * the iprio and IMSIC ones included, is inaccessible at VS
		 * level (AIA "Hypervisor and VS CSRs"): illegal from M and HS,
		 * virtual from VS, where a hypervisor emulates it */
		uint64_t vsel = h->csr.vsiselect;
		if (h->ctr && vsel >= CTR_SISELECT_FIRST && vsel <= CTR_SISELECT_LAST) {
			int c = ctr_ireg_access(h->ctr, hart_mode(h), vsel, nums[idx],
						(enum ctr_csr_op)op, val, writes, old);
			return c == CTR_OK ? 0 : c == CTR_VIRTUAL ? HART_VIRTUAL_INSN : -1;
		}
		/* Smcdeleg's counter window is not virtualized: from VS it is
		 * illegal while menvcfg.CDE = 0, else virtual (Smcdeleg, "with
		 * the H extension") */
		if (h->virt && vsel >= 0x40 && vsel <= 0x5f && !(h->csr.menvcfg & (1ull << 60)))
			return -1;
		return h->virt ? HART_VIRTUAL_INSN : -1;
	}
	uint64_t sel = lvl == 3 ? h->csr.miselect : h->csr.siselect;
	int a = aia_iprio_access(h, sel, nums[idx], old);
	if (a <= 0)
		return a;
	if (h->ctr && (csr >> 8) == 1 && sel >= CTR_SISELECT_FIRST && sel <= CTR_SISELECT_LAST)
		return ctr_ireg_access(h->ctr, h->priv, sel, nums[idx], (enum ctr_csr_op)op, val,
				       writes, old) == CTR_OK ? 0 : -1;
	int r = pmu_sireg_access(&h->pmu, h->priv, sel, nums[idx], (enum pmu_csr_op)op,
				 val, writes, old, NULL);
	return r == PMU_OK ? 0 : -1;
}

#define FIELD(n)  {n, NULL, rd_plain, wr_plain}
#define MASKED(n) {n, NULL, rd_plain, wr_masked}
#define RO(n)     {n, NULL, rd_plain, NULL}
#define H(n, rd, wr) {n, pred_h, rd, wr}

static const struct csr_def csr_table[4096] = {
	[0x001] = {"fflags", pred_fp, rd_fp, wr_fp},
	[0x002] = {"frm", pred_fp, rd_fp, wr_fp},
	[0x003] = {"fcsr", pred_fp, rd_fp, wr_fp},
	/* supervisor */
	[0x100] = {"sstatus", NULL, rd_mstatus, wr_mstatus},
	[0x104] = {"sie", NULL, rd_sip, wr_sip},
	[0x105] = {"stvec", NULL, rd_plain, wr_tvec},
	[0x10a] = MASKED("senvcfg"),
	[0x140] = FIELD("sscratch"),
	[0x141] = {"sepc", NULL, rd_plain, wr_epc},
	[0x142] = FIELD("scause"),
	[0x143] = FIELD("stval"),
	[0x144] = {"sip", NULL, rd_sip, wr_sip},
	[0x14d] = {"stimecmp", pred_stimecmp, rd_plain, wr_plain},
	[0x150] = FIELD("siselect"),
	[0x180] = {"satp", pred_satp, rd_plain, wr_satp},
	[0xdb0] = {"stopi", pred_aia, rd_topi, NULL},
	/* virtual supervisor */
	[0x200] = H("vsstatus", rd_vsstatus, wr_vsstatus),
	[0x204] = H("vsie", rd_vsip, wr_vsip),
	[0x205] = H("vstvec", rd_plain, wr_tvec),
	[0x240] = H("vsscratch", rd_plain, wr_plain),
	[0x241] = H("vsepc", rd_plain, wr_epc),
	[0x242] = H("vscause", rd_plain, wr_plain),
	[0x243] = H("vstval", rd_plain, wr_plain),
	[0x244] = H("vsip", rd_vsip, wr_vsip),
	[0x24d] = {"vstimecmp", pred_stimecmp, rd_plain, wr_plain},
	[0x250] = {"vsiselect", pred_aia_h, rd_plain, wr_plain},
	[0x280] = H("vsatp", rd_plain, wr_satp),
	[0xeb0] = {"vstopi", pred_aia_h, rd_topi, NULL},
	/* hypervisor (hcounteren is the PMU's) */
	[0x600] = H("hstatus", rd_hstatus, wr_hstatus),
	[0x602] = H("hedeleg", rd_plain, wr_masked),
	[0x603] = H("hideleg", rd_hideleg, wr_hideleg),
	[0x604] = H("hie", rd_hie, wr_hie),
	[0x605] = H("htimedelta", rd_plain, wr_plain),
	[0x607] = H("hgeie", rd_zero, wr_ignore),
	[0x608] = {"hvien", pred_aia_h, rd_hvien, wr_hvien},
	[0x609] = {"hvictl", pred_aia_h, rd_hvien, wr_hvien},
	[0x60a] = H("henvcfg", rd_plain, wr_masked),
	[0x643] = H("htval", rd_plain, wr_plain),
	[0x644] = H("hip", rd_hie, wr_hvip),
	[0x645] = H("hvip", rd_hvip, wr_hvip),
	[0x646] = {"hviprio1", pred_aia_h, rd_hvien, wr_hvien},
	[0x647] = {"hviprio2", pred_aia_h, rd_hvien, wr_hvien},
	[0x64a] = H("htinst", rd_plain, wr_plain),
	[0x680] = {"hgatp", pred_hgatp, rd_plain, wr_satp},
	[0xe12] = {"hgeip", pred_h, rd_zero, NULL},
	/* machine */
	[0x300] = {"mstatus", NULL, rd_mstatus, wr_mstatus},
	[0x301] = {"misa", NULL, rd_plain, wr_ignore},
	[0x302] = MASKED("medeleg"),
	[0x303] = MASKED("mideleg"),
	[0x304] = MASKED("mie"),
	[0x305] = {"mtvec", NULL, rd_plain, wr_tvec},
	[0x308] = {"mvien", pred_aia, rd_mvien, wr_mvien},
	[0x309] = {"mvip", pred_aia, rd_mvien, wr_mvien},
	[0x30a] = MASKED("menvcfg"),
	[0x340] = FIELD("mscratch"),
	[0x341] = {"mepc", NULL, rd_plain, wr_epc},
	[0x342] = FIELD("mcause"),
	[0x343] = FIELD("mtval"),
	[0x344] = {"mip", NULL, rd_mip, wr_mip},
	[0x34a] = H("mtinst", rd_plain, wr_plain),
	[0x34b] = H("mtval2", rd_plain, wr_plain),
	[0x350] = FIELD("miselect"),
	[0x3a0 ... 0x3af] = {"pmpcfg", pred_pmpcfg, rd_pmp, wr_pmp},
	[0x3b0 ... 0x3ef] = {"pmpaddr", NULL, rd_pmp, wr_pmp},
	[0xf11] = RO("mvendorid"),
	[0xf12] = RO("marchid"),
	[0xf13] = RO("mimpid"),
	[0xf14] = RO("mhartid"),
	[0xf15] = {"mconfigptr", NULL, rd_zero, NULL},
	[0xfb0] = {"mtopi", pred_aia, rd_topi, NULL},
};

/* Is the indirect-register window sireg* / mireg* (0x151-0x157, 0x351-0x357),
 * or with AIA and H vsireg* (0x251-0x257)? */
static int is_ireg(const struct hart *h, unsigned csr)
{
	unsigned lo = csr & 0xff, lvl = csr >> 8;
	return (lvl == 1 || lvl == 3 || (lvl == 2 && h->aia && h->has_h)) &&
	       lo >= 0x51 && lo <= 0x57 && lo != 0x54;
}

/* May HS-mode make this access (assuming mstatus.TVM = 0)? With V=1
 * that decides between a virtual instruction and an illegal one. */
static int hs_could(const struct hart *h, unsigned csr, int writes)
{
	const struct csr_def *c = &csr_table[csr];
	int own = c->exists == pred_h || c->exists == pred_aia || c->exists == pred_aia_h;
	return c->read && (!own || c->exists(h, csr)) && (!writes || c->write);
}

int csr_access(struct hart *h, unsigned csr, enum csr_op op, uint64_t val,
	       int writes, uint64_t *old)
{
	csr &= 0xfff;
	unsigned lvl = (csr >> 8) & 3;
	if (writes && (csr >> 10) == 3)
		return -1;  /* read-only address */
	/* below the CSR's privilege level; level 2 (hypervisor and VS CSRs)
	 * is HS-mode's */
	if (h->system && !h->virt && h->priv < lvl && !(lvl == 2 && h->priv == PRIV_S && h->has_h))
		return -1;

	/* Smctr: mctrctl, sctrctl, vsctrctl, sctrstatus, sctrdepth, with
	 * their V=1 rules (sctrctl is vsctrctl there) */
	if (h->ctr) {
		int c = ctr_csr_access(h->ctr, hart_mode(h), csr, (enum ctr_csr_op)op, val,
				       writes, old);
		if (c != CTR_NOT_CTR)
			return c == CTR_OK ? 0 : c == CTR_VIRTUAL ? HART_VIRTUAL_INSN : -1;
	}
	/* Counters and their controls: the PMU decides. */
	hart_sync_pmu(h);
	int r = pmu_csr_access(&h->pmu, hart_mode(h), csr, (enum pmu_csr_op)op, val,
			       writes, old, NULL);
	if (r != PMU_NOT_PMU)
		return r == PMU_OK ? 0 : r == PMU_VIRTUAL ? HART_VIRTUAL_INSN : -1;
	if (!h->system && (csr >> 8) != 0)
		return -1;  /* user mode: only the unprivileged CSRs exist */
	if (h->virt && lvl) {
		/* V=1 (Hypervisor "Virtual Instruction Exception"): M-level is
		 * illegal; what HS could access but VS/VU may not is virtual */
		if (lvl == 3)
			return -1;
		/* AIA: stopei and vstopei are HS-qualified; without an IMSIC
		 * (VGEIN never valid) they are virtual from VS and VU. With
		 * hvictl.VTI a VS write of stimecmp is virtual too. */
		if (h->aia && (csr == 0x15c || csr == 0x25c))
			return HART_VIRTUAL_INSN;
		if (h->aia && csr == 0x14d && writes && (h->csr.hvictl & (1ull << 30)))
			return HART_VIRTUAL_INSN;
		int to = lvl == 1 && h->priv == PRIV_S ? hyp_vs_csr(h, csr) : -1;
		if (to < 0)
			return is_ireg(h, csr) || hs_could(h, csr, writes) ? HART_VIRTUAL_INSN : -1;
		csr = (unsigned)to;
	}
	if (is_ireg(h, csr))
		return ireg_access(h, csr, op, val, writes, old);

	const struct csr_def *c = &csr_table[csr];
	if (!c->read || (c->exists && !c->exists(h, csr)))
		return -1;
	if (c->read(h, csr, old))
		return -1;
	if (!writes)
		return 0;
	if (!c->write)
		return -1;
	uint64_t base = *old;
	/* CSRRS/CSRRC of mip or sip: SEIP takes part as its software-writable
	 * bit, not ORed with the PLIC's line (Privileged ISA, "Machine
	 * Interrupt Registers"), or a set of STIP would latch the line */
	if (csr == 0x344 && op != CSR_WRITE)
		base = h->csr.mip;
	uint64_t nv = op == CSR_WRITE ? val : op == CSR_SET ? base | val : base & ~val;
	return c->write(h, csr, nv);
}

int hart_csr(struct hart *h, int priv, unsigned csr, int op, uint64_t val, uint64_t *old)
{
	uint64_t tmp;
	uint8_t saved = h->priv, virt = h->virt;
	h->priv = (uint8_t)priv;
	h->virt = 0;   /* firmware and host tools: M or HS */
	int r = op == HART_CSR_READ ? csr_access(h, csr, CSR_SET, 0, 0, old ? old : &tmp)
				    : csr_access(h, csr, (enum csr_op)op, val, 1, old ? old : &tmp);
	/* No guest instruction retires for a firmware access, so a counter
	 * write has no increment to replace: settle it with an empty retire. */
	static const uint64_t none[PMU_EV_MAX];
	pmu_retire(&h->pmu, h->priv, none);
	h->priv = saved;
	h->virt = virt;
	return r;
}

/* What the hart implements (the single-letter extensions first), the PMU
 * extensions as its profile set them. */
static const char *const isa_base[] = {
	"i", "m", "a", "f", "d", "c", "zicntr", "zicsr", "zifencei", "zihpm",
	"zba", "zbb", "zbs",
};

size_t hart_isa_extensions(const struct hart *h, const char **ext)
{
	const struct pmu_config *c = &h->pmu.cfg;
	size_t n = 0;
	for (size_t i = 0; i < sizeof(isa_base) / sizeof(isa_base[0]); i++) {
		ext[n++] = isa_base[i];
		if (h->has_h && !strcmp(isa_base[i], "c"))
			ext[n++] = "h";   /* the single letters in canonical order */
	}
	if (h->aia)
		ext[n++] = "smaia";
	if (c->smcdeleg)
		ext[n++] = "smcdeleg";
	if (c->smcntrpmf)
		ext[n++] = "smcntrpmf";
	if (h->aia)
		ext[n++] = "ssaia";
	if (c->sscofpmf)
		ext[n++] = "sscofpmf";
	if (c->smcdeleg)
		ext[n++] = "ssccfg";
	if (h->ctr) {
		ext[n++] = "smctr";
		ext[n++] = "ssctr";
	}
	if (h->sstc)
		ext[n++] = "sstc";
	return n;
}

void hart_isa_string(const struct hart *h, char *buf, size_t size)
{
	const char *ext[HART_MAX_ISA_EXT];
	size_t n = hart_isa_extensions(h, ext), k = (size_t)snprintf(buf, size, "rv64");
	for (size_t i = 0; i < n && k < size; i++)  /* letters, then _multi-letter */
		k += (size_t)snprintf(buf + k, size - k, "%s%s", ext[i][1] ? "_" : "", ext[i]);
}
