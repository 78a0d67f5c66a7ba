/* Zba (bitmanip spec, "Zba: Address generation"): add.uw, shNadd,
 * shNadd.uw, slli.uw; the .uw forms zero-extend rs1[31:0] first.
 * suite: march rv64gc_zba_zbb_zbs */
#include "test.h"
	TEST_BEGIN

	TRR add.uw, 0xffffffff80000000, 1, 0x80000001
	TRR add.uw, 0xffffffffffffffff, 0, 0xffffffff
	TRR add.uw, 0x00000000ffffffff, 0xffffffff00000000, -1
	TR zext.w, 0xabcdef0187654321, 0x87654321
	TRR sh1add, 3, 10, 16
	TRR sh2add, 3, 10, 22
	TRR sh3add, 3, 10, 34
	TRR sh1add, 0x8000000000000001, 0, 2
	TRR sh2add, -1, 0, -4
	TRR sh3add, 0x2000000000000000, 1, 1
	TRR sh1add.uw, 0xffffffff80000001, 0, 0x100000002
	TRR sh2add.uw, 0xffffffffffffffff, 1, 0x3fffffffd
	TRR sh3add.uw, 0x100000001, 8, 16
	TRR sh3add.uw, 0x80000000, -1, 0x3ffffffff
	TRI slli.uw, 0xffffffff80000001, 4, 0x800000010
	TRI slli.uw, 1, 63, 0x8000000000000000
	TRI slli.uw, 0xffffffff, 32, 0xffffffff00000000
	TRI slli.uw, 0x1234567887654321, 0, 0x87654321
	TRI slli.uw, 0xffffffff, 33, 0xfffffffe00000000

	TEST_END
