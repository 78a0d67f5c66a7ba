/* Shared by the bare-metal Sv39 tests (tests/bare-mmu/*.S): PTE bits and
 * the set-up and exit steps each of them takes. */
#define FINISHER 0x100000              /* sifive_test */
#define PTE_V 1
#define PTE_R 2
#define PTE_W 4
#define PTE_X 8
#define PTE_U 16
#define PTE_G 32
#define PTE_A 64
#define PTE_D 128
/* the root entry 2 (VA 0x80000000 >> 30): a gigapage onto RAM, RWX, A+D */
#define GIGA_RAM ((0x80000000 >> 12) << 10 | PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)

/* PMP: S and U may access everything (with no matching entry they could
 * access nothing: Privileged ISA, PMP) */
.macro PMP_OPEN
	li t0, -1
	csrw pmpaddr0, t0
	li t0, 0x1f                    # NAPOT | X | W | R
	csrw pmpcfg0, t0
.endm

/* entry off of table tbl points to the next-level table next (uses t0, t1) */
.macro PTE_TABLE tbl, off, next
	la t0, \tbl
	la t1, \next
	srli t1, t1, 12
	slli t1, t1, 10
	ori t1, t1, PTE_V
	sd t1, \off(t0)
.endm

/* satp = Sv39 with root table root, then on in S-mode at label */
.macro ENTER_S root, label
	la t0, \root
	srli t0, t0, 12
	li t1, 8 << 60
	or t0, t0, t1
	csrw satp, t0
	sfence.vma
	la t0, \label
	csrw mepc, t0
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11                 # MPP = S
	csrs mstatus, t0
	mret
.endm

/* exit through the finisher: status 0 when a0 = 0, else a0 */
.macro FINISH
	slli a0, a0, 16
	li t5, 0x3333
	or t5, t5, a0
	li t6, 0x5555
	bnez a0, 1f
	mv t5, t6
1:	li t6, FINISHER
	sw t5, 0(t6)
2:	j 2b
.endm
