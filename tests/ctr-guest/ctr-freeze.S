/* Code for ctr-freeze.c: traps that freeze CTR (ebreak, LCOFI) and a
 * plain jump sequence. norvc: instruction sizes are known. */
	.option norvc
	.option norelax

.macro L name
	.globl \name
\name:
.endm

	.bss
	.balign 8
fz_ra: .zero 8
fz_mtvec: .zero 8

	.text
/* trap_seq_<insn>(ctl): M: a jump, the trapping insn (vec_skip returns
 * past it with mret), a jump */
.macro TRAPSEQ insn
	.balign 4
L trap_seq_\insn
	la t0, fz_ra
	sd ra, 0(t0)
	csrr t1, mtvec
	sd t1, 8(t0)
	li t0, 0x1800
	csrs mstatus, t0	/* MPP = M for vec_skip's mret */
	la t0, vec_skip
	csrw mtvec, t0
	csrw 0x34e, a0
L TS_\insn\()_j
	j TS_\insn\()_jt
L TS_\insn\()_jt
L TS_\insn\()_trap
	\insn
L TS_\insn\()_after
	j TS_\insn\()_j2t
L TS_\insn\()_j2t
	csrw 0x34e, zero
	la t0, fz_ra
	ld t1, 8(t0)
	csrw mtvec, t1
	ld ra, 0(t0)
	ret
.endm
	TRAPSEQ ebreak
	TRAPSEQ ecall

	.balign 4
L vec_skip
	csrr t6, mepc
	addi t6, t6, 4
	csrw mepc, t6
L VS_mret
	mret

/* jumps3(ctl): three direct jumps recorded with mctrctl = ctl */
	.balign 4
L jumps3
	csrw 0x34e, a0
L J3_0
	j J3_1
L J3_1
	j J3_2
L J3_2
	j J3_3
L J3_3
	csrw 0x34e, zero
	ret

/* In U (ctr_call): a jump, then ebreak */
	.balign 4
L u_bp
L UB_j
	j UB_jt
L UB_jt
L UB_ebreak
	ebreak
	ecall

/* In U (ctr_call): a0 counts iterations of a taken-branch loop until an
 * interrupt ends it */
	.balign 4
L u_lcofi
	li a1, -1
	li a0, 0
L LC_loop
	addi a0, a0, 1
L LC_br
	bne a0, a1, LC_loop
	ecall
