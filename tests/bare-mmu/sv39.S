# Sv39 translation from S-mode (bare metal; runs on rvpmu and on
# qemu-system-riscv64 -bios none). M-mode builds the page tables, then
# each check runs in S-mode; traps come back to M, which records mcause
# and mtval and skips the faulting instruction. Exit code = first failing
# check (sifive_test finisher).
#
# Address space (Sv39, satp.MODE = 8):
#   0x80000000 1 GiB gigapage -> 0x80000000, RWX, A+D set (code, stack)
#   0x40000000 4 KiB -> data page, R+W, U=0, A=D=0 (hardware sets them)
#   0x40001000 4 KiB -> data page, R only, A set
#   0x40002000 4 KiB -> data page, R+W, U=1 (user page)
#   0x40003000 4 KiB -> data page, X only (execute-only)
#   0x40004000 invalid (V=0)
#include "mmu.h"
#define CAUSE_LOAD_PF 13
#define CAUSE_STORE_PF 15

.macro CHECK n, reg, val
	li a0, \n
	li t6, \val
	bne \reg, t6, fail
.endm

	.section .text.init
	.globl _start
_start:
	la sp, stack_top
	la t0, mtrap
	csrw mtvec, t0
	PMP_OPEN
	# root table: entry 2 (VA 0x80000000 >> 30) = gigapage leaf
	la t0, root
	li t1, GIGA_RAM
	sd t1, 16(t0)
	PTE_TABLE root, 8, l1          # VA 0x40000000 -> level-1 table
	PTE_TABLE l1, 0, l0            # -> level-0 table
	# l0 entries
	la t0, l0
	la t1, page0
	srli t1, t1, 12
	slli t1, t1, 10
	ori t2, t1, PTE_V | PTE_R | PTE_W
	sd t2, 0(t0)                   # 0x40000000 RW, A=D=0
	li t3, 1 << 10
	add t1, t1, t3
	ori t2, t1, PTE_V | PTE_R | PTE_A
	sd t2, 8(t0)                   # 0x40001000 R
	add t1, t1, t3
	ori t2, t1, PTE_V | PTE_R | PTE_W | PTE_U | PTE_A | PTE_D
	sd t2, 16(t0)                  # 0x40002000 RW user
	add t1, t1, t3
	ori t2, t1, PTE_V | PTE_X | PTE_A
	sd t2, 24(t0)                  # 0x40003000 X only
	sd zero, 32(t0)                # 0x40004000 invalid
	# a marker in page0 read back through the mapping
	la t0, page0
	li t1, 0x1234
	sd t1, 0(t0)
	ENTER_S root, s_main

s_main:
	# 1: a load through the 4 KiB mapping sees the marker
	li s0, 0x40000000
	ld t0, 0(s0)
	CHECK 1, t0, 0x1234
	# 2: the load set A (not D) in that PTE: read the PTE physically
	#    from M via ecall (below), compare
	li a7, 1
	ecall                          # returns the l0[0] PTE in a1
	andi t0, a1, PTE_A | PTE_D
	CHECK 2, t0, PTE_A
	# 3: a store sets D
	sd zero, 8(s0)
	li a7, 1
	ecall
	andi t0, a1, PTE_A | PTE_D
	CHECK 3, t0, PTE_A | PTE_D
	# 4,5: a store to the read-only page faults with cause 15, stval = VA
	li s1, 0x40001008
	li s9, 0
	sd zero, 0(s1)
	CHECK 4, s9, CAUSE_STORE_PF
	CHECK 5, s10, 0x40001008
	# 6,7: a load from the invalid page faults with cause 13
	li s1, 0x40004010
	li s9, 0
	ld t0, 0(s1)
	CHECK 6, s9, CAUSE_LOAD_PF
	CHECK 7, s10, 0x40004010
	# 8: S-mode may not load from a U page while SUM = 0
	li s1, 0x40002000
	li s9, 0
	ld t0, 0(s1)
	CHECK 8, s9, CAUSE_LOAD_PF
	# 9: with SUM = 1 it may
	li t0, 1 << 18
	csrs sstatus, t0
	li s9, 0
	ld t0, 0(s1)
	CHECK 9, s9, 0
	csrc sstatus, t0
	# 10: an execute-only page cannot be loaded from (MXR = 0)
	li s1, 0x40003000
	li s9, 0
	ld t0, 0(s1)
	CHECK 10, s9, CAUSE_LOAD_PF
	# 11: with MXR = 1 it can
	li t0, 1 << 19
	csrs sstatus, t0
	li s9, 0
	ld t0, 0(s1)
	CHECK 11, s9, 0
	csrc sstatus, t0
	# 12: a non-canonical address (bit 38 clear, bit 39 set) faults
	li s1, 0x8000000000
	li s9, 0
	ld t0, 0(s1)
	CHECK 12, s9, CAUSE_LOAD_PF
	li a0, 0
	li a7, 2
	ecall                          # done: M-mode reports the result

fail:
	li a7, 2
	ecall

	.align 2
mtrap:
	csrr t5, mcause
	li t6, 9                       # ecall from S: a service call
	beq t5, t6, service
	mv s9, t5                      # a fault: record it and skip the insn
	csrr s10, mtval
	csrr t5, mepc
	addi t5, t5, 4
	csrw mepc, t5
	mret
service:
	csrr t5, mepc
	addi t5, t5, 4
	csrw mepc, t5
	li t6, 1
	bne a7, t6, finish
	la t5, l0
	ld a1, 0(t5)
	mret
finish:
	FINISH

	.data
	.align 12
root:	.space 4096
l1:	.space 4096
l0:	.space 4096
page0:	.space 4096
page1:	.space 4096
page2:	.space 4096
page3:	.space 4096
	.bss
	.align 4
	.space 4096
stack_top:
