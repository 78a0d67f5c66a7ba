/* S-mode probes for pmp-opensbi: one access with stvec pointed at a
 * handler that records scause, sepc and stval and skips the access. */
	.option norelax
	.option norvc
	.text

.macro SPROBE name, insn:vararg
	.balign 4
	.globl sprobe_\name, sprobe_\name\()_at
sprobe_\name:
	csrr t2, stvec
	la t0, sprobe_trap
	csrw stvec, t0
sprobe_\name\()_at:
	\insn
	csrw stvec, t2
	ret
.endm
	SPROBE ld, ld a0, 0(a0)
	SPROBE sd, sd a0, 0(a0)
	SPROBE jmp, jalr zero, 0(a0)

/* record in sprobe_rec: count, scause, sepc, stval; resume at sepc + 4,
 * or at ra for a fetch fault (nothing to skip there) */
	.balign 4
sprobe_trap:
	la t0, sprobe_rec
	ld t1, 0(t0)
	addi t1, t1, 1
	sd t1, 0(t0)
	csrr t1, scause
	sd t1, 8(t0)
	csrr t1, sepc
	sd t1, 16(t0)
	csrr t1, stval
	sd t1, 24(t0)
	csrr t1, scause
	addi t1, t1, -1
	beqz t1, 1f
	csrr t1, sepc
	addi t1, t1, 4
	csrw sepc, t1
	sret
1:	csrw sepc, ra
	sret

	.data
	.balign 8
	.globl sprobe_rec
sprobe_rec:
	.dword 0, 0, 0, 0
