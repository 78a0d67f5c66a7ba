/* Illegal and reserved encodings raise an illegal-instruction exception,
 * which Linux delivers as a fatal SIGILL: exit status 128 + 4.
 * One program per encoding (built with -DV_<variant>); each runs legal
 * code first and exits 1 if execution falls through the bad instruction.
 * suite: expect-exit 132
 * suite: variants zero rvc-addi16sp rvc-lui rvc-lwsp rm5 rm6 frm5 frm7 csrw-cycle csr-mstatus custom0 */
#include "test.h"
	TEST_BEGIN
	li t0, 1
	fmv.d.x fa1, t0
	fmv.d.x fa2, t0
#if defined(V_zero)
	.4byte 0			/* all-zero word (also c.illegal) */
#elif defined(V_rvc_addi16sp)
	.2byte 0x6101			/* c.addi16sp with nzimm = 0: reserved */
#elif defined(V_rvc_lui)
	.2byte 0x6501			/* c.lui a0 with nzimm = 0: reserved */
#elif defined(V_rvc_lwsp)
	.2byte 0x4002			/* c.lwsp with rd = x0: reserved */
#elif defined(V_rm5)
	.insn r 0x53, 5, 1, fa0, fa1, fa2	/* fadd.d with rm = 5 (reserved) */
#elif defined(V_rm6)
	.insn r 0x53, 6, 1, fa0, fa1, fa2	/* fadd.d with rm = 6 (reserved) */
#elif defined(V_frm5)
	csrwi frm, 5			/* legal write; the dyn use traps */
	fadd.d fa0, fa1, fa2
#elif defined(V_frm7)
	csrwi frm, 7
	fmul.d fa0, fa1, fa2
#elif defined(V_csrw_cycle)
	csrw cycle, t0			/* write to a read-only CSR */
#elif defined(V_csr_mstatus)
	csrr t1, mstatus		/* M-mode CSR from U-mode */
#elif defined(V_custom0)
	.4byte 0x0000000b		/* custom-0 opcode: no such extension */
#else
#error "no variant"
#endif
	.2byte 0x0001			/* c.nop: keep alignment for what follows */
	.option norvc
	EXIT 1
	TEST_END
