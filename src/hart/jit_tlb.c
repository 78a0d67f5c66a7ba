/* The hart's TLB looked up by translated code in system mode with paging
 * (jit_ops.h): the same first look mmu_translate() takes (mmu.c), on the
 * same entries, so a translated access or jump uses a translation exactly
 * when the step loop would, and leaves for it (which walks and fills)
 * otherwise. */
#include <stddef.h>
#include "jit_ops.h"

#define TLB(field) ((int32_t)(offsetof(struct hart, tlb) + offsetof(struct hart_tlb, field)))

unsigned jit_tlb_lookup(struct em *e, int va, int t, int i, int32_t key, unsigned acc, uint8_t **miss)
{
	_Static_assert(sizeof(struct hart_tlb) == 32 && HART_TLB_SIZE == 256, "indexed below");
	mov_rr(e, t, va);
	shift_ri(e, 1, SH_SHR, t, 12);                     /* the page */
	mov_rr32(e, i, t);
	alu_ri(e, 0, G1_AND, i, HART_TLB_SIZE - 1);
	shift_ri(e, 0, SH_SHL, i, 5);                       /* its entry */
	op_mem(e, 0, 1, 0, 0x3b, t, RBX, i, 0, TLB(vpn));
	miss[0] = jcc32(e, CC_NE);
	op_rm(e, 1, 0x8b, t, RBX, key);
	op_mem(e, 0, 1, 0, 0x3b, t, RBX, i, 0, TLB(key));
	miss[1] = jcc32(e, CC_NE);
	op_mem(e, 0, 0, 0, 0xf6, 0, RBX, i, 0, TLB(perm));
	b1(e, 1u << acc);                                   /* test byte [perm], 1 << acc */
	miss[2] = jcc32(e, CC_E);
	op_mem(e, 0, 1, 0, 0x8b, t, RBX, i, 0, TLB(ppn));
	return 3;
}
