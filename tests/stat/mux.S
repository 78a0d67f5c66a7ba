# A steady loop for the multiplexing tests, long enough for many ticks,
# with a different count for each event class it is measured by:
#   _start: 4 instructions (lla = auipc+addi, li = lui+addiw)
#   loop:   11 instructions x 100000: ld, sd, 4 x mul, bltz (never taken),
#           j (a JAL), addi, addi, bnez (taken 99999 times)
#   exit:   li a0, li a7 (the ecall traps and does not retire)
# instructions = 4 + 1100000 + 2 = 1100006; muls = 400000; conditional
# branches = 200000; JALs = 100000; branches (conditional + JAL + JALR) =
# 300000; loads = stores = 100000.
	.globl _start
_start:
	lla a0, data
	li a1, 100000
1:	ld t0, 0(a0)
	sd t0, 8(a0)
	mul t1, t0, t0
	mul t3, t0, t0
	mul t4, t0, t0
	mul t5, t0, t0
	bltz a1, 3f
	j 2f
2:	addi t2, t2, 1
	addi a1, a1, -1
	bnez a1, 1b
3:	li a0, 0
	li a7, 93
	ecall
	.data
	.balign 8
data:	.dword 7, 0
