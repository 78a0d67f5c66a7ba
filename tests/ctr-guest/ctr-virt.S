/* Code run in VS or VU by ctr-virt.c (through ctr_call with MPV set);
 * each piece ends with an ecall to M, or traps on its first instruction.
 * norvc, so every label's distance is known. */
	.option norvc
	.option norelax

.macro L name
	.globl \name
\name:
.endm

	.text
	.balign 4
/* a taken branch, a call and its return, then the ecall */
L vs_fn
L VF_br
	beq zero, zero, VF_br_t
L VF_br_t
L VF_call
	jal ra, vf_sub
L VF_call_r
L VF_ecall
	ecall
L vf_sub
L VFS_ret
	ret

/* a taken branch, then a breakpoint */
L vs_bp
L VB_br
	beq zero, zero, VB_br_t
L VB_br_t
L VB_ebreak
	ebreak
	ecall

/* CTR CSRs and SCTRCLR as V=1 code sees them (a0 = what was read) */
L vs_rd_sctrctl
	csrr a0, 0x14e
	ecall
L vs_wr_sctrctl
	li a0, -1
	csrw 0x14e, a0
	ecall
L vs_rd_status
	csrr a0, 0x14f
	ecall
L vs_rd_depth
	csrr a0, 0x15f
	ecall
L vs_rd_vsctrctl
	csrr a0, 0x24e
	ecall
L vs_rd_mctrctl
	csrr a0, 0x34e
	ecall
L vs_sctrclr
	.word 0x10400073
	ecall
