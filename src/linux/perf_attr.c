/* perf_event_open(2)'s attributes (perf_event.c): the checks of
 * perf_copy_attr and the riscv PMU's event_init, which maps an event to
 * the SBI event_idx Linux's riscv_pmu_sbi would ask the firmware for. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include "lx.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"
#include "perf_event_int.h"

/* perf_copy_attr: 0 or -errno. */
long lx_pe_copy_attr(struct lx *p, uint64_t ua, struct pe_attr *at)
{
	uint32_t size;
	if (lx_get(p, ua + 4, &size, 4))
		return -EFAULT;
	if (!size)
		size = ATTR_SIZE_VER0;   /* ABI quirk: 0 means the first layout */
	const uint8_t *src = NULL;
	if (size >= ATTR_SIZE_VER0 && size <= GPAGE_SIZE) {
		if (!(src = lx_rptr(p, ua, size)))
			return -EFAULT;
		for (uint32_t i = sizeof(*at); i < size; i++)
			if (src[i])    /* fields this kernel does not know, set */
				src = NULL, i = size;
	}
	if (!src) {
		uint32_t want = sizeof(*at);
		lx_put(p, ua + 4, &want, 4);
		return -E2BIG;
	}
	memset(at, 0, sizeof(*at));
	memcpy(at, src, size < sizeof(*at) ? size : sizeof(*at));
	at->size = size;
	if ((at->flags >> A_RESERVED_1) || at->reserved_2 || at->reserved_3)
		return -EINVAL;
	if (at->sample_type & ~(SAMPLE_MAX - 1) || at->read_format & ~(uint64_t)(FMT_MAX - 1))
		return -EINVAL;
	/* riscv's perf_reg_validate: 32 registers */
	if ((at->sample_type & SAMPLE_REGS_USER) && (!at->sample_regs_user || at->sample_regs_user >> 32))
		return -EINVAL;
	if ((at->sample_type & SAMPLE_REGS_INTR) && (!at->sample_regs_intr || at->sample_regs_intr >> 32))
		return -EINVAL;
	if ((at->sample_type & SAMPLE_STACK_USER) &&
	    (at->sample_stack_user >= 0xffff || (at->sample_stack_user & 7)))
		return -EINVAL;
	if ((at->sample_type & SAMPLE_WEIGHT) && (at->sample_type & SAMPLE_WEIGHT_STRUCT))
		return -EINVAL;
	uint64_t f = at->flags;
	if ((f & A_BIT(A_INHERIT_THREAD)) && !(f & A_BIT(A_INHERIT)))
		return -EINVAL;
	if ((f & A_BIT(A_REMOVE_ON_EXEC)) && (f & A_BIT(A_ENABLE_ON_EXEC)))
		return -EINVAL;
	if ((f & A_BIT(A_SIGTRAP)) && !(f & A_BIT(A_REMOVE_ON_EXEC)))
		return -EINVAL;
	return 0;
}

/* Can this core count SBI event idx at all (Linux learns it at probe
 * from config_matching; the profile's event map says the same)? */
static bool hw_supported(struct lx *p, uint32_t idx)
{
	struct session *ss = p->perf_ss;
	if (!ss)
		return false;
	struct evspec ev = {.event_idx = idx};
	if (idx == 1 || idx == 2)     /* mcycle and minstret */
		return session_countable(ss, &ev);
	const struct profile_sbi_event *m = profile_sbi_lookup(ss->prof, idx);
	return m && (m->counters & ss->cmask) && session_countable(ss, &ev);
}

/* The PMU's event_init: 0 or -errno. */
long lx_pe_event_init(struct lx *p, const struct pe_attr *at, enum pe_kind *kind, struct evspec *ev)
{
	uint64_t c = at->config;
	bool branch_stack = at->sample_type & SAMPLE_BRANCH_STACK;
	memset(ev, 0, sizeof(*ev));
	switch (at->type) {
	case PT_HARDWARE: case PT_HW_CACHE: {
		/* bits 63:32 may name the PMU; riscv's cpu PMU is type RAW */
		if ((c >> 32) && (c >> 32) != PT_RAW)
			return -ENOENT;
		c &= 0xffffffffu;
		if (branch_stack)
			return -EOPNOTSUPP;
		uint32_t idx;
		if (at->type == PT_HARDWARE) {
			if (c >= HW_MAX)
				return -EINVAL;
			idx = (uint32_t)c + 1;   /* SBI_PMU_HW_* = PERF_COUNT_HW_* + 1 */
		} else {
			unsigned cache = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;
			if (cache >= CACHE_MAX || op >= CACHE_OP_MAX || res >= CACHE_RESULT_MAX)
				return -EINVAL;
			idx = 1u << 16 | cache << 3 | op << 1 | res;
		}
		if (!hw_supported(p, idx))
			return -ENOENT;
		*kind = K_HW;
		ev->event_idx = idx;
		break;
	}
	case PT_RAW:
		if (branch_stack)
			return -EOPNOTSUPP;
		/* bits 63:62: 00 hardware raw, 10 SBI firmware, 11 platform firmware */
		switch (c >> 62) {
		case 0:
			if (c >> 56)
				return -ENOENT;
			*kind = K_HW;
			ev->event_idx = SBI_RAW_V2_IDX;
			ev->event_data = c;
			break;
		case 2:
			*kind = K_FW;
			ev->event_idx = SBI_FW_TYPE << 16 | (uint32_t)(c & 0xffff);
			break;
		case 3:
			*kind = K_FW;
			ev->event_idx = SBI_FW_TYPE << 16 | 0xffff;
			ev->event_data = c & ((1ull << 62) - 1);
			break;
		default:
			return -ENOENT;
		}
		if (!p->perf_ss)
			return -ENOENT;
		break;
	case PT_SOFTWARE:
		if (c == SW_CPU_CLOCK || c == SW_TASK_CLOCK) {
			if (branch_stack)
				return -EOPNOTSUPP;
			*kind = K_CLOCK;
		} else if (c == SW_DUMMY) {
			*kind = K_DUMMY;
		} else {
			return -ENOENT;   /* faults, switches...: not modelled */
		}
		break;
	default:
		return -ENOENT;
	}
	ev->exclude_user = !!(at->flags & A_BIT(A_EXCLUDE_USER));
	ev->exclude_kernel = !!(at->flags & A_BIT(A_EXCLUDE_KERNEL));
	ev->group = -1;
	return 0;
}

