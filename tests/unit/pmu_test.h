/* Host unit tests of src/pmu: a group prints one PASS/FAIL line. */
#ifndef PMU_TEST_H
#define PMU_TEST_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/pmu.h"

void pt_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) do { if (!(cond)) pt_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define CHECK_EQ(got, want, what) do { uint64_t g_ = (got), w_ = (want); \
	CHECK(g_ == w_, "%s: got 0x%llx, want 0x%llx", what, \
	      (unsigned long long)g_, (unsigned long long)w_); } while (0)

/* a PMU from the default config after fix (may be NULL) edits it */
void pt_make(struct pmu *p, void (*fix)(struct pmu_config *));
/* CSR read (CSRRS rs1=x0) / write (CSRRW, then the writer retires with no
 * events): the pmu_csr_access status */
int pt_rd(struct pmu *p, unsigned priv, unsigned csr, uint64_t *v);
int pt_wr(struct pmu *p, unsigned priv, unsigned csr, uint64_t v);
/* a config edit: the hypervisor extension on */
void pt_fix_h(struct pmu_config *c);
/* read/write from M that must succeed */
uint64_t pt_rdm(struct pmu *p, unsigned csr);
void pt_wrm(struct pmu *p, unsigned csr, uint64_t v);

#define M PMU_PRIV_M
#define S PMU_PRIV_S
#define U PMU_PRIV_U

/* groups, one function each */
#define PMU_GROUPS(X) \
	X(config) X(csr_map) X(csr_priv) X(counter_rw) X(unimplemented) \
	X(mcountinhibit) X(counteren_s) X(counteren_u) X(counteren_v) X(counteren_no_s) \
	X(counter_writes_ro) X(time_hook) X(decoder) X(write_replaces) X(state_before) \
	X(of_lcofi) X(of_width) X(scountovf) X(xinh_modes) X(horizon) \
	X(horizon_sim) X(sscofpmf_off) X(cfg_fields) X(cfg_inh) \
	X(smcntrpmf_off) X(scountinhibit) X(sireg) X(smcdeleg_off)
#define DECL(g) void test_##g(void);
PMU_GROUPS(DECL)
#undef DECL

#endif
