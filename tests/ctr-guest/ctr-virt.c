/* ctr-virt: CTR with the hypervisor extension (Smctr "Virtualization Mode
 * Transitions", "External Traps", "Freeze", "State Enable Access
 * Control"): VS and VU record by vsctrctl.S/U and its filters, a trap out
 * of VS is external unless the target records, a breakpoint trap into VS
 * freezes by vsctrctl.BPFRZ, and the access rules of the CTR CSRs and
 * SCTRCLR from VS and VU (rvpmu has no Smstateen: the rows without it).
 * See docs/ctr-coverage.md "Bare-metal checks". */
#include "ctr.h"

static int ck;
#define CHK(what, got, want) rt_eq(++ck, what, got, want)
#define RECS(what, exp, n) check_recs(++ck, what, exp, n)

#define X(name) extern char name[];
X(vs_fn) X(VF_br) X(VF_br_t) X(VF_call) X(VF_call_r) X(VF_ecall) X(vf_sub) X(VFS_ret)
X(vs_bp) X(VB_br) X(VB_br_t) X(VB_ebreak)
X(vs_rd_sctrctl) X(vs_wr_sctrctl) X(vs_rd_status) X(vs_rd_depth) X(vs_rd_vsctrctl)
X(vs_rd_mctrctl) X(vs_sctrclr)
#undef X

#define CALL_VS (CALL_S | MSTATUS_MPV)
#define CALL_VU (CALL_U | MSTATUS_MPV)
#define CSR_HEDELEG 0x602
#define CSR_VSTVEC 0x205
#define ECALL_VU 8
#define ECALL_HS 9
#define ECALL_VS 10
#define ILLEGAL 2
#define VIRTUAL 22
/* vsctrctl's fields: xctrctl's without M and MTE */
#define VS_ALL (C_ALL & ~(C_M | C_MTE))

/* run code at fn in mode (CALL_VS/VU) with vsctrctl = vctl and mctrctl =
 * mctl; returns the cause of the trap that ended it. The trap to M sets
 * MPV again: cleared so the next call starts from a known mstatus. */
static u64 vcall(u64 mode, char *fn, u64 vctl, u64 mctl)
{
	csrw(CSR_VSCTRCTL, vctl);
	u64 cause = ctr_call(mode, (void (*)(void))fn, mctl, 0);
	csrc(mstatus, MSTATUS_MPV);
	csrw(CSR_VSCTRCTL, 0);
	return cause;
}

static const struct rec fn_recs[] = {
	R(VF_br, VF_br_t, T_TKBR),
	R(VF_call, vf_sub, T_DIRCALL),
	R(VFS_ret, VF_call_r, T_RET),
};

static void recording(void)
{
	ctr_reset(0);
	CHK("VS run ends in its ecall", vcall(CALL_VS, vs_fn, C_S, 0), ECALL_VS);
	RECS("vsctrctl.S: VS's branch, call, return; not the mret into VS nor the ecall out",
	     fn_recs, 3);
	ctr_reset(0);
	CHK("VU run ends in its ecall", vcall(CALL_VU, vs_fn, C_U, 0), ECALL_VU);
	RECS("vsctrctl.U: the same in VU", fn_recs, 3);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_U, C_S | C_U);
	RECS("VS with only vsctrctl.U and sctrctl.S/U: nothing", fn_recs, 0);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S | C_TKBRINH, 0);
	RECS("vsctrctl.TKBRINH filters VS's taken branch", fn_recs + 1, 2);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S, C_TKBRINH);
	RECS("mctrctl.TKBRINH does not filter VS", fn_recs, 3);

	/* external trap VS -> M: mctrctl.MTE and sctrctl.STE; target pc 0 */
	struct rec ext[4] = { fn_recs[0], fn_recs[1], fn_recs[2], R(VF_ecall, 0, T_EXC) };
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S, C_MTE | C_STE);
	RECS("VS -> M ecall recorded as an external trap with MTE, STE", ext, 4);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S, C_MTE);
	RECS("VS -> M without sctrctl.STE: not recorded", fn_recs, 3);
	ctr_reset(0);
	vcall(CALL_VU, vs_fn, C_U, C_MTE | C_STE);
	RECS("VU -> M without vsctrctl.STE: not recorded", fn_recs, 3);
	ctr_reset(0);
	vcall(CALL_VU, vs_fn, C_U | C_STE, C_MTE | C_STE);
	RECS("VU -> M with vsctrctl.STE, sctrctl.STE, mctrctl.MTE: recorded", ext, 4);

	/* VS -> HS with both enabled: a plain record, filtered by vsctrctl;
	 * ctr_svec turns sctrctl off before its own ecall to M */
	csrw(medeleg, 1ul << ECALL_VS);
	csrw(stvec, (u64)ctr_svec);
	struct rec hs[4] = { fn_recs[0], fn_recs[1], fn_recs[2], R(VF_ecall, ctr_svec, T_EXC) };
	ctr_reset(0);
	CHK("VS ecall delegated to HS, whose handler ecalls to M", vcall(CALL_VS, vs_fn, C_S, C_S),
	    ECALL_HS);
	CHK("HS saw it", ctr_strap.cause, ECALL_VS);
	RECS("VS -> HS, both enabled: recorded with both pcs", hs, 4);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S | C_EXCINH, C_S);
	RECS("VS -> HS with vsctrctl.EXCINH: the transition uses vsctrctl's filters", fn_recs, 3);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S, C_S | C_EXCINH);
	RECS("VS -> HS with sctrctl.EXCINH: still recorded", hs, 4);
	csrw(medeleg, 0);
}

/* a breakpoint trap into VS (medeleg and hedeleg bit 3, vstvec =
 * ctr_svec, which ends in VS's ecall to M) */
static void freeze(void)
{
	csrw(medeleg, 1ul << EXC_BP);
	csrw(CSR_HEDELEG, 1ul << EXC_BP);
	csrw(CSR_VSTVEC, (u64)ctr_svec);
	static const struct rec br[2] = { R(VB_br, VB_br_t, T_TKBR), R(VB_ebreak, ctr_svec, T_EXC) };
	ctr_reset(0);
	vcall(CALL_VS, vs_bp, C_S | C_BPFRZ, 0);
	CHK("breakpoint trap into VS: vscause 3", ctr_strap.cause, EXC_BP);
	CHK("vsctrctl.BPFRZ froze CTR", csrr(CSR_SCTRSTATUS) & ST_FROZEN, ST_FROZEN);
	csrw(CSR_SCTRSTATUS, 1);
	RECS("the freezing trap is not recorded", br, 1);
	ctr_reset(0);
	vcall(CALL_VS, vs_bp, C_S, C_BPFRZ);
	CHK("sctrctl.BPFRZ does not freeze a trap into VS", csrr(CSR_SCTRSTATUS) & ST_FROZEN, 0);
	RECS("so it is recorded", br, 2);
	csrw(medeleg, 0);
	csrw(CSR_HEDELEG, 0);
}

/* Smctr "State Enable Access Control" without Smstateen: VS reaches
 * vsctrctl through sctrctl, sctrstatus and SCTRCLR; sctrdepth and
 * vsctrctl's own number are virtual instructions; mctrctl is illegal;
 * VU gets a virtual instruction for all of them */
static void access(void)
{
	ctr_reset(0);
	CHK("VS reads sctrctl", vcall(CALL_VS, vs_rd_sctrctl, C_S | C_STE | C_BPFRZ, 0), ECALL_VS);
	CHK("and gets vsctrctl", ctr_mtrap.a0, C_S | C_STE | C_BPFRZ);
	csrw(CSR_MCTRCTL, C_U);
	csrw(CSR_VSCTRCTL, 0);
	CHK("VS writes sctrctl", ctr_call(CALL_VS, (void (*)(void))vs_wr_sctrctl, 0, 0), ECALL_VS);
	csrc(mstatus, MSTATUS_MPV);
	CHK("the write reached vsctrctl (its fields only)", csrr(CSR_VSCTRCTL), VS_ALL);
	CHK("not mctrctl", csrr(CSR_MCTRCTL), 0);  /* ctr_call wrote 0 */
	csrw(CSR_VSCTRCTL, 0);
	csrw(CSR_SCTRSTATUS, 5);
	CHK("VS reads sctrstatus", vcall(CALL_VS, vs_rd_status, 0, 0), ECALL_VS);
	CHK("the shared WRPTR", ctr_mtrap.a0, 5);
	CHK("VS sctrdepth: virtual instruction", vcall(CALL_VS, vs_rd_depth, 0, 0), VIRTUAL);
	CHK("VS vsctrctl by number: virtual instruction", vcall(CALL_VS, vs_rd_vsctrctl, 0, 0), VIRTUAL);
	CHK("VS mctrctl: illegal instruction", vcall(CALL_VS, vs_rd_mctrctl, 0, 0), ILLEGAL);
	CHK("VU sctrctl: virtual instruction", vcall(CALL_VU, vs_rd_sctrctl, 0, 0), VIRTUAL);
	CHK("VU sctrstatus: virtual instruction", vcall(CALL_VU, vs_rd_status, 0, 0), VIRTUAL);
	CHK("VU SCTRCLR: virtual instruction", vcall(CALL_VU, vs_sctrclr, 0, 0), VIRTUAL);
	ctr_reset(0);
	vcall(CALL_VS, vs_fn, C_S, 0);
	CHK("VS SCTRCLR executes", vcall(CALL_VS, vs_sctrclr, 0, 0), ECALL_VS);
	CHK("and cleared the entries", ent(0, 1), 0);
}

int main(void)
{
	csrw(medeleg, 0);
	csrw(mideleg, 0);
	csrw(mie, 0);
	CHK("device tree lists smctr", rt_fdt_has_ext("smctr"), 1);
	CHK("misa.H", (csrr(misa) >> 7) & 1, 1);
	recording();
	freeze();
	access();
	ctr_reset(4);
	return rt_done();
}
