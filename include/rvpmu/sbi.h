/* rvpmu's built-in M-mode firmware: an SBI 3.0 implementation in C. It
 * runs where M-mode firmware would, when a trap targets M, and reaches
 * the hardware only as firmware would: PMU and trap CSRs through CSR
 * accesses at M privilege, devices through their registers. */
#ifndef RVPMU_SBI_H
#define RVPMU_SBI_H
#include <stdint.h>

struct machine;

#define SBI_FW_COUNTERS 16

/* SBI error codes (SBI spec, "Standard SBI Errors") */
enum {
	SBI_SUCCESS = 0, SBI_ERR_FAILED = -1, SBI_ERR_NOT_SUPPORTED = -2,
	SBI_ERR_INVALID_PARAM = -3, SBI_ERR_DENIED = -4, SBI_ERR_INVALID_ADDRESS = -5,
	SBI_ERR_ALREADY_AVAILABLE = -6, SBI_ERR_ALREADY_STARTED = -7,
	SBI_ERR_ALREADY_STOPPED = -8, SBI_ERR_NO_SHMEM = -9,
};

/* Firmware events (SBI PMU, event type 15). */
enum sbi_fw_event {
	SBI_FW_MISALIGNED_LOAD, SBI_FW_MISALIGNED_STORE, SBI_FW_ACCESS_LOAD,
	SBI_FW_ACCESS_STORE, SBI_FW_ILLEGAL_INSN, SBI_FW_SET_TIMER,
	SBI_FW_IPI_SENT, SBI_FW_IPI_RECEIVED, SBI_FW_FENCE_I_SENT,
	SBI_FW_FENCE_I_RECEIVED, SBI_FW_SFENCE_VMA_SENT, SBI_FW_SFENCE_VMA_RECEIVED,
	SBI_FW_SFENCE_VMA_ASID_SENT, SBI_FW_SFENCE_VMA_ASID_RECEIVED,
	SBI_FW_HFENCE_GVMA_SENT, SBI_FW_HFENCE_GVMA_RECEIVED,
	SBI_FW_HFENCE_GVMA_VMID_SENT, SBI_FW_HFENCE_GVMA_VMID_RECEIVED,
	SBI_FW_HFENCE_VVMA_SENT, SBI_FW_HFENCE_VVMA_RECEIVED,
	SBI_FW_HFENCE_VVMA_ASID_SENT, SBI_FW_HFENCE_VVMA_ASID_RECEIVED,
	SBI_FW_EVENT_MAX,       /* 22 */
};

struct sbi_counter {
	uint32_t event_idx;     /* 0 = not mapped */
	uint64_t event_data;
	/* firmware counters only */
	int started;
	uint64_t value;
};

struct profile;

struct sbi_state {
	const struct profile *prof;  /* event map; NULL: selector = event_idx */
	unsigned num_hw;        /* hardware counter ids 0 .. num_hw-1 */
	struct sbi_counter ctr[32 + SBI_FW_COUNTERS];
	uint64_t shmem;         /* snapshot area, ~0 = none */
	int no_snapshot;        /* snapshot_set_shmem is not supported */
	uint64_t fw_events[SBI_FW_EVENT_MAX];  /* occurrences since boot */
};

/* HSM states (SBI spec, "Hart State Management Extension"). */
enum sbi_hsm_state {
	SBI_HSM_STARTED, SBI_HSM_STOPPED, SBI_HSM_START_PENDING, SBI_HSM_STOP_PENDING,
	SBI_HSM_SUSPENDED, SBI_HSM_SUSPEND_PENDING, SBI_HSM_RESUME_PENDING,
};

/* The kinds of remote fence asked of a hart, done when its software
 * interrupt comes (RFENCE extension, as OpenSBI does them through IPIs),
 * in the order of the RFENCE function ids (3-6 need the H extension). */
enum {
	SBI_RFENCE_I, SBI_RFENCE_VMA, SBI_RFENCE_VMA_ASID, SBI_RFENCE_HFENCE_GVMA_VMID,
	SBI_RFENCE_HFENCE_GVMA, SBI_RFENCE_HFENCE_VVMA_ASID, SBI_RFENCE_HFENCE_VVMA,
	SBI_RFENCE_KINDS
};

/* The firmware's view of one hart besides its PMU. */
struct sbi_hart {
	enum sbi_hsm_state hsm;
	uint64_t start_addr, opaque;   /* hart_start and non-retentive suspend */
	int suspended;                 /* waits in hart_suspend: 1 retentive,
	                                  2 non-retentive */
	uint32_t rfence[SBI_RFENCE_KINDS];   /* requests of each kind not
	                                        done yet */
	int ipi;                       /* an S software interrupt to raise */
};

struct hart;
/* Set up M-mode state (delegation, counter enables) on every hart and
 * enter the S-mode payload at entry on hart 0 with a0 = hartid, a1 =
 * dtb; the other harts are STOPPED until hart_start. */
void sbi_boot(struct machine *m, uint64_t entry, uint64_t dtb);
/* A trap of hart h that targets M-mode: the firmware handles it (SBI
 * call, timer, software interrupt, or redirect to S) and returns to S or
 * U. */
void sbi_trap(struct machine *m, struct hart *h, uint64_t cause, uint64_t tval, int irq);
/* Can hart h run (not stopped, not suspended)? HSM moves a hart whose
 * start or resume is pending into S-mode here. */
int sbi_hart_runs(struct machine *m, struct hart *h);

/* The PMU extension on one hart: what an ecall with EID 0x504D55 does.
 * User mode's host tool calls it directly, as Linux's driver would ecall. */
long sbi_pmu_call(struct sbi_state *s, struct hart *h, unsigned fid, const uint64_t *a,
		  uint64_t *value);
void sbi_pmu_init(struct sbi_state *s, struct hart *h);
/* A firmware event happened (counted by started firmware counters). */
void sbi_fw_event(struct sbi_state *s, enum sbi_fw_event e);

#endif
