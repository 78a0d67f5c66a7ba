/* Pointer chase: a cycle through LINES 64-byte lines of a .bss buffer
 * (4 MiB: beyond every profile's L2 and L2 TLB reach) in the order of a
 * full-period LCG (i -> 5 i + 1 mod LINES, Hull-Dobell), so that no
 * stride prefetcher follows it; then STEPS dependent loads along it.
 * Every load waits for the one before: top-down, backend (memory) bound. */
#include "../guest-uarch/exit.h"
	.option norvc
	.text
	.globl _start
_start:
	lla s0, buf
	li s1, LINES - 1        /* the index mask */
	li t0, 0                /* i */
	li t3, LINES
1:	slli t1, t0, 2          /* next = 5 i + 1 mod LINES */
	add t1, t1, t0
	addi t1, t1, 1
	and t1, t1, s1
	slli t2, t0, 6
	add t2, t2, s0
	slli t4, t1, 6
	add t4, t4, s0
	sd t4, 0(t2)            /* buf[i] = &buf[next] */
	mv t0, t1
	addi t3, t3, -1
	bnez t3, 1b
	mv a0, s0
	li s2, STEPS / 8
2:
	.rept 8
	ld a0, 0(a0)
	.endr
	addi s2, s2, -1
	bnez s2, 2b
	EXIT_0
	.bss
	.balign 4096
buf:	.skip LINES * 64
