/* Microarchitecture models: L1I/L1D/L2 caches, ITLB/DTLB/L2 TLB, branch
 * prediction (bimodal or gshare, BTB, return-address stack) and an in-order
 * pipeline timing model. They observe the retire stream (one struct
 * retire_rec per retired instruction) and accumulate canonical event counts
 * in uarch.ev[]; the PMU maps those to counters and never sees the models.
 *
 * Self-contained: no dependency on the hart, the PMU or the profiles. All
 * storage is allocated by uarch_init(); uarch_retire() never allocates and
 * dispatches with a switch, not through function pointers. Deterministic:
 * the same stream from the same state gives the same counts.
 *
 * Addresses are used as given: user mode passes virtual addresses; a system
 * model may pass virtual addresses too (caches then behave as virtually
 * indexed and tagged, which is exact for VA = PA and an approximation
 * otherwise). */
#ifndef RVPMU_UARCH_H
#define RVPMU_UARCH_H
#include <stddef.h>
#include <stdint.h>

/* retire_rec.cls */
enum uarch_cls {
	UARCH_CLS_ALU,          /* integer ALU, lui/auipc, nop, fence */
	UARCH_CLS_LOAD,         /* integer and FP loads */
	UARCH_CLS_STORE,        /* integer and FP stores */
	UARCH_CLS_BRANCH,       /* conditional branches */
	UARCH_CLS_JAL,
	UARCH_CLS_JALR,
	UARCH_CLS_MUL,
	UARCH_CLS_DIV,          /* div/rem */
	UARCH_CLS_FP,           /* FP arithmetic, fma, conversions, moves */
	UARCH_CLS_FP_DIV,       /* fdiv, fsqrt */
	UARCH_CLS_ATOMIC,       /* AMOs, LR, SC */
	UARCH_CLS_CSR,          /* Zicsr */
	UARCH_CLS_SYSTEM,       /* ecall, ebreak, xRET, wfi, sfence.vma, fence.i */
	UARCH_CLS_COUNT
};

/* One retired instruction. Registers: 0 = none/x0, 1..31 = x1..x31,
 * 32..63 = f0..f31 (only dependencies between them are timed; the RAS hints
 * look at rd/rs1 of jal/jalr, always integer). */
struct retire_rec {
	uint64_t pc, next_pc;   /* next_pc != pc + ilen means a fetch redirect */
	uint8_t cls;            /* enum uarch_cls */
	uint8_t size;           /* memory access bytes (load/store/atomic); 0 = 1 */
	uint8_t taken;          /* conditional branch outcome */
	uint8_t rd, rs1, rs2;
	uint8_t ilen;           /* instruction bytes, 2 or 4; 0 = 4 */
	uint8_t flags;          /* UARCH_RF_* */
	uint64_t addr;          /* memory address (load/store/atomic) */
	/* physical addresses, which the caches see (the TLBs see pc and addr):
	 * of the access, and of pc */
	uint64_t paddr, fetch_pa;
};

enum {
	UARCH_RF_CSR_WRITE = 1,  /* a Zicsr instruction that writes its CSR */
	UARCH_RF_UNCACHED = 2,   /* its access went to a device: no cache */
	UARCH_RF_BARE_FETCH = 4, /* fetched untranslated (M-mode, satp Bare): no ITLB */
	UARCH_RF_BARE_DATA = 8,  /* its access was untranslated: no DTLB */
	/* the latency variant of FP and divide classes (timing only): */
	UARCH_RF_W32 = 16,       /* single precision, or a 32-bit divide (divw, remw, ...) */
	UARCH_RF_FP_MOVE = 32,   /* FP move, conversion, compare, sign injection, min/max, classify */
	/* in a translated block: its access's physical address is not addr[k]
	 * but addr[k + UARCH_BLOCK_INSNS] (uarch_retire_block's addr[]) */
	UARCH_RF_PADDR = 64,
};
#define UARCH_BLOCK_INSNS 64   /* most instructions in a struct uarch_block */
#define UARCH_RF_LAT_SHIFT 4  /* (flags >> this) & 3: the latency variant */

/* A page-table walker (system mode): the physical addresses of the PTEs
 * the walk for va reads, in order, into pte[0..max); how many (0: va is
 * not translated by a page table, so the walk costs walk_lat). */
typedef unsigned (*uarch_walk_fn)(void *ctx, uint64_t va, uint64_t *pte, unsigned max);
#define UARCH_WALK_MAX 5   /* PTEs a walk reads at most (Sv57 has five levels) */

/* Events accumulated in uarch.ev[] (cumulative since init/reset). */
#define UARCH_EVENTS(X) \
	X(L1I_ACCESS, "l1i_access") X(L1I_MISS, "l1i_miss") \
	X(L1D_READ_ACCESS, "l1d_read_access") X(L1D_READ_MISS, "l1d_read_miss") \
	X(L1D_WRITE_ACCESS, "l1d_write_access") X(L1D_WRITE_MISS, "l1d_write_miss") \
	X(L1D_WRITEBACK, "l1d_writeback") \
	X(L2_ACCESS, "l2_access") X(L2_MISS, "l2_miss") X(L2_WRITEBACK, "l2_writeback") \
	X(L2_WRITE_ACCESS, "l2_write_access") X(L2_WRITE_MISS, "l2_write_miss") \
	/* coherence among harts' L1Ds (struct uarch_domain) */ \
	X(COHERENCE_MISS, "coherence_miss") X(INVALIDATION, "invalidation") \
	X(UPGRADE, "upgrade") X(SNOOP_HIT, "snoop_hit") \
	X(L2_PREFETCH, "l2_prefetch") X(L2_PREFETCH_MISS, "l2_prefetch_miss") \
	X(ITLB_ACCESS, "itlb_access") X(ITLB_MISS, "itlb_miss") \
	X(DTLB_ACCESS, "dtlb_access") X(DTLB_MISS, "dtlb_miss") \
	X(DTLB_WRITE_ACCESS, "dtlb_write_access") X(DTLB_WRITE_MISS, "dtlb_write_miss") \
	X(L2TLB_ACCESS, "l2tlb_access") X(L2TLB_MISS, "l2tlb_miss") \
	X(PAGE_WALK, "page_walk") \
	X(BRANCH_DIR_MISPREDICT, "branch_dir_mispredict") \
	X(BRANCH_TARGET_MISPREDICT, "branch_target_mispredict") \
	X(RAS_MISPREDICT, "ras_mispredict") \
	X(CYCLES, "cycles") X(STALL_FRONTEND, "stall_frontend") \
	X(STALL_BACKEND, "stall_backend") \
	/* parts of the stalls by cause, and pipeline flushes */ \
	X(STALL_LOAD_USE, "stall_load_use") X(STALL_LONG_LATENCY, "stall_long_latency") \
	X(STALL_CSR_READ, "stall_csr_read") X(STALL_INT_MUL, "stall_int_mul") \
	X(STALL_FP, "stall_fp") X(STALL_ICACHE_BUSY, "stall_icache_busy") \
	X(STALL_DCACHE_BUSY, "stall_dcache_busy") \
	X(FLUSH_CSR_WRITE, "flush_csr_write") X(FLUSH_OTHER, "flush_other") \
	/* top-down parts: of stall_frontend, the penalties after a \
	 * mispredict and after a decode redirect; of stall_backend, a \
	 * flushing instruction's wait for the pipe to drain */ \
	X(STALL_MISPREDICT, "stall_mispredict") X(STALL_REDIRECT, "stall_redirect") \
	X(STALL_FLUSH, "stall_flush")
enum uarch_event {
#define UARCH_EV_ENUM(n, s) UARCH_EV_##n,
	UARCH_EVENTS(UARCH_EV_ENUM)
#undef UARCH_EV_ENUM
	UARCH_EV_COUNT
};
const char *uarch_event_name(enum uarch_event e);   /* "l1i_access", ... */

/* ---- configuration (plain data; a core profile maps onto it) ---- */

enum uarch_repl { UARCH_REPL_LRU, UARCH_REPL_PLRU };

/* sets = 0: the level is absent. sets and line are powers of two; ways is
 * 1..64 (a power of two for PLRU). */
struct uarch_cache_config {
	uint32_t sets, ways, line;
	uint8_t repl;           /* enum uarch_repl */
};

/* entries = 0: absent. ways = entries: fully associative; entries / ways
 * is a power of two. Replacement is LRU. */
struct uarch_tlb_config {
	uint32_t entries, ways;
	uint8_t repl;           /* enum uarch_repl */
};

enum uarch_dir { UARCH_DIR_BIMODAL, UARCH_DIR_GSHARE };

struct uarch_bpred_config {
	uint8_t dir;            /* enum uarch_dir */
	uint32_t pht_entries;   /* direction counters, a power of two */
	uint32_t hist_bits;     /* gshare global history length, 0..32 */
	uint32_t btb_sets, btb_ways;  /* btb_sets = 0: no BTB */
	uint32_t ras_depth;     /* 0: no RAS (returns use the BTB) */
	uint32_t counter_bits;  /* direction counter width 1..4; 0 = 2 */
	uint32_t indirect_entries;  /* indirect-jump target predictor; 0: none (BTB) */
};

/* How instructions may share an issue group (width 2). */
enum uarch_pairing {
	UARCH_PAIR_UNITS,       /* at most one of each unit: memory, control, mul/div, FP */
	UARCH_PAIR_PIPES,       /* SiFive 7 series: pipe A (memory) and pipe B (control
				 * transfers, mul/div, FP), ALU ops in either */
};

/* Cycle counts; see the comment at the top of src/uarch/timing.c. */
struct uarch_timing_config {
	uint32_t width;         /* issue width, 1 or 2 */
	uint32_t pairing;       /* enum uarch_pairing */
	uint32_t load_use;      /* load issue to dependent issue on an L1D hit */
	/* cycles from address generation to the late ALUs (0: none): an ALU
	 * op or branch may issue that much before its operands are ready
	 * and execute there; a store's data is read there too */
	uint32_t late_alu;
	uint32_t mul_lat;       /* pipelined */
	uint32_t div_lat;       /* unpipelined: also blocks the next divide */
	uint32_t fp_lat;        /* pipelined */
	uint32_t fp_div_lat;    /* unpipelined */
	/* the UARCH_RF_W32 and UARCH_RF_FP_MOVE variants (0: as the above) */
	uint32_t div32_lat, fp32_lat, fp32_div_lat, fp_move_lat;
	uint32_t mispredict_penalty;  /* redirect from execute */
	uint32_t redirect_penalty;    /* redirect from decode: direct target not in BTB */
	uint32_t l2_lat;        /* extra cycles of an L1 miss served by L2 */
	uint32_t mem_lat;       /* further extra cycles of an L2 miss (all, without L2) */
	uint32_t l2tlb_lat;     /* extra cycles of an L1 TLB miss served by the L2 TLB */
	uint32_t walk_lat;      /* further extra cycles of a page walk (all, without L2 TLB) */
	/* the memory system (0: as before these existed: every data miss
	 * blocks for its fixed cost, memory is never busy) */
	uint32_t l1d_mshrs;     /* L1D misses outstanding at once, up to UARCH_MSHR_MAX */
	uint32_t l2_mshrs;      /* memory reads the L2 keeps in flight (0: no limit) */
	uint32_t bus_read, bus_write;  /* cycles a line occupies the memory channel */
	uint32_t prefetcher;    /* the L2 prefetcher's distance, 0: none (uarch_init() sets it) */
};
#define UARCH_MSHR_MAX 8

/* The L2's stride prefetcher (streams = 0: none); src/uarch/prefetch.c */
struct uarch_prefetch_config {
	uint32_t streams;       /* strides tracked at once */
	uint32_t distance;      /* lines fetched ahead of the demand stream, 1..UARCH_PF_DIST_MAX */
	uint32_t window;        /* a miss within this many lines of a stream belongs to it */
	uint8_t stores;         /* store misses train it too */
	uint8_t cross_page;     /* it may fetch past the page of the miss */
};
#define UARCH_PF_DIST_MAX 6

struct uarch_config {
	struct uarch_cache_config l1i, l1d, l2;
	struct uarch_tlb_config itlb, dtlb, l2tlb;
	uint32_t page_shift;    /* log2 page size, 12..30 */
	struct uarch_bpred_config bpred;
	struct uarch_timing_config timing;
	struct uarch_prefetch_config prefetch;
};

/* A generic dual-issue in-order core (32 KiB L1s, 1 MiB L2, gshare). */
void uarch_config_default(struct uarch_config *c);

/* ---- the models (usable alone; state is private, tests may read it) ---- */

#define UARCH_CACHE_FILTER 4
struct uarch_cache {
	uint32_t sets, ways, line_shift, set_mask, ways_log2;
	uint8_t repl, present;
	uint64_t *tag;          /* [set * ways + way]: line number + 1, 0 = invalid */
	uint64_t *age;          /* LRU: last-use stamp per line; PLRU: tree bits per set */
	uint64_t *plru;         /* PLRU: per way, the tree bits a touch keeps and sets */
	/* per line: bit 0 dirty, UARCH_LINE_SHARED (an L1D in a coherence
	 * domain: other harts may hold the line too) */
	uint8_t *dirty;
	/* sets of 16 ways or fewer: a byte of each line's tag ([set * ways +
	 * way], padded by 16), so a lookup compares one vector, not each tag */
	uint8_t *sig;
	/* [set]: the slot touched last, which a hit can touch again without
	 * changing any replacement state (the set's most recent line); with
	 * one set, the filter's first line is that one, and translated code
	 * does not keep this */
	uint32_t *mru;
	uint64_t *mkey;         /* [set]: tag[mru[set]], the key hits compare (kept as mru is) */
	uint32_t sets_log2;
	/* LRU stamps count on *clock: own_clock, or in struct uarch the
	 * models' one clock (uarch_init()) */
	uint64_t *clock, own_clock;
	uint64_t nvalid;        /* valid lines: once all are, no miss looks for an empty way */
	/* a lookup filter that spares the set scan, with no effect on state
	 * (key, 0 = none; slot): first the line touched last (a hit on a
	 * set's most recent line is no touch), then lines touched before it.
	 * Translated code puts the line it touches first without moving the
	 * others (jit_models.c), so a line may be there twice. */
	uint64_t f_key[UARCH_CACHE_FILTER];
	uint32_t f_slot[UARCH_CACHE_FILTER];
	uint64_t misses, writebacks;   /* the model's own totals (the facade counts events) */
	/* wide sets (32 ways or more): a hash index of the valid lines (slot + 1,
	 * 0 = empty; linear probing) that replaces the scan of the set */
	uint32_t *hx;
	uint32_t hx_mask, hx_shift;
	/* wide LRU sets: the oldest lines found by the last scan of each set,
	 * oldest first, with their stamps then (a line touched since has a new
	 * one); a miss takes the first still untouched instead of scanning */
	struct uarch_old { uint32_t slot; uint64_t age; } *old;
	uint8_t *nold, *iold;   /* [set]: entries, next entry */
};
#define UARCH_CACHE_OLD 8     /* entries per wide LRU set */
/* A line's MESI state in an L1D: invalid (tag 0); Modified (dirty); Shared
 * (this bit: clean, and other harts' L1Ds may hold it); else Exclusive.
 * Only lines of a cache in a coherence domain are ever Shared. */
#define UARCH_LINE_SHARED 2
/* UARCH_UPGRADE: a write hit a Shared line, which is now Modified; the
 * other harts' copies are the caller's to invalidate */
enum { UARCH_HIT = 0, UARCH_MISS = 1, UARCH_WB = 2, UARCH_UPGRADE = 4 };
int uarch_cache_init(struct uarch_cache *c, const struct uarch_cache_config *cfg);
void uarch_cache_free(struct uarch_cache *c);
void uarch_cache_invalidate(struct uarch_cache *c);   /* drops dirty lines too */
/* uarch_cache_access() past its inline checks */
unsigned uarch_cache_access_slow(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim);
/* Make a line the most recent of its set: a new LRU stamp, or the tree
 * PLRU bits of its way's path (kept bits, then set bits: cache.c). */
static inline void uarch_cache_touch(struct uarch_cache *c, uint32_t set, uint32_t slot)
{
	if (c->repl == UARCH_REPL_LRU) {
		c->age[slot] = ++*c->clock;
	} else {
		const uint64_t *m = &c->plru[2 * (slot & (c->ways - 1))];
		c->age[set] = (c->age[set] & m[0]) | m[1];
	}
	c->mru[set] = slot;
	c->mkey[set] = c->tag[slot];
}
/* A write's hit on slot: the line is dirtied, unless it is Shared (a
 * store to it needs the others' copies invalidated first: 0, for the slow
 * path). One branch, never taken with a single hart. */
static inline int uarch_cache_dirty(struct uarch_cache *c, uint32_t slot, int write)
{
	if (write) {
		if (__builtin_expect(c->dirty[slot] & UARCH_LINE_SHARED, 0))
			return 0;
		c->dirty[slot] |= 1;
	}
	return 1;
}
/* What uarch_cache_access() does for line without its slow path: 1 when
 * the line hits as the last one touched, its set's most recent line or
 * the one touched before the last (the state then updated as the access
 * would), else 0, having changed nothing (a write to a Shared line too). */
static inline int uarch_cache_hit(struct uarch_cache *c, uint64_t line, int write)
{
	const uint64_t key = line + 1;
	/* The filter's first line is the last one touched, so the most recent
	 * of its set: touching it again changes no replacement state. */
	if (__builtin_expect(key == c->f_key[0], 1))
		return uarch_cache_dirty(c, c->f_slot[0], write);
	/* Nor does touching any set's most recent line (the filter stays). */
	const uint32_t set = (uint32_t)line & c->set_mask;
	if (c->set_mask && c->mkey[set] == key)
		return uarch_cache_dirty(c, c->mru[set], write);
	/* The filter's second line (two lines or pages in turn), not the most
	 * recent of its set: touched. */
	if (key == c->f_key[1]) {
		const uint32_t slot = c->f_slot[1];
		if (!uarch_cache_dirty(c, slot, write))
			return 0;
		uarch_cache_touch(c, set, slot);
		c->f_key[1] = c->f_key[0];
		c->f_slot[1] = c->f_slot[0];
		c->f_key[0] = key;
		c->f_slot[0] = slot;
		return 1;
	}
	return 0;
}
/* Past uarch_cache_hit(), for translated code: 1 when line hits all the
 * same (as an access: touched, dirtied), else 0 having changed nothing.
 * Never a write to a cache whose lines can be Shared (translated code
 * leaves those stores to uarch_block_slow()). */
int uarch_cache_find(struct uarch_cache *c, uint64_t line, int write);
/* uarch_cache_access() of a line known not to be in the cache (translated
 * code looked): the miss, without a search */
unsigned uarch_cache_miss(struct uarch_cache *c, uint64_t line, int write, uint64_t *victim);
/* Access the line holding addr, allocating it on a miss (write-allocate; a
 * write makes the line dirty). Returns UARCH_HIT, UARCH_UPGRADE (a write
 * hit a Shared line) or UARCH_MISS, or'ed with UARCH_WB when a dirty line
 * was evicted (its address in *victim). */
static inline unsigned uarch_cache_access(struct uarch_cache *c, uint64_t addr, int write,
					  uint64_t *victim)
{
	const uint64_t line = addr >> c->line_shift;
	if (uarch_cache_hit(c, line, write))
		return UARCH_HIT;
	return uarch_cache_access_slow(c, line, write, victim);
}
int uarch_cache_holds(const struct uarch_cache *c, uint64_t addr);  /* no state change */
/* The slot holding line, or -1; no state change. */
int64_t uarch_cache_slot(const struct uarch_cache *c, uint64_t line);
/* Invalidate slot's line (another hart took it), as if never filled: its
 * way is the first a miss of its set fills. */
void uarch_cache_drop(struct uarch_cache *c, uint32_t slot);

struct uarch_tlb {
	struct uarch_cache c;   /* a cache of page numbers with page-sized lines */
};
int uarch_tlb_init(struct uarch_tlb *t, const struct uarch_tlb_config *cfg, uint32_t page_shift);
void uarch_tlb_free(struct uarch_tlb *t);
void uarch_tlb_flush(struct uarch_tlb *t);
/* 1 on a hit; 0 on a miss, after which the page is filled */
static inline int uarch_tlb_access(struct uarch_tlb *t, uint64_t vaddr)
{
	return uarch_cache_access(&t->c, vaddr, 0, NULL) == UARCH_HIT;
}

struct uarch_bpred {
	uint8_t dir, has_btb;
	uint32_t pht_mask, hist_mask, ghist;
	uint8_t *pht;
	uint32_t btb_set_mask, btb_ways;
	/* [set * btb_ways + way], in one array (btb_target = btb_pc + the
	 * entries, btb_age after it); btb_pc: pc | 1, 0 = invalid */
	uint64_t *btb_pc, *btb_target, *btb_age;
	/* the way where each pc (hashed) was last found: checked first, so a
	 * hit seldom scans the set (a pc is in one way at most); a guess,
	 * which sets wider than 256 ways find right less often, and always a
	 * way of the set */
	uint8_t btb_hint[256];
	uint64_t *clock, own_clock;   /* the BTB's stamps, as struct uarch_cache's */
	uint64_t *ras;
	uint32_t ras_depth, ras_top, ras_count;
	uint8_t ctr_init, ctr_thr;   /* weakly not-taken; predicts taken at >= */
	uint8_t ctr_next[2][16];     /* [outcome][counter]: the counter it trains to (saturating) */
	uint32_t ind_entries;   /* 0: non-return jalr use the BTB */
	uint64_t *ind_target;   /* [((pc >> 1) ^ gshare ghist) % ind_entries]: target | 1, 0 = empty */
};
/* uarch_bpred_retire() result bits */
enum {
	UARCH_BP_DIR = 1,       /* conditional branch direction wrong */
	UARCH_BP_TARGET = 2,    /* BTB target missing or wrong */
	UARCH_BP_RAS = 4,       /* RAS-predicted return target wrong */
	UARCH_BP_DECODE = 8,    /* with TARGET: a direct target, fixed at decode */
	UARCH_BP_REDIRECT = 16, /* (set by the caller of timing) fetch redirects after it */
};
int uarch_bpred_init(struct uarch_bpred *b, const struct uarch_bpred_config *cfg);
void uarch_bpred_free(struct uarch_bpred *b);
void uarch_bpred_reset(struct uarch_bpred *b);
/* Predict, then train on, one retired branch/jal/jalr. */
/* r's own next_pc and taken are not read: they are passed */
unsigned uarch_bpred_retire(struct uarch_bpred *b, const struct retire_rec *r, uint64_t next_pc,
			    int taken);
/* The BTB's prediction for pc, then trained with target: 1 when right */
int uarch_btb_predict(struct uarch_bpred *b, uint64_t pc, uint64_t target);

/* What the misses of a data access cost, as the cache side reports them to
 * the timing (a word of struct uarch_misses): fixed cycles, and the memory
 * traffic whose waits the timing works out from the cycle the access
 * issues in (src/uarch/timing_mem.h). A fetch's misses are cycles only. */
#define UARCH_MC_CYCLES 0xffffu                 /* TLB, L2 and memory latencies */
#define UARCH_MC_L1MISS (1u << 16)              /* the L1D missed: it needs an MSHR */
#define UARCH_MC_READ(n) ((uint32_t)(n) << 17)  /* line reads from memory (2 bits) */
#define UARCH_MC_AGE(a) ((uint32_t)(a) << 19)   /* 1 + the age of the prefetch whose line
						 * it used first (4 bits; 0: none) */
#define UARCH_MC_PF(n) ((uint32_t)(n) << 23)    /* prefetches it set off (4 bits) */
#define UARCH_MC_WB(n) ((uint32_t)(n) << 27)    /* line writes to memory (4 bits) */
#define UARCH_PF_TRACK 15                       /* prefetches whose arrival the timing keeps */
#define UARCH_PF_DROPPED UINT64_MAX             /* a prefetch the L2 had no room to send */

struct uarch_timing {
	struct uarch_timing_config cfg;
	uint64_t now;           /* cycle of the current issue group */
	uint32_t slots;         /* instructions issued in it */
	uint32_t units;         /* functional units it has used */
	uint64_t ready[64];     /* cycle each register's value is available */
	uint8_t why[64];        /* stall event of waiting for it (by the class writing it) */
	/* registers whose value comes out of the late stage (a load's, or a
	 * late ALU op's): ready[] is when address generation may use it, and
	 * cfg.late_alu cycles before that the late ALUs may */
	uint64_t late;
	uint64_t ready_max;     /* latest of ready[] */
	uint64_t div_free, fdiv_free;
	uint32_t fe_pending;    /* redirect penalty for the next instruction */
	/* registers whose ready[] may be after now (a superset: a bit is set
	 * on every write and dropped lazily), so that a state is interned by
	 * visiting only those */
	uint64_t pend;
	/* the memory system: the cycle the channel is next free, when each
	 * L1D MSHR frees (at or before now: free), and when the last
	 * prefetches arrive ([0] the latest; UARCH_PF_DROPPED: never sent);
	 * absolute cycles, current while a state is interned too unless
	 * mform (below) says otherwise */
	uint64_t bus;
	uint64_t mshr[UARCH_MSHR_MAX];
	uint64_t pf[UARCH_PF_TRACK];
	/* result latency by class and UARCH_RF_LAT variant; 0: writes no register */
	uint32_t lat[UARCH_CLS_COUNT][4];
	uint8_t unit_of[UARCH_CLS_COUNT];   /* the units a class takes in a group (pairing) */
	uint8_t memory_timed;   /* MSHRs, the channel or prefetches are timed (timing_mem.c) */
	/* Nonzero while the state is kept interned (src/uarch/tstate.c): the
	 * number of its form relative to now << 32 | fe_pending. Then only
	 * now is current and the fields above are stale until
	 * uarch_timing_settle(); timing_issue() settles first. */
	uint64_t skey;
	struct uarch_tstates *ts;   /* the interned states, made on first use */
	struct uarch_mstates *ms;   /* the interned memory-system forms (mstate.c) */
	/* Nonzero while the memory system's times above are stale: they are
	 * form mform relative to cycle mform_at (a memo replay leaves them
	 * so; uarch_timing_settle() writes them back) */
	uint32_t mform;
	uint64_t mform_at;
	/* the form mform becomes mform_hold cycles after mform_at, its times
	 * all past then (mstate.c's still forms); 0 while mform is. One
	 * 64-bit word, as translated code copies it from a uarch_xm. */
	uint32_t mform_still, mform_hold;
};
int uarch_timing_init(struct uarch_timing *t, const struct uarch_timing_config *cfg);
void uarch_timing_free(struct uarch_timing *t);
void uarch_timing_reset(struct uarch_timing *t);
/* The redirect penalty that prediction result bp (UARCH_BP_*) leaves for
 * the next instruction: 0 when the prediction was right. */
uint32_t uarch_timing_penalty(const struct uarch_timing *t, unsigned bp);
/* Make the fields of an interned state current again (t->skey = 0). */
void uarch_timing_settle(struct uarch_timing *t);
/* The most any model event (cycles, a stall, a count) can grow by in one
 * retired instruction under c, walks reading page tables when pte_walks
 * (uarch.walk set): bounds the PMU's overflow horizon. */
uint64_t uarch_timing_max_per_insn(const struct uarch_timing_config *c, int pte_walks);
/* Issue one instruction. fe/be: extra frontend cycles before it (fetch
 * misses) and backend cycles it blocks for (data misses); bp: its
 * uarch_bpred_retire() result, plus UARCH_BP_REDIRECT when it is a taken
 * branch, a jump or otherwise next_pc != pc + ilen. Adds to ev[CYCLES,
 * STALL_*]. */
void uarch_timing_issue(struct uarch_timing *t, const struct retire_rec *r,
			uint32_t fe, uint32_t be, unsigned bp, uint64_t *ev);

/* The L2's stride prefetcher (src/uarch/prefetch.c) */
#define UARCH_PF_STREAMS_MAX 16
struct uarch_prefetcher {
	struct uarch_prefetch_config cfg;
	uint32_t page_lines;    /* log2 of the L2 lines in a page */
	struct uarch_pf_stream {
		uint64_t last;          /* the line it saw last */
		int64_t stride;         /* lines from the one before (0: none yet) */
		uint64_t next;          /* the furthest line it sent */
		uint32_t conf;          /* strides alike in a row */
		uint64_t stamp;         /* last use, for replacement */
	} s[UARCH_PF_STREAMS_MAX];
	uint64_t stamp;
	uint64_t sent;          /* prefetches sent */
	/* the last UARCH_PF_TRACK sent, by number % UARCH_PF_TRACK: the line
	 * (+ 1; 0 once a demand access used it) and the number */
	uint64_t line[UARCH_PF_TRACK], seq[UARCH_PF_TRACK];
	/* how many of line[] are lines x + 1 with x % 64 = i: most L2 hits
	 * are no prefetch's, and uarch_prefetch_used() then looks no further */
	uint8_t held[64];
};
int uarch_prefetch_init(struct uarch_prefetcher *p, const struct uarch_prefetch_config *c,
			uint32_t page_lines);
void uarch_prefetch_reset(struct uarch_prefetcher *p);

/* ---- the facade ---- */

/* The fetch and data miss cycles of a block's instructions: a list of
 * (instruction << 1 | data, cycles) words, an entry per op that missed,
 * in order (block.c); op: 1 + the op the last entry is of. */
struct uarch_misses {
	uint32_t n, op;
	uint32_t m[2 * 3 * 64];
};

struct uarch_domain;
struct uarch {
	/* the events' totals; cycles are the timing's clock, tm.now, and
	 * ev[UARCH_EV_CYCLES] stays 0 (one add per block, not two):
	 * uarch_event() reads them */
	uint64_t ev[UARCH_EV_COUNT];
	struct uarch_cache l1i, l1d;
	/* the L2 it uses: its own (l2_own), or its domain's shared one */
	struct uarch_cache *l2, l2_own;
	/* the harts whose L1Ds its L1D is kept coherent with (NULL: none,
	 * and no line is ever Shared) */
	struct uarch_domain *dom;
	struct uarch_tlb itlb, dtlb, l2tlb;
	struct uarch_bpred bp;
	struct uarch_timing tm;
	struct uarch_prefetcher pf;
	uint32_t fetch_shift;   /* fetch block = L1I line (64 B without L1I) */
	uint32_t dline_shift;
	/* the last fetch block touched (physical), or UARCH_NO_LINE after a
	 * redirect: the next fetch starts a new block */
	uint64_t fetch_line;
	/* the real page tables' walks (NULL: a walk costs walk_lat) */
	uarch_walk_fn walk;
	void *walk_ctx;
	struct uarch_memo *memo;   /* block timings seen (block.c), made on first use */
	/* way outs' uarch_xc records past their UARCH_XC, by block, way out
	 * and state (struct uarch_xt); NULL when out of memory */
	struct uarch_xt *xt;
	/* the misses of the block translated code is retiring (block.c);
	 * from its first, tm.skey is 0, which no way out's replay starts
	 * from, and jskey holds it */
	struct uarch_misses jmiss;
	uint64_t jskey;
	/* every LRU structure's stamps count here (their clock points
	 * here), so that translated code stamps them all from one base */
	uint64_t lru_clock;
};

/* A straight-line run of instructions retired in one call (a translated
 * block, user mode: physical = virtual addresses). r[] holds its records
 * but for addr, paddr, next_pc and taken. Its timing is memoised: the
 * pipeline state it starts from, relative to the cycle it starts in, and
 * its cache and TLB miss cycles determine its cycles, stalls and end
 * state exactly, so a block seen before from the same relative state
 * replays them (src/uarch/block.c). */
struct uarch_block;
/* What a block run whole without a miss did from state sin, for
 * translated code to replay without a call (the last UARCH_XC states it
 * came from, for each way out: [taken][0 the latest, ...]; translated
 * code checks the first two inline, the others out of line): advance
 * now (the cycles) by dnow, add evn[i] to ev[ev[i]] (unused pairs add 0),
 * and set the state to sout | the new redirect penalty. */
#define UARCH_XC 4
/* five: the SiFive 7-series rules' blocks often raise five timing events,
 * and a block whose record cannot hold them goes to C every time */
#define UARCH_XC_EV 5
struct uarch_xc {
	uint64_t sin;           /* the state's key | its UARCH_IB bits; UINT64_MAX: empty */
	uint64_t sout;          /* a state's key without a penalty */
	uint32_t dnow;
	uint8_t ev[UARCH_XC_EV], pad;
	uint16_t evn[UARCH_XC_EV], pad2[2];
};
/* A block may go on past conditional branches not taken and direct jumps
 * (a superblock): up to UARCH_IB of them before its last instruction.
 * Whether each was mispredicted (bit i: the i-th, its penalty pending for
 * the instruction after it) is part of the timing's memo key and of a
 * uarch_xc's sin,
 * as bits UARCH_IB_SHIFT on: above any redirect penalty (profiles keep
 * those below 2^24). */
#define UARCH_IB 1
#define UARCH_IB_SHIFT 24
#define UARCH_XM 2
struct uarch_block {
	const struct retire_rec *r;
	uint32_t n;
	uint64_t tag;           /* unique to the block; 0: not memoised */
	uint8_t nops;
	uint8_t nib, ib[UARCH_IB];   /* its branches and jumps before the last, by index */
	uint32_t hint;          /* the memo entry it used last */
	struct uarch_xc xc[2][UARCH_XC];
	/* the same for runs whole with one or two misses, by way out (the
	 * latest first): their struct uarch_misses words, 0 past the second;
	 * for misses the memory system times, the form of its times they
	 * start from (uarch_timing's mform, only ever a form that stays
	 * itself as cycles pass, the idle one or one whose other times are
	 * dropped prefetches: its number names it whatever the cycles
	 * since, mstate.c) and leave (mout,
	 * relative to the cycle they end in); 0, 0 for others */
	struct uarch_xm {
		struct uarch_xc x;
		uint32_t m[4];
		uint32_t min, mout;
		/* mout's mform_still and mform_hold */
		uint32_t still, hold;
	} xm[2][UARCH_XM];
	/* the fetches and data accesses, in order: instruction << 2 | UARCH_OP_* */
	uint8_t ops[3 * UARCH_BLOCK_INSNS];
};
enum { UARCH_OP_FETCH, UARCH_OP_FETCH2, UARCH_OP_LOAD, UARCH_OP_STORE };
/* A way out's uarch_xc as block.c made it, in a direct-mapped table of
 * every way out's (uarch->xt): a way out whose states outnumber its
 * UARCH_XC records (branchy's interpreter: its state, the penalty pending
 * and its UARCH_IB bit make eight) finds the others there from translated
 * code instead of going to C. A record is the block's timing from its sin
 * whenever it runs, so an entry stays right until overwritten; blocks'
 * tags are never reused, so id (tag << 1 | the way out, 0: empty) names
 * one way out forever. One 64-byte line each. */
#define UARCH_XT_BITS 12
#define UARCH_XT_MIX UINT64_C(0xd6e8feb86659fd93)
/* with high bits set, so that a state's low bits (the penalty, the
 * UARCH_IB bits) reach the product's top bits, which pick the slot */
#define UARCH_XT_MUL UINT64_C(0x9e3779b97f4a7c15)
struct uarch_xt {
	uint64_t id;
	struct uarch_xc x;
	uint64_t pad[2];
};
static inline uint64_t uarch_xt_id(const struct uarch_block *b, unsigned way)
{
	return b->tag << 1 | way;
}
/* way out id's entry for state key sin: translated code computes it from
 * id * UARCH_XT_MIX, a constant of the way out's */
static inline uint32_t uarch_xt_slot(uint64_t id, uint64_t sin)
{
	return (uint32_t)(((sin ^ id * UARCH_XT_MIX) * UARCH_XT_MUL) >> (64 - UARCH_XT_BITS));
}
void uarch_block_init(const struct uarch *u, struct uarch_block *b, const struct retire_rec *r,
		      uint32_t n);
/* The first n instructions of b retired (all: n = b->n) with data
 * addresses addr[] (by instruction; physical ones UARCH_BLOCK_INSNS on
 * for UARCH_RF_PADDR), the last going on to next_pc and a branch taken
 * when taken: as uarch_retire() on each in turn. */
void uarch_retire_block(struct uarch *u, struct uarch_block *b, uint32_t n,
			const uint64_t *addr, uint64_t next_pc, int taken);
/* For translated code retiring all of b as uarch_retire_block() would:
 * the part of op i (at = i << 1 | 0 for its TLB lookup, | 1 for its cache
 * lookup) that missed (translated code looked at every line it could be),
 * with its events; its miss cycles are kept in u->jmiss. With a domain
 * (u->dom), a store's L1D part is looked up here whole, hit or not. */
void uarch_block_slow(struct uarch *u, const struct uarch_block *b, const uint64_t *addr,
		      uint32_t at);
/* ... and for data op i whose access crossed into the next L1D line
 * (misaligned, within its page), after its first line: the second line,
 * TLB and cache, whole, its miss cycles added to the op's in u->jmiss as
 * uarch_retire_block() adds them. */
void uarch_block_cross(struct uarch *u, const struct uarch_block *b, const uint64_t *addr,
		       uint32_t i);
/* ... then the rest, all ops and the predictor being done (pen: the
 * redirect penalty it left, its branches before the last mispredicted
 * in bits UARCH_IB_SHIFT on): the timing, from u->jmiss. */
void uarch_block_resume(struct uarch *u, struct uarch_block *b, uint64_t next_pc, uint32_t taken,
			uint32_t pen);

/* 0, or -1 with a message in err (which may be NULL) naming the bad field.
 * On failure nothing stays allocated. */
int uarch_init(struct uarch *u, const struct uarch_config *c, char *err, size_t errsz);

/* Harts over one memory (src/uarch/coherence.c): their models' L1Ds kept
 * coherent by MESI with invalidation, snooping each other's L1Ds on a
 * miss and on a store to a Shared line, and, when the L2 is shared, one
 * L2 that all of them use (each counting its own accesses). */
#define UARCH_DOMAIN_MAX 8
struct uarch_domain {
	unsigned n;
	struct uarch *u[UARCH_DOMAIN_MAX];
	struct uarch_cache l2;   /* the shared L2 (present: it is used) */
};
/* Make u[0..n) one domain (n <= UARCH_DOMAIN_MAX), their L2 one shared
 * cache of u[0]'s geometry when share_l2 (their own L2s are freed):
 * 0, or -1 when out of memory. n = 1 changes nothing: a hart alone has
 * no domain. The models must have the same geometry; d outlives them. */
int uarch_domain_init(struct uarch_domain *d, struct uarch *const *u, unsigned n, int share_l2);
void uarch_domain_free(struct uarch_domain *d);
void uarch_free(struct uarch *u);
/* Cold state (empty caches, TLBs, predictor, idle pipeline), ev[] = 0. */
void uarch_reset(struct uarch *u);
/* u's total of event e, and of them all */
static inline uint64_t uarch_event(const struct uarch *u, enum uarch_event e)
{
	return e == UARCH_EV_CYCLES ? u->tm.now : u->ev[e];
}
static inline void uarch_events(const struct uarch *u, uint64_t ev[UARCH_EV_COUNT])
{
	for (int e = 0; e < UARCH_EV_COUNT; e++)
		ev[e] = uarch_event(u, (enum uarch_event)e);
}
void uarch_retire(struct uarch *u, const struct retire_rec *r);
/* The next fetch is a new block (a trap or interrupt changed the pc). */
#define UARCH_NO_LINE UINT64_MAX
static inline void uarch_redirect(struct uarch *u) { u->fetch_line = UARCH_NO_LINE; }
void uarch_sfence_vma(struct uarch *u);   /* flushes ITLB, DTLB, L2 TLB */
void uarch_fence_i(struct uarch *u);      /* invalidates L1I */

#endif
