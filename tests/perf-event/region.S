/* perf_event_open on itself, with every retired instruction known, so
 * that the guest's own count of a region and `rvpmu stat -e
 * instructions:u` of the whole program can be compared exactly. Writes
 * the region's count (8 bytes, little-endian) to stdout.
 *
 * An ecall traps and does not retire. Retired (norvc, norelax: lla = auipc+addi,
 * li of 0x2400/0x2401 = lui+addiw, other li/mv = one instruction):
 *   before ENABLE's ecall:  lla 2, li x5, bltz, mv, li 0x2400 2, li, li = 13
 *   the region:             li t0, 2N (addi, bnez), mv, li 0x2401 2 = 2N + 4
 *   after DISABLE's ecall:  mv, lla 2, li, li; li, li; li, li = 9
 * With N = 1000: region 2004, program 2026. */
	.option norvc
	.option norelax		/* lla stays auipc+addi (no gp here) */
	.globl _start
_start:
	lla a0, attr
	li a1, 0		/* pid: this process */
	li a2, -1		/* any cpu */
	li a3, -1		/* no group */
	li a4, 0
	li a7, 241		/* perf_event_open */
	ecall
	bltz a0, fail
	mv s0, a0
	li a1, 0x2400		/* PERF_EVENT_IOC_ENABLE */
	li a2, 0
	li a7, 29		/* ioctl */
	ecall
	li t0, 1000
1:	addi t0, t0, -1
	bnez t0, 1b
	mv a0, s0
	li a1, 0x2401		/* PERF_EVENT_IOC_DISABLE */
	ecall
	mv a0, s0
	lla a1, buf
	li a2, 8
	li a7, 63		/* read */
	ecall
	li a0, 1
	li a7, 64		/* write(1, buf, 8) */
	ecall
	li a0, 0
	li a7, 93
	ecall
fail:
	li a0, 1
	li a7, 93
	ecall

	.data
	.balign 8
attr:	/* struct perf_event_attr, PERF_ATTR_SIZE_VER0 */
	.word 0, 64		/* PERF_TYPE_HARDWARE, size */
	.dword 1		/* PERF_COUNT_HW_INSTRUCTIONS */
	.dword 0, 0, 0		/* sample_period, sample_type, read_format */
	.dword 0x21		/* disabled | exclude_kernel */
	.word 0, 0
	.dword 0, 0
buf:	.dword 0
