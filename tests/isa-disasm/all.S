/* Every instruction of rvpmu's table (src/isa/insn_list.h) and every RV64
 * compressed form, written in assembler syntax so that GNU as encodes them
 * independently of rvpmu; also the operand patterns objdump turns into
 * pseudo-instructions. Assembled with
 * -march=rv64gc_zba_zbb_zbs_zicsr_zifencei_zihintpause. */
	.text
	.globl _start
_start:
	.option norvc
	/* RV64I */
	lui	a0, 0x12345
	lui	t6, 0xfffff
	auipc	a1, 0x1
	auipc	s0, 0
1:	jal	ra, 1b
	jal	zero, 2f
	jal	a5, 1b
2:	jalr	ra, 0(a0)
	jalr	zero, 0(ra)
	jalr	zero, 12(t0)
	jalr	t1, -4(a2)
	jalr	a3, 0(a4)
	beq	a0, a1, 1b
	beq	a0, zero, 2b
	beq	zero, a0, 3f
	bne	s1, s2, 3f
	bne	t3, zero, 3f
	blt	a0, a1, 1b
	blt	a0, zero, 1b
	blt	zero, a0, 1b
	bge	t0, t1, 3f
	bge	zero, a2, 3f
	bge	a2, zero, 3f
	bltu	a0, a1, 1b
	bgeu	a0, a1, 3f
3:	lb	a0, -2048(a1)
	lh	a1, 2047(sp)
	lw	a2, 0(a3)
	ld	s11, -8(s0)
	lbu	t0, 1(t1)
	lhu	t2, 2(t3)
	lwu	t4, 4(t5)
	sb	a0, -2048(a1)
	sh	a1, 2047(sp)
	sw	a2, 0(a3)
	sd	s11, -8(s0)
	addi	a0, a1, -2048
	addi	a0, zero, 2047
	addi	a0, a1, 0
	addi	zero, zero, 0
	addi	zero, a1, 3
	slti	a0, a1, -1
	sltiu	a0, a1, 1
	sltiu	a0, a1, 7
	xori	a0, a1, -1
	xori	a0, a1, 0x55
	ori	a0, a1, 0x7ff
	andi	a0, a1, 255
	andi	a0, a1, -16
	slli	a0, a1, 0
	slli	a0, a1, 63
	srli	a0, a1, 32
	srai	a0, a1, 1
	add	a0, a1, a2
	add	a0, zero, a2
	sub	a0, a1, a2
	sub	a0, zero, a2
	sll	a0, a1, a2
	slt	a0, a1, a2
	slt	a0, a1, zero
	slt	a0, zero, a2
	sltu	a0, a1, a2
	sltu	a0, zero, a2
	xor	a0, a1, a2
	srl	a0, a1, a2
	sra	a0, a1, a2
	or	a0, a1, a2
	and	a0, a1, a2
	addiw	a0, a1, -5
	addiw	a0, a1, 0
	slliw	a0, a1, 31
	srliw	a0, a1, 1
	sraiw	a0, a1, 7
	addw	a0, a1, a2
	subw	a0, a1, a2
	subw	a0, zero, a2
	sllw	a0, a1, a2
	srlw	a0, a1, a2
	sraw	a0, a1, a2
	fence.tso
	pause
	fence
	fence	rw, rw
	fence	r, r
	fence	w, w
	fence	i, o
	fence	iorw, rw
	fence.i
	ecall
	ebreak
	/* privileged */
	sret
	mret
	wfi
	sfence.vma
	sfence.vma	a0
	.insn 0x10400073	# sctrclr (Smctr; binutils 2.40 has no mnemonic)
	sfence.vma	a0, a1
	sfence.vma	zero, a1
	/* the hypervisor extension */
	hfence.vvma
	hfence.vvma	a0, a1
	hfence.gvma	a0
	hfence.gvma	zero, a1
	hlv.b	a0, (a1)
	hlv.bu	a0, (a1)
	hlv.h	a0, (a1)
	hlv.hu	a0, (a1)
	hlvx.hu	a0, (a1)
	hlv.w	a0, (a1)
	hlv.wu	a0, (a1)
	hlvx.wu	a0, (a1)
	hlv.d	a0, (a1)
	hsv.b	a0, (a1)
	hsv.h	a0, (a1)
	hsv.w	a0, (a1)
	hsv.d	a0, (a1)
	/* Zicsr, with and without objdump's aliases */
	csrrw	a0, mscratch, a1
	csrrw	zero, mscratch, a1
	csrrw	a0, fflags, a1
	csrrw	zero, frm, a1
	csrrw	zero, fcsr, a1
	csrrs	a0, mstatus, a1
	csrrs	a0, mstatus, zero
	csrrs	zero, mstatus, a1
	csrrs	a0, fflags, zero
	csrrs	a0, frm, zero
	csrrs	a0, fcsr, zero
	csrrs	a0, cycle, zero
	csrrs	a0, time, zero
	csrrs	a0, instret, zero
	csrrs	a0, hpmcounter31, zero
	csrrs	a0, mhpmcounter3, zero
	csrrs	a0, mhpmevent17, zero
	csrrs	a0, pmpaddr63, zero
	csrrs	a0, pmpcfg14, zero
	csrrs	a0, scountovf, zero
	csrrs	a0, mcountinhibit, zero
	csrrs	a0, 0x7c0, zero
	csrrc	a0, sie, a1
	csrrc	zero, sie, a1
	csrrwi	a0, sstatus, 31
	csrrwi	zero, sstatus, 1
	csrrwi	a0, fflags, 3
	csrrwi	zero, frm, 2
	csrrsi	a0, mie, 8
	csrrsi	zero, mie, 8
	csrrci	a0, mip, 2
	csrrci	zero, mip, 2
	unimp
	/* M */
	mul	a0, a1, a2
	mulh	a0, a1, a2
	mulhsu	a0, a1, a2
	mulhu	a0, a1, a2
	div	a0, a1, a2
	divu	a0, a1, a2
	rem	a0, a1, a2
	remu	a0, a1, a2
	mulw	a0, a1, a2
	divw	a0, a1, a2
	divuw	a0, a1, a2
	remw	a0, a1, a2
	remuw	a0, a1, a2
	/* A */
	lr.w	a0, (a1)
	lr.w.aq	a0, (a1)
	sc.w	a0, a2, (a1)
	sc.w.rl	a0, a2, (a1)
	amoswap.w	a0, a2, (a1)
	amoadd.w.aqrl	a0, a2, (a1)
	amoxor.w	a0, a2, (a1)
	amoand.w	a0, a2, (a1)
	amoor.w	a0, a2, (a1)
	amomin.w	a0, a2, (a1)
	amomax.w	a0, a2, (a1)
	amominu.w	a0, a2, (a1)
	amomaxu.w	a0, a2, (a1)
	lr.d	a0, (a1)
	lr.d.aqrl	a0, (a1)
	sc.d	a0, a2, (a1)
	sc.d.aq	a0, a2, (a1)
	amoswap.d.aq	a0, a2, (a1)
	amoadd.d	a0, a2, (a1)
	amoxor.d.rl	a0, a2, (a1)
	amoand.d	a0, a2, (a1)
	amoor.d	a0, a2, (a1)
	amomin.d	a0, a2, (a1)
	amomax.d	a0, a2, (a1)
	amominu.d	a0, a2, (a1)
	amomaxu.d	a0, a2, (a1)
	/* F */
	flw	fa0, -4(a1)
	fsw	fa0, 8(a1)
	fmadd.s	fa0, fa1, fa2, fa3
	fmsub.s	fa0, fa1, fa2, fa3, rne
	fnmsub.s	ft0, ft1, ft2, ft3, rtz
	fnmadd.s	fs0, fs1, fs2, fs3, rdn
	fadd.s	fa0, fa1, fa2
	fadd.s	fa0, fa1, fa2, rup
	fsub.s	fa0, fa1, fa2, rmm
	fmul.s	fa0, fa1, fa2, dyn
	fdiv.s	fa0, fa1, fa2
	fsqrt.s	fa0, fa1
	fsgnj.s	fa0, fa1, fa2
	fsgnj.s	fa0, fa1, fa1
	fsgnjn.s	fa0, fa1, fa2
	fsgnjn.s	fa0, fa1, fa1
	fsgnjx.s	fa0, fa1, fa2
	fsgnjx.s	fa0, fa1, fa1
	fmin.s	fa0, fa1, fa2
	fmax.s	fa0, fa1, fa2
	fcvt.w.s	a0, fa1, rtz
	fcvt.wu.s	a0, fa1
	fcvt.l.s	a0, fa1
	fcvt.lu.s	a0, fa1, rne
	fmv.x.w	a0, fa1
	fclass.s	a0, fa1
	feq.s	a0, fa1, fa2
	flt.s	a0, fa1, fa2
	fle.s	a0, fa1, fa2
	fcvt.s.w	fa0, a1
	fcvt.s.wu	fa0, a1, rtz
	fcvt.s.l	fa0, a1
	fcvt.s.lu	fa0, a1
	fmv.w.x	fa0, a1
	/* D */
	fld	ft11, 2040(sp)
	fsd	ft11, -2048(sp)
	fmadd.d	fa0, fa1, fa2, fa3
	fmsub.d	fa0, fa1, fa2, fa3
	fnmsub.d	fa0, fa1, fa2, fa3
	fnmadd.d	fa0, fa1, fa2, fa3, rmm
	fadd.d	fa0, fa1, fa2
	fsub.d	fa0, fa1, fa2
	fmul.d	fa0, fa1, fa2, rtz
	fdiv.d	fa0, fa1, fa2
	fsqrt.d	fa0, fa1, rdn
	fsgnj.d	fa0, fa1, fa2
	fsgnj.d	fa0, fa1, fa1
	fsgnjn.d	fa0, fa1, fa2
	fsgnjn.d	fa0, fa1, fa1
	fsgnjx.d	fa0, fa1, fa2
	fsgnjx.d	fa0, fa1, fa1
	fmin.d	fa0, fa1, fa2
	fmax.d	fa0, fa1, fa2
	fcvt.s.d	fa0, fa1
	fcvt.d.s	fa0, fa1
	feq.d	a0, fa1, fa2
	flt.d	a0, fa1, fa2
	fle.d	a0, fa1, fa2
	fclass.d	a0, fa1
	fcvt.w.d	a0, fa1, rtz
	fcvt.wu.d	a0, fa1
	fcvt.l.d	a0, fa1
	fcvt.lu.d	a0, fa1
	fmv.x.d	a0, fa1
	fcvt.d.w	fa0, a1
	fcvt.d.wu	fa0, a1
	fcvt.d.l	fa0, a1
	fcvt.d.lu	fa0, a1, rup
	fmv.d.x	fa0, a1
	/* Zba */
	add.uw	a0, a1, a2
	add.uw	a0, a1, zero
	sh1add	a0, a1, a2
	sh2add	a0, a1, a2
	sh3add	a0, a1, a2
	sh1add.uw	a0, a1, a2
	sh2add.uw	a0, a1, a2
	sh3add.uw	a0, a1, a2
	slli.uw	a0, a1, 63
	/* Zbb */
	andn	a0, a1, a2
	orn	a0, a1, a2
	xnor	a0, a1, a2
	clz	a0, a1
	clzw	a0, a1
	ctz	a0, a1
	ctzw	a0, a1
	cpop	a0, a1
	cpopw	a0, a1
	max	a0, a1, a2
	maxu	a0, a1, a2
	min	a0, a1, a2
	minu	a0, a1, a2
	sext.b	a0, a1
	sext.h	a0, a1
	zext.h	a0, a1
	rol	a0, a1, a2
	rolw	a0, a1, a2
	ror	a0, a1, a2
	rori	a0, a1, 63
	roriw	a0, a1, 31
	rorw	a0, a1, a2
	orc.b	a0, a1
	rev8	a0, a1
	/* Zbs */
	bclr	a0, a1, a2
	bclri	a0, a1, 63
	bext	a0, a1, a2
	bexti	a0, a1, 0
	binv	a0, a1, a2
	binvi	a0, a1, 5
	bset	a0, a1, a2
	bseti	a0, a1, 40

	/* RVC: every RV64 compressed form, then the HINT encodings */
	.option rvc
4:	c.addi4spn	a0, sp, 1020
	c.fld	fa5, 248(a0)
	c.lw	s0, 124(a5)
	c.ld	s1, 0(a4)
	c.fsd	fs0, 8(a0)
	c.sw	a2, 4(a3)
	c.sd	a3, 248(s1)
	c.nop
	c.addi	a0, -32
	c.addi	sp, 31
	c.addiw	t0, 1
	c.addiw	a0, 0
	c.li	a5, -32
	c.li	ra, 0
	c.addi16sp	sp, -512
	c.addi16sp	sp, 496
	c.lui	a0, 1
	c.lui	t6, 0xfffe0
	c.lui	s2, 31
	c.srli	a0, 63
	c.srai	s1, 1
	c.andi	a5, -1
	c.sub	a0, a1
	c.xor	s0, s1
	c.or	a4, a5
	c.and	a2, a3
	c.subw	a0, a5
	c.addw	s1, s0
	c.j	4b
	c.j	5f
	c.beqz	a0, 4b
	c.bnez	s1, 5f
	c.slli	t0, 1
	c.slli	s11, 63
	c.fldsp	ft0, 504(sp)
	c.lwsp	ra, 252(sp)
	c.ldsp	t6, 0(sp)
	c.jr	a0
	c.jr	ra
	c.mv	a0, t6
	c.ebreak
	c.jalr	s0
	c.add	a0, a1
	c.fsdsp	fs11, 0(sp)
	c.swsp	a0, 124(sp)
5:	c.sdsp	s0, 504(sp)
	c.unimp
	/* HINTs (C chapter, "HINT Instructions") */
	.insn	0x0005		/* c.nop with imm 1 */
	.insn	0x107d		/* c.nop with imm -1 */
	.insn	0x0501		/* c.addi a0, 0 */
	.insn	0x4015		/* c.li zero, 5 */
	.insn	0x7005		/* c.lui zero, 0xfffe1 */
	.insn	0x8001		/* c.srli64 s0 */
	.insn	0x8401		/* c.srai64 s0 */
	.insn	0x0016		/* c.slli zero, 5 */
	.insn	0x0502		/* c.slli64 a0 */
	.insn	0x0002		/* c.slli64 zero */
	.insn	0x802e		/* c.mv zero, a1 */
	.insn	0x902e		/* c.add zero, a1 */
