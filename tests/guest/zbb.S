/* Zbb (bitmanip spec, "Zbb: Basic bit-manipulation"): logic with
 * negation, counts (clz of 0 = XLEN), min/max signed vs unsigned,
 * sign/zero extension, rotates (W forms sign-extend), orc.b, rev8.
 * suite: march rv64gc_zba_zbb_zbs */
#include "test.h"
	TEST_BEGIN

	TRR andn, 0xff, 0x0f, 0xf0
	TRR andn, -1, 0x8000000000000001, 0x7ffffffffffffffe
	TRR orn, 0, 0xf, 0xfffffffffffffff0
	TRR orn, 0x1, -1, 1
	TRR xnor, 0xff, 0x0f, 0xffffffffffffff0f
	TRR xnor, -1, -1, -1

	TR clz, 0, 64
	TR clz, 1, 63
	TR clz, -1, 0
	TR clz, 0x00000000ffffffff, 32
	TR clz, 0x0000100000000000, 19
	TR clzw, 0, 32
	TR clzw, 1, 31
	TR clzw, 0xffffffff00000000, 32
	TR clzw, 0x80000000, 0
	TR clzw, 0x0000000000010000, 15
	TR ctz, 0, 64
	TR ctz, 0x8000000000000000, 63
	TR ctz, 1, 0
	TR ctz, 0x0000000100000000, 32
	TR ctzw, 0, 32
	TR ctzw, 0x100000000, 32
	TR ctzw, 0x80000000, 31
	TR ctzw, 0xffffffff00000100, 8
	TR cpop, 0, 0
	TR cpop, -1, 64
	TR cpop, 0x5555555555555555, 32
	TR cpop, 0x8000000000000001, 2
	TR cpopw, -1, 32
	TR cpopw, 0xffffffff00000001, 1
	TR cpopw, 0, 0

	TRR max, -1, 1, 1
	TRR max, 0x8000000000000000, 0x7fffffffffffffff, 0x7fffffffffffffff
	TRR maxu, -1, 1, -1
	TRR maxu, 3, 5, 5
	TRR min, -1, 1, -1
	TRR min, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000
	TRR minu, -1, 1, 1
	TRR minu, 7, 7, 7

	TR sext.b, 0x80, -128
	TR sext.b, 0x17f, 0x7f
	TR sext.b, 0xffffffffffffff00, 0
	TR sext.h, 0x8000, 0xffffffffffff8000
	TR sext.h, 0x12347fff, 0x7fff
	TR zext.h, 0xffffffffffff8001, 0x8001
	TR zext.h, 0x10000, 0

	TRR rol, 0x8000000000000001, 1, 3
	TRR rol, 0x123456789abcdef0, 64, 0x123456789abcdef0
	TRR rol, 0x123456789abcdef0, 68, 0x23456789abcdef01
	TRR rol, 1, 63, 0x8000000000000000
	TRR ror, 1, 1, 0x8000000000000000
	TRR ror, 0x123456789abcdef0, 0, 0x123456789abcdef0
	TRR ror, 0x123456789abcdef0, 0x84, 0x0123456789abcdef
	TRI rori, 0x1234, 4, 0x4000000000000123
	TRI rori, 1, 63, 2
	TRI rori, 0x8000000000000000, 0, 0x8000000000000000
	TRI rori, 0x00000000ffffffff, 32, 0xffffffff00000000
	TRR rolw, 0x80000001, 1, 3
	TRR rolw, 0x40000000, 1, 0xffffffff80000000
	TRR rolw, 1, 33, 2
	TRR rolw, 0xffffffff00000001, 0, 1
	TRR rorw, 1, 1, 0xffffffff80000000
	TRR rorw, 0x12345678, 36, 0xffffffff81234567
	TRR rorw, 0xabcdef0000000010, 4, 1
	TRI roriw, 1, 1, 0xffffffff80000000
	TRI roriw, 2, 1, 1
	TRI roriw, 0xffffffff00000001, 0, 1
	TRI roriw, 0x0000000080000000, 0, 0xffffffff80000000
	TRI roriw, 0x12345678, 31, 0x2468acf0

	TR orc.b, 0x0001000000ff0010, 0x00ff000000ff00ff
	TR orc.b, 0, 0
	TR orc.b, 0x8000000000000001, 0xff000000000000ff
	TR rev8, 0x0102030405060708, 0x0807060504030201
	TR rev8, 0xff, 0xff00000000000000

	TEST_END
