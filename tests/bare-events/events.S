# rvpmu's instruction-class events, counted exactly (bare metal, M-mode).
# Selectors are the "virt" decoder's canonical event numbers
# (include/rvpmu/pmu.h: 3 loads, 4 stores, 5 branches, 6 taken branches,
# 11 integer multiplies). Exit code = number of the first failing check.
#define FINISHER 0x100000
.section .text.init
.globl _start
_start:
	la sp, stack_top
	la t0, trap
	csrw mtvec, t0
	li t0, 3
	csrw mhpmevent3, t0
	li t0, 4
	csrw mhpmevent4, t0
	li t0, 5
	csrw mhpmevent5, t0
	li t0, 6
	csrw mhpmevent6, t0
	li t0, 11
	csrw mhpmevent7, t0
	la a0, data
	li a1, 10
	csrw mhpmcounter3, zero
	csrw mhpmcounter4, zero
	csrw mhpmcounter5, zero
	csrw mhpmcounter6, zero
	csrw mhpmcounter7, zero
1:	ld t1, 0(a0)          # 10 iterations: 2 loads, 1 store, 1 mul,
	ld t2, 8(a0)          # 1 branch (taken 9 times)
	mul t3, t1, t2
	sd t3, 16(a0)
	addi a1, a1, -1
	bnez a1, 1b
	csrr s3, mhpmcounter3
	csrr s4, mhpmcounter4
	csrr s5, mhpmcounter5
	csrr s6, mhpmcounter6
	csrr s7, mhpmcounter7
	li a0, 1
	li t0, 20
	bne s3, t0, fail
	li a0, 2
	li t0, 10
	bne s4, t0, fail
	li a0, 3
	li t0, 10
	bne s5, t0, fail
	li a0, 4
	li t0, 9
	bne s6, t0, fail
	li a0, 5
	li t0, 10
	bne s7, t0, fail

	# Sscofpmf: loads counter preset to -5 overflows on the 5th load;
	# LCOFI (13) is taken in M with mcause = interrupt | 13 and OF set.
	li t0, (1 << 13)
	csrw mie, t0
	li t0, -5
	csrw mhpmcounter3, t0
	li s8, 0              # set by the trap handler
	csrsi mstatus, 8      # MIE
	la a0, data
ovf_base:
	.rept 8
	ld t1, 0(a0)
	.endr
	nop
	nop
	nop
	nop
	csrci mstatus, 8
	li a0, 6
	li t0, 1
	bne s8, t0, fail      # exactly one interrupt
	li a0, 7
	li t0, 0x800000000000000d
	bne s9, t0, fail      # mcause
	li a0, 8
	csrr t0, mhpmevent3
	bgez t0, fail         # OF (bit 63) set
	li a0, 9
	csrr t0, mhpmcounter3
	li t1, 3              # 8 loads from -5: wrapped, then 3
	bne t0, t1, fail
	li a0, 10             # the interrupt comes after the 5th load: the
	la t0, ovf_base + 20  # sampled pc lies after it, within the skid
	bltu s10, t0, fail
	addi t0, t0, 16
	bgtu s10, t0, fail
pass:
	li t0, FINISHER
	li t1, 0x5555
	sw t1, 0(t0)
1:	j 1b
fail:                         # finisher: (code << 16) | 0x3333
	slli a0, a0, 16
	li t1, 0x3333
	or t1, t1, a0
	li t0, FINISHER
	sw t1, 0(t0)
1:	j 1b

	.align 2
trap:
	csrr s9, mcause
	csrr s10, mepc
	addi s8, s8, 1
	li t0, (1 << 13)
	csrc mip, t0          # software clears LCOFIP
	mret

	.data
	.align 3
data:	.dword 3, 5, 0
	.bss
	.align 4
	.space 1024
stack_top:
