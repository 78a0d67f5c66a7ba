# Fuzz seed for fuzz_sysjit (raw code at 0x80001000, run in M or S with
# the registers fuzz_sysjit.c sets: odd ones point into its data area):
# hot loops of loads, stores, AMOs, LR/SC, FP, multiply/divide and
# bit-manipulation, UART writes inside a loop, a store over the loop's
# own code with fence.i, then a WFI and the loops again. Mutations of it
# keep most of the run in translated blocks.
	.option norvc
_start:
	li s2, 200
1:	ld t0, 0(x1)
	add t0, t0, s2
	sd t0, 8(x1)
	lw t1, 4(x3)
	sh t1, 2(x5)
	lbu t2, 1(x7)
	sb t2, 3(x9)
	amoadd.d t3, s2, (x11)
	amoswap.w t4, t1, (x13)
	lr.d t5, (x15)
	addi t5, t5, 1
	sc.d t6, t5, (x15)
	fcvt.d.l ft0, s2
	fadd.d ft1, ft1, ft0
	fmul.d ft2, ft1, ft0
	fsd ft2, 16(x17)
	mul a2, t0, s2
	divu a4, t0, s2
	sh2add a6, s2, x19
	cpop s4, t0
	addi s2, s2, -1
	bnez s2, 1b
	# UART out in a loop
	li s3, 0x10000000
	li s2, 16
2:	addi t0, s2, 'a'
	sb t0, 0(s3)
	lb t1, 5(s3)
	addi s2, s2, -1
	bnez s2, 2b
	# rewrite the addi below to add 2, fence.i, run the loop again
	li s2, 100
	la t0, 3f
	li t1, 0x00290913         # addi s2, s2, 2 (x18)
	li s5, 0
4:	addi s5, s5, 1
3:	addi s2, s2, -1
	blt s5, s2, 4b
	sw t1, 0(t0)
	fence.i
	wfi
	j _start
