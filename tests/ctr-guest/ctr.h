/* Shared definitions of the tests/ctr-guest programs: Smctr/Ssctr CSR
 * numbers and fields (ratified Smctr 1.0), entry access through siselect
 * 0x200-0x2FF, the M/S/U call harness of ctr-lib.S, and a checker that
 * compares the newest CTR entries with a list of expected records. */
#ifndef CTR_GUEST_H
#define CTR_GUEST_H
#include "../bare/rt.h"

#define CSR_SCTRCTL 0x14e
#define CSR_SCTRSTATUS 0x14f
#define CSR_SCTRDEPTH 0x15f
#define CSR_VSCTRCTL 0x24e
#define CSR_MCTRCTL 0x34e
#define CSR_SISELECT 0x150
#define CSR_SIREG 0x151
#define CSR_SIREG2 0x152
#define CSR_SIREG3 0x153
#define CSR_SIREG4 0x155
#define CSR_SIREG5 0x156
#define CSR_SIREG6 0x157
#define CSR_MSTATEEN0 0x30c
#define SCTRCLR_INSN 0x10400073u
#define SCTRCLR ".word 0x10400073"

/* xctrctl fields */
#define C_U (1ul << 0)
#define C_S (1ul << 1)
#define C_M (1ul << 2)
#define C_RASEMU (1ul << 7)
#define C_STE (1ul << 8)
#define C_MTE (1ul << 9)
#define C_BPFRZ (1ul << 11)
#define C_LCOFIFRZ (1ul << 12)
#define C_EXCINH (1ul << 33)
#define C_INTRINH (1ul << 34)
#define C_TRETINH (1ul << 35)
#define C_NTBREN (1ul << 36)
#define C_TKBRINH (1ul << 37)
#define C_INH(type) (1ul << (32 + (type)))	/* filter bit of TYPE 1..15 */
/* every field rvpmu implements (docs/ctr-coverage.md: all optional
 * fields; Custom[3:0] read-only 0) */
#define C_ALL (C_U | C_S | C_M | C_RASEMU | C_STE | C_MTE | C_BPFRZ | C_LCOFIFRZ | \
	       (0x1ful << 33) | (0xfful << 40))

#define ST_FROZEN (1ul << 31)
#define CTR_V 1ul
#define D_TYPE 0xful
#define D_CCV (1ul << 15)
#define D_CC(d) (((d) >> 16) & 0xffff)

/* ctrdata.TYPE */
enum { T_EXC = 1, T_INTR = 2, T_TRET = 3, T_NTBR = 4, T_TKBR = 5, T_INDCALL = 8,
       T_DIRCALL = 9, T_INDJMP = 10, T_DIRJMP = 11, T_CORSWAP = 12, T_RET = 13,
       T_INDLJMP = 14, T_DIRLJMP = 15 };

#define IRQ_SSI 1
#define EXC_BP 3

/* logical entry k: reg 1 = ctrsource, 2 = ctrtarget, 3 = ctrdata */
static inline u64 ent(unsigned k, int reg)
{
	csrw(CSR_SISELECT, 0x200 + k);
	return reg == 1 ? csrr(CSR_SIREG) : reg == 2 ? csrr(CSR_SIREG2) : csrr(CSR_SIREG3);
}

static inline void ent_write(unsigned k, u64 src, u64 tgt, u64 data)
{
	csrw(CSR_SISELECT, 0x200 + k);
	csrw(CSR_SIREG, src);
	csrw(CSR_SIREG2, tgt);
	csrw(CSR_SIREG3, data);
}

static inline u64 wrptr(void)
{
	return csrr(CSR_SCTRSTATUS) & 0xff;
}

/* recording off, depth 16 << enc, entries and status cleared (in M) */
static inline void ctr_reset(unsigned enc)
{
	csrw(CSR_MCTRCTL, 0);
	csrw(CSR_SCTRDEPTH, enc);
	csrw(CSR_SCTRSTATUS, 0);
	asm volatile(SCTRCLR ::: "memory");
}

/* One expected record: ctrsource.PC, ctrtarget.PC, TYPE */
struct rec {
	u64 src, tgt, type;
};
#define R(s, t, ty) { (u64)(s), (u64)(t), (ty) }

/* Check N: exactly the n records exp[0..n-1] (oldest first) were
 * recorded since ctr_reset: logical entry k holds exp[n-1-k] with V = 1,
 * MISP = 0 (no predictor model in system mode) and the TYPE; logical n
 * reads 0 (cleared); WRPTR = n mod depth. */
int check_recs(int n, const char *what, const struct rec *exp, int cnt);

/* Filter a record list: keep records whose TYPE is not in the mask
 * (bit t = drop TYPE t). Returns the kept count. */
int filter_recs(struct rec *out, const struct rec *in, int cnt, unsigned drop);

/* ctr-lib.S: run fn in a mode. mstatus_bits = MPP (mode << 11) plus
 * optionally MPIE; mctrctl is written with ctl just before the mret
 * (label ctr_call_mret), fn gets arg in a0 and must end with a trap to M;
 * ctr_mvec (mtvec meanwhile) writes mctrctl = 0 as its first instruction,
 * saves mcause/mepc/mtval/a0/a1 in ctr_mtrap and returns mcause. */
u64 ctr_call(u64 mstatus_bits, void (*fn)(void), u64 ctl, u64 arg);
struct ctr_trapinfo {
	u64 cause, epc, tval, a0, a1;
};
extern struct ctr_trapinfo ctr_mtrap, ctr_strap;
extern char ctr_call_mret[], ctr_mvec[], ctr_svec[];
/* ctr_svec (set stvec to it): sctrctl = 0 first, saves scause/sepc/stval
 * in ctr_strap, then ecall to M (which ends the ctr_call). */

#define CALL_U ((u64)PRV_U << 11)
#define CALL_S ((u64)PRV_S << 11)
#define CALL_M ((u64)PRV_M << 11)

#endif
