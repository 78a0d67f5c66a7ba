/* pmu-counters: mcycle/minstret/mhpmcounterN and mhpmeventN exist; exact
 * minstret deltas (Zicsr: a CSR read returns the value before the reading
 * instruction retires; a write to minstret replaces that instruction's
 * increment); mcountinhibit; hpm counters on event 2 (instructions).
 * See docs/bare-tests.md. */
#include "rt.h"

#define R(csr) "csrr %0, " STR(csr) "\n"

static u64 first_trapping(u32 base)
{
	for (u32 i = 3; i <= 31; i++) {
		rt_trap_clear();
		csr_read_dyn(base + i);
		if (rt_trap.count)
			return base + i;
	}
	return 0;
}

int main(void)
{
	u64 a, b, c, d, x;

	csrw(CSR_MCOUNTINHIBIT, 0);
	TRY("csrr t0, mcycle\n csrr t0, minstret");
	rt_check_notrap(1, "mcycle, minstret readable in M");
	rt_eq(2, "mhpmcounter3..31 read in M without trap", first_trapping(0xb00), 0);
	rt_eq(3, "mhpmevent3..31 read in M without trap", first_trapping(0x320), 0);

	rt_eq(4, "minstret: read, 10 nops, read -> 11", DELTA_NOPS(minstret, 10), 11);
	rt_eq(5, "minstret: back-to-back reads -> 1", DELTA_NOPS(minstret, 0), 1);
	asm volatile("csrw minstret, %1\n csrr %0, minstret" : "=&r"(a) : "r"(1000ul) : "memory");
	rt_eq(6, "csrw minstret, X; csrr minstret -> X", a, 1000);
	asm volatile("csrw minstret, %1\n" NOPS(5) "csrr %0, minstret" : "=&r"(a) : "r"(2000ul) : "memory");
	rt_eq(7, "csrw minstret, X; 5 nops; csrr -> X+5", a, 2005);

	csrw(CSR_MCOUNTINHIBIT, 1ul << 2);	/* IR */
	rt_eq(8, "mcountinhibit.IR=1: minstret stands still", DELTA_NOPS(minstret, 10), 0);
	asm volatile("csrw minstret, %1\n" NOPS(5) "csrr %0, minstret" : "=&r"(a) : "r"(3000ul) : "memory");
	rt_eq(9, "IR=1: a written value holds", a, 3000);
	csrw(CSR_MCOUNTINHIBIT, 0);
	rt_eq(10, "mcountinhibit.IR=0: minstret counts exactly again", DELTA_NOPS(minstret, 10), 11);

	csrw(CSR_MCOUNTINHIBIT, ~0ul);
	x = csrr(CSR_MCOUNTINHIBIT);
	csrw(CSR_MCOUNTINHIBIT, 0);
	rt_eq(11, "mcountinhibit bit 1 (time) reads 0 after writing ones", x & 2, 0);
	csrw(CSR_MCOUNTINHIBIT, 1ul << 0);	/* CY */
	a = DELTA_NOPS(mcycle, 10);
	csrw(CSR_MCOUNTINHIBIT, 0);
	rt_eq(12, "mcountinhibit.CY=1: mcycle stands still", a, 0);
	a = DELTA_NOPS(mcycle, 10);
	rt_check(13, "mcycle counts when CY=0", a >= 1, a, 1);

	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	csrw(CSR_MHPMCOUNTER3, 0);
	asm volatile("csrr %0, minstret\n csrr %1, 0xb03\n" NOPS(10) "csrr %2, 0xb03\n csrr %3, minstret"
		     : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d) :: "memory");
	rt_eq(14, "mhpmcounter3 on event 2: read, 10 nops, read -> 11", c - b, 11);
	rt_eq(15, "minstret across the same span -> 13", d - a, 13);
	asm volatile("csrw 0xb03, %1\n csrr %0, 0xb03" : "=&r"(a) : "r"(500ul) : "memory");
	rt_eq(16, "csrw mhpmcounter3, X; csrr -> X (write replaces the increment)", a, 500);

	csrw(CSR_MHPMEVENT4, EV_INSTRET);
	csrw(CSR_MHPMCOUNTER4, 0);
	asm volatile("csrr %0, 0xb03\n csrr %1, 0xb04\n" NOPS(10) "csrr %2, 0xb03\n csrr %3, 0xb04"
		     : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d) :: "memory");
	rt_eq(17, "two counters on event 2: mhpmcounter3 -> 12", c - a, 12);
	rt_eq(18, "two counters on event 2: mhpmcounter4 -> 12", d - b, 12);

	csrw(CSR_MCOUNTINHIBIT, 1ul << 3);
	a = DELTA_NOPS(0xb03, 10);
	csrw(CSR_MCOUNTINHIBIT, 0);
	rt_eq(19, "mcountinhibit.HPM3=1: mhpmcounter3 stands still", a, 0);

	csrw(CSR_MHPMEVENT4, 0);
	csrw(CSR_MHPMEVENT3, 0);
	rt_eq(20, "event 0 (no event): mhpmcounter3 does not count", DELTA_NOPS(0xb03, 10), 0);

	/* whether an instruction counts is decided before it executes: the
	 * csrw that inhibits a counter counts, the one that releases it does
	 * not (EDGE in rt.h) */
	EDGE(21, "csrw mcountinhibit IR=1 counts itself", minstret, CSR_MCOUNTINHIBIT, 1ul << 2, 2, 0);
	EDGE(23, "csrw mcountinhibit IR=0 does not count itself", minstret, CSR_MCOUNTINHIBIT, 0, 0, 1);
	EDGE(25, "csrw mcountinhibit CY=1 counts its cycle", mcycle, CSR_MCOUNTINHIBIT, 1ul << 0, 2, 0);
	EDGE(27, "csrw mcountinhibit CY=0 does not count its cycle", mcycle, CSR_MCOUNTINHIBIT, 0, 0, 1);
	csrw(CSR_MHPMEVENT3, EV_INSTRET);
	EDGE(29, "csrw mcountinhibit HPM3=1 counts itself in mhpmcounter3 (event 2)", 0xb03,
	     CSR_MCOUNTINHIBIT, 1ul << 3, 2, 0);
	EDGE(31, "csrw mcountinhibit HPM3=0 does not count itself", 0xb03, CSR_MCOUNTINHIBIT, 0, 0, 1);
	/* the same for the selector: the csrw that sets event 2 does not
	 * count, the one that sets event 0 does */
	EDGE(33, "csrw mhpmevent3 from 2 to 0 counts itself", 0xb03, CSR_MHPMEVENT3, 0, 2, 0);
	EDGE(35, "csrw mhpmevent3 from 0 to 2 does not count itself", 0xb03, CSR_MHPMEVENT3, EV_INSTRET, 0, 1);
	csrw(CSR_MHPMEVENT3, 0);
	return rt_done();
}
