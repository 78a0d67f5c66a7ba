/* Bare-metal runtime entry: starts in M-mode at 0x80000000, opens PMP for
 * S/U, installs the M and S trap vectors and calls main(). Traps save all
 * registers in a frame on the current stack and call rt_m_trap/rt_s_trap. */
#include "rt_defs.h"
	.option norelax

	.section .text.init, "ax"
	.globl _start
_start:
	csrw mie, zero
	la sp, __stack_top
	mv s0, a1			/* QEMU-style boot: a1 = device tree */
	/* PMP entry 0 = NAPOT over all memory, RWX, so S and U can run; a
	 * hart without PMP may trap here, and mtvec just skips the rest */
	la t0, 1f
	csrw mtvec, t0
	li t0, -1
	csrw pmpaddr0, t0
	li t0, 0x1f
	csrw pmpcfg0, t0
	.balign 4
1:	la t0, rt_m_trap_entry
	csrw mtvec, t0
	la t0, rt_s_trap_entry
	csrw stvec, t0
	la t0, __bss_start
	la t1, __bss_end
2:	bgeu t0, t1, 3f
	sd zero, 0(t0)
	addi t0, t0, 8
	j 2b
3:	la t0, rt_boot_fdt
	sd s0, 0(t0)
	li t0, (1 << 13)		/* mstatus.FS = Initial */
	csrs mstatus, t0
	call main
	call rt_exit
4:	j 4b

.macro SAVE_FRAME
	addi sp, sp, -RT_FRAME
	.irp r, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd x\r, (8 * \r)(sp)
	.endr
	addi t0, sp, RT_FRAME
	sd t0, 16(sp)
	mv a0, sp
.endm

.macro RESTORE_FRAME
	.irp r, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld x\r, (8 * \r)(sp)
	.endr
	ld sp, 16(sp)
.endm

	.text
	.balign 4
	.globl rt_m_trap_entry
rt_m_trap_entry:
	SAVE_FRAME
	call rt_m_trap
	RESTORE_FRAME
	mret

	.balign 4
	.globl rt_s_trap_entry
rt_s_trap_entry:
	SAVE_FRAME
	call rt_s_trap
	RESTORE_FRAME
	sret

/* rt_setjmp(ctx) / rt_longjmp(ctx, v): ra, sp, s0-s11 */
	.globl rt_setjmp
rt_setjmp:
	sd ra, 0(a0)
	sd sp, 8(a0)
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	sd s\n, (16 + 8 * \n)(a0)
	.endr
	li a0, 0
	ret

	.globl rt_longjmp
rt_longjmp:
	ld ra, 0(a0)
	ld sp, 8(a0)
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	ld s\n, (16 + 8 * \n)(a0)
	.endr
	mv a0, a1
	ret

/* First code run in S or U by rt_run: a0 = argument, a1 = function; the
 * result goes back to M through an ecall carrying RT_MAGIC in a7. */
	.globl rt_lower_entry
	.balign 4
rt_lower_entry:
	li a7, 0
	jalr a1
	li a7, RT_MAGIC
	ecall
5:	j 5b

/* Vectored-mode table for priv-csr: slot N records N and mcause; slot 0
 * (exceptions) skips the 4-byte trapping instruction, other slots clear
 * mie so the interrupt does not come back. */
	.balign 256
	.globl rt_vec_table
rt_vec_table:
	.option push
	.option norvc
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	j rt_vec_stub\n
	.endr
	.option pop
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
rt_vec_stub\n:
	addi sp, sp, -16
	sd t0, 0(sp)
	li t0, \n
	j rt_vec_common
	.endr
rt_vec_common:
	sd t1, 8(sp)
	la t1, rt_vec_slot
	sd t0, 0(t1)
	csrr t1, mcause
	la t0, rt_vec_cause
	sd t1, 0(t0)
	la t1, rt_vec_count
	ld t0, 0(t1)
	addi t0, t0, 1
	sd t0, 0(t1)
	la t1, rt_vec_slot
	ld t0, 0(t1)
	bnez t0, 6f
	csrr t0, mepc
	addi t0, t0, 4
	csrw mepc, t0
	j 7f
6:	csrw mie, zero
7:	ld t0, 0(sp)
	ld t1, 8(sp)
	addi sp, sp, 16
	mret

/* Tables of CSR accessors for computed CSR numbers: entry k of a table
 * for base B is "csrr a0, B+k; ret" (read) or "csrw B+k, a0; ret". */
.macro CSR_TABLES base
	.balign 8
	.globl rt_csrr_\base
rt_csrr_\base:
	.set k, 0
	.rept 32
	csrr a0, (\base + k)
	ret
	.set k, k + 1
	.endr
	.globl rt_csrw_\base
rt_csrw_\base:
	.set k, 0
	.rept 32
	csrw (\base + k), a0
	ret
	.set k, k + 1
	.endr
.endm
	.option push
	.option norvc
	CSR_TABLES 0xb00
	CSR_TABLES 0x320
	CSR_TABLES 0xc00
	.option pop

/* rt_probe_<name>(mode): read counter CSR in M, mret to MODE (mstatus.MPP),
 * run 10 nops there and ecall back to a handler whose first instruction
 * reads the counter again; returns the difference (see rt.h). */
.macro MODE_PROBE name, csr
	.globl rt_probe_\name
	.balign 4
rt_probe_\name:
	csrr t3, mtvec
	la t4, 2f
	csrw mtvec, t4
	la t4, 1f
	csrw mepc, t4
	slli a0, a0, 11
	li t5, 0x1800			/* mstatus.MPP */
	csrc mstatus, t5
	csrs mstatus, a0
	csrr t0, \csr
	mret
1:	.rept 10
	nop
	.endr
	ecall
	.balign 4
2:	csrr t1, \csr
	csrw mtvec, t3
	sub a0, t1, t0
	ret
.endm
	.option push
	.option norvc
	MODE_PROBE minstret, minstret
	MODE_PROBE mcycle, mcycle
	MODE_PROBE hpm3, 0xb03
	.option pop
