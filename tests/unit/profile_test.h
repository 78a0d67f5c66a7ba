/* Host unit tests of core profiles (src/uarch/profile*.c): each group
 * prints one "PASS profiles <group>" or "FAIL profiles <group>: why". */
#ifndef PROFILE_TEST_H
#define PROFILE_TEST_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/profile.h"

void prt_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define CHECK(cond, ...) do { if (!(cond)) prt_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define CHECK_EQ(got, want, what) do { uint64_t g_ = (got), w_ = (want); \
	CHECK(g_ == w_, "%s: got 0x%llx, want 0x%llx", what, \
	      (unsigned long long)g_, (unsigned long long)w_); } while (0)
/* the same for sets of canonical events (128-bit) */
#define CHECK_SET(got, want, what) do { pmu_evset g_ = (got), w_ = (want); \
	CHECK(g_ == w_, "%s: got 0x%llx:%016llx, want 0x%llx:%016llx", what, \
	      (unsigned long long)(g_ >> 64), (unsigned long long)g_, \
	      (unsigned long long)(w_ >> 64), (unsigned long long)w_); } while (0)

/* directory holding virt.json and u74.json (env PROFILE_SRC) */
const char *prt_src(void);
/* a scratch directory (env PROFILE_TMP) */
const char *prt_tmp(void);
/* profiles/NAME.json loaded, or NULL after a failed CHECK */
struct profile *prt_load(const char *name);
/* the text of profiles/NAME.json (malloc'd), its length in *len */
char *prt_text(const char *name, size_t *len);

#define PROFILE_GROUPS(X) \
	X(load_virt) X(load_u74) X(load_jh7110) X(ids_mapfile) X(event_names) X(decode_sbi) \
	X(decode_canon) X(decode_u74) X(documented_selectors) X(virt_named) \
	X(perf_json) X(pmu_wiring) X(resolve) X(errors) X(errors_virt) \
	X(syntax) X(truncated) X(garbage)
#define DECL(g) void test_##g(void);
PROFILE_GROUPS(DECL)
#undef DECL

#endif
