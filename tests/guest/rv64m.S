/* RV64M (unpriv ISA ch. "M" Extension): products and high halves at the
 * corners, division semantics incl. the defined results for divide by
 * zero (quotient all ones, remainder = dividend) and signed overflow
 * (INT_MIN / -1 = INT_MIN, remainder 0), and the W forms.
 * suite: march rv64g */
#include "test.h"
	TEST_BEGIN

	TRR mul, 3, 7, 21
	TRR mul, -1, -1, 1
	TRR mul, 0x8000000000000000, -1, 0x8000000000000000
	TRR mul, 0xffffffff, 0xffffffff, 0xfffffffe00000001
	TRR mul, 0x100000000, 0x100000000, 0
	TRR_SAME mul, -3, 9

	/* mulh: signed x signed, high 64 of the 128-bit product */
	TRR mulh, -1, -1, 0
	TRR mulh, -1, 1, -1
	TRR mulh, 0x8000000000000000, 0x8000000000000000, 0x4000000000000000
	TRR mulh, 0x8000000000000000, -1, 0
	TRR mulh, 0x7fffffffffffffff, 0x7fffffffffffffff, 0x3fffffffffffffff
	TRR mulh, 0x8000000000000000, 0x7fffffffffffffff, 0xc000000000000000
	TRR mulh, 0x100000000, 0x100000000, 1

	/* mulhu: unsigned x unsigned */
	TRR mulhu, -1, -1, 0xfffffffffffffffe
	TRR mulhu, 0x8000000000000000, 2, 1
	TRR mulhu, -1, 1, 0
	TRR mulhu, 0x8000000000000000, 0x8000000000000000, 0x4000000000000000

	/* mulhsu: rs1 signed x rs2 unsigned */
	TRR mulhsu, -1, -1, -1
	TRR mulhsu, 1, -1, 0
	TRR mulhsu, 0x8000000000000000, -1, 0x8000000000000000
	TRR mulhsu, 2, 0x8000000000000000, 1
	TRR mulhsu, -2, 0x8000000000000000, -1
	TRR mulhsu, 0x7fffffffffffffff, -1, 0x7ffffffffffffffe

	/* mulw: low 32 of the 32x32 product, sign-extended */
	TRR mulw, 0x7fffffff, 2, 0xfffffffffffffffe
	TRR mulw, 0x100000003, 0x100000005, 15
	TRR mulw, 0x10000, 0x10000, 0
	TRR mulw, -1, -1, 1
	TRR mulw, 0x80000000, 1, 0xffffffff80000000

	/* div/rem: round toward zero, sign of remainder = sign of dividend */
	TRR div, 20, 6, 3
	TRR div, -20, 6, -3
	TRR div, 20, -6, -3
	TRR div, -20, -6, 3
	TRR div, 20, 0, -1
	TRR div, -20, 0, -1
	TRR div, 0x8000000000000000, -1, 0x8000000000000000
	TRR divu, 20, 6, 3
	TRR divu, -1, 1, -1
	TRR divu, -20, 6, 0x2aaaaaaaaaaaaaa7
	TRR divu, 20, 0, 0xffffffffffffffff
	TRR divu, 0x8000000000000000, 2, 0x4000000000000000
	TRR rem, 20, 6, 2
	TRR rem, -20, 6, -2
	TRR rem, 20, -6, 2
	TRR rem, -20, -6, -2
	TRR rem, 20, 0, 20
	TRR rem, -20, 0, -20
	TRR rem, 0x8000000000000000, -1, 0
	TRR remu, 20, 6, 2
	TRR remu, -1, 10, 5
	TRR remu, 20, 0, 20
	TRR remu, -20, 0, -20
	TRR_SAME div, -7, 1
	TRR_SAME rem, -7, 0

	/* W forms: operate on rs[31:0], result sign-extended */
	TRR divw, 0x80000000, -1, 0xffffffff80000000
	TRR divw, 0xffffffff00000014, 6, 3
	TRR divw, 20, 0, -1
	TRR divw, -20, 6, -3
	TRR divw, 0x7fffffff, 0x100000001, 0x7fffffff
	TRR divuw, 0xffffffff, 1, -1
	TRR divuw, 0x1234, 0, -1
	TRR divuw, 0x80000000, 2, 0x40000000
	TRR divuw, 0x100000014, 6, 3
	TRR divuw, -20, 6, 0x2aaaaaa7
	TRR remw, 0x80000000, -1, 0
	TRR remw, 0x87654321, 0, 0xffffffff87654321
	TRR remw, -20, 6, -2
	TRR remw, 20, 0x1fffffffa, 2	/* divisor's low word is -6 */
	TRR remuw, 0x87654321, 0, 0xffffffff87654321
	TRR remuw, 0xffffffff, 10, 5
	TRR remuw, 0x80000005, 0x80000000, 5
	TRR remuw, 0x1ffffffff, 0x100000010, 15

	TEST_END
