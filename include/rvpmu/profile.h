/* Core profiles: the single source of truth for a modelled core (see
 * docs/profiles.md). A profile (profiles/NAME.json) gives the PMU shape,
 * the mhpmevent selector encoding, cache/TLB/predictor/pipeline geometry,
 * the SBI event_idx -> selector map used by firmware and the device tree,
 * and the core's named events in the Linux perf vendor-JSON format.
 *
 * Everything here is plain data: the loader fills a struct profile, the
 * models read the geometry structs, the PMU takes profile_decode(). */
#ifndef RVPMU_PROFILE_H
#define RVPMU_PROFILE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/pmu.h"

/* ---- canonical microarchitectural events
 *
 * Ids continue enum pmu_event, so one id space covers both: ids below
 * PMU_EV_COUNT are enum pmu_event, PMU_EV_COUNT..PROF_EV_COUNT-1 are
 * these. This table is the one place they are defined (names are what
 * profiles use in "classes"); the lead merges it into enum pmu_event.
 *
 * Events one instruction can raise together are never needed together in
 * one selector of the shipped profiles, so "counter counts the sum of its
 * decoded set" equals SiFive's "counts when any selected event occurs"
 * except where noted in docs/profiles.md. The instruction-class refinements
 * (INT_LOAD ... FP_OTHER) partition retired instructions the way the SiFive
 * instruction-commit class does: INT_LOAD + FP_LOAD + the loads among
 * ATOMIC (LR) = PMU_EV_LOAD; FP_ADD..FP_OTHER = PMU_EV_FP. */
#define PROFILE_UEVENTS(X) \
	X(INT_LOAD, "int-loads", "integer loads retired (LR counts as an atomic)") \
	X(INT_STORE, "int-stores", "integer stores retired (SC counts as an atomic)") \
	X(FP_LOAD, "fp-loads", "floating-point loads retired (FLW/FLD)") \
	X(FP_STORE, "fp-stores", "floating-point stores retired (FSW/FSD)") \
	X(INT_ARITH, "int-arith", "integer ALU instructions retired (incl. LUI/AUIPC, excl. mul/div)") \
	X(SYSTEM_OTHER, "system-other", "system instructions retired other than Zicsr (ECALL, EBREAK, xRET, WFI, FENCE, FENCE.I, SFENCE.VMA)") \
	X(FP_ADD, "fp-add", "FP add/subtract retired") \
	X(FP_MUL, "fp-mul", "FP multiply retired") \
	X(FP_FMA, "fp-fma", "FP fused multiply-add retired") \
	X(FP_DIVSQRT, "fp-divsqrt", "FP divide or square root retired") \
	X(FP_OTHER, "fp-other", "other FP instructions retired (moves, conversions, compares, sign injection, min/max, classify)") \
	X(L1D_READ_ACCESS, "l1d-read-accesses", "L1 data cache read accesses") \
	X(L1D_READ_MISS, "l1d-read-misses", "L1 data cache read misses") \
	X(L1D_WRITE_ACCESS, "l1d-write-accesses", "L1 data cache write accesses") \
	X(L1D_WRITE_MISS, "l1d-write-misses", "L1 data cache write misses") \
	X(L1D_WRITEBACK, "l1d-writebacks", "dirty L1 data cache lines written back") \
	X(L1I_ACCESS, "l1i-accesses", "L1 instruction cache accesses (fetch lines)") \
	X(L1I_MISS, "l1i-misses", "L1 instruction cache misses") \
	X(LL_READ_ACCESS, "ll-read-accesses", "last-level cache read accesses") \
	X(LL_READ_MISS, "ll-read-misses", "last-level cache read misses") \
	X(LL_WRITE_ACCESS, "ll-write-accesses", "last-level cache write accesses") \
	X(LL_WRITE_MISS, "ll-write-misses", "last-level cache write misses") \
	X(DTLB_READ_ACCESS, "dtlb-read-accesses", "data TLB lookups by loads") \
	X(DTLB_READ_MISS, "dtlb-read-misses", "data TLB misses by loads") \
	X(DTLB_WRITE_ACCESS, "dtlb-write-accesses", "data TLB lookups by stores and AMOs") \
	X(DTLB_WRITE_MISS, "dtlb-write-misses", "data TLB misses by stores and AMOs") \
	X(ITLB_ACCESS, "itlb-accesses", "instruction TLB lookups") \
	X(ITLB_MISS, "itlb-misses", "instruction TLB misses") \
	X(L2TLB_MISS, "l2tlb-misses", "second-level (unified) TLB misses: page-table walks") \
	X(MMIO_ACCESS, "mmio-accesses", "loads and stores to non-cacheable (I/O) memory") \
	X(BRANCH_MISPREDICT, "branch-mispredicts", "conditional branch direction mispredictions") \
	X(TARGET_MISPREDICT, "target-mispredicts", "branch/jump target mispredictions (BTB, RAS, indirect)") \
	X(STALL_LOAD_USE, "stall-load-use", "cycles stalled on a load result (load-use / address-generation interlock)") \
	X(STALL_LONG_LATENCY, "stall-long-latency", "cycles stalled on a long-latency result (cache miss, divide)") \
	X(STALL_CSR_READ, "stall-csr-read", "cycles stalled on a CSR read result") \
	X(STALL_ICACHE_BUSY, "stall-icache-busy", "cycles the instruction cache could not supply instructions") \
	X(STALL_DCACHE_BUSY, "stall-dcache-busy", "cycles the data cache could not accept an access") \
	X(FLUSH_CSR_WRITE, "flush-csr-write", "pipeline flushes caused by a CSR write") \
	X(FLUSH_OTHER, "flush-other", "pipeline flushes for other reasons (FENCE.I, traps, xRET)") \
	X(STALL_INT_MUL, "stall-int-mul", "cycles stalled on an integer multiply result") \
	X(STALL_FP, "stall-fp", "cycles stalled on a floating-point result") \
	X(STALL_FRONTEND, "stall-frontend", "cycles no instruction issued for want of fetched instructions") \
	X(STALL_BACKEND, "stall-backend", "cycles no instruction issued for want of operands or units") \
	X(COHERENCE_MISS, "coherence-misses", "L1 data cache misses taking the line from another hart's L1D (it held it Exclusive or Modified)") \
	X(COHERENCE_INVAL, "coherence-invalidations", "L1 data cache lines lost to another hart's write (invalidations received)") \
	X(COHERENCE_UPGRADE, "coherence-upgrades", "stores to a Shared L1 data cache line, invalidating other harts' copies (upgrades)") \
	X(SNOOP_HIT, "snoop-hits", "lines held Exclusive or Modified in the L1 data cache that another hart's miss took (interventions)") \
	X(LL_PREFETCH_ACCESS, "ll-prefetch-accesses", "lines the last-level cache's prefetcher looked up to send") \
	X(LL_PREFETCH_MISS, "ll-prefetch-misses", "lines the last-level cache's prefetcher fetched from memory") \
	X(STALL_MISPREDICT, "stall-mispredict", "cycles no instruction issued while fetch restarted after a mispredicted branch or jump (bad speculation)") \
	X(STALL_REDIRECT, "stall-fetch-redirect", "cycles no instruction issued while fetch restarted after decode found a direct jump or taken branch the BTB missed") \
	X(STALL_FLUSH, "stall-flush", "cycles a pipeline-flushing instruction (CSR write, FENCE.I, xRET, ...) waited for older instructions to drain")

enum profile_uevent {
	PROF_EV_BEFORE_ = PMU_EV_COUNT - 1,
#define PROF_X_(id, name, desc) PROF_EV_##id,
	PROFILE_UEVENTS(PROF_X_)
#undef PROF_X_
	PROF_EV_COUNT           /* all canonical ids are < this */
};
#define PROF_EV_BIT(e) PMU_EV_BIT(e)
/* The ids above PMU_EV_COUNT that the retire stream raises itself, with
 * no model: the instruction-commit refinements and MMIO accesses. */
#define PROF_EV_RETIRE_SET                                                    \
	(PROF_EV_BIT(PROF_EV_INT_LOAD) | PROF_EV_BIT(PROF_EV_INT_STORE) |     \
	 PROF_EV_BIT(PROF_EV_FP_LOAD) | PROF_EV_BIT(PROF_EV_FP_STORE) |       \
	 PROF_EV_BIT(PROF_EV_INT_ARITH) | PROF_EV_BIT(PROF_EV_SYSTEM_OTHER) | \
	 PROF_EV_BIT(PROF_EV_FP_ADD) | PROF_EV_BIT(PROF_EV_FP_MUL) |          \
	 PROF_EV_BIT(PROF_EV_FP_FMA) | PROF_EV_BIT(PROF_EV_FP_DIVSQRT) |      \
	 PROF_EV_BIT(PROF_EV_FP_OTHER) | PROF_EV_BIT(PROF_EV_MMIO_ACCESS))
_Static_assert(PROF_EV_COUNT <= PMU_EV_MAX, "canonical ids fit the PMU's sets and arrays");

/* Name of canonical id e ("loads", "l1d-read-misses", ...), NULL if none. */
const char *profile_event_name(unsigned e);
const char *profile_event_desc(unsigned e);
/* Canonical id of a name, or -1. PMU_EV_NONE ("none") is not a valid name. */
int profile_event_id(const char *name);

/* ---- geometry (plain data for src/uarch models) */

enum profile_repl { PROFILE_REPL_LRU, PROFILE_REPL_PLRU };

struct profile_cache {
	bool present;           /* false: level not modelled (l2 only) */
	unsigned sets;          /* power of two */
	unsigned ways;
	unsigned line;          /* bytes, power of two */
	enum profile_repl repl;
	bool write_back;        /* false: write-through */
	bool write_allocate;    /* false: no-write-allocate */
	unsigned hit_latency;   /* cycles from request to data on a hit here */
	unsigned mshrs;         /* l1d: misses outstanding at once; l2: memory reads
				 * in flight (0: every miss blocks / no limit) */
	bool shared;            /* one for all harts (l2 only), else each hart's own */
};

/* the L2's stride prefetcher (docs/profiles.md) */
struct profile_prefetch {
	unsigned streams;       /* 0: none */
	unsigned distance, window;
	bool stores, cross_page;
};

struct profile_tlb {
	bool present;           /* false: level not modelled (l2tlb only) */
	unsigned entries;       /* = sets * ways */
	unsigned ways;          /* entries = fully associative */
	enum profile_repl repl;
	unsigned hit_latency;   /* extra cycles a hit here costs (0: free) */
};

enum profile_bp_kind { PROFILE_BP_BIMODAL, PROFILE_BP_GSHARE };

struct profile_bpred {
	enum profile_bp_kind kind;
	unsigned bht_entries;   /* direction counters, power of two */
	unsigned counter_bits;  /* saturating counter width, 1..4 */
	unsigned history_bits;  /* gshare global history length; 0 for bimodal */
	unsigned btb_entries;   /* power of two, 0 = none (targets mispredict) */
	unsigned btb_ways;      /* divides btb_entries */
	unsigned ras_depth;     /* return-address stack entries, 0 = none */
	unsigned indirect_entries;  /* indirect-jump target predictor, 0 = none */
};

struct profile_pipeline {
	unsigned issue_width;       /* instructions issued per cycle, 1..2 */
	unsigned load_use_latency;  /* load result latency on an L1D hit, cycles */
	unsigned mispredict_penalty;/* cycles lost per mispredicted control transfer */
	unsigned mul_latency;       /* integer multiply result latency */
	unsigned div_latency;       /* integer divide/remainder, worst case */
	unsigned fp_latency;        /* FP add/mul/fma result latency (double precision) */
	unsigned fp_div_latency;    /* FP divide/sqrt, worst case (double precision) */
	/* 0 when absent: the ones above */
	unsigned div32_latency, fp32_latency, fp32_div_latency, fp_move_latency;
	unsigned late_alu;          /* address generation to the late ALUs; 0: none */
	bool pipes;                 /* pairing "pipes" (SiFive 7), else "units" */
};

/* ---- PMU and events */

enum profile_encoding {
	PROFILE_ENC_SBI,        /* selector = SBI event_idx (OpenSBI generic) */
	PROFILE_ENC_SIFIVE,     /* class in bits 7:0, OR-able event mask above */
};

/* virt (SBI encoding) selectors at or above this count one canonical
 * event: PROFILE_SEL_CANON | id (an rvpmu extension outside event_idx's
 * 20 bits, reached with raw events). */
#define PROFILE_SEL_CANON (UINT64_C(1) << 24)

#define PROFILE_MAX_CLASSES 16
#define PROFILE_MASK_BITS 48    /* SiFive mask bits 8..55 */
struct profile_class {
	unsigned id;                /* selector bits 7:0 */
	char name[32];
	pmu_evset bit_events[PROFILE_MASK_BITS];  /* [b-8]: canonical set of mask bit b */
};

#define PROFILE_MAX_SBI 96
struct profile_sbi_event {
	uint32_t event_idx;         /* SBI type 0 (general) or 1 (cache) */
	uint64_t selector;          /* mhpmevent bits 55:0; 0 for fixed counters only */
	uint32_t counters;          /* bit i = counter i (0 mcycle, 2 minstret, N mhpmcounterN) */
};

#define PROFILE_MAX_RAW 8
struct profile_raw_event {      /* DT riscv,raw-event-to-mhpmcounters row */
	uint64_t match, mask;       /* raw D is in the row iff (D & mask) == match */
	uint32_t counters;
};

#define PROFILE_MAX_EVENTS 128
struct profile_perf_event {     /* Linux perf vendor-JSON event */
	char name[64];              /* EventName */
	uint64_t code;              /* EventCode: the mhpmevent selector */
	char desc[160];             /* BriefDescription */
};

#define PROFILE_MAX_METRICS 64
struct profile_metric {         /* Linux perf pmu-events metric */
	char name[48];              /* MetricName */
	char expr[320];             /* MetricExpr: perf's expression syntax */
	char group[96];             /* MetricGroup: ';'-separated, "" none */
	char unit[24];              /* ScaleUnit ("100%", "1ns"), "" none */
	char desc[160];             /* BriefDescription */
};

struct profile {
	char name[32];
	char file[256];             /* the file it was loaded from */
	char description[160];
	char isa[64];
	uint64_t mvendorid, marchid, mimpid;
	uint64_t clock_hz;          /* modelled core clock, for time */
	bool misaligned_trap;       /* system mode: misaligned loads/stores trap */

	struct {
		unsigned n_hpm;         /* mhpmcounter3..(2+n_hpm) */
		unsigned hpm_width;     /* 1..64 */
		bool has_s, has_u;
		bool sscofpmf, smcntrpmf, smcdeleg;
		bool smctr;             /* Smctr/Ssctr control transfer records */
		bool sstc;              /* Sstc: stimecmp (not PMU, but an extension) */
		bool h;                 /* the hypervisor extension (misa.H; VS/VU counting) */
		bool aia;               /* Smaia/Ssaia without an IMSIC (system mode) */
		unsigned skid;          /* retirements from overflow to LCOFI */
		enum profile_encoding encoding;
	} pmu;
	unsigned n_classes;         /* PROFILE_ENC_SIFIVE only */
	struct profile_class classes[PROFILE_MAX_CLASSES];

	struct profile_cache l1i, l1d, l2;
	struct profile_prefetch l2pf;
	unsigned memory_latency;    /* cycles from request to data from DRAM */
	unsigned memory_latency_ns; /* the same in ns when given so (0: in cycles) */
	unsigned read_bandwidth, write_bandwidth;   /* MB/s toward memory; 0: no limit */
	struct profile_tlb itlb, dtlb, l2tlb;
	unsigned page_size;         /* bytes */
	unsigned walk_latency;      /* cycles per page-table walk (after l2tlb miss) */
	struct profile_bpred bpred;
	struct profile_pipeline pipe;

	unsigned n_sbi;
	struct profile_sbi_event sbi[PROFILE_MAX_SBI];
	unsigned n_raw;
	struct profile_raw_event raw[PROFILE_MAX_RAW];
	unsigned n_events;
	struct profile_perf_event events[PROFILE_MAX_EVENTS];
	unsigned n_metrics;
	struct profile_metric metrics[PROFILE_MAX_METRICS];
};

/* ---- loading. Each returns 0, or -1 with one line in err naming the
 * file, the key path (e.g. "caches.l1d.sets") and what was expected. */

/* NAME ([A-Za-z0-9_-]+) resolves to NAME.json in, in order:
 * $RVPMU_PROFILE_DIR, <dir of /proc/self/exe>/../profiles,
 * <dir of /proc/self/exe>/../share/rvpmu/profiles, RVPMU_PROFILE_INSTALL_DIR.
 * Anything containing '/' or ending in ".json" is a file path. */
int profile_load(const char *name_or_path, struct profile *out, char *err, size_t errlen);
int profile_load_file(const char *path, struct profile *out, char *err, size_t errlen);
/* Parse JSON text; label names it in errors. */
int profile_parse(const char *text, size_t len, const char *label,
		  struct profile *out, char *err, size_t errlen);

/* Write p's events as a Linux perf vendor-JSON file (an array of
 * EventName/EventCode/BriefDescription objects), and its metrics as
 * perf's metrics file. 0 or -1. */
int profile_write_perf_json(const struct profile *p, FILE *f);
int profile_write_perf_metrics(const struct profile *p, FILE *f);

/* ---- selector decoding (mhpmevent bits 55:0 -> canonical set) */

/* The full set (PROF_EV_BIT()s). 0 = counts nothing. */
pmu_evset profile_decode_set(const struct profile *p, uint64_t selector);
/* pmu_decode_fn-compatible (ctx = struct profile *): profile_decode_set(). */
pmu_evset profile_decode(void *profile, uint64_t selector);
/* The canonical set an SBI type 0/1 event_idx stands for in the SBI
 * encoding (what virt counts for it), 0 if not modelled. */
pmu_evset profile_sbi_event_set(uint32_t event_idx);

/* The PMU configuration the profile describes (decoder = profile_decode,
 * decode_ctx = p, which must outlive the PMU). */
void profile_pmu_config(const struct profile *p, struct pmu_config *cfg);

/* The SBI map entry for event_idx, or NULL. */
const struct profile_sbi_event *profile_sbi_lookup(const struct profile *p, uint32_t event_idx);
/* The named event (perf EventName, case-insensitive), or NULL. */
const struct profile_perf_event *profile_find_event(const struct profile *p, const char *name);

#endif
