/* ctr-freeze: sctrstatus.FROZEN set by hardware on a breakpoint trap
 * (BPFRZ) and on a local-counter-overflow interrupt (LCOFIFRZ, counter
 * overflow through Sscofpmf), to M and to S, without recording the trap;
 * no freeze without the bit or for other traps; recording stops while
 * FROZEN = 1 and resumes when software clears it. See
 * docs/ctr-coverage.md "Bare-metal checks". */
#include "ctr.h"

static int ck;
#define CHK(what, got, want) rt_eq(++ck, what, got, want)
#define RECS(what, exp, n) check_recs(++ck, what, exp, n)

#define X(name) extern char name[];
X(TS_ebreak_j) X(TS_ebreak_jt) X(TS_ebreak_trap) X(TS_ebreak_after) X(TS_ebreak_j2t)
X(TS_ecall_j) X(TS_ecall_jt) X(TS_ecall_trap) X(TS_ecall_after) X(TS_ecall_j2t)
X(vec_skip) X(VS_mret) X(J3_0) X(J3_1) X(J3_2) X(J3_3)
X(u_bp) X(UB_j) X(UB_jt) X(UB_ebreak) X(u_lcofi) X(LC_loop) X(LC_br)
#undef X
void trap_seq_ebreak(u64 ctl);
void trap_seq_ecall(u64 ctl);
void jumps3(u64 ctl);

#define LCOF (1ul << IRQ_LCOF)
#define PRESET 100ul		/* U instructions to the overflow */

static void breakpoints(void)
{
	const struct rec j1[] = {R(TS_ebreak_j, TS_ebreak_jt, T_DIRJMP)};
	const struct rec full[] = {
		R(TS_ebreak_j, TS_ebreak_jt, T_DIRJMP), R(TS_ebreak_trap, vec_skip, T_EXC),
		R(VS_mret, TS_ebreak_after, T_TRET), R(TS_ebreak_after, TS_ebreak_j2t, T_DIRJMP),
	};
	const struct rec efull[] = {
		R(TS_ecall_j, TS_ecall_jt, T_DIRJMP), R(TS_ecall_trap, vec_skip, T_EXC),
		R(VS_mret, TS_ecall_after, T_TRET), R(TS_ecall_after, TS_ecall_j2t, T_DIRJMP),
	};
	ctr_reset(0);
	trap_seq_ebreak(C_M | C_BPFRZ);
	CHK("BPFRZ, ebreak M->M: FROZEN set", csrr(CSR_SCTRSTATUS) & ST_FROZEN, ST_FROZEN);
	RECS("BPFRZ: only the jump before the ebreak (breakpoint trap, mret, later jump not recorded)", j1, 1);
	ctr_reset(0);
	trap_seq_ebreak(C_M);
	CHK("no BPFRZ: not frozen", csrr(CSR_SCTRSTATUS) & ST_FROZEN, 0);
	RECS("no BPFRZ: the breakpoint is an exception record (TYPE 1, source = ebreak)", full, 4);
	ctr_reset(0);
	trap_seq_ecall(C_M | C_BPFRZ);
	CHK("BPFRZ, ecall (cause 11): not frozen", csrr(CSR_SCTRSTATUS) & ST_FROZEN, 0);
	RECS("BPFRZ, ecall: recorded as usual", efull, 4);

	/* FROZEN stops recording; clearing it resumes */
	u64 before = csrr(CSR_SCTRSTATUS);
	csrw(CSR_SCTRSTATUS, before | ST_FROZEN);
	jumps3(C_M);
	CHK("software FROZEN = 1: three jumps not recorded (WRPTR kept)", csrr(CSR_SCTRSTATUS), before | ST_FROZEN);
	csrw(CSR_SCTRSTATUS, before);
	jumps3(C_M);
	CHK("FROZEN cleared: three jumps recorded (WRPTR + 3)", wrptr(), (before + 3) & 15);
	CHK("FROZEN cleared: logical 0 = the last jump", ent(0, 1), (u64)J3_2 | CTR_V);
	CHK("FROZEN cleared: its target", ent(0, 2), (u64)J3_3);

	/* from U: to M, and delegated to S */
	const struct rec um[] = {R(ctr_call_mret, u_bp, T_TRET), R(UB_j, UB_jt, T_DIRJMP)};
	ctr_reset(0);
	u64 c = ctr_call(CALL_U, (void (*)(void))u_bp, C_M | C_U | C_BPFRZ, 0);
	CHK("U ebreak to M: mcause 3", c, EXC_BP);
	CHK("U ebreak to M, BPFRZ: FROZEN", csrr(CSR_SCTRSTATUS) & ST_FROZEN, ST_FROZEN);
	RECS("U ebreak to M, BPFRZ: mret and the jump, no breakpoint record", um, 2);
	u64 stv = csrr(stvec);
	csrw(stvec, ctr_svec);
	csrw(medeleg, 1ul << EXC_BP);
	ctr_reset(0);
	ctr_call(CALL_U, (void (*)(void))u_bp, C_S | C_U | C_BPFRZ, 0);
	CHK("U ebreak delegated: scause 3 in S", ctr_strap.cause, EXC_BP);
	CHK("U ebreak to S, BPFRZ: FROZEN", csrr(CSR_SCTRSTATUS) & ST_FROZEN, ST_FROZEN);
	RECS("U ebreak to S, BPFRZ: only the jump", um + 1, 1);
	ctr_reset(0);
	ctr_call(CALL_U, (void (*)(void))u_bp, C_S | C_U, 0);
	const struct rec us[] = {R(UB_j, UB_jt, T_DIRJMP), R(UB_ebreak, ctr_svec, T_EXC)};
	CHK("U ebreak to S, no BPFRZ: not frozen", csrr(CSR_SCTRSTATUS) & ST_FROZEN, 0);
	RECS("U ebreak to S, no BPFRZ: breakpoint recorded", us, 2);
	csrw(medeleg, 0);
	csrw(stvec, stv);
}

/* Arm mhpmcounter3 to overflow after PRESET U-mode instructions */
static void arm(void)
{
	csrw(CSR_MCOUNTINHIBIT, 0);
	csrw(CSR_MHPMEVENT3, HPM_MINH | HPM_SINH | EV_INSTRET);
	csrw(CSR_MHPMCOUNTER3, -PRESET);
	csrc(mip, LCOF);
	csrw(mie, LCOF);
}

static void disarm(void)
{
	csrw(mie, 0);
	csrw(CSR_MHPMEVENT3, 0);
	csrc(mip, LCOF);
}

/* After an LCOFI ended u_lcofi at epc with a0 = iterations: the loop's
 * taken branches, all 16 entries of depth 16, WRPTR = their count mod 16 */
static void loop_records(const char *what, u64 epc, u64 iters)
{
	int at_loop = epc == (u64)LC_loop, at_br = epc == (u64)LC_br;
	CHK("sampled pc is in the loop (LC_loop or LC_br)", at_loop || at_br, 1);
	u64 nbr = at_loop ? iters : iters - 1;	/* bne retired before the trap */
	rt_puts("info iterations ");
	rt_putdec((long)iters);
	rt_puts("\n");
	CHK("more branches than the depth (16)", nbr > 16, 1);
	u64 bad = 0;
	for (unsigned k = 0; k < 16; k++)
		if (ent(k, 1) != ((u64)LC_br | CTR_V) || ent(k, 2) != (u64)LC_loop ||
		    (ent(k, 3) & D_TYPE) != T_TKBR)
			bad++;
	CHK(what, bad, 0);
	CHK("WRPTR = branches retired mod 16", wrptr(), nbr % 16);
}

static void lcofi(void)
{
	ctr_reset(0);
	arm();
	u64 c = ctr_call(CALL_U, (void (*)(void))u_lcofi, C_U | C_LCOFIFRZ, 0);
	disarm();
	CHK("LCOFI from U to M: mcause = INT|13", c, CAUSE_INT | IRQ_LCOF);
	CHK("LCOFIFRZ: FROZEN set by the LCOFI trap", csrr(CSR_SCTRSTATUS) & ST_FROZEN, ST_FROZEN);
	loop_records("LCOFIFRZ: every entry is the loop branch leading to the sampled pc (wrong count)",
		     ctr_mtrap.epc, ctr_mtrap.a0);

	ctr_reset(0);
	arm();
	c = ctr_call(CALL_U, (void (*)(void))u_lcofi, C_U | C_M, 0);
	disarm();
	CHK("no LCOFIFRZ: LCOFI taken (INT|13)", c, CAUSE_INT | IRQ_LCOF);
	CHK("no LCOFIFRZ: not frozen", csrr(CSR_SCTRSTATUS) & ST_FROZEN, 0);
	CHK("no LCOFIFRZ: logical 0 is the interrupt, source = mepc", ent(0, 1), ctr_mtrap.epc | CTR_V);
	CHK("no LCOFIFRZ: its target = mtvec", ent(0, 2), (u64)ctr_mvec);
	CHK("no LCOFIFRZ: TYPE 2", ent(0, 3) & D_TYPE, T_INTR);
	CHK("no LCOFIFRZ: logical 1 = the loop branch", ent(1, 1), (u64)LC_br | CTR_V);

	/* delegated to S */
	u64 stv = csrr(stvec);
	csrw(stvec, ctr_svec);
	csrw(mideleg, LCOF);
	ctr_reset(0);
	arm();
	ctr_call(CALL_U, (void (*)(void))u_lcofi, C_U | C_LCOFIFRZ, 0);
	disarm();
	csrw(mideleg, 0);
	csrw(stvec, stv);
	CHK("LCOFI delegated: taken in S (scause INT|13)", ctr_strap.cause, CAUSE_INT | IRQ_LCOF);
	CHK("LCOFI to S, LCOFIFRZ: FROZEN", csrr(CSR_SCTRSTATUS) & ST_FROZEN, ST_FROZEN);
	loop_records("LCOFI to S: every entry is the loop branch (wrong count)", ctr_strap.epc,
		     ctr_strap.a0);
}

int main(void)
{
	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);
	CHK("device tree lists smctr", rt_fdt_has_ext("smctr"), 1);
	breakpoints();
	lcofi();
	ctr_reset(4);
	return rt_done();
}
