/* N iterations of one fence instruction (FENCE, or FENCE.I with -DFENCEI)
 * and the loop's addi and bnez. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, N
1:
#ifdef FENCEI
	fence.i
#else
	fence rw, rw
#endif
	addi s1, s1, -1
	bnez s1, 1b
	EXIT_0
