/* Misaligned loads and stores that cross L1D lines, in a hot loop, as
 * Linux's probe of misaligned-access speed copies (arch/riscv's
 * __riscv_copy_words_unaligned: source and destination off by 1 and 3):
 * with the models on, translated code looks the second line up too
 * (jit_models.c cross(), uarch_block_cross()) rather than leaving each
 * such access to the step loop. tests/jit/suite.sh compares every count
 * with the step loop's and wants few side exits. Exits with the low
 * byte of a checksum of the copies (qemu-riscv64 must agree). */
	.globl _start
_start:
	la s0, src
	la s1, dst
	li t0, 0x0123456789abcdef
	li t1, 512		/* fill src: 4 KiB */
	mv t2, s0
1:	sd t0, 0(t2)
	slli t3, t0, 7
	xor t0, t0, t3
	srli t3, t0, 9
	xor t0, t0, t3
	addi t2, t2, 8
	addi t1, t1, -1
	bnez t1, 1b
	li s2, 200		/* passes */
	li s3, 0		/* checksum */
2:	addi a1, s0, 1		/* source off by 1, destination by 3 */
	addi a0, s1, 3
	li t1, 62		/* 62 rounds of 64 bytes: within both buffers */
3:	ld a4, 0(a1)
	ld a5, 8(a1)
	ld a6, 16(a1)
	ld a7, 24(a1)
	ld t3, 32(a1)
	ld t4, 40(a1)
	ld t5, 48(a1)
	ld t6, 56(a1)
	sd a4, 0(a0)
	sd a5, 8(a0)
	sd a6, 16(a0)
	sd a7, 24(a0)
	sd t3, 32(a0)
	sd t4, 40(a0)
	sd t5, 48(a0)
	sd t6, 56(a0)
	lw a2, 61(a1)		/* narrower ones across a line too */
	sh a2, 60(a0)
	lhu a3, 62(a1)
	sw a3, 62(a0)
	add s3, s3, a4
	xor s3, s3, a2
	addi a0, a0, 64
	addi a1, a1, 64
	addi t1, t1, -1
	bnez t1, 3b
	ld a4, 123(s1)		/* the copy feeds the checksum */
	add s3, s3, a4
	addi s2, s2, -1
	bnez s2, 2b
	srli a0, s3, 11
	andi a0, a0, 255
	li a7, 93
	ecall
	.bss
	.balign 4096
src:	.space 4096
dst:	.space 4096
