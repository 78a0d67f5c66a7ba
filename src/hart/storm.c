/* Trap storms: a hart that takes the same trap at the same pc again and
 * again while nothing retires there (an image of zeros that faults at
 * every fetch, a trap vector that faults itself, a handler that returns
 * to the instruction that faulted) would spin forever without retiring an
 * instruction, so --max-insns alone cannot stop it. Checked once per trap
 * entry, never per instruction. */
#include <stdio.h>
#include "rvpmu/hart.h"

const char *hart_cause_name(uint64_t cause, int irq)
{
	static const char *const exc[] = {   /* Privileged ISA, mcause table */
		"instruction address misaligned", "instruction access fault",
		"illegal instruction", "breakpoint", "load address misaligned",
		"load access fault", "store/AMO address misaligned",
		"store/AMO access fault", "environment call from U-mode",
		"environment call from S-mode", "reserved", "environment call from M-mode",
		"instruction page fault", "load page fault", "reserved",
		"store/AMO page fault",
	};
	static const char *const intr[] = {
		[IRQ_SSI] = "supervisor software interrupt", [IRQ_MSI] = "machine software interrupt",
		[IRQ_STI] = "supervisor timer interrupt", [IRQ_MTI] = "machine timer interrupt",
		[IRQ_SEI] = "supervisor external interrupt", [IRQ_MEI] = "machine external interrupt",
		[IRQ_LCOFI] = "counter-overflow interrupt",
	};
	if (irq)
		return cause < sizeof(intr) / sizeof(intr[0]) && intr[cause] ? intr[cause]
									 : "unknown interrupt";
	return cause < sizeof(exc) / sizeof(exc[0]) ? exc[cause] : "unknown exception";
}

int hart_storm_enter(struct hart *h, uint64_t cause, uint64_t tval, int irq)
{
	struct hart_storm *s = &h->storm;
	struct hart_trap_note *l = &s->last;
	uint64_t code = cause | (irq ? 1ull << 63 : 0);
	if (h->instret == s->entry_at)
		s->idle++;
	s->entry_at = h->instret;
	int again = l->valid && l->code == code && l->pc == h->pc && l->priv == h->priv &&
		    l->at == h->instret;
	*l = (struct hart_trap_note){
		.code = code, .pc = h->pc, .tval = tval, .at = h->instret,
		.repeats = again ? l->repeats + 1 : 1, .priv = h->priv, .valid = 1,
	};
	/* an ecall is a request, not a fault: a handler's own system calls
	 * (rt_sigreturn, SBI calls) leave the fault it returns to noted */
	if (!irq && cause != CAUSE_USER_ECALL && cause != CAUSE_SUPERVISOR_ECALL &&
	    cause != CAUSE_MACHINE_ECALL)
		s->fault = *l;
	return l->repeats >= HART_STORM_REPEATS;
}

/* Only a fault's handler resumes it: an interrupt taken again at once
 * after its handler returned may be a busy device, not a storm. */
void hart_storm_resume(struct hart *h, uint64_t at)
{
	struct hart_storm *s = &h->storm;
	if (s->fault.valid && s->fault.pc == h->pc && s->fault.priv == h->priv) {
		s->last = s->fault;
		s->last.at = at;
	}
}

void hart_storm_describe(const struct hart *h, char *buf, size_t len)
{
	static const char mode[] = {'U', 'S', '?', 'M'};
	const struct hart_trap_note *l = &h->storm.last;
	int irq = (int)(l->code >> 63);
	uint64_t cause = l->code & ~(1ull << 63);
	snprintf(buf, len, "%s (%scause %llu) at pc 0x%llx, tval 0x%llx, in %c-mode, taken %u "
		 "times in a row with nothing retired in between but its handler",
		 hart_cause_name(cause, irq), irq ? "interrupt, " : "", (unsigned long long)cause,
		 (unsigned long long)l->pc, (unsigned long long)l->tval, mode[l->priv & 3],
		 l->repeats);
}
