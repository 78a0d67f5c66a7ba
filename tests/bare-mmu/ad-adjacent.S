# Page-walk A/D updates into a page table that shares its 4 KiB page with
# the running code, or lies in the page right after it (bare metal; runs
# on rvpmu and on qemu-system-riscv64 -bios none). Each access completes
# exactly once and the walk sets A (and D for a store), as the Privileged
# ISA says for hardware A/D updating. The same checks run from S-mode and
# from M-mode with mstatus.MPRV = 1 and MPP = S; loads and stores of both
# encodings, an AMO, LR/SC, FP loads and stores, and a fetch. Last, a
# PTE that is also an instruction: the walk's D update changes it, and
# after FENCE.I the new instruction runs. Exit code = first failing check
# (sifive_test finisher).
# qemu-skip-from: 101 qemu-system-riscv64 runs its stale translation of an instruction its page walker's A/D update changed, even after FENCE.I
#
# Physical layout (linked at 0x80000000):
#   page 0      start-up, M-mode trap handler
#   page_same   l0 table "same": entries in its first half, code after
#   code_next   code whose l0 table is the next page
#   tbl_next    l0 table "next"
# Address space (Sv39): 0x80000000 1 GiB gigapage -> itself, RWX, A+D
# set; 0x40000000 + k * 4 KiB -> tbl_same[k], 0x40200000 + k * 4 KiB ->
# tbl_next[k]: entries 0-7 (for S) and 8-15 (for M) are data pages, RW,
# A = D = 0; tbl_same[16] maps page_same itself, RX, A = 0.
#include "mmu.h"
#define MARK 0x5eed
#define VA_SAME 0x40000000
#define VA_NEXT 0x40200000
/* a leaf PTE for the page at 0x80020000, RW, G, A = 1, D = 0, whose low
 * word is the instruction jalr x0, 0x200(ra); with D = 1 it becomes
 * jalr ra, 0x200(ra) (D is bit 0 of rd) */
#define JALR_PTE ((0x80020000 >> 12) << 10 | PTE_V | PTE_R | PTE_W | PTE_G | PTE_A)

# check number s11 + n: reg must equal val
.macro CHECK n, reg, val
	li a0, \n
	add a0, a0, s11
	li t6, \val
	beq \reg, t6, 9f
	j fail
9:
.endm

# the A and D bits of entry k of the eight at s5 (physical) must be want
.macro PTE_IS n, k, want
	ld t0, 8 * \k(s5)
	andi t0, t0, PTE_A | PTE_D
	CHECK \n, t0, \want
.endm

# s1 = the virtual address that entry k of the eight maps
.macro VA k
	li s1, \k * 4096
	add s1, s1, s0
.endm

# The checks through eight fresh PTEs: s0 = the virtual address entry 0
# maps, s5 = that entry's physical address, s11 = base of check numbers.
# Each entry maps the same data page (MARK at offset 0, zeros after).
.macro AD_CHECKS
	li s9, 0
	# 1-2: a load through a PTE with A = 0; rd = rs1, so running it
	# twice would load from address MARK
	VA 0
	.option push
	.option norvc
	ld s1, 0(s1)
	.option pop
	CHECK 1, s1, MARK
	PTE_IS 2, 0, PTE_A
	# 3-4: the same, compressed
	VA 1
	c.ld s1, 0(s1)
	CHECK 3, s1, MARK
	PTE_IS 4, 1, PTE_A
	# 5-6: a store through a PTE with A = D = 0
	VA 2
	li a2, 0x600d
	.option push
	.option norvc
	sd a2, 8(s1)
	.option pop
	PTE_IS 5, 2, PTE_A | PTE_D
	ld t0, 8(s1)
	CHECK 6, t0, 0x600d
	# 7-8: the same, compressed
	VA 3
	c.sd a2, 16(s1)
	PTE_IS 7, 3, PTE_A | PTE_D
	ld t0, 16(s1)
	CHECK 8, t0, 0x600d
	# 9-11: an AMO adds once
	VA 4
	addi s1, s1, 24
	li a2, 7
	amoadd.d a3, a2, (s1)
	CHECK 9, a3, 0
	PTE_IS 10, 4, PTE_A | PTE_D
	ld t0, 0(s1)
	CHECK 11, t0, 7
	# 12-15: LR sets A, SC then sets D and succeeds
	VA 5
	addi s1, s1, 32
	lr.d a3, (s1)
	PTE_IS 12, 5, PTE_A
	li a2, 0x5c
	sc.d a4, a2, (s1)
	CHECK 13, a4, 0
	PTE_IS 14, 5, PTE_A | PTE_D
	ld t0, 0(s1)
	CHECK 15, t0, 0x5c
	# 16-17: an FP load through a PTE with A = 0
	VA 6
	fld fa0, 0(s1)
	fmv.x.d t0, fa0
	CHECK 16, t0, MARK
	PTE_IS 17, 6, PTE_A
	# 18-19: an FP store through a PTE with D = 0
	VA 7
	fsd fa0, 40(s1)
	PTE_IS 18, 7, PTE_A | PTE_D
	ld t0, 40(s1)
	CHECK 19, t0, MARK
	# 20: nothing trapped
	CHECK 20, s9, 0
	ret
.endm

# tbl[k] for k in 0-7 -> page lo, 8-15 -> page hi: RW, A = D = 0
.macro FILL tbl, lo, hi
	la t0, \tbl
	la t1, \lo
	la t2, \hi
	li t3, 0
1:	srli t4, t1, 12
	slli t4, t4, 10
	ori t4, t4, PTE_V | PTE_R | PTE_W
	sd t4, 0(t0)
	addi t0, t0, 8
	addi t3, t3, 1
	li t4, 8
	bne t3, t4, 2f
	mv t1, t2
2:	li t4, 16
	bne t3, t4, 1b
	li t4, MARK
	sd t4, 0(t1)                   # t1 = hi here
	la t1, \lo
	sd t4, 0(t1)
.endm

	.section .text.init
	.globl _start
_start:
	la t0, mtrap
	csrw mtvec, t0
	PMP_OPEN
	li t0, 1 << 13                 # mstatus.FS = Initial: F and D usable
	csrs mstatus, t0
	# root[2]: the gigapage; root[1] -> l1; l1[0] -> tbl_same, l1[1] -> tbl_next
	la t0, root
	li t1, GIGA_RAM
	sd t1, 16(t0)
	PTE_TABLE root, 8, l1
	PTE_TABLE l1, 0, page_same
	PTE_TABLE l1, 8, tbl_next
	FILL page_same, data0, data2
	FILL tbl_next, data1, data3
	la t0, page_same               # tbl_same[16]: page_same itself, RX, A = 0
	srli t1, t0, 12
	slli t1, t1, 10
	ori t1, t1, PTE_V | PTE_R | PTE_X
	sd t1, 16 * 8(t0)
	li t1, JALR_PTE                # tbl_same[17], [18]: code, too
	sd t1, 17 * 8(t0)
	sd t1, 18 * 8(t0)
	ENTER_S root, s_main

s_main:
	li s11, 0                      # 1-20: S, table in the code's page
	li s0, VA_SAME
	la s5, page_same
	call ad_same
	li s11, 20                     # 21-40: S, table in the next page
	li s0, VA_NEXT
	la s5, tbl_next
	call ad_next
	# 41-43: a fetch through tbl_same[16] (A = 0) runs alias_fn there
	li s11, 40
	li t1, 0
	la t0, alias_fn
	la t2, page_same
	sub t0, t0, t2
	li t2, VA_SAME + 16 * 4096
	add t0, t0, t2
	jalr t0
	CHECK 1, t1, 0x77
	la s5, page_same + 16 * 8
	PTE_IS 2, 0, PTE_A
	CHECK 3, s9, 0
	li a7, 3
	ecall                          # on in M-mode at m_main

m_main:
	li t0, 1 << 17 | 1 << 11       # MPRV, MPP = S
	csrs mstatus, t0
	li s11, 60                     # 61-80: M + MPRV, table in the code's page
	li s0, VA_SAME + 8 * 4096
	la s5, page_same + 8 * 8
	call ad_same
	li s11, 80                     # 81-100: M + MPRV, table in the next page
	li s0, VA_NEXT + 8 * 4096
	la s5, tbl_next + 8 * 8
	call ad_next
	li s11, 100                    # 101-104: M + MPRV, the PTE is code
	li s0, VA_SAME + 18 * 4096
	la s5, page_same + 18 * 8
	call smc_same
	li t0, 1 << 17 | 3 << 11       # back to S at s_code
	csrc mstatus, t0
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, s_code
	csrw mepc, t0
	mret
s_code:
	li s11, 104                    # 105-108: S, the PTE is code
	li s0, VA_SAME + 17 * 4096
	la s5, page_same + 17 * 8
	call smc_same
	li a0, 0
fail:
	li a7, 2
	ecall

	.align 2
mtrap:
	csrr t5, mcause
	li t6, 9                       # ecall from S or M: a service call
	beq t5, t6, service
	li t6, 11
	beq t5, t6, service
	mv s9, t5                      # a fault: record it, skip the insn
	csrr t5, mepc
	lhu t6, 0(t5)
	andi t6, t6, 3
	addi t5, t5, 2
	li s10, 3
	bne t6, s10, 1f
	addi t5, t5, 2
1:	csrw mepc, t5
	mret
service:
	li t6, 3
	bne a7, t6, finish
	la t5, m_main                  # a7 = 3: go on in M-mode
	csrw mepc, t5
	li t5, 3 << 11
	csrs mstatus, t5
	mret
finish:
	FINISH

	.align 12
page_same:
	.space 2048                    # l0 entries 0-255 (0-16 used)
ad_same:
	AD_CHECKS
alias_fn:
	li t1, 0x77
	ret

# A PTE that is also code (JALR_PTE): run it, store through it (the walk
# sets its D bit, which is rd's low bit), run it again: the new
# instruction runs. s5 = its physical address, s0 = the address it maps.
smc_same:
	mv s6, ra
	li s9, 0
	la ra, 1f - 0x200
	jr s5                          # jalr x0, 0x200(ra)
1:	li a2, 0x1d
	sd a2, 0(s0)                   # in the PTE's own page
	PTE_IS 1, 0, PTE_A | PTE_D
	ld t0, 0(s0)
	CHECK 2, t0, 0x1d
	fence.i
	la ra, 2f - 0x200
	jr s5                          # jalr ra, 0x200(ra)
2:	sub t0, ra, s5
	CHECK 3, t0, 4
	CHECK 4, s9, 0
	mv ra, s6
	ret
	.org page_same + 4096          # (an error if the code overflows)
code_next:
ad_next:
	AD_CHECKS
	.org code_next + 4096
tbl_next:
	.space 4096

	.data
	.align 12
root:	.space 4096
l1:	.space 4096
data0:	.space 4096
data1:	.space 4096
data2:	.space 4096
data3:	.space 4096
