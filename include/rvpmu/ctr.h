/* Smctr/Ssctr Control Transfer Records (ratified v1.0; digest
 * ../shared/spec/ctr.md). A self-contained model: CSRs mctrctl, sctrctl,
 * vsctrctl (VS/VU recording and the V=1 access rules), sctrdepth, sctrstatus; the entry
 * registers ctrsource/ctrtarget/ctrdata behind siselect 0x200-0x2FF; the
 * recording step with mode/type filters, external traps, RASEMU, freeze,
 * CtrCycleCounter and SCTRCLR. RV64 only (MXLEN = XLEN = 64).
 *
 * Contract with the hart (see docs/ctr-coverage.md):
 *  - Report every control transfer that retires, whether or not CTR should
 *    record it: ctr_transfer() for branches, jumps and xRETs, ctr_trap()
 *    for every trap taken. The model needs all privilege changes to know
 *    which cycles CTR was active for (CtrCycleCounter counts only those).
 *  - now_cycles is mcycle-rate time, never decreasing.
 *  - The hart owns mstateen0/hstateen0 and calls ctr_set_stateen() after
 *    each write; it also owns siselect and the Smcsrind CSRIND (bit 60)
 *    checks, which come before ctr_ireg_access().
 *  - Never called in Debug Mode (CTR records nothing there). */
#ifndef RVPMU_CTR_H
#define RVPMU_CTR_H
#include <stdbool.h>
#include <stdint.h>

/* Privilege modes as encoded in mstatus.MPP (2 is not a mode); with V=1
 * (H extension) the mode | CTR_PRIV_V: VU = 4, VS = 5, as the hart's. */
enum { CTR_PRIV_U = 0, CTR_PRIV_S = 1, CTR_PRIV_M = 3, CTR_PRIV_V = 4,
       CTR_PRIV_VU = CTR_PRIV_U | CTR_PRIV_V, CTR_PRIV_VS = CTR_PRIV_S | CTR_PRIV_V };

/* CSR numbers (ctr.md §1) and the SCTRCLR instruction word (§12) */
enum {
	CTR_CSR_SCTRCTL = 0x14E,
	CTR_CSR_SCTRSTATUS = 0x14F,
	CTR_CSR_SCTRDEPTH = 0x15F,
	CTR_CSR_VSCTRCTL = 0x24E,
	CTR_CSR_MCTRCTL = 0x34E,
	CTR_SISELECT_FIRST = 0x200,
	CTR_SISELECT_LAST = 0x2FF,
};
#define CTR_SCTRCLR_INSN UINT32_C(0x10400073)

/* mctrctl fields (§2); sctrctl/vsctrctl use the same positions */
#define CTRCTL_U          (UINT64_C(1) << 0)
#define CTRCTL_S          (UINT64_C(1) << 1)
#define CTRCTL_M          (UINT64_C(1) << 2)
#define CTRCTL_RASEMU     (UINT64_C(1) << 7)
#define CTRCTL_STE        (UINT64_C(1) << 8)
#define CTRCTL_MTE        (UINT64_C(1) << 9)
#define CTRCTL_BPFRZ      (UINT64_C(1) << 11)
#define CTRCTL_LCOFIFRZ   (UINT64_C(1) << 12)
#define CTRCTL_EXCINH     (UINT64_C(1) << 33)
#define CTRCTL_INTRINH    (UINT64_C(1) << 34)
#define CTRCTL_TRETINH    (UINT64_C(1) << 35)
#define CTRCTL_NTBREN     (UINT64_C(1) << 36)
#define CTRCTL_TKBRINH    (UINT64_C(1) << 37)
#define CTRCTL_INDCALLINH (UINT64_C(1) << 40)
#define CTRCTL_DIRCALLINH (UINT64_C(1) << 41)
#define CTRCTL_INDJMPINH  (UINT64_C(1) << 42)
#define CTRCTL_DIRJMPINH  (UINT64_C(1) << 43)
#define CTRCTL_CORSWAPINH (UINT64_C(1) << 44)
#define CTRCTL_RETINH     (UINT64_C(1) << 45)
#define CTRCTL_INDLJMPINH (UINT64_C(1) << 46)
#define CTRCTL_DIRLJMPINH (UINT64_C(1) << 47)
#define CTRCTL_CUSTOM     (UINT64_C(0xF) << 60)
/* fields every implementation has */
#define CTRCTL_MANDATORY  (CTRCTL_U | CTRCTL_S | CTRCTL_M | CTRCTL_BPFRZ)
/* the transfer type filter bits 47:32 (bit 32 + TYPE) */
#define CTRCTL_FILTERS    (CTRCTL_EXCINH | CTRCTL_INTRINH | CTRCTL_TRETINH | \
	CTRCTL_NTBREN | CTRCTL_TKBRINH | (UINT64_C(0xFF) << 40))
/* fields an implementation may leave read-only 0 */
#define CTRCTL_OPTIONAL   (CTRCTL_RASEMU | CTRCTL_STE | CTRCTL_MTE | \
	CTRCTL_LCOFIFRZ | CTRCTL_FILTERS)

/* sctrstatus (§4) */
#define CTRSTATUS_WRPTR   UINT32_C(0xFF)
#define CTRSTATUS_FROZEN  (UINT32_C(1) << 31)

/* entry register fields (§5) */
#define CTRSOURCE_V       UINT64_C(1)
#define CTRTARGET_MISP    UINT64_C(1)
#define CTRDATA_TYPE      UINT64_C(0xF)
#define CTRDATA_CCV       (UINT64_C(1) << 15)
#define CTRDATA_CCM_SHIFT 16
#define CTRDATA_CCM       (UINT64_C(0xFFF) << 16)
#define CTRDATA_CCE_SHIFT 28
#define CTRDATA_CCE       (UINT64_C(0xF) << 28)

/* ctrdata.TYPE (§6) */
enum ctr_type {
	CTR_TYPE_NONE = 0,      /* not used by CTR: never recorded */
	CTR_TYPE_EXC = 1,       /* exception */
	CTR_TYPE_INTR = 2,      /* interrupt */
	CTR_TYPE_TRET = 3,      /* trap return (MRET/SRET) */
	CTR_TYPE_NTBR = 4,      /* not-taken branch */
	CTR_TYPE_TKBR = 5,      /* taken branch */
	CTR_TYPE_INDCALL = 8,
	CTR_TYPE_DIRCALL = 9,
	CTR_TYPE_INDJMP = 10,   /* indirect jump without linkage */
	CTR_TYPE_DIRJMP = 11,   /* direct jump without linkage */
	CTR_TYPE_CORSWAP = 12,  /* co-routine swap */
	CTR_TYPE_RET = 13,      /* function return */
	CTR_TYPE_INDLJMP = 14,  /* other indirect jump with linkage */
	CTR_TYPE_DIRLJMP = 15,  /* other direct jump with linkage */
};

/* Instruction classes for ctr_classify(). Compressed jumps are passed in
 * their expanded form: C.J = JAL rd=x0, C.JAL = JAL rd=x1, C.JR rs1 =
 * JALR rd=x0, C.JALR rs1 = JALR rd=x1; C.BEQZ/C.BNEZ are BRANCH. */
enum ctr_insn {
	CTR_INSN_BRANCH,        /* BEQ..BGEU, C.BEQZ, C.BNEZ */
	CTR_INSN_JAL,
	CTR_INSN_JALR,
	CTR_INSN_CM_JT,         /* Zcmt */
	CTR_INSN_CM_JALT,
	CTR_INSN_CM_POPRET,     /* Zcmp CM.POPRET and CM.POPRETZ */
};

struct ctr_config {
	bool present;           /* Smctr exists; false: every call is a no-op / CTR_NOT_CTR */
	uint8_t depths;         /* bit d: sctrdepth.DEPTH = d (16 << d entries) exists, d = 0..4 */
	uint64_t ctl_optional;  /* implemented CTRCTL_OPTIONAL fields (STE and MTE together or neither) */
	bool has_h;             /* vsctrctl exists; VS/VU modes are passed */
	bool smstateen;         /* mstateen0.CTR gates access from S */
	bool misp;              /* ctrtarget.MISP implemented */
	bool type_field;        /* ctrdata.TYPE implemented */
	bool cycles;            /* ctrdata.CCV and CCM implemented */
	unsigned cce_bits;      /* implemented CCE bits, 0..4 (with cycles) */
};

/* Every field implemented: depths 16..256, all optional mctrctl fields,
 * MISP, TYPE, cycle counting with 4 CCE bits, Smstateen; no H. */
void ctr_config_default(struct ctr_config *cfg);

struct ctr_entry {
	uint64_t source, target, data;   /* ctrsource, ctrtarget, ctrdata */
};

/* State; fields are private to src/pmu/ctr.c (tests may read them). */
struct ctr {
	struct ctr_config cfg;
	uint64_t mctrctl;       /* sctrctl is a view of it */
	uint64_t vsctrctl;
	uint64_t ctl_mask;      /* writable mctrctl bits */
	unsigned depth_enc;     /* sctrdepth.DEPTH */
	unsigned wrptr;         /* sctrstatus.WRPTR */
	bool frozen;            /* sctrstatus.FROZEN */
	bool mstateen_ctr, hstateen_ctr;  /* mstateen0/hstateen0 bit 54 */
	struct ctr_entry e[256];          /* physical entries */
	/* CtrCycleCounter: cc_count active cycles up to time cc_last. cc_timed
	 * is false while the time of the last reset is unknown (CSR writes
	 * carry no time); cc_valid false makes the next record CCV = 0. */
	uint64_t cc_count, cc_last;
	bool cc_timed, cc_valid;
};

/* Returns 0, or -1 for an invalid configuration. Reset (the spec leaves it
 * unspecified): control registers 0, largest supported depth, WRPTR 0,
 * not frozen, entries 0, mstateen0.CTR = hstateen0.CTR = 0. */
int ctr_init(struct ctr *c, const struct ctr_config *cfg);

/* Result of an access; ILLEGAL and VIRTUAL are exception causes. */
enum {
	CTR_NOT_CTR = -1,       /* not CTR's (or CTR absent): the hart handles it */
	CTR_OK = 0,
	CTR_ILLEGAL = 2,        /* raise illegal instruction */
	CTR_VIRTUAL = 22,       /* raise virtual instruction (only from VS/VU) */
};
enum ctr_csr_op { CTR_CSR_WRITE, CTR_CSR_SET, CTR_CSR_CLEAR };

/* mstateen0 and hstateen0 values (only bit 54, CTR, is used). */
void ctr_set_stateen(struct ctr *c, uint64_t mstateen0, uint64_t hstateen0);

/* Zicsr access to a CTR CSR from privilege priv: on CTR_OK *old is the
 * value before; writes = 0 for CSRRS/CSRRC with rs1 = x0 (no write). */
int ctr_csr_access(struct ctr *c, unsigned priv, unsigned csr,
		   enum ctr_csr_op op, uint64_t val, int writes, uint64_t *old);

/* Access to sireg<n> (n = 1..6, sireg is 1) while siselect = siselect;
 * also vsireg<n>/vsiselect from HS, and sireg<n> from VS (reaching
 * vsireg<n>: the same entries). CTR_NOT_CTR outside 0x200-0x2FF. There
 * is no miselect window for entries. */
int ctr_ireg_access(struct ctr *c, unsigned priv, uint64_t siselect,
		    unsigned n, enum ctr_csr_op op, uint64_t val, int writes,
		    uint64_t *old);

/* A retired control transfer from mode priv_from (landing in priv_to;
 * equal except for traps and xRETs). to_pc of a not-taken branch is the
 * next sequential pc. Returns 1 if an entry was written or popped. */
int ctr_transfer(struct ctr *c, unsigned priv_from, unsigned priv_to,
		 uint64_t from_pc, uint64_t to_pc, enum ctr_type type,
		 int mispredicted, uint64_t now_cycles);

/* A trap taken from priv_from to priv_to: epc as written to xepc, target =
 * the trap handler pc, cause as in mcause (bit 63 = interrupt). Applies
 * LCOFIFRZ/BPFRZ freeze (vsctrctl's for a trap to VS), else records as
 * exception/interrupt. Returns 1 if recorded. */
int ctr_trap(struct ctr *c, unsigned priv_from, unsigned priv_to,
	     uint64_t epc, uint64_t target, uint64_t cause, uint64_t now_cycles);

/* Freeze on an LCOFI / breakpoint trap to M or S (ctr_trap calls these):
 * sets FROZEN if LCOFIFRZ / BPFRZ is 1; returns whether it did. */
bool ctr_freeze_lcofi(struct ctr *c);
bool ctr_freeze_bp(struct ctr *c);

/* SCTRCLR executed in priv: CTR_OK after clearing, CTR_ILLEGAL,
 * CTR_VIRTUAL, or CTR_NOT_CTR if CTR is absent (the hart decodes it as
 * unknown). */
int ctr_sctrclr(struct ctr *c, unsigned priv);
/* SCTRCLR's effect, unchecked: all entries and CtrCycleCounter zeroed,
 * next record CCV = 0; WRPTR and FROZEN unchanged. */
void ctr_clear(struct ctr *c);

/* CTR type of a retiring jump/branch (§6 opcode table); CTR_TYPE_NONE for
 * classes that are not transfers. */
enum ctr_type ctr_classify(enum ctr_insn cls, unsigned rd, unsigned rs1,
			   bool taken);

/* CtrCycleCounter value -> ctrdata CC[15:0] with cce_bits implemented
 * CCE bits, saturating; and CC[15:0] -> cycles (§10). */
uint32_t ctr_cc_encode(uint64_t count, unsigned cce_bits);
uint64_t ctr_cc_decode(uint32_t cc);

/* One valid entry for the host tool. */
struct ctr_record {
	uint64_t from, to;      /* ctrsource.PC, ctrtarget.PC (bit 0 cleared) */
	enum ctr_type type;
	bool misp, ccv;
	uint64_t cycles;        /* decoded CC, meaningful when ccv */
};
/* Copy up to max valid entries in logical order (newest first); returns
 * how many were copied. Read while frozen for a stable buffer. */
unsigned ctr_read_records(const struct ctr *c, struct ctr_record *out,
			  unsigned max);

/* Is recording enabled for some mode (mctrctl.M, S or U, vsctrctl.S or U)? */
bool ctr_enabled(const struct ctr *c);

/* Depth in entries (16..256). */
unsigned ctr_depth(const struct ctr *c);

#endif
