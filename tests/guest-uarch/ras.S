/* REPS times: a call chain DEPTH deep with no conditional branch in it.
 * _start calls block 1; each of the DEPTH-1 blocks saves ra, calls the next
 * block (`jal ra, 1f`: the next `1:` is the next block's first instruction)
 * and returns; the last `1:` is a leaf that just returns. So each rep has
 * DEPTH calls (jal ra, RAS pushes) and DEPTH returns (jalr x0, 0(ra), RAS
 * pops), innermost return first. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, REPS
2:	jal ra, chain
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
chain:
	.rept DEPTH - 1
	addi sp, sp, -16
	sd ra, 8(sp)
	jal ra, 1f
	ld ra, 8(sp)
	addi sp, sp, 16
	ret
1:
	.endr
	ret
