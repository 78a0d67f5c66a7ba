/* N iterations of a three-instruction loop around a divide (divu of a
 * constant: each iteration the same work), then rdcycle. With no argument
 * it exits at once (for rvpmu stat); with one it prints the cycle count as
 * 20 decimal digits and a newline and exits 0. The code before rdcycle
 * does not depend on the arguments. N defaults to 100. */
#ifndef N
#define N 100
#endif
	.option norvc
	.text
	.globl _start
_start:
	li s1, N
	li s3, 1000
	li s4, 7
1:	divu s5, s3, s4
	addi s1, s1, -1
	bnez s1, 1b
	rdcycle s2
	ld t0, 0(sp)            /* argc */
	li t1, 1
	beq t0, t1, done
	addi sp, sp, -32
	li t0, 20
	li t1, 10
	addi t2, sp, 20
	li t3, '\n'
	sb t3, 0(t2)
2:	remu t3, s2, t1
	divu s2, s2, t1
	addi t3, t3, '0'
	addi t2, t2, -1
	sb t3, 0(t2)
	addi t0, t0, -1
	bnez t0, 2b
	li a0, 1
	mv a1, sp
	li a2, 21
	li a7, 64               /* write */
	ecall
done:
	li a0, 0
	li a7, 93               /* exit */
	ecall
