# A user-mode program whose event counts are known exactly:
#   _start: 3 instructions (lla = auipc+addi, li)
#   loop:   6 instructions x 1000 (ld, sd, mul, addi, addi, bnez: the
#           branch is taken 999 times)
#   exit:   li a0, li a7, ecall (the ecall traps to the kernel and does
#           not retire)
# instructions = 3 + 6000 + 2 = 6005, loads = stores = muls = 1000,
# branches = 1000, taken = 999.
	.globl _start
_start:
	lla a0, data
	li a1, 1000
1:	ld t0, 0(a0)
	sd t0, 8(a0)
	mul t1, t0, t0
	addi t2, t2, 1
	addi a1, a1, -1
	bnez a1, 1b
	li a0, 0
	li a7, 93
	ecall
	.data
data:	.dword 7, 0
