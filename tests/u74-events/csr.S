/* CSR writes and reads of the user-mode FP CSRs (fcsr, frm, fflags: U-mode
 * may read and write them while mstatus.FS is not Off), N iterations.
 * Per iteration, 5 accesses write (csrrw always writes; csrrs/csrrc with
 * rs1 != x0 and csrrsi/csrrci with uimm != 0 write) and 4 only read
 * (csrrs/csrrc with x0, csrrsi/csrrci with uimm 0). */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li t1, 1
	li s1, N
1:
	csrrw x0, fcsr, x0      /* writes */
	csrrwi x0, frm, 0       /* writes */
	csrrsi t0, fflags, 1    /* writes */
	csrrs t0, fflags, t1    /* writes */
	csrrc t0, fflags, t1    /* writes */
	csrrs t2, fcsr, x0      /* reads */
	csrrc t2, fflags, x0    /* reads */
	csrrsi t2, fflags, 0    /* reads */
	csrrci t2, frm, 0       /* reads */
	addi s1, s1, -1
	bnez s1, 1b
	EXIT_0
