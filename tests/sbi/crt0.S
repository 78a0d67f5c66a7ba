/* S-mode payload entry (SBI boot protocol: a0 = hartid, a1 = device tree,
 * satp = 0, interrupts off). Sets the stack, clears .bss, installs stvec
 * and calls main(); the trap entry saves the caller-saved registers and
 * calls rt_s_trap(scause, sepc). */
	.option norelax
	.section .text.init, "ax"
	.globl _start
_start:
	la sp, __stack_top
	mv s0, a0
	mv s1, a1
	la t0, rt_trap_entry
	csrw stvec, t0
	la t0, __bss_start
	la t1, __bss_end
1:	bgeu t0, t1, 2f
	sd zero, 0(t0)
	addi t0, t0, 8
	j 1b
2:	la t0, rt_hartid
	sd s0, 0(t0)
	la t0, rt_fdt
	sd s1, 0(t0)
	call main
	call rt_exit
3:	j 3b

	.text
	.balign 4
	.globl rt_trap_entry
rt_trap_entry:
	addi sp, sp, -128
	sd ra, 0(sp)
	sd t0, 8(sp)
	sd t1, 16(sp)
	sd t2, 24(sp)
	sd a0, 32(sp)
	sd a1, 40(sp)
	sd a2, 48(sp)
	sd a3, 56(sp)
	sd a4, 64(sp)
	sd a5, 72(sp)
	sd a6, 80(sp)
	sd a7, 88(sp)
	sd t3, 96(sp)
	sd t4, 104(sp)
	sd t5, 112(sp)
	sd t6, 120(sp)
	csrr a0, scause
	csrr a1, sepc
	call rt_s_trap
	ld ra, 0(sp)
	ld t0, 8(sp)
	ld t1, 16(sp)
	ld t2, 24(sp)
	ld a0, 32(sp)
	ld a1, 40(sp)
	ld a2, 48(sp)
	ld a3, 56(sp)
	ld a4, 64(sp)
	ld a5, 72(sp)
	ld a6, 80(sp)
	ld a7, 88(sp)
	ld t3, 96(sp)
	ld t4, 104(sp)
	ld t5, 112(sp)
	ld t6, 120(sp)
	addi sp, sp, 128
	sret

/* rt_regs_preserved(): 0 if an SBI call kept a2..a7 and t0..t6, s2..s3
 * (the SBI may change only a0 and a1, SBI spec "Binary Encoding"), else
 * a mask of the changed ones: bit 14 = a2, 13 = a3, ... 0 = s3 (order
 * a2-a7, t0-t6, s2, s3). Calls get_spec_version. */
	.globl rt_regs_preserved
rt_regs_preserved:
	addi sp, sp, -32
	sd s2, 0(sp)
	sd s3, 8(sp)
	li a2, 0x1111
	li a3, 0x2222
	li a4, 0x3333
	li a5, 0x4444
	li t0, 0x5555
	li t1, 0x6666
	li t2, 0x7777
	li t3, 0x8888
	li t4, 0x9999
	li t5, 0xaaaa
	li t6, 0xbbbb
	li s2, 0xcccc
	li s3, 0xdddd
	li a7, 0x10
	li a6, 0
	ecall
	li a0, 0
	slli a0, a0, 1
	li a1, 0x1111
	beq a2, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x2222
	beq a3, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x3333
	beq a4, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x4444
	beq a5, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	beqz a6, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x10
	beq a7, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x5555
	beq t0, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x6666
	beq t1, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x7777
	beq t2, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x8888
	beq t3, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0x9999
	beq t4, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0xaaaa
	beq t5, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0xbbbb
	beq t6, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0xcccc
	beq s2, a1, 1f
	ori a0, a0, 1
1:	slli a0, a0, 1
	li a1, 0xdddd
	beq s3, a1, 1f
	ori a0, a0, 1
1:	ld s2, 0(sp)
	ld s3, 8(sp)
	addi sp, sp, 32
	ret
