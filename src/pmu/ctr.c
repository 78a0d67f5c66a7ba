/* Smctr/Ssctr Control Transfer Records. Section numbers (§N) are those of
 * the digest ../shared/spec/ctr.md, which cites smctr.adoc lines. The hart
 * owns privilege, traps, siselect and stateen; this file owns the CTR
 * state and never calls out. */
#include <string.h>
#include "rvpmu/ctr.h"

#define STATEEN_CTR (UINT64_C(1) << 54)

/* vsctrctl fields (§2): M (2) and MTE (9) are WPRI there */
#define VS_FIELDS (CTRCTL_U | CTRCTL_S | CTRCTL_RASEMU | CTRCTL_STE | \
	CTRCTL_BPFRZ | CTRCTL_LCOFIFRZ | CTRCTL_FILTERS)
/* sctrctl: a view of mctrctl without the M-only bits */
#define S_HIDDEN (CTRCTL_M | CTRCTL_MTE)

#define CAUSE_INTR (UINT64_C(1) << 63)
#define IRQ_LCOF 13
#define EXC_BREAKPOINT 3

void ctr_config_default(struct ctr_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->present = true;
	cfg->depths = 0x1f;
	cfg->ctl_optional = CTRCTL_OPTIONAL;
	cfg->smstateen = true;
	cfg->misp = true;
	cfg->type_field = true;
	cfg->cycles = true;
	cfg->cce_bits = 4;
}

unsigned ctr_depth(const struct ctr *c)
{
	return 16u << c->depth_enc;
}

static unsigned depth_mask(const struct ctr *c)
{
	return ctr_depth(c) - 1;
}

/* sctrdepth.DEPTH is WARL (§3). Our legalisation: an unsupported value
 * becomes the largest supported depth not above it (reserved 101..111
 * count as above 256, so writing 7 selects the maximum); if none is below,
 * the smallest supported one. */
static unsigned depth_legal(const struct ctr *c, unsigned w)
{
	if (w > 4)
		w = 4;
	for (int d = (int)w; d >= 0; d--)
		if (c->cfg.depths & (1u << d))
			return (unsigned)d;
	for (unsigned d = 0; d <= 4; d++)
		if (c->cfg.depths & (1u << d))
			return d;
	return 0;
}

/* CtrCycleCounter is reset by xctrctl writes and SCTRCLR (§10). CSR
 * accesses carry no time, so the reset instant is unknown: the next record
 * has CCV = 0 as the spec requires, and counting resumes from the next
 * transfer the hart reports. */
static void cc_reset(struct ctr *c)
{
	c->cc_count = 0;
	c->cc_valid = false;
	c->cc_timed = false;
}

int ctr_init(struct ctr *c, const struct ctr_config *cfg)
{
	memset(c, 0, sizeof *c);
	if (cfg->present) {
		if (!(cfg->depths & 0x1f) || (cfg->depths & ~0x1f))
			return -1;
		if (cfg->ctl_optional & ~CTRCTL_OPTIONAL)
			return -1;
		/* §8: external-trap recording needs both MTE and STE */
		if (!(cfg->ctl_optional & CTRCTL_STE) != !(cfg->ctl_optional & CTRCTL_MTE))
			return -1;
		if (cfg->cce_bits > 4 || (cfg->cce_bits && !cfg->cycles))
			return -1;
	}
	c->cfg = *cfg;
	c->ctl_mask = CTRCTL_MANDATORY | cfg->ctl_optional;
	c->depth_enc = cfg->present ? depth_legal(c, 4) : 0;
	cc_reset(c);
	return 0;
}

void ctr_set_stateen(struct ctr *c, uint64_t mstateen0, uint64_t hstateen0)
{
	c->mstateen_ctr = mstateen0 & STATEEN_CTR;
	/* §13: hstateen0.CTR is read-only 0 while mstateen0.CTR = 0 */
	c->hstateen_ctr = c->mstateen_ctr && (hstateen0 & STATEEN_CTR);
}

static uint64_t apply(enum ctr_csr_op op, uint64_t old, uint64_t val)
{
	switch (op) {
	case CTR_CSR_WRITE: return val;
	case CTR_CSR_SET: return old | val;
	case CTR_CSR_CLEAR: return old & ~val;
	}
	return old;
}

/* §13 for the S-level state: U never, S only with mstateen0.CTR = 1 when
 * Smstateen exists, M always; from V=1 (the state is then vsctrctl and
 * the shared status and entries) VU never, VS as S and also under
 * hstateen0.CTR, what HS could access being a virtual instruction. */
static int s_level_access(const struct ctr *c, unsigned priv)
{
	if (priv == CTR_PRIV_M)
		return CTR_OK;
	if (priv & CTR_PRIV_V) {
		if (c->cfg.smstateen && !c->mstateen_ctr)
			return CTR_ILLEGAL;
		return priv == CTR_PRIV_VU || (c->cfg.smstateen && !c->hstateen_ctr)
			? CTR_VIRTUAL : CTR_OK;
	}
	if (priv != CTR_PRIV_S)
		return CTR_ILLEGAL;
	if (c->cfg.smstateen && !c->mstateen_ctr)
		return CTR_ILLEGAL;
	return CTR_OK;
}

static uint64_t status_read(const struct ctr *c)
{
	return c->wrptr | (c->frozen ? CTRSTATUS_FROZEN : 0);
}

/* §4: WRPTR bits above depth-1 are read-only 0; bits 30:8 read-only 0. */
static void status_write(struct ctr *c, uint64_t v)
{
	bool was = c->frozen;
	c->wrptr = (unsigned)v & CTRSTATUS_WRPTR & depth_mask(c);
	c->frozen = v & CTRSTATUS_FROZEN;
	/* cycles between this write and the next reported transfer were
	 * active but have no time stamp: do not claim a correct count (§10,
	 * "clear CCV after other scenarios where cycles are not counted") */
	if (was && !c->frozen) {
		c->cc_valid = false;
		c->cc_timed = false;
	}
}

/* §2-§4 CSRs, §13 access control. */
int ctr_csr_access(struct ctr *c, unsigned priv, unsigned csr,
		   enum ctr_csr_op op, uint64_t val, int writes, uint64_t *old)
{
	if (csr != CTR_CSR_MCTRCTL && csr != CTR_CSR_SCTRCTL &&
	    csr != CTR_CSR_VSCTRCTL && csr != CTR_CSR_SCTRDEPTH &&
	    csr != CTR_CSR_SCTRSTATUS)
		return CTR_NOT_CTR;
	if (!c->cfg.present)
		return CTR_NOT_CTR;
	int r;
	uint64_t cur, nv;
	switch (csr) {
	case CTR_CSR_MCTRCTL:
		if (priv != CTR_PRIV_M)
			return CTR_ILLEGAL;
		*old = c->mctrctl;
		if (writes) {
			c->mctrctl = apply(op, *old, val) & c->ctl_mask;
			cc_reset(c);
		}
		return CTR_OK;
	case CTR_CSR_SCTRCTL:
		if ((r = s_level_access(c, priv)))
			return r;
		if (priv & CTR_PRIV_V)   /* V=1: sctrctl is vsctrctl */
			goto vsctrctl;
		*old = c->mctrctl & ~S_HIDDEN;
		if (writes) {
			uint64_t m = c->ctl_mask & ~S_HIDDEN;
			nv = apply(op, *old, val);
			c->mctrctl = (c->mctrctl & ~m) | (nv & m);
			cc_reset(c);
		}
		return CTR_OK;
	case CTR_CSR_VSCTRCTL:
		/* an HRW CSR: absent without H; from HS subject to mstateen0 */
		if (!c->cfg.has_h)
			return CTR_ILLEGAL;
		if ((r = s_level_access(c, priv & ~CTR_PRIV_V)))
			return r;
		if (priv & CTR_PRIV_V)   /* a VS CSR from V=1 (Hypervisor rule) */
			return CTR_VIRTUAL;
	vsctrctl:
		*old = c->vsctrctl;
		if (writes) {
			c->vsctrctl = apply(op, *old, val) & c->ctl_mask & VS_FIELDS;
			cc_reset(c);
		}
		return CTR_OK;
	case CTR_CSR_SCTRDEPTH:
		if ((r = s_level_access(c, priv)))
			return r;
		if (priv & CTR_PRIV_V)  /* §3: whatever hstateen0.CTR says */
			return CTR_VIRTUAL;
		*old = c->depth_enc;
		if (writes) {
			unsigned d = depth_legal(c, (unsigned)apply(op, *old, val) & 7);
			if (d != c->depth_enc) {
				c->depth_enc = d;
				/* §4: WRPTR unspecified but legal after a depth
				 * change; we drop the bits the new depth lacks */
				c->wrptr &= depth_mask(c);
			}
		}
		return CTR_OK;
	case CTR_CSR_SCTRSTATUS:
		if ((r = s_level_access(c, priv)))
			return r;
		cur = status_read(c);
		*old = cur;
		if (writes)
			status_write(c, apply(op, cur, val));
		return CTR_OK;
	}
	return CTR_NOT_CTR;
}

/* Implemented ctrdata bits (§5, §10). */
static uint64_t data_mask(const struct ctr *c)
{
	uint64_t m = c->cfg.type_field ? CTRDATA_TYPE : 0;
	if (c->cfg.cycles)
		m |= CTRDATA_CCV | CTRDATA_CCM |
		     ((UINT64_C(1) << c->cfg.cce_bits) - 1) << CTRDATA_CCE_SHIFT;
	return m;
}

/* §5 entry registers through siselect 0x200-0x2FF; §4 logical entry X is
 * physical (WRPTR - X - 1) mod depth; §3 entries >= depth read 0, RO. */
int ctr_ireg_access(struct ctr *c, unsigned priv, uint64_t siselect,
		    unsigned n, enum ctr_csr_op op, uint64_t val, int writes,
		    uint64_t *old)
{
	if (siselect < CTR_SISELECT_FIRST || siselect > CTR_SISELECT_LAST ||
	    n < 1 || n > 6 || !c->cfg.present)
		return CTR_NOT_CTR;
	int r = s_level_access(c, priv);
	if (r)
		return r;
	unsigned x = (unsigned)(siselect - CTR_SISELECT_FIRST);
	*old = 0;
	if (n > 3 || x >= ctr_depth(c))
		return CTR_OK;       /* sireg4..6 and entries beyond depth: RO 0 */
	struct ctr_entry *e = &c->e[(c->wrptr - x - 1) & depth_mask(c)];
	uint64_t *reg = n == 1 ? &e->source : n == 2 ? &e->target : &e->data;
	*old = *reg;
	if (!writes)
		return CTR_OK;
	uint64_t nv = apply(op, *old, val);
	if (n == 2 && !c->cfg.misp)
		nv &= ~CTRTARGET_MISP;
	if (n == 3) {
		nv &= data_mask(c);
		unsigned t = nv & CTRDATA_TYPE;
		if (t == 6 || t == 7)        /* reserved TYPEs: WARL -> 0 */
			nv &= ~CTRDATA_TYPE;
	}
	*reg = nv;
	return CTR_OK;
}

/* §10 CC encoding: CCE = msb index - 11 (0 below 4096), CCM = count bits
 * CCE+10:CCE-1; all implemented bits 1 once CCE would not fit. */
uint32_t ctr_cc_encode(uint64_t count, unsigned cce_bits)
{
	if (count < 4096)
		return (uint32_t)count;
	unsigned cce = 63 - (unsigned)__builtin_clzll(count) - 11;
	unsigned cce_max = (1u << cce_bits) - 1;
	if (cce > cce_max)
		return cce_max << 12 | 0xfff;
	return cce << 12 | (uint32_t)((count >> (cce - 1)) & 0xfff);
}

uint64_t ctr_cc_decode(uint32_t cc)
{
	unsigned cce = cc >> 12 & 0xf, ccm = cc & 0xfff;
	if (!cce)
		return ccm;
	return (uint64_t)(4096 + ccm) << (cce - 1);
}

/* §7 rule 1: M, S (HS) and U from mctrctl, VS and VU from vsctrctl */
static bool mode_enabled(const struct ctr *c, unsigned priv)
{
	switch (priv) {
	case CTR_PRIV_M: return c->mctrctl & CTRCTL_M;
	case CTR_PRIV_S: return c->mctrctl & CTRCTL_S;
	case CTR_PRIV_U: return c->mctrctl & CTRCTL_U;
	case CTR_PRIV_VS: return c->vsctrctl & CTRCTL_S;
	case CTR_PRIV_VU: return c->vsctrctl & CTRCTL_U;
	}
	return false;
}

/* §2: TYPE t is dropped by bit 32 + t, except NTBREN which opts in */
static bool type_filtered(uint64_t ctl, enum ctr_type t)
{
	if (t == CTR_TYPE_NTBR)
		return !(ctl & CTRCTL_NTBREN);
	return ctl >> (32 + t) & 1;
}

/* §8 external trap enables: the target's and every intervening mode's
 * xTE. sctrctl.STE covers traps into HS from U, VS and VU; vsctrctl.STE
 * those out of VU (into VS, or on through it). */
static bool ext_trap_enabled(const struct ctr *c, unsigned from, unsigned to)
{
	uint64_t need = 0;
	if (to == CTR_PRIV_M)
		need |= CTRCTL_MTE;
	if ((from == CTR_PRIV_U || (from & CTR_PRIV_V)) && !(to & CTR_PRIV_V))
		need |= CTRCTL_STE;
	bool vs_ste = from == CTR_PRIV_VU;
	return (need || vs_ste) && (c->mctrctl & need) == need &&
	       (!vs_ste || (c->vsctrctl & CTRCTL_STE));
}

/* Count the cycles since the last reported event; the hart reports every
 * transfer, so that interval was spent in priv_from (§10: only active
 * cycles count). */
static void cc_account(struct ctr *c, unsigned priv_from, uint64_t now)
{
	bool active = mode_enabled(c, priv_from) && !c->frozen;
	if (c->cc_timed && active && now > c->cc_last)
		c->cc_count += now - c->cc_last;
	c->cc_last = now;
	c->cc_timed = true;
}

/* §7 recording step into physical entry phys; restarts the counter. */
static void write_entry(struct ctr *c, unsigned phys, uint64_t src,
			uint64_t dst, enum ctr_type type, int misp)
{
	struct ctr_entry *e = &c->e[phys];
	e->source = (src & ~CTRSOURCE_V) | CTRSOURCE_V;
	e->target = (dst & ~CTRTARGET_MISP) |
		    (c->cfg.misp && misp ? CTRTARGET_MISP : 0);
	e->data = c->cfg.type_field ? (uint64_t)type : 0;
	if (c->cfg.cycles)
		e->data |= (c->cc_valid ? CTRDATA_CCV : 0) |
			   (uint64_t)ctr_cc_encode(c->cc_count, c->cfg.cce_bits)
			   << CTRDATA_CCM_SHIFT;
	c->cc_count = 0;
	c->cc_valid = true;
}

static void push(struct ctr *c, uint64_t src, uint64_t dst,
		 enum ctr_type type, int misp)
{
	write_entry(c, c->wrptr, src, dst, type, misp);
	c->wrptr = (c->wrptr + 1) & depth_mask(c);
}

/* §9: a pop keeps the running count and adds the popped call's CC, so the
 * next call's CC spans back to the remaining parent record. */
static void pop_cycles(struct ctr *c, const struct ctr_entry *e)
{
	if (!c->cfg.cycles)
		return;
	if ((e->source & CTRSOURCE_V) && (e->data & CTRDATA_CCV))
		c->cc_count += ctr_cc_decode((uint32_t)(e->data >> CTRDATA_CCM_SHIFT) & 0xffff);
	else
		c->cc_valid = false;
}

/* §9 RASEMU = 1 */
static int rasemu(struct ctr *c, uint64_t src, uint64_t dst,
		  enum ctr_type type, int misp)
{
	unsigned m = depth_mask(c), top;
	switch (type) {
	case CTR_TYPE_INDCALL:
	case CTR_TYPE_DIRCALL:
		push(c, src, dst, type, misp);
		return 1;
	case CTR_TYPE_RET:
		c->wrptr = (c->wrptr - 1) & m;
		pop_cycles(c, &c->e[c->wrptr]);
		c->e[c->wrptr].source &= ~CTRSOURCE_V;
		return 1;
	case CTR_TYPE_CORSWAP:
		top = (c->wrptr - 1) & m;
		pop_cycles(c, &c->e[top]);
		write_entry(c, top, src, dst, type, misp);
		return 1;
	default:
		return 0;
	}
}

/* §7 qualification, §8 trap and trap-return cases, §9 RASEMU. */
int ctr_transfer(struct ctr *c, unsigned priv_from, unsigned priv_to,
		 uint64_t from_pc, uint64_t to_pc, enum ctr_type type,
		 int mispredicted, uint64_t now_cycles)
{
	if (!c->cfg.present)
		return 0;
	cc_account(c, priv_from, now_cycles);
	if (c->frozen || type == CTR_TYPE_NONE || type == 6 || type == 7 ||
	    (unsigned)type > 15)
		return 0;
	bool src_en = mode_enabled(c, priv_from);
	bool dst_en = mode_enabled(c, priv_to);
	/* §8: with V=1 on either side, the other fields are vsctrctl's */
	uint64_t ctl = (priv_from | priv_to) & CTR_PRIV_V ? c->vsctrctl : c->mctrctl;
	if (ctl & CTRCTL_RASEMU)
		return src_en ? rasemu(c, from_pc, to_pc, type, mispredicted) : 0;
	switch (type) {
	case CTR_TYPE_EXC:
	case CTR_TYPE_INTR:
		if (src_en && dst_en) {
			if (type_filtered(ctl, type))
				return 0;
		} else if (src_en) {
			/* external trap: EXCINH/INTRINH do not apply */
			if (!ext_trap_enabled(c, priv_from, priv_to))
				return 0;
			to_pc = 0;
		} else if (dst_en) {
			if (type_filtered(ctl, type))
				return 0;
			from_pc = 0;
		} else {
			return 0;
		}
		break;
	case CTR_TYPE_TRET:
		if (!src_en || type_filtered(ctl, type))
			return 0;
		if (!dst_en)
			to_pc = 0;
		break;
	default:
		if (!src_en || type_filtered(ctl, type))
			return 0;
	}
	push(c, from_pc, to_pc, type, mispredicted);
	return 1;
}

/* §11: freeze when the control register's bit is set */
static bool freeze_if(struct ctr *c, uint64_t ctl, uint64_t bit)
{
	if (!c->cfg.present || !(ctl & bit))
		return false;
	c->frozen = true;
	return true;
}

/* §11: freeze on an LCOFI trap to M or S */
bool ctr_freeze_lcofi(struct ctr *c)
{
	return freeze_if(c, c->mctrctl, CTRCTL_LCOFIFRZ);
}

/* §11: freeze on a breakpoint exception (cause 3) to M or S */
bool ctr_freeze_bp(struct ctr *c)
{
	return freeze_if(c, c->mctrctl, CTRCTL_BPFRZ);
}

/* §8 trap records, §11 freeze (the freezing trap itself is not recorded):
 * a trap to VS freezes by vsctrctl's bits, one to HS or M by sctrctl's,
 * whether or not V changes. */
int ctr_trap(struct ctr *c, unsigned priv_from, unsigned priv_to,
	     uint64_t epc, uint64_t target, uint64_t cause, uint64_t now_cycles)
{
	if (!c->cfg.present)
		return 0;
	bool intr = cause & CAUSE_INTR;
	uint64_t code = cause & ~CAUSE_INTR;
	cc_account(c, priv_from, now_cycles);
	uint64_t ctl = priv_to == CTR_PRIV_VS ? c->vsctrctl : c->mctrctl;
	if (priv_to != CTR_PRIV_U && priv_to != CTR_PRIV_VU &&
	    (intr ? code == IRQ_LCOF && freeze_if(c, ctl, CTRCTL_LCOFIFRZ)
		  : code == EXC_BREAKPOINT && freeze_if(c, ctl, CTRCTL_BPFRZ)))
		return 0;
	return ctr_transfer(c, priv_from, priv_to, epc, target,
			    intr ? CTR_TYPE_INTR : CTR_TYPE_EXC, 0, now_cycles);
}

/* §12 SCTRCLR: illegal in U, and in S while mstateen0.CTR = 0; from
 * VS under hstateen0.CTR, never from VU (§13) */
int ctr_sctrclr(struct ctr *c, unsigned priv)
{
	if (!c->cfg.present)
		return CTR_NOT_CTR;
	int r = s_level_access(c, priv);
	if (r)
		return r;
	ctr_clear(c);
	return CTR_OK;
}

void ctr_clear(struct ctr *c)
{
	memset(c->e, 0, sizeof c->e);
	cc_reset(c);
}

static bool is_link(unsigned r)
{
	return r == 1 || r == 5;
}

/* §6 jump classification table (E-trace itype rules) */
enum ctr_type ctr_classify(enum ctr_insn cls, unsigned rd, unsigned rs1,
			   bool taken)
{
	switch (cls) {
	case CTR_INSN_BRANCH:
		return taken ? CTR_TYPE_TKBR : CTR_TYPE_NTBR;
	case CTR_INSN_JAL:
		if (is_link(rd))
			return CTR_TYPE_DIRCALL;
		return rd == 0 ? CTR_TYPE_DIRJMP : CTR_TYPE_DIRLJMP;
	case CTR_INSN_JALR:
		if (is_link(rd))
			return is_link(rs1) && rs1 != rd ? CTR_TYPE_CORSWAP
							 : CTR_TYPE_INDCALL;
		if (is_link(rs1))
			return CTR_TYPE_RET;
		return rd == 0 ? CTR_TYPE_INDJMP : CTR_TYPE_INDLJMP;
	case CTR_INSN_CM_JT:
		return CTR_TYPE_DIRJMP;
	case CTR_INSN_CM_JALT:
		return CTR_TYPE_DIRCALL;
	case CTR_INSN_CM_POPRET:
		return CTR_TYPE_RET;
	}
	return CTR_TYPE_NONE;
}

unsigned ctr_read_records(const struct ctr *c, struct ctr_record *out,
			  unsigned max)
{
	unsigned n = 0, depth = ctr_depth(c);
	if (!c->cfg.present)
		return 0;
	for (unsigned x = 0; x < depth && n < max; x++) {
		const struct ctr_entry *e = &c->e[(c->wrptr - x - 1) & (depth - 1)];
		if (!(e->source & CTRSOURCE_V))
			continue;
		struct ctr_record *r = &out[n++];
		r->from = e->source & ~CTRSOURCE_V;
		r->to = e->target & ~CTRTARGET_MISP;
		r->type = (enum ctr_type)(e->data & CTRDATA_TYPE);
		r->misp = e->target & CTRTARGET_MISP;
		r->ccv = e->data & CTRDATA_CCV;
		r->cycles = ctr_cc_decode((uint32_t)(e->data >> CTRDATA_CCM_SHIFT) & 0xffff);
	}
	return n;
}

bool ctr_enabled(const struct ctr *c)
{
	return c->cfg.present && ((c->mctrctl & (CTRCTL_U | CTRCTL_S | CTRCTL_M)) ||
				  (c->vsctrctl & (CTRCTL_U | CTRCTL_S)));
}
