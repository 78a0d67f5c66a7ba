/* What the built-in firmware's files share. */
#ifndef RVPMU_SBI_INTERNAL_H
#define RVPMU_SBI_INTERNAL_H
#include "rvpmu/machine.h"

enum {
	EID_LEGACY_PUTCHAR = 0x01, EID_LEGACY_GETCHAR = 0x02, EID_LEGACY_SHUTDOWN = 0x08,
	EID_BASE = 0x10, EID_TIME = 0x54494d45, EID_IPI = 0x735049, EID_RFENCE = 0x52464e43,
	EID_HSM = 0x48534d, EID_SRST = 0x53525354, EID_PMU = 0x504d55, EID_DBCN = 0x4442434e,
};

#define MIP(irq) (1ull << (irq))

/* Hart h's PMU state. */
static inline struct sbi_state *sbi_of(struct machine *m, const struct hart *h)
{
	return &m->sbi[machine_hart_index(m, h)];
}

/* Enter S-mode at pc with a0 = hartid, a1 = arg, satp = 0 and interrupts
 * off in S, as hart_start and the boot hart's first entry do. */
void sbi_enter_s(struct hart *h, uint64_t pc, unsigned hartid, uint64_t arg);
/* The HSM, IPI and RFENCE extensions (harts.c). */
long sbi_harts_call(struct machine *m, struct hart *h, long eid, long fid, const uint64_t *a,
		    uint64_t *value);
/* Hart h's machine software interrupt: what other harts asked of it. */
void sbi_ipi_receive(struct machine *m, struct hart *h);

#endif
