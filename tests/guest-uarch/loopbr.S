/* A counted loop of N iterations: its bnez is the program's only control
 * transfer (taken N-1 times, then not taken). */
#include "exit.h"
	.option norvc
	.text
	.globl _start
_start:
	li a1, N
1:	addi a1, a1, -1
	bnez a1, 1b
	EXIT_0
