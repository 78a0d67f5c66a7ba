/* RV64I control transfer: every branch taken and not taken with signed
 * and unsigned operands, backward branches, jal/jalr link values (pc+4),
 * jalr clearing bit 0 of the target, jalr with rd == rs1, fence/ecall.
 * suite: march rv64g */
#include "test.h"

/* t2 = 1 if "op a, b" branches, else 0 */
.macro TBR op, a, b, taken
	li t0, \a
	li t1, \b
	li t2, 1
	\op t0, t1, 1001f
	li t2, 0
1001:
	CHECK t2, \taken
.endm

	TEST_BEGIN
	.option norvc

	TBR beq, 5, 5, 1
	TBR beq, 5, -5, 0
	TBR beq, 0x100000000, 0, 0
	TBR bne, 5, 5, 0
	TBR bne, 0x8000000000000000, 0, 1
	TBR blt, -1, 0, 1
	TBR blt, 0, -1, 0
	TBR blt, 7, 7, 0
	TBR blt, 0x8000000000000000, 0x7fffffffffffffff, 1
	TBR bge, -1, 0, 0
	TBR bge, 0, -1, 1
	TBR bge, 7, 7, 1
	TBR bge, 0x7fffffffffffffff, 0x8000000000000000, 1
	TBR bltu, -1, 0, 0
	TBR bltu, 0, -1, 1
	TBR bltu, 7, 7, 0
	TBR bltu, 0x7fffffffffffffff, 0x8000000000000000, 1
	TBR bgeu, -1, 0, 1
	TBR bgeu, 0, -1, 0
	TBR bgeu, 7, 7, 1
	TBR bgeu, 0x8000000000000000, 0x7fffffffffffffff, 1

	/* backward branch: a counted loop runs exactly 10 times */
	li t0, 10
	li t1, 0
1:	addi t1, t1, 3
	addi t0, t0, -1
	bnez t0, 1b
	CHECK t1, 30

	/* jal: link = pc+4, target reached, skipped code not run */
	li t2, 0
2:	jal t0, 3f
	li t2, 1
3:	la t1, 2b
	addi t1, t1, 4
	CHECKR t0, t1
	CHECK t2, 0

	/* jal with rd = x0 (j) does not write */
	j 4f
	li t2, 1
4:	CHECK t2, 0

	/* jalr: target = (rs1 + imm) & ~1, link = pc+4 */
	la t1, 6f
5:	jalr t0, 0(t1)
	li t2, 1
6:	la t3, 5b
	addi t3, t3, 4
	CHECKR t0, t3
	CHECK t2, 0

	la t1, 8f
	addi t1, t1, 1		/* odd target: bit 0 is cleared */
7:	jalr t0, 0(t1)
	li t2, 1
8:	CHECK t2, 0

	la t1, 10f
	addi t1, t1, -15	/* imm 16 added, then ...+1 cleared */
9:	jalr t0, 16(t1)
	li t2, 1
10:	CHECK t2, 0

	la t1, 12f
	addi t1, t1, 100
11:	jalr t0, -100(t1)
	li t2, 1
12:	CHECK t2, 0

	/* rd == rs1: the target uses the old value, the link overwrites it */
	la t0, 14f
13:	jalr t0, 0(t0)
	li t2, 1
14:	la t3, 13b
	addi t3, t3, 4
	CHECKR t0, t3
	CHECK t2, 0

	/* call/ret through a subroutine */
	li a0, 20
	call double
	CHECK a0, 40
	li a0, -3
	call double
	CHECK a0, -6

	/* jalr with rd = x0 */
	la t1, 16f
15:	jalr x0, 0(t1)
	li t2, 1
16:	CHECK t2, 0
	CHECK x0, 0

	/* fence, and an ecall that returns (getpid) */
	fence
	fence rw, rw
	fence.tso
	li a7, 172		/* getpid */
	ecall
	li t0, 1
	CHECKB ge, a0, t0

	TEST_END

double:
	add a0, a0, a0
	ret
