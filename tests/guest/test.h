/* Scaffolding for the self-checking guest tests (tests/guest/*.S).
 *
 * A test is straight-line code between TEST_BEGIN and TEST_END. Every
 * CHECK gets the next number; the program exits 0 when all pass and with
 * the number of the first failing check otherwise. CHECK also defines the
 * symbol check_<N> at the check, so suite.sh can name the source line of a
 * failure through the debug line table (addr2line).
 *
 * Reserved registers: s11 (current check number), t6 (expected value).
 * Build: riscv64-linux-gnu-gcc -g -static -nostdlib -Wl,--no-relax; gp is
 * not set up, so the linker must not relax to gp-relative addressing. */

	.set tnum, 0

.macro _tlabel n
check_\n\():
.endm

/* Next check number into s11 (and the check_<N> symbol). */
.macro TNEXT
	.set tnum, tnum + 1
	.altmacro
	_tlabel %tnum
	.noaltmacro
	li s11, tnum
.endm

/* Check: register r == 64-bit constant v. */
.macro CHECK r, v
	TNEXT
	li t6, \v
	beq \r, t6, 1001f
	j fail
1001:
.endm

/* Check: registers r == s. */
.macro CHECKR r, s
	TNEXT
	beq \r, \s, 1001f
	j fail
1001:
.endm

/* Check that the condition "b<cond> r, s" holds (e.g. CHECKB ltu, t0, t1). */
.macro CHECKB cond, r, s
	TNEXT
	b\cond \r, \s, 1001f
	j fail
1001:
.endm

/* Register-register op: rd = op(a, b), also with rd aliasing rs1. */
.macro TRR op, a, b, e
	li t0, \a
	li t1, \b
	\op t2, t0, t1
	CHECK t2, \e
.endm

/* Register-immediate op. */
.macro TRI op, a, imm, e
	li t0, \a
	\op t2, t0, \imm
	CHECK t2, \e
.endm

/* Unary op. */
.macro TR op, a, e
	li t0, \a
	\op t2, t0
	CHECK t2, \e
.endm

/* rd == rs1 == rs2: the operands must be read before rd is written. */
.macro TRR_SAME op, a, e
	li t0, \a
	\op t0, t0, t0
	CHECK t0, \e
.endm

.macro TEST_BEGIN
	.text
	.globl _start
_start:
.endm

.macro TEST_END
	li a0, 0
	li a7, 93		/* exit */
	ecall
fail:
	mv a0, s11
	li a7, 93
	ecall
	/* statuses from 128 up mean "killed by a signal": keep clear of them */
	.if tnum > 127
	.error "more than 127 checks: split the test"
	.endif
.endm

/* Exit with status \code (for the programs that must die before this). */
.macro EXIT code
	li a0, \code
	li a7, 93
	ecall
.endm
