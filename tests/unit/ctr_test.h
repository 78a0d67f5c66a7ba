/* The CTR unit tests' harness (defined in ctr_main.c). */
#ifndef CTR_TEST_H
#define CTR_TEST_H
#include <stdint.h>
#include "rvpmu/ctr.h"

void ct_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) do { if (!(cond)) ct_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define CHECK_EQ(got, want, what) do { uint64_t g_ = (got), w_ = (want); \
	CHECK(g_ == w_, "%s: got 0x%llx, want 0x%llx", what, \
	      (unsigned long long)g_, (unsigned long long)w_); } while (0)
void ct_make(struct ctr *c, void (*fix)(struct ctr_config *));
int ct_rd(struct ctr *c, unsigned priv, unsigned csr, uint64_t *v);
int ct_wr(struct ctr *c, unsigned priv, unsigned csr, uint64_t v);
uint64_t ct_rdm(struct ctr *c, unsigned csr);
void ct_wrm(struct ctr *c, unsigned csr, uint64_t v);
uint64_t ct_ent(struct ctr *c, unsigned x, unsigned n);
void ct_went(struct ctr *c, unsigned x, unsigned n, uint64_t v);
#define M CTR_PRIV_M
#define S CTR_PRIV_S
#define U CTR_PRIV_U

#endif
