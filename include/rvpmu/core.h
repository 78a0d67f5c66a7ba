/* A modelled core: a profile applied to a hart (PMU shape and selector
 * encoding, identity CSRs, skid, clock) and, when wanted, the
 * microarchitecture models that feed its events. */
#ifndef RVPMU_CORE_H
#define RVPMU_CORE_H
#include <stdbool.h>
#include <stddef.h>
#include "rvpmu/hart.h"
#include "rvpmu/profile.h"

/* Apply p to h (after hart_init, and after hart_reset_system in system
 * mode). With models, caches, TLBs, branch prediction and timing observe
 * every instruction and cycles come from the timing model; without them
 * the hart runs at full speed and cycles equal instructions. p must
 * outlive h. Returns 0, or -1 with a message. */
int core_setup(struct hart *h, const struct profile *p, bool models, char *err, size_t errlen);
void core_free(struct hart *h);
/* The n harts *h[0..n) over one memory, set up with p's models: one
 * coherence domain d of their L1Ds, over one L2 when p shares it (d
 * must outlive their models; free it with uarch_domain_free after them).
 * Nothing for one hart, or without models. 0, or -1 with a message. */
int core_share(struct hart *const *h, unsigned n, struct uarch_domain *d, const struct profile *p,
	       char *err, size_t errlen);

#endif
