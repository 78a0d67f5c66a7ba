/* ctr-record: what CTR records, checked against the labels of
 * ctr-record.S: every TYPE M/S/U code can produce, each transfer type
 * filter, the M/S/U enables with the trap and trap-return cases and
 * external traps, depth wrap-around at every depth, RASEMU, and the
 * cycle count. See docs/ctr-coverage.md "Bare-metal checks". */
#include "ctr.h"

static int ck;
#define CHK(what, got, want) rt_eq(++ck, what, got, want)
#define RECS(what, exp, n) check_recs(++ck, what, exp, n)
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define X(name) extern char name[];
X(ST_br_tk) X(ST_br_tk_t) X(ST_br_nt) X(ST_br_nt_n) X(ST_j) X(ST_j_t) X(ST_jr) X(ST_jr_t)
X(ST_call) X(ST_call_r) X(ST_callx5) X(ST_callx5_r) X(ST_icall) X(ST_icall_r)
X(ST_swap) X(ST_swap_r) X(ST_ljal) X(ST_ljal_r) X(ST_ljalr) X(ST_ljalr_r)
X(ST_cj) X(ST_cj_t) X(ST_cjalr) X(ST_cjalr_r) X(ST_cswap) X(ST_cswap_r) X(ST_cjr) X(ST_cjr_t)
X(ST_cbeqz) X(ST_cbeqz_t) X(ST_cbnez) X(ST_cbnez_n) X(ST_mret) X(ST_mret_t)
X(ST_ecall) X(ST_ecall_n) X(ST_int_at) X(sub_a) X(sub_b) X(sub_swap) X(sub_l) X(sub_c)
X(SA_ret) X(SB_ret) X(SW_ret) X(SL_ret) X(SC_ret) X(vec_exc) X(VE_mret) X(vec_int) X(VI_mret)
X(u_fn) X(UF_j) X(UF_j_t) X(UF_call) X(UF_call_r) X(UF_ecall) X(u_sub) X(US_ret)
X(s_sret_fn) X(SF_sret) X(SF_u) X(SF_uj) X(SF_u2) X(SF_ecall)
X(CH_enter) X(CH_0) X(CH_end)
X(RA_call) X(ras_f1) X(RB_call) X(ras_f2) X(RC_call) X(ras_f3) X(RD_swap) X(ras_f4)
X(RP_a) X(rp_f1) X(RP_b) X(rp_f2)
X(CC_j0) X(CC_1) X(CC_j1) X(CC_2) X(CC_j2) X(CC_3)
#undef X
void seq_types(u64 ctl);
void chain_run(u64 ctl, u64 start);
void ras_seq(u64 ctl);
void ras_pop2(u64 ctl);
void cc_seq(u64 ctl);
u64 cycles_10nops(void);

/* seq_types' records, oldest first */
static const struct rec types[] = {
	R(ST_br_tk, ST_br_tk_t, T_TKBR),
	R(ST_br_nt, ST_br_nt_n, T_NTBR),
	R(ST_j, ST_j_t, T_DIRJMP),
	R(ST_jr, ST_jr_t, T_INDJMP),
	R(ST_call, sub_a, T_DIRCALL),
	R(SA_ret, ST_call_r, T_RET),
	R(ST_callx5, sub_b, T_DIRCALL),
	R(SB_ret, ST_callx5_r, T_RET),
	R(ST_icall, sub_a, T_INDCALL),
	R(SA_ret, ST_icall_r, T_RET),
	R(ST_swap, sub_swap, T_CORSWAP),
	R(SW_ret, ST_swap_r, T_RET),
	R(ST_ljal, sub_l, T_DIRLJMP),
	R(SL_ret, ST_ljal_r, T_INDJMP),
	R(ST_ljalr, sub_l, T_INDLJMP),
	R(SL_ret, ST_ljalr_r, T_INDJMP),
	R(ST_cj, ST_cj_t, T_DIRJMP),
	R(ST_cjalr, sub_c, T_INDCALL),
	R(SC_ret, ST_cjalr_r, T_RET),
	R(ST_cswap, sub_swap, T_CORSWAP),
	R(SW_ret, ST_cswap_r, T_RET),
	R(ST_cjr, ST_cjr_t, T_INDJMP),
	R(ST_cbeqz, ST_cbeqz_t, T_TKBR),
	R(ST_cbnez, ST_cbnez_n, T_NTBR),
	R(ST_mret, ST_mret_t, T_TRET),
	R(ST_ecall, vec_exc, T_EXC),
	R(VE_mret, ST_ecall_n, T_TRET),
	R(ST_int_at, vec_int, T_INTR),
	R(VI_mret, ST_int_at, T_TRET),
};

static void types_and_filters(void)
{
	struct rec want[N(types)];
	int n;
	/* sanity of the label layout the table relies on */
	CHK("layout: C.JALR is 2 bytes (compressed forms assembled)", (u64)(ST_cjalr_r - ST_cjalr), 2);

	ctr_reset(4);
	seq_types(C_M | C_NTBREN);
	RECS("M, NTBREN: every TYPE 1-5, 8-15 with exact source/target", types, N(types));

	ctr_reset(4);
	seq_types(C_M);
	n = filter_recs(want, types, N(types), 1u << T_NTBR);
	RECS("M, default filters: everything but not-taken branches", want, n);

	/* one inhibit bit at a time drops exactly its TYPE */
	static const unsigned inh[] = {T_EXC, T_INTR, T_TRET, T_TKBR, T_INDCALL, T_DIRCALL,
				       T_INDJMP, T_DIRJMP, T_CORSWAP, T_RET, T_INDLJMP, T_DIRLJMP};
	static const char *const names[] = {
		"EXCINH drops exceptions only", "INTRINH drops interrupts only",
		"TRETINH drops trap returns only", "TKBRINH drops taken branches only",
		"INDCALLINH drops indirect calls only", "DIRCALLINH drops direct calls only",
		"INDJMPINH drops indirect jumps only", "DIRJMPINH drops direct jumps only",
		"CORSWAPINH drops co-routine swaps only", "RETINH drops returns only",
		"INDLJMPINH drops other indirect jumps with link only",
		"DIRLJMPINH drops other direct jumps with link only",
	};
	for (int i = 0; i < N(inh); i++) {
		ctr_reset(4);
		seq_types(C_M | C_NTBREN | C_INH(inh[i]));
		n = filter_recs(want, types, N(types), 1u << inh[i]);
		RECS(names[i], want, n);
	}
	ctr_reset(4);
	seq_types(C_M | (0xfful << 40) | C_EXCINH | C_INTRINH | C_TRETINH | C_TKBRINH);
	RECS("every inhibit bit, NTBREN off: nothing recorded", want, 0);
	ctr_reset(4);
	seq_types(C_M | C_NTBREN | (0xfful << 40) | C_EXCINH | C_INTRINH | C_TRETINH | C_TKBRINH);
	n = filter_recs(want, types, N(types), ~(1u << T_NTBR));
	RECS("every inhibit bit, NTBREN on: only the 2 not-taken branches", want, n);
	ctr_reset(4);
	seq_types(C_S | C_U | C_NTBREN);
	RECS("M code with only S and U enabled: nothing recorded", want, 0);

	/* ctrdata.CCV: 0 for the first record after the mctrctl write */
	ctr_reset(4);
	seq_types(C_M);
	unsigned k;
	n = filter_recs(want, types, N(types), 1u << T_NTBR);
	k = (unsigned)n - 1;	/* logical index of the oldest */
	CHK("CCV = 0 in the first record after an mctrctl write", ent(k, 3) & D_CCV, 0);
	CHK("CCV = 1 in the next record", ent(k - 1, 3) & D_CCV, D_CCV);
}

/* ctr_call in mode with mctrctl = ctl; returns mcause */
static u64 run(u64 mode, void (*fn)(void), u64 ctl)
{
	return ctr_call(mode, fn, ctl, 0);
}

static void modes(void)
{
	const struct rec body[] = {
		R(UF_j, UF_j_t, T_DIRJMP), R(UF_call, u_sub, T_DIRCALL), R(US_ret, UF_call_r, T_RET),
	};
	struct rec w[8];
	u64 c;

	ctr_reset(0);
	c = run(CALL_U, (void (*)(void))u_fn, C_U);
	CHK("U fn ends with ecall from U (cause 8)", c, 8);
	RECS("U enabled, fn in U: its 3 transfers; mret from disabled M and external ecall not recorded",
	     body, 3);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))u_fn, C_U);
	RECS("U enabled, fn in S: nothing", body, 0);
	ctr_reset(0);
	c = run(CALL_S, (void (*)(void))u_fn, C_S);
	CHK("S fn ends with ecall from S (cause 9)", c, 9);
	RECS("S enabled, fn in S: its 3 transfers", body, 3);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_S);
	RECS("S enabled, fn in U: nothing", body, 0);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))u_fn, C_M);
	w[0] = (struct rec)R(ctr_call_mret, 0, T_TRET);
	w[1] = (struct rec)R(0, ctr_mvec, T_EXC);
	RECS("M only, fn in S: mret M->S with target 0, ecall S->M with source 0", w, 2);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_M | C_U);
	w[0] = (struct rec)R(ctr_call_mret, u_fn, T_TRET);
	for (int i = 0; i < 3; i++)
		w[1 + i] = body[i];
	w[4] = (struct rec)R(UF_ecall, ctr_mvec, T_EXC);
	RECS("M and U, fn in U: mret, 3 transfers, ecall U->M all complete", w, 5);

	/* external traps (source enabled, target not): need the target's
	 * xTE and every intervening one; target PC 0; EXCINH ignored */
	for (int i = 0; i < 3; i++)
		w[i] = body[i];
	w[3] = (struct rec)R(UF_ecall, 0, T_EXC);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_U | C_MTE);
	RECS("U->M external trap, MTE only: not recorded", w, 3);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_U | C_STE);
	RECS("U->M external trap, STE only: not recorded", w, 3);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_U | C_MTE | C_STE | C_EXCINH);
	RECS("U->M external trap, MTE+STE (EXCINH set): recorded, target 0", w, 4);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))u_fn, C_S | C_MTE);
	RECS("S->M external trap, MTE: recorded, target 0", w, 4);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))u_fn, C_S | C_STE);
	RECS("S->M external trap, STE only: not recorded", w, 3);

	/* U->S traps (ecall delegated), stvec = ctr_svec */
	u64 stv = csrr(stvec);
	csrw(stvec, ctr_svec);
	csrw(medeleg, 1ul << 8);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_U | C_STE);
	CHK("delegated U ecall reached S (scause 8)", ctr_strap.cause, 8);
	RECS("U->S external trap, STE: recorded, target 0", w, 4);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_U);
	RECS("U->S external trap without STE: not recorded", w, 3);
	ctr_reset(0);
	run(CALL_U, (void (*)(void))u_fn, C_U | C_S);
	w[3] = (struct rec)R(UF_ecall, ctr_svec, T_EXC);
	RECS("U->S trap, both enabled: recorded in full", w, 4);
	csrw(medeleg, 0);
	csrw(stvec, stv);

	/* sret S->U */
	const struct rec sr_full[] = {R(SF_sret, SF_u, T_TRET), R(SF_uj, SF_u2, T_DIRJMP)};
	const struct rec sr_s[] = {R(SF_sret, 0, T_TRET)};
	const struct rec sr_u[] = {R(SF_uj, SF_u2, T_DIRJMP)};
	ctr_reset(0);
	c = run(CALL_S, (void (*)(void))s_sret_fn, C_S | C_U);
	CHK("sret went to U (ecall cause 8)", c, 8);
	RECS("S and U: sret recorded, then U's jump", sr_full, 2);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))s_sret_fn, C_S);
	RECS("S only: sret to disabled U recorded with target 0", sr_s, 1);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))s_sret_fn, C_U);
	RECS("U only: sret from disabled S not recorded", sr_u, 1);
	ctr_reset(0);
	run(CALL_S, (void (*)(void))s_sret_fn, C_S | C_U | C_TRETINH);
	RECS("S and U, TRETINH: sret dropped", sr_u, 1);

	/* interrupt: SSIP pending (not delegated) is taken at U's first
	 * instruction */
	ctr_reset(0);
	csrw(mie, 1ul << IRQ_SSI);
	csrs(mip, 1ul << IRQ_SSI);
	c = run(CALL_U, (void (*)(void))u_fn, C_M | C_U);
	CHK("SSI taken in U: mcause", c, CAUSE_INT | IRQ_SSI);
	CHK("SSI taken at U's first instruction: mepc", ctr_mtrap.epc, (u64)u_fn);
	w[0] = (struct rec)R(ctr_call_mret, u_fn, T_TRET);
	w[1] = (struct rec)R(u_fn, ctr_mvec, T_INTR);
	RECS("M and U: mret, then the interrupt U->M (TYPE 2, source = epc)", w, 2);
	ctr_reset(0);
	csrw(mie, 1ul << IRQ_SSI);
	csrs(mip, 1ul << IRQ_SSI);
	run(CALL_U, (void (*)(void))u_fn, C_M);
	w[0] = (struct rec)R(ctr_call_mret, 0, T_TRET);
	w[1] = (struct rec)R(0, ctr_mvec, T_INTR);
	RECS("M only: interrupt from disabled U recorded with source 0", w, 2);
	ctr_reset(0);
	csrw(mie, 1ul << IRQ_SSI);
	csrs(mip, 1ul << IRQ_SSI);
	run(CALL_U, (void (*)(void))u_fn, C_M | C_U | C_INTRINH);
	w[0] = (struct rec)R(ctr_call_mret, u_fn, T_TRET);
	RECS("M and U, INTRINH: the interrupt dropped", w, 1);
	csrw(mie, 0);
}

static void wrap(void)
{
	for (unsigned e = 0; e <= 4; e++) {
		unsigned d = 16u << e, n = d + 5, start = 261 - n;
		ctr_reset(e);
		csrw(CSR_SCTRSTATUS, d - 3);
		chain_run(C_M, (u64)CH_0 + 4 * start);
		/* n + 1 records (the jr, then n jumps) from WRPTR d-3 */
		u64 bad = 0;
		for (unsigned k = 0; k < d; k++) {
			u64 j = 260 - k;	/* jump j: CH_0 + 4j -> CH_0 + 4j + 4 */
			if (ent(k, 1) != (((u64)CH_0 + 4 * j) | CTR_V) || ent(k, 2) != (u64)CH_0 + 4 * j + 4 ||
			    (ent(k, 3) & D_TYPE) != T_DIRJMP)
				bad++;
		}
		rt_puts("info depth ");
		rt_putdec(d);
		rt_puts("\n");
		CHK("wrap: depth+6 records, every logical entry is the newest jumps (wrong count)", bad, 0);
		CHK("wrap: WRPTR = (depth-3 + depth+6) mod depth = 3", wrptr(), 3);
		if (d < 256)
			CHK("wrap: logical entry depth reads 0", ent(d, 1), 0);
	}
}

static void rasemu(void)
{
	ctr_reset(0);
	ras_seq(C_M | C_RASEMU | C_INH(T_DIRCALL) | C_INH(T_INDCALL) | C_INH(T_CORSWAP) | C_INH(T_RET));
	const struct rec ras[] = {R(RA_call, ras_f1, T_DIRCALL), R(RD_swap, ras_f4, T_CORSWAP)};
	RECS("RASEMU: push A, push B, pop B, push C, swap -> [A, swap]; jumps, branch, mret, filters ignored",
	     ras, 2);
	ctr_reset(0);
	ras_pop2(C_M | C_RASEMU);
	CHK("RASEMU: 2 pushes, 2 pops -> WRPTR 0", wrptr(), 0);
	CHK("RASEMU: logical 0 (physical 15) untouched: 0", ent(0, 1), 0);
	CHK("RASEMU: first pop's entry (physical 1 = logical 14) has V = 0, PC kept", ent(14, 1), (u64)RP_b);
	CHK("RASEMU: its target kept", ent(14, 2), (u64)rp_f2);
	CHK("RASEMU: second pop's entry (physical 0 = logical 15) has V = 0", ent(15, 1), (u64)RP_a);
	CHK("RASEMU: its target kept", ent(15, 2), (u64)rp_f1);
	ctr_reset(0);
	ras_seq(C_U | C_S | C_RASEMU);
	RECS("RASEMU with M disabled: nothing in M", ras, 0);
}

static void cycles(void)
{
	u64 c10 = cycles_10nops();
	CHK("mcycle counts 1 per instruction (10 nops + csrr = 11)", c10, 11);
	ctr_reset(0);
	cc_seq(C_M);
	/* CC = cycles since the previous record: 3 nops + the jump = 4, then
	 * 10 nops + the jump = 11 (CCE = 0 below 4096) */
	CHK("CC: CC_j0 is first after the write: CCV = 0", ent(2, 3) & D_CCV, 0);
	CHK("CC: CC_j1 CCV = 1", ent(1, 3) & D_CCV, D_CCV);
	CHK("CC: CC_j1 CC = 4 cycles", D_CC(ent(1, 3)), 4);
	CHK("CC: CC_j2 CC = 11 cycles", D_CC(ent(0, 3)), 11);
	const struct rec cc[] = {R(CC_j0, CC_1, T_DIRJMP), R(CC_j1, CC_2, T_DIRJMP), R(CC_j2, CC_3, T_DIRJMP)};
	RECS("CC: the three jumps", cc, 3);
	/* SCTRCLR also restarts the count: first record after it CCV = 0 */
	csrw(CSR_MCTRCTL, C_M);
	asm volatile("j 1f\n1: j 1f\n1:" SCTRCLR "\nj 1f\n1: j 1f\n1: csrw 0x34e, zero" ::: "memory");
	CHK("SCTRCLR: record after it has CCV = 0", ent(1, 3) & D_CCV, 0);
	CHK("SCTRCLR: the one after that CCV = 1", ent(0, 3) & D_CCV, D_CCV);
	CHK("SCTRCLR: older records gone (logical 2 = 0)", ent(2, 1), 0);
}

int main(void)
{
	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);
	CHK("device tree lists smctr", rt_fdt_has_ext("smctr"), 1);
	types_and_filters();
	modes();
	wrap();
	rasemu();
	cycles();
	ctr_reset(4);
	return rt_done();
}
