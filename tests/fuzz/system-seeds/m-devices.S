# Fuzz seed (M-mode, --bios none, at 0x80000000): touches every device of
# the virt map, the counters and PMP, takes a timer interrupt out of WFI,
# builds an Sv39 table and runs a few S-mode accesses through it, then
# writes the finisher. Mutations of it reach all of those paths.
	.globl _start
_start:
	la t0, trap
	csrw mtvec, t0
	li t0, -1
	csrw pmpaddr0, t0
	li t0, 0x1f
	csrw pmpcfg0, t0
	# UART: IER, LCR with DLAB, a byte out, LSR and RBR in
	li s0, 0x10000000
	li t0, 0x80
	sb t0, 3(s0)
	sb zero, 0(s0)
	sb zero, 3(s0)
	li t0, 3
	sb t0, 1(s0)
	li t0, 'x'
	sb t0, 0(s0)
	lb t1, 5(s0)
	lb t1, 0(s0)
	lb t1, 2(s0)
	# PLIC: priority of the UART, enable for both contexts, threshold, claim
	li s1, 0xc000000
	li t0, 7
	sw t0, 40(s1)
	li t1, 0x2000
	add t1, s1, t1
	li t0, 1 << 10
	sw t0, 0(t1)
	sw t0, 0x80(t1)
	li t1, 0x200000
	add t1, s1, t1
	sw zero, 0(t1)
	lw t2, 4(t1)
	sw t2, 4(t1)
	# CLINT: msip on and off, mtimecmp a little after mtime
	li s2, 0x2000000
	li t0, 1
	sw t0, 0(s2)
	sw zero, 0(s2)
	li t1, 0xbff8
	add t1, s2, t1
	ld t2, 0(t1)
	addi t2, t2, 100
	li t1, 0x4000
	add t1, s2, t1
	sd t2, 0(t1)
	# counters: events, inhibit, a read of each kind
	li t0, 0x3
	csrw mhpmevent3, t0
	csrw mcountinhibit, zero
	csrr t0, mcycle
	csrr t0, minstret
	csrr t0, mhpmcounter3
	csrw mhpmcounter4, t0
	# a timer interrupt wakes WFI
	li t0, 1 << 7
	csrs mie, t0
	csrsi mstatus, 8
	wfi
	csrci mstatus, 8
	# Sv39: a gigapage for RAM, S-mode loads and a store through it
	la t0, root
	li t1, (0x80000000 >> 12) << 10 | 0xcf
	sd t1, 16(t0)
	srli t0, t0, 12
	li t1, 8 << 60
	or t0, t0, t1
	csrw satp, t0
	sfence.vma
	li t0, 1 << 11
	csrs mstatus, t0
	la t0, smode
	csrw mepc, t0
	mret
smode:
	la t0, root
	ld t1, 16(t0)
	sd t1, 24(t0)
	ecall
done:
	li t0, 0x100000
	li t1, 0x5555
	sw t1, 0(t0)
1:	j 1b
trap:
	csrr t0, mcause
	bltz t0, irq
	la t0, done
	csrw mepc, t0
	li t0, 3 << 11
	csrs mstatus, t0
	mret
irq:
	li t1, 0x4000
	add t1, s2, t1
	li t0, -1
	sd t0, 0(t1)
	mret
	.bss
	.balign 4096
root:
	.zero 4096
