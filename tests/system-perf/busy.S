/* Every hart: nine instructions in M-mode (the last, mret, enters user
 * mode), then an endless user-mode loop; --max-insns ends the run. With
 * the same budget on every hart (--quantum divides it), each hart's
 * counts are exact: 9 instructions in machine mode, the rest in user
 * mode. No stack, no data: nothing differs between harts. */
	.option norelax
	.section .text.init, "ax"
	.globl _start
	.type _start, @function
_start:
	li t0, -1                 /* 1: PMP entry 0 covers everything, RWX */
	csrw pmpaddr0, t0         /* 2 */
	li t0, 0x1f               /* 3: NAPOT | X | W | R */
	csrw pmpcfg0, t0          /* 4 */
	auipc t0, 0               /* 5: mepc = user */
	addi t0, t0, 20           /* 6: _start + 16 + 20 = user */
	csrw mepc, t0             /* 7 */
	csrw mstatus, zero        /* 8: MPP = U */
	mret                      /* 9 */
	.size _start, . - _start
	.type user, @function
user:
	addi a0, a0, 1
	j user
	.size user, . - user
