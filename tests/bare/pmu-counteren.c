/* pmu-counteren: the access table for cycle/time/instret/hpmcounter3 read
 * from S and U under every mcounteren/scounteren combination (priv
 * "Machine Counter-Enable Register", "Supervisor Counter-Enable
 * Register"). Check number = 1 + 8*counter + 4*m + 2*s + (mode == U).
 * See docs/bare-tests.md. */
#include "rt.h"

/* returns 0 = read without trap, 1 = illegal instruction with mtval = the
 * instruction, 2 = some other trap */
static long probe(long i)
{
	u64 pc, enc = ENC_CSR(2, 5, 0, 0xc00 + i);
	switch (i) {
	case 0: pc = TRY("csrr t0, cycle"); break;
	case 1: pc = TRY("csrr t0, time"); break;
	case 2: pc = TRY("csrr t0, instret"); break;
	default: pc = TRY("csrr t0, hpmcounter3"); break;
	}
	if (rt_trap.count == 0)
		return 0;
	if (rt_trap.count == 1 && rt_trap.cause == 2 && rt_trap.epc == pc && rt_trap.tval == enc)
		return 1;
	return 2;
}

static const char *const names[4] = { "cycle", "time", "instret", "hpmcounter3" };

static long u_hpm3_value(long arg)
{
	(void)arg;
	return (long)csrr(hpmcounter3);
}

static long s_write_cycle(long arg)
{
	u64 pc;
	(void)arg;
	pc = TRY("csrw cycle, zero");
	rt_check_trap(34, "S (mcounteren all 1): csrw cycle -> illegal", pc, 2, ENC_CSR(1, 0, 0, 0xc00));
	pc = TRY("csrr t0, 0xc80");
	rt_check_trap(35, "S: cycleh (RV32 only) -> illegal on RV64", pc, 2, ENC_CSR(2, 5, 0, 0xc80));
	return 0;
}

int main(void)
{
	char what[64];

	csrw(medeleg, 0);
	csrw(CSR_MCOUNTINHIBIT, 0);
	for (int i = 0; i < 4; i++)
		for (int m = 0; m < 2; m++)
			for (int s = 0; s < 2; s++) {
				csrw(mcounteren, (u64)m << i);
				csrw(scounteren, (u64)s << i);
				for (int u = 0; u < 2; u++) {
					/* S needs m; U needs m and s */
					long want = u ? !(m && s) : !m;
					long got = rt_run(u ? PRV_U : PRV_S, probe, i);
					char *p = what;
					for (const char *q = u ? "U " : "S "; *q; )
						*p++ = *q++;
					for (const char *q = names[i]; *q; )
						*p++ = *q++;
					for (const char *q = " m=X s=X"; *q; )
						*p++ = *q++;
					p[-5] = (char)('0' + m);
					p[-1] = (char)('0' + s);
					for (const char *q = want ? " -> illegal" : " -> reads"; *q; )
						*p++ = *q++;
					*p = 0;
					rt_eq(1 + 8 * i + 4 * m + 2 * s + u, what, got, want);
				}
			}

	/* an allowed read returns the counter: event 0 keeps it still */
	csrw(CSR_MHPMEVENT3, 0);
	csrw(CSR_MHPMCOUNTER3, 0x1234);
	csrw(mcounteren, ~0ul);
	csrw(scounteren, ~0ul);
	rt_eq(33, "U reads hpmcounter3 = mhpmcounter3", rt_run(PRV_U, u_hpm3_value, 0), 0x1234);
	rt_run(PRV_S, s_write_cycle, 0);
	csrw(mcounteren, 0);
	csrw(scounteren, 0);
	return rt_done();
}
