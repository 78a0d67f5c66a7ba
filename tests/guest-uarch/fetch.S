/* Straight-line code: NOPS 4-byte nops from a 64-byte aligned _start, then
 * the exit, with no control transfer before the ecall: every instruction
 * fetch is sequential. */
#include "exit.h"
	.option norvc
	.text
	.balign 64
	.globl _start
_start:
	.rept NOPS
	nop
	.endr
	EXIT_0
