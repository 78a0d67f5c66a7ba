/* Data walk: PASSES passes of COUNT loads STRIDE bytes apart over a
 * page-aligned .bss buffer. The walk's loads are the only data accesses
 * (no stack, no C runtime). With PAD, PAD dependent multiplies after each
 * load (slow enough that the L2 prefetcher's lines arrive before use). */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, PASSES
	li t1, STRIDE
2:	lla a0, buf
	li a1, COUNT
1:	ld t0, 0(a0)
#ifdef PAD
	.rept PAD
	mul s2, s2, s2
	.endr
#endif
	add a0, a0, t1
	addi a1, a1, -1
	bnez a1, 1b
	addi s1, s1, -1
	bnez s1, 2b
	EXIT_0
	.bss
	.balign 4096
buf:	.skip COUNT * STRIDE
