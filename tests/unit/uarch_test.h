/* Host unit tests of src/uarch: each group prints one PASS/FAIL line. */
#ifndef UARCH_TEST_H
#define UARCH_TEST_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/uarch.h"

void ut_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) do { if (!(cond)) ut_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define CHECK_EQ(got, want, what) do { uint64_t g_ = (got), w_ = (want); \
	CHECK(g_ == w_, "%s: got %llu, want %llu", what, \
	      (unsigned long long)g_, (unsigned long long)w_); } while (0)
#define CHECK_EV(u, e, want) CHECK_EQ(uarch_event(u, UARCH_EV_##e), want, #e)

/* a config with every cache, TLB and predictor table absent or minimal and
 * 1-wide timing with unit latencies: tests switch on what they test */
void ut_config_bare(struct uarch_config *c);
void ut_init(struct uarch *u, const struct uarch_config *c);

/* record builders (4-byte instructions unless ilen given) */
struct retire_rec ut_alu(uint64_t pc, uint8_t rd, uint8_t rs1, uint8_t rs2);
struct retire_rec ut_op(uint8_t cls, uint64_t pc, uint8_t rd, uint8_t rs1, uint8_t rs2);
struct retire_rec ut_mem(uint8_t cls, uint64_t pc, uint64_t addr, uint8_t rd, uint8_t rs1, uint8_t rs2);
struct retire_rec ut_br(uint64_t pc, int taken, uint64_t target, uint8_t rs1);
struct retire_rec ut_jump(uint8_t cls, uint64_t pc, uint64_t target, uint8_t rd, uint8_t rs1);

/* xorshift64: the next pseudo-random number of *state (never 0) */
uint64_t ut_rand(uint64_t *state);

#define UARCH_GROUPS(X) \
	X(cache_direct) X(cache_lru_plru) X(cache_shared_clock) X(cache_plru8) X(cache_reference) \
	X(hier_l1d_l2) \
	X(hier_l2_writeback) X(fetch_l1i) X(tlb_strided) X(tlb_setassoc) \
	X(tlb_facade) X(tlb_hugepage) X(tlb_walker) X(tlb_bare) \
	X(bimodal_loop) X(gshare_alternate) \
	X(ras_overflow) X(ras_hints) X(btb_conflict) X(btb_lru) X(timing_w1) X(timing_topdown) \
	X(bpred_counter_bits) X(indirect_history) X(indirect_pc) \
	X(timing_w2) X(config_reject) X(determinism) X(block_memo) X(max_per_insn) \
	X(late_alu) X(pipes) X(latency_variants) X(mshrs) X(write_bandwidth) X(prefetch) \
	X(coh_mesi) X(coh_shared_l2) X(coh_private_l2) X(coh_drop)
#define DECL(g) void test_##g(void);
UARCH_GROUPS(DECL)
#undef DECL

#endif
