/* RV64I integer computational instructions (unpriv ISA ch. "RV32I/RV64I
 * Base Integer Instruction Set"): every op, shift amounts 0/31/63 and
 * masking, W-form sign extension, signed vs unsigned compares, lui/auipc,
 * writes to x0. Expected values are worked out by hand from the spec.
 * suite: march rv64g */
#include "test.h"
	TEST_BEGIN

	/* add / sub wrap modulo 2^64 */
	TRR add, 1, 2, 3
	TRR add, 0x7fffffffffffffff, 1, 0x8000000000000000
	TRR add, -1, -1, -2
	TRR add, 0xffffffffffffffff, 1, 0
	TRR sub, 0, 1, -1
	TRR sub, 0x8000000000000000, 1, 0x7fffffffffffffff
	TRR sub, 5, 7, -2
	TRR_SAME add, 0x4000000000000001, 0x8000000000000002
	TRR_SAME sub, 12345, 0

	/* addw/subw: low 32 bits, sign-extended; upper input bits ignored */
	TRR addw, 0x7fffffff, 1, 0xffffffff80000000
	TRR addw, 0xffffffff, 1, 0
	TRR addw, 0x100000000, 1, 1
	TRR addw, 0x12345678ffffffff, 0, -1
	TRR subw, 0, 1, -1
	TRR subw, 0x80000000, 1, 0x7fffffff
	TRR subw, 0xffffffff00000000, 0, 0
	TRR subw, 0x7fffffff, -1, 0xffffffff80000000

	/* addi / addiw: 12-bit sign-extended immediate */
	TRI addi, 0, -2048, -2048
	TRI addi, 0, 2047, 2047
	TRI addi, 0x7fffffffffffffff, 1, 0x8000000000000000
	TRI addiw, 0x7fffffff, 1, 0xffffffff80000000
	TRI addiw, 0x00000000ffffffff, 0, -1
	TRI addiw, 0x123456789, 0, 0x23456789
	TRI addiw, 0x80000000, -1, 0x7fffffff

	/* sll/srl/sra: shift amount is rs2[5:0] */
	TRR sll, 1, 0, 1
	TRR sll, 1, 31, 0x80000000
	TRR sll, 1, 63, 0x8000000000000000
	TRR sll, 1, 64, 1
	TRR sll, 1, 65, 2
	TRR sll, 0xffffffffffffffff, 0xffffffffffffffc4, 0xfffffffffffffff0
	TRR srl, 0x8000000000000000, 63, 1
	TRR srl, 0x8000000000000000, 31, 0x100000000
	TRR srl, 0x8000000000000000, 0, 0x8000000000000000
	TRR srl, -1, 1, 0x7fffffffffffffff
	TRR srl, -1, 64, -1
	TRR sra, 0x8000000000000000, 63, -1
	TRR sra, 0x8000000000000000, 1, 0xc000000000000000
	TRR sra, 0x8000000000000000, 31, 0xffffffff00000000
	TRR sra, 0x7fffffffffffffff, 63, 0
	TRR sra, -8, 0, -8
	TRR sra, -8, 0x41, -4

	TRI slli, 0x1, 0, 1
	TRI slli, 0x1, 31, 0x80000000
	TRI slli, 0x3, 63, 0x8000000000000000
	TRI srli, 0x8000000000000000, 0, 0x8000000000000000
	TRI srli, 0x8000000000000000, 31, 0x100000000
	TRI srli, 0xffffffffffffffff, 63, 1
	TRI srai, 0x8000000000000000, 0, 0x8000000000000000
	TRI srai, 0x8000000000000000, 31, 0xffffffff00000000
	TRI srai, 0x8000000000000000, 63, -1
	TRI srai, 0x4000000000000000, 62, 1

	/* W shifts: operate on rs1[31:0], amount rs2[4:0], sign-extend result */
	TRR sllw, 1, 31, 0xffffffff80000000
	TRR sllw, 1, 32, 1
	TRR sllw, 0xffffffff, 0, -1
	TRR sllw, 0x1ffffffff, 1, 0xfffffffffffffffe
	TRR srlw, 0x80000000, 31, 1
	TRR srlw, 0xffffffff80000000, 0, 0xffffffff80000000
	TRR srlw, 0x80000000, 1, 0x40000000
	TRR srlw, 0xffffffff00000001, 0, 1
	TRR srlw, 0xffffffff, 33, 0x7fffffff
	TRR sraw, 0x80000000, 31, -1
	TRR sraw, 0x80000000, 1, 0xffffffffc0000000
	TRR sraw, 0x7fffffff, 31, 0
	TRR sraw, 0x00000000ffffffff, 0, -1
	TRR sraw, 0xffffffff7fffffff, 32, 0x7fffffff
	TRI slliw, 0xffffffff, 0, -1
	TRI slliw, 1, 31, 0xffffffff80000000
	TRI slliw, 0x100000003, 1, 6
	TRI srliw, 0x80000000, 0, 0xffffffff80000000
	TRI srliw, 0x80000000, 31, 1
	TRI srliw, 0xfffffffffffffff0, 4, 0x0fffffff
	TRI sraiw, 0x80000000, 0, 0xffffffff80000000
	TRI sraiw, 0x80000000, 31, -1
	TRI sraiw, 0x00000000f0000000, 4, 0xffffffffff000000

	/* set-less-than: signed vs unsigned */
	TRR slt, -1, 1, 1
	TRR slt, 1, -1, 0
	TRR slt, 5, 5, 0
	TRR slt, 0x8000000000000000, 0x7fffffffffffffff, 1
	TRR slt, 0x7fffffffffffffff, 0x8000000000000000, 0
	TRR sltu, -1, 1, 0
	TRR sltu, 1, -1, 1
	TRR sltu, 0, 0, 0
	TRR sltu, 0x7fffffffffffffff, 0x8000000000000000, 1
	TRI slti, -1, 0, 1
	TRI slti, 0, 1, 1
	TRI slti, 0, -2048, 0
	TRI slti, -2049, -2048, 1
	TRI slti, 0x8000000000000000, 2047, 1
	TRI sltiu, 5, -1, 1		/* imm sign-extends to 2^64-1 */
	TRI sltiu, -1, -1, 0
	TRI sltiu, 0, 1, 1		/* seqz */
	TRI sltiu, 5, 1, 0
	TRI sltiu, 0x7ff, 2047, 0

	/* logic, immediates sign-extended */
	TRR xor, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xf0f0f0f0f0f0f0f0
	TRR or, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xfff0fff0fff0fff0
	TRR and, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0x0f000f000f000f00
	TRI xori, 0x00ff00ff00ff00ff, -1, 0xff00ff00ff00ff00
	TRI xori, 0x00ff00ff00ff00ff, 0x70f, 0x00ff00ff00ff07f0
	TRI ori, 0, -2048, 0xfffffffffffff800
	TRI ori, 0x1000000000000000, 0x0f0, 0x10000000000000f0
	TRI andi, 0x123456789abcdef0, -1, 0x123456789abcdef0
	TRI andi, 0x123456789abcdef0, -16, 0x123456789abcdef0
	TRI andi, 0x123456789abcdeff, 0x7f0, 0x00000000000006f0
	TRR_SAME xor, 0x5555, 0
	TRR_SAME or, 0x5555, 0x5555

	/* lui: imm<<12, sign-extended from bit 31 */
	lui t0, 0x80000
	CHECK t0, 0xffffffff80000000
	lui t0, 0x7ffff
	CHECK t0, 0x7ffff000
	lui t0, 0xfffff
	CHECK t0, 0xfffffffffffff000
	lui t0, 0
	CHECK t0, 0

	/* auipc: pc of the auipc itself plus imm<<12 (sign-extended) */
	.option push
	.option norvc
1:	auipc t0, 0
	jal t1, 2f		/* t1 = address of 1b + 8 */
2:	sub t2, t1, t0
	CHECK t2, 8
	la t1, 1b		/* linker-resolved absolute address */
	CHECKR t0, t1
3:	auipc t0, 1
	la t1, 3b
	sub t2, t0, t1
	CHECK t2, 0x1000
4:	auipc t0, 0xfffff
	la t1, 4b
	sub t2, t0, t1
	CHECK t2, -0x1000
5:	auipc t0, 0x80000
	la t1, 5b
	sub t2, t0, t1
	CHECK t2, 0xffffffff80000000
	.option pop

	/* x0 is hardwired to zero */
	li t0, 77
	addi x0, t0, 5
	CHECK x0, 0
	lui x0, 0x12345
	CHECK x0, 0
	add x0, t0, t0
	CHECKR x0, zero
	mv t1, x0
	CHECK t1, 0

	/* nop and the hint space execute without effect */
	li t0, 9
	nop
	slli x0, t0, 3
	CHECK t0, 9

	TEST_END
