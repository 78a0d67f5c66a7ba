/* Zbs (bitmanip spec, "Zbs: Single-bit instructions"): the bit index is
 * rs2 (or shamt) modulo XLEN, so indexes >= 64 use their low 6 bits.
 * suite: march rv64gc_zba_zbb_zbs */
#include "test.h"
	TEST_BEGIN

	TRR bset, 0, 0, 1
	TRR bset, 0, 63, 0x8000000000000000
	TRR bset, 0, 64, 1
	TRR bset, 0, 65, 2
	TRR bset, 0, -1, 0x8000000000000000
	TRR bset, 0xf0, 4, 0xf0
	TRR bclr, -1, 63, 0x7fffffffffffffff
	TRR bclr, -1, 64, 0xfffffffffffffffe
	TRR bclr, 0x10, 0x44, 0
	TRR bclr, 0x10, 3, 0x10
	TRR binv, 0, 0, 1
	TRR binv, 1, 64, 0
	TRR binv, 0x8000000000000000, 127, 0
	TRR binv, 0, 32, 0x100000000
	TRR bext, 0x8000000000000000, 63, 1
	TRR bext, 0x8000000000000000, 127, 1
	TRR bext, 0x8000000000000000, 62, 0
	TRR bext, 0x100000000, 96, 1
	TRR bext, -2, 0, 0
	TRI bseti, 0, 63, 0x8000000000000000
	TRI bseti, 0x1, 0, 1
	TRI bseti, 0, 31, 0x80000000
	TRI bclri, -1, 0, -2
	TRI bclri, -1, 63, 0x7fffffffffffffff
	TRI bclri, 0x80000000, 31, 0
	TRI binvi, 0, 31, 0x80000000
	TRI binvi, -1, 63, 0x7fffffffffffffff
	TRI binvi, 5, 0, 4
	TRI bexti, 0x100000000, 32, 1
	TRI bexti, 0x0ffffffff, 32, 0
	TRI bexti, 0x8000000000000000, 63, 1

	TEST_END
