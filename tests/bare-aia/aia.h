/* Shared by the tests/bare-aia programs: the AIA's CSR numbers (Smaia/
 * Ssaia v1.0, "Control and Status Registers Added to Harts") and the
 * field encodings the checks use, over tests/bare-h's H definitions. */
#ifndef AIA_H
#define AIA_H
#include "../bare-h/h.h"

#define CSR_MISELECT 0x350
#define CSR_MIREG 0x351
#define CSR_MIREG2 0x352
#define CSR_MTOPEI 0x35c
#define CSR_MTOPI 0xfb0
#define CSR_MVIEN 0x308
#define CSR_MVIP 0x309
#define CSR_SISELECT 0x150
#define CSR_SIREG 0x151
#define CSR_SIREG2 0x152
#define CSR_STOPEI 0x15c
#define CSR_STOPI 0xdb0
#define CSR_HVIEN 0x608
#define CSR_HVICTL 0x609
#define CSR_HVIPRIO1 0x646
#define CSR_HVIPRIO2 0x647
#define CSR_VSISELECT 0x250
#define CSR_VSIREG 0x251
#define CSR_VSTOPEI 0x25c
#define CSR_VSTOPI 0xeb0

#define SSTATUS_SIE (1ul << 1)
#define LCOF (1ul << 13)
/* *topi: IID in bits 27:16, IPRIO in 7:0 */
#define TOPI(iid, prio) ((u64)(iid) << 16 | (u64)(prio))
/* hvictl fields */
#define HVICTL_VTI (1ul << 30)
#define HVICTL_IID(n) ((u64)(n) << 16)
#define HVICTL_DPR (1ul << 9)
#define HVICTL_IPRIOM (1ul << 8)

extern char rt_s_trap_entry[];

#define ILL 2
#define VIRT 22

/* The cause of the one trap since rt_trap_clear, 0 for none */
static inline u64 cause1(void)
{
	return rt_trap.count == 1 ? rt_trap.cause : rt_trap.count ? 99 : 0;
}

#endif
