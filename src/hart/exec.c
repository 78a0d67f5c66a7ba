/* The step loop: decode once per instruction address into a per-page
 * cache, then dispatch with computed goto. One decrement-and-branch per
 * instruction counts retirement; everything else is out of the hot path. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/hart.h"
#include "csr.h"
#include "fpu.h"

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

enum { OP_PAGE_END = INSN_COUNT };  /* sentinel slots past a page's end */

int hart_init(struct hart *h)
{
	memset(h, 0, sizeof(*h));
	h->resv_addr = ~0ull;
	h->time_hz = 10000000;      /* 10 MHz timebase, as QEMU virt */
	h->insn_hz = 1000000000;    /* 1 instruction per ns until a timing model */
	return gmem_init(&h->mem);
}

void hart_free(struct hart *h)
{
	for (int i = 0; i < DCACHE_SIZE; i++)
		free(h->dcache[i]);
	gmem_free(&h->mem);
}

uint64_t hart_time(const struct hart *h)
{
	return (uint64_t)((unsigned __int128)h->instret * h->time_hz / h->insn_hz);
}

static void dpage_clear(struct dpage *p)
{
	memset(p->s, 0, sizeof(p->s[0]) * DPAGE_SLOTS);
	p->s[DPAGE_SLOTS].id = p->s[DPAGE_SLOTS + 1].id = OP_PAGE_END;
}

static void invalidate_vpn(struct hart *h, uint64_t vpn)
{
	struct dpage *p = h->dcache[vpn % DCACHE_SIZE];
	if (p && p->vpn == vpn) {
		dpage_clear(p);
		p->vpn = ~0ull;
	}
}

void hart_invalidate_code(struct hart *h, uint64_t addr, uint64_t len)
{
	if (!len)
		return;
	uint64_t first = addr >> GPAGE_SHIFT, last = (addr + len - 1) >> GPAGE_SHIFT;
	if (last - first >= DCACHE_SIZE) {
		for (int i = 0; i < DCACHE_SIZE; i++)
			if (h->dcache[i] && h->dcache[i]->vpn != ~0ull)
				invalidate_vpn(h, h->dcache[i]->vpn);
		return;
	}
	/* a 4-byte instruction may start on the page before */
	for (uint64_t v = first ? first - 1 : 0; v <= last; v++)
		invalidate_vpn(h, v);
}

/* The decoded page holding pc, or NULL when pc is not executable. */
static struct dpage *dpage_get(struct hart *h, uint64_t pc)
{
	uint64_t vpn = pc >> GPAGE_SHIFT;
	if (pc >= GMEM_SPACE || !(h->mem.pflags[vpn] & GP_X))
		return NULL;
	struct dpage **slot = &h->dcache[vpn % DCACHE_SIZE], *p = *slot;
	if (p && p->vpn == vpn)
		return p;
	if (!p) {
		p = malloc(sizeof(*p));
		if (!p)
			abort();
		*slot = p;
	}
	dpage_clear(p);
	p->vpn = vpn;
	h->mem.pflags[vpn] |= GP_CODE;
	return p;
}

/* Fetch the instruction at pc (its first half is known executable). */
static int fetch(struct hart *h, uint64_t pc, uint32_t *raw)
{
	uint16_t lo;
	memcpy(&lo, h->mem.base + pc, 2);
	*raw = lo;
	if (insn_length(lo) == 2)
		return 0;
	uint64_t hi_addr = pc + 2;
	if ((hi_addr & (GPAGE_SIZE - 1)) == 0) {
		uint8_t *f = &h->mem.pflags[hi_addr >> GPAGE_SHIFT];
		if (hi_addr >= GMEM_SPACE || !(*f & GP_X)) {
			h->cause = CAUSE_FETCH_PAGE_FAULT;
			h->tval = hi_addr;
			return -1;
		}
		*f |= GP_CODE;
	}
	uint16_t hi;
	memcpy(&hi, h->mem.base + hi_addr, 2);
	*raw |= (uint32_t)hi << 16;
	return 0;
}

/* Misaligned or otherwise unusual accesses. Linux user mode completes
 * misaligned accesses, so they succeed when every byte is accessible. */
static int load_slow(struct hart *h, uint64_t a, unsigned size, uint64_t *v)
{
	*v = 0;
	if (gmem_read(&h->mem, a, v, size)) {
		h->cause = CAUSE_LOAD_PAGE_FAULT;
		h->tval = a;
		return -1;
	}
	return 0;
}

/* A store hit pages holding decoded instructions: drop them (and the page
 * before, whose last instruction may straddle). Returns 1 if any. */
static int code_written(struct hart *h, uint64_t a, unsigned size)
{
	int code = 0;
	for (uint64_t p = a >> GPAGE_SHIFT; p <= (a + size - 1) >> GPAGE_SHIFT; p++) {
		if (h->mem.pflags[p] & GP_CODE) {
			invalidate_vpn(h, p);
			if (p)
				invalidate_vpn(h, p - 1);
			h->mem.pflags[p] &= (uint8_t)~GP_CODE;
			code = 1;
		}
	}
	return code;
}

/* Returns -1 on a fault, 1 when decoded code was invalidated, else 0. */
static int store_slow(struct hart *h, uint64_t a, unsigned size, uint64_t v)
{
	if (gmem_write(&h->mem, a, &v, size)) {
		h->cause = CAUSE_STORE_PAGE_FAULT;
		h->tval = a;
		return -1;
	}
	return code_written(h, a, size);
}

/* Host address for an AMO/LR/SC (A chapter: misaligned is an exception).
 * *code is set when the write side hit decoded instructions. */
static void *amo_ptr(struct hart *h, uint64_t a, unsigned size, int need_write, int *code)
{
	if (a & (size - 1)) {
		h->cause = need_write ? CAUSE_MISALIGNED_STORE : CAUSE_MISALIGNED_LOAD;
		h->tval = a;
		return NULL;
	}
	unsigned need = need_write ? GP_R | GP_W : GP_R;
	if (!gmem_check(&h->mem, a, size, need)) {
		h->cause = need_write ? CAUSE_STORE_PAGE_FAULT : CAUSE_LOAD_PAGE_FAULT;
		h->tval = a;
		return NULL;
	}
	*code = need_write && (h->mem.pflags[a >> GPAGE_SHIFT] & GP_CODE) &&
		code_written(h, a, size);
	return h->mem.base + a;
}

static uint32_t unbox32(uint64_t f)
{
	return (f >> 32) == 0xffffffffu ? (uint32_t)f : 0x7fc00000u;
}
#define BOX32(v) (0xffffffff00000000ull | (uint32_t)(v))

static int64_t mulh(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
static uint64_t mulhu(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static int64_t mulhsu(int64_t a, uint64_t b) { return (int64_t)(((__int128)a * (__int128)b) >> 64); }

static uint64_t rev8(uint64_t v) { return __builtin_bswap64(v); }
static uint64_t orc_b(uint64_t v)
{
	uint64_t r = 0;
	for (int i = 0; i < 64; i += 8)
		if ((v >> i) & 0xff)
			r |= 0xffull << i;
	return r;
}

enum hart_stop hart_run(struct hart *h, uint64_t budget_in)
{
	static const void *const labels[INSN_COUNT + 1] = {
		[INSN_NONE] = &&do_NONE,
		[INSN_ILLEGAL] = &&do_ILLEGAL,
#define X(id, name, match, mask, fmt) [INSN_##id] = &&do_##id,
		INSN_LIST(X)
#undef X
		[OP_PAGE_END] = &&do_PAGE_END,
	};
	uint64_t *restrict x = h->x;
	uint64_t *restrict f = h->f;
	uint8_t *const base = h->mem.base;
	const uint8_t *const pf = h->mem.pflags;
	if (budget_in > INT64_MAX)
		budget_in = INT64_MAX;
	int64_t budget = (int64_t)budget_in;
	uint64_t pc = h->pc;
	struct dpage *pg;
	struct dinsn *d;
	enum hart_stop stop = STOP_TRAP;

#define DISPATCH() do { if (unlikely(--budget < 0)) goto out_budget; goto *labels[d->id]; } while (0)
#define NEXT() do { unsigned l_ = d->len; pc += l_; d += l_ >> 1; DISPATCH(); } while (0)
#define JUMP(target) do {                                               \
		uint64_t t_ = (target);                                 \
		if (likely(((t_ ^ pc) >> GPAGE_SHIFT) == 0)) {          \
			d += (int64_t)(t_ - pc) >> 1;                   \
			pc = t_;                                        \
			DISPATCH();                                     \
		}                                                       \
		pc = t_;                                                \
		goto lookup;                                            \
	} while (0)
#define TRAP(c, t) do { h->cause = (c); h->tval = (t); goto trap; } while (0)
#define RS1 x[d->rs1]
#define RS2 x[d->rs2]
#define RD  x[d->rd]
#define IMM d->imm
#define OP(name, expr) do_##name: RD = (expr); NEXT();
#define W(v) ((uint64_t)(int64_t)(int32_t)(v))

#define LOAD(name, T) do_##name: {                                      \
		uint64_t a_ = RS1 + (uint64_t)IMM; T v_;                \
		if (likely(!(a_ & (sizeof(T) - 1)) && a_ < GMEM_SPACE && \
			   (pf[a_ >> GPAGE_SHIFT] & GP_R))) {           \
			memcpy(&v_, base + a_, sizeof(T));              \
		} else {                                                \
			uint64_t t_;                                    \
			if (load_slow(h, a_, sizeof(T), &t_))           \
				goto trap;                              \
			v_ = (T)t_;                                     \
		}                                                       \
		STORE_LOADED(v_);                                       \
		NEXT();                                                 \
	}
#define STORE(name, T, val) do_##name: {                                \
		uint64_t a_ = RS1 + (uint64_t)IMM; T v_ = (T)(val);     \
		if (likely(!(a_ & (sizeof(T) - 1)) && a_ < GMEM_SPACE && \
			   (pf[a_ >> GPAGE_SHIFT] & (GP_W | GP_CODE)) == GP_W)) { \
			memcpy(base + a_, &v_, sizeof(T));              \
			NEXT();                                         \
		}                                                       \
		unsigned l_ = d->len;                                   \
		int r_ = store_slow(h, a_, sizeof(T), (uint64_t)v_);    \
		if (r_ < 0)                                             \
			goto trap;                                      \
		pc += l_;                                               \
		if (r_ > 0)                                             \
			goto lookup;                                    \
		d += l_ >> 1;                                           \
		DISPATCH();                                             \
	}

lookup:
	pg = dpage_get(h, pc);
	if (unlikely(!pg)) {
		h->cause = CAUSE_FETCH_PAGE_FAULT;
		h->tval = pc;
		goto trap_nocount;
	}
	d = &pg->s[(pc & (GPAGE_SIZE - 1)) >> 1];
	DISPATCH();

do_PAGE_END:
	pg = dpage_get(h, pc);
	if (unlikely(!pg))
		TRAP(CAUSE_FETCH_PAGE_FAULT, pc);
	d = &pg->s[(pc & (GPAGE_SIZE - 1)) >> 1];
	goto *labels[d->id];

do_NONE: {
		uint32_t raw;
		if (fetch(h, pc, &raw))
			goto trap;
		insn_decode(raw, d);
		goto *labels[d->id];
	}

do_ILLEGAL:
illegal: {
		uint32_t raw = 0;
		if (fetch(h, pc, &raw))
			goto trap;
		TRAP(CAUSE_ILLEGAL_INSN, raw);
	}

	/* RV64I */
	OP(LUI, (uint64_t)IMM)
	OP(AUIPC, pc + (uint64_t)IMM)
do_JAL: {
		uint64_t link = pc + d->len;
		RD = link;
		JUMP(pc + (uint64_t)IMM);
	}
do_JALR: {
		uint64_t t = (RS1 + (uint64_t)IMM) & ~1ull;
		RD = pc + d->len;
		JUMP(t);
	}
#define BRANCH(name, cond) do_##name: if (cond) JUMP(pc + (uint64_t)IMM); NEXT();
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
do_FENCE_TSO:
do_PAUSE:
do_FENCE:
	NEXT();
do_FENCE_I:
	/* Zifencei: stores already invalidate decoded pages; drop them all
	 * anyway so that host-side writes are seen too. */
	hart_invalidate_code(h, 0, GMEM_SPACE);
	pc += d->len;
	goto lookup;
do_ECALL:
	TRAP(CAUSE_USER_ECALL, 0);
do_EBREAK:
	TRAP(CAUSE_BREAKPOINT, pc);
do_SRET:
do_MRET:
do_WFI:
do_SFENCE_VMA:
	goto illegal;  /* U-mode only for now: privileged instructions trap */

	/* Zicsr */
#define CSR_OP(name, op, src, writes) do_##name: {                      \
		uint64_t old_;                                          \
		h->instret += budget_in - (uint64_t)budget - 1;         \
		budget_in = (uint64_t)budget + 1;                       \
		h->pc = pc;                                             \
		if (csr_access(h, (unsigned)IMM, op, (src), (writes), &old_)) \
			goto illegal;                                   \
		RD = old_;                                              \
		NEXT();                                                 \
	}
	CSR_OP(CSRRW, CSR_WRITE, RS1, 1)
	CSR_OP(CSRRS, CSR_SET, RS1, d->rs1 != 0)
	CSR_OP(CSRRC, CSR_CLEAR, RS1, d->rs1 != 0)
	CSR_OP(CSRRWI, CSR_WRITE, d->rs1, 1)
	CSR_OP(CSRRSI, CSR_SET, d->rs1, d->rs1 != 0)
	CSR_OP(CSRRCI, CSR_CLEAR, d->rs1, d->rs1 != 0)

	/* M */
	OP(MUL, RS1 * RS2)
	OP(MULH, (uint64_t)mulh((int64_t)RS1, (int64_t)RS2))
	OP(MULHSU, (uint64_t)mulhsu((int64_t)RS1, RS2))
	OP(MULHU, mulhu(RS1, RS2))
	OP(DIV, RS2 == 0 ? ~0ull : ((int64_t)RS1 == INT64_MIN && (int64_t)RS2 == -1) ? RS1
		: (uint64_t)((int64_t)RS1 / (int64_t)RS2))
	OP(DIVU, RS2 == 0 ? ~0ull : RS1 / RS2)
	OP(REM, RS2 == 0 ? RS1 : ((int64_t)RS1 == INT64_MIN && (int64_t)RS2 == -1) ? 0
		: (uint64_t)((int64_t)RS1 % (int64_t)RS2))
	OP(REMU, RS2 == 0 ? RS1 : RS1 % RS2)
	OP(MULW, W(RS1 * RS2))
	OP(DIVW, (uint32_t)RS2 == 0 ? ~0ull : ((int32_t)RS1 == INT32_MIN && (int32_t)RS2 == -1) ? W(RS1)
		: W((int32_t)RS1 / (int32_t)RS2))
	OP(DIVUW, (uint32_t)RS2 == 0 ? ~0ull : W((uint32_t)RS1 / (uint32_t)RS2))
	OP(REMW, (uint32_t)RS2 == 0 ? W(RS1) : ((int32_t)RS1 == INT32_MIN && (int32_t)RS2 == -1) ? 0
		: W((int32_t)RS1 % (int32_t)RS2))
	OP(REMUW, (uint32_t)RS2 == 0 ? W(RS1) : W((uint32_t)RS1 % (uint32_t)RS2))

	/* A: one hart, so every AMO is atomic by construction */
/* An AMO may rewrite its own code page: the slot is read before that. */
#define AMO_PTR(T, wr) ({ void *p_ = amo_ptr(h, RS1, sizeof(T), (wr), &code); if (!p_) goto trap; (T *)p_; })
#define AMO_NEXT() do { pc += l; if (code) goto lookup; d += l >> 1; DISPATCH(); } while (0)
#define AMO_BEGIN unsigned l = d->len, rd = d->rd; int code = 0; uint64_t s2 = RS2, s1 = RS1; (void)s1; (void)s2
do_LR_W: {
		AMO_BEGIN;
		int32_t *p = AMO_PTR(int32_t, 0);
		h->resv_addr = s1;
		x[rd] = (uint64_t)(int64_t)*p;
		AMO_NEXT();
	}
do_LR_D: {
		AMO_BEGIN;
		uint64_t *p = AMO_PTR(uint64_t, 0);
		h->resv_addr = s1;
		x[rd] = *p;
		AMO_NEXT();
	}
do_SC_W: {
		AMO_BEGIN;
		int32_t *p = AMO_PTR(int32_t, 1);
		int ok = h->resv_addr == s1;
		h->resv_addr = ~0ull;
		if (ok)
			*p = (int32_t)s2;
		x[rd] = !ok;
		AMO_NEXT();
	}
do_SC_D: {
		AMO_BEGIN;
		uint64_t *p = AMO_PTR(uint64_t, 1);
		int ok = h->resv_addr == s1;
		h->resv_addr = ~0ull;
		if (ok)
			*p = s2;
		x[rd] = !ok;
		AMO_NEXT();
	}
#define AMO(name, T, ST, expr) do_##name: {                             \
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

	/* F and D */
#define RM() ({ unsigned r_ = d->rm == 7 ? h->frm : d->rm; if (unlikely(r_ > 4)) goto illegal; (int)r_; })
#define FS1 unbox32(f[d->rs1])
#define FS2 unbox32(f[d->rs2])
#define FS3 unbox32(f[d->rs3])
#define DS1 f[d->rs1]
#define DS2 f[d->rs2]
#define DS3 f[d->rs3]
#define FL (&h->fflags)
#define FOP_S(name, expr) do_##name: f[d->rd] = BOX32(expr); NEXT();
#define FOP_D(name, expr) do_##name: f[d->rd] = (expr); NEXT();
#define STORE_LOADED(v) f[d->rd] = BOX32(v)
	LOAD(FLW, uint32_t)
#undef STORE_LOADED
#define STORE_LOADED(v) f[d->rd] = (v)
	LOAD(FLD, uint64_t)
#undef STORE_LOADED
	STORE(FSW, uint32_t, f[d->rs2])
	STORE(FSD, uint64_t, f[d->rs2])
	FOP_S(FMADD_S, f32_fma(FS1, FS2, FS3, 0, 0, RM(), FL))
	FOP_S(FMSUB_S, f32_fma(FS1, FS2, FS3, 0, 1, RM(), FL))
	FOP_S(FNMSUB_S, f32_fma(FS1, FS2, FS3, 1, 0, RM(), FL))
	FOP_S(FNMADD_S, f32_fma(FS1, FS2, FS3, 1, 1, RM(), FL))
	FOP_S(FADD_S, f32_add(FS1, FS2, RM(), FL))
	FOP_S(FSUB_S, f32_sub(FS1, FS2, RM(), FL))
	FOP_S(FMUL_S, f32_mul(FS1, FS2, RM(), FL))
	FOP_S(FDIV_S, f32_div(FS1, FS2, RM(), FL))
	FOP_S(FSQRT_S, f32_sqrt(FS1, RM(), FL))
	FOP_S(FSGNJ_S, (FS1 & 0x7fffffffu) | (FS2 & 0x80000000u))
	FOP_S(FSGNJN_S, (FS1 & 0x7fffffffu) | (~FS2 & 0x80000000u))
	FOP_S(FSGNJX_S, FS1 ^ (FS2 & 0x80000000u))
	FOP_S(FMIN_S, f32_min(FS1, FS2, FL))
	FOP_S(FMAX_S, f32_max(FS1, FS2, FL))
	OP(FCVT_W_S, f32_to_i32(FS1, RM(), FL))
	OP(FCVT_WU_S, f32_to_u32(FS1, RM(), FL))
	OP(FCVT_L_S, f32_to_i64(FS1, RM(), FL))
	OP(FCVT_LU_S, f32_to_u64(FS1, RM(), FL))
	OP(FMV_X_W, W(f[d->rs1]))
	OP(FCLASS_S, f32_classify(FS1))
	OP(FEQ_S, (uint64_t)f32_eq(FS1, FS2, FL))
	OP(FLT_S, (uint64_t)f32_lt(FS1, FS2, FL))
	OP(FLE_S, (uint64_t)f32_le(FS1, FS2, FL))
	FOP_S(FCVT_S_W, f32_from_i32((int32_t)RS1, RM(), FL))
	FOP_S(FCVT_S_WU, f32_from_u32((uint32_t)RS1, RM(), FL))
	FOP_S(FCVT_S_L, f32_from_i64((int64_t)RS1, RM(), FL))
	FOP_S(FCVT_S_LU, f32_from_u64(RS1, RM(), FL))
	FOP_S(FMV_W_X, (uint32_t)RS1)
	FOP_D(FMADD_D, f64_fma(DS1, DS2, DS3, 0, 0, RM(), FL))
	FOP_D(FMSUB_D, f64_fma(DS1, DS2, DS3, 0, 1, RM(), FL))
	FOP_D(FNMSUB_D, f64_fma(DS1, DS2, DS3, 1, 0, RM(), FL))
	FOP_D(FNMADD_D, f64_fma(DS1, DS2, DS3, 1, 1, RM(), FL))
	FOP_D(FADD_D, f64_add(DS1, DS2, RM(), FL))
	FOP_D(FSUB_D, f64_sub(DS1, DS2, RM(), FL))
	FOP_D(FMUL_D, f64_mul(DS1, DS2, RM(), FL))
	FOP_D(FDIV_D, f64_div(DS1, DS2, RM(), FL))
	FOP_D(FSQRT_D, f64_sqrt(DS1, RM(), FL))
	FOP_D(FSGNJ_D, (DS1 & ~(1ull << 63)) | (DS2 & (1ull << 63)))
	FOP_D(FSGNJN_D, (DS1 & ~(1ull << 63)) | (~DS2 & (1ull << 63)))
	FOP_D(FSGNJX_D, DS1 ^ (DS2 & (1ull << 63)))
	FOP_D(FMIN_D, f64_min(DS1, DS2, FL))
	FOP_D(FMAX_D, f64_max(DS1, DS2, FL))
	FOP_S(FCVT_S_D, f64_to_f32(DS1, RM(), FL))
	do_FCVT_D_S: (void)RM(); f[d->rd] = f32_to_f64(FS1, FL); NEXT();
	OP(FEQ_D, (uint64_t)f64_eq(DS1, DS2, FL))
	OP(FLT_D, (uint64_t)f64_lt(DS1, DS2, FL))
	OP(FLE_D, (uint64_t)f64_le(DS1, DS2, FL))
	OP(FCLASS_D, f64_classify(DS1))
	OP(FCVT_W_D, f64_to_i32(DS1, RM(), FL))
	OP(FCVT_WU_D, f64_to_u32(DS1, RM(), FL))
	OP(FCVT_L_D, f64_to_i64(DS1, RM(), FL))
	OP(FCVT_LU_D, f64_to_u64(DS1, RM(), FL))
	OP(FMV_X_D, DS1)
	FOP_D(FCVT_D_W, f64_from_i32((int32_t)RS1, RM(), FL))
	FOP_D(FCVT_D_WU, f64_from_u32((uint32_t)RS1, RM(), FL))
	FOP_D(FCVT_D_L, f64_from_i64((int64_t)RS1, RM(), FL))
	FOP_D(FCVT_D_LU, f64_from_u64(RS1, RM(), FL))
	FOP_D(FMV_D_X, RS1)

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

trap:
	budget++;           /* the trapping instruction did not retire */
trap_nocount:
	stop = STOP_TRAP;
	goto out;
out_budget:
	budget = 0;
	stop = STOP_BUDGET;
out:
	h->pc = pc;
	h->instret += budget_in - (uint64_t)budget;
	return stop;
}
