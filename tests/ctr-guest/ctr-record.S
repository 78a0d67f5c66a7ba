/* Code whose control transfers ctr-record.c predicts from these labels.
 * Everything is norvc unless marked, so instruction sizes are known. */
	.option norvc
	.option norelax

.macro L name
	.globl \name
\name:
.endm

	.bss
	.balign 8
seq_ra: .zero 8
seq_mtvec: .zero 8
ras_s: .zero 16		/* the caller's s1, s2 */

	.text
	.balign 4
/* seq_types(ctl): one transfer of every TYPE M-mode code can produce,
 * recorded with mctrctl = ctl. The traps go to vec_exc / vec_int, which
 * return with mret (no other transfer). */
L seq_types
	la t0, seq_ra
	sd ra, 0(t0)
	csrr t0, mtvec
	la t1, seq_mtvec
	sd t0, 0(t1)
	li t0, 0x1800
	csrs mstatus, t0	/* MPP = M for ST_mret */
	csrci mip, 2
	li t0, 2
	csrw mie, t0		/* SSIE */
	li a4, 0
	csrw 0x34e, a0
L ST_br_tk
	beq zero, zero, ST_br_tk_t
L ST_br_tk_t
L ST_br_nt
	bne zero, zero, ST_br_tk
L ST_br_nt_n
L ST_j
	j ST_j_t
	nop
L ST_j_t
	la t1, ST_jr_t
L ST_jr
	jr t1			/* JALR x0, x6 (x5 would make it a return) */
	nop
L ST_jr_t
L ST_call
	jal ra, sub_a
L ST_call_r
L ST_callx5
	jal t0, sub_b
L ST_callx5_r
	la t1, sub_a
L ST_icall
	jalr ra, 0(t1)
L ST_icall_r
	la t0, sub_swap
L ST_swap
	jalr ra, 0(t0)		/* JALR x1, x5: co-routine swap */
L ST_swap_r
L ST_ljal
	jal a0, sub_l		/* JAL x10: other direct jump with linkage */
L ST_ljal_r
	la t1, sub_l
L ST_ljalr
	jalr a0, 0(t1)		/* JALR x10, x6: other indirect jump with linkage */
L ST_ljalr_r
	.option push
	.option rvc
L ST_cj
	c.j ST_cj_t
	c.nop
L ST_cj_t
	la t1, sub_c
L ST_cjalr
	c.jalr t1		/* C.JALR x6: indirect call */
L ST_cjalr_r
	la t0, sub_swap
L ST_cswap
	c.jalr t0		/* C.JALR x5: co-routine swap */
L ST_cswap_r
	la t1, ST_cjr_t
L ST_cjr
	c.jr t1			/* C.JR x6: indirect jump */
	c.nop
L ST_cjr_t
L ST_cbeqz
	c.beqz a4, ST_cbeqz_t	/* taken */
	c.nop
L ST_cbeqz_t
L ST_cbnez
	c.bnez a4, ST_cbeqz	/* not taken */
L ST_cbnez_n
	.option pop
	.balign 4
	la t0, ST_mret_t
	csrw mepc, t0
L ST_mret
	mret
L ST_mret_t
	la t0, vec_exc
	csrw mtvec, t0
L ST_ecall
	ecall
L ST_ecall_n
	la t0, vec_int
	csrw mtvec, t0
	csrsi mstatus, 8	/* MIE: nothing pending yet */
	csrsi mip, 2		/* SSIP: taken before ST_int_at */
L ST_int_at
	csrci mstatus, 8
L ST_end
	csrw 0x34e, zero
	csrw mie, zero
	la t1, seq_mtvec
	ld t0, 0(t1)
	csrw mtvec, t0
	la t0, seq_ra
	ld ra, 0(t0)
	ret

L sub_a
L SA_ret
	ret
L sub_b
L SB_ret
	jr t0			/* JALR x0, x5: return through x5 */
L sub_swap
L SW_ret
	ret
L sub_l
L SL_ret
	jr a0			/* JALR x0, x10: indirect jump */
	.option push
	.option rvc
L sub_c
L SC_ret
	c.jr ra			/* C.JR x1: return */
	.option pop
	.balign 4
L vec_exc
	csrr t6, mepc
	addi t6, t6, 4
	csrw mepc, t6
L VE_mret
	mret
	.balign 4
L vec_int
	csrci mip, 2
L VI_mret
	mret

/* Run in S or U by ctr_call: a direct jump, a call and its return, then
 * an ecall. */
	.balign 4
L u_fn
L UF_j
	j UF_j_t
	nop
L UF_j_t
L UF_call
	jal ra, u_sub
L UF_call_r
L UF_ecall
	ecall
L u_sub
L US_ret
	ret

/* Run in S: sret to U at SF_u, which jumps and ecalls. */
L s_sret_fn
	li t0, 0x100
	csrc sstatus, t0	/* SPP = U */
	la t0, SF_u
	csrw sepc, t0
L SF_sret
	sret
L SF_u
L SF_uj
	j SF_u2
	nop
L SF_u2
L SF_ecall
	ecall

/* chain_run(ctl, start): jr to start, a slot of the 261-jump chain, each
 * CH_0 + 4i jumping to the next word; the last lands on CH_end. */
L chain_run
	csrw 0x34e, a0
L CH_enter
	jr a1
L CH_0
	.rept 261
	j .+4
	.endr
L CH_end
	csrw 0x34e, zero
	ret

/* ras_seq(ctl): RASEMU. Push A, push B, (direct jump, taken branch,
 * mret: not recorded), pop B, push C, swap D (overwrites C); then stop. */
L ras_seq
	la t0, ras_s
	sd s1, 0(t0)
	sd s2, 8(t0)
	mv s1, ra
	li t0, 0x1800
	csrs mstatus, t0
	csrw 0x34e, a0
L RA_call
	jal ra, ras_f1		/* A */
L RA_call_r
	mv ra, s1
	la t0, ras_s
	ld s1, 0(t0)
	ld s2, 8(t0)
	ret
L ras_f1
	mv s2, ra
	la t1, ras_f2
L RB_call
	jalr ra, 0(t1)		/* B (indirect call) */
L RB_call_r
L RC_call
	jal ra, ras_f3		/* C */
L RC_call_r
	mv ra, s2
	ret
L ras_f2
	j 1f
1:	beq zero, zero, 1f
1:	la t0, 1f
	csrw mepc, t0
	mret
1:
L RB_ret
	ret			/* pops B */
L ras_f3
	la t0, ras_f4
L RD_swap
	jalr ra, 0(t0)		/* JALR x1, x5: swap, replaces C */
L RD_swap_r
L ras_f4
	csrw 0x34e, zero
	mv ra, s2		/* back to ras_f1's caller: unwinds with recording off */
	j RC_call_r

/* ras_pop2(ctl): push A2, push B2, pop B2, pop A2, then stop. */
L ras_pop2
	la t0, ras_s
	sd s1, 0(t0)
	sd s2, 8(t0)
	mv s1, ra
	csrw 0x34e, a0
L RP_a
	jal ra, rp_f1
L RP_a_r
	csrw 0x34e, zero
	mv ra, s1
	la t0, ras_s
	ld s1, 0(t0)
	ld s2, 8(t0)
	ret
L rp_f1
	mv s2, ra
L RP_b
	jal ra, rp_f2
L RP_b_r
	mv ra, s2
L RP_ret_a
	ret
L rp_f2
L RP_ret_b
	ret

/* cc_seq(ctl): jumps with 3 and 10 instructions between them */
L cc_seq
	csrw 0x34e, a0
L CC_j0
	j CC_1
L CC_1
	nop
	nop
	nop
L CC_j1
	j CC_2
L CC_2
	.rept 10
	nop
	.endr
L CC_j2
	j CC_3
L CC_3
	csrw 0x34e, zero
	ret

/* mcycle over 10 nops: the cycles per instruction that CC counts */
L cycles_10nops
	csrr t0, mcycle
	.rept 10
	nop
	.endr
	csrr a0, mcycle
	sub a0, a0, t0
	ret
