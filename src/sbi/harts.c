/* HSM, IPI and RFENCE: the SBI extensions that reach other harts (SBI
 * spec 3.0), done as OpenSBI does them. A request to another hart is
 * noted in that hart's firmware state and its CLINT msip raised; the
 * hart acts on it when it takes that machine software interrupt, which
 * is before it runs anything else (sched.c delivers interrupts at the
 * start of a turn), so a remote fence has taken effect before its target
 * runs again, as OpenSBI's wait for the target guarantees.
 *
 * The hypervisor fences (FIDs 3-6) go the same way as SFENCE.VMA; as
 * with OpenSBI, start_addr and size are not checked (no INVALID_ADDRESS).
 * Firmware events are counted where OpenSBI counts them: an RFENCE
 * call's ..._SENT once on the caller, even when its hart list is
 * invalid; IPI_SENT on the caller for each other hart it signals; a fence's ..._RECEIVED once per request on each
 * hart that does it, the caller included when it is a target;
 * IPI_RECEIVED once per fence request and once for S-mode IPIs that
 * arrive without one (sbi_ipi_receive). An IPI a hart sends itself sets
 * its own SSIP and counts nothing, as OpenSBI 1.4 and later run it in
 * place (1.1 sends it through the hart's own msip and counts it sent and
 * received). */
#include "internal.h"
#include "mcsr.h"

void sbi_enter_s(struct hart *h, uint64_t pc, unsigned hartid, uint64_t arg)
{
	wr(h, 0x180, HART_CSR_WRITE, 0);          /* satp: Bare */
	wr(h, 0x100, HART_CSR_CLEAR, MIP(1));     /* sstatus.SIE */
	h->priv = PRIV_S;
	h->pc = pc;
	h->x[10] = hartid;
	h->x[11] = arg;
}

/* Can S-mode execute at physical address pc (it starts with satp = 0)? */
static int s_executable(struct hart *h, uint64_t pc)
{
	return !(pc & 1) && gmem_check(&h->mem, pc, 2, GP_X);
}

/* Hart h's S software interrupt, as an IPI sets it. */
static void raise_ssi(struct hart *h)
{
	wr(h, 0x344, HART_CSR_SET, MIP(IRQ_SSI));
}

/* Harts an IPI or a fence can reach: those running or suspended (OpenSBI's
 * interruptible harts). */
static int interruptible(const struct machine *m, unsigned i)
{
	enum sbi_hsm_state s = m->sbih[i].hsm;
	return s == SBI_HSM_STARTED || s == SBI_HSM_SUSPENDED || s == SBI_HSM_RESUME_PENDING;
}

/* The harts a hart_mask/hart_mask_base pair names (SBI "Hart list"),
 * as a mask of indices: INVALID_PARAM when one is not a hart of the
 * machine; base = -1 names every hart. */
static long hart_list(const struct machine *m, uint64_t mask, uint64_t base, uint64_t *set)
{
	uint64_t all = (1ull << m->nharts) - 1;
	*set = base == ~0ull ? all : 0;
	if (base == ~0ull || !mask)
		return SBI_SUCCESS;   /* no hart named: nothing to do, as OpenSBI */
	if (base >= m->nharts || (mask << base) >> base != mask || ((mask << base) & ~all))
		return SBI_ERR_INVALID_PARAM;
	*set = mask << base;
	return SBI_SUCCESS;
}

/* Signal hart t's machine software interrupt from hart h (t != h). */
static void signal(struct machine *m, struct hart *h, unsigned t)
{
	m->clint.msip[t] = 1;
	sbi_fw_event(sbi_of(m, h), SBI_FW_IPI_SENT);
}

/* The fences asked of hart h, done, each request counted; returns how
 * many requests there were. */
static unsigned do_fences(struct machine *m, struct hart *h)
{
	static const enum sbi_fw_event received[SBI_RFENCE_KINDS] = {
		SBI_FW_FENCE_I_RECEIVED, SBI_FW_SFENCE_VMA_RECEIVED, SBI_FW_SFENCE_VMA_ASID_RECEIVED,
		SBI_FW_HFENCE_GVMA_VMID_RECEIVED, SBI_FW_HFENCE_GVMA_RECEIVED,
		SBI_FW_HFENCE_VVMA_ASID_RECEIVED, SBI_FW_HFENCE_VVMA_RECEIVED,
	};
	uint32_t *pending = m->sbih[machine_hart_index(m, h)].rfence;
	unsigned n = 0;
	/* fence.i: fetches are coherent already; the modelled L1I is not,
	 * and goes as OpenSBI's FENCE.I on this hart would flush it */
	if (pending[SBI_RFENCE_I] && h->uarch)
		uarch_fence_i(h->uarch);
	/* sfence.vma and the hfences: the whole TLB, more than asked, as
	 * allowed (the soft TLB keys every translation by V, so this drops
	 * G-stage and VS-stage ones alike, as HFENCE.GVMA/VVMA with x0 would);
	 * OpenSBI's HFENCE.VVMA runs under the caller's VMID, which the
	 * whole flush covers */
	for (unsigned k = SBI_RFENCE_VMA; k < SBI_RFENCE_KINDS; k++)
		if (pending[k]) {
			hart_sfence_vma(h);
			break;
		}
	for (unsigned k = 0; k < SBI_RFENCE_KINDS; k++)
		for (; pending[k]; pending[k]--, n++)
			sbi_fw_event(sbi_of(m, h), received[k]);
	return n;
}

/* What hart h's machine software interrupt brings: remote fences first,
 * then the S software interrupt. IPI_RECEIVED counts each fence request
 * as an IPI of its own, as with OpenSBI, whose caller waits until the
 * target has done one before it asks the next; S-mode IPIs that came
 * together (alone, or with fences) are one, as the msip bit holds one. */
void sbi_ipi_receive(struct machine *m, struct hart *h)
{
	unsigned id = machine_hart_index(m, h);
	m->clint.msip[id] = 0;
	unsigned n = do_fences(m, h);
	for (unsigned i = 0; i < (n ? n : 1); i++)
		sbi_fw_event(sbi_of(m, h), SBI_FW_IPI_RECEIVED);
	if (m->sbih[id].ipi)
		raise_ssi(h);
	m->sbih[id].ipi = 0;
}

static long send_ipi(struct machine *m, struct hart *h, uint64_t set)
{
	unsigned self = machine_hart_index(m, h);
	for (unsigned t = 0; t < m->nharts; t++) {
		if (!(set >> t & 1) || !interruptible(m, t))
			continue;
		if (t == self) {
			raise_ssi(h);
			continue;
		}
		m->sbih[t].ipi = 1;
		signal(m, h, t);
	}
	return SBI_SUCCESS;
}

static long rfence(struct machine *m, struct hart *h, long fid, uint64_t set)
{
	unsigned self = machine_hart_index(m, h);
	for (unsigned t = 0; t < m->nharts; t++) {
		if (!(set >> t & 1) || !interruptible(m, t))
			continue;
		m->sbih[t].rfence[fid]++;
		if (t == self)
			do_fences(m, h);   /* in place, as OpenSBI */
		else
			signal(m, h, t);
	}
	return SBI_SUCCESS;
}

/* hart_suspend's types (SBI spec, HSM "suspend types"): 1 retentive, 2
 * non-retentive, else the error for the type. */
static long suspend_kind(uint32_t type)
{
	if (type == 0)
		return 1;
	if (type == 0x80000000u)
		return 2;
	if (type < 0x10000000u || (type > 0x80000000u && type < 0x90000000u))
		return SBI_ERR_INVALID_PARAM;   /* reserved */
	return SBI_ERR_NOT_SUPPORTED;           /* platform-specific: none here */
}

static long hsm(struct machine *m, struct hart *h, long fid, const uint64_t *a, uint64_t *value)
{
	unsigned self = machine_hart_index(m, h);
	struct sbi_hart *sh = &m->sbih[self];
	switch (fid) {
	case 0: {   /* hart_start(hartid, start_addr, opaque) */
		if (a[0] >= m->nharts)
			return SBI_ERR_INVALID_PARAM;
		struct sbi_hart *t = &m->sbih[a[0]];
		if (t->hsm == SBI_HSM_STARTED)
			return SBI_ERR_ALREADY_AVAILABLE;
		if (t->hsm != SBI_HSM_STOPPED)
			return SBI_ERR_INVALID_PARAM;   /* as OpenSBI: in transition */
		if (!s_executable(h, a[1]))
			return SBI_ERR_INVALID_ADDRESS;
		t->hsm = SBI_HSM_START_PENDING;
		t->start_addr = a[1];
		t->opaque = a[2];
		return SBI_SUCCESS;
	}
	case 1:     /* hart_stop(): returns only when it fails */
		sh->hsm = SBI_HSM_STOPPED;
		return SBI_SUCCESS;
	case 2:     /* hart_get_status(hartid) */
		if (a[0] >= m->nharts)
			return SBI_ERR_INVALID_PARAM;
		*value = m->sbih[a[0]].hsm;
		return SBI_SUCCESS;
	case 3: {   /* hart_suspend(suspend_type, resume_addr, opaque) */
		long k = suspend_kind((uint32_t)a[0]);
		if (k < 0)
			return k;
		if (k == 2 && !s_executable(h, a[1]))
			return SBI_ERR_INVALID_ADDRESS;
		/* it waits from here (sched.c) until an interrupt it has
		 * enabled is pending; then a retentive suspend returns as
		 * from this call, a non-retentive one starts at resume_addr */
		sh->suspended = (int)k;
		sh->hsm = SBI_HSM_SUSPENDED;
		sh->start_addr = a[1];
		sh->opaque = a[2];
		return SBI_SUCCESS;
	}
	}
	return SBI_ERR_NOT_SUPPORTED;
}

static const enum sbi_fw_event rfence_sent[SBI_RFENCE_KINDS] = {
	SBI_FW_FENCE_I_SENT, SBI_FW_SFENCE_VMA_SENT, SBI_FW_SFENCE_VMA_ASID_SENT,
	SBI_FW_HFENCE_GVMA_VMID_SENT, SBI_FW_HFENCE_GVMA_SENT,
	SBI_FW_HFENCE_VVMA_ASID_SENT, SBI_FW_HFENCE_VVMA_SENT,
};

long sbi_harts_call(struct machine *m, struct hart *h, long eid, long fid, const uint64_t *a,
		    uint64_t *value)
{
	uint64_t set;
	long err;
	switch (eid) {
	case EID_IPI:
		if (fid != 0)
			return SBI_ERR_NOT_SUPPORTED;
		if ((err = hart_list(m, a[0], a[1], &set)))
			return err;
		return send_ipi(m, h, set);
	case EID_RFENCE:
		if (fid < 0 || fid >= SBI_RFENCE_KINDS)
			return SBI_ERR_NOT_SUPPORTED;
		/* the hfences (FIDs 3-6) need H; the harts share one core,
		 * so the caller's misa.H answers for every target. Checked
		 * before the hart list, as OpenSBI does. */
		if (fid >= SBI_RFENCE_HFENCE_GVMA_VMID && !(rd(h, 0x301) >> 7 & 1))
			return SBI_ERR_NOT_SUPPORTED;
		/* ..._SENT counts every call, before the hart list is
		 * checked, as OpenSBI's sbi_tlb_request counts it */
		sbi_fw_event(sbi_of(m, h), rfence_sent[fid]);
		if ((err = hart_list(m, a[0], a[1], &set)))
			return err;
		return rfence(m, h, fid, set);
	case EID_HSM:
		return hsm(m, h, fid, a, value);
	}
	return SBI_ERR_NOT_SUPPORTED;
}

int sbi_hart_runs(struct machine *m, struct hart *h)
{
	if (!m->builtin_sbi)
		return 1;   /* the firmware in RAM keeps its own harts */
	unsigned id = machine_hart_index(m, h);
	struct sbi_hart *sh = &m->sbih[id];
	switch (sh->hsm) {
	case SBI_HSM_START_PENDING:
		sbi_enter_s(h, sh->start_addr, id, sh->opaque);
		sh->hsm = SBI_HSM_STARTED;
		return 1;
	case SBI_HSM_SUSPENDED:
		/* an interrupt pending and enabled resumes it: after the
		 * call (retentive), or at resume_addr as if started there */
		h->mip_hw = machine_irq_lines(m, h);
		if (!hart_wakes(h))
			return 0;
		if (sh->suspended == 2)
			sbi_enter_s(h, sh->start_addr, id, sh->opaque);
		sh->hsm = SBI_HSM_STARTED;
		sh->suspended = 0;
		return 1;
	case SBI_HSM_STARTED:
		return 1;
	default:
		return 0;
	}
}
