/* The retire stream: in the counting variant of the step loop, each
 * retired instruction becomes a struct retire_rec that the
 * microarchitecture models observe; the events they raise go to the PMU
 * with the instruction's own. Nothing here runs in functional mode. */
#include <stddef.h>
#include <string.h>
#include "retire.h"
#include "../uarch/retire_impl.h"
#include "rvpmu/ctr.h"
#include "rvpmu/profile.h"

struct insn_info {
	uint8_t cls, size, lat;         /* lat: its UARCH_RF_W32 / UARCH_RF_FP_MOVE flags */
	uint8_t rd_fp, rs1_fp, rs2_fp;  /* 32: the operand is an f register, else 0 */
	uint8_t csr_rs1, csr_always;    /* Zicsr: writes its CSR when rs1 != 0 / always */
};
static struct insn_info info[INSN_COUNT];
/* The bytes cls..flags of an instruction's retire_rec, registers excluded
 * ([0]; f registers' 32 included), and the flags to add when rs1 != 0
 * ([1]): prepare() fills those eight bytes with one store. */
static uint64_t rec_word[INSN_COUNT][2];
#define REC_BYTES(r) (&(r)->cls)
_Static_assert(offsetof(struct retire_rec, size) == offsetof(struct retire_rec, cls) + 1 &&
	       offsetof(struct retire_rec, taken) == offsetof(struct retire_rec, cls) + 2 &&
	       offsetof(struct retire_rec, rd) == offsetof(struct retire_rec, cls) + 3 &&
	       offsetof(struct retire_rec, rs1) == offsetof(struct retire_rec, cls) + 4 &&
	       offsetof(struct retire_rec, rs2) == offsetof(struct retire_rec, cls) + 5 &&
	       offsetof(struct retire_rec, ilen) == offsetof(struct retire_rec, cls) + 6 &&
	       offsetof(struct retire_rec, flags) == offsetof(struct retire_rec, cls) + 7,
	       "retire_rec: cls..flags are eight consecutive bytes");
_Static_assert(sizeof(((struct dinsn *)0)->id) == 2 &&
	       offsetof(struct dinsn, rd) == offsetof(struct dinsn, id) + 2 &&
	       offsetof(struct dinsn, rs1) == offsetof(struct dinsn, id) + 3 &&
	       offsetof(struct dinsn, rs2) == offsetof(struct dinsn, id) + 4 &&
	       offsetof(struct dinsn, len) == offsetof(struct dinsn, id) + 6 &&
	       offsetof(struct dinsn, id) + 8 <= sizeof(struct dinsn),
	       "dinsn: id, rd, rs1, rs2, rs3, len are consecutive");
static int info_ready;
uint8_t retire_refine[INSN_COUNT + 1];

/* The SiFive instruction-commit refinement of an instruction (0: none;
 * mul/div, branches, jumps, atomics and CSR accesses have their own
 * events). */
static uint8_t refine(const char *n, unsigned cls)
{
	switch (cls) {
	case UARCH_CLS_LOAD: return n[0] == 'f' ? PROF_EV_FP_LOAD : PROF_EV_INT_LOAD;
	case UARCH_CLS_STORE: return n[0] == 'f' ? PROF_EV_FP_STORE : PROF_EV_INT_STORE;
	case UARCH_CLS_ALU: return strncmp(n, "fence", 5) ? PROF_EV_INT_ARITH : PROF_EV_SYSTEM_OTHER;
	case UARCH_CLS_SYSTEM:   /* the hypervisor's loads and stores are integer ones */
		return !strncmp(n, "hlv", 3) ? PROF_EV_INT_LOAD :
		       !strncmp(n, "hsv", 3) ? PROF_EV_INT_STORE : PROF_EV_SYSTEM_OTHER;
	case UARCH_CLS_FP_DIV: return PROF_EV_FP_DIVSQRT;
	case UARCH_CLS_FP:
		if (!strncmp(n, "fadd", 4) || !strncmp(n, "fsub", 4))
			return PROF_EV_FP_ADD;
		if (!strncmp(n, "fmul", 4))
			return PROF_EV_FP_MUL;
		if (strstr(n, "madd") || strstr(n, "msub"))
			return PROF_EV_FP_FMA;
		return PROF_EV_FP_OTHER;
	}
	return 0;
}

/* The latency variant of a divide or FP arithmetic instruction (the
 * timing's UARCH_RF_LAT bits): 32-bit divides and single precision, and
 * FP moves, conversions, compares, sign injection, min/max and classify,
 * which SiFive's 7-series scheduling model times apart (LLVM
 * RISCVSchedSiFive7.td). */
static uint8_t lat_variant(const char *n, unsigned cls)
{
	size_t l = strlen(n);
	uint8_t v = 0;
	if (cls == UARCH_CLS_DIV && n[l - 1] == 'w')
		v |= UARCH_RF_W32;
	if (cls == UARCH_CLS_FP || cls == UARCH_CLS_FP_DIV) {
		if (!strcmp(n + l - 2, ".s"))
			v |= UARCH_RF_W32;
		if (!strncmp(n, "fsgnj", 5) || !strncmp(n, "fmin", 4) || !strncmp(n, "fmax", 4) ||
		    !strncmp(n, "fcvt", 4) || !strncmp(n, "fmv", 3) || !strncmp(n, "fclass", 6) ||
		    !strncmp(n, "feq", 3) || !strncmp(n, "flt", 3) || !strncmp(n, "fle", 3))
			v |= UARCH_RF_FP_MOVE;
	}
	return v;
}

void retire_init(void)
{
	if (info_ready)
		return;
	for (int id = INSN_ILLEGAL + 1; id < INSN_COUNT; id++) {
		const char *n = insn_table[id].name, *f = insn_table[id].fmt;
		struct insn_info *i = &info[id];
		int load = strchr(f, 'o') && n[0] != 'j', store = strchr(f, 'q') != NULL;
		int amo = !strncmp(n, "amo", 3) || !strncmp(n, "lr.", 3) || !strncmp(n, "sc.", 3);
		i->cls = UARCH_CLS_ALU;
		if (amo) i->cls = UARCH_CLS_ATOMIC;
		else if (load) i->cls = UARCH_CLS_LOAD;
		else if (store) i->cls = UARCH_CLS_STORE;
		else if (strchr(f, 'p')) i->cls = UARCH_CLS_BRANCH;
		else if (id == INSN_JAL) i->cls = UARCH_CLS_JAL;
		else if (id == INSN_JALR) i->cls = UARCH_CLS_JALR;
		else if (!strncmp(n, "mul", 3)) i->cls = UARCH_CLS_MUL;
		else if (!strncmp(n, "div", 3) || !strncmp(n, "rem", 3)) i->cls = UARCH_CLS_DIV;
		else if (!strncmp(n, "fdiv", 4) || !strncmp(n, "fsqrt", 5)) i->cls = UARCH_CLS_FP_DIV;
		else if (n[0] == 'f' && strncmp(n, "fence", 5)) i->cls = UARCH_CLS_FP;
		else if (!strncmp(n, "csr", 3)) i->cls = UARCH_CLS_CSR;
		else if (strchr(f, 'E') == NULL && (!strncmp(n, "e", 1) || strstr(n, "ret") ||
			 !strcmp(n, "wfi") || !strncmp(n, "sfence", 6) || id == INSN_FENCE_I || id == INSN_SCTRCLR ||
			 n[0] == 'h'))   /* the hypervisor's hfence, hlv, hsv */
			i->cls = UARCH_CLS_SYSTEM;
		if (load || store || amo) {
			char c = n[strlen(n) - 1];
			i->size = c == 'b' ? 1 : c == 'h' ? 2 : (c == 'w' || c == 'u' /* lwu */) ? 4 : 8;
			if (id == INSN_LBU) i->size = 1;
			if (id == INSN_LHU) i->size = 2;
		}
		i->rd_fp = f[0] == 'D' || (store && f[0] == 'T');
		i->rs1_fp = strchr(f, 'S') != NULL;
		i->rs2_fp = strchr(f, 'T') != NULL && !store;
		if (store && f[0] == 'T')
			i->rd_fp = 0, i->rs2_fp = 1;
		i->rd_fp *= 32, i->rs1_fp *= 32, i->rs2_fp *= 32;
		/* csrrs/csrrc (and their immediate forms) with x0 / 0 only read */
		i->csr_always = i->cls == UARCH_CLS_CSR && (id == INSN_CSRRW || id == INSN_CSRRWI);
		i->csr_rs1 = i->cls == UARCH_CLS_CSR;
		retire_refine[id] = refine(n, i->cls);
		i->lat = lat_variant(n, i->cls);
		struct retire_rec t = {
			.cls = i->cls, .size = i->size,
			.rd = i->rd_fp, .rs1 = i->rs1_fp, .rs2 = i->rs2_fp,
			.flags = (uint8_t)((i->csr_always ? UARCH_RF_CSR_WRITE : 0) | i->lat),
		};
		memcpy(&rec_word[id][0], REC_BYTES(&t), 8);
		t = (struct retire_rec){ .flags = i->csr_rs1 ? UARCH_RF_CSR_WRITE : 0 };
		memcpy(&rec_word[id][1], REC_BYTES(&t), 8);
	}
	info_ready = 1;
}

/* A decoded register (0..31, or 32 for the x0 sink) as a retire_rec one:
 * x0 and the sink are 0, f registers are offset by 32 (fp = 0 or 32). */
static inline uint8_t reg(unsigned r, unsigned fp)
{
	return (uint8_t)((r & 31) | fp);
}

/* The fields of d's record that the instruction alone fixes. */
static inline void rec_static(struct retire_rec *r, const struct dinsn *d)
{
	const struct insn_info *i = &info[d->id];
	r->ilen = d->len;
	r->cls = i->cls;
	r->size = i->size;
	r->rd = reg(d->rd, i->rd_fp);
	r->rs1 = reg(d->rs1, i->rs1_fp);
	r->rs2 = reg(d->rs2, i->rs2_fp);
	r->flags = (uint8_t)(((i->csr_rs1 & (d->rs1 != 0)) | i->csr_always ? UARCH_RF_CSR_WRITE : 0) |
			     i->lat);
}

/* A control transfer for the CTR model; misp from the predictor model. */
static void ctr_observe(struct hart *h, int misp)
{
	const struct retire_rec *r = &h->rr;
	enum ctr_insn k;
	switch (r->cls) {
	case UARCH_CLS_BRANCH: k = CTR_INSN_BRANCH; break;
	case UARCH_CLS_JAL: k = CTR_INSN_JAL; break;
	case UARCH_CLS_JALR: k = CTR_INSN_JALR; break;
	default: return;
	}
	enum ctr_type t = ctr_classify(k, r->rd, r->rs1, r->cls != UARCH_CLS_BRANCH || r->taken);
	unsigned mode = hart_mode(h);
	ctr_transfer(h->ctr, mode, mode, r->pc, r->next_pc, t, misp, hart_cycles(h));
}

/* The models keep cumulative totals; they reach evc only here, at each PMU
 * sync (and before each traced instruction), not per instruction: the
 * step loop's overflow horizon already bounds how far a chunk can run. */
void retire_fold(struct hart *h)
{
	struct uarch *u = h->uarch;
	if (!u)
		return;
	uint64_t *evc = h->evc;   /* evc[PMU_EV_NONE] is a sink: unmapped events go there */
	const uint8_t *map = h->uarch_map;
	uint64_t d[UARCH_EV_COUNT];
	for (int e = 0; e < UARCH_EV_COUNT; e++) {
		const uint64_t v = uarch_event(u, (enum uarch_event)e);
		d[e] = v - h->uev_synced[e];
		h->uev_synced[e] = v;
		evc[map[e]] += d[e];
	}
	/* L2 writebacks and DTLB store lookups are also in the totals, which
	 * count as reads */
	evc[map[UARCH_EV_L2_ACCESS]] -= d[UARCH_EV_L2_WRITE_ACCESS];
	evc[map[UARCH_EV_L2_MISS]] -= d[UARCH_EV_L2_WRITE_MISS];
	evc[map[UARCH_EV_DTLB_ACCESS]] -= d[UARCH_EV_DTLB_WRITE_ACCESS];
	evc[map[UARCH_EV_DTLB_MISS]] -= d[UARCH_EV_DTLB_WRITE_MISS];
}

_Static_assert(UARCH_EV_COUNT <= 64 && UARCH_EV_CYCLES < UARCH_EV_STALL_FRONTEND &&
	       UARCH_EV_STALL_FLUSH == UARCH_EV_COUNT - 1,
	       "the models' events are a 64-bit mask, the timing's last");

uint64_t retire_observed(struct hart *h, pmu_evset in_use)
{
	/* asked at every run (system mode's traps make many): the last answer */
	if (h->obs.valid && h->obs.in_use == in_use && h->obs.always == h->uev_always)
		return h->obs.mask;
	uint64_t m = UINT64_C(1) << UARCH_EV_CYCLES | h->uev_always;   /* the cycle stop reads cycles */
	for (int e = 0; e < UARCH_EV_COUNT; e++)
		if (h->uarch_map[e] && (in_use >> h->uarch_map[e] & 1))
			m |= UINT64_C(1) << e;
	static const uint8_t part[][2] = {   /* as retire_fold() corrects them */
		{UARCH_EV_L2_ACCESS, UARCH_EV_L2_WRITE_ACCESS}, {UARCH_EV_L2_MISS, UARCH_EV_L2_WRITE_MISS},
		{UARCH_EV_DTLB_ACCESS, UARCH_EV_DTLB_WRITE_ACCESS},
		{UARCH_EV_DTLB_MISS, UARCH_EV_DTLB_WRITE_MISS},
	};
	for (unsigned i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if (m >> part[i][0] & 1)
			m |= UINT64_C(1) << part[i][1];
	h->obs.valid = 1;
	h->obs.in_use = in_use;
	h->obs.always = h->uev_always;
	h->obs.mask = m;
	return m;
}

static uint64_t mispredicts(const struct uarch *u)
{
	return u->ev[UARCH_EV_BRANCH_DIR_MISPREDICT] + u->ev[UARCH_EV_BRANCH_TARGET_MISPREDICT] +
	       u->ev[UARCH_EV_RAS_MISPREDICT];
}

static void observe(struct hart *h)
{
	struct uarch *u = h->uarch;
	if (!u) {
		if (h->ctr_on)
			ctr_observe(h, 0);
		return;
	}
	uint64_t m = h->ctr_on ? mispredicts(u) : 0;
	uarch_retire(u, &h->rr);
	if (h->ctr_on)
		ctr_observe(h, mispredicts(u) != m);
}

static int branch_cond(unsigned id, uint64_t a, uint64_t b)
{
	switch (id) {
	case INSN_BEQ: return a == b;
	case INSN_BNE: return a != b;
	case INSN_BLT: return (int64_t)a < (int64_t)b;
	case INSN_BGE: return (int64_t)a >= (int64_t)b;
	case INSN_BLTU: return a < b;
	case INSN_BGEU: return a >= b;
	}
	return 0;
}

static inline __attribute__((always_inline)) void
prepare(struct hart *h, const struct dinsn *d, uint64_t pc, uint64_t fetch_pa, const uint64_t *x)
{
	struct retire_rec *r = &h->rr;
	uint64_t a = x[d->rs1];
	r->pc = pc;
	r->fetch_pa = fetch_pa;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* v = id | rd << 16 | rs1 << 24 | rs2 << 32 | rs3 << 40 | len << 48 | rm << 56:
	 * rd, rs1, rs2 (as reg() maps them) move to bytes 3..5, len stays in 6 */
	uint64_t v, w;
	memcpy(&v, &d->id, 8);
	const uint64_t *rw = rec_word[d->id];
	w = rw[0] | ((v << 8) & UINT64_C(0x00001f1f1f000000)) | (v & UINT64_C(0x00ff000000000000));
	w |= rw[1] & -(uint64_t)(((v >> 24) & 0xff) != 0);
	memcpy(REC_BYTES(r), &w, 8);
	unsigned cls = (uint8_t)w;
#else
	rec_static(r, d);
	unsigned cls = r->cls;
#endif
	/* a taken branch to the next instruction looks not taken by its pc */
	r->taken = cls == UARCH_CLS_BRANCH && d->imm == d->len && branch_cond(d->id, a, x[d->rs2]);
	r->addr = cls == UARCH_CLS_ATOMIC ? a : a + (uint64_t)(int64_t)d->imm;
	r->paddr = r->addr;        /* the step loop sets it after a translation */
	r->flags |= h->rr_bare;
	h->rr_pending = 1;
}

/* inline in retire_step, the one call per instruction */
static inline __attribute__((always_inline)) void finish(struct hart *h, uint64_t pc)
{
	if (!h->rr_pending)
		return;
	struct retire_rec *r = &h->rr;
	r->next_pc = pc;
	if (r->cls == UARCH_CLS_BRANCH)
		r->taken |= pc != r->pc + r->ilen;
	/* the common case, models without CTR, calls them directly */
	if (__builtin_expect(h->uarch && !h->ctr_on, 1))
		uarch_retire_inline(h->uarch, r);
	else
		observe(h);
	h->rr_pending = 0;
	if (__builtin_expect(h->trace != NULL, 0)) {
		retire_fold(h);
		h->trace(h->trace_ctx, h);
	}
}

void retire_finish(struct hart *h, uint64_t pc)
{
	finish(h, pc);
}

void retire_step(struct hart *h, const struct dinsn *d, uint64_t pc, uint64_t fetch_pa,
		 const uint64_t *x)
{
	finish(h, pc);
	if (d->id > INSN_ILLEGAL && d->id < INSN_COUNT)
		prepare(h, d, pc, fetch_pa, x);
}

static int is_link(unsigned r) { return r == 1 || r == 5; }

void retire_static(struct retire_rec *r, uint8_t ev[3], const struct dinsn *d, uint64_t pc)
{
	memset(r, 0, sizeof(*r));
	rec_static(r, d);
	r->pc = r->fetch_pa = pc;   /* user mode: untranslated */
	/* the EV()s of the instruction's handler (exec_ops.h), for the
	 * classes the translator takes */
	static const uint8_t class_ev[UARCH_CLS_COUNT] = {
		[UARCH_CLS_LOAD] = PMU_EV_LOAD, [UARCH_CLS_STORE] = PMU_EV_STORE,
		[UARCH_CLS_BRANCH] = PMU_EV_BRANCH, [UARCH_CLS_JAL] = PMU_EV_JAL,
		[UARCH_CLS_JALR] = PMU_EV_JALR, [UARCH_CLS_MUL] = PMU_EV_INT_MUL,
		[UARCH_CLS_DIV] = PMU_EV_INT_DIV, [UARCH_CLS_FP] = PMU_EV_FP,
		[UARCH_CLS_FP_DIV] = PMU_EV_FP, [UARCH_CLS_ATOMIC] = PMU_EV_ATOMIC,
	};
	ev[0] = retire_refine[d->id];
	ev[1] = class_ev[r->cls];
	ev[2] = 0;
	if ((r->cls == UARCH_CLS_JAL || r->cls == UARCH_CLS_JALR) && is_link(d->rd))
		ev[2] = PMU_EV_CALL;
	else if (r->cls == UARCH_CLS_JALR && is_link(d->rs1))
		ev[2] = PMU_EV_RET;
	else if (d->id == INSN_LR_W || d->id == INSN_LR_D)
		ev[2] = PMU_EV_LOAD;    /* LR and SC count as a load / store too */
	else if (d->id == INSN_SC_W || d->id == INSN_SC_D)
		ev[2] = PMU_EV_STORE;
}

void retire_jblock_init(struct retire_jblock *b, const struct uarch *u, const struct retire_rec *r,
			const uint8_t (*ev)[3], uint32_t n)
{
	uint8_t count[PMU_EV_MAX] = {0};
	if (u)
		uarch_block_init(u, &b->ub, r, n);
	else
		memset(&b->ub, 0, sizeof(b->ub));
	b->ub.r = r;
	b->ub.n = n;
	b->ev = ev;
	for (uint32_t k = 0; k < n; k++)
		for (int i = 0; i < 3; i++)
			count[ev[k][i]]++;
	b->nsum = 0;
	for (unsigned e = PMU_EV_NONE + 1; e < PMU_EV_MAX; e++)   /* not the sink */
		if (count[e]) {
			b->sum[b->nsum].ev = (uint8_t)e;
			b->sum[b->nsum++].n = count[e];
		}
}

void retire_block(struct hart *h, struct retire_jblock *b, uint32_t n, uint64_t next_pc,
		  uint32_t taken)
{
	uint64_t *evc = h->evc;
	h->jit_xmask = 0;   /* uarch_retire_block() looks up both lines of those */
	if (h->jit_classes) {   /* else no counter counts them */
		if (n == b->ub.n) {
			for (unsigned i = 0; i < b->nsum; i++)
				evc[b->sum[i].ev] += b->sum[i].n;
		} else {
			for (uint32_t k = 0; k < n; k++) {
				evc[b->ev[k][0]]++;
				evc[b->ev[k][1]]++;
				evc[b->ev[k][2]]++;
			}
		}
	}
	evc[PMU_EV_BRANCH_TAKEN] += taken;
	if (h->uarch)
		uarch_retire_block(h->uarch, &b->ub, n, h->jit_addr, next_pc, (int)taken);
}
