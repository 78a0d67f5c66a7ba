/* PMU helpers whose instruction counts must be known exactly, so the
 * start and stop ecalls sit in the same straight-line code. Built with
 * norvc so every sled instruction is 4 bytes (sepc -> instruction count). */
	.option norelax
	.option norvc
	.text

/* pmu_count_window(idx, iters, errs[2]): counter_start(idx, 1,
 * SET_INIT_VALUE, 0), a loop of iters iterations, counter_stop(idx, 1, 0).
 * S-mode instructions retired between the two ecalls: 2 * iters + 6
 * (the ecalls themselves trap and do not retire). errs = start, stop. */
	.globl pmu_count_window
pmu_count_window:
	addi sp, sp, -32
	sd s0, 0(sp)
	sd s1, 8(sp)
	sd s2, 16(sp)
	mv s0, a0
	mv s1, a1
	mv s2, a2
	li a7, 0x504D55
	li a6, 3
	mv a0, s0
	li a1, 1
	li a2, 1
	li a3, 0
	ecall
	mv t1, a0		/* 1 */
	mv t0, s1		/* 2 */
1:	addi t0, t0, -1		/* iters */
	bnez t0, 1b		/* iters */
	li a6, 4		/* 3 */
	mv a0, s0		/* 4 */
	li a1, 1		/* 5 */
	li a2, 0		/* 6 */
	ecall
	sd t1, 0(s2)
	sd a0, 8(s2)
	ld s0, 0(sp)
	ld s1, 8(sp)
	ld s2, 16(sp)
	addi sp, sp, 32
	ret

/* pmu_sample_sled(idx, ival): counter_start(idx, 1, SET_INIT_VALUE, ival)
 * followed directly by PMU_SLED_LEN addi instructions at pmu_sled; the
 * k-th instruction retired after the start call is at pmu_sled + 4 * (k - 1).
 * Returns the start call's error. */
	.globl pmu_sample_sled
	.globl pmu_sled
	.globl pmu_sled_end
pmu_sample_sled:
	mv a3, a1
	li a7, 0x504D55
	li a6, 3
	li a1, 1
	li a2, 1
	ecall
pmu_sled:
	.rept 2400
	addi t0, t0, 1
	.endr
pmu_sled_end:
	ret
