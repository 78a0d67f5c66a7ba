/* Shared by the tests/bare-h programs: the hypervisor extension's CSR
 * numbers and bits, HLV/HSV in the assembler, and a trap hook that keeps
 * the H-specific trap values. */
#ifndef H_H
#define H_H
#include "rt.h"

#define CSR_HSTATUS 0x600
#define CSR_HEDELEG 0x602
#define CSR_HIDELEG 0x603
#define CSR_HIE 0x604
#define CSR_HTIMEDELTA 0x605
#define CSR_HCOUNTEREN 0x606
#define CSR_HGEIE 0x607
#define CSR_HENVCFG 0x60a
#define CSR_HTVAL 0x643
#define CSR_HIP 0x644
#define CSR_HVIP 0x645
#define CSR_HTINST 0x64a
#define CSR_HGATP 0x680
#define CSR_HGEIP 0xe12
#define CSR_VSSTATUS 0x200
#define CSR_VSIE 0x204
#define CSR_VSTVEC 0x205
#define CSR_VSSCRATCH 0x240
#define CSR_VSEPC 0x241
#define CSR_VSCAUSE 0x242
#define CSR_VSTVAL 0x243
#define CSR_VSIP 0x244
#define CSR_VSATP 0x280
#define CSR_MTINST 0x34a
#define CSR_MTVAL2 0x34b

#define HS_GVA (1ul << 6)
#define HS_SPV (1ul << 7)
#define HS_SPVP (1ul << 8)
#define HS_HU (1ul << 9)
#define HS_VTVM (1ul << 20)
#define HS_VTW (1ul << 21)
#define HS_VTSR (1ul << 22)

#include "sv39.h"

/* An instruction of the H extension in TRY() */
#define H_INSN(s) ".option push\n.option arch, +h\n" s "\n.option pop"

/* What the hook saw at the latest trap beside rt_trap: M's mtval2 and
 * mtinst, or HS's htval, htinst and hstatus. While h_s_is_vs is set,
 * the S-level handler runs in VS (vstvec) and reads no H CSR. */
static struct {
	volatile u64 tval2, tinst, hstatus;
} h_trap;
static volatile int h_s_is_vs;

/* mstatus/sstatus at the one trap since rt_trap_clear (0 if not one) */
static inline u64 trap_status(void)
{
	return rt_trap.count == 1 ? rt_trap.status : 0;
}

/* The trap hook: keeps the H values, then rt's default recording runs;
 * a fetch fault in M returns to ra (the faulting pc cannot be read to
 * skip it). */
static int h_hook(u64 *f, u64 cause, u64 epc, char level)
{
	h_trap.tval2 = h_trap.tinst = h_trap.hstatus = ~0ul;
	if (level == 'M') {
		h_trap.tval2 = csrr(CSR_MTVAL2);
		h_trap.tinst = csrr(CSR_MTINST);
		if (cause == 1 || cause == 12 || cause == 20) {
			rt_trap.count++;
			rt_trap.cause = cause;
			rt_trap.epc = epc;
			rt_trap.tval = csrr(mtval);
			rt_trap.status = csrr(mstatus);
			rt_trap.level = 'M';
			csrw(mepc, f[1]);
			return 1;
		}
	} else if (!h_s_is_vs) {
		h_trap.tval2 = csrr(CSR_HTVAL);
		h_trap.tinst = csrr(CSR_HTINST);
		h_trap.hstatus = csrr(CSR_HSTATUS);
	}
	return 0;
}

#endif
