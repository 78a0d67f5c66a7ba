/* sbi-sample: overflow sampling through SBI PMU on a Sscofpmf hart: an
 * instructions counter preset to -N with counter_start(SET_INIT_VALUE)
 * raises LCOFI (scause = interrupt 13) in S-mode, scountovf shows its bit,
 * sepc lies just after the N-th instruction; then stop and re-arm, as
 * Linux's overflow handler does. Checks are described in docs/sbi-tests.md. */
#include "rt.h"

#define N 2000
#define ALLOW 1024	/* allowance for a firmware that counts itself */
#define SKID_MAX 8	/* same bound as tests/bare; interrupt latency in instructions */

long pmu_sample_sled(u64 idx, u64 ival);
extern char pmu_sled[], pmu_sled_end[];

static struct pmu_layout L;
static u64 idx, bit;

/* like Linux's overflow handler: stop the counter before anything else */
static long stop_hook(void)
{
	return pmu_stop(idx, 1, 0).error;
}

static void one_overflow(int n, const char *what)
{
	long err, before = rt_irq_count;
	struct rt_irq *e;
	u64 k;

	err = pmu_sample_sled(idx, -(u64)N);
	rt_eq(n, "counter_start(SET_INIT_VALUE, -N)", err, 0);
	rt_eq(n + 1, what, rt_irq_count - before, 1);
	e = &rt_irq_log[before < RT_MAX_IRQ ? before : RT_MAX_IRQ - 1];
	if (rt_irq_count == before)
		e->cause = e->epc = e->scountovf = 0, e->hook_err = 0;
	rt_eq(n + 2, "scause = interrupt | 13 (LCOFI)", e->cause, CAUSE_INT | IRQ_LCOF);
	/* k = instructions of the sled retired before the interrupt */
	k = (e->epc - (u64)pmu_sled) / 4;
	rt_info("sled instructions before LCOFI", k);
	rt_range(n + 3, "sepc within SKID_MAX after the N-th instruction", k, N, N + SKID_MAX);
	rt_range(n + 4, "sepc within the firmware allowance", k, N - ALLOW, N + SKID_MAX);
	rt_check(n + 5, "scountovf has the counter's bit in the handler", (e->scountovf >> bit) & 1,
		 e->scountovf, 1ul << bit);
	rt_eq(n + 6, "counter_stop in the handler", e->hook_err, 0);
}

int main(void)
{
	struct sbiret r;
	u64 ov;

	pmu_probe(&L);
	pmu_stop(0, L.hw_mask, SBI_PMU_STOP_FLAG_RESET);
	r = pmu_cfg(0, L.hw_mask, SBI_PMU_CFG_FLAG_CLEAR_VALUE, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(1, "config_matching(instructions)", r.error, 0);
	if (r.error)
		rt_fatal("no instructions counter", r.error);
	idx = r.value;
	/* Linux: the scountovf bit is the counter's CSR offset from 0xC00 */
	bit = CINFO_CSR(L.info[idx]) - 0xc00;
	rt_info("counter", idx);
	rt_check(2, "the counter is a programmable hpmcounter (3..31)", bit >= 3 && bit <= 31, bit, 3);

	lcofi_hook = stop_hook;
	csrs(sie, 1ul << IRQ_LCOF);
	csrs(sstatus, SSTATUS_SIE);
	rt_check(3, "sie.LCOFIE is writable (LCOFI delegated to S)", (csrr(sie) >> IRQ_LCOF) & 1,
		 csrr(sie), 1ul << IRQ_LCOF);

	one_overflow(4, "one LCOFI taken in the sled");
	rt_eq(11, "handler cleared sip.LCOFIP", (csrr(sip) >> IRQ_LCOF) & 1, 0);
	/* re-arm: start clears the OF bit so the next overflow interrupts again */
	r = pmu_start(idx, 1, SBI_PMU_START_SET_INIT_VALUE, -(u64)(1ul << 40));
	ov = csrr(CSR_SCOUNTOVF);
	pmu_stop(idx, 1, 0);
	rt_check(12, "counter_start clears the counter's scountovf bit", !((ov >> bit) & 1), ov, 0);
	rt_eq(13, "re-arming counter_start(SET_INIT_VALUE) succeeds", r.error, 0);
	one_overflow(14, "a second LCOFI after re-arming");

	csrc(sstatus, SSTATUS_SIE);
	pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
	rt_eq(21, "no further LCOFI", rt_irq_count, 2);
	return 0;
}
