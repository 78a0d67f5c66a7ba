/* Built-in SBI: boot into S-mode, the trap handler, and the Base, TIME,
 * SRST and DBCN extensions (SBI spec 3.0). PMU is in pmu.c; HSM, IPI and
 * RFENCE, which reach other harts, in harts.c. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/isa.h"
#include "rvpmu/machine.h"
#include "rvpmu/sbi.h"
#include "internal.h"
#include "mcsr.h"

#define SBI_SPEC_VERSION 0x03000000ul   /* 3.0 */
#define SBI_IMPL_ID      0x7276706dul   /* "rvpm": not an allocated ID */
#define SBI_IMPL_VERSION 1


static const long implemented[] = {
	EID_BASE, EID_TIME, EID_IPI, EID_RFENCE, EID_HSM, EID_SRST, EID_PMU, EID_DBCN,
	EID_LEGACY_PUTCHAR, EID_LEGACY_GETCHAR, EID_LEGACY_SHUTDOWN,
};


void sbi_fw_event(struct sbi_state *s, enum sbi_fw_event e)
{
	s->fw_events[e]++;
	for (unsigned i = s->num_hw; i < s->num_hw + SBI_FW_COUNTERS; i++)
		if (s->ctr[i].started && s->ctr[i].event_idx == (0xf0000u | e))
			s->ctr[i].value++;
}

/* M-mode state of one hart as OpenSBI leaves it for the payload. */
static void hart_setup(struct machine *m, struct hart *h)
{
	struct sbi_state *s = sbi_of(m, h);
	memset(s, 0, sizeof(*s));
	s->prof = m->o.profile;
	s->no_snapshot = m->o.sbi_no_snapshot;
	/* delegate what an OS handles itself, as OpenSBI does: misaligned
	 * fetch, breakpoint, U-mode ecall and page faults; with H also
	 * VS-mode ecalls, guest-page faults and virtual instructions, which
	 * the hypervisor handles (WARL drops them without H); S interrupts */
	wr(h, 0x302, HART_CSR_WRITE, 1u << 0 | 1u << 3 | 1u << 8 | 1u << 12 | 1u << 13 | 1u << 15 |
	   1u << 10 | 0xfu << 20);
	wr(h, 0x303, HART_CSR_WRITE, MIP(IRQ_SSI) | MIP(IRQ_STI) | MIP(IRQ_SEI) | MIP(IRQ_LCOFI));
	/* mie: the software interrupt other harts' IPIs and fences come by */
	wr(h, 0x304, HART_CSR_SET, MIP(IRQ_MSI));
	wr(h, 0x306, HART_CSR_WRITE, 0xffffffff);   /* mcounteren: S may read all */
	/* menvcfg as OpenSBI's mstatus_init sets it for the extensions the
	 * hart has: CBZE, CBCFE, CBIE = 3, PBMTE, STCE, CDE (WARL drops the
	 * bits of absent extensions; ADUE and DTE stay 0, its default) */
	wr(h, 0x30a, HART_CSR_WRITE, 1ull << 7 | 1ull << 6 | 3ull << 4 | 1ull << 62 | 1ull << 63 |
	   1ull << 60);
	/* With H, OpenSBI clears hstatus and leaves henvcfg to the
	 * hypervisor (it never writes it), as here: both stay at reset. */
	if (rd(h, 0x301) >> 7 & 1)
		wr(h, 0x600, HART_CSR_WRITE, 0);
	/* Smstateen: OpenSBI opens STATEN, ENVCFG (henvcfg/senvcfg),
	 * CONTEXT, and AIA, IMSIC, SVSLCT, CTR and SRMCFG where their
	 * extensions exist; mstateen1-3 get STATEN alone. A hart without
	 * Smstateen rejects the writes (OpenSBI probes the CSR first); the
	 * bits of absent features are read-only zero, as the spec has them. */
	wr(h, 0x30c, HART_CSR_WRITE, 1ull << 63 | 1ull << 62 | 1ull << 57 | 1ull << 58 |
	   1ull << 59 | 1ull << 60 | 1ull << 54 | 1ull << 55);
	for (unsigned k = 1; k < 4; k++)
		wr(h, 0x30c + k, HART_CSR_WRITE, 1ull << 63);
	/* PMP: S and U may reach all of memory (the firmware itself lives
	 * outside the guest's address space, so nothing needs guarding) */
	wr(h, 0x3b0, HART_CSR_WRITE, ~0ull);         /* pmpaddr0: NAPOT, everything */
	wr(h, 0x3a0, HART_CSR_WRITE, 0x1f);          /* pmpcfg0: A = NAPOT, RWX */
	sbi_pmu_init(s, h);
}

void sbi_boot(struct machine *m, uint64_t entry, uint64_t dtb)
{
	memset(m->sbih, 0, sizeof(m->sbih));
	for (unsigned i = 0; i < m->nharts; i++) {
		hart_setup(m, &m->hart[i]);
		m->sbih[i].hsm = i ? SBI_HSM_STOPPED : SBI_HSM_STARTED;
	}
	/* hart 0 "mret"s into the payload in S-mode */
	sbi_enter_s(&m->hart[0], entry, 0, dtb);
}

/* Send a trap on to S-mode as if the firmware had redirected it. */
static void redirect(struct hart *h, uint64_t cause, uint64_t tval)
{
	hart_enter_trap(h, cause, tval, 0, PRIV_S);
}

static long ecall(struct machine *m, struct hart *h, long eid, long fid, const uint64_t *a,
		  uint64_t *value)
{
	unsigned id = machine_hart_index(m, h);
	*value = 0;
	switch (eid) {
	case EID_BASE:
		switch (fid) {
		case 0: *value = SBI_SPEC_VERSION; return SBI_SUCCESS;
		case 1: *value = SBI_IMPL_ID; return SBI_SUCCESS;
		case 2: *value = SBI_IMPL_VERSION; return SBI_SUCCESS;
		case 3:
			for (size_t i = 0; i < sizeof(implemented) / sizeof(implemented[0]); i++)
				if ((long)a[0] == implemented[i])
					*value = 1;
			return SBI_SUCCESS;
		case 4: *value = rd(h, 0xf11); return SBI_SUCCESS;
		case 5: *value = rd(h, 0xf12); return SBI_SUCCESS;
		case 6: *value = rd(h, 0xf13); return SBI_SUCCESS;
		}
		return SBI_ERR_NOT_SUPPORTED;
	case EID_TIME:
		if (fid != 0)
			return SBI_ERR_NOT_SUPPORTED;
		/* set_timer: the next STI is due at a0; a pending one is cleared.
		 * With Sstc on, stimecmp is the supervisor's timer itself. */
		if (hart_stce(h)) {
			wr(h, 0x14d, HART_CSR_WRITE, a[0]);
		} else {
			m->clint.mtimecmp[id] = a[0];
			wr(h, 0x344, HART_CSR_CLEAR, MIP(IRQ_STI));
			wr(h, 0x304, HART_CSR_SET, MIP(IRQ_MTI));
		}
		sbi_fw_event(&m->sbi[id], SBI_FW_SET_TIMER);
		return SBI_SUCCESS;
	case EID_IPI:
	case EID_RFENCE:
	case EID_HSM:
		return sbi_harts_call(m, h, eid, fid, a, value);
	case EID_SRST:
		if (fid != 0)
			return SBI_ERR_NOT_SUPPORTED;
		if ((uint32_t)a[0] > 2 && (uint32_t)a[0] < 0xf0000000u)
			return SBI_ERR_INVALID_PARAM;
		if ((uint32_t)a[1] > 1 && (uint32_t)a[1] < 0xe0000000u)
			return SBI_ERR_INVALID_PARAM;
		if ((uint32_t)a[0] >= 0xf0000000u)
			return SBI_ERR_NOT_SUPPORTED;
		if ((uint32_t)a[0] == 0) {   /* shutdown: reason 1 = system failure */
			m->finished = 1;
			m->exit_code = (uint32_t)a[1] == 0 ? 0 : 1;
		} else {
			m->reset = 1;        /* cold or warm reboot */
		}
		return SBI_SUCCESS;
	case EID_DBCN: {
		if (fid == 2) {
			fputc((int)(a[0] & 0xff), m->uart.out);
			fflush(m->uart.out);
			return SBI_SUCCESS;
		}
		if (fid > 2)
			return SBI_ERR_NOT_SUPPORTED;
		if (a[2] != 0 || !gmem_check(&h->mem, a[1], a[0], fid == 0 ? GP_R : GP_W))
			return SBI_ERR_INVALID_PARAM;
		if (fid == 0) {
			fwrite(h->mem.base + a[1], 1, a[0], m->uart.out);
			fflush(m->uart.out);
			*value = a[0];
		}
		return SBI_SUCCESS;  /* read: no console input, 0 bytes */
	}
	case EID_PMU:
		return sbi_pmu_call(&m->sbi[id], h, (unsigned)fid, a, value);
	}
	return SBI_ERR_NOT_SUPPORTED;
}

/* The legacy extensions (SBI v0.1) return their result in a0 only. */
static int legacy(struct machine *m, struct hart *h, long eid, const uint64_t *a)
{
	switch (eid) {
	case EID_LEGACY_PUTCHAR:
		fputc((int)(a[0] & 0xff), m->uart.out);
		fflush(m->uart.out);
		h->x[10] = 0;
		return 1;
	case EID_LEGACY_GETCHAR:
		h->x[10] = (uint64_t)-1;
		return 1;
	case EID_LEGACY_SHUTDOWN:
		m->finished = 1;
		m->exit_code = 0;
		return 1;
	}
	return 0;
}

/* --trace-sbi: one line per call, so kernel developers see what their
 * driver asked for and what the firmware answered */
static const char *ext_name(long eid)
{
	switch (eid) {
	case EID_BASE: return "BASE";
	case EID_TIME: return "TIME";
	case EID_IPI: return "IPI";
	case EID_RFENCE: return "RFENCE";
	case EID_HSM: return "HSM";
	case EID_SRST: return "SRST";
	case EID_PMU: return "PMU";
	case EID_DBCN: return "DBCN";
	}
	return NULL;
}

static void trace_call(const struct machine *m, const struct hart *h, long eid, long fid,
		       const uint64_t *a, long err, uint64_t value)
{
	static const char *const pmu_fn[] = {
		"num_counters", "counter_get_info", "counter_config_matching",
		"counter_start", "counter_stop", "counter_fw_read", "counter_fw_read_hi",
		"snapshot_set_shmem", "event_get_info",
	};
	const char *e = ext_name(eid);
	char fn[24];
	if (eid == EID_PMU && fid >= 0 && fid < (long)(sizeof(pmu_fn) / sizeof(pmu_fn[0])))
		snprintf(fn, sizeof fn, "%s", pmu_fn[fid]);
	else
		snprintf(fn, sizeof fn, "fid %ld", fid);
	if (e)
		fprintf(stderr, "sbi: %s.%s", e, fn);
	else
		fprintf(stderr, "sbi: eid %#lx.%s", (unsigned long)eid, fn);
	fprintf(stderr, "(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx) = %ld",
		(unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2],
		(unsigned long long)a[3], (unsigned long long)a[4], (unsigned long long)a[5], err);
	if (err == SBI_SUCCESS)
		fprintf(stderr, ", %#llx", (unsigned long long)value);
	if (m->nharts > 1)
		fprintf(stderr, " on hart %u", machine_hart_index(m, h));
	fprintf(stderr, " at instret %llu\n", (unsigned long long)h->instret);
}

/* A misaligned load or store from S or U, done byte by byte as OpenSBI
 * does. 1 when handled (done, or a fault of its bytes passed on to S), 0
 * to pass the misaligned exception itself on. */
static int emulate_misaligned(struct machine *m, struct hart *h, uint64_t cause, uint64_t addr)
{
	uint64_t bad, v = 0;
	uint16_t half[2] = {0, 0};
	if (hart_vaccess(h, h->pc, &half[0], 2, HART_V_FETCH, hart_mode(h), &bad) ||
	    ((half[0] & 3) == 3 && hart_vaccess(h, h->pc + 2, &half[1], 2, HART_V_FETCH, hart_mode(h), &bad)))
		return 0;
	struct dinsn d;
	insn_decode(half[0] | (uint32_t)half[1] << 16, &d);
	unsigned size = 0, sign = 0, fp = 0;
	switch (d.id) {
	case INSN_LH: sign = 1; /* fallthrough */
	case INSN_LHU: case INSN_SH: size = 2; break;
	case INSN_LW: sign = 1; /* fallthrough */
	case INSN_LWU: case INSN_SW: size = 4; break;
	case INSN_LD: case INSN_SD: size = 8; break;
	case INSN_FLW: case INSN_FSW: size = 4; fp = 1; break;
	case INSN_FLD: case INSN_FSD: size = 8; fp = 1; break;
	default: return 0;
	}
	int store = cause == CAUSE_MISALIGNED_STORE;
	if (store)
		v = fp ? h->f[d.rs2] : h->x[d.rs2];
	int c = hart_vaccess(h, addr, &v, size, store ? HART_V_STORE : HART_V_LOAD, hart_mode(h), &bad);
	if (c) {
		redirect(h, (uint64_t)c, bad);
		return 1;
	}
	if (!store) {
		unsigned shift = 64 - 8 * size;
		if (sign)
			v = (uint64_t)((int64_t)(v << shift) >> shift);
		if (fp) {
			h->f[d.rd] = size == 4 ? 0xffffffff00000000ull | v : v;  /* NaN-boxed */
			wr(h, 0x300, HART_CSR_SET, 3ull << 13);                  /* FS = Dirty */
		} else {
			h->x[d.rd] = v;
		}
	}
	h->pc += d.len;
	sbi_fw_event(sbi_of(m, h), store ? SBI_FW_MISALIGNED_STORE : SBI_FW_MISALIGNED_LOAD);
	return 1;
}

void sbi_trap(struct machine *m, struct hart *h, uint64_t cause, uint64_t tval, int irq)
{
	struct sbi_state *s = sbi_of(m, h);
	m->cur = h;
	if (irq) {
		if (cause == IRQ_MTI) {
			/* the timer is the supervisor's: pass it on as STIP */
			wr(h, 0x304, HART_CSR_CLEAR, MIP(IRQ_MTI));
			wr(h, 0x344, HART_CSR_SET, MIP(IRQ_STI));
		} else if (cause == IRQ_MSI) {
			sbi_ipi_receive(m, h);
		}
		return;
	}
	switch (cause) {
	case CAUSE_SUPERVISOR_ECALL: {
		uint64_t *x = h->x, value;
		const uint64_t a[6] = {x[10], x[11], x[12], x[13], x[14], x[15]};
		long eid = (long)(int32_t)x[17], fid = (long)(int32_t)x[16];
		h->pc += 4;
		if (legacy(m, h, eid, a))
			return;
		long err = ecall(m, h, eid, fid, a, &value);
		if (m->o.sbi_trace)
			trace_call(m, h, eid, fid, a, err, value);
		x[10] = (uint64_t)err;
		if (err == SBI_SUCCESS)
			x[11] = value;
		return;
	}
	case CAUSE_ILLEGAL_INSN: sbi_fw_event(s, SBI_FW_ILLEGAL_INSN); break;
	case CAUSE_LOAD_ACCESS: sbi_fw_event(s, SBI_FW_ACCESS_LOAD); break;
	case CAUSE_STORE_ACCESS: sbi_fw_event(s, SBI_FW_ACCESS_STORE); break;
	case CAUSE_MISALIGNED_LOAD:
	case CAUSE_MISALIGNED_STORE:
		if (emulate_misaligned(m, h, cause, tval))
			return;
		break;
	}
	redirect(h, cause, tval);
}
