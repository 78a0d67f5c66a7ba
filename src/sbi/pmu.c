/* SBI PMU extension (EID 0x504D55), functions 0-8 (SBI spec 3.0, chapter
 * "Performance Monitoring Unit Extension"). Hardware counters are driven
 * only through CSR accesses at M privilege: mhpmevent, mcountinhibit and
 * the counters themselves. Counter ids follow OpenSBI's numbering, which
 * Linux relies on: id i = CSR offset i (0 mcycle, 1 time (never valid),
 * 2 minstret, 3.. mhpmcounterN), then SBI_FW_COUNTERS firmware counters. */
#include <string.h>
#include "rvpmu/hart.h"
#include "rvpmu/profile.h"
#include "rvpmu/sbi.h"
#include "mcsr.h"

enum {
	CFG_SKIP_MATCH = 1 << 0, CFG_CLEAR_VALUE = 1 << 1, CFG_AUTO_START = 1 << 2,
	CFG_SET_VUINH = 1 << 3, CFG_SET_VSINH = 1 << 4, CFG_SET_UINH = 1 << 5,
	CFG_SET_SINH = 1 << 6, CFG_SET_MINH = 1 << 7,
	START_SET_INIT_VALUE = 1 << 0, START_INIT_SNAPSHOT = 1 << 1,
	STOP_RESET = 1 << 0, STOP_TAKE_SNAPSHOT = 1 << 1,
};

#define CSR_MCOUNTINHIBIT 0x320
#define CSR_MHPMEVENT(i)  (0x320 + (i))
#define CSR_MCOUNTER(i)   (0xb00 + (i))
#define EVENT_TYPE(e)     ((e) >> 16)
#define SNAPSHOT_SIZE     4096


static int is_hw(const struct sbi_state *s, unsigned i) { return i < s->num_hw && i != 1; }
static int is_fw(const struct sbi_state *s, unsigned i) { return i >= s->num_hw && i < s->num_hw + SBI_FW_COUNTERS; }
static unsigned total(const struct sbi_state *s) { return s->num_hw + SBI_FW_COUNTERS; }

void sbi_pmu_init(struct sbi_state *s, struct hart *h)
{
	s->num_hw = 3 + h->pmu.cfg.n_hpm;
	s->shmem = ~0ull;
	/* every counter stopped, hpm counters unprogrammed; cycle and instret
	 * are permanently mapped to their events, as OpenSBI does */
	wr(h, CSR_MCOUNTINHIBIT, HART_CSR_WRITE, ((1ull << s->num_hw) - 1) & ~2ull);
	s->ctr[0].event_idx = 1;
	s->ctr[2].event_idx = 2;
}

/* The selector that makes hardware counter i count event_idx: from the
 * profile's SBI event map (the same map the device tree carries for
 * OpenSBI), or raw. 0 = this counter cannot count it. */
static uint64_t hw_selector(const struct sbi_state *s, struct hart *h, unsigned i,
			    uint32_t event_idx, uint64_t event_data)
{
	struct pmu *p = &h->pmu;
	uint64_t sel = 0;
	switch (EVENT_TYPE(event_idx)) {
	case 0: case 1: { /* HW general and cache events */
		const struct profile_sbi_event *e = s->prof ? profile_sbi_lookup(s->prof, event_idx) : NULL;
		if (!e && !s->prof && (event_idx == 1 || event_idx == 2))
			sel = event_idx;  /* no profile: the virt decoder's numbering */
		if (e && ((e->counters >> i) & 1))
			sel = e->selector;
		break;
	}
	case 2: /* raw: event_data bits 47:0 */
		if ((event_idx & 0xffff) == 0 && !(event_data >> 48))
			sel = event_data;
		break;
	case 3: /* raw v2: bits 55:0 */
		if ((event_idx & 0xffff) == 0 && !(event_data >> 56))
			sel = event_data;
		break;
	}
	if (sel && !(p->cfg.decode ? p->cfg.decode(p->cfg.decode_ctx, sel) : pmu_decode_virt(NULL, sel)))
		sel = 0;
	return sel;
}

static int can_count(const struct sbi_state *s, struct hart *h, unsigned i,
		     uint32_t event_idx, uint64_t event_data)
{
	if (i == 0)
		return event_idx == 1;
	if (i == 2)
		return event_idx == 2;
	return hw_selector(s, h, i, event_idx, event_data) != 0;
}

/* SBI "counter_idx_base/counter_idx_mask": every named id must be valid. */
static long check_set(const struct sbi_state *s, uint64_t base, uint64_t mask)
{
	if (!mask || base >= total(s))
		return SBI_ERR_INVALID_PARAM;
	unsigned top = 63 - (unsigned)__builtin_clzll(mask);
	if (top >= total(s) - base)
		return SBI_ERR_INVALID_PARAM;
	for (unsigned b = 0; b <= top; b++)
		if (((mask >> b) & 1) && !is_hw(s, (unsigned)(base + b)) && !is_fw(s, (unsigned)(base + b)))
			return SBI_ERR_INVALID_PARAM;
	return SBI_SUCCESS;
}

static int hw_started(struct hart *h, unsigned i)
{
	return !((rd(h, CSR_MCOUNTINHIBIT) >> i) & 1);
}

static int started(struct sbi_state *s, struct hart *h, unsigned i)
{
	return is_fw(s, i) ? s->ctr[i].started : hw_started(h, i);
}

static void program_hw(struct sbi_state *s, struct hart *h, unsigned i, uint32_t event_idx,
		       uint64_t event_data, uint64_t flags)
{
	/* filters from the config hints; M-mode never counts itself (MINH),
	 * as OpenSBI does */
	uint64_t inh = PMU_MINH;
	if (flags & CFG_SET_SINH) inh |= PMU_SINH;
	if (flags & CFG_SET_UINH) inh |= PMU_UINH;
	if (flags & CFG_SET_VSINH) inh |= PMU_VSINH;
	if (flags & CFG_SET_VUINH) inh |= PMU_VUINH;
	if (i >= 3)
		wr(h, CSR_MHPMEVENT(i), HART_CSR_WRITE, hw_selector(s, h, i, event_idx, event_data) | inh);
	else if (h->pmu.cfg.smcntrpmf)
		wr(h, i == 0 ? 0x321 : 0x322, HART_CSR_WRITE, inh);
	s->ctr[i].event_idx = event_idx;
	s->ctr[i].event_data = event_data;
}

static long config_matching(struct sbi_state *s, struct hart *h, const uint64_t *a, uint64_t *value)
{
	uint64_t base = a[0], mask = a[1], flags = a[2], data = a[4];
	uint32_t event_idx = (uint32_t)a[3];
	long err = check_set(s, base, mask);
	if (err)
		return err;
	if ((flags >> 8) || (a[3] >> 20))
		return SBI_ERR_INVALID_PARAM;
	int fw = EVENT_TYPE(event_idx) == 15;
	if (fw && ((event_idx & 0xffff) >= SBI_FW_EVENT_MAX || data))
		return SBI_ERR_NOT_SUPPORTED;  /* 0xFFFF (platform) has no events here */

	unsigned pick = ~0u;
	if (flags & CFG_SKIP_MATCH) {
		pick = (unsigned)(base + (unsigned)__builtin_ctzll(mask));
		if (!s->ctr[pick].event_idx)
			return SBI_ERR_INVALID_PARAM;  /* nothing configured to keep */
	} else {
		/* with Sscofpmf, a programmable counter first so that it can
		 * sample; the fixed cycle/instret counters only as a fallback */
		for (int pass = 0; pass < 2 && pick == ~0u; pass++)
			for (unsigned b = 0; b < 64 && pick == ~0u; b++) {
				unsigned i = (unsigned)(base + b);
				if (!((mask >> b) & 1) || started(s, h, i))
					continue;
				if (fw) {
					if (is_fw(s, i) && !s->ctr[i].event_idx)
						pick = i;
					continue;
				}
				int fixed = i < 3;
				if (!is_hw(s, i) || (fixed == (pass == 0) && h->pmu.cfg.sscofpmf))
					continue;
				if ((fixed || !s->ctr[i].event_idx) && can_count(s, h, i, event_idx, data))
					pick = i;
			}
		if (pick == ~0u)
			return SBI_ERR_NOT_SUPPORTED;
		if (fw) {
			s->ctr[pick].event_idx = event_idx;
			s->ctr[pick].event_data = data;
		} else {
			program_hw(s, h, pick, event_idx, data, flags);
		}
	}
	if (flags & CFG_CLEAR_VALUE) {
		if (is_fw(s, pick))
			s->ctr[pick].value = 0;
		else
			wr(h, CSR_MCOUNTER(pick), HART_CSR_WRITE, 0);
	}
	if ((flags & CFG_AUTO_START) && !started(s, h, pick)) {
		if (is_fw(s, pick))
			s->ctr[pick].started = 1;
		else
			wr(h, CSR_MCOUNTINHIBIT, HART_CSR_CLEAR, 1ull << pick);
	}
	*value = pick;
	return SBI_SUCCESS;
}

static int shmem_ok(struct hart *h, uint64_t addr, uint64_t len)
{
	return gmem_check(&h->mem, addr, len, GP_R | GP_W);
}

static long start_stop(struct sbi_state *s, struct hart *h, unsigned fid, const uint64_t *a)
{
	uint64_t base = a[0], mask = a[1], flags = a[2], init = a[3];
	long err = check_set(s, base, mask);
	if (err)
		return err;
	if (flags >> 2)
		return SBI_ERR_INVALID_PARAM;
	if (fid == 3 && (flags & START_SET_INIT_VALUE) && (flags & START_INIT_SNAPSHOT))
		return SBI_ERR_INVALID_PARAM;  /* mutually exclusive */
	if ((fid == 3 ? flags & START_INIT_SNAPSHOT : flags & STOP_TAKE_SNAPSHOT) && s->shmem == ~0ull)
		return SBI_ERR_NO_SHMEM;
	uint8_t *snap = s->shmem == ~0ull ? NULL : h->mem.base + s->shmem;
	uint64_t ovf = 0;
	if (snap && fid == 4 && (flags & STOP_TAKE_SNAPSHOT))
		memcpy(&ovf, snap, 8);

	/* Every counter of the set is processed, and ALREADY_STARTED/STOPPED
	 * is returned only when every one of them already was: Linux stops
	 * whole sets with RESET (and relies on RESET unmapping the stopped
	 * ones too, as OpenSBI does), and in its overflow handler it reads
	 * the snapshot only when a stop of all used counters succeeds. */
	long ret = SBI_SUCCESS;
	int changed = 0;
	for (unsigned b = 0; b < 64; b++) {
		unsigned i = (unsigned)(base + b);
		if (!((mask >> b) & 1))
			continue;
		int fw = is_fw(s, i);
		if (started(s, h, i) == (fid == 3)) {
			ret = fid == 3 ? SBI_ERR_ALREADY_STARTED : SBI_ERR_ALREADY_STOPPED;
			if (fid == 4 && (flags & STOP_RESET)) {
				if (i >= 3 && !fw)
					wr(h, CSR_MHPMEVENT(i), HART_CSR_WRITE, 0);
				if (fw || i >= 3)
					s->ctr[i].event_idx = 0;
			}
			continue;
		}
		changed = 1;
		if (fid == 3) {
			uint64_t v;
			int set = 1;
			if (flags & START_SET_INIT_VALUE)
				v = init;
			else if (flags & START_INIT_SNAPSHOT)
				memcpy(&v, snap + 8 + 8 * b, 8);
			else
				set = 0;
			if (fw) {
				if (set)
					s->ctr[i].value = v;
				s->ctr[i].started = 1;
				continue;
			}
			if (set) {
				wr(h, CSR_MCOUNTER(i), HART_CSR_WRITE, v);
				if (i >= 3)  /* a new start value clears a stale overflow */
					wr(h, CSR_MHPMEVENT(i), HART_CSR_CLEAR, PMU_OF);
			}
			wr(h, CSR_MCOUNTINHIBIT, HART_CSR_CLEAR, 1ull << i);
			continue;
		}
		/* stop */
		if (fw)
			s->ctr[i].started = 0;
		else
			wr(h, CSR_MCOUNTINHIBIT, HART_CSR_SET, 1ull << i);
		if (flags & STOP_TAKE_SNAPSHOT) {
			uint64_t v = fw ? s->ctr[i].value : rd(h, CSR_MCOUNTER(i));
			memcpy(snap + 8 + 8 * b, &v, 8);
			int of = !fw && i >= 3 && (rd(h, CSR_MHPMEVENT(i)) & PMU_OF);
			ovf = of ? ovf | 1ull << b : ovf & ~(1ull << b);
		}
		if (flags & STOP_RESET) {
			if (i >= 3 && !fw)
				wr(h, CSR_MHPMEVENT(i), HART_CSR_WRITE, 0);
			if (fw || i >= 3)
				s->ctr[i].event_idx = 0;
		}
	}
	if (snap && fid == 4 && (flags & STOP_TAKE_SNAPSHOT))
		memcpy(snap, &ovf, 8);
	return changed ? SBI_SUCCESS : ret;
}

static long snapshot_set_shmem(struct sbi_state *s, struct hart *h, const uint64_t *a)
{
	uint64_t lo = a[0], hi = a[1], flags = a[2];
	if (s->no_snapshot)
		return SBI_ERR_NOT_SUPPORTED;
	if (flags)
		return SBI_ERR_INVALID_PARAM;
	if (lo == ~0ull && hi == ~0ull) {
		s->shmem = ~0ull;
		return SBI_SUCCESS;
	}
	if (lo & (SNAPSHOT_SIZE - 1))
		return SBI_ERR_INVALID_PARAM;
	if (hi || !shmem_ok(h, lo, SNAPSHOT_SIZE))
		return SBI_ERR_INVALID_ADDRESS;
	s->shmem = lo;
	return SBI_SUCCESS;
}

static int event_supported(struct sbi_state *s, struct hart *h, uint32_t event_idx, uint64_t data)
{
	switch (EVENT_TYPE(event_idx)) {
	case 0: case 2: case 3:
		for (unsigned i = 0; i < s->num_hw; i++)
			if (is_hw(s, i) && can_count(s, h, i, event_idx, data))
				return 1;
		return 0;
	case 15:
		return (event_idx & 0xffff) < SBI_FW_EVENT_MAX && !data;
	}
	return 0;  /* no cache events: this core has no cache models yet */
}

static long event_get_info(struct sbi_state *s, struct hart *h, const uint64_t *a)
{
	uint64_t lo = a[0], hi = a[1], n = a[2], flags = a[3];
	if (flags || !n || (lo & 15))
		return SBI_ERR_INVALID_PARAM;
	if (hi || n > (1ull << 32) || !shmem_ok(h, lo, 16 * n))
		return SBI_ERR_INVALID_ADDRESS;
	uint8_t *e = h->mem.base + lo;
	for (uint64_t k = 0; k < n; k++) {
		uint32_t idx;
		memcpy(&idx, e + 16 * k, 4);
		if (idx >> 20)
			return SBI_ERR_INVALID_PARAM;
	}
	for (uint64_t k = 0; k < n; k++) {
		uint32_t idx, out;
		uint64_t data;
		memcpy(&idx, e + 16 * k, 4);
		memcpy(&data, e + 16 * k + 8, 8);
		int uses_data = EVENT_TYPE(idx) == 2 || EVENT_TYPE(idx) == 3 || EVENT_TYPE(idx) == 15;
		out = (uint32_t)event_supported(s, h, idx, uses_data ? data : 0);
		memcpy(e + 16 * k + 4, &out, 4);
	}
	return SBI_SUCCESS;
}

long sbi_pmu_call(struct sbi_state *s, struct hart *h, unsigned fid, const uint64_t *a, uint64_t *value)
{
	switch (fid) {
	case 0:
		*value = total(s);
		return SBI_SUCCESS;
	case 1: {
		unsigned i = (unsigned)a[0];
		if (a[0] >= total(s) || (!is_hw(s, i) && !is_fw(s, i)))
			return SBI_ERR_INVALID_PARAM;
		if (is_fw(s, i)) {
			*value = 1ull << 63 | 63ull << 12;
			return SBI_SUCCESS;
		}
		unsigned width = i < 3 ? 64 : h->pmu.cfg.hpm_width;
		*value = (uint64_t)(width - 1) << 12 | (0xc00 + i);
		return SBI_SUCCESS;
	}
	case 2: return config_matching(s, h, a, value);
	case 3: case 4: return start_stop(s, h, fid, a);
	case 5: case 6:
		if (a[0] >= total(s) || !is_fw(s, (unsigned)a[0]))
			return SBI_ERR_INVALID_PARAM;
		*value = fid == 5 ? s->ctr[a[0]].value : 0;  /* RV64: no high half */
		return SBI_SUCCESS;
	case 7: return snapshot_set_shmem(s, h, a);
	case 8: return event_get_info(s, h, a);
	}
	return SBI_ERR_NOT_SUPPORTED;
}
