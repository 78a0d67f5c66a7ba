/* Traps, interrupts and the privileged instructions (Privileged ISA:
 * "Machine-Level ISA" trap entry, mret/sret, wfi; "Supervisor-Level ISA"
 * delegation). */
#include <string.h>
#include "csr.h"
#include "trap.h"
#include "mmu.h"
#include "pmp.h"
#include "retire.h"
#include "rvpmu/ctr.h"

#define MS_SIE  (1ull << 1)
#define MS_MIE  (1ull << 3)
#define MS_SPIE (1ull << 5)
#define MS_MPIE (1ull << 7)
#define MS_SPP  (1ull << 8)
#define MS_MPP_SHIFT 11
#define MS_MPP  (3ull << MS_MPP_SHIFT)
#define MS_FS   (3ull << 13)
#define MS_MPRV (1ull << 17)
#define MS_TVM  (1ull << 20)
#define MS_TW   (1ull << 21)
#define MS_TSR  (1ull << 22)
#define MS_GVA  (1ull << 38)
#define MS_MPV  (1ull << 39)
#define HS_GVA  (1ull << 6)
#define HS_SPV  (1ull << 7)
#define HS_SPVP (1ull << 8)
#define HS_VTVM (1ull << 20)
#define HS_VTW  (1ull << 21)
#define HS_VTSR (1ull << 22)

static uint64_t tvec_target(uint64_t tvec, uint64_t cause, int irq)
{
	uint64_t base = tvec & ~3ull;
	return (irq && (tvec & 1)) ? base + 4 * cause : base;
}

/* Medeleg/mideleg send a trap below M to HS; from V=1, hedeleg/hideleg
 * send it on to VS (Hypervisor "Trap Cause Codes"). */
int hart_trap_target(const struct hart *h, uint64_t cause, int irq)
{
	if (irq) {   /* the level whose pending interrupt it is (aia.c) */
		int target, now = aia_pending(h, &target);
		if (now >= 0 && (uint64_t)now == cause)
			return target;
	}
	uint64_t deleg = irq ? h->csr.mideleg : h->csr.medeleg;
	if (h->priv == PRIV_M || cause >= 64 || !((deleg >> cause) & 1))
		return PRIV_M;
	uint64_t hdeleg = irq ? h->csr.hideleg : h->csr.hedeleg;
	return h->virt && ((hdeleg >> cause) & 1) ? PRIV_VS : PRIV_S;
}

void hart_take_trap(struct hart *h, uint64_t cause, uint64_t tval, int irq)
{
	hart_enter_trap(h, cause, tval, irq, hart_trap_target(h, cause, irq));
}

/* Exceptions whose tval is an address (GVA says whether a guest's):
 * misaligned, access and page faults, breakpoint, guest-page faults. */
static int tval_is_address(uint64_t cause)
{
	const uint64_t addr = 0xb0fbull | (0xbull << CAUSE_FETCH_GUEST_PAGE_FAULT);
	return cause < 64 && ((addr >> cause) & 1);
}

void hart_enter_trap(struct hart *h, uint64_t cause, uint64_t tval, int irq, int target)
{
	struct hart_csrs *c = &h->csr;
	uint64_t code = cause | (irq ? 1ull << 63 : 0);
	uint64_t ms = c->mstatus;
	hart_sync_pmu(h);
	pmu_count(&h->pmu, hart_mode(h), irq ? PMU_EV_INTERRUPT : PMU_EV_EXCEPTION, 1);
	uint64_t from = hart_mode(h), epc = h->pc;
	int virt = h->virt;
	/* GVA: tval is a guest virtual address (Hypervisor "hstatus") */
	int gva = !irq && tval_is_address(cause) && (virt || h->tval_gva);
	if (target == PRIV_VS) {
		/* an interrupt's cause is VS-mode's own already (vstopi's IID:
		 * the VS-level 2, 6, 10 are its 1, 5, 9) */
		uint64_t vc = cause;
		uint64_t vs = c->vsstatus;
		c->vscause = vc | (irq ? 1ull << 63 : 0);
		c->vsepc = h->pc;
		c->vstval = tval;
		c->vsstatus = (vs & ~(MS_SPP | MS_SPIE | MS_SIE)) | (h->priv ? MS_SPP : 0) |
			      ((vs & MS_SIE) ? MS_SPIE : 0);
		h->priv = PRIV_S;
		h->pc = tvec_target(c->vstvec, vc, irq);
	} else if (target == PRIV_S) {
		c->scause = code;
		c->sepc = h->pc;
		c->stval = tval;
		ms = (ms & ~(MS_SPP | MS_SPIE | MS_SIE)) | (h->priv ? MS_SPP : 0) |
		     ((ms & MS_SIE) ? MS_SPIE : 0);
		if (h->has_h) {
			uint64_t hs = c->hstatus & ~(HS_SPV | HS_GVA);
			if (virt)   /* SPVP changes only on a trap from V=1 */
				hs = (hs & ~HS_SPVP) | HS_SPV | (h->priv ? HS_SPVP : 0);
			c->hstatus = hs | (gva ? HS_GVA : 0);
			c->htval = h->tval2;
			c->htinst = h->tinst;
		}
		h->priv = PRIV_S;
		h->virt = 0;
		h->pc = tvec_target(c->stvec, cause, irq);
	} else {
		c->mcause = code;
		c->mepc = h->pc;
		c->mtval = tval;
		ms = (ms & ~(MS_MPP | MS_MPIE | MS_MIE)) | ((uint64_t)h->priv << MS_MPP_SHIFT) |
		     ((ms & MS_MIE) ? MS_MPIE : 0);
		if (h->has_h) {
			ms = (ms & ~(MS_MPV | MS_GVA)) | (virt ? MS_MPV : 0) | (gva ? MS_GVA : 0);
			c->mtval2 = h->tval2;
			c->mtinst = h->tinst;
		}
		h->priv = PRIV_M;
		h->virt = 0;
		h->pc = tvec_target(c->mtvec, cause, irq);
	}
	h->tval2 = h->tinst = 0;
	h->tval_gva = 0;
	hart_update_mstatus(h, ms);
	if (h->ctr)
		ctr_trap(h->ctr, (unsigned)from, hart_mode(h), epc, h->pc, code, hart_cycles(h));
}

uint64_t hart_cycles(const struct hart *h)
{
	return h->uarch ? h->uarch->tm.now : h->instret;
}

int hart_pending_irq(const struct hart *h)
{
	int target;
	return aia_pending(h, &target);
}

int hart_wakes(const struct hart *h)
{
	return aia_any_pending(h);
}

int hart_fp_dirty(struct hart *h)
{
	if (!(h->csr.mstatus & MS_FS) || (h->virt && !(h->csr.vsstatus & MS_FS)))
		return -1;  /* FS = Off: FP instructions are illegal */
	if (h->virt)   /* V=1: both are Dirty */
		h->csr.vsstatus |= MS_FS;
	hart_update_mstatus(h, h->csr.mstatus | MS_FS);
	return 0;
}

/* An overflow request from the PMU becomes visible in mip after the skid. */
static void collect_overflow(struct hart *h, uint64_t at)
{
	if (pmu_take_mip(&h->pmu) && h->lcofi_at == ~0ull)
		h->lcofi_at = at + h->skid;
}

/* Hand the PMU the instructions up to instret `to` (one cycle each unless
 * the timing model counts cycles) and the events in evc. */
static void report(struct hart *h, uint64_t to)
{
#ifdef RVPMU_NO_PMU  /* the bench's baseline: counters never move */
	memset(h->evc, 0, sizeof(h->evc));
	h->pmu_synced = to;
	return;
#endif
	h->evc[PMU_EV_INSTRET] = to - h->pmu_synced;
	if (!h->uarch)  /* else the timing model counted cycles */
		h->evc[PMU_EV_CYCLES] = h->evc[PMU_EV_INSTRET];
	pmu_retire(&h->pmu, hart_mode(h), h->evc);
	if (h->tally)
		for (unsigned e = 0; e < PMU_EV_MAX; e++)
			h->tally[hart_mode(h)][e] += h->evc[e];
	if (h->host_pmu) {
		uint32_t of = pmu_retire(h->host_pmu, hart_mode(h), h->evc);
		if (of)
			h->host_overflow(h->host_ctx, h, of);
	}
	memset(h->evc, 0, sizeof(h->evc));
	h->pmu_synced = to;
	collect_overflow(h, to);
}

void hart_sync_pmu(struct hart *h)
{
	retire_fold(h);
	if (h->instret != h->pmu_synced)
		report(h, h->instret);
	else
		collect_overflow(h, h->instret);
}

void hart_deliver_lcofi(struct hart *h)
{
	if (h->lcofi_at != ~0ull && h->instret >= h->lcofi_at) {
		h->csr.mip |= 1ull << IRQ_LCOFI;
		h->lcofi_at = ~0ull;
	}
}

/* The instruction at h->pc retires on its own, next going to next_pc,
 * with any before it the PMU has not seen: it counts in the mode it ran in
 * and as the counters stood before it (Sail's should_inc_minstret, decided
 * ahead of the instruction; pmu_retire ends what its PMU writes held), a
 * counter it wrote taking the place of its increment (Zicsr). With models,
 * they see it now when it changed what counts, so that its own events
 * (its cycles) count that way too. */
static void retire_alone(struct hart *h, uint64_t next_pc, int models_now, unsigned ev)
{
	if (models_now)
		retire_finish(h, next_pc);
	retire_fold(h);
	h->evc[ev]++;
	report(h, h->instret + 1);
}

void hart_retire_csr_insn(struct hart *h, unsigned len)
{
	retire_alone(h, h->pc + len, pmu_held(&h->pmu), PMU_EV_CSR);
}

/* CTR's time stamp of an xRET, taken before the PMU and the models see
 * it: its own (at least one) cycle is added here, as a branch's is
 * included in its record. */
static uint64_t xret_cycles(const struct hart *h)
{
	return hart_cycles(h) + 1;
}

/* The end of an xRET: the hart goes to mode (priv | V << 2) at pc. */
static void xret_to(struct hart *h, unsigned mode, uint64_t ms, uint64_t pc, uint64_t stamp)
{
	unsigned from = hart_mode(h);
	uint64_t xpc = h->pc;
	h->priv = (uint8_t)(mode & 3);
	h->virt = (mode & MODE_V) != 0;
	hart_update_mstatus(h, ms);
	h->pc = pc;
	hart_storm_resume(h, h->instret + 1);  /* the xRET retires on return */
	if (h->ctr)
		ctr_transfer(h->ctr, from, mode, xpc, pc, CTR_TYPE_TRET, 0, stamp);
}

/* MRET, SRET, WFI, SFENCE.VMA. Returns -1 for illegal instruction,
 * HART_VIRTUAL_INSN for a virtual instruction (V=1: Hypervisor "Virtual
 * Instruction Exception"), 1 when the hart should wait for an interrupt,
 * else 0; h->pc is the next pc. h->instret counts the instructions
 * before this one; the caller counts this one. */
int hart_system_insn(struct hart *h, unsigned id, unsigned len)
{
	struct hart_csrs *c = &h->csr;
	uint64_t ms = c->mstatus, hs = c->hstatus;
	int vs = h->virt && h->priv == PRIV_S, vu = h->virt && h->priv == PRIV_U;
	if (!h->system)
		return -1;
	switch (id) {
	case INSN_MRET: {
		if (h->priv < PRIV_M)
			return -1;
		uint64_t stamp = xret_cycles(h);
		retire_alone(h, c->mepc, 1, PMU_EV_NONE);  /* counted in M */
		unsigned mpp = (unsigned)((ms & MS_MPP) >> MS_MPP_SHIFT);
		/* MPV: back to V=1 below M (MPV and MPP are then cleared) */
		unsigned mode = mpp | (mpp != PRIV_M && (ms & MS_MPV) ? MODE_V : 0);
		ms = (ms & ~(MS_MPP | MS_MIE | MS_MPV)) | ((ms & MS_MPIE) ? MS_MIE : 0) | MS_MPIE;
		if (mpp != PRIV_M)
			ms &= ~MS_MPRV;
		xret_to(h, mode, ms, c->mepc, stamp);
		return 0;
	}
	case INSN_SRET: {
		if (vu || (vs && (hs & HS_VTSR)))
			return HART_VIRTUAL_INSN;
		if (h->priv < PRIV_S || (h->priv == PRIV_S && !h->virt && (ms & MS_TSR)))
			return -1;
		uint64_t stamp = xret_cycles(h);
		retire_alone(h, vs ? c->vsepc : c->sepc, 1, PMU_EV_NONE);  /* counted in the mode it ran in */
		if (vs) {  /* VS's SRET: vsstatus's stack, V stays 1 */
			uint64_t v = c->vsstatus;
			unsigned spp = (v & MS_SPP) ? PRIV_VS : PRIV_VU;
			c->vsstatus = (v & ~(MS_SPP | MS_SIE)) | ((v & MS_SPIE) ? MS_SIE : 0) | MS_SPIE;
			xret_to(h, spp, ms, c->vsepc, stamp);
			return 0;
		}
		/* HS (or M): V from hstatus.SPV, which is then cleared */
		unsigned mode = ((ms & MS_SPP) ? PRIV_S : PRIV_U) | (h->has_h && (hs & HS_SPV) ? MODE_V : 0);
		c->hstatus &= ~HS_SPV;
		ms = (ms & ~(MS_SPP | MS_SIE)) | ((ms & MS_SPIE) ? MS_SIE : 0) | MS_SPIE;
		ms &= ~MS_MPRV;  /* SRET always returns below M */
		xret_to(h, mode, ms, c->sepc, stamp);
		return 0;
	}
	case INSN_WFI:
		/* U-mode WFI traps; so does S-mode WFI when mstatus.TW is set;
		 * with V=1, TW makes it illegal, VU or VS with VTW virtual */
		if ((h->priv == PRIV_U && !h->virt) || (h->priv < PRIV_M && (ms & MS_TW)))
			return -1;
		if (vu || (vs && (hs & HS_VTW)))
			return HART_VIRTUAL_INSN;
		h->pc += len;
		return 1;
	case INSN_SCTRCLR:
		/* Smctr: illegal where CTR is absent or not accessible,
		 * virtual from VU (and VS under hstateen0.CTR = 0) */
		if (h->ctr) {
			int c = ctr_sctrclr(h->ctr, hart_mode(h));
			if (c == CTR_VIRTUAL)
				return HART_VIRTUAL_INSN;
			if (c == CTR_OK) {
				h->pc += len;
				return 0;
			}
		}
		return -1;
	case INSN_SFENCE_VMA:
		/* with V=1 it is HFENCE.VVMA for the guest: VU and VS under
		 * hstatus.VTVM make it virtual */
		if (vu || (vs && (hs & HS_VTVM)))
			return HART_VIRTUAL_INSN;
		if (h->priv == PRIV_U || (h->priv == PRIV_S && !h->virt && (ms & MS_TVM)))
			return -1;
		hart_sfence_vma(h);
		h->pc += len;
		return 0;
	}
	return -1;
}

void hart_sfence_vma(struct hart *h)
{
	mmu_flush(h);
	if (h->uarch)
		uarch_sfence_vma(h->uarch);
}

/* The time CSR: with V=1, htimedelta is added (Hypervisor "htimedelta") */
static uint64_t pmu_time(void *ctx)
{
	const struct hart *h = ctx;
	return hart_time(h) + (h->virt ? h->csr.htimedelta : 0);
}

void hart_pmu_init(struct hart *h, const struct pmu_config *cfg)
{
	struct pmu_config c = *cfg;
	c.time_read = pmu_time;
	c.time_ctx = h;
	pmu_init(&h->pmu, &c);
	h->pmu_synced = h->instret;
	h->lcofi_at = ~0ull;
	h->cycle_stop = UINT64_MAX;
	h->skid = 2;
}

uint64_t hart_horizon(struct hart *h)
{
	if (!h->uarch) {   /* cycles are instructions: the horizon is exact */
		h->cycle_stop = UINT64_MAX;
		uint64_t steps = pmu_horizon(&h->pmu, hart_mode(h));
		if (h->host_pmu) {
			uint64_t hs = pmu_horizon(h->host_pmu, hart_mode(h));
			steps = hs < steps ? hs : steps;
		}
		return steps;
	}
	uint64_t cycles, steps = pmu_horizon_cycles(&h->pmu, hart_mode(h), &cycles);
	if (h->host_pmu) {   /* the nearer of the two PMUs' stops */
		uint64_t hc, hs = pmu_horizon_cycles(h->host_pmu, hart_mode(h), &hc);
		steps = hs < steps ? hs : steps;
		cycles = hc < cycles ? hc : cycles;
	}
	const uint64_t now = h->uarch->tm.now;
	h->cycle_stop = cycles > UINT64_MAX - now ? UINT64_MAX : now + cycles;
	return steps;
}

void hart_set_h(struct hart *h, int on)
{
	h->has_h = (uint8_t)on;
	h->virt = 0;
	h->csr.misa = (h->csr.misa & ~(1ull << ('H' - 'A'))) | (on ? 1ull << ('H' - 'A') : 0);
	/* mideleg's VS bits are read-only one with H (GEILEN = 0: SGEI 0) */
	h->csr.mideleg = on ? h->csr.mideleg | HYP_VS_IRQS : h->csr.mideleg & ~HYP_VS_IRQS;
}

void hart_reset_system(struct hart *h, uint64_t pc)
{
	struct hart_csrs *c = &h->csr;
	h->system = 1;
	h->priv = PRIV_M;
	h->virt = 0;
	h->pc = pc;
	/* RV64 with I M A F D C S U (misa letters are bits 'X' - 'A') */
	c->misa = 2ull << 62;
	for (const char *e = "IMAFDCSU"; *e; e++)
		c->misa |= 1ull << (*e - 'A');
	hart_update_mstatus(h, 0);
	/* PMP entries reset to off and unlocked: S and U can reach nothing */
	memset(c->pmpcfg, 0, sizeof(c->pmpcfg));
	pmp_update(h);
	/* counters: the PMU resets to zero with no counter enabled below M */
	struct pmu_config cfg;
	pmu_config_default(&cfg);
	hart_pmu_init(h, &cfg);
}
