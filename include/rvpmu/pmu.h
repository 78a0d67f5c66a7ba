/* The PMU hardware model: mcycle, minstret, mhpmcounter3..31 and their
 * event selectors, mcountinhibit, mcounteren/scounteren gating, Sscofpmf,
 * Smcntrpmf and Smcdeleg/Ssccfg. RV64 only. Self-contained: the hart calls
 * in for CSR accesses and retirement; the PMU never calls the hart.
 *
 * Contract with the step loop (see docs/pmu-coverage.md):
 *  - Counter state is exact only at pmu_retire() boundaries: before any PMU
 *    CSR access, retire every instruction that precedes the accessing one.
 *  - After a write, retire the writing instruction on its own (one
 *    pmu_retire call for it alone): it counts as the counters stood before
 *    its first write (mcountinhibit, mcyclecfg/minstretcfg, mhpmevent),
 *    as Sail decides should_inc_minstret ahead of the instruction; and a
 *    write that returns PMU_F_REPLACE replaces that instruction's
 *    increment of the written counters.
 *  - pmu_horizon() says how many steps may run before the next
 *    retirement must be reported; recompute it after any PMU CSR write
 *    (PMU_F_WROTE), privilege change or pmu_set_cde().
 *  - OR pmu_take_mip() into mip after each pmu_retire()/pmu_count(). */
#ifndef RVPMU_PMU_H
#define RVPMU_PMU_H
#include <stdbool.h>
#include <stdint.h>

/* Privilege modes as encoded in mstatus.MPP, and with the hypervisor
 * extension's V=1 (bit 2): VU and VS. */
enum { PMU_PRIV_U = 0, PMU_PRIV_S = 1, PMU_PRIV_M = 3, PMU_PRIV_VU = 4, PMU_PRIV_VS = 5 };
#define PMU_MODES 8   /* size of per-mode arrays, indexed by the values above */

/* Canonical events raised by the hart and the models. A counter counts the
 * sum of the events in its decoded set. Instruction-class events are raised
 * by retiring instructions (at most once each per instruction), EXCEPTION
 * and INTERRUPT when a trap is taken. */
enum pmu_event {
	PMU_EV_NONE = 0,        /* never raised: selector 0 = "no event" */
	PMU_EV_CYCLES,          /* core clock cycles */
	PMU_EV_INSTRET,         /* retired instructions */
	PMU_EV_LOAD,            /* loads, incl. FP loads and LR */
	PMU_EV_STORE,           /* stores, incl. FP stores and SC */
	PMU_EV_BRANCH,          /* conditional branches */
	PMU_EV_BRANCH_TAKEN,    /* conditional branches taken */
	PMU_EV_JAL,
	PMU_EV_JALR,
	PMU_EV_CALL,            /* jal/jalr with rd = x1/x5 */
	PMU_EV_RET,             /* jalr x0, 0(x1/x5) */
	PMU_EV_INT_MUL,
	PMU_EV_INT_DIV,
	PMU_EV_FP,              /* F/D arithmetic, conversions, moves */
	PMU_EV_ATOMIC,          /* AMOs, LR, SC */
	PMU_EV_CSR,             /* Zicsr instructions */
	PMU_EV_EXCEPTION,       /* synchronous exceptions taken */
	PMU_EV_INTERRUPT,       /* interrupts taken */
	PMU_EV_COUNT
};
/* Ids PMU_EV_COUNT..PMU_EV_MAX-1 are the microarchitectural events that
 * core profiles define (include/rvpmu/profile.h). A set of events is a
 * 128-bit mask (bit e: event e), room for more ids than PMU_EV_MAX, which
 * sizes the arrays of counts. */
#define PMU_EV_MAX 80
typedef unsigned __int128 pmu_evset;
#define PMU_EV_BIT(e) ((pmu_evset)1 << (e))
_Static_assert(PMU_EV_MAX <= 128, "event sets are 128-bit");
/* The lowest event of a non-empty set. */
static inline unsigned pmu_evset_first(pmu_evset s)
{
	return (uint64_t)s ? (unsigned)__builtin_ctzll((uint64_t)s)
			   : 64 + (unsigned)__builtin_ctzll((uint64_t)(s >> 64));
}

/* A profile's mhpmevent selector decoder: the canonical events (a set of
 * PMU_EV_BIT()s) counted for selector bits 55:0 of an mhpmevent value. */
typedef pmu_evset pmu_decode_fn(void *ctx, uint64_t selector);

/* Default "virt" decoder: selector = an enum pmu_event value (1 = cycles,
 * 2 = instructions, ...); 0 and unknown values count nothing. */
pmu_evset pmu_decode_virt(void *ctx, uint64_t selector);
const char *pmu_event_name(enum pmu_event e);

struct pmu_config {
	unsigned n_hpm;         /* implemented mhpmcounter3..(2+n_hpm), 0..29 */
	unsigned hpm_width;     /* implemented bits of each mhpmcounter, 1..64 */
	bool has_s, has_u;      /* privilege modes (has_s requires has_u) */
	bool has_h;             /* the hypervisor extension: VS/VU, VSINH/VUINH, hcounteren */
	bool sscofpmf, smcntrpmf, smcdeleg;  /* smcdeleg means Smcdeleg+Ssccfg */
	pmu_decode_fn *decode;  /* NULL: pmu_decode_virt */
	void *decode_ctx;
	/* most occurrences of each event one step can raise; 0 means 1.
	 * Raise [PMU_EV_CYCLES] when a timing model makes CPI > 1. */
	uint32_t max_per_step[PMU_EV_MAX];
	/* the time CSR (0xC01); NULL: the PMU gates the access but returns
	 * PMU_NOT_PMU so the hart supplies the value */
	uint64_t (*time_read)(void *ctx);
	void *time_ctx;
};

/* QEMU-virt-like: 16 hpm counters of 64 bits, S and U, every extension on. */
void pmu_config_default(struct pmu_config *cfg);

/* State; fields are private to src/pmu (tests may read them). */
struct pmu {
	struct pmu_config cfg;
	uint64_t ctr[32];       /* [0] mcycle, [2] minstret, [3..31] mhpmcounterN */
	uint64_t event[32];     /* [3..31] mhpmeventN */
	pmu_evset evset[32];    /* decoded canonical events of each counter */
	uint64_t cyclecfg, instretcfg;   /* Smcntrpmf mcyclecfg / minstretcfg */
	uint32_t mcountinhibit, mcounteren, scounteren, hcounteren;
	bool cde;               /* menvcfg.CDE (input from the hart) */
	uint32_t impl;          /* counters that exist: bits 0, 2, 3..2+n_hpm */
	uint64_t hpm_mask;      /* implemented bits of an mhpmcounter */
	uint32_t active[PMU_MODES];  /* per mode: counters that count there */
	uint32_t replace;       /* written by the current instruction */
	/* active and evset as they were before the current instruction's
	 * first write (held): its own events count by them */
	bool held;
	uint32_t held_active[PMU_MODES];
	pmu_evset held_evset[32];
	bool lcofi_req;         /* count-overflow interrupt request not yet taken */
};

/* Returns 0, or -1 for an invalid configuration. All registers reset to 0
 * (the spec leaves them UNSPECIFIED; 0 keeps runs deterministic). */
int pmu_init(struct pmu *p, const struct pmu_config *cfg);

/* ---- CSR access (Zicsr semantics: read old, then apply op when writes) */
enum pmu_csr_op { PMU_CSR_WRITE, PMU_CSR_SET, PMU_CSR_CLEAR };
enum {
	PMU_NOT_PMU = -1,       /* not a PMU CSR: the hart handles it */
	PMU_OK = 0,
	PMU_ILLEGAL = 2,        /* raise illegal instruction (cause 2) */
	PMU_VIRTUAL = 22,       /* raise virtual instruction (cause 22; V=1 only) */
};
/* Flags reported by a successful write. */
enum {
	PMU_F_WROTE = 1,        /* PMU state changed: recompute pmu_horizon() */
	PMU_F_REPLACE = 2,      /* a counter was written: retire this insn alone next */
};

/* Access PMU CSR csr from privilege priv. writes = 0 for CSRRS/CSRRC with
 * rs1 = x0 and CSRRSI/CSRRCI with uimm = 0. On PMU_OK *old holds the value
 * before the access. flags may be NULL. */
int pmu_csr_access(struct pmu *p, unsigned priv, unsigned csr,
		   enum pmu_csr_op op, uint64_t val, int writes,
		   uint64_t *old, unsigned *flags);

/* Smcdeleg indirect window: an access to sireg<n> (n = 1..6; sireg is 1)
 * while siselect holds sel. PMU_NOT_PMU when sel is outside 0x40-0x5F. */
int pmu_sireg_access(struct pmu *p, unsigned priv, uint64_t sel, unsigned n,
		     enum pmu_csr_op op, uint64_t val, int writes,
		     uint64_t *old, unsigned *flags);

/* menvcfg.CDE (bit 60): the writable menvcfg bits the PMU contributes, and
 * the current value. The hart owns menvcfg. */
#define PMU_MENVCFG_CDE (UINT64_C(1) << 60)
uint64_t pmu_menvcfg_mask(const struct pmu *p);
void pmu_set_cde(struct pmu *p, bool cde);

/* ---- counting */

/* Account one batch of steps executed at priv: counts[e] occurrences of
 * each canonical event ([PMU_EV_INSTRET] = instructions retired). Returns
 * the counters whose OF went 0 -> 1 (Sscofpmf), for sampling and skid. */
uint32_t pmu_retire(struct pmu *p, unsigned priv, const uint64_t counts[PMU_EV_MAX]);
/* n occurrences of one event, part of the current instruction: it does
 * not end it (a pending PMU_F_REPLACE and the state before its writes
 * still apply; pmu_retire ends it). */
uint32_t pmu_count(struct pmu *p, unsigned priv, unsigned e, uint64_t n);
/* n retired instructions of one cycle each and no other events. */
uint32_t pmu_retire_n(struct pmu *p, unsigned priv, uint64_t n);
/* Has the current instruction changed what counts (a PMU CSR write not
 * yet ended by pmu_retire)? */
bool pmu_held(const struct pmu *p);

/* Steps that may run at priv before the next overflow can happen: running
 * fewer than this many cannot raise a count-overflow request, running
 * exactly this many can raise it only in the last step. UINT64_MAX when no
 * counter can request one. Counts each step as raising max_per_step of
 * every event. */
uint64_t pmu_horizon(const struct pmu *p, unsigned priv);
/* pmu_horizon() without the counters that count the cycles event alone,
 * for a hart that stops itself once that event has grown by *cycles (the
 * fewest any of them needs to wrap; UINT64_MAX: none). cycles NULL:
 * pmu_horizon(). */
uint64_t pmu_horizon_cycles(const struct pmu *p, unsigned priv, uint64_t *cycles);
/* Events counter i needs until it wraps (2^W - value). */
uint64_t pmu_to_wrap(const struct pmu *p, unsigned i);
/* Union of the events counted at priv: events the hart must report. */
pmu_evset pmu_events_in_use(const struct pmu *p, unsigned priv);

/* mip bits to set: MIP_LCOFIP (bit 13) once per pending count-overflow
 * request, which this call consumes. Software clears mip.LCOFIP. */
#define PMU_MIP_LCOFIP (UINT64_C(1) << 13)
uint64_t pmu_take_mip(struct pmu *p);

/* ---- CSR numbers */
enum {
	PMU_CSR_SCOUNTEREN = 0x106, PMU_CSR_SCOUNTINHIBIT = 0x120,
	PMU_CSR_MCOUNTEREN = 0x306, PMU_CSR_HCOUNTEREN = 0x606, PMU_CSR_MCOUNTINHIBIT = 0x320,
	PMU_CSR_MCYCLECFG = 0x321, PMU_CSR_MINSTRETCFG = 0x322,
	PMU_CSR_MHPMEVENT3 = 0x323, PMU_CSR_MHPMEVENT31 = 0x33f,
	PMU_CSR_MCYCLE = 0xb00, PMU_CSR_MINSTRET = 0xb02,
	PMU_CSR_MHPMCOUNTER3 = 0xb03, PMU_CSR_MHPMCOUNTER31 = 0xb1f,
	PMU_CSR_CYCLE = 0xc00, PMU_CSR_TIME = 0xc01, PMU_CSR_INSTRET = 0xc02,
	PMU_CSR_HPMCOUNTER3 = 0xc03, PMU_CSR_HPMCOUNTER31 = 0xc1f,
	PMU_CSR_SCOUNTOVF = 0xda0,
};

/* mhpmevent (Sscofpmf) and mcyclecfg/minstretcfg (Smcntrpmf) fields */
#define PMU_OF    (UINT64_C(1) << 63)
#define PMU_MINH  (UINT64_C(1) << 62)
#define PMU_SINH  (UINT64_C(1) << 61)
#define PMU_UINH  (UINT64_C(1) << 60)
#define PMU_VSINH (UINT64_C(1) << 59)
#define PMU_VUINH (UINT64_C(1) << 58)
#define PMU_SELECTOR_MASK ((UINT64_C(1) << 56) - 1)

#endif
