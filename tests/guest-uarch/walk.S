/* Data walk: PASSES passes of COUNT accesses (a load, or with STORE a store)
 * STRIDE bytes apart from the start of a page-aligned .bss buffer of BUFSIZE
 * bytes; then, with TAIL_COUNT, a load walk of TAIL_COUNT accesses
 * TAIL_STRIDE apart from buf + TAIL_OFF. No other instruction touches data
 * memory (no stack, no C runtime), so every data-side event comes from the
 * walks. */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li s1, PASSES
	li t1, STRIDE
2:	lla a0, buf
	li a1, COUNT
1:
#ifdef STORE
	sd zero, 0(a0)
#else
	ld t0, 0(a0)
#endif
	add a0, a0, t1
	addi a1, a1, -1
	bnez a1, 1b
	addi s1, s1, -1
	bnez s1, 2b
#ifdef TAIL_COUNT
	lla a0, buf + TAIL_OFF
	li a1, TAIL_COUNT
	li t1, TAIL_STRIDE
3:	ld t0, 0(a0)
	add a0, a0, t1
	addi a1, a1, -1
	bnez a1, 3b
#endif
	EXIT_0
	.bss
	.balign 4096
buf:	.skip BUFSIZE
