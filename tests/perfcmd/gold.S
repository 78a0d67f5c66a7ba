/* A program with a known profile and no libc, for the golden outputs of
 * report, script, annotate and diff (tests/perfcmd/golden/): _start calls
 * outer (N times: argument N in a0, default 3000), which calls inner;
 * each keeps a frame-pointer record, so -g chains are
 * _start <- outer <- inner. inner's loop is the hot spot. */
	.text
	.globl	_start
	.type	_start, @function
_start:
	li	s1, 3000
	ld	t0, 0(sp)		/* argc */
	li	t1, 2
	blt	t0, t1, 1f
	ld	a0, 16(sp)		/* argv[1]: decimal digits */
	li	s1, 0
2:	lbu	t2, 0(a0)
	beqz	t2, 1f
	addi	t2, t2, -48
	li	t3, 10
	mul	s1, s1, t3
	add	s1, s1, t2
	addi	a0, a0, 1
	j	2b
1:	li	s0, 0			/* no caller frame */
3:	mv	a0, s1
	call	outer
	addi	s1, s1, -1
	bnez	s1, 3b
	li	a0, 0
	li	a7, 93			/* exit */
	ecall
	.size	_start, . - _start

	.globl	outer
	.type	outer, @function
outer:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	li	a0, 20
	call	inner
	li	t0, 8
4:	addi	t0, t0, -1
	bnez	t0, 4b
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size	outer, . - outer

	.globl	inner
	.type	inner, @function
inner:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
5:	addi	a0, a0, -1
	bnez	a0, 5b
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
	.size	inner, . - inner
