/* A RISC-V hart: architectural state and the step loop. */
#ifndef RVPMU_HART_H
#define RVPMU_HART_H
#include <stddef.h>
#include <stdint.h>
#include "rvpmu/gmem.h"
#include "rvpmu/isa.h"
#include "rvpmu/pmu.h"
#include "rvpmu/uarch.h"

struct ctr;
struct jit;
#define HART_JIT_INSNS UARCH_BLOCK_INSNS   /* most instructions in a translated block */

/* Exception causes (Privileged ISA, mcause table). */
enum {
	CAUSE_MISALIGNED_FETCH = 0, CAUSE_FETCH_ACCESS = 1, CAUSE_ILLEGAL_INSN = 2,
	CAUSE_BREAKPOINT = 3, CAUSE_MISALIGNED_LOAD = 4, CAUSE_LOAD_ACCESS = 5,
	CAUSE_MISALIGNED_STORE = 6, CAUSE_STORE_ACCESS = 7, CAUSE_USER_ECALL = 8,
	CAUSE_SUPERVISOR_ECALL = 9, CAUSE_MACHINE_ECALL = 11,
	CAUSE_FETCH_PAGE_FAULT = 12, CAUSE_LOAD_PAGE_FAULT = 13,
	CAUSE_STORE_PAGE_FAULT = 15,
	/* the hypervisor extension's */
	CAUSE_VS_ECALL = 10, CAUSE_FETCH_GUEST_PAGE_FAULT = 20,
	CAUSE_LOAD_GUEST_PAGE_FAULT = 21, CAUSE_VIRTUAL_INSN = 22,
	CAUSE_STORE_GUEST_PAGE_FAULT = 23,
};

/* Interrupt numbers (mip/mie bits). */
enum {
	IRQ_SSI = 1, IRQ_VSSI = 2, IRQ_MSI = 3, IRQ_VSTI = 6, IRQ_VSEI = 10, IRQ_STI = 5, IRQ_MTI = 7, IRQ_SEI = 9,
	IRQ_MEI = 11, IRQ_LCOFI = 13,
};

enum { PRIV_U = 0, PRIV_S = 1, PRIV_M = 3 };
/* A mode with the virtualization bit (the hypervisor extension's V) beside
 * the privilege: priv | V << 2, so VU = 4 and VS = 5 (the PMU's encoding
 * too). A trap target of PRIV_VS means VS-mode. */
enum { MODE_V = 4, PRIV_VU = PRIV_U | MODE_V, PRIV_VS = PRIV_S | MODE_V };
/* hart_mode's values fit below this (a tally's rows: U, S, -, M, VU, VS) */
#define HART_MODES 6

enum hart_stop {
	STOP_BUDGET,   /* the instruction budget ran out */
	STOP_TRAP,     /* an exception: cause and tval are set, pc is the insn */
	STOP_SYNC,     /* privileged state changed (CSR write, xRET): the
	                  caller re-checks interrupts and counter horizons */
	STOP_WFI,      /* WFI retired: wait for an interrupt */
};

/* Privileged CSR state (system mode). Counter CSRs live in struct pmu. */
struct hart_csrs {
	uint64_t mstatus, medeleg, mideleg, mie, mip, mtvec, mepc, mcause, mtval;
	uint64_t mscratch, menvcfg, miselect;
	uint64_t stvec, sepc, scause, stval, sscratch, senvcfg, satp, siselect;
	uint64_t pmpcfg[16], pmpaddr[64];
	uint64_t stimecmp;      /* Sstc */
	/* the hypervisor extension (src/hart/hyp.c); hvip, hip and hie are
	 * views of mip and mie, hcounteren lives in the PMU */
	uint64_t hstatus, hedeleg, hideleg, htimedelta, htval, htinst, henvcfg, hgatp;
	uint64_t vsstatus, vstvec, vsscratch, vsepc, vscause, vstval, vsatp;
	uint64_t vstimecmp;     /* Sstc with H */
	uint64_t mtinst, mtval2;
	/* AIA (src/hart/aia.c): interrupt filtering and virtual interrupts
	 * for S level (mvien, mvip's own bits, sie's own bits) and for VS
	 * level (hvien, hvictl, hvip's bits 13-63, vsie's own bits), and
	 * the VS window's select */
	uint64_t mvien, mvip, sie_v;
	uint64_t hvien, hvictl, hvip_v, vsie_v, vsiselect;
	uint64_t mvendorid, marchid, mimpid, mhartid, misa;
};

/* One page of decoded instructions: a slot per 2-byte position, plus two
 * sentinel slots past the end that send the step loop to the next page. */
#define DPAGE_SLOTS (GPAGE_SIZE / 2)
struct dpage {
	uint64_t vpn;          /* guest page number, ~0 when unused */
	uint32_t live;         /* slots decoded (id != INSN_NONE) */
	/* translated blocks start here while jit_gen is the translator's
	 * generation (jit_generation); their instructions lie in bytes
	 * [jit_lo, jit_hi) of the page */
	uint16_t jit_lo, jit_hi;
	uint64_t jit_gen;
	/* the guest wrote into its translated code: from then on the step
	 * loop runs the page (self-modifying code) */
	uint8_t no_jit;
	struct dinsn s[DPAGE_SLOTS + 2];
};

#define DCACHE_SIZE 1024   /* direct-mapped cache of decoded pages */

/* A cached Sv39/Sv48 translation of one 4 KiB page (src/hart/mmu.c):
 * valid for the mode and status bits in key, for the accesses in perm
 * (1 << enum mmu_access) that need no A/D update. With V=1 it is the
 * whole two-stage translation. */
#define HART_TLB_SIZE 256
struct hart_tlb {
	uint64_t vpn, ppn, key;
	uint8_t valid, perm;
};

/* Trap storms (src/hart/storm.c): a trap as the storm check saw it. */
struct hart_trap_note {
	uint64_t code;         /* cause, with bit 63 set for an interrupt */
	uint64_t pc, tval;
	uint64_t at;           /* instret when taken, or when its handler returned to pc */
	uint32_t repeats;      /* in a row with nothing retired at pc in between */
	uint8_t priv, valid;
};
struct hart_storm {
	struct hart_trap_note last;   /* the latest trap */
	struct hart_trap_note fault;  /* the latest fault (not an ecall): a handler may return to it */
	uint64_t entry_at;            /* instret at the latest trap */
	uint64_t idle;                /* traps taken with nothing retired since the one before */
};

struct hart {
	uint64_t x[33];        /* x[32] absorbs writes to x0 */
	uint64_t f[32];        /* NaN-boxed floating-point registers */
	uint64_t pc;
	uint32_t fflags, frm;
	uint64_t instret;      /* retired instructions */
	uint64_t cause, tval;  /* of the last STOP_TRAP */
	uint64_t resv_addr;    /* LR/SC reservation, ~0 when none */
	/* instructions translated code may still run (src/hart/jit.c): read
	 * and written by every block, so kept beside the registers. 23 KB
	 * further down (after the TLBs) it made branchy's translated code
	 * 2.3x slower on an AMD EPYC host (bench/NOTES.md, 2026-12-07) */
	int64_t jit_budget;
	/* the hypervisor extension's extra trap values for the next trap
	 * taken (htval/mtval2 = GPA >> 2, htinst/mtinst), and whether tval is
	 * a guest virtual address (GVA) of an access made with V=1 from V=0
	 * (HLV/HSV, MPRV with MPV); hart_enter_trap clears them */
	uint64_t tval2, tinst;
	uint8_t tval_gva;

	struct gmem mem;
	struct dpage *dcache[DCACHE_SIZE];

	uint8_t priv;          /* current privilege mode */
	uint8_t virt;          /* the hypervisor extension's V: VS/VU when 1 */
	uint8_t has_h;         /* the hypervisor extension (misa.H) */
	uint8_t system;        /* 1: privileged architecture live (system mode) */
	uint8_t fp_slow;       /* mstatus.FS is not Dirty: FP insns take the check */
	struct hart_csrs csr;
	uint64_t mip_hw;       /* interrupt lines from devices (MTIP, MSIP, ...) */
	struct pmu pmu;
	uint64_t pmu_synced;   /* instret already reported to the PMU */
	uint64_t evc[PMU_EV_MAX];    /* events not yet reported to the PMU */

	/* microarchitecture models observing the retire stream (NULL: off);
	 * uarch_map turns their events into canonical ones (0 = none) */
	struct uarch *uarch;
	uint8_t uarch_map[UARCH_EV_COUNT];
	/* the models' totals at the last fold into evc (retire_fold) */
	uint64_t uev_synced[UARCH_EV_COUNT];
	struct retire_rec rr;
	uint8_t rr_pending;
	uint8_t rr_bare;       /* UARCH_RF_BARE_*: this run's untranslated sides */
	/* debugging (rvpmu record --trace): called as each instruction of the
	 * counting variant retires, h->rr describing it; set, it forces that
	 * variant and the retire stream */
	void (*trace)(void *ctx, struct hart *h);
	void *trace_ctx;
	/* control transfer records (Smctr), NULL when the core has none;
	 * ctr_on: some mode is enabled, so transfers are reported */
	struct ctr *ctr;
	uint8_t ctr_on;
	/* virtual memory (system mode): translation on for fetch / data */
	uint8_t vm_fetch, vm_data;
	/* PMP (system mode): some active entry is locked, so M-mode accesses
	 * are checked too; RAM, whose pages carry the PMP summary bits */
	uint8_t pmp_locked;
	/* misaligned loads and stores raise address-misaligned exceptions
	 * (the profile's "misaligned": "trap"), else the hart does them */
	uint8_t misaligned_trap;
	/* Sstc: stimecmp exists; with menvcfg.STCE it drives STIP */
	uint8_t sstc;
	/* Smaia/Ssaia without an IMSIC: mtopi, stopi, vstopi, mvien/mvip,
	 * hvien/hvictl/hviprio, the iprio windows (src/hart/aia.c) */
	uint8_t aia;
	uint64_t ram_base, ram_end;
	struct hart_tlb tlb[HART_TLB_SIZE];
	/* Sscofpmf skid: a counter overflow raises LCOFIP skid retirements
	 * after the overflowing instruction (lcofi_at: when; ~0 = none) */
	uint64_t skid, lcofi_at;
	/* with the models: a run stops once their cycles reach this (a
	 * cycles counter wraps there; UINT64_MAX: never), set by hart_horizon */
	uint64_t cycle_stop;

	/* system mode: loads and stores outside RAM go here; 0 or -1 (fault) */
	int (*mmio)(void *ctx, uint64_t addr, unsigned size, uint64_t *val, int write);
	void *mmio_ctx;

	/* the block translator (src/hart/jit.c; NULL: not made yet or
	 * off): budget (above) and last exit are shared with its code */
	struct jit *jit;
	uint8_t no_jit;        /* --no-jit: the step loop only */
	uint32_t jit_last;
	uint32_t jit_promote;  /* a block to make again, index + 1 (jit_promote()) */
	/* system mode with paging: the TLB keys of this run's data accesses
	 * and fetches, which translated code compares */
	uint64_t jit_dkey, jit_fkey;
	/* with counting blocks: each memory instruction's address, by its
	 * index in the block, for the retire stream */
	uint64_t jit_addr[2 * HART_JIT_INSNS];   /* then, with paging, the physical ones */
	/* with the models, the misaligned ones among them that crossed into
	 * the next L1D line (bit k: instruction k), whose second line the
	 * models look up in C (uarch_block_cross()); 0 between blocks */
	uint64_t jit_xmask;
	uint8_t jit_classes;   /* instruction-class events are counted this run */
	struct hart_jit_prof *jprof;   /* RVPMU_JIT_STATS: NULL unless asked for */
	/* model events translated code counts though no counter does (a mask
	 * of UARCH_EV_*: tests that compare every model event set it) */
	uint64_t uev_always;
	/* retire_observed()'s last answer (uarch_map is fixed once set) */
	struct { pmu_evset in_use; uint64_t always, mask; uint8_t valid; } obs;
	/* a host tool's system-wide view (rvpmu stat ... system): every event
	 * reported to the PMU is also added to tally[hart_mode] (NULL: none), and
	 * the events in observed are raised as if a counter counted them */
	uint64_t (*tally)[PMU_EV_MAX];
	pmu_evset observed;
	/* a host tool's sampling PMU (rvpmu record ... system; NULL: none):
	 * handed the same events as the guest's, it stops the hart where one
	 * of its counters overflows as the guest's does, and host_overflow is
	 * told which (a mask) right after the instruction that made it */
	struct pmu *host_pmu;
	void (*host_overflow)(void *ctx, struct hart *h, uint32_t of);
	void *host_ctx;

	/* time as the guest sees it: derived from instret (deterministic) */
	uint64_t time_hz;      /* modelled timebase, ticks per second */
	uint64_t insn_hz;      /* modelled instructions per second */
	uint64_t time_offset;  /* ticks added by WFI idling and mtime writes */
	/* harts sharing mem (system mode's SMP): a ring through sharer,
	 * NULL when alone; mem_borrowed: another hart of the ring owns it */
	struct hart *sharer;
	uint8_t mem_borrowed;

	struct hart_storm storm;
};
_Static_assert(offsetof(struct hart, jit_budget) < 1024, "jit_budget stays beside the registers (see its comment)");

int hart_init(struct hart *h);
/* Set up h as another hart over owner's memory (a hart of the same
 * machine): a store by one drops what any of them decoded there. */
void hart_init_sharing(struct hart *h, struct hart *owner);
/* User mode: h runs another address space m from now on (a hart of the
 * sharing ring, switched to another process). Everything it decoded or
 * translated goes, and its TLBs, as a switch of satp without ASIDs would
 * flush them; nothing when m is its memory already. */
void hart_switch_mem(struct hart *h, const struct gmem *m);
/* Reset into M-mode with the privileged architecture enabled. */
void hart_reset_system(struct hart *h, uint64_t pc);
/* The hypervisor extension on or off (a core profile's "h"): misa.H, and
 * mideleg's read-only VS bits. */
void hart_set_h(struct hart *h, int on);
void hart_free(struct hart *h);

/* Run until budget instructions have retired or an exception is raised.
 * Returns why it stopped; h->instret counts what retired. */
enum hart_stop hart_run(struct hart *h, uint64_t budget);

/* Drop decoded and translated instructions of [addr, addr+len): call
 * after the host changes guest code (loader, munmap, mprotect). */
void hart_invalidate_code(struct hart *h, uint64_t addr, uint64_t len);
/* The hart itself wrote [addr, addr+len) (physical in system mode): a
 * store or AMO, a page walk's A/D update, firmware's store on the guest's
 * behalf. Drops only the instructions that overlap the bytes written, and
 * may be called while an instruction runs, which then completes as
 * decoded. */
void hart_code_written(struct hart *h, uint64_t addr, uint64_t len);

/* The models' page-table walker (a uarch_walk_fn; ctx is the hart): the
 * physical addresses of the PTEs the walk for va reads under the current
 * satp, without side effects; 0 when satp is Bare or in user mode. */
unsigned hart_page_walk(void *ctx, uint64_t va, uint64_t *pte_pa, unsigned max);

/* What block translation did so far (all 0 when nothing was translated) */
struct hart_jit_stats {
	uint64_t translated, flushes;   /* blocks translated, translation-cache flushes */
	uint64_t inner;                 /* branches blocks went on past (superblocks) */
	uint32_t largest, room;         /* code bytes of the largest block, the most one may take */
	uint64_t bytes;                 /* code bytes made (those flushed too) */
};
void hart_jit_stats(const struct hart *h, struct hart_jit_stats *s);
/* RVPMU_JIT_STATS's lines for harts (all: their instructions), each
 * handed to say without its newline (src/hart/jit_report.c) */
void hart_jit_report(const struct hart *const *harts, unsigned n, uint64_t all,
		     void (*say)(void *ctx, const char *line), void *ctx);

/* Where a user-mode run leaves translated code (RVPMU_JIT_STATS; hart_run
 * counts these while h->jprof is set). Only uint64_t fields: the report
 * sums the harts' as arrays. */
struct hart_jit_prof {
	uint64_t block_runs;    /* translated blocks entered */
	uint64_t in_blocks;     /* instructions retired in them */
	uint64_t short_budget;  /* block starts run stepped: a budget or cycle stop too near */
	uint64_t side_exits;    /* slow accesses (MMIO-like, page-crossing) left to the step loop */
	uint64_t given_back;    /* blocks given back after repeated exits into the step loop */
	uint64_t untranslated;  /* decodes no block could start at */
	uint64_t no_jit_page;   /* decodes on pages written while they held code */
	/* step-loop instructions by kind: counted where the step loop
	 * counts instruction classes (models or counting events on) */
	uint64_t step[INSN_COUNT + 1];   /* [INSN_COUNT]: a page-end sentinel */
};

/* Modelled cycles so far (the timing model's, or one per instruction). */
uint64_t hart_cycles(const struct hart *h);

/* The time CSR as the guest reads it. */
uint64_t hart_time(const struct hart *h);

/* (Re)build the PMU from cfg: counters reset, time read from the hart. */
void hart_pmu_init(struct hart *h, const struct pmu_config *cfg);

/* Report retired instructions to the PMU (before any counter access). */
void hart_sync_pmu(struct hart *h);
/* After hart_sync_pmu: how many instructions a run may retire before a
 * counter can overflow (pmu_horizon). With the models, counters of the
 * cycles event alone are stopped exactly instead: h->cycle_stop, which
 * hart_run honours after the instruction that reaches it. */
uint64_t hart_horizon(struct hart *h);
/* Set mip.LCOFIP once the skid after an overflow has retired. */
void hart_deliver_lcofi(struct hart *h);

/* What SFENCE.VMA with rs1 = rs2 = x0 does: every cached translation of
 * h goes (its own soft TLB and the models' TLBs). */
void hart_sfence_vma(struct hart *h);
/* Take exception cause (or interrupt when irq) with tval at h->pc, with
 * medeleg/mideleg delegation (Privileged ISA, "Trap delegation"). */
void hart_take_trap(struct hart *h, uint64_t cause, uint64_t tval, int irq);
/* The mode a trap would be taken in (PRIV_S when delegated, else PRIV_M). */
int hart_trap_target(const struct hart *h, uint64_t cause, int irq);
/* Take a trap into a given mode (firmware redirecting a trap to S). */
void hart_enter_trap(struct hart *h, uint64_t cause, uint64_t tval, int irq, int target);
/* Trap storms: the run loops call hart_storm_enter() once per trap, before
 * taking it (h->pc and h->priv where it was raised). It counts the trap in
 * h->storm.idle when no instruction retired since the trap before (each
 * such trap costs one unit of --max-insns), and returns 1 when the same
 * trap (cause, pc, mode) has now come HART_STORM_REPEATS times in a row
 * with no instruction retired in between. A return from a handler (xRET,
 * rt_sigreturn) calls hart_storm_resume with the instret it resumes at:
 * back at the pc of the latest fault (an exception other than an ecall),
 * what the handler ran is not progress there, so a fault whose handler
 * keeps returning to it is a storm too. */
#define HART_STORM_REPEATS 10000
enum { HART_EXIT_TRAP_STORM = 123 };   /* the exit status after a storm */
int hart_storm_enter(struct hart *h, uint64_t cause, uint64_t tval, int irq);
void hart_storm_resume(struct hart *h, uint64_t at);
/* The latest trap hart_storm_enter saw: "load page fault (cause 13) at
 * pc 0x..., tval 0x..., in U-mode, taken N times in a row ...". */
void hart_storm_describe(const struct hart *h, char *buf, size_t len);
/* The Privileged ISA's name of an mcause value (irq: an interrupt). */
const char *hart_cause_name(uint64_t cause, int irq);
/* A CSR access as software at privilege priv would make it (firmware
 * uses this at M). Returns 0, or -1 where the access would trap. */
int hart_csr(struct hart *h, int priv, unsigned csr, int op, uint64_t val, uint64_t *old);
enum { HART_CSR_WRITE, HART_CSR_SET, HART_CSR_CLEAR, HART_CSR_READ };
/* What the hart implements, as the device tree lists it (riscv,isa-
 * extensions): *ext gets at most HART_MAX_ISA_EXT names; returns how many.
 * hart_isa_string writes the same as one riscv,isa string ("rv64imafdc_
 * zicntr_..."). */
#define HART_MAX_ISA_EXT 32
size_t hart_isa_extensions(const struct hart *h, const char **ext);
void hart_isa_string(const struct hart *h, char *buf, size_t size);
/* The interrupt to take now, or -1: M level, then HS, then VS, each in
 * the AIA's default priority order (MEI MSI MTI SEI SSI STI SGEI VSEI
 * VSSI VSTI LCOFI), global enables per mode; a VS-level one in VS-mode's
 * numbering (vstopi's IID). */
int hart_pending_irq(const struct hart *h);
/* Some privilege level has an interrupt pending and enabled, global
 * enables aside (AIA "WFI": mtopi, stopi or vstopi is not zero): a WFI
 * ends. */
int hart_wakes(const struct hart *h);
/* Sstc: is menvcfg.STCE set (stimecmp compares and drives STIP)? */
int hart_stce(const struct hart *h);
/* Sstc with H: the supervisor timer lines the compares drive now: STIP
 * (time >= stimecmp, with menvcfg.STCE) and VSTIP (time + htimedelta >=
 * vstimecmp, with henvcfg.STCE too) */
uint64_t hart_timer_lines(const struct hart *h);
/* Firmware access to memory as privilege priv sees it (translation, PMP,
 * devices), byte by byte: 0, or the exception cause with *bad = the
 * faulting address. */
enum hart_vkind { HART_V_LOAD, HART_V_STORE, HART_V_FETCH,
	HART_V_LOADX };   /* HLVX: a load needing execute permission */
/* priv is a mode as hart_mode gives: with V=1, two-stage translated. */
int hart_vaccess(struct hart *h, uint64_t va, void *buf, unsigned n, enum hart_vkind kind,
		 unsigned priv, uint64_t *bad);

/* The current mode: priv | V << 2 (PRIV_VS, PRIV_VU with V=1). */
static inline unsigned hart_mode(const struct hart *h)
{
	return h->priv | (unsigned)h->virt << 2;
}

#endif
