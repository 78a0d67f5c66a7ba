# Fuzz seed (S-mode under the built-in SBI, at 0x80200000): one call to
# each SBI extension the firmware has, with plausible and junk arguments,
# counter reads, a timer that wakes WFI, then SRST shutdown. Mutations of
# it reach the firmware's argument checks.
	.globl _start
_start:
	la t0, trap
	csrw stvec, t0
	li s0, 0
	# Base: spec version, probe the PMU, machine ids
	li a7, 0x10
	li a6, 0
	ecall
	li a6, 3
	li a0, 0x504d55
	ecall
	li a6, 4
	ecall
	# PMU: number of counters, info of counter 3, match and start cycles
	li a7, 0x504d55
	li a6, 0
	ecall
	li a6, 1
	li a0, 3
	ecall
	li a6, 2
	li a0, 0
	li a1, 0xff
	li a2, 2
	li a3, 1
	li a4, 0
	ecall
	li a6, 3
	li a0, 0
	li a1, 0xff
	li a2, 0
	ecall
	li a6, 5
	li a0, 0
	ecall
	rdcycle t0
	rdinstret t0
	rdtime t0
	# TIME: a timer soon, then WFI with the timer enabled
	rdtime a0
	addi a0, a0, 50
	li a7, 0x54494d45
	li a6, 0
	ecall
	li t0, 1 << 5
	csrs sie, t0
	wfi
	# IPI to self, RFENCE, HSM status, DBCN write of two bytes
	li a7, 0x735049
	li a6, 0
	li a0, 1
	li a1, 0
	ecall
	li a7, 0x52464e43
	li a6, 0
	li a0, 1
	li a1, 0
	ecall
	li a7, 0x48534d
	li a6, 2
	li a0, 0
	ecall
	li a7, 0x4442434e
	li a6, 0
	li a0, 2
	la a1, msg
	li a2, 0
	ecall
	# SRST: shutdown
	li a7, 0x53525354
	li a6, 0
	li a0, 0
	li a1, 0
	ecall
1:	j 1b
trap:
	csrr t0, scause
	bltz t0, 2f
	csrr t0, sepc
	addi t0, t0, 4
	csrw sepc, t0
	sret
2:	li a0, -1
	li a7, 0x54494d45
	li a6, 0
	ecall
	sret
msg:	.ascii "ok"
