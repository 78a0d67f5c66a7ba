/* RV64I loads and stores: sign/zero extension of every width, negative
 * offsets, rd == base, misaligned accesses (Linux user mode makes them
 * work, so the result must be exact), accesses crossing a page, stores
 * touching only their own bytes.
 * suite: march rv64g */
#include "test.h"
	TEST_BEGIN

	la a0, d0		/* bytes 87 96 a5 b4 c3 d2 e1 f0 78 69 5a 4b 3c 2d 1e 0f */
	lb t0, 0(a0)
	CHECK t0, 0xffffffffffffff87
	lbu t0, 0(a0)
	CHECK t0, 0x87
	lb t0, 8(a0)
	CHECK t0, 0x78
	lbu t0, 15(a0)
	CHECK t0, 0x0f
	lh t0, 0(a0)
	CHECK t0, 0xffffffffffff9687
	lhu t0, 0(a0)
	CHECK t0, 0x9687
	lh t0, 8(a0)
	CHECK t0, 0x6978
	lw t0, 0(a0)
	CHECK t0, 0xffffffffb4a59687
	lwu t0, 0(a0)
	CHECK t0, 0xb4a59687
	lw t0, 4(a0)
	CHECK t0, 0xfffffffff0e1d2c3
	lw t0, 8(a0)
	CHECK t0, 0x4b5a6978
	lwu t0, 12(a0)
	CHECK t0, 0x0f1e2d3c
	ld t0, 0(a0)
	CHECK t0, 0xf0e1d2c3b4a59687
	ld t0, 8(a0)
	CHECK t0, 0x0f1e2d3c4b5a6978

	/* negative offsets and rd == base */
	addi a1, a0, 16
	ld t0, -8(a1)
	CHECK t0, 0x0f1e2d3c4b5a6978
	lbu t0, -16(a1)
	CHECK t0, 0x87
	mv t1, a0
	ld t1, 0(t1)
	CHECK t1, 0xf0e1d2c3b4a59687
	addi a2, a0, 2047
	lbu t0, -2047(a2)
	CHECK t0, 0x87

	/* misaligned loads */
	lh t0, 1(a0)
	CHECK t0, 0xffffffffffffa596
	lhu t0, 7(a0)
	CHECK t0, 0x78f0
	lh t0, 5(a0)
	CHECK t0, 0xffffffffffffe1d2
	lw t0, 1(a0)
	CHECK t0, 0xffffffffc3b4a596
	lwu t0, 3(a0)
	CHECK t0, 0xe1d2c3b4
	lw t0, 6(a0)
	CHECK t0, 0x6978f0e1
	ld t0, 1(a0)
	CHECK t0, 0x78f0e1d2c3b4a596
	ld t0, 7(a0)
	CHECK t0, 0x1e2d3c4b5a6978f0
	ld t0, 4(a0)
	CHECK t0, 0x4b5a6978f0e1d2c3

	/* loads into x0 are performed but leave x0 zero */
	lw x0, 0(a0)
	CHECK x0, 0

	/* stores write exactly their bytes: fill with ones, store, read back */
	la a1, buf
	li t0, -1
	sd t0, 0(a1)
	sd t0, 8(a1)
	li t1, 0x1122334455667788
	sb t1, 0(a1)
	ld t2, 0(a1)
	CHECK t2, 0xffffffffffffff88
	sh t1, 2(a1)
	ld t2, 0(a1)
	CHECK t2, 0xffffffff7788ff88
	sw t1, 4(a1)
	ld t2, 0(a1)
	CHECK t2, 0x556677887788ff88
	sd t1, 8(a1)
	ld t2, 8(a1)
	CHECKR t2, t1
	sb zero, -1+16(a1)
	ld t2, 8(a1)
	CHECK t2, 0x0022334455667788

	/* misaligned stores */
	li t0, -1
	sd t0, 0(a1)
	sd t0, 8(a1)
	li t1, 0x12345678
	sw t1, 1(a1)
	ld t2, 0(a1)
	CHECK t2, 0xffffff12345678ff
	sh t1, 7(a1)
	ld t2, 0(a1)
	CHECK t2, 0x78ffff12345678ff
	ld t2, 8(a1)
	CHECK t2, 0xffffffffffffff56
	li t1, 0x0102030405060708
	sd t1, 3(a1)
	ld t2, 0(a1)
	CHECK t2, 0x04050607085678ff
	ld t2, 8(a1)
	CHECK t2, 0xffffffffff010203
	lbu t2, 10(a1)
	CHECK t2, 0x01

	/* store with rs2 == base stores the address */
	la a2, buf
	sd a2, 0(a2)
	ld t2, 0(a2)
	CHECKR t2, a2

	/* accesses straddling a 4 KiB page boundary */
	la a1, pages
	li t0, 4096
	add a1, a1, t0		/* a1 = start of the second page */
	li t1, 0x8877665544332211
	sd t1, -3(a1)
	lbu t2, -3(a1)
	CHECK t2, 0x11
	lbu t2, 4(a1)
	CHECK t2, 0x88
	ld t2, -3(a1)
	CHECKR t2, t1
	lw t2, -2(a1)
	CHECK t2, 0x55443322
	lwu t2, -1(a1)
	CHECK t2, 0x66554433
	lh t2, -1(a1)
	CHECK t2, 0x4433
	li t1, 0xabcd
	sh t1, -1(a1)
	lhu t2, -1(a1)
	CHECK t2, 0xabcd
	lbu t2, 0(a1)
	CHECK t2, 0xab
	ld t2, -3(a1)
	CHECK t2, 0x88776655abcd2211

	TEST_END

	.data
	.balign 16
d0:	.dword 0xf0e1d2c3b4a59687
	.dword 0x0f1e2d3c4b5a6978
	.bss
	.balign 16
buf:	.skip 32
	.balign 4096
pages:	.skip 8192
