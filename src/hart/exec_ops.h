/* The instruction handlers, included twice by exec.c: once for 4-byte and
 * once for 2-byte encodings (ILEN), so advancing the pc is a constant.
 * LBL(name) names the handler of the current length. */
/* RV64I */
OP(LUI, (uint64_t)IMM)
OP(AUIPC, pc + (uint64_t)IMM)
/* calls and returns as the RAS hints define them: link registers x1, x5 */
#define IS_LINK(r) ((r) == 1 || (r) == 5)
LBL(JAL): {
	uint64_t link = pc + ILEN;
	EV(PMU_EV_JAL);
	if (IS_LINK(d->rd))
		EV(PMU_EV_CALL);
	RD = link;
	JUMP(pc + (uint64_t)IMM);
}
LBL(JALR): {
	uint64_t t = (RS1 + (uint64_t)IMM) & ~1ull;
	EV(PMU_EV_JALR);
	if (IS_LINK(d->rd))
		EV(PMU_EV_CALL);
	else if (IS_LINK(d->rs1))
		EV(PMU_EV_RET);
	RD = pc + ILEN;
	JUMP(t);
}
#define BRANCH(name, cond) LBL(name): EV(PMU_EV_BRANCH); \
	if (cond) { EV(PMU_EV_BRANCH_TAKEN); JUMP(pc + (uint64_t)IMM); } NEXT();
BRANCH(BEQ, RS1 == RS2)
BRANCH(BNE, RS1 != RS2)
BRANCH(BLT, (int64_t)RS1 < (int64_t)RS2)
BRANCH(BGE, (int64_t)RS1 >= (int64_t)RS2)
BRANCH(BLTU, RS1 < RS2)
BRANCH(BGEU, RS1 >= RS2)
#define STORE_LOADED(v) RD = (uint64_t)(v)
LOAD(LB, int8_t)
LOAD(LH, int16_t)
LOAD(LW, int32_t)
LOAD(LD, uint64_t)
LOAD(LBU, uint8_t)
LOAD(LHU, uint16_t)
LOAD(LWU, uint32_t)
#undef STORE_LOADED
STORE(SB, uint8_t, RS2)
STORE(SH, uint16_t, RS2)
STORE(SW, uint32_t, RS2)
STORE(SD, uint64_t, RS2)
OP(ADDI, RS1 + (uint64_t)IMM)
OP(SLTI, (int64_t)RS1 < IMM)
OP(SLTIU, RS1 < (uint64_t)IMM)
OP(XORI, RS1 ^ (uint64_t)IMM)
OP(ORI, RS1 | (uint64_t)IMM)
OP(ANDI, RS1 & (uint64_t)IMM)
OP(SLLI, RS1 << IMM)
OP(SRLI, RS1 >> IMM)
OP(SRAI, (uint64_t)((int64_t)RS1 >> IMM))
OP(ADD, RS1 + RS2)
OP(SUB, RS1 - RS2)
OP(SLL, RS1 << (RS2 & 63))
OP(SLT, (int64_t)RS1 < (int64_t)RS2)
OP(SLTU, RS1 < RS2)
OP(XOR, RS1 ^ RS2)
OP(SRL, RS1 >> (RS2 & 63))
OP(SRA, (uint64_t)((int64_t)RS1 >> (RS2 & 63)))
OP(OR, RS1 | RS2)
OP(AND, RS1 & RS2)
OP(ADDIW, W(RS1 + (uint64_t)IMM))
OP(SLLIW, W((uint32_t)RS1 << IMM))
OP(SRLIW, W((uint32_t)RS1 >> IMM))
OP(SRAIW, W((int32_t)RS1 >> IMM))
OP(ADDW, W(RS1 + RS2))
OP(SUBW, W(RS1 - RS2))
OP(SLLW, W((uint32_t)RS1 << (RS2 & 31)))
OP(SRLW, W((uint32_t)RS1 >> (RS2 & 31)))
OP(SRAW, W((int32_t)RS1 >> (RS2 & 31)))
LBL(FENCE_TSO):
LBL(PAUSE):
LBL(FENCE):
NEXT();
LBL(FENCE_I):
/* Zifencei: every store into a page with decoded instructions already
 * dropped them (and host-side writers call hart_invalidate_code), so
 * the instruction stream is always coherent; the modelled L1I is not,
 * and is invalidated as the core's would be. */
if (h->uarch)
	uarch_fence_i(h->uarch);
NEXT();
LBL(ECALL):
/* 8, 9 or 11 for U, HS, M; 10 for VS (and 8 for VU) */
TRAP(CAUSE_USER_ECALL + h->priv + (h->virt && h->priv == PRIV_S), 0);
LBL(EBREAK):
TRAP(CAUSE_BREAKPOINT, pc);
LBL(SRET):
LBL(MRET):
LBL(WFI):
LBL(SFENCE_VMA):
LBL(SCTRCLR):
LBL(HFENCE_VVMA): LBL(HFENCE_GVMA):
LBL(HLV_B): LBL(HLV_BU): LBL(HLV_H): LBL(HLV_HU): LBL(HLVX_HU):
LBL(HLV_W): LBL(HLV_WU): LBL(HLVX_WU): LBL(HLV_D):
LBL(HSV_B): LBL(HSV_H): LBL(HSV_W): LBL(HSV_D): {
	/* Privileged instructions leave the run so the caller sees the new
	 * privilege, pending interrupts or the wait. */
	SYNC_INSTRET();
	h->pc = pc;
	int r = d->id >= INSN_HFENCE_VVMA && d->id <= INSN_HSV_D ? hyp_insn(h, d, x)
								  : hart_system_insn(h, d->id, ILEN);
	if (r == HART_VIRTUAL_INSN)
		goto virtual_insn;
	if (r == HART_TRAPPED)
		goto trap;
	if (r < 0)
		goto illegal;
	/* HLV/HLVX and HSV are loads and stores (the models see them as
	 * system instructions: no data access of theirs is modelled) */
	if (d->id >= INSN_HLV_B && d->id <= INSN_HLV_D)
		EV(PMU_EV_LOAD);
	else if (d->id >= INSN_HSV_B && d->id <= INSN_HSV_D)
		EV(PMU_EV_STORE);
	pc = h->pc;
	stop = r ? STOP_WFI : STOP_SYNC;
	goto out;
}

/* Zicsr */
/* A CSR instruction sees every earlier instruction retired; a write ends
 * the run in system mode, since it may enable an interrupt or move a
 * counter's overflow point. */
#define CSR_OP(name, op, src, writes) LBL(name): {                      \
	uint64_t old_;                                          \
	SYNC_INSTRET();                                         \
	h->pc = pc;                                             \
	int c_ = csr_access(h, (unsigned)IMM, op, (src), (writes), &old_); \
	if (c_ == HART_VIRTUAL_INSN)                            \
		goto virtual_insn;                              \
	if (c_)                                                 \
		goto illegal;                                   \
	hart_retire_csr_insn(h, ILEN);                          \
	RD = old_;                                              \
	if (h->system && (writes)) {                            \
		pc += ILEN;                                     \
		stop = STOP_SYNC;                               \
		goto out;                                       \
	}                                                       \
	NEXT();                                                 \
}
CSR_OP(CSRRW, CSR_WRITE, RS1, 1)
CSR_OP(CSRRS, CSR_SET, RS1, d->rs1 != 0)
CSR_OP(CSRRC, CSR_CLEAR, RS1, d->rs1 != 0)
CSR_OP(CSRRWI, CSR_WRITE, d->rs1, 1)
CSR_OP(CSRRSI, CSR_SET, d->rs1, d->rs1 != 0)
CSR_OP(CSRRCI, CSR_CLEAR, d->rs1, d->rs1 != 0)

/* M */
OPE(MUL, PMU_EV_INT_MUL, RS1 * RS2)
OPE(MULH, PMU_EV_INT_MUL, (uint64_t)mulh((int64_t)RS1, (int64_t)RS2))
OPE(MULHSU, PMU_EV_INT_MUL, (uint64_t)mulhsu((int64_t)RS1, RS2))
OPE(MULHU, PMU_EV_INT_MUL, mulhu(RS1, RS2))
OPE(DIV, PMU_EV_INT_DIV, RS2 == 0 ? ~0ull : ((int64_t)RS1 == INT64_MIN && (int64_t)RS2 == -1) ? RS1
	: (uint64_t)((int64_t)RS1 / (int64_t)RS2))
OPE(DIVU, PMU_EV_INT_DIV, RS2 == 0 ? ~0ull : RS1 / RS2)
OPE(REM, PMU_EV_INT_DIV, RS2 == 0 ? RS1 : ((int64_t)RS1 == INT64_MIN && (int64_t)RS2 == -1) ? 0
	: (uint64_t)((int64_t)RS1 % (int64_t)RS2))
OPE(REMU, PMU_EV_INT_DIV, RS2 == 0 ? RS1 : RS1 % RS2)
OPE(MULW, PMU_EV_INT_MUL, W(RS1 * RS2))
OPE(DIVW, PMU_EV_INT_DIV, (uint32_t)RS2 == 0 ? ~0ull : ((int32_t)RS1 == INT32_MIN && (int32_t)RS2 == -1) ? W(RS1)
	: W((int32_t)RS1 / (int32_t)RS2))
OPE(DIVUW, PMU_EV_INT_DIV, (uint32_t)RS2 == 0 ? ~0ull : W((uint32_t)RS1 / (uint32_t)RS2))
OPE(REMW, PMU_EV_INT_DIV, (uint32_t)RS2 == 0 ? W(RS1) : ((int32_t)RS1 == INT32_MIN && (int32_t)RS2 == -1) ? 0
	: W((int32_t)RS1 % (int32_t)RS2))
OPE(REMUW, PMU_EV_INT_DIV, (uint32_t)RS2 == 0 ? W(RS1) : W((uint32_t)RS1 % (uint32_t)RS2))

/* A: one hart, so every AMO is atomic by construction */
#define AMO_PTR(T, wr) ({ void *p_ = amo_ptr(h, RS1, sizeof(T), (wr)); if (!p_) goto trap; (T *)p_; })
#define AMO_NEXT() do { EV(PMU_EV_ATOMIC); NEXT(); } while (0)
#define AMO_BEGIN unsigned rd = d->rd; uint64_t s2 = RS2, s1 = RS1; (void)s1; (void)s2
/* LR/SC: one hart, so only this hart's own LR makes a reservation */
#define LR(name, T) LBL(name): {                                        \
	AMO_BEGIN;                                              \
	T *p = AMO_PTR(T, 0);                                   \
	h->resv_addr = s1;                                      \
	x[rd] = (uint64_t)(int64_t)*p;                          \
	EV(PMU_EV_LOAD);                                        \
	AMO_NEXT();                                             \
}
#define SC(name, T) LBL(name): {                                        \
	AMO_BEGIN;                                              \
	T *p = AMO_PTR(T, 1);                                   \
	int ok = h->resv_addr == s1;                            \
	h->resv_addr = ~0ull;                                   \
	if (ok)                                                 \
		*p = (T)s2;                                     \
	x[rd] = !ok;                                            \
	EV(PMU_EV_STORE);                                       \
	AMO_NEXT();                                             \
}
LR(LR_W, int32_t)
LR(LR_D, int64_t)
SC(SC_W, int32_t)
SC(SC_D, int64_t)
#define AMO(name, T, ST, expr) LBL(name): {                             \
	AMO_BEGIN;                                              \
	T *p = AMO_PTR(T, 1);                                   \
	ST a = (ST)*p, b = (ST)s2;                              \
	*p = (T)(expr);                                         \
	x[rd] = (uint64_t)(int64_t)(T)a;                        \
	AMO_NEXT();                                             \
}
AMO(AMOSWAP_W, int32_t, int32_t, b)
AMO(AMOADD_W, int32_t, uint32_t, a + b)
AMO(AMOXOR_W, int32_t, int32_t, a ^ b)
AMO(AMOAND_W, int32_t, int32_t, a & b)
AMO(AMOOR_W, int32_t, int32_t, a | b)
AMO(AMOMIN_W, int32_t, int32_t, a < b ? a : b)
AMO(AMOMAX_W, int32_t, int32_t, a > b ? a : b)
AMO(AMOMINU_W, int32_t, uint32_t, a < b ? a : b)
AMO(AMOMAXU_W, int32_t, uint32_t, a > b ? a : b)
AMO(AMOSWAP_D, uint64_t, uint64_t, b)
AMO(AMOADD_D, uint64_t, uint64_t, a + b)
AMO(AMOXOR_D, uint64_t, uint64_t, a ^ b)
AMO(AMOAND_D, uint64_t, uint64_t, a & b)
AMO(AMOOR_D, uint64_t, uint64_t, a | b)
AMO(AMOMIN_D, uint64_t, int64_t, a < b ? a : b)
AMO(AMOMAX_D, uint64_t, int64_t, a > b ? a : b)
AMO(AMOMINU_D, uint64_t, uint64_t, a < b ? a : b)
AMO(AMOMAXU_D, uint64_t, uint64_t, a > b ? a : b)

/* F and D: while mstatus.FS is not Dirty, the first FP instruction
 * either traps (Off) or marks the state Dirty. */
#define RM() ({ unsigned r_ = d->rm == 7 ? h->frm : d->rm; if (unlikely(r_ > 4)) goto illegal; (int)r_; })
#define FPCHK() do { if (unlikely(h->fp_slow) && hart_fp_dirty(h)) goto illegal; } while (0)
#define FOP_S(name, expr) LBL(name): FPCHK(); f[d->rd] = BOX32(expr); EV(PMU_EV_FP); NEXT();
#define FOP_D(name, expr) LBL(name): FPCHK(); f[d->rd] = (expr); EV(PMU_EV_FP); NEXT();
#define FOP_I(name, expr) LBL(name): FPCHK(); RD = (expr); EV(PMU_EV_FP); NEXT();
#define STORE_LOADED(v) f[d->rd] = BOX32(v)
#undef MEM_PRE
#define MEM_PRE() FPCHK()
LOAD(FLW, uint32_t)
#undef STORE_LOADED
#define STORE_LOADED(v) f[d->rd] = (v)
LOAD(FLD, uint64_t)
#undef STORE_LOADED
STORE(FSW, uint32_t, f[d->rs2])
STORE(FSD, uint64_t, f[d->rs2])
#undef MEM_PRE
#define MEM_PRE() do { } while (0)
#define FOP_(name, kind, expr) FOP_##kind(name, expr)
FP_OPS(FOP_)
#undef FOP_

/* Zba */
OP(ADD_UW, RS2 + (uint32_t)RS1)
OP(SH1ADD, RS2 + (RS1 << 1))
OP(SH2ADD, RS2 + (RS1 << 2))
OP(SH3ADD, RS2 + (RS1 << 3))
OP(SH1ADD_UW, RS2 + ((uint64_t)(uint32_t)RS1 << 1))
OP(SH2ADD_UW, RS2 + ((uint64_t)(uint32_t)RS1 << 2))
OP(SH3ADD_UW, RS2 + ((uint64_t)(uint32_t)RS1 << 3))
OP(SLLI_UW, (uint64_t)(uint32_t)RS1 << IMM)
/* Zbb */
OP(ANDN, RS1 & ~RS2)
OP(ORN, RS1 | ~RS2)
OP(XNOR, ~(RS1 ^ RS2))
OP(CLZ, RS1 ? (uint64_t)__builtin_clzll(RS1) : 64)
OP(CLZW, (uint32_t)RS1 ? (uint64_t)__builtin_clz((uint32_t)RS1) : 32)
OP(CTZ, RS1 ? (uint64_t)__builtin_ctzll(RS1) : 64)
OP(CTZW, (uint32_t)RS1 ? (uint64_t)__builtin_ctz((uint32_t)RS1) : 32)
OP(CPOP, (uint64_t)__builtin_popcountll(RS1))
OP(CPOPW, (uint64_t)__builtin_popcount((uint32_t)RS1))
OP(MAX, (int64_t)RS1 > (int64_t)RS2 ? RS1 : RS2)
OP(MAXU, RS1 > RS2 ? RS1 : RS2)
OP(MIN, (int64_t)RS1 < (int64_t)RS2 ? RS1 : RS2)
OP(MINU, RS1 < RS2 ? RS1 : RS2)
OP(SEXT_B, (uint64_t)(int64_t)(int8_t)RS1)
OP(SEXT_H, (uint64_t)(int64_t)(int16_t)RS1)
OP(ZEXT_H, (uint16_t)RS1)
OP(ROL, (RS1 << (RS2 & 63)) | (RS1 >> ((64 - (RS2 & 63)) & 63)))
OP(ROLW, W(((uint32_t)RS1 << (RS2 & 31)) | ((uint32_t)RS1 >> ((32 - (RS2 & 31)) & 31))))
OP(ROR, (RS1 >> (RS2 & 63)) | (RS1 << ((64 - (RS2 & 63)) & 63)))
OP(RORI, (RS1 >> IMM) | (RS1 << ((64 - IMM) & 63)))
OP(RORIW, W(((uint32_t)RS1 >> IMM) | ((uint32_t)RS1 << ((32 - IMM) & 31))))
OP(RORW, W(((uint32_t)RS1 >> (RS2 & 31)) | ((uint32_t)RS1 << ((32 - (RS2 & 31)) & 31))))
OP(ORC_B, orc_b(RS1))
OP(REV8, rev8(RS1))
/* Zbs */
OP(BCLR, RS1 & ~(1ull << (RS2 & 63)))
OP(BCLRI, RS1 & ~(1ull << IMM))
OP(BEXT, (RS1 >> (RS2 & 63)) & 1)
OP(BEXTI, (RS1 >> IMM) & 1)
OP(BINV, RS1 ^ (1ull << (RS2 & 63)))
OP(BINVI, RS1 ^ (1ull << IMM))
OP(BSET, RS1 | (1ull << (RS2 & 63)))
OP(BSETI, RS1 | (1ull << IMM))

