# Fuzz seed for fuzz_sysjit (raw code at 0x80001000, run in M or S with
# the registers fuzz_sysjit.c sets: odd ones point into its data area,
# x1, x9, x17, x25 8-byte aligned; even ones are the temporaries here, so
# nothing traps): hot loops of loads, stores, AMOs, LR/SC, FP,
# multiply/divide and bit-manipulation, UART writes inside a loop, a
# store over a loop's own code with fence.i, then a WFI and all again.
# Mutations of it keep most of the run in translated blocks.
	.option norvc
_start:
	li s2, 200
1:	ld a0, 0(x1)
	add a0, a0, s2
	sd a0, 8(x1)
	lw a2, 2(x3)
	sh a2, 2(x5)
	lbu a4, 1(x7)
	sb a4, 3(x11)
	amoadd.d a6, s2, (x9)
	amoswap.w s4, a2, (x17)
	lr.d s6, (x25)
	addi s6, s6, 1
	sc.d s8, s6, (x25)
	fcvt.d.l ft0, s2
	fadd.d ft1, ft1, ft0
	fmul.d ft2, ft1, ft0
	fsd ft2, 16(x1)
	mul s10, a0, s2
	divu t3, a0, s2
	sh2add t5, s2, x13
	cpop x26, a0
	addi s2, s2, -1
	bnez s2, 1b
	# UART out in a loop
	li x28, 0x10000000
	li s2, 16
2:	addi a0, s2, 'a'
	sb a0, 0(x28)
	lb a2, 5(x28)
	addi s2, s2, -1
	bnez s2, 2b
	# rewrite the addi below to add 2, fence.i, run the loop again
	li s2, 100
	la x30, 3f
	li a2, 0x00290913         # addi s2, s2, 2 (x18)
	li s4, 0
4:	addi s4, s4, 1
3:	addi s2, s2, -1
	blt s4, s2, 4b
	sw a2, 0(x30)
	fence.i
	wfi
	j _start
