/* Canonical events and the default ("virt") mhpmevent selector decoder. */
#include "internal.h"

static const char *const names[PMU_EV_COUNT] = {
	[PMU_EV_NONE] = "none", [PMU_EV_CYCLES] = "cycles",
	[PMU_EV_INSTRET] = "instructions", [PMU_EV_LOAD] = "loads",
	[PMU_EV_STORE] = "stores", [PMU_EV_BRANCH] = "branches",
	[PMU_EV_BRANCH_TAKEN] = "branches-taken", [PMU_EV_JAL] = "jal",
	[PMU_EV_JALR] = "jalr", [PMU_EV_CALL] = "calls", [PMU_EV_RET] = "returns",
	[PMU_EV_INT_MUL] = "int-mul", [PMU_EV_INT_DIV] = "int-div",
	[PMU_EV_FP] = "fp-ops", [PMU_EV_ATOMIC] = "atomics",
	[PMU_EV_CSR] = "csr-accesses", [PMU_EV_EXCEPTION] = "exceptions",
	[PMU_EV_INTERRUPT] = "interrupts",
};

const char *pmu_event_name(enum pmu_event e)
{
	return (unsigned)e < PMU_EV_COUNT ? names[e] : "unknown";
}

/* SBI-like numbering: 1 = cycles and 2 = instructions as in the SBI
 * hardware general events; the rest are rvpmu's canonical classes. */
pmu_evset pmu_decode_virt(void *ctx, uint64_t selector)
{
	(void)ctx;
	if (selector == PMU_EV_NONE || selector >= PMU_EV_COUNT)
		return 0;
	return PMU_EV_BIT(selector);
}
