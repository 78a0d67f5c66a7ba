/* Harness for the tests/ctr-guest programs: ctr_call runs a function in
 * M, S or U with mctrctl written just before the mret that enters it;
 * the function ends with a trap to M, taken by ctr_mvec, which stops
 * recording at once so the trap is the newest record. No branches or
 * jumps run between the two mctrctl writes except the test's own. */
	.option norvc
	.option norelax

	.bss
	.balign 8
	.globl ctr_mtrap, ctr_strap
ctr_mtrap: .zero 40		/* cause, epc, tval, a0, a1 */
ctr_strap: .zero 40
ctr_save: .zero 160		/* ra sp gp tp s0-s11 mtvec */

	.text
	.balign 4
/* u64 ctr_call(u64 mstatus_bits, void (*fn)(void), u64 ctl, u64 arg) */
	.globl ctr_call
ctr_call:
	la t0, ctr_save
	sd ra, 0(t0)
	sd sp, 8(t0)
	sd gp, 16(t0)
	sd tp, 24(t0)
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	sd s\n, (32 + 8 * \n)(t0)
	.endr
	csrr t1, mtvec
	sd t1, 128(t0)
	la t1, ctr_mvec
	csrw mtvec, t1
	li t1, 0x1880		/* MPP, MPIE */
	csrc mstatus, t1
	csrs mstatus, a0
	csrw mepc, a1
	mv a0, a3
	csrw 0x34e, a2
	.globl ctr_call_mret
ctr_call_mret:
	mret

	.balign 4
	.globl ctr_mvec
ctr_mvec:
	csrw 0x34e, zero	/* recording off before anything else retires */
	la t0, ctr_mtrap
	csrr t1, mcause
	sd t1, 0(t0)
	csrr t1, mepc
	sd t1, 8(t0)
	csrr t1, mtval
	sd t1, 16(t0)
	sd a0, 24(t0)
	sd a1, 32(t0)
	csrw mie, zero
	csrci mip, 2		/* a test's SSIP */
	la t0, ctr_save
	ld t1, 128(t0)
	csrw mtvec, t1
	ld ra, 0(t0)
	ld sp, 8(t0)
	ld gp, 16(t0)
	ld tp, 24(t0)
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	ld s\n, (32 + 8 * \n)(t0)
	.endr
	la t0, ctr_mtrap
	ld a0, 0(t0)
	ret

	.balign 4
	.globl ctr_svec
ctr_svec:
	csrw 0x14e, zero	/* sctrctl = 0: S and U recording off */
	la t0, ctr_strap
	csrr t1, scause
	sd t1, 0(t0)
	csrr t1, sepc
	sd t1, 8(t0)
	csrr t1, stval
	sd t1, 16(t0)
	sd a0, 24(t0)
	sd a1, 32(t0)
	ecall			/* to M: ctr_mvec ends the ctr_call */
1:	j 1b
